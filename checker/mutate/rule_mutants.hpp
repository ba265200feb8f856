// Single-point mutants of a ruleset, for `arbiter mutate`: each changes one place of the
// file's text, found through the syntax tree (arb::lang::parse) and the checked model's
// construct uses (arb::lang::load_ruleset), so that every mutant names its line, column,
// operator and construct:
//
//   drop     a statement removed (a block statement with its whole block)
//   number   a number one more or one less (board size, ranks, option values, counts)
//   region   a rank range with one bound moved, or shifted whole, by one
//   betza    one Betza modifier removed or flipped (f/b, l/r, v/s, m/c), an atom swapped
//            (W/F, D/A, N/C, R/B, Q/K) or a count moved by one
//   choice   a word replaced by another choice of the construct's schema (or, for the
//            constructs with a grammar of their own, of the words that grammar allows in
//            that place: loss/draw/win, mandatory/optional, move/place, ...)
//   letter   one piece letter of a list removed (promotion choices, lending types)
//   flag     a flag of the construct's schema removed
//
// Not mutated: the `ruleset` and `title` statements, option descriptions, comments and the
// `expect` block (expectations check a ruleset; they are not rules).
//
// The judge of a mutant is the compiled program: a mutant whose Program is equal, field
// by field and table by table, to the original's (title, source path and expectations
// aside) is equivalent by construction (program_fingerprint): the generator runs nothing
// else, so no checker could ever tell them apart.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arbiter/lang/compile.hpp"

namespace arb::mutate {

struct RuleMutant {
  std::string op;                 // drop, number, region, betza, choice, letter, flag
  std::string construct;          // the keyword of the statement changed (`betza`, `claim`, ...)
  int line = 0, col = 0;          // 1-based, of the text replaced
  size_t offset = 0, length = 0;  // the span replaced in the original text
  std::string from, to;           // the original text of the span and its replacement
  // The original file's text, shared by every mutant of it: a mutant holds only its edit,
  // so the mutants of a file take memory in proportion to the file, not its square.
  std::shared_ptr<const std::string> original;
  // The whole mutated file.
  std::string text() const;
  // One line: `drop `royal-safe``, `betza "fmWfceFifmnD" -> "fmWfcFifmnD"`, `8 -> 9`.
  std::string describe() const;
  // The changed line as it reads in the mutant (for a dropped block: its first line).
  std::string mutated_line() const;
};

// Every single-point mutant of `text`, the ruleset file at `path` (its parents, for
// `extends`, are read beside it). Mutants are in file order; duplicates (the same text)
// appear once. The cost is linear in the number of mutants: texts are compared by hash and
// built only on a hash match. Empty when the file does not parse and check.
std::vector<RuleMutant> generate_mutants(const std::string& path, const std::string& text);

// A text that is equal for two programs exactly when the generator would run them the
// same: every field and table of the Program except title, source path and expectations.
std::string program_fingerprint(const arb::lang::Program& p);

}  // namespace arb::mutate
