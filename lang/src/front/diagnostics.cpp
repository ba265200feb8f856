#include "arbiter/lang/diagnostics.hpp"

#include <algorithm>
#include <cstdint>

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
  // Messages quote the input: keep each one short.
  constexpr size_t kMaxMessage = 300;
  if (d.message.size() > kMaxMessage) d.message = d.message.substr(0, kMaxMessage) + "...";
  if (d.hint.size() > kMaxMessage) d.hint = d.hint.substr(0, kMaxMessage) + "...";
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
      for (int i = 1; i < col && i <= static_cast<int>(line.size()); ++i)
        out += line[i - 1] == '\t' ? '\t' : ' ';
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

}  // namespace arb::lang
