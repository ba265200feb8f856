#include "merge.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "arbiter/json.hpp"
#include "arbiter/wording.hpp"

namespace arb::records {

namespace {

// A reader for the flat JSON objects `arbiter validate --json` writes: string keys; values
// strings, numbers, booleans, null, arrays and objects (read and skipped unless asked for).
class Line {
 public:
  explicit Line(const std::string& s) : s_(s) {}
  // Reads the object; false on malformed text.
  bool parse() {
    skip_ws();
    return object(true) && (skip_ws(), i_ == s_.size());
  }
  std::map<std::string, std::string> scalars;  // top-level string, number, bool values
  std::map<std::string, uint64_t> counts;      // the top-level "counts" object
  bool has(const std::string& k) const { return scalars.count(k) > 0; }
  uint64_t num(const std::string& k) const {
    auto it = scalars.find(k);
    return it == scalars.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
  }

 private:
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool string(std::string* out) {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') {
        if (++i_ >= s_.size()) return false;
        char c = s_[i_];
        if (out) *out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
        if (c == 'u') i_ += 4;
        ++i_;
        continue;
      }
      if (out) *out += s_[i_];
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    ++i_;
    return true;
  }
  bool value(const std::string& key, int depth, bool top) {
    if (depth > 16 || i_ >= s_.size()) return false;
    char c = s_[i_];
    if (c == '"') {
      std::string v;
      if (!string(&v)) return false;
      if (top) scalars[key] = v;
      return true;
    }
    if (c == '{') return object(false, top && key == "counts", depth + 1);
    if (c == '[') {
      ++i_;
      skip_ws();
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
      for (;;) {
        skip_ws();
        if (!value("", depth + 1, false)) return false;
        skip_ws();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
        return false;
      }
    }
    size_t b = i_;
    while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ') ++i_;
    if (b == i_) return false;
    if (top) scalars[key] = s_.substr(b, i_ - b);
    if (counts_target_) (*counts_target_)[key] = std::strtoull(s_.substr(b, i_ - b).c_str(), nullptr, 10);
    return true;
  }
  bool object(bool top, bool counts = false, int depth = 0) {
    if (i_ >= s_.size() || s_[i_] != '{') return false;
    ++i_;
    std::map<std::string, uint64_t>* saved = counts_target_;
    counts_target_ = counts ? &this->counts : nullptr;
    skip_ws();
    bool ok = true;
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
    } else {
      for (;;) {
        skip_ws();
        std::string key;
        if (!string(&key)) {
          ok = false;
          break;
        }
        skip_ws();
        if (i_ >= s_.size() || s_[i_] != ':') {
          ok = false;
          break;
        }
        ++i_;
        skip_ws();
        if (!value(key, depth, top)) {
          ok = false;
          break;
        }
        skip_ws();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == '}') {
          ++i_;
          break;
        }
        ok = false;
        break;
      }
    }
    counts_target_ = saved;
    return ok;
  }
  const std::string& s_;
  size_t i_ = 0;
  std::map<std::string, uint64_t>* counts_target_ = nullptr;
};

}  // namespace

MergedSummary merge_shards(const std::vector<std::string>& files) {
  MergedSummary m;
  uint64_t of = 0;                       // N of the shards' I/N (0: not sharded)
  std::map<uint64_t, std::string> seen;  // shard index -> its file
  for (const auto& f : files) {
    std::ifstream in(f);
    if (!in) {
      m.problems.push_back(f + ": cannot be read (a missing shard?)");
      continue;
    }
    std::string line;
    uint64_t lineno = 0, game_lines = 0, invalid_lines = 0, summaries = 0;
    bool bad = false;
    while (std::getline(in, line)) {
      ++lineno;
      if (line.empty()) continue;
      Line l(line);
      if (!l.parse()) {
        m.problems.push_back(f + ":" + std::to_string(lineno) + ": not a line of `arbiter validate --json`");
        bad = true;
        break;
      }
      if (l.scalars["summary"] != "true") {
        if (l.scalars["unusable"] != "true" && l.has("game"))
          ++game_lines, invalid_lines += l.scalars["valid"] == "false";
        continue;
      }
      if (++summaries > 1) {
        m.problems.push_back(f + ":" + std::to_string(lineno) +
                             ": a second summary line (two runs in one file?)");
        bad = true;
        break;
      }
      // The shard's own count must match its game lines: a cut file is incomplete.
      if (l.num("games") != game_lines || l.num("invalid") != invalid_lines) {
        m.problems.push_back(f + ": the summary counts " + arb::plural(l.num("games"), "game") + " (" +
                             std::to_string(l.num("invalid")) + " invalid) but the file holds " +
                             std::to_string(game_lines) + " (" + std::to_string(invalid_lines) + " invalid)");
        bad = true;
        break;
      }
      if (l.has("shard")) {
        const std::string& sh = l.scalars["shard"];
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
      m.games += l.num("games");
      m.valid += l.num("valid");
      m.invalid += l.num("invalid");
      m.with_warnings += l.num("valid_with_warnings");
      m.unusable_files += l.num("unusable_files");
      for (const auto& [code, n] : l.counts) m.counts[code] += n;
      double s = std::strtod(l.scalars["seconds"].c_str(), nullptr);
      m.seconds_sum += s;
      m.seconds_max = std::max(m.seconds_max, s);
    }
    if (bad) continue;
    if (summaries == 0) {
      m.problems.push_back(f + ": no summary line (the shard did not finish)");
      continue;
    }
    ++m.shards;
  }
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
