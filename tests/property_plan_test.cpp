// Issue 26: which metamorphic properties a ruleset's statements promise (property_plan.hpp),
// decided from what a statement says (a region's squares, an orientation with the pieces'
// Betza, a colour named in the rule), and a seeded one-sided bug in a region-using ruleset
// that the colour flip alone catches.
#include "properties/property_plan.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "arbiter/lang/bitboard.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/program.hpp"
#include "fuzz/properties.hpp"
#include "helpers.hpp"
#include "process.hpp"

namespace {

using arb::fuzz::Property;
using namespace testing_helpers;

std::string reason(const arb::fuzz::PropertyPlan& p, Property q) {
  return p.reason[static_cast<int>(q)];
}

arb::fuzz::PropertyPlan catalogue_plan(const std::string& name) {
  arb::lang::Diagnostics d;
  auto c = arb::lang::compile_file(source_path("rulesets/fsf/" + name + ".rules"), {}, d);
  EXPECT_TRUE(c.model) << d.render();
  return c.model ? arb::properties::plan_for(*c.model) : arb::fuzz::PropertyPlan{};
}

arb::fuzz::PropertyPlan text_plan(const std::string& text) {
  arb::lang::Diagnostics d;
  auto c = compile_text("plan", text, d);
  EXPECT_TRUE(c.model) << d.render();
  return c.model ? arb::properties::plan_for(*c.model) : arb::fuzz::PropertyPlan{};
}

// A region stated per side and relative to it (shogi's camp, `mirrored`), an absolute set
// that maps onto itself (the hill, janggi's palace lines): both properties hold.
TEST(PropertyPlan, SymmetricRegionsKeepFlipAndMirror) {
  for (const char* name :
       {"shogi", "kingofthehill", "janggicasual", "xiangqi", "minishogi", "breakthrough"}) {
    const auto p = catalogue_plan(name);
    EXPECT_TRUE(p.enabled(Property::ColourFlip)) << name << ": " << reason(p, Property::ColourFlip);
    EXPECT_TRUE(p.enabled(Property::Mirror)) << name << ": " << reason(p, Property::Mirror);
  }
}

// `resets-clock never|irreversible` names a piece's own moves, no colour and no file: the
// property sweep (corpus/fsf/PROPERTIES.md) found pawnback's and pawnsideways' flip, mirror and
// rotation skipped as a construct not vouched for.
TEST(PropertyPlan, WhichMovesResetTheClockIsTheSameRuleForEachSide) {
  for (const char* name : {"pawnback", "pawnsideways"}) {
    const auto p = catalogue_plan(name);
    EXPECT_TRUE(p.enabled(Property::ColourFlip)) << name << ": " << reason(p, Property::ColourFlip);
    EXPECT_TRUE(p.enabled(Property::Mirror)) << name << ": " << reason(p, Property::Mirror);
  }
}

// Racing kings' goal is the 8th rank for both sides: the set does not map onto itself.
TEST(PropertyPlan, RacingKingsGoalIsNotColourSymmetric) {
  const auto p = catalogue_plan("racingkings");
  EXPECT_FALSE(p.enabled(Property::ColourFlip));
  EXPECT_EQ(reason(p, Property::ColourFlip),
            "region `goal` (racingkings.rules:9:1): White's a8 flipped is a1, not one of Black's (the same "
            "squares for both sides): not colour-symmetric");
  EXPECT_TRUE(p.enabled(Property::Mirror)) << reason(p, Property::Mirror);
}

// The same square set decided both ways, as a statement: `mirrored` or not.
TEST(PropertyPlan, ARegionIsDecidedByItsSquares) {
  const auto plan = [](const std::string& region) {
    return text_plan("ruleset zones extends chess\n" + region +
                     "\npiece pawn P { betza \"fmWfcFifmnD\"; initial ranks 2; promote on rank 8 to Q R B N; "
                     "promotion-squares zone }\n");
  };
  const auto mirrored = plan("region zone a8-h8 mirrored");
  EXPECT_TRUE(mirrored.enabled(Property::ColourFlip)) << reason(mirrored, Property::ColourFlip);
  EXPECT_TRUE(mirrored.enabled(Property::Mirror)) << reason(mirrored, Property::Mirror);
  const auto same = plan("region zone a1-h1 a8-h8");
  EXPECT_TRUE(same.enabled(Property::ColourFlip)) << reason(same, Property::ColourFlip);
  const auto one_side = plan("region zone a8-d8 mirrored");
  EXPECT_TRUE(one_side.enabled(Property::ColourFlip)) << reason(one_side, Property::ColourFlip);
  EXPECT_FALSE(one_side.enabled(Property::Mirror));
  EXPECT_NE(reason(one_side, Property::Mirror).find("White's a8 is in it, its mirror h8 is not"),
            std::string::npos)
      << reason(one_side, Property::Mirror);
  const auto off = plan("region zone a7-h8");
  EXPECT_FALSE(off.enabled(Property::ColourFlip));
  EXPECT_NE(reason(off, Property::ColourFlip).find("plan.rules:2:1"), std::string::npos)
      << reason(off, Property::ColourFlip);
}

// Rules that favour a colour by name, and moves turned through 180 degrees with a piece that
// tells left from right: no flip, each with its reason; the mirror stays where it holds.
TEST(PropertyPlan, StatedAsymmetriesSayWhy) {
  const auto odds = catalogue_plan("armageddon");
  EXPECT_NE(reason(odds, Property::ColourFlip).find("`draw-odds black` (armageddon.rules:14:3)"),
            std::string::npos)
      << reason(odds, Property::ColourFlip);
  EXPECT_TRUE(odds.enabled(Property::Mirror));
  const auto counting = catalogue_plan("janggi");
  EXPECT_NE(reason(counting, Property::ColourFlip).find("`counting white-needs 2`"), std::string::npos)
      << reason(counting, Property::ColourFlip);
  EXPECT_TRUE(counting.enabled(Property::Mirror)) << reason(counting, Property::Mirror);
  const auto tori = catalogue_plan("torishogi");
  EXPECT_NE(reason(tori, Property::ColourFlip).find("`orientation rotated` (torishogi.rules:18:1)"),
            std::string::npos)
      << reason(tori, Property::ColourFlip);
  const auto horde = catalogue_plan("horde");
  EXPECT_NE(reason(horde, Property::ColourFlip).find("White starts without a royal piece"), std::string::npos)
      << reason(horde, Property::ColourFlip);
  const auto chigorin = catalogue_plan("chigorin");
  EXPECT_NE(
      reason(chigorin, Property::ColourFlip).find("piece pawn promotes to CNR for White and BQR for Black"),
      std::string::npos)
      << reason(chigorin, Property::ColourFlip);
  EXPECT_TRUE(chigorin.enabled(Property::Mirror)) << reason(chigorin, Property::Mirror);
  // Check counters, walls, passes, forced drops, castling fields: vouched for.
  for (const char* name : {"3check", "duck", "snailtrail", "ataxx", "koedem", "placement", "makpong",
                           "fischerandom", "shako", "omicron"}) {
    const auto p = catalogue_plan(name);
    EXPECT_TRUE(p.enabled(Property::ColourFlip)) << name << ": " << reason(p, Property::ColourFlip);
    EXPECT_TRUE(p.enabled(Property::Mirror)) << name << ": " << reason(p, Property::Mirror);
  }
}

// The command prints each skipped property with its reason, and checks the others.
TEST(PropertyPlan, TheReportNamesWhatIsSkippedAndWhy) {
  auto out = testing_process::run_arbiter({"fuzz", "--rules", source_path("rulesets/fsf/racingkings.rules"),
                                           "--properties", "--games", "1", "--max-plies", "8"});
  EXPECT_EQ(out.code, 0) << out.err;
  EXPECT_NE(
      out.out.find("colour-flip: skipped: region `goal` (racingkings.rules:9:1): White's a8 flipped is a1"),
      std::string::npos)
      << out.out;
  EXPECT_NE(out.out.find("  mirror: checked"), std::string::npos) << out.out;
  auto shogi = testing_process::run_arbiter({"fuzz", "--rules", source_path("rulesets/fsf/shogi.rules"),
                                             "--properties", "--games", "1", "--max-plies", "8", "--json"});
  EXPECT_EQ(shogi.code, 0) << shogi.err;
  EXPECT_NE(
      shogi.out.find("\"checked\":[\"apply-undo\",\"perft-copy\",\"readback\",\"colour-flip\",\"mirror\","),
      std::string::npos)
      << shogi.out;
}

TEST(PropertyPlan, FlippedTextsCarryCountersHandsAndTheGrid) {
  // `checks N -> win`: the counters swap with the colours.
  EXPECT_EQ(arb::fuzz::flip_position("4k3/8/8/8/8/8/8/4K3 w - - 3+1 0 1"),
            "4k3/8/8/8/8/8/8/4K3 b - - 1+3 0 1");
  // `en-passant-field path`: every square of the field flipped.
  EXPECT_EQ(arb::fuzz::flip_position("4k3/8/8/8/6P1/8/8/4K3 b - f3g4 0 1"),
            "4k3/8/8/6p1/8/8/8/4K3 w - f6g5 0 1");
  // No Stress Chess: hands and discards swap; a fixed reshuffle due within the turn stops it.
  const std::string cards = " level:3 pile:PPPPPPPPPPPP wdiscard:NN bdiscard:B whand:QQQQQ bhand:RRRRR";
  EXPECT_EQ(arb::fuzz::flip_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1" + cards),
            "4k3/8/8/8/8/8/8/4K3 b - - 0 1 level:3 pile:PPPPPPPPPPPP wdiscard:B bdiscard:NN whand:RRRRR "
            "bhand:QQQQQ");
  EXPECT_TRUE(arb::fuzz::flip_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1" + cards + " reshuffle:3"));
  EXPECT_FALSE(
      arb::fuzz::flip_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1 level:3 pile:P?2 wdiscard:NN bdiscard:B "
                               "whand:QQQQQ bhand:RRRRR reshuffle:3"));
  // Wall squares and promoted pieces are squares of their own.
  EXPECT_EQ(arb::fuzz::flip_position("4k/+P1*2/5/2s2/K4[Gb] w - - 0 1"), "k4/2S2/5/+p1*2/4K[Bg] b - - 0 1");
  EXPECT_EQ(arb::fuzz::mirror_position("4k/+P1*2/5/2s2/K4[Gb] w - - 0 1", false),
            "k4/2*1+P/5/2s2/4K[Gb] w - - 0 1");
  EXPECT_EQ(arb::fuzz::flip_position("4k3/8/8/8/8/8/8/3Q~K3[n] w - - 0 1"),
            "3q~k3/8/8/8/8/8/8/4K3[N] b - - 0 1");
  // The grid: ranks around 0, colours, hands, piles and capture piles swapped.
  EXPECT_EQ(arb::fuzz::flip_grid_position("kc6,Pa2,Kc1 w BNP/rbb RQ/pp p/- 4"),
            "k(2,-1),p(0,-2),K(2,-6) b RBB/bnp PP/rq -/P 4");
  EXPECT_EQ(arb::fuzz::mirror_grid_position("kc6,Pa2,Kc1 w BNP/rbb RQ/pp p/- 4"),
            "k(-2,6),Pa2,K(-2,1) w BNP/rbb RQ/pp p/- 4");
}

// The sweep's readback finding: coregal's pawn promotes to a royal queen beside Black's
// queen (Fairy-Stockfish plays c7d8q there too); the position reached now reads back, while
// a queen in check that no promotion brought stays refused.
TEST(PropertyPlan, APromotionToARoyalInCheckReadsBack) {
  auto e = catalogue_at("coregal", "3r4/2P1q3/8/8/3P4/8/8/3K4 w - - 0 1");
  ASSERT_TRUE(play(*e, "c7d8q"));
  const std::string after = e->position();
  EXPECT_EQ(after, "3Q4/4q3/8/8/3P4/8/8/3K4 b - - 0 1");
  auto again = arb::lang::make_compiled_engine(catalogue_program("coregal"));
  EXPECT_NO_THROW(again->set_position(after));
  EXPECT_EQ(legal_texts(*again), legal_texts(*e));
  EXPECT_THROW(again->set_position("3rk3/8/8/8/8/8/8/R2QK3 b - - 0 1"), arb::PositionError);
}

// A one-sided bug in a region-using ruleset: minishogi compiled, then Black's promotion
// zone moved one rank (rank 2 instead of its camp, rank 1) in the compiled tables, as a
// compile bug would. The statements promise the flip; the flip alone finds the bug.
TEST(PropertyPlan, AOneSidedPromotionZoneIsCaughtByTheColourFlip) {
  const auto good = catalogue_program("minishogi");
  ASSERT_TRUE(good->tables64);
  auto bad = std::make_shared<arb::lang::Program>(*good);
  auto tables = std::make_shared<arb::lang::BoardTables<uint64_t>>(*good->tables64);
  int zones = 0;
  for (auto& t : tables->pieces)
    if (t.promote_zone[1]) {
      EXPECT_EQ(t.promote_zone[1], 0x1fULL);  // Black's camp: rank 1 (squares 0-4)
      t.promote_zone[1] = 0x1fULL << 5;       // rank 2
      ++zones;
    }
  ASSERT_EQ(zones, 4);
  bad->tables64 = tables;
  std::shared_ptr<const arb::lang::Program> seeded = bad;
  const auto plan = catalogue_plan("minishogi");
  ASSERT_TRUE(plan.enabled(Property::ColourFlip));
  arb::fuzz::PropertyPlan flip_only_plan;
  for (int i = 0; i < arb::fuzz::kProperties; ++i)
    if (static_cast<Property>(i) != Property::ColourFlip)
      flip_only_plan.skip(static_cast<Property>(i), "off");
  arb::fuzz::PropertyOptions o;
  o.seed = 5;
  o.games = fast() ? 3 : 6;  // the bug shows at the start; the clean run needs 100 flipped nodes
  o.max_plies = 40;
  const std::string start = "rbsgk/4p/5/P4/KGSBR[] w - - 0 1";
  arb::fuzz::EngineFactory buggy = [seeded] { return arb::lang::make_compiled_engine(seeded); };
  const arb::fuzz::PropertyPlan& flip_only = flip_only_plan;
  for (const arb::fuzz::PropertyPlan* p : {&flip_only, &plan}) {
    const auto r = arb::fuzz::check_properties(buggy, start, *p, o);
    ASSERT_TRUE(r.violation.has_value());
    EXPECT_EQ(r.violation->property, "colour-flip") << arb::fuzz::to_json(*r.violation);
    // Found at the start, shrunk to the kings, Black's pawn and White's rook: the flipped
    // position (Black to move) offers Black's rook a promotion taking on e2 (e5e2d), which
    // White's rook taking on e4 (outside its camp), flipped, is not.
    EXPECT_EQ(r.violation->diff, "-e5e2d") << arb::fuzz::to_json(*r.violation);
    EXPECT_EQ(r.violation->position, "4k/4p/5/5/K3R[] w - - 0 1");
    EXPECT_EQ(r.violation->original, start);
  }
  // The same games on the compiled ruleset as it is: every property holds.
  arb::fuzz::EngineFactory fine = [good] { return arb::lang::make_compiled_engine(good); };
  const auto ok = arb::fuzz::check_properties(fine, start, plan, o);
  EXPECT_FALSE(ok.violation.has_value()) << arb::fuzz::to_json(*ok.violation);
  EXPECT_GT(ok.checks.at("colour-flip"), 100u);
}

// ---- the colour rotation (issue 26) -----------------------------------------------------

// The plan's decisions but only the rotation checked, on even where the plan finds it implied.
arb::fuzz::PropertyPlan only_rotation(arb::fuzz::PropertyPlan p) {
  for (int i = 0; i < arb::fuzz::kProperties; ++i)
    if (static_cast<Property>(i) != Property::ColourRotation) p.skip(static_cast<Property>(i), "off");
  p.on[static_cast<int>(Property::ColourRotation)] = true;
  return p;
}

// The rotation's text: the mirror then the flip, castling rights removed first when asked.
TEST(PropertyPlan, RotatedTextsTurnTheBoardAndSwapColours) {
  EXPECT_EQ(arb::fuzz::rotate_position("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", true),
            "r2k3r/8/8/8/8/8/8/3K4 b - - 0 1");
  EXPECT_FALSE(arb::fuzz::rotate_position("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", false).has_value());
  // The en-passant square turns with the board; a hand and walls are carried.
  EXPECT_EQ(arb::fuzz::rotate_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false),
            "3k4/8/8/8/3pP3/8/8/3K4 b - e3 0 1");
  EXPECT_EQ(arb::fuzz::rotate_position("*5/6/6/6/6/6/6/2P3[Pp] w - - 0 1", false),
            "3p2/6/6/6/6/6/6/5*[Pp] b - - 0 1");
}

// The plan chooses the rotation from the statements: a region whose White squares turned
// through 180 degrees are Black's where the flip fails (legan's `rotated` zone, isolation's
// open squares), or pieces turned for Black (tori shogi). Where the flip and the mirror
// both hold it is their composition (skipped as implied); a piece that tells left from
// right and is mirrored for Black breaks it.
TEST(PropertyPlan, TheColourRotationIsChosenFromTheStatements) {
  const auto rot = [](const arb::fuzz::PropertyPlan& p) { return reason(p, Property::ColourRotation); };
  const auto legan = catalogue_plan("legan");
  EXPECT_FALSE(legan.enabled(Property::ColourFlip));
  ASSERT_TRUE(legan.enabled(Property::ColourRotation)) << rot(legan);
  EXPECT_NE(legan.rotation_chosen.find("region `legan-zone` (legan.rules:16:1)"), std::string::npos)
      << legan.rotation_chosen;
  EXPECT_NE(arb::fuzz::plan_text(legan).find("colour-rotation: checked (chosen"), std::string::npos)
      << arb::fuzz::plan_text(legan);
  const auto isolation = catalogue_plan("isolation");
  ASSERT_TRUE(isolation.enabled(Property::ColourRotation)) << rot(isolation);
  EXPECT_NE(isolation.rotation_chosen.find("region `open` (isolation.rules:11:1)"), std::string::npos)
      << isolation.rotation_chosen;
  const auto tori = catalogue_plan("torishogi");
  ASSERT_TRUE(tori.enabled(Property::ColourRotation)) << rot(tori);
  EXPECT_NE(tori.rotation_chosen.find("`orientation rotated` (torishogi.rules:18:1)"), std::string::npos)
      << tori.rotation_chosen;
  for (const char* name : {"isolation7x7", "chess", "shogi"}) {
    const auto p = catalogue_plan(name);
    EXPECT_FALSE(p.enabled(Property::ColourRotation)) << name;
    EXPECT_NE(rot(p).find("implied: colour-flip and mirror are checked"), std::string::npos)
        << name << rot(p);
  }
  // A colour named in a rule breaks the rotation as the flip.
  EXPECT_NE(rot(catalogue_plan("armageddon")).find("`draw-odds black`"), std::string::npos);
  // A knight that leaps to its left only, mirrored for Black: neither the mirror nor the
  // rotation; a zone stated `rotated` keeps the rotation only where its squares do.
  const auto sided = text_plan(
      "ruleset sided extends chess\nregion zone a8-c8 rotated\npiece knight N { betza \"lN\" }\n"
      "piece pawn P { betza \"fmWfcFifmnD\"; initial ranks 2; promote on rank 8 to Q R B N; "
      "promotion-squares zone }\n");
  EXPECT_FALSE(sided.enabled(Property::ColourRotation));
  EXPECT_NE(rot(sided).find("piece knight's betza \"lN\" (plan.rules:3:"), std::string::npos) << rot(sided);
}

// Legan, isolation and isolation7x7 (where the plan finds the rotation implied, checked here
// alone) keep it over a few short games.
TEST(PropertyPlan, TheColourRotationHoldsOnLeganAndIsolation) {
  for (const char* name : {"legan", "isolation", "isolation7x7"}) {
    const auto program = catalogue_program(name);
    arb::fuzz::EngineFactory make = [program] { return arb::lang::make_compiled_engine(program); };
    arb::fuzz::PropertyOptions o;
    o.seed = 2;
    o.games = 2;
    o.max_plies = std::string(name) == "legan" ? 30 : 6;  // isolation's nodes hold hundreds of actions
    o.mutate_percent = 0;
    const auto r =
        arb::fuzz::check_properties(make, make()->position(), only_rotation(catalogue_plan(name)), o);
    EXPECT_FALSE(r.violation.has_value()) << name << ": " << arb::fuzz::to_json(*r.violation);
    EXPECT_GE(r.checks.count("colour-rotation") ? r.checks.at("colour-rotation") : 0, r.positions) << name;
  }
}

// The seeded bug (tests/data/legan_zone_off_by_one.rules): Black's promotion zone lacks h4.
// The plan, reading its squares, names the square and does not vouch for the rotation;
// legan's plan run on it finds the bug with the rotation, where a Black pawn reaching h4
// should promote as White's reaching a5 does.
TEST(PropertyPlan, ALeganZoneOffByOneIsCaughtByTheRotation) {
  arb::lang::Diagnostics d;
  auto c = arb::lang::compile_file(source_path("tests/data/legan_zone_off_by_one.rules"), {}, d);
  ASSERT_TRUE(c.model && c.program) << d.render();
  const auto own = arb::properties::plan_for(*c.model);
  EXPECT_FALSE(own.enabled(Property::ColourRotation));
  EXPECT_EQ(
      reason(own, Property::ColourRotation),
      "region `legan-zone` (legan_zone_off_by_one.rules:11:1): White's a5 turned through 180 degrees is "
      "h4, not one of Black's (the same squares for both sides): not rotation-symmetric");
  const std::shared_ptr<const arb::lang::Program> bad = c.program;
  arb::fuzz::EngineFactory buggy = [bad] { return arb::lang::make_compiled_engine(bad); };
  arb::fuzz::PropertyOptions o;
  o.seed = 1;
  o.games = 1;
  o.max_plies = 4;
  // A White pawn one step from a5 (legan's pawn moves forward-left), the kings in their corners.
  const std::string start = "k7/8/8/8/1P6/8/8/7K w - - 0 1";
  const auto r = arb::fuzz::check_properties(buggy, start, catalogue_plan("legan"), o);
  ASSERT_TRUE(r.violation.has_value());
  EXPECT_EQ(r.violation->property, "colour-rotation");
  EXPECT_NE(r.violation->diff.find("+g5h4q"), std::string::npos) << arb::fuzz::to_json(*r.violation);
  // Legan as it is passes the same check.
  const auto good = catalogue_program("legan");
  arb::fuzz::EngineFactory fine = [good] { return arb::lang::make_compiled_engine(good); };
  const auto ok = arb::fuzz::check_properties(fine, start, catalogue_plan("legan"), o);
  EXPECT_FALSE(ok.violation.has_value()) << arb::fuzz::to_json(*ok.violation);
  EXPECT_GT(ok.checks.at("colour-rotation"), 0u);
}

}  // namespace
