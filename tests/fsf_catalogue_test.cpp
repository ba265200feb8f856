// Issue 24's catalogue: every `rulesets/fsf/NAME.rules` (NAME as Fairy-Stockfish's
// UCI_Variant spells it) against its suite `corpus/fsf/NAME.perft`, counted by current
// Fairy-Stockfish (npm fairy-stockfish-nnue.wasm) with `corpus/tools/fsf_perft.js`: from
// the start and from random-play positions, each FEN exactly as Fairy-Stockfish prints it.
// The compiled generator reads each FEN as is, writes it back identically and agrees on
// every count within the node budget (ARBITER_PERFT_BUDGET; CI lowers it under sanitizers).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "arbiter/perft_suite.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;
namespace fs = std::filesystem;

// The catalogue's variant names: the rulesets' stems, sorted.
std::vector<std::string> stems(const std::string& folder, const std::string& ext) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.is_regular_file() && entry.path().extension() == ext)
      out.push_back(entry.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> catalogue() {
  return stems(source_path("rulesets/fsf"), ".rules");
}

TEST(FsfCatalogue, EveryRulesetHasItsSuiteAndEverySuiteItsRuleset) {
  const std::vector<std::string> rules = catalogue();
  const std::vector<std::string> suites = stems(corpus_path("fsf"), ".perft");
  for (const std::string& name : rules)
    EXPECT_TRUE(std::binary_search(suites.begin(), suites.end(), name))
        << "rulesets/fsf/" << name << ".rules has no corpus/fsf/" << name << ".perft";
  for (const std::string& name : suites)
    EXPECT_TRUE(std::binary_search(rules.begin(), rules.end(), name))
        << "corpus/fsf/" << name << ".perft has no rulesets/fsf/" << name << ".rules";
}

class FsfVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(FsfVariant, AgreesWithFairyStockfishPerft) {
  const std::string name = GetParam();
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(source_path("rulesets/fsf/" + name + ".rules"), {}, diags);
  ASSERT_FALSE(diags.has_errors()) << diags.render();
  ASSERT_NE(c.program, nullptr);
  const std::vector<arb::PerftCase> cases = arb::read_perft_suite(corpus_path("fsf/" + name + ".perft"));
  ASSERT_GE(cases.size(), 3u) << "a suite holds the start and at least two random-play positions";
  // The node budget of one variant: the counts above it are left out (the largest of a
  // case always runs at depth 1).
  const uint64_t budget = perft_budget(fast() ? 20000 : 3000000);
  uint64_t spent = 0;
  int checked = 0;
  for (const arb::PerftCase& pc : cases) {
    SCOPED_TRACE(name + " " + pc.id + " (corpus/fsf/" + name + ".perft:" + std::to_string(pc.line) + ")");
    auto e = arb::lang::make_compiled_engine(c.program);
    ASSERT_NO_THROW(e->set_position(pc.position));
    EXPECT_EQ(e->position(), pc.position) << "the FEN is not written back as Fairy-Stockfish prints it";
    for (const auto& [depth, nodes] : pc.expected) {
      if (depth > 1 && spent + nodes > budget) continue;
      EXPECT_EQ(e->perft(depth), nodes) << "perft " << depth;
      spent += nodes;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, FsfVariant, ::testing::ValuesIn(catalogue()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string s = info.param;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FsfVariant);

}  // namespace
