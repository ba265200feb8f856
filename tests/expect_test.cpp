// The expectation runner is a library over any engine: the expectations of rulesets that
// do not compile yet (No Stress Chess, Chess 2) hold on their reference engines, and a
// wrong expectation fails with what was found.
#include "arbiter/lang/expect.hpp"

#include <gtest/gtest.h>

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/model.hpp"
#include "helpers.hpp"
#include "reference.hpp"

namespace {

struct Loaded {
  arb::lang::Diagnostics diags;
  std::vector<std::unique_ptr<arb::lang::Source>> sources;
  std::unique_ptr<arb::lang::Model> model;
};

std::unique_ptr<Loaded> load(const std::string& variant) {
  auto l = std::make_unique<Loaded>();
  l->model = arb::lang::load_ruleset(testing_helpers::ruleset_path(variant), {}, l->diags, l->sources);
  return l;
}

}  // namespace

TEST(Expectations, HoldOnTheReferenceEnginesOfRulesetsThatDoNotCompileYet) {
  for (const std::string v : {"nostress", "chess2"}) {
    auto l = load(v);
    ASSERT_NE(l->model, nullptr) << l->diags.render();
    ASSERT_FALSE(l->model->expects.empty()) << v;
    auto outcomes = arb::lang::run_expectations(
        l->model->expects, [&] { return arb::ref::make_reference_engine(v); }, 6);
    for (const auto& o : outcomes)
      EXPECT_TRUE(o.ok) << o.where << ": expected " << o.want << ", got " << o.got;
  }
}

TEST(Expectations, AWrongOneFailsWithWhatWasFound) {
  arb::lang::Expectation ex;
  ex.kind = "perft";
  ex.depth = 2;
  ex.nodes = 401;
  auto o = arb::lang::run_expectation(
      ex, [] { return testing_helpers::compiled_engine("chess"); }, 6);
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.got, "400");
  ex.depth = 30;  // over the limit: fails without running
  o = arb::lang::run_expectation(
      ex, [] { return testing_helpers::compiled_engine("chess"); }, 6);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.got.find("over the limit"), std::string::npos);
  ex.kind = "status";
  ex.position = "not a position";
  o = arb::lang::run_expectation(
      ex, [] { return testing_helpers::compiled_engine("chess"); }, 6);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.got.find("bad position"), std::string::npos);
}

TEST(Expectations, APerftKeepsItsBudget) {
  arb::lang::Expectation ex;
  ex.kind = "perft";
  ex.depth = 12;  // from the start: far past any budget
  ex.nodes = 1;
  arb::lang::ExpectBudget budget;
  budget.max_nodes = 100000;
  auto make = [] { return testing_helpers::compiled_engine("chess"); };
  auto o = arb::lang::run_expectation(ex, make, 20, budget);
  EXPECT_FALSE(o.ok);
  EXPECT_FALSE(o.unusable);
  EXPECT_NE(o.got.find("not counted: perft 4 would pass the node budget of 100000"), std::string::npos)
      << o.got;
  // A deadline already past: nothing beyond depth 1 is started.
  budget.max_nodes = 0;
  budget.deadline = std::chrono::steady_clock::now();
  o = arb::lang::run_expectation(ex, make, 20, budget);
  EXPECT_FALSE(o.ok);
  EXPECT_NE(o.got.find("time budget"), std::string::npos) << o.got;
  // Within the budget the count is the engine's.
  ex.depth = 3;
  ex.nodes = 8902;
  o = arb::lang::run_expectation(ex, make, 20, arb::lang::ExpectBudget{});
  EXPECT_TRUE(o.ok) << o.got;
  // A position the engine refuses is unusable, not a failed count.
  ex.position = "garbage";
  o = arb::lang::run_expectation(ex, make, 20);
  EXPECT_FALSE(o.ok);
  EXPECT_TRUE(o.unusable);
}
