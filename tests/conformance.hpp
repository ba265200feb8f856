// The engine side of the per-variant conformance suites (tests/conformance_*_test.cpp):
// each suite is a parameterised GoogleTest suite (TEST_P) over the engines that play its
// variant, so that one test states a rule once and every engine must pass it. An engine
// is a name (the last part of the test name: `Conformance/Chess.StartPosition/compiled`)
// and a factory taking the variant's options (Chess 2's armies, chessme's and nostress's
// rule options).
//
// Helpers written in the style of the reference tests (`engine_at(fen)`, `make(w, b)`) ask
// `current_engine()` for the factory of the test that runs: the fixture's SetUp sets it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/perft_suite.hpp"
#include "fsf/fairy_stockfish.hpp"
#include "helpers.hpp"
#include "reference.hpp"

namespace conformance {

using Options = std::map<std::string, std::string>;

struct EngineUnderTest {
  std::string name;  // compiled, reference, fairystockfish: the test name's last part
  std::string variant;
  std::function<std::unique_ptr<arb::Engine>(const Options&)> make;
  // Why the engine cannot run here ("" when it can): an external engine that is not
  // installed. Its tests are skipped with that reason (GTEST_SKIP), never passed.
  std::function<std::string()> missing = [] { return std::string(); };
  // The engine's own name prefix (Engine::name() is "<prefix>:<variant>").
  std::string prefix() const { return name == "fairystockfish" ? "fairy-stockfish" : name; }
};

// What GoogleTest prints for a parameter: the engine's name, not its bytes.
inline void PrintTo(const EngineUnderTest& e, std::ostream* os) {
  *os << e.name << ":" << e.variant;
}

// The last part of a parameterised test's name.
inline std::string engine_name(const ::testing::TestParamInfo<EngineUnderTest>& info) {
  return info.param.name;
}

// The compiled program of rulesets/VARIANT.rules with `options` as overrides, compiled
// once per process. Fails the test (and returns nullptr) when it does not compile.
inline std::shared_ptr<const arb::lang::Program> program(const std::string& variant, const Options& options) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const arb::lang::Program>> cache;
  std::string key = variant;
  for (const auto& [k, v] : options) key += " " + k + "=" + v;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(testing_helpers::ruleset_path(variant), options, diags);
  EXPECT_FALSE(diags.has_errors()) << key << "\n" << diags.render();
  cache[key] = c.program;
  return c.program;
}

// The compiled generator running rulesets/VARIANT.rules.
inline EngineUnderTest compiled(const std::string& variant) {
  return {"compiled", variant, [variant](const Options& options) {
            auto p = program(variant, options);
            if (!p) throw std::runtime_error("ruleset " + variant + " does not compile");
            return arb::lang::make_compiled_engine(p);
          }};
}

// The hand-written reference engine of VARIANT (checker/reference/).
inline EngineUnderTest reference(const std::string& variant) {
  return {"reference", variant, [variant](const Options& options) {
            auto e = arb::ref::make_reference_engine(variant, options);
            if (!e) throw std::runtime_error("no reference engine for " + variant);
            return e;
          }};
}

// Fairy-Stockfish (checker/fsf/, the Debian build at $ARBITER_FAIRY_STOCKFISH or
// /usr/games/fairy-stockfish) playing VARIANT, for the suites of the variants it plays.
inline EngineUnderTest fairy_stockfish(const std::string& variant) {
  EngineUnderTest e{"fairystockfish", variant, [variant](const Options&) -> std::unique_ptr<arb::Engine> {
                      arb::fsf::FsfSettings s;
                      s.variant = variant;
                      return std::make_unique<arb::fsf::FairyStockfishEngine>(s);
                    }};
  e.missing = [] {
    const std::string command = arb::fsf::default_command();
    if (access(command.c_str(), X_OK) == 0) return std::string();
    return command + " is not installed (apt-get install fairy-stockfish)";
  };
  return e;
}

// The engine of the running test (set by the fixture's SetUp).
inline const EngineUnderTest*& current_engine_slot() {
  static const EngineUnderTest* slot = nullptr;
  return slot;
}
inline const EngineUnderTest& current_engine() {
  const EngineUnderTest* e = current_engine_slot();
  if (!e) throw std::logic_error("no conformance engine: the test is not a conformance TEST_P");
  return *e;
}
// A fresh engine of the running test, with `options`.
inline std::unique_ptr<arb::Engine> make_engine(const Options& options = {}) {
  return current_engine().make(options);
}
inline bool is_compiled() {
  return current_engine().name == "compiled";
}

// The fixture of every conformance suite: `class Chess : public conformance::Suite {};`
// then TEST_P(Chess, ...) and INSTANTIATE_TEST_SUITE_P(Conformance, Chess, ...).
class Suite : public ::testing::TestWithParam<EngineUnderTest> {
 protected:
  void SetUp() override {
    if (const std::string why = GetParam().missing(); !why.empty()) GTEST_SKIP() << why;
    current_engine_slot() = &GetParam();
  }
  void TearDown() override { current_engine_slot() = nullptr; }
};

// Runs every depth of every case of corpus/perft/NAME whose expected count is at most
// `budget` on `e`, and prints what it checked.
inline void run_perft_suite(arb::Engine& e, const std::string& name, uint64_t budget) {
  auto cases = arb::read_perft_suite(testing_helpers::corpus_path("perft/" + name));
  ASSERT_FALSE(cases.empty()) << name;
  size_t checked_cases = 0, checked_depths = 0, skipped = 0;
  uint64_t nodes = 0;
  auto start = std::chrono::steady_clock::now();
  for (const auto& c : cases) {
    ASSERT_NO_THROW(e.set_position(c.position)) << name << " " << c.id << ": " << c.position;
    bool any = false;
    for (auto [depth, expected] : c.expected) {
      if (expected > budget) {
        ++skipped;
        continue;
      }
      ASSERT_EQ(e.perft(depth), expected)
          << name << " " << c.id << " (line " << c.line << ") depth " << depth << ": " << c.position;
      any = true;
      ++checked_depths;
      nodes += expected;
    }
    if (any) ++checked_cases;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s %s: %zu of %zu cases, %zu depths (%zu skipped over %llu), %llu nodes in %.2f s\n",
              e.name().c_str(), name.c_str(), checked_cases, cases.size(), checked_depths, skipped,
              static_cast<unsigned long long>(budget), static_cast<unsigned long long>(nodes), secs);
}

// The agreement of two engines of one variant along random playouts from `starts`: at
// every node the same position text, side to move, sorted action texts and status; undo
// walks back through the same texts. Prints the endings reached.
inline void compare_playouts(arb::Engine& a, arb::Engine& b, const std::vector<std::string>& starts,
                             int games, int plies, uint64_t seed) {
  using testing_helpers::find_action;
  using testing_helpers::legal_texts;
  std::mt19937_64 rng(seed);
  size_t nodes = 0;
  std::map<std::string, size_t> endings;
  for (int g = 0; g < games; ++g) {
    const std::string& start = starts[g % starts.size()];
    a.set_position(start);
    b.set_position(start);
    std::vector<std::string> trail;  // texts played, for the failure message
    std::vector<std::string> positions;
    for (int ply = 0; ply < plies; ++ply) {
      ++nodes;
      // Built only when an assertion fails.
      auto where = [&] {
        std::string w = "game " + std::to_string(g) + " from " + start + " after [";
        for (const auto& t : trail) w += t + " ";
        return w + "]";
      };
      ASSERT_EQ(a.position(), b.position()) << where();
      ASSERT_EQ(a.side_to_move(), b.side_to_move()) << where();
      auto texts = legal_texts(a);
      ASSERT_EQ(texts, legal_texts(b)) << where() << " at " << b.position();
      arb::Status as = a.status(), bs = b.status();
      ASSERT_EQ(as.reason, bs.reason) << where() << " at " << b.position();
      ASSERT_EQ(as.result, bs.result) << where();
      ASSERT_EQ(as.in_check, bs.in_check) << where();
      ASSERT_EQ(as.claim_fifty, bs.claim_fifty) << where();
      ASSERT_EQ(as.claim_threefold, bs.claim_threefold) << where();
      if (texts.empty() || !as.reason.empty()) {
        ++endings[as.reason.empty() ? "no-action" : as.reason];
        break;
      }
      const std::string& pick = texts[rng() % texts.size()];
      positions.push_back(a.position());
      a.apply(find_action(a, pick));
      b.apply(find_action(b, pick));
      trail.push_back(pick);
    }
    // Undo back to the start: the same texts in reverse.
    while (!positions.empty()) {
      a.undo();
      b.undo();
      ASSERT_EQ(a.position(), positions.back()) << "undo in game " << g;
      ASSERT_EQ(b.position(), positions.back()) << "undo in game " << g;
      positions.pop_back();
    }
  }
  std::printf("%s against %s: %d games, %zu nodes;", a.name().c_str(), b.name().c_str(), games, nodes);
  for (const auto& [reason, n] : endings) std::printf(" %s %zu", reason.c_str(), n);
  std::printf("\n");
}

// The compiled generator against the reference engine of VARIANT along random playouts.
inline void compare_compiled_with_reference(const std::string& variant,
                                            const std::vector<std::string>& starts, int games, int plies,
                                            uint64_t seed) {
  auto c = compiled(variant).make({});
  auto r = reference(variant).make({});
  compare_playouts(*c, *r, starts, games, plies, seed);
}

}  // namespace conformance
