// A game's report as JSON (one line) and as text lines.
#include <cstdio>

#include "arbiter/json.hpp"
#include "validate.hpp"

namespace arb::records {

namespace {

void finding_json(std::string& o, const Finding& f) {
  o += "{\"severity\":\"";
  o += f.severity == Severity::Error ? "error" : "warning";
  o += "\",\"code\":\"" + json_escape(f.code) + "\",\"line\":" + std::to_string(f.line) +
       ",\"column\":" + std::to_string(f.column) + ",\"ply\":" + std::to_string(f.ply) + ",\"move\":\"" +
       json_escape(f.move) + "\",\"reason\":\"" + json_escape(f.reason) +
       "\",\"in_variation\":" + (f.in_variation ? "true" : "false") + ",\"alternatives\":[";
  for (size_t i = 0; i < f.alternatives.size(); ++i)
    o += (i ? ",\"" : "\"") + json_escape(f.alternatives[i]) + "\"";
  o += "]}";
}

}  // namespace

std::string report_json(const std::string& file, const GameReport& r) {
  if (r.unusable)
    return "{\"file\":\"" + json_escape(file) + "\",\"unusable\":true,\"code\":\"" + json_escape(r.kind) +
           "\",\"reason\":\"" + json_escape(r.reason) + "\"}";
  std::string o = "{\"file\":\"" + json_escape(file) + "\",\"game\":" + std::to_string(r.game) +
                  ",\"valid\":" + (r.valid ? "true" : "false") + ",\"variant\":\"" + json_escape(r.variant) +
                  "\",\"plies\":" + std::to_string(r.plies);
  if (!r.valid) {
    o += ",\"line\":" + std::to_string(r.line) + ",\"column\":" + std::to_string(r.column) +
         ",\"ply\":" + std::to_string(r.ply) + ",\"move\":\"" + json_escape(r.move) + "\",\"kind\":\"" +
         r.kind + "\",\"reason\":\"" + json_escape(r.reason) +
         "\",\"in_variation\":" + (r.in_variation ? "true" : "false") + ",\"alternatives\":[";
    for (size_t i = 0; i < r.alternatives.size(); ++i)
      o += (i ? ",\"" : "\"") + json_escape(r.alternatives[i]) + "\"";
    o += "]";
  }
  o += ",\"errors\":" + std::to_string(r.errors) + ",\"warnings\":" + std::to_string(r.warnings) +
       ",\"tags\":{";
  std::vector<std::string_view> seen;
  for (const auto& [name, value] : r.tags) {
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;  // the first of a repeated tag
    seen.push_back(name);
    o += (seen.size() > 1 ? ",\"" : "\"") + json_escape(name) + "\":\"" + json_escape(value) + "\"";
  }
  o += "},\"findings\":[";
  for (size_t i = 0; i < r.findings.size(); ++i) {
    if (i) o += ",";
    finding_json(o, r.findings[i]);
  }
  return o + "]}";
}

std::string report_text(const std::string& file, const GameReport& r) {
  if (r.unusable) return file + ": unusable: " + r.reason + " [" + r.kind + "]\n";
  std::string o;
  // Every finding, errors and warnings, in text order.
  for (const Finding& f : r.findings) {
    o += file + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) + ": " +
         (f.severity == Severity::Error ? "error" : "warning") + ": game " + std::to_string(r.game) +
         (r.variant.empty() ? "" : " (" + r.variant + ")") + ", ply " + std::to_string(f.ply) +
         (f.in_variation ? " (in a variation)" : "") + (f.move.empty() ? "" : " `" + f.move + "`") + ": " +
         f.reason + " [" + f.code + "]\n";
    if (!f.alternatives.empty()) {
      o += "  nearest legal:";
      for (const auto& a : f.alternatives) o += " " + a;
      o += "\n";
    }
  }
  return o;
}

// The first error alone, as one line (JUnit's failure message).
std::string first_error_text(const std::string& file, const GameReport& r) {
  if (r.valid) return "";
  std::string o = file + ":" + std::to_string(r.line) + ":" + std::to_string(r.column) + ": game " +
                  std::to_string(r.game) + (r.variant.empty() ? "" : " (" + r.variant + ")") + ", ply " +
                  std::to_string(r.ply) + (r.in_variation ? " (in a variation)" : "") +
                  (r.move.empty() ? "" : " `" + r.move + "`") + ": " + r.reason + " [" + r.kind + "]\n";
  if (!r.alternatives.empty()) {
    o += "  nearest legal:";
    for (const auto& a : r.alternatives) o += " " + a;
    o += "\n";
  }
  return o;
}

}  // namespace arb::records
