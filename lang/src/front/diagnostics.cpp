#include "arbiter/lang/diagnostics.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "arbiter/json.hpp"

namespace arb::lang {

Source::Source(std::string p, std::string t) : path(std::move(p)), text(std::move(t)) {
  line_starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts.push_back(i + 1);
}

std::string Source::line_text(int line) const {
  if (line < 1 || static_cast<size_t>(line) > line_starts.size()) return "";
  size_t start = line_starts[line - 1];
  size_t end = text.find('\n', start);
  if (end == std::string::npos) end = text.size();
  std::string s = text.substr(start, end - start);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

void Diagnostics::add(Diagnostic d) {
  if (list_.size() >= kMaxDiagnostics) {
    ++dropped_;
    return;
  }
  // Messages quote the input: keep each one short. A hint may list every word allowed in a
  // scope (a few dozen keywords): it gets more room.
  constexpr size_t kMaxMessage = 300, kMaxHint = 1200;
  if (d.message.size() > kMaxMessage) d.message = d.message.substr(0, kMaxMessage) + "...";
  if (d.hint.size() > kMaxHint) d.hint = d.hint.substr(0, kMaxHint) + "...";
  list_.push_back(std::move(d));
}

void Diagnostics::error(const Loc& loc, std::string msg, std::string hint) {
  if (errors_ < INT32_MAX) ++errors_;
  add({Severity::Error, loc, std::move(msg), std::move(hint)});
}
void Diagnostics::warning(const Loc& loc, std::string msg, std::string hint) {
  add({Severity::Warning, loc, std::move(msg), std::move(hint)});
}
void Diagnostics::note(const Loc& loc, std::string msg) {
  add({Severity::Note, loc, std::move(msg), ""});
}

namespace {
// The blanks that put the caret under column `text.size() + 1` of the echoed line as a
// terminal shows it: one per character (not per byte of UTF-8), a tab kept, and four per
// byte the command's terminal filter writes as `\xNN` (control characters, bytes that are
// not UTF-8).
std::string caret_padding(std::string_view text) {
  std::string pad;
  for (size_t i = 0; i < text.size();) {
    const size_t len = arb::utf8_sequence(text, i);
    if (len == 0) {
      pad += "    ";
      ++i;
      continue;
    }
    const char32_t cp = arb::utf8_decode(text, i, len);
    if (cp == '\t')
      pad += '\t';
    else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
      pad += std::string(4 * len, ' ');
    else
      pad += ' ';
    i += len;
  }
  return pad;
}
}  // namespace

std::string Diagnostics::render() const {
  std::string out;
  for (const Diagnostic& d : list_) {
    const char* sev = d.severity == Severity::Error     ? "error"
                      : d.severity == Severity::Warning ? "warning"
                                                        : "note";
    if (d.loc.src)
      out += d.loc.src->path + ":" + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": ";
    out += std::string(sev) + ": " + d.message + "\n";
    if (d.loc.src && d.loc.line > 0) {
      std::string line = d.loc.src->line_text(d.loc.line);
      // A window of the line around the caret: at most kMaxEchoColumns columns.
      int col = d.loc.col;
      std::string prefix;
      if (static_cast<int>(line.size()) > kMaxEchoColumns) {
        int first = std::max(
            1, std::min(col - kMaxEchoColumns / 2, static_cast<int>(line.size()) - kMaxEchoColumns + 1));
        line = line.substr(static_cast<size_t>(first - 1), kMaxEchoColumns);
        if (first > 1) {
          prefix = "...";
          col -= first - 1;
        }
      }
      out += "  " + prefix + line + "\n  " + std::string(prefix.size(), ' ');
      out += caret_padding(
          std::string_view(line).substr(0, std::min<size_t>(std::max(col - 1, 0), line.size())));
      out += "^";
      for (int i = 1; i < d.loc.len && col + i <= static_cast<int>(line.size()); ++i) out += "~";
      out += "\n";
    }
    if (!d.hint.empty()) out += "  hint: " + d.hint + "\n";
  }
  if (dropped_)
    out += "... and " + std::to_string(dropped_) + " more diagnostic(s) not shown (the first " +
           std::to_string(kMaxDiagnostics) + " are)\n";
  return out;
}

namespace {
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  // Edit distance costs |word| x |candidate|: a suggestion for a long word is no help.
  if (word.size() > 64) return best;
  size_t best_d = std::max<size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string c = closest(word, candidates);
  return c.empty() ? "" : "did you mean `" + c + "`?";
}

std::string did_you_mean_or_list(const std::string& word, const std::vector<std::string>& candidates) {
  if (std::string near = did_you_mean(word, candidates); !near.empty()) return near;
  std::vector<std::string> words(candidates);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  if (words.empty()) return "";
  std::string list;
  for (const auto& w : words) list += (list.empty() ? "`" : ", `") + w + "`";
  return "expected one of " + list;
}

}  // namespace arb::lang
