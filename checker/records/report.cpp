// A game's report as JSON (one line) and as text lines.
#include <cstdio>

#include "arbiter/json.hpp"
#include "validate.hpp"

namespace arb::records {

namespace {

Json finding_json(const Finding& f) {
  return {{"severity", f.severity == Severity::Error ? "error" : "warning"},
          {"code", f.code},
          {"line", f.line},
          {"column", f.column},
          {"ply", f.ply},
          {"move", f.move},
          {"reason", f.reason},
          {"in_variation", f.in_variation},
          {"alternatives", f.alternatives}};
}

}  // namespace

std::string report_json(const std::string& file, const GameReport& r) {
  if (r.unusable)
    return json_text({{"file", file}, {"unusable", true}, {"code", r.kind}, {"reason", r.reason}});
  Json o = {{"file", file}, {"game", r.game}, {"valid", r.valid}, {"variant", r.variant}, {"plies", r.plies}};
  if (!r.valid) {
    o["line"] = r.line;
    o["column"] = r.column;
    o["ply"] = r.ply;
    o["move"] = r.move;
    o["kind"] = r.kind;
    o["reason"] = r.reason;
    o["in_variation"] = r.in_variation;
    o["alternatives"] = r.alternatives;
  }
  o["errors"] = r.errors;
  o["warnings"] = r.warnings;
  Json& tags = o["tags"] = Json::object();
  for (const auto& [name, value] : r.tags) {
    const std::string key(name);
    if (!tags.contains(key)) tags[key] = value;  // the first of a repeated tag
  }
  Json& findings = o["findings"] = Json::array();
  for (const Finding& f : r.findings) findings.push_back(finding_json(f));
  return json_text(o);
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
