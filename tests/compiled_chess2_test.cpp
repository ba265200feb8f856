// Chess 2 on the compiled generator (rulesets/chess2.rules): each special rule the
// compiled armies run, pinned on hand-derived positions; Classic against Classic against
// the Chess960 suite; perft and random playouts against the independent reference engine
// (checker/reference/chess2) for every matchup of the armies the generator runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "arbiter/perft_suite.hpp"
#include "helpers.hpp"
#include "mutate/run_mutants.hpp"
#include "process.hpp"

namespace {

using namespace testing_helpers;
using arb::Action;
using arb::Engine;

// The six armies (RULINGS 4.1); the compiled generator runs them all.
const std::vector<std::string> kCompiledArmies = {"classic", "nemesis",   "empowered",
                                                  "reaper",  "two-kings", "animals"};

std::shared_ptr<const arb::lang::Program> program(const std::string& white, const std::string& black) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const arb::lang::Program>> cache;
  std::lock_guard<std::mutex> lock(mu);
  const std::string key = white + "/" + black;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  arb::lang::Diagnostics diags;
  auto c =
      arb::lang::compile_file(ruleset_path("chess2"), {{"white-army", white}, {"black-army", black}}, diags);
  EXPECT_FALSE(diags.has_errors()) << key << "\n" << diags.render();
  cache[key] = c.program;
  return c.program;
}

std::unique_ptr<Engine> compiled(const std::string& white, const std::string& black,
                                 const std::string& text = "start") {
  auto p = program(white, black);
  if (!p) throw std::runtime_error("chess2 " + white + "/" + black + " does not compile");
  auto e = arb::lang::make_compiled_engine(p);
  e->set_position(text);
  return e;
}

std::unique_ptr<Engine> reference(const std::string& white, const std::string& black,
                                  const std::string& text = "start") {
  auto e = arb::ref::make_chess2_engine({{"white-army", white}, {"black-army", black}});
  e->set_position(text);
  return e;
}

// The canonical texts of the legal actions starting at square `from` (e.g. "d4").
std::vector<std::string> from_square(Engine& e, const std::string& from) {
  std::vector<std::string> out;
  for (const auto& t : legal_texts(e))
    if (t.compare(0, from.size(), from) == 0) out.push_back(t.substr(from.size()));
  return out;
}

using Squares = std::vector<std::string>;

// The pieces an action's step removes, as "d5p d6P " (square and letter, in order).
std::string removed_of(Engine& e, const std::string& text, size_t step = 0) {
  auto info = e.describe(find_action(e, text));
  std::string out;
  if (step >= info.steps.size()) return "<no step>";
  for (const auto& r : info.steps[step].removed)
    out += std::string(1, static_cast<char>('a' + r.at.x)) + std::to_string(r.at.y) + r.piece + " ";
  return out;
}
bool has(Engine& e, const std::string& text) {
  auto l = legal_texts(e);
  return std::count(l.begin(), l.end(), text) > 0;
}

// ---- Two Kings (RULINGS 4.9, 4.12) ------------------------------------------------------

// The warrior kings c3 and d3 stand side by side: neither may whirlwind. Apart (after
// d3e3), c3 may whirlwind in the king-turn: the rook b4 and the own pawn c2 go.
TEST(CompiledChess2TwoKings, WhirlwindBesideTheOtherKingIsIllegal) {
  auto e = compiled("two-kings", "classic", "7k/8/8/8/1r6/2WW4/2P5/8 w - - 0 1");
  for (const auto& t : legal_texts(*e)) EXPECT_EQ(t.rfind("W*", 0), std::string::npos) << t;
  EXPECT_TRUE(has(*e, "d3d2"));
  EXPECT_FALSE(has(*e, "d3d2,W*c3"));
  ASSERT_TRUE(has(*e, "d3e3,W*c3"));
  auto info = e->describe(find_action(*e, "d3e3,W*c3"));
  ASSERT_EQ(info.steps.size(), 2u);
  EXPECT_EQ(info.steps[1].kind, arb::StepKind::Remove);
  EXPECT_EQ(info.steps[1].to, info.steps[1].from);  // a whirlwind
  EXPECT_EQ(info.steps[1].phase, 1);
  EXPECT_EQ(removed_of(*e, "d3e3,W*c3", 1), "c2P b4r ");
  ASSERT_TRUE(play(*e, "d3e3,W*c3"));
  EXPECT_EQ(e->position(), "7k/8/8/8/8/2W1W3/8/8 b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "7k/8/8/8/1r6/2WW4/2P5/8 w - - 0 1");
}

// A whirlwind removes every piece around it, both colours, never a ghost, and must remove one.
TEST(CompiledChess2TwoKings, WhirlwindRemovesPieces) {
  auto g = compiled("two-kings", "reaper", "7k/8/8/8/8/2g5/3W4/7W w - - 0 1");
  EXPECT_FALSE(has(*g, "W*d2"));
  g->set_position("7k/8/8/8/8/2gp4/3W4/7W w - - 0 1");
  EXPECT_EQ(removed_of(*g, "W*d2"), "d3p ");
  auto n = compiled("two-kings", "nemesis", "7k/8/8/8/8/2Pm4/3W4/7W w - - 0 1");
  EXPECT_EQ(removed_of(*n, "W*d2"), "c3P d3m ");  // a nemesis goes too (RULINGS 4.6)
  ASSERT_TRUE(play(*n, "W*d2"));
  EXPECT_EQ(n->position(), "7k/8/8/8/8/8/3W4/7W b - - 0 1");
  EXPECT_EQ(legal_texts(*n), legal_texts(*reference("two-kings", "nemesis", n->position())));
}

// Midline invasion needs both warrior kings across; a king-turn can complete it, and a
// normal action that completes it ends the game (no king-turn follows).
TEST(CompiledChess2TwoKings, MidlineInvasionAfterAKingTurn) {
  const std::string pos = "k7/8/8/4W3/3W4/8/P7/8 w - - 0 1";
  auto e = compiled("two-kings", "classic", pos);
  EXPECT_TRUE(has(*e, "d4d5"));
  for (const auto& t : legal_texts(*e)) EXPECT_NE(t.rfind("d4d5,", 0), 0u) << t;
  ASSERT_TRUE(play(*e, "a2a3,d4d5"));
  auto st = e->status();
  EXPECT_EQ(st.reason, "midline-invasion");
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  e->set_position(pos);
  ASSERT_TRUE(play(*e, "a2a3,e5e4"));  // one king back: the game goes on
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
}

// RULINGS 4.12: an en-passant right survives a king-turn that occupied the double step's
// origin; the position text keeps it (b2 holds a piece, b3 is still capturable).
TEST(CompiledChess2TwoKings, EnPassantSurvivesAnOccupiedOrigin) {
  const std::string pos = "5k2/8/8/8/pP6/8/1N6/4K3 b - b3 0 1";
  auto c = compiled("reaper", "empowered", pos);
  EXPECT_EQ(c->position(), pos);
  EXPECT_TRUE(has(*c, "a4b3"));
  EXPECT_EQ(legal_texts(*c), legal_texts(*reference("reaper", "empowered", pos)));
  // After a king-turn onto the origin: d2d4, then the warrior king c1 to... d2 is the origin.
  auto t = compiled("two-kings", "classic", "4k3/8/8/8/4p3/8/3P4/2W1W3 w - - 0 1");
  ASSERT_TRUE(play(*t, "d2d4,e1d2"));
  EXPECT_EQ(t->position(), "4k3/8/8/8/3Pp3/8/3W4/2W5 b - d3 0 1");
  EXPECT_TRUE(has(*t, "e4d3"));
}

// ---- Animals (RULINGS 4.10) -------------------------------------------------------------

// Elephant d4: north d5 (enemy pawn), d6 (own pawn), d7: a rampage to d7 removes both.
// South: d3, then the own king d2 forbids a rampage. East: e4, f4, then an enemy elephant
// three squares from d4, which blocks. West: empty to the edge, plain moves only.
TEST(CompiledChess2Animals, RampageThroughBlockersAndBlockedRampages) {
  auto e = compiled("animals", "animals", "7k/8/3P4/3p4/3E2e1/8/3K4/8 w - - 0 1");
  EXPECT_EQ(from_square(*e, "d4"), (Squares{"a4", "b4", "c4", "d3", "d7", "e4", "f4"}));
  EXPECT_EQ(removed_of(*e, "d4d7"), "d5p d6P ");
  ASSERT_TRUE(play(*e, "d4d7"));
  EXPECT_EQ(e->position(), "7k/3E4/8/8/6e1/8/3K4/8 b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "7k/8/3P4/3p4/3E2e1/8/3K4/8 w - - 0 1");
  // An enemy elephant two squares away is trampled; it is no plain move's target.
  e->set_position("7k/8/8/8/3E1e2/8/3K4/8 w - - 0 1");
  EXPECT_TRUE(has(*e, "d4g4"));
  EXPECT_TRUE(has(*e, "d4e4"));
  EXPECT_FALSE(has(*e, "d4f4"));
  EXPECT_EQ(removed_of(*e, "d4g4"), "f4e ");
  // Near the edge the rampage runs to the edge; an own elephant at any distance goes too.
  e->set_position("7k/8/8/8/8/8/3K4/E1E5 w - - 0 1");
  EXPECT_TRUE(has(*e, "a1d1"));
  EXPECT_EQ(removed_of(*e, "a1d1"), "c1E ");
  // A ghost or a nemesis on the path forbids the rampage.
  auto g = compiled("animals", "reaper", "7k/8/8/8/3E1g2/8/3K4/8 w - - 0 1");
  EXPECT_FALSE(has(*g, "d4g4"));
  EXPECT_TRUE(has(*g, "d4e4"));
  auto m = compiled("animals", "nemesis", "7k/8/8/8/3Em3/8/3K4/8 w - - 0 1");
  EXPECT_EQ(from_square(*m, "d4"), (Squares{"a4", "b4", "c4", "d3", "d5", "d6", "d7"}));
}

// An enemy king on the path of a possible rampage is in check; a blocker on the path
// (a nemesis, an enemy elephant three squares away) makes it no check.
TEST(CompiledChess2Animals, ElephantChecks) {
  auto e = compiled("animals", "classic", "8/8/8/Epk5/8/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  EXPECT_FALSE(has(*e, "c5d5"));  // still on the path
  EXPECT_TRUE(has(*e, "c5c6"));
  EXPECT_FALSE(compiled("animals", "nemesis", "8/8/8/Emk5/8/8/8/4K3 b - - 0 1")->status().in_check);
  EXPECT_FALSE(compiled("animals", "animals", "4k3/8/8/e7/8/K7/E7/8 w - - 0 1")->status().in_check);
  EXPECT_TRUE(compiled("animals", "animals", "4k3/8/8/e7/8/K7/8/E7 w - - 0 1")->status().in_check);
  // The king may not castle through f8, a square a rampage would reach with a king on it.
  auto c = compiled("animals", "classic", "4k2r/8/5E2/8/8/8/8/4K3 b k - 0 1");
  EXPECT_FALSE(has(*c, "e8h8"));
  // Nor step onto e2, on the path of the elephant e3 once the king stands there.
  EXPECT_FALSE(has(*compiled("classic", "animals", "8/4k3/8/8/8/4e3/8/4K3 w - - 0 1"), "e1e2"));
}

// Only a piece starting within two squares (the 5x5 box) captures an elephant.
TEST(CompiledChess2Animals, ElephantImmuneFromAfar) {
  auto e = compiled("classic", "animals", "4k3/8/8/e7/8/8/8/R3K3 w - - 0 1");
  EXPECT_TRUE(has(*e, "a1a4"));
  EXPECT_FALSE(has(*e, "a1a5"));
  e->set_position("4k3/8/8/e7/8/R7/8/4K3 w - - 0 1");
  EXPECT_TRUE(has(*e, "a3a5"));
  auto r = compiled("reaper", "animals", "4k3/8/8/ep6/8/8/8/4K2A w - - 0 1");
  EXPECT_FALSE(has(*r, "h1a5"));
  EXPECT_TRUE(has(*r, "h1b5"));
  r->set_position("4k3/8/8/ep6/2A5/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(has(*r, "c4a5"));
}

// The tiger strikes one or two squares diagonally over a clear path without moving.
TEST(CompiledChess2Animals, TigerStrikesWithoutMoving) {
  auto e = compiled("animals", "classic", "4k3/8/8/8/8/p3n3/3P4/2T1K3 w - - 0 1");
  EXPECT_EQ(from_square(*e, "c1"), (Squares{"^a3", "b2"}));
  auto info = e->describe(find_action(*e, "c1^a3"));
  ASSERT_EQ(info.steps.size(), 1u);
  EXPECT_EQ(info.steps[0].kind, arb::StepKind::Remove);
  EXPECT_NE(info.steps[0].to, info.steps[0].from);  // a strike
  EXPECT_EQ(removed_of(*e, "c1^a3"), "a3p ");
  ASSERT_TRUE(play(*e, "c1^a3"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/4n3/3P4/2T1K3 b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/p3n3/3P4/2T1K3 w - - 0 1");
  // A tiger checks along its clear diagonals only.
  EXPECT_TRUE(compiled("animals", "classic", "8/8/8/4k3/8/2T5/8/4K3 b - - 0 1")->status().in_check);
  EXPECT_FALSE(compiled("animals", "classic", "8/8/8/4k3/3p4/2T5/8/4K3 b - - 0 1")->status().in_check);
}

// The wild horse may take an own piece, never its own king; the jungle queen is R + N.
TEST(CompiledChess2Animals, WildHorseSelfCaptureAndJungleQueen) {
  auto e = compiled("animals", "classic", "7k/8/4P3/8/3H4/5K2/8/8 w - - 0 1");
  EXPECT_TRUE(has(*e, "d4e6"));
  EXPECT_EQ(removed_of(*e, "d4e6"), "e6P ");
  EXPECT_FALSE(has(*e, "d4f3"));
  ASSERT_TRUE(play(*e, "d4e6"));
  EXPECT_EQ(e->position(), "7k/8/4H3/8/8/5K2/8/8 b - - 0 1");
  auto j = compiled("animals", "classic", "7k/8/8/8/3J4/8/8/4K3 w - - 0 1");
  EXPECT_EQ(from_square(*j, "d4").size(), 14u + 8u);
}

// ---- hand-derived positions ---------------------------------------------------------

// RULINGS 4.8: a ghost blocks every piece; a rook stops before it and never takes it.
TEST(CompiledChess2Rules, GhostStopsASlider) {
  auto e = compiled("classic", "reaper", "7k/8/8/8/g7/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(from_square(*e, "a1"), (Squares{"a2", "a3", "b1", "c1", "d1"}));
  // A knight jumps it.
  auto n = compiled("classic", "reaper", "7k/8/8/8/8/1g6/8/N3K3 w - - 0 1");
  EXPECT_EQ(from_square(*n, "a1"), (Squares{"c2"}));
}

// RULINGS 4.8: a reaper goes to any empty square and takes any piece but a king, never on
// the enemy back rank, and gives no check; a ghost is never taken, even by a reaper.
TEST(CompiledChess2Rules, ReaperTeleportsButNeverOntoTheEnemyBackRankNorAKing) {
  auto e = compiled("reaper", "classic", "r3k3/8/8/3p4/8/8/8/A3K3 w - - 0 1");
  Squares a = from_square(*e, "a1");
  EXPECT_EQ(a.size(), 53u + 1u);  // the 53 empty squares of ranks 1-7, and the pawn on d5
  EXPECT_TRUE(std::count(a.begin(), a.end(), "d5"));
  EXPECT_FALSE(std::count(a.begin(), a.end(), "a8"));  // the enemy back rank
  EXPECT_FALSE(std::count(a.begin(), a.end(), "b8"));
  // A reaper next to the king gives no check.
  auto c = compiled("reaper", "classic", "4k3/3A4/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_FALSE(c->status().in_check);
  auto g = compiled("reaper", "reaper", "4k3/8/8/8/3g4/8/8/A3K3 w - - 0 1");
  Squares ga = from_square(*g, "a1");
  EXPECT_FALSE(std::count(ga.begin(), ga.end(), "d4"));
}

// RULINGS 4.6: a nemesis pawn steps inside the rectangle spanned by it and the enemy king.
TEST(CompiledChess2Rules, NemesisPawnRectangle) {
  auto ne = compiled("nemesis", "classic", "8/8/5k2/8/3L4/8/8/K7 w - - 0 1");
  EXPECT_EQ(from_square(*ne, "d4"), (Squares{"d5", "e4", "e5"}));
  // Backward and sideways toward a king behind it (on Black's own half: no invasion yet).
  auto sw = compiled("nemesis", "classic", "8/8/3L4/2k5/8/8/8/7K w - - 0 1");
  EXPECT_EQ(from_square(*sw, "d6"), (Squares{"c6", "d5", "d7"}));
  // No double step from the second rank.
  auto st = compiled("nemesis", "classic", "4k3/8/8/8/8/8/3L4/K7 w - - 0 1");
  EXPECT_EQ(from_square(*st, "d2"), (Squares{"d3", "e2", "e3"}));
}

// A nemesis pawn's quiet diagonal step and its en-passant capture land on one square; the
// canonical text of the capture names the victim, both read back, and both engines agree.
TEST(CompiledChess2Rules, NemesisPawnStepAndEnPassantHaveDistinctTexts) {
  const std::string pos = "7k/8/8/3Lp3/8/8/8/K7 w - e6 0 1";
  auto c = compiled("nemesis", "classic", pos);
  EXPECT_EQ(from_square(*c, "d5"), (Squares{"d6", "e6", "e6xe5"}));
  EXPECT_EQ(legal_texts(*c), legal_texts(*reference("nemesis", "classic", pos)));
  for (const std::string text : {"d5e6", "d5e6xe5"}) {
    auto e = compiled("nemesis", "classic", pos);
    ASSERT_TRUE(play(*e, text));
    const std::string board = e->position().substr(0, e->position().find(' '));
    EXPECT_EQ(board, text == "d5e6" ? "7k/8/4L3/4p3/8/8/8/K7" : "7k/8/4L3/8/8/8/8/K7");
  }
}

// RULINGS 4.6: the nemesis takes nothing but the king, and only the king takes it; it
// gives check.
TEST(CompiledChess2Rules, NemesisCapturesOnlyTheKingAndOnlyTheKingCapturesIt) {
  auto b = compiled("nemesis", "classic", "7k/3r4/8/8/3M4/8/8/K7 b - - 0 1");
  EXPECT_TRUE(b->status().in_check);  // the diagonal d4-h8
  Squares r = from_square(*b, "d7");
  EXPECT_FALSE(std::count(r.begin(), r.end(), "d4"));
  auto w = compiled("nemesis", "classic", "7k/3r4/8/8/8/3M4/8/K7 w - - 0 1");
  Squares m = from_square(*w, "d3");
  EXPECT_FALSE(std::count(m.begin(), m.end(), "d7"));
  EXPECT_TRUE(std::count(m.begin(), m.end(), "d6"));
  // In check from the nemesis beside the king: the rook cannot take it, the king can.
  auto k = compiled("classic", "nemesis", "7k/8/8/8/8/8/R2m4/3K4 w - - 0 1");
  EXPECT_TRUE(k->status().in_check);
  EXPECT_EQ(legal_texts(*k), (Squares{"d1d2"}));
}

// RULINGS 4.7: an empowered knight beside a friendly rook also moves as a rook; the gain
// is not passed on (the bishop beside the knight gains the knight's move, not the rook's).
TEST(CompiledChess2Rules, EmpoweredKnightNextToARook) {
  // The knight d4 stands between a bishop (d5) and a rook (d3): it moves as all three.
  auto e = compiled("empowered", "classic", "8/8/7k/3X4/3Y4/3Z4/8/K7 w - - 0 1");
  Squares y = from_square(*e, "d4");
  EXPECT_TRUE(std::count(y.begin(), y.end(), "b5"));  // its own knight move
  EXPECT_TRUE(std::count(y.begin(), y.end(), "h4"));  // the rook's
  EXPECT_TRUE(std::count(y.begin(), y.end(), "a7"));  // the bishop's
  Squares x = from_square(*e, "d5");
  EXPECT_TRUE(std::count(x.begin(), x.end(), "f6"));   // the knight's, lent by d4
  EXPECT_FALSE(std::count(x.begin(), x.end(), "e5"));  // the rook's is not passed on through d4
  EXPECT_EQ(legal_texts(*e), legal_texts(*reference("empowered", "classic", e->position())));
  // Borrowed movement gives check: the knight a1 rides the first rank as the rook a2.
  auto c = compiled("classic", "empowered", "k7/8/8/8/8/8/8/y5K1 w - - 0 1");
  EXPECT_FALSE(c->status().in_check);
  auto c2 = compiled("classic", "empowered", "k7/8/8/8/8/8/z7/y5K1 w - - 0 1");
  EXPECT_TRUE(c2->status().in_check);
}

// RULINGS 4.3: a player without a legal move loses; the mover whose king stands on the
// enemy half wins, and the game is over.
TEST(CompiledChess2Rules, NoLegalMoveLoses) {
  auto e = compiled("classic", "classic", "k7/8/1Q6/8/8/8/8/2K5 b - - 0 1");
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "no-legal-move");
  EXPECT_FALSE(st.in_check);
}

TEST(CompiledChess2Rules, MidlineInvasionEndsTheGame) {
  auto e = compiled("classic", "classic", "k7/8/8/8/4K3/8/8/8 w - - 0 1");
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  ASSERT_TRUE(play(*e, "e4e5"));
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "midline-invasion");
  EXPECT_TRUE(legal_texts(*e).empty());
  EXPECT_EQ(e->perft(1), 0u);
  e->undo();
  ASSERT_TRUE(play(*e, "e4d4"));  // still on the own half
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
}

// RULINGS 4.1/4.2: each side's pieces come from its army; the start substitutes them.
TEST(CompiledChess2Rules, ArmiesOwnTheirPieces) {
  auto e = compiled("reaper", "nemesis");
  EXPECT_EQ(e->position(), "rnbmkbnr/llllllll/8/8/8/8/PPPPPPPP/GNBAKBNG w - - 0 1");
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), arb::PositionError);  // Q: not White's
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), arb::PositionError);  // no castling
  auto c = compiled("classic", "empowered", "start:0");
  EXPECT_EQ(c->position(), reference("classic", "empowered", "start:0")->position());
}

// Mandatory promotion to the own army's pieces (RULINGS 4.4, 4.10).
TEST(CompiledChess2Rules, PromotionToTheOwnArmy) {
  auto e = compiled("empowered", "reaper", "7k/P7/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(from_square(*e, "a7"), (Squares{"a8o", "a8x", "a8y", "a8z"}));
  auto n = compiled("classic", "nemesis", "7k/8/8/8/8/8/1l5K/8 b - - 0 1");
  Squares l = from_square(*n, "b2");
  EXPECT_TRUE(std::count(l.begin(), l.end(), "b1m"));
}

// ---- against the Chess960 suite and the reference ------------------------------------

// Classic against Classic is Chess960 where no king can reach the midline: depth 3 from
// suite positions whose kings stand on their first two ranks.
TEST(CompiledChess2Perft, ClassicIsChess960BelowTheMidline) {
  auto cases = arb::read_perft_suite(corpus_path("perft/chess960.perft"));
  auto e = compiled("classic", "classic");
  int checked = 0;
  const int want = fast() ? 10 : 120;
  for (const auto& c : cases) {
    if (checked >= want) break;
    e->set_position(c.position);
    const std::string board = c.position.substr(0, c.position.find(' '));
    const size_t wk = board.find('K'), bk = board.find('k');
    const int wrank = 8 - static_cast<int>(std::count(board.begin(), board.begin() + wk, '/'));
    const int brank = 1 + static_cast<int>(std::count(board.begin(), board.begin() + bk, '/'));
    if (wrank > 2 || brank > 2) continue;  // three own-king moves at most in depth 3... keep to ranks 1-2
    for (const auto& [depth, nodes] : c.expected) {
      if (depth != 3) continue;
      EXPECT_EQ(e->perft(3), nodes) << c.position;
      ++checked;
    }
  }
  EXPECT_GE(checked, want);
}

TEST(CompiledChess2Perft, EveryCompiledMatchupAgreesWithTheReference) {
  for (const auto& w : kCompiledArmies)
    for (const auto& b : kCompiledArmies) {
      auto c = compiled(w, b), r = reference(w, b);
      EXPECT_EQ(c->position(), r->position()) << w << "/" << b;
      EXPECT_EQ(legal_texts(*c), legal_texts(*r)) << w << "/" << b;
      EXPECT_EQ(c->perft(2), r->perft(2)) << w << "/" << b;
    }
}

TEST(CompiledChess2Perft, DepthThreeFromClassicStartsAndChess960) {
  if (fast()) GTEST_SKIP() << "depth 3 skipped under ARBITER_FAST";
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"classic", "classic"}, {"nemesis", "empowered"}, {"empowered", "nemesis"},
      {"classic", "reaper"},  {"animals", "reaper"},    {"nemesis", "animals"},
      {"animals", "animals"}, {"two-kings", "animals"}, {"reaper", "two-kings"}};
  for (const auto& [w, b] : pairs)
    for (const std::string start : {"start", "start:0", "start:777"}) {
      auto c = compiled(w, b, start), r = reference(w, b, start);
      EXPECT_EQ(c->perft(3), r->perft(3)) << w << "/" << b << " " << start;
    }
  EXPECT_EQ(compiled("classic", "classic")->perft(3), 8902u);
  // Complete turns (the king-turn included), as the reference counts them.
  EXPECT_EQ(compiled("two-kings", "two-kings")->perft(3), 93974u);
}

// Every matchup with Two Kings or Animals at depth 3 from the start (complete turns).
TEST(CompiledChess2Perft, DepthThreeForEveryMatchupWithTwoKingsOrAnimals) {
  if (fast()) GTEST_SKIP() << "depth 3 skipped under ARBITER_FAST (depth 2 covers every matchup)";
  for (const auto& w : kCompiledArmies)
    for (const auto& b : kCompiledArmies) {
      const bool new_army = w == "two-kings" || w == "animals" || b == "two-kings" || b == "animals";
      if (!new_army) continue;
      EXPECT_EQ(compiled(w, b)->perft(3), reference(w, b)->perft(3)) << w << "/" << b;
    }
}

// Random games from random Chess960 starts: at every ply the same legal actions, the same
// position text and the same status, and perft 2 on a few of the positions.
TEST(CompiledChess2Perft, RandomPlayoutsAgreeWithTheReference) {
  std::mt19937_64 rng(20261123);
  const int games = fast() ? 6 : 48;
  for (int g = 0; g < games; ++g) {
    const std::string& w = kCompiledArmies[rng() % kCompiledArmies.size()];
    const std::string& b = kCompiledArmies[rng() % kCompiledArmies.size()];
    const std::string start = "start:" + std::to_string(rng() % 960);
    auto c = compiled(w, b, start), r = reference(w, b, start);
    for (int ply = 0; ply < 80; ++ply) {
      const std::string where = w + "/" + b + " " + c->position();
      ASSERT_EQ(c->position(), r->position()) << where;
      auto lc = legal_texts(*c);
      ASSERT_EQ(lc, legal_texts(*r)) << where;
      auto sc = c->status(), sr = r->status();
      ASSERT_EQ(sc.reason, sr.reason) << where;
      ASSERT_EQ(sc.in_check, sr.in_check) << where;
      if (ply % 20 == 10) {
        ASSERT_EQ(c->perft(2), r->perft(2)) << where;
      }
      if (lc.empty()) break;
      const std::string pick = lc[rng() % lc.size()];
      c->apply(find_action(*c, pick));
      r->apply(find_action(*r, pick));
    }
  }
}

// The mutation suite on Chess 2 (arbiter mutate): every mutant of each compiled army's
// special rule is refused, equivalent by construction or killed by the fuzzer, and each
// primitive has a mutant the fuzzer kills.
void expect_mutants_killed(const std::vector<std::pair<std::string, std::string>>& pairs,
                           const std::vector<std::string>& constructs) {
  std::map<std::string, int> killed;
  for (const auto& [w, b] : pairs) {
    arb::mutate::MutateOptions o;
    o.overrides = {{"white-army", w}, {"black-army", b}};
    // Two Kings' turns of two steps make long fuzz games: fewer of them, and its games
    // rarely repeat a position, so a claim mutant may survive there (the other pairs kill
    // those).
    const bool two_kings = w == "two-kings";
    o.fuzz.games = fast() || two_kings ? 8 : 16;
    arb::mutate::MutateReport r = arb::mutate::run_mutants(ruleset_path("chess2"), o);
    size_t excused = 0;
    for (const auto& m : r.results) {
      if (m.verdict == "survived" && two_kings && m.mutant.construct == "claim") {
        ++excused;
        continue;
      }
      if (m.verdict == "survived")
        ADD_FAILURE() << m.mutant.line << ":" << m.mutant.col << " " << m.mutant.op << " " << m.mutant.from
                      << " -> " << m.mutant.to;
      if (m.verdict == "killed") ++killed[m.mutant.construct];
      // Dropping the midline invasion leaves the ruleset's own expectation naming a status
      // it can no longer report: the compiler refuses it before the fuzzer sees it.
      if (m.verdict == "refused" && m.mutant.construct == "region-reached" && m.mutant.op == "drop")
        ++killed[m.mutant.construct];
    }
    EXPECT_EQ(r.survived, excused) << w << "/" << b;
  }
  for (const std::string& c : constructs) EXPECT_GT(killed[c], 0) << c;
}

TEST(CompiledChess2Mutants, EachArmysSpecialRuleIsKilled) {
  expect_mutants_killed({{"nemesis", "reaper"}, {"empowered", "classic"}, {"animals", "reaper"}},
                        {"captures", "captured-by", "immune", "teleport", "region-move", "borrows",
                         "region-reached", "promote-to", "castles", "rampage", "strike"});
}
TEST(CompiledChess2Mutants, TwoKingsPrimitivesAreKilled) {
  expect_mutants_killed({{"two-kings", "classic"}}, {"remove-around", "king-turn", "region-reached"});
}

// `arbiter fuzz --matchups N`: random army pairs and Chess960 starts, each compiled pair
// against the reference; the pairs the compiler refuses are counted, not fuzzed.
TEST(CompiledChess2Fuzz, RandomMatchupsAndStarts) {
  auto r = testing_process::run_arbiter({"fuzz", "--variant", "chess2", "--matchups", "8", "--games", "24",
                                         "--seed", "3", "--save-dir", ::testing::TempDir()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("matchups: 8 random army pairs"), std::string::npos) << r;
  EXPECT_NE(r.out.find("no divergence"), std::string::npos) << r;
  auto bad = testing_process::run_arbiter({"fuzz", "--variant", "chess", "--matchups", "2"});
  EXPECT_EQ(bad.code, 2) << bad;
}

// The rule text's dice procedure (chess2.txt, "Procedure to Determine Starting
// Positions") on the compiled side, lang/src/chess960.cpp. The die faces below are
// splitmix64 from the seed, mapped to faces as README's Chess 2 section states:
//   seed 0: 2 1 2 5 2      dark bishop c1, light b1, queen 2nd of a d e f g h = d, knight 5th
//                          of a e f g h = h, knight 2nd of a e f g = e; R K R on a f g
//   seed 1: 6 2 1 6 4 3    6 rerolled: c1, b1, queen 6th = h, knights 4th of a d e f g = f
//                          and 3rd of a d e g = e; R K R on a d g
//   seed 7: 4 1 1 4 5 4    g1, b1, queen a, knight 4th of c d e f h = f, 5 rerolled, knight
//                          4th of c d e h = h; R K R on c d e
//   seed 10: 5 3 4 5 5 5 4 5 rerolled: e1, light h1, queen 5th of a b c d f g = f, knight 5th
//                          of a b c d g = g, 5 rerolled, knight 4th of a b c d = d; R K R
TEST(CompiledChess2Dice, HandDerivedSeeds) {
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(0)), "RBBQNKRN");
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(1)), "RBBKNNRQ");
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(7)), "QBRKRNBN");
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(10)), "RKRNBQNB");
  EXPECT_EQ(arb::lang::chess960_back_rank(518), "RNBQKBNR");
  EXPECT_EQ(arb::lang::chess960_number("RNBQKBNR"), 518);
  EXPECT_EQ(arb::lang::chess960_number("RNBQRBNK"), -1);  // the king not between the rooks
  EXPECT_EQ(arb::lang::chess960_number("NBNBQRKR"), -1);  // both bishops on light squares
  EXPECT_THROW(arb::lang::chess960_back_rank(960), arb::PositionError);
}

// The compiled and the reference procedures (written apart, the same die) build the same
// start for seeds 0..999, and number the 960 back ranks alike.
TEST(CompiledChess2Dice, AgreesWithTheReference) {
  std::set<int> seen;
  for (int n = 0; n < 960; ++n) {
    ASSERT_EQ(arb::lang::chess960_back_rank(n), arb::ref::chess2_back_rank(n)) << n;
    ASSERT_EQ(arb::lang::chess960_number(arb::lang::chess960_back_rank(n)), n);
  }
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    const int n = arb::lang::chess960_dice_start(seed);
    ASSERT_EQ(n, arb::ref::chess2_dice_start(seed)) << "seed " << seed;
    seen.insert(n);
  }
  EXPECT_EQ(arb::lang::chess960_dice_start(UINT64_MAX), arb::ref::chess2_dice_start(UINT64_MAX));
  EXPECT_GT(seen.size(), 600u);  // 1,000 draws from 960 equally likely starts
}

// `--seed S` on Chess 2 starts both engines from the dice procedure's back rank.
TEST(CompiledChess2Dice, SeedOptionStartsFromTheDicePosition) {
  for (const char* engine : {"compiled", "reference"}) {
    auto r = testing_process::run_arbiter(
        {"moves", "--variant", "chess2", "--engine", engine, "--seed", "10", "--json"});
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_NE(r.out.find("\"position\":\"rkrnbqnb/pppppppp/8/8/8/8/PPPPPPPP/RKRNBQNB w KQkq"),
              std::string::npos)
        << engine << "\n"
        << r;
  }
  auto bad = testing_process::run_arbiter({"perft", "--variant", "chess2", "--seed", "x1", "--depth", "1"});
  EXPECT_EQ(bad.code, 2) << bad;
  EXPECT_NE(bad.err.find("--seed"), std::string::npos) << bad;
}

}  // namespace
