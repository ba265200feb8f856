// Shared helpers of the compiled-engine, language and command tests: where the bundled
// files are, engines by variant name, canonical action texts, colour flips of position
// texts, temporary directories, and the node budget of perft checks.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/notation.hpp"
#include "reference.hpp"
#include "source_dir.hpp"

namespace testing_helpers {

inline std::string source_path(const std::string& rel) {
  std::string path(arbiter_source_dir());
  path += '/';
  path += rel;
  return path;
}
// The project's test data (corpus/perft/*.perft, corpus/mates/*.epd, made by
// corpus/tools/make_corpus.py): inside the checkout, so a fresh clone tests the same data.
inline std::string corpus_path(const std::string& rel) {
  return source_path("corpus/" + rel);
}
inline std::string ruleset_path(const std::string& variant) {
  return source_path("rulesets/" + variant + ".rules");
}
// The whole text of a file ("" when it cannot be read).
inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
// Under the sanitizers CI sets ARBITER_FAST: tests then run smaller budgets.
inline bool fast() {
  return std::getenv("ARBITER_FAST") != nullptr;
}

constexpr const char* kChessStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kChessemblyStart = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1";

// The node budget of one perft check: ARBITER_PERFT_BUDGET when set (CI lowers it under
// sanitizers), else `dflt`.
inline uint64_t perft_budget(uint64_t dflt) {
  if (const char* env = std::getenv("ARBITER_PERFT_BUDGET")) return std::strtoull(env, nullptr, 10);
  return dflt;
}

// The compiled program of a bundled ruleset, compiled once per process. Fails the test
// (and returns nullptr) when the ruleset does not compile.
inline std::shared_ptr<const arb::lang::Program> bundled_program(const std::string& variant) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const arb::lang::Program>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(variant);
  if (it != cache.end()) return it->second;
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(ruleset_path(variant), {}, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  EXPECT_NE(c.program, nullptr) << variant << " does not compile";
  cache[variant] = c.program;
  return c.program;
}

inline std::unique_ptr<arb::Engine> compiled_engine(const std::string& variant) {
  auto p = bundled_program(variant);
  if (!p) throw std::runtime_error("ruleset " + variant + " does not compile");
  return arb::lang::make_compiled_engine(p);
}

inline std::unique_ptr<arb::Engine> compiled_at(const std::string& variant, const std::string& position) {
  auto e = compiled_engine(variant);
  e->set_position(position);
  return e;
}

inline std::unique_ptr<arb::Engine> reference_at(const std::string& variant, const std::string& position) {
  auto e = arb::ref::make_reference_engine(variant);
  if (!e) throw std::runtime_error("no reference engine for " + variant);
  e->set_position(position);
  return e;
}

// Canonical text of an action (README: uci(describe(a), true)).
inline std::string canonical(const arb::Engine& e, const arb::Action& a) {
  return arb::uci(e.describe(a), true);
}

// The canonical texts of all legal actions, sorted.
inline std::vector<std::string> legal_texts(arb::Engine& e) {
  std::vector<arb::Action> actions;
  e.legal_actions(actions);
  std::vector<std::string> out;
  out.reserve(actions.size());
  for (const arb::Action& a : actions) out.push_back(canonical(e, a));
  std::sort(out.begin(), out.end());
  return out;
}

// The legal action whose canonical text is `text`, or throws.
inline arb::Action find_action(arb::Engine& e, const std::string& text) {
  std::vector<arb::Action> actions;
  e.legal_actions(actions);
  for (const arb::Action& a : actions)
    if (canonical(e, a) == text) return a;
  throw std::runtime_error("no legal action " + text + " in " + e.position());
}

// Plays an action written in any notation parse_action accepts; fails the test if illegal.
inline bool play(arb::Engine& e, const std::string& text) {
  auto a = arb::parse_action(e, text);
  EXPECT_TRUE(a.has_value()) << text << " is not legal in " << e.position();
  if (!a) return false;
  e.apply(*a);
  return true;
}

// Splits on runs of blanks.
inline std::vector<std::string> fields(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

inline std::string swap_case(std::string s) {
  for (char& c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isupper(u))
      c = static_cast<char>(std::tolower(u));
    else if (std::islower(u))
      c = static_cast<char>(std::toupper(u));
  }
  return s;
}

// The colour-flipped FEN (bounded 8x8 variants, with or without bracketed reserves):
// ranks mirrored, piece colours swapped, the other side to move, castling letters swapped
// in case (White's first), the en-passant square mirrored, reserve letters swapped in case.
// The move counters are kept. Perft of the flipped position equals perft of the original.
inline std::string flip_fen(const std::string& fen) {
  std::vector<std::string> f = fields(fen);
  if (f.size() < 4) throw std::runtime_error("flip_fen: not a FEN: " + fen);
  std::string board = f[0], reserve;
  size_t br = board.find('[');
  if (br != std::string::npos) {
    reserve = board.substr(br);
    board = board.substr(0, br);
  }
  std::vector<std::string> ranks;
  std::string cur;
  for (char c : board) {
    if (c == '/') {
      ranks.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  ranks.push_back(cur);
  std::reverse(ranks.begin(), ranks.end());
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i) out += (i ? "/" : "") + swap_case(ranks[i]);
  if (!reserve.empty()) {
    // White's pieces first: swap case, then put the new upper-case letters in front.
    std::string inner = swap_case(reserve.substr(1, reserve.size() - 2)), up, low;
    for (char c : inner) (std::isupper(static_cast<unsigned char>(c)) ? up : low).push_back(c);
    out += "[" + up + low + "]";
  }
  out += std::string(" ") + (f[1] == "w" ? "b" : "w");
  std::string castling = f[2];
  if (castling != "-") {
    std::string up, low;
    for (char c : swap_case(castling)) (std::isupper(static_cast<unsigned char>(c)) ? up : low).push_back(c);
    castling = up + low;
  }
  out += " " + castling;
  std::string ep = f[3];
  if (ep != "-") ep = std::string(1, ep[0]) + std::to_string(9 - std::stoi(ep.substr(1)));
  out += " " + ep;
  for (size_t i = 4; i < f.size(); ++i) out += " " + f[i];
  return out;
}

// A temporary directory, removed with its contents at the end of the scope.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "arbiter-test-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // Writes `text` to NAME inside the directory and returns the file's path.
  std::string write(const std::string& name, const std::string& text) const {
    std::string p = path_ + "/" + name;
    std::ofstream out(p, std::ios::binary);
    out << text;
    return p;
  }
  // Copies a bundled ruleset beside the files of this directory (for `extends`).
  std::string copy_ruleset(const std::string& variant) const {
    std::string p = path_ + "/" + variant + ".rules";
    std::filesystem::copy_file(ruleset_path(variant), p, std::filesystem::copy_options::overwrite_existing);
    return p;
  }

 private:
  std::string path_;
};

// Perft by the interface only, with the action list shuffled at every node.
inline uint64_t shuffled_perft(arb::Engine& e, int depth, std::mt19937_64& rng) {
  if (depth == 0) return 1;
  std::vector<arb::Action> actions;
  e.legal_actions(actions);
  std::shuffle(actions.begin(), actions.end(), rng);
  if (depth == 1) return actions.size();
  uint64_t n = 0;
  for (const arb::Action& a : actions) {
    e.apply(a);
    n += shuffled_perft(e, depth - 1, rng);
    e.undo();
  }
  return n;
}

// Compiles a ruleset given as text, written to `NAME.rules` in a scratch folder of this
// process (its parents found beside it or in the bundled rulesets). The diagnostics point
// into the sources the result holds: keep it while reading them.
inline arb::lang::Compiled compile_text(const std::string& name, const std::string& text,
                                        arb::lang::Diagnostics& diags) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("arbiter-test-rules-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path file = dir / (name + ".rules");
  std::ofstream(file) << text;
  return arb::lang::compile_file(file.string(), {}, diags);
}

// A catalogue ruleset (rulesets/fsf/NAME.rules), compiled; a compile error fails the test.
inline std::shared_ptr<const arb::lang::Program> catalogue_program(const std::string& name) {
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(source_path("rulesets/fsf/" + name + ".rules"), {}, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  if (!c.program) throw std::runtime_error(name + " does not compile");
  return c.program;
}

// The compiled engine of catalogue ruleset NAME at position `fen`.
inline std::unique_ptr<arb::Engine> catalogue_at(const std::string& name, const std::string& fen) {
  auto e = arb::lang::make_compiled_engine(catalogue_program(name));
  e->set_position(fen);
  return e;
}

// The compiled engine of a ruleset given as text, at position `fen`.
inline std::unique_ptr<arb::Engine> ruleset_at(const std::string& text, const std::string& fen) {
  arb::lang::Diagnostics diags;
  auto c = compile_text("r", text, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  if (!c.program) throw std::runtime_error("the ruleset does not compile");
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position(fen);
  return e;
}

// The diagnostics of a ruleset given as text, compiled as `r.rules` ("" when it compiles).
inline std::string ruleset_errors(const std::string& text) {
  arb::lang::Diagnostics diags;
  auto c = compile_text("r", text, diags);
  return diags.has_errors() ? diags.render() : "";
}

}  // namespace testing_helpers
