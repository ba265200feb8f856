// Stage 1 and 2 of the ruleset language: tokens and the syntax tree.
//
// The surface syntax is deliberately uniform: a file is a list of statements; a statement
// is a keyword, its arguments, and optionally a `{ ... }` block of nested statements. A
// statement ends at the end of its line, at `;`, or after its block. `#` starts a comment.
// What each keyword means, where it may stand and which arguments it takes is the semantic
// stage's business (sema.cpp), which is where the language's vocabulary lives.
#pragma once

#include <string>
#include <vector>

#include "arbiter/lang/diagnostics.hpp"

namespace arb::lang {

enum class ValueKind { Word, Number, String, Range, Symbol };

struct Value {
  ValueKind kind = ValueKind::Word;
  std::string text;          // as written (string contents without quotes)
  long long num = 0;         // Number
  long long lo = 0, hi = 0;  // Range `lo..hi`
  Loc loc;
  bool is(const char* w) const { return (kind == ValueKind::Word || kind == ValueKind::Symbol) && text == w; }
};

struct Stmt {
  Loc loc;  // of the keyword
  std::string keyword;
  std::vector<Value> args;
  bool has_block = false;
  std::vector<Stmt> block;
};

// Limits of a ruleset file: its size in bytes and how deep `{ }` blocks nest. Beyond them
// parse() reports an error (file:line:col) instead of reading on.
constexpr size_t kMaxRulesetBytes = 1u << 20;
constexpr int kMaxNesting = 64;

// Parses a whole file; syntax errors go to `diags` (parsing recovers at the next line).
std::vector<Stmt> parse(const Source& src, Diagnostics& diags);

}  // namespace arb::lang
