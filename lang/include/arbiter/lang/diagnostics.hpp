// Diagnostics of the ruleset language: file:line:col, the source line with a caret, and a
// hint. Every stage appends to one Diagnostics so that all errors of a file are reported.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace arb::lang {

struct Source {
  std::string path;
  std::string text;
  std::vector<size_t> line_starts;  // offset of each line
  Source(std::string p, std::string t);
  std::string line_text(int line) const;  // 1-based, without the newline
};

struct Loc {
  const Source* src = nullptr;
  int line = 0;  // 1-based
  int col = 0;   // 1-based
  int len = 1;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity;
  Loc loc;
  std::string message;
  std::string hint;  // "did you mean `promotion`?" or empty
};

// Diagnostics keep at most kMaxDiagnostics entries (the rest are counted, and render()
// says how many were left out) and echo at most kMaxEchoColumns columns of a source line
// around the caret, so that their cost stays linear in the input.
constexpr size_t kMaxDiagnostics = 100;
constexpr int kMaxEchoColumns = 160;

class Diagnostics {
 public:
  void error(const Loc& loc, std::string msg, std::string hint = "");
  void warning(const Loc& loc, std::string msg, std::string hint = "");
  void note(const Loc& loc, std::string msg);
  bool has_errors() const { return errors_ > 0; }
  int error_count() const { return errors_; }
  const std::vector<Diagnostic>& all() const { return list_; }
  // Renders every diagnostic: `file:line:col: error: message`, the source line, a caret.
  std::string render() const;

 private:
  void add(Diagnostic d);
  std::vector<Diagnostic> list_;
  int errors_ = 0;
  size_t dropped_ = 0;  // diagnostics over kMaxDiagnostics, counted only
};

// The closest of `candidates` to `word` by edit distance, or "" when none is close.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);
// The hint for an unknown word: "did you mean" its closest candidate, or when none is
// close every word allowed there ("expected one of `a`, `b`").
std::string did_you_mean_or_list(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace arb::lang
