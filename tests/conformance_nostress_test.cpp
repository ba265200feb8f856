// The No Stress Chess conformance suite: every engine that plays it (the compiled
// generator running rulesets/nostress.rules, and the hand-written reference engine,
// checker/reference/nostress) on one hand-derived position per ruling of RULINGS.md
// section 3, perft from the start of each level, the card options (deck, hand size) and
// random playouts through apply/undo: one TEST_P per rule
// (`Conformance/NoStress.RulesLevelOneTurnsTheTopCard/compiled`). Fairy-Stockfish has no
// No Stress Chess. Also here: the position text itself (engine/include/arbiter/
// nostress_text.hpp, no engine) and the reference engine's option handling.
// The compiled card layer's own tests (agreement with the reference, `when`, compile errors,
// mutants) are tests/nostress_cards_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"
#include "conformance.hpp"
#include "reference.hpp"

namespace {

using arb::Action;
using arb::Engine;

// The compiled generator with the reference engine's options: `seed` is no ruleset
// option, it names the start (`start:SEED`); the others are ruleset overrides.
conformance::EngineUnderTest compiled_nostress() {
  conformance::EngineUnderTest base = conformance::compiled("nostress");
  return {"compiled", "nostress", [base](const conformance::Options& options) {
            conformance::Options rest = options;
            rest.erase("seed");
            auto e = base.make(rest);
            if (auto s = options.find("seed"); s != options.end()) e->set_position("start:" + s->second);
            return e;
          }};
}

class NoStress : public conformance::Suite {};
INSTANTIATE_TEST_SUITE_P(Conformance, NoStress,
                         ::testing::Values(compiled_nostress(), conformance::reference("nostress")),
                         conformance::engine_name);

// The engine of the running test at LEVEL from `start:SEED`.
std::unique_ptr<Engine> engine(const std::string& level, const std::string& seed = "1") {
  return conformance::make_engine({{"level", level}, {"seed", seed}});
}

#include "nostress_helpers.inc"

// ---------------------------------------------------------------------------------------
// The rulings, one hand-derived position each.

TEST_P(NoStress, RulesLevelOneTurnsTheTopCard) {
  // The top card is a Knight: the actions are the knight's moves, nothing else.
  auto e = at("1", text("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "1", "NQ*", "", "", "", ""));
  EXPECT_EQ(legal(*e), sorted({"N:b1a3", "N:b1c3", "N:b1d2"}));
  EXPECT_FALSE(e->chance());
  play(*e, "N:b1c3");
  EXPECT_EQ(field(e->position(), "wdiscard"), "N");
  EXPECT_EQ(field(e->position(), "pile"), "Q?54");
  EXPECT_EQ(field(e->position(), "1"), "b");
  // Black has no queen: the only action is the lost turn.
  EXPECT_EQ(legal(*e), std::vector<std::string>{"Q:pass"});
  play(*e, "Q:pass");
  EXPECT_EQ(field(e->position(), "bdiscard"), "Q");
  EXPECT_EQ(field(e->position(), "4"), "2");  // two turns without pawn move or capture
  EXPECT_EQ(field(e->position(), "5"), "2");
  // The pile's top is unknown now: White's turn starts with a chance draw.
  EXPECT_TRUE(e->chance());
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
}

TEST_P(NoStress, RulesAgainNamesTwoKinds) {
  const std::string board = "4k3/8/8/8/8/8/8/R3K2B w - - 0 1";
  // Own pile R then A (A on top: skipped, names R); opponent's pile: B. Rook a1: 7 up + 3
  // along the rank; bishop h1: 7 squares to a8. All played with card A.
  auto e = at("1", text(board, "1", "A*", "RA", "B", "", ""));
  std::vector<std::string> got = legal(*e);
  EXPECT_EQ(got.size(), 17u);
  for (const std::string& t : got) EXPECT_EQ(t.substr(0, 2), "A:");
  EXPECT_TRUE(std::count(got.begin(), got.end(), "A:a1a8"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "A:h1a8"));
  play(*e, "A:h1d5");
  EXPECT_EQ(field(e->position(), "wdiscard"), "RAA");
  // Both piles name the rook: each move once.
  e = at("1", text(board, "1", "A*", "R", "R", "", ""));
  EXPECT_EQ(legal(*e).size(), 10u);
  // The own pile holds only Again cards: it names nothing; the opponent's names the king.
  e = at("1", text(board, "1", "A*", "A", "K", "", ""));
  EXPECT_EQ(legal(*e), sorted({"A:e1d1", "A:e1d2", "A:e1e2", "A:e1f2", "A:e1f1"}));
  // Nothing named at all: a lost turn.
  e = at("1", text(board, "1", "A*", "", "A", "", ""));
  EXPECT_EQ(legal(*e), std::vector<std::string>{"A:pass"});
}

TEST_P(NoStress, RulesLevelTwoChoicesPassesAndRedraw) {
  const std::string board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  // Hand PPB, draws P: three Pawn cards allow a redraw beside the moves; the Bishop card
  // allows no move: a deliberate lost turn is one action.
  auto e = at("2", text(board, "2", "P*", "", "", "PPB", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"P:e2e3", "P:e2e4", "B:pass", "redraw"}));
  // Hand PBQ, draws N: no three alike and the pawn can move: no redraw.
  e = at("2", text(board, "2", "N*", "", "", "PBQ", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"P:e2e3", "P:e2e4", "B:pass", "Q:pass", "N:pass"}));
  // Hand RRQ, draws N: no card allows a move: passes (one per kind) or the redraw.
  e = at("2", text(board, "2", "N*", "", "", "RRQ", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"R:pass", "Q:pass", "N:pass", "redraw"}));
  // Three identical Again cards count as three identical cards.
  e = at("2", text(board, "2", "A*", "P", "", "AAN", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"A:e2e3", "A:e2e4", "N:pass", "redraw"}));
}

TEST_P(NoStress, RulesHandOrderAndFirstCopy) {
  // Level 3, hand N B N R Q, draws P: playing N plays the first N; the drawn card is newest.
  auto e = at("3", text("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "3", "PK*", "", "", "NBNRQ", "QQQQQ"));
  play(*e, "N:b1c3");
  EXPECT_EQ(field(e->position(), "whand"), "BNRQP");
  EXPECT_EQ(field(e->position(), "wdiscard"), "N");
  EXPECT_EQ(field(e->position(), "pile"), "K?44");
  // Black draws K: its hand is QQQQQK; five queens and no queen on the board: redraw is
  // offered (and the K can move).
  std::vector<std::string> b = legal(*e);
  EXPECT_TRUE(std::count(b.begin(), b.end(), "redraw"));
  EXPECT_TRUE(std::count(b.begin(), b.end(), "Q:pass"));
  EXPECT_TRUE(std::count(b.begin(), b.end(), "K:e8d8"));
}

TEST_P(NoStress, RulesRedrawDiscardsInHandOrder) {
  auto e = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "PNQRBK*", "B", "", "PPB", "QQQ"));
  play(*e, "redraw");
  std::string p = e->position();
  EXPECT_EQ(field(p, "wdiscard"), "BPPBP");  // the old B, then the hand P P B and the drawn P on top
  EXPECT_EQ(field(p, "whand"), "NQR");
  EXPECT_EQ(field(p, "pile"), "BK?43");
  EXPECT_EQ(field(p, "1"), "b");
  EXPECT_EQ(field(p, "4"), "1");
  e->undo();
  EXPECT_EQ(field(e->position(), "whand"), "PPB");
}

TEST_P(NoStress, RulesReshuffleWithSeedMidRedraw) {
  // The pile holds one card; White draws it and redraws: its hand goes onto its discard
  // pile, then the empty pile is refilled from White's then Black's discard pile, shuffled
  // by seed 7; the seed becomes 8.
  const std::string wd = "PPPPPPPPNNNNNBBBBBBB", bd = "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA";
  auto e = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P", wd, bd, "PPB", "NNN", "reshuffle:7"));
  play(*e, "redraw");
  std::string shuffled = arb::shuffle_cards(wd + "PPBP" + bd, 7);
  std::string p = e->position();
  EXPECT_EQ(field(p, "whand"), shuffled.substr(0, 3));
  EXPECT_EQ(field(p, "pile"), shuffled.substr(3));
  EXPECT_EQ(field(p, "wdiscard"), "-");
  EXPECT_EQ(field(p, "bdiscard"), "-");
  EXPECT_EQ(field(p, "reshuffle"), "8");
  EXPECT_EQ(field(p, "1"), "b");
}

TEST_P(NoStress, RulesReshuffleAtTheTurnDrawEmptiesTheDiscards) {
  // Level 1, empty pile, seed 11: the turned card is the top of the reshuffled pile, and an
  // Again card would find both discard piles empty.
  const std::string wd = "PPPPPPPPPPPNNNNNNNNBBBBBBBB", bd = "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA";
  auto e = at("1", text("4k3/8/8/8/8/8/8/RNBQK3 w - - 0 1", "1", "", wd, bd, "", "", "reshuffle:11"));
  std::string shuffled = arb::shuffle_cards(wd + bd, 11);
  EXPECT_FALSE(e->chance());
  std::vector<Action> actions;
  e->legal_actions(actions);
  ASSERT_FALSE(actions.empty());
  char card = shuffled[0];
  for (const Action& a : actions) EXPECT_EQ(e->describe(a).steps[0].card, card);
  if (card == 'A') {
    EXPECT_EQ(legal(*e), std::vector<std::string>{"A:pass"});
  }
  e->apply(actions[0]);
  std::string p = e->position();
  EXPECT_EQ(field(p, "wdiscard"), std::string(1, card));
  EXPECT_EQ(field(p, "bdiscard"), "-");
  EXPECT_EQ(field(p, "pile"), shuffled.substr(1));
  EXPECT_EQ(field(p, "reshuffle"), "12");
}

TEST_P(NoStress, ChanceReshuffleWithoutSeedIsAChanceNode) {
  // All 56 cards on the discard piles, no seed: the turn's draw is a chance event over the
  // gathered cards: P 11/56, N 8/56, ..., A 6/56.
  const std::string wd = "PPPPPPPPPPPNNNNNNNNBBBBBBBB", bd = "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA";
  auto e = at("1", text("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "1", "", wd, bd, "", ""));
  ASSERT_TRUE(e->chance());
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
  EXPECT_THROW(e->perft(1), arb::ChanceError);
  std::vector<arb::ChanceOutcome> out;
  e->chance_outcomes(out);
  ASSERT_EQ(out.size(), 7u);
  const double want[7] = {11, 8, 8, 8, 8, 7, 6};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_DOUBLE_EQ(out[i].weight, want[i] / 56);
    EXPECT_EQ(canonical(*e, out[i].action), std::string("draw:") + arb::kNoStressCardKinds[i]);
  }
  EXPECT_NEAR(weight_sum(*e), 1.0, 1e-12);
  play(*e, "draw:Q");
  std::string p = e->position();
  EXPECT_EQ(field(p, "pile"), "?55");
  EXPECT_EQ(field(p, "wdiscard"), "-");
  EXPECT_EQ(field(p, "bdiscard"), "-");
  EXPECT_EQ(field(p, "whand"), "Q");  // level 1: the turned card, about to be played
  EXPECT_EQ(e->hidden(), std::vector<std::string>{"draw-pile"});
  EXPECT_FALSE(e->chance());
  EXPECT_EQ(legal(*e).size(), 17u);  // queen d1: a1-c1 (3), d2-d8 (7), c2-a4 (3), e2-h5 (4)
  play(*e, "Q:d1d8");
  EXPECT_EQ(field(e->position(), "wdiscard"), "Q");
  EXPECT_EQ(field(e->position(), "whand"), "-");
  e->undo();
  e->undo();
  EXPECT_EQ(e->position(), text("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "1", "", wd, bd, "", ""));
}

TEST_P(NoStress, ChanceRedrawFromAnUnknownPileLeavesPendingDraws) {
  // White draws the known P, redraws; the pile is unknown below: three pending draws, each
  // a chance node; White stays the side to move until the last.
  auto e = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PPB", "QQQ"));
  play(*e, "redraw");
  std::string p = e->position();
  EXPECT_EQ(field(p, "pending"), "3");
  EXPECT_EQ(field(p, "whand"), "-");
  EXPECT_EQ(field(p, "wdiscard"), "PPBP");
  EXPECT_TRUE(e->chance());
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
  EXPECT_EQ(at("2", p)->position(), p);
  // Pool: deck minus P P B P Q Q Q: P 8, N 8, B 7, R 8, Q 5, K 7, A 6 = 49.
  std::vector<arb::ChanceOutcome> out;
  e->chance_outcomes(out);
  ASSERT_EQ(out.size(), 7u);
  EXPECT_DOUBLE_EQ(out[0].weight, 8.0 / 49);
  EXPECT_DOUBLE_EQ(out[4].weight, 5.0 / 49);
  EXPECT_NEAR(weight_sum(*e), 1.0, 1e-12);
  play(*e, "draw:R");
  EXPECT_EQ(field(e->position(), "pending"), "2");
  play(*e, "draw:R");
  play(*e, "draw:A");
  p = e->position();
  EXPECT_EQ(field(p, "pending"), "");
  EXPECT_EQ(field(p, "whand"), "RRA");
  EXPECT_EQ(field(p, "1"), "b");
  EXPECT_EQ(field(p, "4"), "1");
  EXPECT_EQ(e->side_to_move(), arb::Color::Black);
  EXPECT_TRUE(e->chance());  // Black's draw from the unknown pile
}

TEST_P(NoStress, ChanceUnknownHandIsRevealedBeforeItsOwnerActs) {
  auto e = at("2", text("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "2", "N*", "", "", "NBB", "?3"));
  EXPECT_EQ(sorted(e->hidden()), sorted({"draw-pile", "black-hand"}));
  EXPECT_FALSE(e->chance());
  play(*e, "N:b1c3");
  // Black's hand is unknown: reveal its three cards (oldest first), then its draw.
  for (const char* c : {"K", "K", "P"}) {
    ASSERT_TRUE(e->chance());
    EXPECT_NEAR(weight_sum(*e), 1.0, 1e-12);
    play(*e, std::string("draw:") + c);
  }
  EXPECT_EQ(field(e->position(), "bhand"), "KKP");
  EXPECT_EQ(e->hidden(), std::vector<std::string>{"draw-pile"});
  ASSERT_TRUE(e->chance());
  play(*e, "draw:K");
  EXPECT_FALSE(e->chance());
  std::vector<std::string> got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "redraw"));  // K K P K: three Kings
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e8d7"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "P:pass"));
}

TEST_P(NoStress, RulesKingCaptureWinsAtOnce) {
  auto e = at("3", text("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "3", "Q*", "", "", "RPPNN", "QQBBN"));
  Action a = find(*e, "R:e1e8");
  arb::ActionInfo info = e->describe(a);
  ASSERT_EQ(info.steps[0].removed.size(), 1u);
  EXPECT_EQ(info.steps[0].removed[0].piece, 'k');
  e->apply(a);
  arb::Status s = e->status();
  EXPECT_EQ(s.result, arb::Result::WhiteWins);
  EXPECT_EQ(s.reason, "royal-capture");
  EXPECT_FALSE(e->chance());  // decided before Black's (unknown) draw
  EXPECT_TRUE(legal(*e).empty());
  EXPECT_EQ(at("3", e->position())->status().reason, "royal-capture");
}

TEST_P(NoStress, RulesLevelsOneToThreeHaveNoChessExtras) {
  // Kings may step onto attacked squares and next to the enemy king; no castling.
  auto e = at("3", text("8/8/8/8/8/3k4/r7/R3K2R w - - 0 1", "3", "Q*", "", "", "KPPNN", "QQBBN"));
  std::vector<std::string> got = legal(*e);
  for (const char* m : {"K:e1d2", "K:e1e2", "K:e1f2", "K:e1d1", "K:e1f1"})
    EXPECT_TRUE(std::count(got.begin(), got.end(), m)) << m;
  EXPECT_FALSE(std::count(got.begin(), got.end(), "K:e1h1"));
  EXPECT_FALSE(std::count(got.begin(), got.end(), "K:e1g1"));
  // No en passant, no promotion; a pawn on the far rank stays and cannot move.
  e = at("3", text("4k3/P7/8/3pP3/8/8/8/4K3 w - - 0 1", "3", "Q*", "", "", "PRRNN", "QQBBN"));
  EXPECT_EQ(legal(*e), sorted({"P:a7a8", "P:e5e6", "R:pass", "N:pass", "Q:pass"}));
  play(*e, "P:a7a8");
  EXPECT_EQ(field(e->position(), "0"), "P3k3/8/8/3pP3/8/8/8/4K3");
  e = at("3", text("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "3", "Q*", "", "", "PRRNN", "QQBBN"));
  EXPECT_EQ(legal(*e), sorted({"P:pass", "R:pass", "N:pass", "Q:pass", "redraw"}));
  // The double step is from the second rank only.
  e = at("3", text("4k3/8/8/8/8/2P5/1P6/4K3 w - - 0 1", "3", "Q*", "", "", "PRRNN", "QQBBN"));
  EXPECT_EQ(legal(*e), sorted({"P:b2b3", "P:b2b4", "P:c3c4", "R:pass", "N:pass", "Q:pass"}));
}

TEST_P(NoStress, AdvancedCheckDutyAndLostTurnInCheck) {
  // The black rook on a1 checks the white king on e1; the knight on c3 can block on b1 or
  // d1, the king can step to d2, e2, f2.
  const std::string board = "4k3/8/8/8/8/2N5/8/r3K3 w - - 0 1";
  auto e = at("advanced", text(board, "advanced", "KR*", "", "", "NPPBB", "QQRRB"));
  EXPECT_TRUE(e->status().in_check);
  // Hand N P P B B + drawn K: only escaping card+move actions.
  EXPECT_EQ(legal(*e), sorted({"N:c3b1", "N:c3d1", "K:e1d2", "K:e1e2", "K:e1f2"}));
  // No card allows an escape: a pass with any card, or the redraw.
  e = at("advanced", text(board, "advanced", "RR*", "", "", "QQPBB", "QQRRB"));
  EXPECT_EQ(legal(*e), sorted({"Q:pass", "P:pass", "B:pass", "R:pass", "redraw"}));
  play(*e, "Q:pass");
  // Black draws R and captures the king.
  play(*e, "R:a1e1");
  EXPECT_EQ(e->status().result, arb::Result::BlackWins);
  EXPECT_EQ(e->status().reason, "royal-capture");
}

TEST_P(NoStress, AdvancedMovesMayNotLeaveTheKingInCheck) {
  // The white knight on e2 is pinned by the rook on e8 (the black king stands on h8).
  auto e =
      at("advanced", text("r6k/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "advanced", "N*", "", "", "NPPBB", "QQRRB"));
  EXPECT_EQ(legal(*e), sorted({"P:pass", "B:pass", "N:pass", "redraw"}));
}

// RULINGS 3.7: a move that captures the enemy king wins at once, so a piece pinned to its
// own king may take it; and a king attacked only by such a piece is in check.
TEST_P(NoStress, AdvancedAPinnedPieceMayCaptureTheKing) {
  // The white knight on e2 is pinned by the rook on e8 and attacks the black king on f4.
  auto e =
      at("advanced", text("4r3/8/8/8/5k2/8/4N3/4K3 w - - 0 1", "advanced", "N*", "", "", "NPPBB", "QQRRB"));
  EXPECT_EQ(legal(*e), sorted({"N:e2f4", "P:pass", "B:pass"}));
  play(*e, "N:e2f4");
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().end, arb::Termination::RoyalCapture);
  // The same knight's other moves stay illegal (they would expose the white king).
  e = at("advanced", text("4r3/8/8/8/5k2/8/4N3/4K3 w - - 0 1", "advanced", "N*", "", "", "NPPBB", "QQRRB"));
  std::vector<std::string> got = legal(*e);
  EXPECT_FALSE(std::count(got.begin(), got.end(), "N:e2c3"));
  // With Black to move, the black king attacked only by the pinned knight is in check: only
  // escaping actions (the rook takes the knight; no King card in hand).
  e = at("advanced", text("4r3/8/8/8/5k2/8/4N3/4K3 b - - 0 1", "advanced", "N*", "", "", "NPPBB", "QQRRB"));
  EXPECT_TRUE(e->status().in_check);
  EXPECT_EQ(legal(*e), sorted({"R:e8e2"}));
  // In check, a capture of the king is legal all the same: a pawn's (promoting) while the
  // rook on h1 checks, and a king's of a king the queen defends.
  e = at("advanced", text("3k4/4P3/8/8/8/8/8/4K2r w - - 0 1", "advanced", "N*", "", "", "PNNBB", "QQRRB"));
  got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "P:e7d8q")) << ::testing::PrintToString(got);
  e = at("advanced", text("8/8/8/8/8/8/3kq3/4K3 w - - 0 1", "advanced", "N*", "", "", "KNNBB", "QQRRB"));
  got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e1d2")) << ::testing::PrintToString(got);
}

TEST_P(NoStress, AdvancedCheckmateAndStalemateBeforeTheDraw) {
  // Back-rank mate; White's draw would be unknown, but the game is decided first.
  auto e =
      at("advanced", text("k7/8/8/8/8/8/5PPP/1r4K1 w - - 0 1", "advanced", "*", "", "", "KQRBN", "KQRBN"));
  EXPECT_FALSE(e->chance());
  arb::Status s = e->status();
  EXPECT_EQ(s.result, arb::Result::BlackWins);
  EXPECT_EQ(s.reason, "checkmate");
  EXPECT_TRUE(legal(*e).empty());
  // Stalemate: the king on a1 has no move, whatever cards White holds.
  e = at("advanced", text("8/8/8/8/8/1qk5/8/K7 w - - 0 1", "advanced", "P*", "", "", "KKKQR", "KQRBN"));
  s = e->status();
  EXPECT_EQ(s.result, arb::Result::Draw);
  EXPECT_EQ(s.reason, "stalemate");
  // Not mated when only a card is missing: a king move exists, the hand has no King card.
  e = at("advanced", text("k7/8/8/8/8/8/6PP/1r4K1 w - - 0 1", "advanced", "Q*", "", "", "QQRBN", "KQRBN"));
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  EXPECT_TRUE(e->status().in_check);
}

TEST_P(NoStress, AdvancedCastlingIsAKingCardMove) {
  const std::string board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  auto e = at("advanced", text(board, "advanced", "N*", "", "", "KPPPP", "QQQQQ"));
  std::vector<std::string> got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e1h1"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e1a1"));
  std::vector<Action> actions;
  e->legal_actions(actions);
  bool found = false;
  for (const Action& a : actions)
    if (arb::uci(e->describe(a)) == "K:e1g1") found = true;
  EXPECT_TRUE(found);
  // Another card never castles.
  e = at("advanced", text(board, "advanced", "N*", "", "", "RPPPP", "QQQQQ"));
  got = legal(*e);
  EXPECT_FALSE(std::count(got.begin(), got.end(), "R:e1h1"));
  e = at("advanced", text(board, "advanced", "N*", "", "", "KPPPP", "QQQQQ"));
  play(*e, "K:e1h1");
  EXPECT_EQ(field(e->position(), "0"), "r3k2r/8/8/8/8/8/8/R4RK1");
  EXPECT_EQ(field(e->position(), "2"), "kq");
  // Through an attacked square: no castling on that side.
  e = at("advanced",
         text("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "advanced", "N*", "", "", "KPPPP", "QQQQQ"));
  got = legal(*e);
  EXPECT_FALSE(std::count(got.begin(), got.end(), "K:e1h1"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e1a1"));
}

// A castling right goes with its king or rook: when the piece moves or is captured on its
// square (a king captured on e1/e8 after a lost turn in check, RULINGS 3.7). Every printed
// text must read back, and the text refuses rights for a king or rook that is not there.
TEST_P(NoStress, AdvancedCastlingRightsGoWithCapturedKingOrRook) {
  // The rook on e2 checks the black king on e8; Black draws N and holds no King, Rook,
  // Queen card, so no card allows an escape: Black passes and White captures the king.
  auto e = at("advanced",
              text("r3k2r/8/8/8/8/8/4R3/R3K2R b KQkq - 0 1", "advanced", "NR*", "", "", "QQPPN", "PPBBN"));
  EXPECT_TRUE(e->status().in_check);
  EXPECT_EQ(legal(*e), sorted({"P:pass", "B:pass", "N:pass", "redraw"}));
  play(*e, "P:pass");
  EXPECT_EQ(field(e->position(), "2"), "KQkq");  // a pass keeps every right
  play(*e, "R:e2e8");
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().reason, "royal-capture");
  std::string printed = e->position();
  EXPECT_EQ(field(printed, "0"), "r3R2r/8/8/8/8/8/8/R3K2R");
  EXPECT_EQ(field(printed, "2"), "KQ");  // both black rights gone, White's kept
  auto back = at("advanced", printed);
  EXPECT_EQ(back->position(), printed);
  EXPECT_EQ(back->status().reason, "royal-capture");

  // The same for White: the rook on e7 checks the white king on e1.
  e = at("advanced",
         text("r3k2r/4r3/8/8/8/8/8/R3K2R w KQkq - 0 1", "advanced", "NR*", "", "", "PPBBN", "QQPPN"));
  play(*e, "N:pass");
  play(*e, "R:e7e1");
  printed = e->position();
  EXPECT_EQ(e->status().result, arb::Result::BlackWins);
  EXPECT_EQ(field(printed, "2"), "kq");
  EXPECT_EQ(at("advanced", printed)->position(), printed);

  // A rook captured on its corner takes that side's right; the capturing rook leaving its
  // own corner takes its owner's right on that side too.
  e = at("advanced",
         text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "advanced", "N*", "", "", "RPPBB", "QQPPN"));
  play(*e, "R:h1h8");
  printed = e->position();
  EXPECT_EQ(field(printed, "2"), "Qq");
  EXPECT_EQ(at("advanced", printed)->position(), printed);
  // A king step (not castling) takes both of its side's rights.
  e = at("advanced",
         text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "advanced", "N*", "", "", "KPPBB", "QQPPN"));
  play(*e, "K:e1e2");
  printed = e->position();
  EXPECT_EQ(field(printed, "2"), "kq");
  EXPECT_EQ(at("advanced", printed)->position(), printed);
}

TEST_P(NoStress, AdvancedEnPassantAndPromotion) {
  auto e =
      at("advanced", text("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "advanced", "NN*", "", "", "PRRRR", "PRRRR"));
  play(*e, "P:d7d5");
  EXPECT_EQ(field(e->position(), "3"), "d6");
  std::vector<std::string> got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "P:e5d6"));
  arb::ActionInfo info = e->describe(find(*e, "P:e5d6"));
  ASSERT_EQ(info.steps[0].removed.size(), 1u);
  EXPECT_EQ(info.steps[0].removed[0].at, (arb::Coord{3, 5}));
  play(*e, "P:e5d6");
  EXPECT_EQ(field(e->position(), "0"), "4k3/8/3P4/8/8/8/8/4K3");
  // Promotion to Q, R, B or N (four Rook cards also allow the redraw).
  e = at("advanced", text("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "advanced", "N*", "", "", "PRRRR", "QQQQQ"));
  EXPECT_EQ(legal(*e), sorted({"P:a7a8q", "P:a7a8r", "P:a7a8b", "P:a7a8n", "R:pass", "N:pass", "redraw"}));
}

TEST_P(NoStress, AdvancedClaimsCountTurnsAndIgnoreCards) {
  // Kings only; nobody holds a King card: every turn is a pass. After W, B, W, B passes the
  // board repeats for the third time: a threefold claim (cards differ, but are ignored).
  auto e =
      at("advanced", text("4k3/8/8/8/8/8/8/4K3 w - - 96 1", "advanced", "QQQQQ*", "", "", "RRRRN", "RRRRN"));
  for (int i = 0; i < 4; ++i) {
    EXPECT_FALSE(e->status().claim_threefold) << i;
    play(*e, "R:pass");
  }
  arb::Status s = e->status();
  EXPECT_TRUE(s.claim_threefold);
  EXPECT_TRUE(s.claim_fifty);  // 96 + 4 turns = 100 halfmoves
  EXPECT_EQ(s.result, arb::Result::Ongoing);
  EXPECT_EQ(field(e->position(), "4"), "100");
  EXPECT_EQ(field(e->position(), "5"), "3");
  // No claims below the advanced level.
  auto l3 = at("3", text("4k3/8/8/8/8/8/8/4K3 w - - 120 1", "3", "QQQQQ*", "", "", "RRRRN", "RRRRN"));
  EXPECT_FALSE(l3->status().claim_fifty);
}

TEST_P(NoStress, PerftFromTheStart) {
  // Level 1, seed 1: the pile begins P Q ... White turns a Pawn: a2 b2 c2 f2 g2 h2 step one
  // or two (12), e3-e4 (1), d4 is blocked: 13. Black turns a Queen: d8 to d7 d6 e7 f6 g5 h4
  // (6) after every White pawn move: 78.
  EXPECT_EQ(engine("1", "1")->perft(1), 13u);
  EXPECT_EQ(engine("1", "1")->perft(2), 78u);
  // Level 1, seed 2: the pile begins B P ... White's bishops: c1-d2 and f1-e2 d3 c4 b5 a6:
  // 6. Black's pawns then have 13 moves (12 steps, e6-e5; d5 is blocked), except: after
  // Bc4 also d5xc4 (14); after Bb5 b7-b5 is blocked (12); after Ba6 a7-a6 and a7-a5 are
  // blocked but b7xa6 is added (12): 13*3 + 14 + 12 + 12 = 77.
  EXPECT_EQ(engine("1", "2")->perft(1), 6u);
  EXPECT_EQ(engine("1", "2")->perft(2), 77u);
  // Level 2, seed 1: White's hand P Q K plus the drawn N: pawns 13, queen d1 to d2 d3 e2 f3
  // g4 h5 (6), king e2 d2 (2), knights b1-a3 c3 d2 and g1-e2 f3 h3 (6): 27.
  EXPECT_EQ(engine("2", "1")->perft(1), 27u);
  // Level 2, seed 2: hand B P Q plus the drawn P: bishops 6, pawns 13, queen 6: 25.
  EXPECT_EQ(engine("2", "2")->perft(1), 25u);
  // Level 3, seed 1: hand P Q K N R plus the drawn N: 27 moves and R:pass (no rook can
  // move; no three alike, so no redraw): 28. The advanced game agrees (no check yet).
  EXPECT_EQ(engine("3", "1")->perft(1), 28u);
  EXPECT_EQ(engine("advanced", "1")->perft(1), 28u);
  // Level 3, seed 2: hand B P Q P Q plus the drawn B: 6 + 13 + 6 = 25.
  EXPECT_EQ(engine("3", "2")->perft(1), 25u);
  EXPECT_EQ(engine("advanced", "2")->perft(1), 25u);
  // Depth 2 figures of the card levels (regression values of this engine).
  EXPECT_EQ(engine("2", "1")->perft(2), 729u);
  EXPECT_EQ(engine("2", "2")->perft(2), 500u);
  EXPECT_EQ(engine("3", "1")->perft(2), 756u);
  EXPECT_EQ(engine("3", "2")->perft(2), 674u);
  EXPECT_EQ(engine("advanced", "1")->perft(2), 754u);
  EXPECT_EQ(engine("advanced", "2")->perft(2), 649u);
  // Depth 3, printed for the record.
  for (const char* level : {"1", "2", "3", "advanced"})
    for (const char* seed : {"1", "2"}) {
      auto e = engine(level, seed);
      std::printf("perft level %s seed %s: depth 3 = %llu\n", level, seed,
                  static_cast<unsigned long long>(e->perft(3)));
    }
}

size_t error_column(const std::string& t) {
  try {
    arb::parse_nostress(t);
  } catch (const arb::PositionError& e) {
    return e.column;
  }
  ADD_FAILURE() << "accepted: " << t;
  return static_cast<size_t>(-1);
}

// ---------------------------------------------------------------------------------------
// The position text.

TEST(NoStressText, ShuffleIsASeededPermutation) {
  std::string deck = arb::nostress_deck();
  ASSERT_EQ(deck.size(), 56u);
  EXPECT_EQ(deck.substr(0, 12), "PPPPPPPPPPPN");
  std::string a = arb::shuffle_cards(deck, 1), b = arb::shuffle_cards(deck, 1),
              c = arb::shuffle_cards(deck, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::string sa = a, sd = deck;
  std::sort(sa.begin(), sa.end());
  std::sort(sd.begin(), sd.end());
  EXPECT_EQ(sa, sd);
  // The spec's Fisher-Yates, step by step, for a short sequence: state = 5, i = 2 then 1.
  uint64_t state = 5;
  auto next = [&state]() {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  std::string s = "PNB";
  std::swap(s[2], s[next() % 3]);
  std::swap(s[1], s[next() % 2]);
  EXPECT_EQ(arb::shuffle_cards("PNB", 5), s);
}

TEST(NoStressText, StartDealsAlternatelyWhiteFirst) {
  std::string deck = arb::shuffle_cards(arb::nostress_deck(), 1);
  arb::NoStressPosition p = arb::nostress_start_position(arb::NoStressLevel::Three, true, 1);
  std::string white_cards = {deck[0], deck[2], deck[4], deck[6], deck[8]};
  std::string black_cards = {deck[1], deck[3], deck[5], deck[7], deck[9]};
  EXPECT_EQ(p.hand[0].known, white_cards);
  EXPECT_EQ(p.hand[1].known, black_cards);
  EXPECT_EQ(p.pile.known, deck.substr(10));
  EXPECT_EQ(p.reshuffle_seed, 2u);
  EXPECT_EQ(arb::format_nostress(p),
            "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3 pile:" + deck.substr(10) +
                " wdiscard:- bdiscard:- whand:PQKNR bhand:QBPKK reshuffle:2");
  arb::NoStressPosition p1 = arb::nostress_start_position(arb::NoStressLevel::One, false, 1);
  EXPECT_EQ(arb::format_nostress(p1), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 level:1 pile:" +
                                          deck + " wdiscard:- bdiscard:- whand:- bhand:- reshuffle:2");
  arb::NoStressPosition pa = arb::nostress_start_position(arb::NoStressLevel::Advanced, true, 1);
  EXPECT_EQ(pa.board.castling, "KQkq");
}

TEST(NoStressText, RoundTrips) {
  std::vector<std::string> texts;
  for (auto level : {arb::NoStressLevel::One, arb::NoStressLevel::Two, arb::NoStressLevel::Three,
                     arb::NoStressLevel::Advanced})
    for (uint64_t seed : {1u, 2u, 99u})
      for (bool adv : {true, false})
        texts.push_back(arb::format_nostress(arb::nostress_start_position(level, adv, seed)));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 w - - 3 7", "2", "PN*", "RA", "B", "QQK", "?3"));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 b - - 0 1", "3", "*", "", "", "PN?3", "RRQQR",
                       "reshuffle:18446744073709551615"));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "*", "PPP", "", "N", "BBB", "pending:2"));
  texts.push_back(text("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "advanced", "*", "", "", "KQRBN", "KQRBN"));
  texts.push_back(text("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "advanced", "*", "", "", "PQRBN", "KQRBN"));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "1", "", "PPPPPPPPPPPNNNNNNNNBBBBBBBB",
                       "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA", "", ""));
  texts.push_back(text("4k3/8/8/8/8/8/8/8 w - - 0 1", "1", "*", "Q", "", "", ""));  // royal capture done
  for (const std::string& t : texts) {
    arb::NoStressPosition p = arb::parse_nostress(t);
    EXPECT_EQ(arb::format_nostress(p), t);
    EXPECT_TRUE(arb::parse_nostress(arb::format_nostress(p)) == p) << t;
  }
  // Blanks between and around fields are free; the output is canonical.
  std::string t = texts[0];
  std::string spaced = "  " + t + "\t ";
  spaced.insert(spaced.find(" level"), "\t ");
  EXPECT_EQ(arb::format_nostress(arb::parse_nostress(spaced)), t);
}

// A deck and hand other than No Stress Chess's: totals, kind counts and hand sizes follow
// the CardRules, the grammar stays.
TEST(NoStressText, CardRulesDriveDeckAndHands) {
  arb::CardRules plain;
  plain.deck = {12, 8, 8, 8, 8, 6, 0};  // 50 cards, no Again
  plain.hand_size = 4;
  EXPECT_EQ(plain.deck_size(), 50);
  EXPECT_EQ(arb::nostress_deck(plain), std::string(12, 'P') + std::string(8, 'N') + std::string(8, 'B') +
                                           std::string(8, 'R') + std::string(8, 'Q') + std::string(6, 'K'));
  std::string deck = arb::shuffle_cards(arb::nostress_deck(plain), 5);
  arb::NoStressPosition p = arb::nostress_start_position(arb::NoStressLevel::Three, true, 5, plain);
  EXPECT_EQ(p.hand[0].known, (std::string{deck[0], deck[2], deck[4], deck[6]}));
  EXPECT_EQ(p.hand[1].known, (std::string{deck[1], deck[3], deck[5], deck[7]}));
  EXPECT_EQ(p.pile.known, deck.substr(8));
  std::string t = arb::format_nostress(p);
  EXPECT_TRUE(arb::parse_nostress(t, plain) == p);
  EXPECT_EQ(arb::format_nostress(arb::parse_nostress(t, plain)), t);
  // Against the default rules the same text is 50 cards and hands of 4: refused.
  EXPECT_THROW(arb::parse_nostress(t), arb::PositionError);
  // An Again card is not in this deck; an unknown pool of 50 is.
  const std::string board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_THROW(
      arb::parse_nostress(board + " level:3 pile:A?41 wdiscard:- bdiscard:- whand:PPPP bhand:PPPP", plain),
      arb::PositionError);
  EXPECT_NO_THROW(
      arb::parse_nostress(board + " level:3 pile:?42 wdiscard:- bdiscard:- whand:PPPP bhand:?4", plain));
  // hand size 5 at level 2 reads as level 3 does.
  arb::CardRules five;
  five.hand_size = 5;
  EXPECT_EQ(
      arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Two, true, 3, five))
          .substr(0, 60),
      arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 3)).substr(0, 60));
  EXPECT_EQ(arb::nostress_start_position(arb::NoStressLevel::Two, true, 3, five).hand[0],
            arb::nostress_start_position(arb::NoStressLevel::Three, true, 3).hand[0]);
  // Hand 0 (turn the top card) at level 3.
  arb::CardRules turn;
  turn.hand_size = 0;
  EXPECT_NO_THROW(
      arb::parse_nostress(board + " level:3 pile:?55 wdiscard:- bdiscard:- whand:P bhand:-", turn));
  EXPECT_THROW(arb::parse_nostress(board + " level:3 pile:?55 wdiscard:- bdiscard:- whand:P bhand:-"),
               arb::PositionError);
  // Bounds are checked.
  arb::CardRules bad;
  bad.hand_size = 9;
  EXPECT_THROW(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1, bad), std::invalid_argument);
  bad.hand_size = 5;
  bad.deck = {5, 0, 0, 0, 0, 0, 0};
  EXPECT_THROW(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1, bad), std::invalid_argument);
  try {
    arb::parse_nostress(board + " level:3 pile:?5 wdiscard:- bdiscard:- whand:- bhand:-", bad);
    ADD_FAILURE() << "accepted a deck too small for its hands";
  } catch (const arb::PositionError& e) {
    EXPECT_EQ(e.column, board.size() + 7);  // the level's value
  }
}

TEST(NoStressText, RejectsWithColumns) {
  const std::string board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const size_t after = board.size() + 1;  // column of "level:"
  // Unknown letter in the pile: the column of the letter.
  std::string t = text(board, "2", "PX*", "", "", "QQQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("PX") + 1);
  // Seven Again cards: the column of the seventh.
  t = text(board, "2", "AAAAAAA*", "", "", "QQQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("pile:") + 5 + 6);
  // 55 cards in all.
  t = board + " level:2 pile:?49 wdiscard:- bdiscard:- whand:QQQ bhand:RRR";
  EXPECT_EQ(error_column(t), t.find("pile:"));
  // A hand too large for level 2 (the side not to move must hold exactly 3).
  t = text(board, "2", "*", "", "", "QQQ", "RRRR");
  EXPECT_EQ(error_column(t), t.find("bhand:") + 6);
  // The side to move may hold 3 or 4 at level 2, not 2.
  t = text(board, "2", "*", "", "", "QQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("whand:") + 6);
  // Discard piles are face up.
  t = text(board, "2", "*", "?3", "", "QQQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("wdiscard:") + 9);
  // Castling does not exist at level 3.
  t = text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "3", "*", "", "", "QQQQQ", "RRRRR");
  EXPECT_EQ(error_column(t), t.find("KQkq"));
  // Pending draws with a known top card.
  t = text(board, "2", "P*", "", "", "Q", "RRR", "pending:2");
  EXPECT_EQ(error_column(t), t.find("pile:") + 5);
  // Pending larger than the hand.
  t = text(board, "2", "*", "", "", "-", "RRR", "pending:4");
  EXPECT_EQ(error_column(t), t.find("pending:") + 8);
  // Bad level, missing field, field order, trailing text.
  t = board + " level:4 pile:?50 wdiscard:- bdiscard:- whand:QQQ bhand:RRR";
  EXPECT_EQ(error_column(t), after + 6);
  t = board + " level:2 pile:?50 wdiscard:- bdiscard:- whand:QQQ";
  EXPECT_EQ(error_column(t), t.size());
  t = text(board, "2", "*", "", "", "QQQ", "RRR", "pending:1 reshuffle:3");
  EXPECT_EQ(error_column(t), t.find("reshuffle"));
  t = text(board, "2", "*", "", "", "QQQ", "RRR", "x");
  EXPECT_EQ(error_column(t), t.size() - 1);
  // The side not to move has no king.
  t = text("8/8/8/8/8/8/8/4K3 w - - 0 1", "1", "*", "", "", "", "");
  EXPECT_EQ(error_column(t), 0u);
  // A White pawn on rank 1; a pawn on rank 8 at the advanced level.
  t = text("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "1", "*", "", "", "", "");
  EXPECT_EQ(error_column(t), 0u);
  t = text("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "advanced", "*", "", "", "QQQQQ", "RRRRR");
  EXPECT_EQ(error_column(t), 0u);
  // A bad FEN keeps parse_fen's column.
  t = text("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "1", "*", "", "", "", "");
  EXPECT_EQ(error_column(t), 20u);
}

// ---------------------------------------------------------------------------------------
// Options and configuration.

// The reference engine's option handling (arb::ref::make_reference_engine): the compiled
// side takes the level as a ruleset override, so this API is the reference engine's alone.
TEST(NoStressReference, OptionsAndConfig) {
  auto e = arb::ref::make_reference_engine("nostress");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->name(), "reference:nostress");
  arb::GameConfig c = e->config();
  EXPECT_EQ(c.variant, "nostress");
  std::vector<std::pair<std::string, std::string>> want = {
      {"level", "3"}, {"seed", "1"}, {"setup-advanced-pawns", "true"}};
  EXPECT_EQ(c.options, want);
  EXPECT_EQ(e->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1)));
  auto f = arb::ref::make_reference_engine(
      "nostress", {{"level", "advanced"}, {"setup-advanced-pawns", "false"}, {"seed", "7"}});
  EXPECT_EQ(f->config().value("level"), "advanced");
  EXPECT_EQ(f->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Advanced, false, 7)));
  f->set_position("start:9");
  EXPECT_EQ(f->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Advanced, false, 9)));
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"level", "4"}}), std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"seed", "-1"}}), std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"setup-advanced-pawns", "yes"}}),
               std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"hand", "5"}}), std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("chess", {{"level", "1"}}), std::invalid_argument);
  EXPECT_NE(arb::ref::make_reference_engine("chess"), nullptr);
  EXPECT_EQ(arb::ref::make_reference_engine("nosuch"), nullptr);
  // A text of another level is refused.
  auto g = arb::ref::make_reference_engine("nostress", {{"level", "2"}});
  EXPECT_THROW(
      g->set_position(arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1))),
      arb::PositionError);
  EXPECT_THROW(g->set_position("start:x"), arb::PositionError);
}

// ---------------------------------------------------------------------------------------
// Random playouts: apply/undo restore position and hash; every position text reloads to the
// same position, hash and actions; chance weights sum to 1.

// What the playouts met, to show that they reach reshuffles, pending draws and the end.

TEST_P(NoStress, PlayoutApplyUndoRestores) {
  seen = Seen{};
  // Under the sanitizers (ARBITER_FAST) two seeds on the compiled generator.
  const uint64_t seeds = testing_helpers::fast() && conformance::is_compiled() ? 2u : 6u;
  for (const char* level : {"1", "2", "3", "advanced"}) {
    for (uint64_t s = 1; s <= seeds; ++s) {
      playout(level, "start:" + std::to_string(s), s, 400);
      playout(level, hidden_start(level, s), s * 31, 400);
    }
  }
  std::printf("playouts met %d reshuffles, %d pending draws, %d chance nodes, %d decided games\n",
              seen.reshuffles, seen.pending, seen.chance, seen.decided);
  EXPECT_GT(seen.reshuffles, 0);
  EXPECT_GT(seen.pending, 0);
  EXPECT_GT(seen.decided, 0);
}

TEST_P(NoStress, PlayoutHashSeparatesCardStates) {
  // Same board and side, different hands: different hashes.
  auto a = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PPB", "QQQ"));
  auto b = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PBP", "QQQ"));
  auto c = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PPB", "QQQ", "reshuffle:1"));
  EXPECT_NE(a->hash(), b->hash());
  EXPECT_NE(a->hash(), c->hash());
}

// ---------------------------------------------------------------------------------------
// A designer's deck and hand: the options `deck` and `hand-size`.

// The options `deck` and `hand-size` are the reference engine's: on the compiled side a
// designer's deck is a ruleset of its own (corpus/rulesets/nostress-plain4.rules,
// tests/nostress_cards_test.cpp). So the CardOptions tests are plain TESTs of the reference.
std::unique_ptr<Engine> engine_with(std::map<std::string, std::string> options) {
  return arb::ref::make_nostress_engine(options);
}
std::unique_ptr<Engine> reference_engine(const std::string& level, const std::string& seed = "1") {
  return arb::ref::make_nostress_engine({{"level", level}, {"seed", seed}});
}

TEST(NoStressReferenceCardOptions, ParsedCheckedAndNamedInConfig) {
  auto e = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}});
  std::vector<std::pair<std::string, std::string>> want = {{"deck", "P12N8B8R8Q8K6"},
                                                           {"hand-size", "4"},
                                                           {"level", "3"},
                                                           {"seed", "1"},
                                                           {"setup-advanced-pawns", "true"}};
  EXPECT_EQ(e->config().options, want);
  arb::CardRules plain;
  plain.deck = {12, 8, 8, 8, 8, 6, 0};
  plain.hand_size = 4;
  EXPECT_EQ(e->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1, plain)));
  // Any order of kinds; the config writes P N B R Q K A order, zero counts left out.
  EXPECT_EQ(engine_with({{"deck", "A2K0P30"}})->config().value("deck"), "P30A2");
  // The default deck written out plays exactly as no option.
  auto d = engine_with({{"deck", "P11N8B8R8Q8K7A6"}, {"seed", "3"}});
  EXPECT_EQ(d->position(), reference_engine("3", "3")->position());
  EXPECT_EQ(d->perft(2), reference_engine("3", "3")->perft(2));
  // Bad values are refused with the option's name in the message.
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"deck", ""},
                                                        {"deck", "P11X3"},
                                                        {"deck", "P11P3"},
                                                        {"deck", "P"},
                                                        {"deck", "P100"},
                                                        {"deck", "11P"},
                                                        {"deck", "P0"},
                                                        {"deck", "P10"},  // two hands of 5 and a draw need 11
                                                        {"hand-size", "9"},
                                                        {"hand-size", "-1"},
                                                        {"hand-size", ""},
                                                        {"hand-size", "x"}}) {
    try {
      engine_with({{key, value}});
      ADD_FAILURE() << "accepted " << key << "=" << value;
    } catch (const std::invalid_argument& err) {
      EXPECT_NE(std::string(err.what()).find(key), std::string::npos) << err.what();
    }
  }
  EXPECT_NO_THROW(engine_with({{"deck", "P11"}}));
  EXPECT_EQ(engine_with({{"deck", "P011N08B8R8Q8K7A006"}})->position(), reference_engine("3")->position());
  EXPECT_NO_THROW(engine_with({{"deck", "P3"}, {"hand-size", "1"}}));
  // The text is read against the engine's cards: No Stress Chess's 56-card start is not a
  // position of the 50-card deck.
  EXPECT_THROW(e->set_position(reference_engine("3")->position()), arb::PositionError);
}

// RULINGS 3.4: the hand is the only difference between levels 2 and 3, so level 2 with
// hands of 5 plays as level 3, and level 1's play is a hand of 0 at any level.
TEST(NoStressReferenceCardOptions, HandSizeFiveAtLevelTwoIsLevelThree) {
  for (const char* pawns : {"true", "false"})
    for (int seed = 1; seed <= 4; ++seed) {
      auto two = engine_with({{"level", "2"},
                              {"hand-size", "5"},
                              {"seed", std::to_string(seed)},
                              {"setup-advanced-pawns", pawns}});
      auto three =
          engine_with({{"level", "3"}, {"seed", std::to_string(seed)}, {"setup-advanced-pawns", pawns}});
      // The texts differ in the level field only.
      std::string a = two->position(), b = three->position();
      ASSERT_NE(a.find("level:2"), std::string::npos);
      a.replace(a.find("level:2"), 7, "level:3");
      EXPECT_EQ(a, b);
      uint64_t n = three->perft(3);
      EXPECT_EQ(two->perft(3), n) << "seed " << seed << " advanced pawns " << pawns;
      EXPECT_GT(n, 1000u);
      // The option is read: level 2's own hands of 3 give another count.
      auto own =
          engine_with({{"level", "2"}, {"seed", std::to_string(seed)}, {"setup-advanced-pawns", pawns}});
      EXPECT_NE(own->perft(3), n);
    }
}

TEST(NoStressReferenceCardOptions, HandSizeZeroIsLevelOnePlay) {
  for (const char* seed : {"1", "2", "3"}) {
    auto one = reference_engine("1", seed);
    auto three = engine_with({{"level", "3"}, {"hand-size", "0"}, {"seed", seed}});
    EXPECT_EQ(three->perft(3), one->perft(3)) << "seed " << seed;
    // Hands of 3 at level 1 allow the redraw: level 2's play.
    auto one3 = engine_with({{"level", "1"}, {"hand-size", "3"}, {"seed", seed}});
    EXPECT_EQ(one3->perft(3), reference_engine("2", seed)->perft(3)) << "seed " << seed;
  }
  // A hand of 0 has no redraw: the turned card only.
  auto e = engine_with({{"level", "2"}, {"hand-size", "0"}});
  for (const std::string& t : legal(*e)) EXPECT_NE(t, "redraw");
  EXPECT_EQ(e->perft(1), 13u);  // seed 1 turns a Pawn, as level 1 does (FromTheStart)
}

// Level 2 with hands of 5 and level 3 along random games, from the start and from a start
// whose pile is hidden (every draw a chance node): the same action texts at every step, the
// same chance weights, and positions equal but for the level field.
TEST(NoStressReferenceCardOptions, LevelTwoWithHandsOfFivePlaysAsLevelThree) {
  auto same_text = [](std::string a) {
    size_t at = a.find("level:2");
    if (at != std::string::npos) a.replace(at, 7, "level:3");
    return a;
  };
  int turns = 0, chance = 0, redraws = 0;
  for (uint64_t game = 1; game <= 8; ++game) {
    auto two = engine_with({{"level", "2"}, {"hand-size", "5"}});
    auto three = reference_engine("3");
    if (game % 2 == 0) {
      arb::CardRules five;
      five.hand_size = 5;
      arb::NoStressPosition p = arb::nostress_start_position(arb::NoStressLevel::Two, true, game, five);
      p.pile.unknown = p.pile.size();
      p.pile.known.clear();
      p.reshuffle_seed.reset();
      two->set_position(arb::format_nostress(p));
      three->set_position(same_text(arb::format_nostress(p)));
    } else {
      two->set_position("start:" + std::to_string(game));
      three->set_position("start:" + std::to_string(game));
    }
    std::mt19937_64 rng(game);
    for (int i = 0; i < 300 && three->status().result == arb::Result::Ongoing; ++i, ++turns) {
      ASSERT_EQ(same_text(two->position()), three->position());
      ASSERT_EQ(two->chance(), three->chance());
      std::vector<std::string> l2 = legal(*two), l3 = legal(*three);
      ASSERT_EQ(l2, l3) << three->position();
      ASSERT_FALSE(l3.empty());
      if (three->chance()) {
        ++chance;
        std::vector<arb::ChanceOutcome> o2, o3;
        two->chance_outcomes(o2);
        three->chance_outcomes(o3);
        ASSERT_EQ(o2.size(), o3.size());
        for (size_t k = 0; k < o3.size(); ++k) EXPECT_DOUBLE_EQ(o2[k].weight, o3[k].weight);
      }
      const std::string& pick = l3[rng() % l3.size()];
      if (pick == "redraw") ++redraws;
      play(*two, pick);
      play(*three, pick);
    }
    EXPECT_EQ(two->status().result, three->status().result);
  }
  std::printf("level 2 hand 5 vs level 3: %d turns, %d chance nodes, %d redraws\n", turns, chance, redraws);
  EXPECT_GT(chance, 0);
  EXPECT_GT(redraws, 0);
}

// A designer's deck without Again cards (12 P, 8 N, 8 B, 8 R, 8 Q, 6 K: 50 cards) and hands
// of 4 at level 3, seed 5. The start, by nostress_start_position:
//   rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3
//   pile:RNPBNPQBPKNPQNQKRPBQPRBKPQPPPQNKNRQQKRBBPN wdiscard:- bdiscard:- whand:RPNR
//   bhand:KBRB reshuffle:6
// perft 1. White draws the top R: hand R P N R R.
//   P: a2 b2 c2 f2 g2 h2 step one or two (12), e3-e4 (1), d4 is blocked by d5: 13.
//   N: b1-a3 c3 d2, g1-e2 f3 h3: 6.
//   R: both rooks are shut in: one pass.
//   Three R cards: the redraw (RULINGS 3.9 counts it as one action).
//   13 + 6 + 1 + 1 = 21.
// perft 2. Black holds K B R B.
//   After one of White's 19 moves Black draws N: K B R B N.
//     K: e8-d7 e7 (2). B: c8-d7 (1); f8-e7 d6 c5 b4 a3 (5; a knight on a3 is captured
//     there), but after b2-b4 the pawn on b4 ends the line: 4. R: a pass (1). N: b8-a6 c6
//     d7, g8-e7 f6 h6 (6). No three alike and moves exist: no redraw. 15, or 14 after
//     b2-b4: 18 * 15 + 14 = 284.
//   After White's pass (R played, hand P N R R) Black draws N on the same board: 15.
//   After White's redraw (R P N R R discarded, N P B N drawn) Black draws P: K B R B P.
//     K 2, B 6, R pass 1, P: a7 b7 c7 f7 g7 h7 one or two (12), e6-e5 (1), d5 blocked
//     (13): 22.
//   284 + 15 + 22 = 321.
TEST(NoStressReferenceCardOptions, DeckWithoutAgainHandOfFourPerftByHand) {
  auto e = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}, {"seed", "5"}});
  EXPECT_EQ(e->position(),
            "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3 "
            "pile:RNPBNPQBPKNPQNQKRPBQPRBKPQPPPQNKNRQQKRBBPN wdiscard:- bdiscard:- whand:RPNR bhand:KBRB "
            "reshuffle:6");
  std::vector<std::string> want = {"N:b1a3", "N:b1c3", "N:b1d2", "N:g1e2", "N:g1f3", "N:g1h3", "P:a2a3",
                                   "P:a2a4", "P:b2b3", "P:b2b4", "P:c2c3", "P:c2c4", "P:e3e4", "P:f2f3",
                                   "P:f2f4", "P:g2g3", "P:g2g4", "P:h2h3", "P:h2h4", "R:pass", "redraw"};
  EXPECT_EQ(legal(*e), sorted(want));
  EXPECT_EQ(e->perft(1), 21u);
  EXPECT_EQ(e->perft(2), 321u);
  play(*e, "redraw");
  EXPECT_EQ(field(e->position(), "whand"), "NPBN");
  EXPECT_EQ(field(e->position(), "wdiscard"), "RPNRR");
  EXPECT_EQ(e->perft(1), 22u);
  // With No Stress Chess's deck the same seed deals other cards: the option is read.
  EXPECT_NE(engine_with({{"hand-size", "4"}, {"seed", "5"}})->position(), e->position());
  // The unknown pool is the designer's deck: no Again outcome, weights by its counts.
  auto h = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}});
  h->set_position(
      "4k3/8/8/8/8/8/8/4K3 w - - 0 1 level:3 pile:?42 wdiscard:- bdiscard:- whand:PPPP bhand:QQQQ");
  ASSERT_TRUE(h->chance());
  std::vector<arb::ChanceOutcome> out;
  h->chance_outcomes(out);
  std::vector<std::string> kinds;
  for (const auto& o : out) kinds.push_back(h->describe(o.action).steps.at(0).drawn);
  EXPECT_EQ(kinds, (std::vector<std::string>{"P", "N", "B", "R", "Q", "K"}));
  EXPECT_DOUBLE_EQ(out[0].weight, 8.0 / 42);  // 12 P less the 4 in White's hand
  EXPECT_DOUBLE_EQ(out[4].weight, 4.0 / 42);  // 8 Q less Black's 4
  EXPECT_DOUBLE_EQ(out[5].weight, 6.0 / 42);
}

// Random games with the designer's deck reach reshuffles and keep apply/undo and the text
// exact (the playouts above, on other cards).
TEST(NoStressReferenceCardOptions, DesignerDeckPlayouts) {
  for (uint64_t s = 1; s <= 4; ++s) {
    auto e = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}, {"seed", std::to_string(s)}});
    std::mt19937_64 rng(s);
    std::vector<std::string> trail;
    int reshuffles = 0;
    for (int i = 0; i < 400 && e->status().result == arb::Result::Ongoing; ++i) {
      std::string pos = e->position();
      auto copy = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}});
      copy->set_position(pos);
      ASSERT_EQ(copy->position(), pos);
      ASSERT_EQ(legal(*copy), legal(*e));
      if (!trail.empty() && field(pos, "reshuffle") != field(trail.back(), "reshuffle")) ++reshuffles;
      std::vector<Action> actions;
      e->legal_actions(actions);
      ASSERT_FALSE(actions.empty());
      ASSERT_FALSE(e->chance());
      for (const Action& a : actions) EXPECT_NE(e->describe(a).steps.at(0).card, 'A');
      trail.push_back(pos);
      e->apply(actions[rng() % actions.size()]);
    }
    EXPECT_GT(reshuffles + (e->status().result != arb::Result::Ongoing), 0);
    for (; !trail.empty(); trail.pop_back()) {
      e->undo();
      ASSERT_EQ(e->position(), trail.back());
    }
  }
}

}  // namespace
