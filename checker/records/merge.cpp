#include "merge.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "arbiter/json.hpp"
#include "arbiter/wording.hpp"

namespace arb::records {

namespace {

// Fields of one line of `arbiter validate --json` (read by nlohmann-json, whose parser
// needs no recursion however deep a hostile line nests). A count is a non-negative integer:
// anything else under `key` counts 0.
uint64_t count(const Json& v) {
  return v.is_number_unsigned() ? v.get<uint64_t>() : 0;
}
uint64_t num(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() ? count(*it) : 0;
}
bool is_true(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}
bool is_false(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && !it->get<bool>();
}

}  // namespace

MergedSummary merge_shards(const std::vector<std::string>& files) {
  MergedSummary m;
  uint64_t of = 0;                       // N of the shards' I/N (0: not sharded)
  std::map<uint64_t, std::string> seen;  // shard index -> its file
  // Every shard opens every input file and reports an unusable one (missing, unreadable, cut
  // short) itself, so an unusable file is counted once per file name, not once per shard.
  std::map<std::string, std::string> unusable;            // input file -> its finding's code
  std::map<std::string, uint64_t> unusable_in_summaries;  // code -> the shards' summed counts
  for (const auto& f : files) {
    std::ifstream in(f);
    if (!in) {
      m.problems.push_back(f + ": cannot be read (a missing shard?)");
      continue;
    }
    std::string line;
    uint64_t lineno = 0, game_lines = 0, invalid_lines = 0, summaries = 0;
    std::map<std::string, std::string> shard_unusable;
    bool bad = false;
    while (std::getline(in, line)) {
      ++lineno;
      if (line.empty()) continue;
      const Json l = Json::parse(line, nullptr, false);
      if (l.is_discarded() || !l.is_object()) {
        m.problems.push_back(f + ":" + std::to_string(lineno) + ": not a line of `arbiter validate --json`");
        bad = true;
        break;
      }
      if (!is_true(l, "summary")) {
        if (is_true(l, "unusable") && l.contains("file") && l["file"].is_string()) {
          auto code = l.find("code");
          shard_unusable[l["file"].get<std::string>()] =
              code != l.end() && code->is_string() ? code->get<std::string>() : "unusable-file";
        } else if (!is_true(l, "unusable") && l.contains("game"))
          ++game_lines, invalid_lines += is_false(l, "valid");
        continue;
      }
      if (++summaries > 1) {
        m.problems.push_back(f + ":" + std::to_string(lineno) +
                             ": a second summary line (two runs in one file?)");
        bad = true;
        break;
      }
      if (!l.contains("games") || !l["games"].is_number_unsigned()) {
        m.problems.push_back(f + ":" + std::to_string(lineno) + ": a summary without a count of games");
        bad = true;
        break;
      }
      // The shard's own count must match its game lines: a cut file is incomplete.
      if (num(l, "games") != game_lines || num(l, "invalid") != invalid_lines) {
        m.problems.push_back(f + ": the summary counts " + arb::plural(num(l, "games"), "game") + " (" +
                             std::to_string(num(l, "invalid")) + " invalid) but the file holds " +
                             std::to_string(game_lines) + " (" + std::to_string(invalid_lines) + " invalid)");
        bad = true;
        break;
      }
      if (l.contains("shard")) {
        const std::string sh = l["shard"].is_string() ? l["shard"].get<std::string>() : l["shard"].dump();
        size_t slash = sh.find('/');
        uint64_t i = std::strtoull(sh.c_str(), nullptr, 10);
        uint64_t n = slash == std::string::npos ? 0 : std::strtoull(sh.c_str() + slash + 1, nullptr, 10);
        if (of == 0) of = n;
        if (n != of) {
          m.problems.push_back(f + ": shard " + sh + " of another split than /" + std::to_string(of));
          bad = true;
          break;
        }
        if (!seen.emplace(i, f).second) {
          m.problems.push_back(f + ": shard " + sh + " again (also " + seen[i] + "): counted once");
          bad = true;
          break;
        }
      }
      m.games += num(l, "games");
      m.valid += num(l, "valid");
      m.invalid += num(l, "invalid");
      m.with_warnings += num(l, "valid_with_warnings");
      if (auto c = l.find("counts"); c != l.end() && c->is_object())
        for (const auto& [code, n] : c->items()) m.counts[code] += count(n);
      auto secs = l.find("seconds");
      const double s = secs != l.end() && secs->is_number() ? secs->get<double>() : 0;
      m.seconds_sum += s;
      m.seconds_max = std::max(m.seconds_max, s);
    }
    if (bad) continue;
    if (summaries == 0) {
      m.problems.push_back(f + ": no summary line (the shard did not finish)");
      continue;
    }
    ++m.shards;
    for (const auto& [file, code] : shard_unusable) {
      ++unusable_in_summaries[code];
      unusable.emplace(file, code);
    }
  }
  // The unusable files' findings, counted once per file: each shard's count of a code less
  // the shards' repeats of the same files.
  std::map<std::string, uint64_t> distinct;
  for (const auto& [file, code] : unusable) ++distinct[code];
  for (const auto& [code, n] : unusable_in_summaries) {
    uint64_t& c = m.counts[code];
    c = c >= n ? c - n + distinct[code] : distinct[code];
    if (c == 0) m.counts.erase(code);
  }
  m.unusable_files = unusable.size();
  if (of > 0)
    for (uint64_t i = 0; i < of; ++i)
      if (!seen.count(i))
        m.problems.push_back("shard " + std::to_string(i) + "/" + std::to_string(of) + " is missing");
  return m;
}

std::string merged_json(const MergedSummary& m) {
  Json counts = Json::object();
  for (const auto& [code, n] : m.counts) counts[code] = n;
  auto millis = [](double s) { return std::round(s * 1000) / 1000; };
  return json_text({{"summary", true},
                    {"merged", m.shards},
                    {"games", m.games},
                    {"valid", m.valid},
                    {"invalid", m.invalid},
                    {"valid_with_warnings", m.with_warnings},
                    {"counts", counts},
                    {"unusable_files", m.unusable_files},
                    {"seconds", millis(m.seconds_max)},
                    {"shard_seconds", millis(m.seconds_sum)},
                    {"problems", m.problems}}) +
         "\n";
}

std::string merged_text(const MergedSummary& m) {
  std::string out;
  for (const auto& p : m.problems) out += "error: " + p + "\n";
  char secs[96];
  std::snprintf(secs, sizeof secs, "%.1f s on the slowest shard, %.1f s over all", m.seconds_max,
                m.seconds_sum);
  out += arb::plural(m.shards, "shard") + " merged: " + arb::plural(m.games, "game") + ": " +
         std::to_string(m.valid) + " valid (" + std::to_string(m.with_warnings) + " with warnings), " +
         std::to_string(m.invalid) + " invalid" +
         (m.unusable_files ? ", " + arb::plural(m.unusable_files, "unusable file") : std::string()) + " (" +
         secs + ")\n";
  if (!m.counts.empty()) {
    out += "findings:";
    for (const auto& [code, n] : m.counts) out += " " + code + " " + std::to_string(n);
    out += "\n";
  }
  return out;
}

}  // namespace arb::records
