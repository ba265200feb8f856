// The registry's consumer interface (issue 25): registry::open and catalogue.hpp give the
// record validator, the solver and the checker an engine and the facts of its ruleset
// without any lang/ type. Checked against what the compiler itself says of the same files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "arbiter/lang/search_path.hpp"
#include "helpers.hpp"
#include "registry/catalogue.hpp"
#include "registry/engines.hpp"
#include "registry/open.hpp"

using namespace testing_helpers;
namespace reg = arb::registry;

namespace {
reg::EngineSpec spec_of(const std::string& path, reg::EngineKind kind = reg::EngineKind::Compiled) {
  reg::EngineSpec s;
  s.kind = kind;
  s.rules = path;
  return s;
}
}  // namespace

TEST(Registry, OpenGivesTheEngineAndTheFactsTheModelStates) {
  for (const std::string variant : {"chess", "chess2", "chessembly"}) {
    reg::Opened o = reg::open(spec_of(ruleset_path(variant)));
    ASSERT_TRUE(o.engine) << variant << ": " << o.diagnostics;
    ASSERT_TRUE(o.facts) << variant;
    EXPECT_EQ(o.errors, 0) << variant;
    // The same file through the compiler: the facts are the model's, the engine its program's.
    arb::lang::Diagnostics diags;
    arb::lang::Compiled c = arb::lang::compile_file(ruleset_path(variant), {}, diags);
    ASSERT_TRUE(c.model && c.program) << diags.render();
    EXPECT_EQ(o.variant, c.model->name);
    std::string royals;
    for (const auto& p : c.model->pieces) {
      EXPECT_EQ(o.facts->piece_names.at(p.letter), p.name) << variant;
      if (p.royal) royals += p.letter;
    }
    EXPECT_EQ(o.facts->piece_names.size(), c.model->pieces.size()) << variant;
    EXPECT_EQ(o.facts->royals, royals) << variant;
    EXPECT_EQ(o.facts->placement_p, c.model->records.piece_first) << variant;
    EXPECT_EQ(o.facts->agreement_draws, c.model->records.agreement_draws) << variant;
    EXPECT_EQ(o.facts->dice_start, c.model->setup_kind == arb::lang::SetupKind::Chess960) << variant;
    EXPECT_EQ(o.facts->royals_apart, c.model->royals_apart) << variant;
    EXPECT_EQ(o.facts->adjacency_rule, c.model->adjacency_rule) << variant;
    EXPECT_EQ(o.engine->position(), arb::lang::make_compiled_engine(c.program)->position()) << variant;
    EXPECT_TRUE(o.make) << variant;
  }
  // Facts that differ between the rulesets, so that a copy reading the wrong field fails.
  EXPECT_FALSE(reg::open(spec_of(ruleset_path("chess"))).facts->dice_start);
  EXPECT_TRUE(reg::open(spec_of(ruleset_path("chess2"))).facts->dice_start);
  EXPECT_FALSE(reg::open(spec_of(ruleset_path("chess2"))).facts->agreement_draws);
  EXPECT_TRUE(reg::open(spec_of(ruleset_path("chess"))).facts->agreement_draws);
}

TEST(Registry, OpenReportsARulesetThatDoesNotLoadWithItsLocation) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("arbiter-registry-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path bad = dir / "bad.rules";
  std::ofstream(bad) << "ruleset bad extends chess\npiece knight N { betza \"N\"; promotoin }\n";
  reg::Opened o = reg::open(spec_of(bad.string()));
  EXPECT_FALSE(o.engine);
  EXPECT_GT(o.errors, 0);
  EXPECT_NE(o.diagnostics.find(bad.string() + ":2:"), std::string::npos) << o.diagnostics;
  std::filesystem::remove_all(dir);
}

TEST(Registry, OpenPlaysAReferenceWithTheRulesetsFacts) {
  reg::Opened o = reg::open(spec_of(ruleset_path("chessme"), reg::EngineKind::Reference));
  ASSERT_TRUE(o.engine);
  ASSERT_TRUE(o.facts);
  EXPECT_EQ(o.variant, "chessme");
  EXPECT_TRUE(o.facts->adjacency_rule);
  auto ref = arb::ref::make_reference_engine("chessme");
  ref->set_position("start");
  EXPECT_EQ(o.engine->position(), ref->position());
}

TEST(Registry, CatalogueCopiesTheRecordsBlock) {
  // chess2.rules: `records { name "Chess 2" ...; agreement-draws no; tag WhiteArmy -> white-army ... }`
  auto v = reg::by_record_name("Chess 2: The Sequel");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->name, "chess2");
  EXPECT_FALSE(v->records.agreement_draws);
  ASSERT_EQ(v->records.tags.size(), 3u);
  EXPECT_EQ(v->records.tags[0].tag, "WhiteArmy");
  EXPECT_EQ(v->records.tags[0].target, "white-army");
  EXPECT_EQ(v->records.tags[2].target, "dice-seed");
  // A child ruleset does not inherit its parent's names (they name the parent's game).
  // rulesets/fsf/atomic.rules extends chess and has no `records` block of its own.
  auto child = reg::facts_of(source_path("rulesets/fsf/atomic.rules"));
  ASSERT_TRUE(child);
  EXPECT_TRUE(child->records.names.empty());
  auto parent = reg::facts_of(ruleset_path("chess"));
  ASSERT_TRUE(parent);
  EXPECT_FALSE(parent->records.names.empty());
}

TEST(Registry, DiceStartIsTheCompilersOwn) {
  for (uint64_t seed : {0ull, 1ull, 7ull, 959ull, 123456789ull})
    EXPECT_EQ(reg::chess960_dice_start(seed), arb::lang::chess960_dice_start(seed)) << seed;
  EXPECT_EQ(reg::ruleset_search_path(), arb::lang::ruleset_search_path());
}
