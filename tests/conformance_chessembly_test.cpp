// The Chessembly conformance suite: every engine that plays Chessembly (the compiled
// generator running rulesets/chessembly.rules and the hand-written reference engine,
// checker/reference/chessembly/) against counts and positions derived by hand from the rule
// text (chessembly.md) and RULINGS section 1, as one TEST_P per rule
// (`Conformance/Chessembly.PerftFromStart/compiled`). Fairy-Stockfish has no Chessembly.
// The ChessemblyAgreement tests compare the two engines with each other along playouts:
// they need both at once, so they are plain TESTs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/notation.hpp"
#include "conformance.hpp"
#include "reference.hpp"

namespace {

using arb::Action;
using arb::Color;
using arb::Engine;
using arb::Result;

constexpr const char* kStart = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1";

std::unique_ptr<Engine> engine_at(const std::string& fen) {
  auto e = conformance::make_engine();
  e->set_position(fen);
  return e;
}

// The canonical texts of all legal actions, sorted.
std::vector<std::string> legal_texts(Engine& e) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  std::vector<std::string> out;
  for (const Action& a : actions) out.push_back(arb::uci(e.describe(a)));
  std::sort(out.begin(), out.end());
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Applies an action written in any accepted notation; fails the test when it is not legal.
void play(Engine& e, const std::string& text) {
  auto a = arb::parse_action(e, text);
  ASSERT_TRUE(a.has_value()) << text << " is not legal in " << e.position();
  e.apply(*a);
}

class Chessembly : public conformance::Suite {};
INSTANTIATE_TEST_SUITE_P(Conformance, Chessembly,
                         ::testing::Values(conformance::compiled("chessembly"),
                                           conformance::reference("chessembly")),
                         conformance::engine_name);

TEST_P(Chessembly, StartPosition) {
  auto e = conformance::make_engine();
  EXPECT_EQ(e->name(), GetParam().name + ":chessembly");
  EXPECT_EQ(e->position(), kStart);
  EXPECT_EQ(e->side_to_move(), Color::White);
  arb::Status st = e->status();
  EXPECT_EQ(st.result, Result::Ongoing);
  EXPECT_FALSE(st.in_check);
  // Only king placements on ranks 1-4 at first.
  auto texts = legal_texts(*e);
  ASSERT_EQ(texts.size(), 32u);
  for (const std::string& t : texts) {
    EXPECT_EQ(t.substr(0, 2), "K@");
    EXPECT_LE(t[3], '4');
  }
}

// perft 1: White's first action must place the king, on any of the 32 squares of ranks
// 1-4: 32.
// perft 2: Black must then place its king on one of the 32 squares of ranks 5-8, but not
// next to White's king (a placed king may not stand adjacent to the enemy king, and the
// squares next to a king are attacked by it). Only a White king on rank 4 has neighbours
// on rank 5:
//   - 24 White king squares on ranks 1-3: 32 Black replies each        = 768
//   - a4 and h4: 2 neighbours on rank 5 each, 30 replies each      2*30 =  60
//   - b4..g4: 3 neighbours on rank 5 each, 29 replies each         6*29 = 174
//   total 768 + 60 + 174 = 1002.
// perft 3: with both kings placed (no check is possible: kings never stand adjacent),
// White may place any of Q, R, B, N, P (5 types) on any of the 31 empty squares of ranks
// 1-4 (155 placements, none can expose the king) or move its king to a neighbour not next
// to Black's king. Summed over the 1002 king pairs: 1002 * 155 + 6408 king moves = 161718
// (the king-move sum was counted by a short independent script over all pairs).
// perft 4 = 23530136 was cross-checked by an independent semi-analytic count (Black's
// replies per depth-3 node: 5 piece types times the empty squares of ranks 5-8 when not in
// check, only the blocking squares of a placed slider's check otherwise, plus the safe
// king steps).
TEST_P(Chessembly, PerftFromStart) {
  auto e = conformance::make_engine();
  EXPECT_EQ(e->perft(0), 1u);
  EXPECT_EQ(e->perft(1), 32u);
  EXPECT_EQ(e->perft(2), 1002u);
  EXPECT_EQ(e->perft(3), 161718u);
  EXPECT_EQ(e->perft(4), 23530136u);
  EXPECT_EQ(e->position(), kStart);
}

// The sample game of the rule text, with its check marks.
TEST_P(Chessembly, SampleGameOfTheRuleText) {
  const std::vector<std::string> game = {"pKe1",  "pKe7", "pRe2+", "pPe6", "pQe3", "pRc6",
                                         "pBh4+", "pPf6", "pBa3+", "Kf7",  "pNf4", "pPd7"};
  auto e = conformance::make_engine();
  for (const std::string& text : game) {
    auto a = arb::parse_action(*e, text);
    ASSERT_TRUE(a.has_value()) << text << " is not legal in " << e->position();
    EXPECT_EQ(arb::san(*e, *a, /*placement_p=*/true), text) << "in " << e->position();
    e->apply(*a);
  }
  // White has placed K R Q B B N (R N and 8 P remain); Black K P R P P (Q R B B N N and
  // 5 P remain). The last three actions (pNf4, pPd7 placements; Kf7 before them) leave the
  // halfmove clock at 0; six full moves were played.
  EXPECT_EQ(e->position(), "8/3p1k2/2r1pp2/8/5N1B/B3Q3/4R3/4K3[RNPPPPPPPPqrbbnnppppp] w - - 0 7");
  arb::Status st = e->status();
  EXPECT_EQ(st.result, Result::Ongoing);
  EXPECT_EQ(st.reason, "");
  EXPECT_FALSE(st.in_check);
  EXPECT_FALSE(st.claim_fifty);
  EXPECT_FALSE(st.claim_threefold);
  // The K@e1 form is accepted too.
  auto f = conformance::make_engine();
  play(*f, "K@e1");
  EXPECT_EQ(f->position(), "8/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPkqrrbbnnpppppppp] b - - 0 1");
  play(*f, "K@e7");
  EXPECT_EQ(f->position(), "8/4k3/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbbnnpppppppp] w - - 0 2");
}

TEST_P(Chessembly, DoubleStepFromTheFirstRankThenEnPassantOntoTheSecond) {
  // White pawn d1 (placed there, as pawns may be), Black pawn e3.
  auto e = engine_at("7k/8/8/8/7K/4p3/8/3P4[] w - - 0 1");
  auto texts = legal_texts(*e);
  EXPECT_TRUE(has(texts, "d1d2"));
  EXPECT_TRUE(has(texts, "d1d3"));
  play(*e, "d1d3");
  // The pawn skipped d2 and landed beside e3: en passant is legal, so d2 is written.
  EXPECT_EQ(e->position(), "7k/8/8/8/7K/3Pp3/8/8[] b - d2 0 1");
  texts = legal_texts(*e);
  EXPECT_TRUE(has(texts, "e3d2"));
  EXPECT_TRUE(has(texts, "e3e2"));
  std::vector<Action> actions;
  e->legal_actions(actions);
  auto ep = arb::parse_action(*e, "e3d2");
  ASSERT_TRUE(ep.has_value());
  arb::ActionInfo info = e->describe(*ep);
  ASSERT_EQ(info.steps.size(), 1u);
  EXPECT_TRUE(info.steps[0].capture());
  EXPECT_EQ(info.steps[0].piece, 'P');
  EXPECT_EQ(arb::san(*e, *ep), "exd2");
  e->apply(*ep);
  EXPECT_EQ(e->position(), "7k/8/8/8/7K/8/3p4/8[] w - - 0 2");
  e->undo();
  EXPECT_EQ(e->position(), "7k/8/8/8/7K/3Pp3/8/8[] b - d2 0 1");

  // Only on the very next action: after a Black king move and a White king move the
  // capture is gone.
  play(*e, "Kg8");
  play(*e, "Kh5");
  EXPECT_FALSE(has(legal_texts(*e), "e3d2"));

  // A pawn that stepped to its second rank may still advance two squares.
  auto f = engine_at("7k/8/8/8/7K/8/8/P7[] w - - 0 1");
  play(*f, "a1a2");
  play(*f, "Kg8");
  EXPECT_TRUE(has(legal_texts(*f), "a2a4"));

  // A double step with no enemy pawn beside the landing square writes no en-passant field.
  auto g = engine_at("7k/8/8/8/7K/8/8/3P4[] w - - 0 1");
  play(*g, "d1d3");
  EXPECT_EQ(g->position(), "7k/8/8/8/7K/3P4/8/8[] b - - 0 1");
  // A blocked double step: d1-d3 needs both d2 and d3 empty.
  auto h = engine_at("7k/8/8/8/7K/3p4/8/3P4[] w - - 0 1");
  texts = legal_texts(*h);
  EXPECT_TRUE(has(texts, "d1d2"));
  EXPECT_FALSE(has(texts, "d1d3"));
}

TEST_P(Chessembly, BlackDoubleStepFromTheEighthRank) {
  // Black pawn e8 (its first rank), White pawn d6.
  auto e = engine_at("k3p3/8/3P4/8/8/8/8/7K[] b - - 0 1");
  auto texts = legal_texts(*e);
  EXPECT_TRUE(has(texts, "e8e7"));
  EXPECT_TRUE(has(texts, "e8e6"));
  play(*e, "e8e6");
  EXPECT_EQ(e->position(), "k7/8/3Pp3/8/8/8/8/7K[] w - e7 0 2");
  play(*e, "dxe7");
  EXPECT_EQ(e->position(), "k7/4P3/8/8/8/8/8/7K[] b - - 0 2");
}

TEST_P(Chessembly, EnPassantThatWouldExposeTheKingIsNotWritten) {
  // White's pawn d1 advances to d3 beside Black's pawn e3, on the third rank with White's
  // rook a3 and Black's king h3. exd2 e.p. would take both pawns off the third rank and
  // expose the king to the rook, so the capture is illegal and no en-passant field is
  // written.
  auto e = engine_at("K7/8/8/8/8/R3p2k/8/3P4[] w - - 0 1");
  play(*e, "d1d3");
  EXPECT_EQ(e->position(), "K7/8/8/8/8/R2Pp2k/8/8[] b - - 0 1");
  EXPECT_FALSE(has(legal_texts(*e), "e3d2"));
}

TEST_P(Chessembly, Promotion) {
  auto e = engine_at("4k3/6P1/8/8/8/8/8/K7[] w - - 0 1");
  auto texts = legal_texts(*e);
  for (const char* t : {"g7g8q", "g7g8r", "g7g8b", "g7g8n"}) EXPECT_TRUE(has(texts, t)) << t;
  EXPECT_FALSE(has(texts, "g7g8"));
  auto q = arb::parse_action(*e, "g8=Q");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(arb::san(*e, *q), "g8=Q+");
  auto n = arb::parse_action(*e, "g7g8n");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(arb::san(*e, *n), "g8=N");
  e->apply(*q);
  EXPECT_EQ(e->position(), "4k1Q1/8/8/8/8/8/8/K7[] b - - 0 1");
  EXPECT_TRUE(e->status().in_check);

  // Black promotes on rank 1, capturing; a Black pawn on its own first rank (8) is fine.
  auto b = engine_at("3p3k/8/8/8/8/K7/5p2/6R1[] b - - 0 1");
  texts = legal_texts(*b);
  for (const char* t : {"f2f1q", "f2g1q", "f2g1n", "d8d6", "d8d7"}) EXPECT_TRUE(has(texts, t)) << t;
  play(*b, "f2g1q");
  EXPECT_EQ(b->position(), "3p3k/8/8/8/8/K7/8/6q1[] w - - 0 2");
}

TEST_P(Chessembly, PlacementBlocksACheck) {
  // Black rook e8 checks White's king e1; White holds a knight.
  auto e = engine_at("4r2k/8/8/8/8/8/8/4K3[N] w - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  // King moves d1 d2 f1 f2 (e2 is on the rook's file), placements on e2 e3 e4 (e5-e7 are
  // Black's half).
  std::vector<std::string> want = {"N@e2", "N@e3", "N@e4", "e1d1", "e1d2", "e1f1", "e1f2"};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(legal_texts(*e), want);
  play(*e, "pNe3");
  EXPECT_EQ(e->position(), "4r2k/8/8/8/8/4N3/8/4K3[] b - - 0 1");
  EXPECT_FALSE(e->status().in_check);
}

TEST_P(Chessembly, PlacementGivesCheck) {
  auto e = engine_at("4k3/8/8/8/8/8/8/K7[R] w - - 50 9");
  auto r = arb::parse_action(*e, "R@e4");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(arb::san(*e, *r, true), "pRe4+");
}

TEST_P(Chessembly, KingPlacementNextToTheEnemyKingIsRefused) {
  // White's king e4; Black must place its king on ranks 5-8 but not on d5, e5, f5.
  auto e = engine_at("8/8/8/8/4K3/8/8/8[k] b - - 0 1");
  auto texts = legal_texts(*e);
  EXPECT_EQ(texts.size(), 29u);
  for (const char* t : {"K@d5", "K@e5", "K@f5"}) EXPECT_FALSE(has(texts, t)) << t;
  EXPECT_TRUE(has(texts, "K@e6"));
  EXPECT_TRUE(has(texts, "K@c5"));
  // Nor onto a square a piece attacks: White's rook a4 sees a5-a8.
  auto f = engine_at("8/8/8/8/R3K3/8/8/8[k] b - - 0 1");
  texts = legal_texts(*f);
  EXPECT_EQ(texts.size(), 25u);
  EXPECT_FALSE(has(texts, "K@a7"));
  // While the king is in the reserve, it is the only piece that may be placed.
  auto g = engine_at("8/8/8/8/4K3/8/8/8[kqp] b - - 0 1");
  EXPECT_EQ(legal_texts(*g).size(), 29u);
  // A king move next to the enemy king is refused as well.
  auto h = engine_at("8/8/8/4k3/8/4K3/8/8[] w - - 0 1");
  texts = legal_texts(*h);
  for (const char* t : {"e3d4", "e3e4", "e3f4"}) EXPECT_FALSE(has(texts, t)) << t;
  EXPECT_EQ(texts.size(), 5u);
}

TEST_P(Chessembly, MateByPlacement) {
  // Black king h8 hemmed in by its own bishop g8 and pawn h7; Black's reserve is empty. A
  // bishop placed on the long diagonal (a1 b2 c3 d4) mates: g7 is on the line, nothing can
  // block e5 f6 g7 (the bishop g8 runs on the other diagonals), nothing can capture.
  auto e = engine_at("6bk/7p/8/8/8/8/8/7K[B] w - - 0 1");
  auto a = arb::parse_action(*e, "pBd4");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(arb::san(*e, *a, true), "pBd4#");
  e->apply(*a);
  arb::Status st = e->status();
  EXPECT_EQ(st.result, Result::WhiteWins);
  EXPECT_EQ(st.reason, "checkmate");
  EXPECT_TRUE(st.in_check);
  std::vector<Action> none;
  e->legal_actions(none);
  EXPECT_TRUE(none.empty());
  // With a pawn in Black's reserve, placing it on e5, f6 or g7 blocks: no mate.
  auto f = engine_at("6bk/7p/8/8/8/8/8/7K[Bp] w - - 0 1");
  play(*f, "pBd4");
  st = f->status();
  EXPECT_EQ(st.result, Result::Ongoing);
  EXPECT_TRUE(st.in_check);
  std::vector<std::string> want = {"P@e5", "P@f6", "P@g7"};
  EXPECT_EQ(legal_texts(*f), want);
}

TEST_P(Chessembly, Stalemate) {
  auto e = engine_at("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1");
  arb::Status st = e->status();
  EXPECT_EQ(st.result, Result::Draw);
  EXPECT_EQ(st.reason, "stalemate");
  EXPECT_FALSE(st.in_check);
  // A piece in the reserve is a way out: any empty square of Black's half.
  auto f = engine_at("7k/5Q2/6K1/8/8/8/8/8[p] b - - 0 1");
  st = f->status();
  EXPECT_EQ(st.result, Result::Ongoing);
  EXPECT_EQ(legal_texts(*f).size(), 32u - 3u);  // h8 g6 f7 are taken
}

TEST_P(Chessembly, InsufficientMaterialOnlyWithEmptyReserves) {
  arb::Status st = engine_at("8/8/4k3/8/8/2K5/8/8[] w - - 0 1")->status();
  EXPECT_EQ(st.result, Result::Draw);
  EXPECT_EQ(st.reason, "insufficient-material");
  EXPECT_EQ(engine_at("8/8/4k3/8/8/2K5/8/8[P] w - - 0 1")->status().result, Result::Ongoing);
  EXPECT_EQ(engine_at("8/8/4k3/8/8/2K5/8/8[n] w - - 0 1")->status().result, Result::Ongoing);
  EXPECT_EQ(engine_at("8/8/4k3/8/8/2KN4/8/8[] w - - 0 1")->status().reason, "insufficient-material");
  // Bishops of both sides on squares of the same colour (c1 and f4 are both dark).
  EXPECT_EQ(engine_at("8/8/4k3/8/5b2/2K5/8/2B5[] w - - 0 1")->status().reason, "insufficient-material");
  // On squares of different colours (c1 dark, f5 light), or two knights: play on.
  EXPECT_EQ(engine_at("8/8/4k3/5b2/8/2K5/8/2B5[] w - - 0 1")->status().reason, "");
  EXPECT_EQ(engine_at("8/8/4k3/8/8/2K5/8/2NN4[] w - - 0 1")->status().reason, "");
  EXPECT_EQ(engine_at("8/8/4k3/8/8/2K5/8/2P5[] w - - 0 1")->status().reason, "");
  // Bare kings: only once both reserves are empty.
  EXPECT_EQ(engine_at("4k3/8/8/8/8/8/8/4K3[] w - - 0 1")->status().reason, "insufficient-material");
  EXPECT_EQ(engine_at("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")->status().reason, "");
  EXPECT_EQ(engine_at("4k3/8/8/8/8/8/8/4K3[b] w - - 0 1")->status().reason, "");
}

TEST_P(Chessembly, FiftyMoveCounterResetByPlacement) {
  auto e = engine_at("7k/8/8/8/8/8/8/K7[N] w - - 99 60");
  EXPECT_FALSE(e->status().claim_fifty);
  play(*e, "Ka2");
  EXPECT_EQ(e->position(), "7k/8/8/8/8/8/K7/8[N] b - - 100 60");
  arb::Status st = e->status();
  EXPECT_TRUE(st.claim_fifty);
  EXPECT_EQ(st.result, Result::Ongoing);
  e->undo();
  play(*e, "pNc3");
  EXPECT_EQ(e->position(), "7k/8/8/8/8/2N5/8/K7[] b - - 0 60");
  EXPECT_FALSE(e->status().claim_fifty);
  // A Black action ends the full move.
  play(*e, "Kg8");
  EXPECT_EQ(e->position(), "6k1/8/8/8/8/2N5/8/K7[] w - - 1 61");
  // A placement resets a counter already at 100 (RULINGS 1.9).
  auto m = engine_at("4k3/8/8/8/8/8/8/4K3[N] w - - 100 80");
  EXPECT_TRUE(m->status().claim_fifty);
  play(*m, "N@a1");
  EXPECT_FALSE(m->status().claim_fifty);
  EXPECT_EQ(m->position(), "4k3/8/8/8/8/8/8/N3K3[] b - - 0 80");
}

TEST_P(Chessembly, ThreefoldRepetition) {
  auto e = engine_at("7k/8/8/8/8/8/8/K7[P] w - - 0 1");
  for (int round = 0; round < 2; ++round) {
    EXPECT_FALSE(e->status().claim_threefold) << round;
    for (const char* t : {"Ka2", "Kg8", "Ka1", "Kh8"}) play(*e, t);
  }
  EXPECT_TRUE(e->status().claim_threefold);
  EXPECT_EQ(e->status().result, Result::Ongoing);
}

TEST_P(Chessembly, PositionTextValidation) {
  const std::vector<std::string> bad = {
      "8/8/8/8/8/8/8/8 w - - 0 1",                                       // no reserve
      "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w KQkq - 0 1",  // castling
      "4P2k/8/8/8/8/8/8/K7[] w - - 0 1",                                 // White pawn on rank 8
      "7k/8/8/8/8/8/8/K3p3[] w - - 0 1",                                 // Black pawn on rank 1
      "7k/8/8/8/8/8/8/8[] w - - 0 1",                                    // White has no king
      "7k/8/8/8/8/8/8/K7[K] w - - 0 1",                                  // two White kings
      "7k/8/8/8/8/8/8/K6K[] w - - 0 1",                                  // two White kings
      "8/8/8/8/8/8/8/8[KKkq] w - - 0 1",                                 // two kings in reserve
      "7k/7R/8/8/8/8/8/K7[] w - - 0 1",                                  // Black in check, White to move
      "8/8/8/4k3/4K3/8/8/8[] w - - 0 1",                                 // kings adjacent
      "7k/8/8/8/8/8/8/K7[QQ] w - - 0 1",                                 // two queens in reserve
      "7k/8/8/8/QQQ5/QQQ5/PPPPPPPP/K7[] w - - 0 1",                      // 6 queens and 8 pawns
      "7k/8/8/8/8/8/8/K7[PPPPPPPPP] w - - 0 1",                          // 9 pawns
      "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppx] w - - 0 1",     // unknown letter
  };
  for (const std::string& fen : bad) {
    auto e = conformance::make_engine();
    EXPECT_THROW(e->set_position(fen), arb::PositionError) << fen;
    EXPECT_EQ(e->position(), kStart) << "a refused text leaves the position unchanged: " << fen;
  }
  // Accepted: a White pawn on rank 1, a Black pawn on rank 8, one side's king still in the
  // reserve, empty reserves, EPD without counters, nine queens from eight promotions.
  const std::vector<std::pair<std::string, std::string>> good = {
      {"3p3k/8/8/8/8/8/8/K2P4[] w - - 0 1", "3p3k/8/8/8/8/8/8/K2P4[] w - - 0 1"},
      {"4k3/8/8/8/8/8/8/P3K3[] w - - 0 1", "4k3/8/8/8/8/8/8/P3K3[] w - - 0 1"},
      {"8/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPkqrrbbnnpppppppp] b - - 0 1",
       "8/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPkqrrbbnnpppppppp] b - - 0 1"},
      {"7k/8/8/8/8/8/8/K7[pP] w -", "7k/8/8/8/8/8/8/K7[Pp] w - - 0 1"},
      {"7k/8/8/8/8/8/8/K7[nqbrpk-] b - - 3 4", ""},  // Black has two kings: refused
      {"7k/8/QQQ5/QQQ5/QQQ5/8/8/K7[] w - - 0 1", "7k/8/QQQ5/QQQ5/QQQ5/8/8/K7[] w - - 0 1"},
      {"7k/8/8/8/8/8/8/K7[pnbrqPNBRQ] w - - 0 1", "7k/8/8/8/8/8/8/K7[QRBNPqrbnp] w - - 0 1"},
  };
  for (const auto& [in, out] : good) {
    auto e = conformance::make_engine();
    if (out.empty()) {
      EXPECT_THROW(e->set_position(in), arb::PositionError) << in;
      continue;
    }
    EXPECT_NO_THROW(e->set_position(in)) << in;
    EXPECT_EQ(e->position(), out);
  }
}

struct WalkStats {
  int games = 0;
  int finished = 0;
  int en_passant_fields = 0;
  int en_passant_captures = 0;
  int promotions = 0;
  int threefold_claims = 0;
  std::set<std::string> reasons;
  std::map<std::string, uint64_t> hash_of_key;  // position text without the counters
  std::map<uint64_t, std::string> key_of_hash;
};

// Plays `games` random games from `start` with a fixed seed, preferring board moves to
// placements three times in four so that the games develop (promotions, en passant, mates).
// At every position: apply then undo restores the text and the hash exactly; the text reads
// back to the same text, hash and legal actions; every legal action has a distinct
// canonical text that parses back to it; equal texts (counters aside) have equal hashes and
// different ones different hashes. At the end, undoing the whole game restores each
// earlier text and hash.
void random_walks(const std::string& start, int games, int max_plies, std::mt19937_64& rng,
                  WalkStats& stats) {
  auto e = conformance::make_engine();
  auto fresh = conformance::make_engine();
  for (int game = 0; game < games; ++game, ++stats.games) {
    e->set_position(start);
    std::vector<std::string> texts_before;
    std::vector<uint64_t> hashes_before;
    for (int ply = 0; ply < max_plies; ++ply) {
      const std::string text = e->position();
      const uint64_t h = e->hash();
      fresh->set_position(text);
      ASSERT_EQ(fresh->position(), text);
      ASSERT_EQ(fresh->hash(), h) << text;
      const std::string key = text.substr(0, text.rfind(' ', text.rfind(' ') - 1));
      const std::string ep_field = key.substr(key.rfind(' ') + 1);
      if (ep_field != "-") ++stats.en_passant_fields;
      auto [hk, new_key] = stats.hash_of_key.emplace(key, h);
      ASSERT_EQ(hk->second, h) << key;
      auto [kh, new_hash] = stats.key_of_hash.emplace(h, key);
      ASSERT_EQ(kh->second, key) << "hash collision";
      ASSERT_EQ(new_key, new_hash);
      std::vector<Action> actions;
      e->legal_actions(actions);
      ASSERT_EQ(legal_texts(*fresh), legal_texts(*e)) << text;
      arb::Status st = e->status();
      if (st.claim_threefold) ++stats.threefold_claims;
      if (actions.empty() || st.result != Result::Ongoing) {
        ASSERT_NE(st.result, Result::Ongoing) << text;
        ++stats.finished;
        stats.reasons.insert(st.reason);
        break;
      }
      std::set<std::string> seen;
      for (const Action& a : actions) {
        const std::string u = arb::uci(e->describe(a));
        ASSERT_TRUE(seen.insert(u).second) << "duplicate action " << u << " in " << text;
        e->apply(a);
        ASSERT_NE(e->position(), text);
        e->undo();
        ASSERT_EQ(e->position(), text);
        ASSERT_EQ(e->hash(), h);
      }
      // Spot-check parsing on a few actions (it is quadratic in the action count).
      for (int i = 0; i < 3; ++i) {
        const Action& a = actions[rng() % actions.size()];
        auto back = arb::parse_action(*e, arb::uci(e->describe(a)));
        ASSERT_TRUE(back.has_value());
        EXPECT_TRUE(*back == a);
      }
      texts_before.push_back(text);
      hashes_before.push_back(h);
      std::vector<Action> moves;
      for (const Action& a : actions)
        if (e->describe(a).steps[0].kind == arb::StepKind::Move) moves.push_back(a);
      Action chosen =
          !moves.empty() && rng() % 4 != 0 ? moves[rng() % moves.size()] : actions[rng() % actions.size()];
      // En passant is rare in random play: when one is legal, the walk takes it, so that the
      // short walks of the sanitizer run reach it too.
      if (ep_field != "-")
        for (const Action& a : moves) {
          const arb::Step s = e->describe(a).steps[0];
          if (s.piece == 'P' && s.capture() && ep_field == arb::square_name(s.to)) {
            chosen = a;
            break;
          }
        }
      const arb::Step step = e->describe(chosen).steps[0];
      if (step.promotion) ++stats.promotions;
      // The en-passant square is always empty, so a pawn capture onto it is en passant.
      if (step.piece == 'P' && step.capture() && ep_field == arb::square_name(step.to))
        ++stats.en_passant_captures;
      e->apply(chosen);
    }
    for (int i = static_cast<int>(texts_before.size()) - 1; i >= 0; --i) {
      e->undo();
      ASSERT_EQ(e->position(), texts_before[i]);
      ASSERT_EQ(e->hash(), hashes_before[i]);
    }
  }
}

std::string describe_stats(const WalkStats& s) {
  std::string reasons;
  for (const std::string& r : s.reasons) reasons += " " + r;
  return std::to_string(s.finished) + " of " + std::to_string(s.games) + " games ended (" + reasons + " ), " +
         std::to_string(s.en_passant_fields) + " en-passant fields, " +
         std::to_string(s.en_passant_captures) + " en-passant captures, " + std::to_string(s.promotions) +
         " promotions, " + std::to_string(s.threefold_claims) + " threefold claims, " +
         std::to_string(s.hash_of_key.size()) + " distinct positions";
}

TEST_P(Chessembly, RandomWalksFromTheStart) {
  std::mt19937_64 rng(20261122);
  WalkStats stats;
  // Under the sanitizers (ARBITER_FAST) 40 walks: the Release run takes 200.
  random_walks(kStart, std::getenv("ARBITER_FAST") ? 40 : 200, 160, rng, stats);
  std::cout << "random walks from the start: " << describe_stats(stats) << "\n";
  EXPECT_GT(stats.finished, 0);
  EXPECT_GT(stats.en_passant_fields, 0);
  EXPECT_GT(stats.en_passant_captures, 0);
  EXPECT_GT(stats.promotions, 0);
}

// Small reserves: games reach empty reserves, so insufficient material, stalemate and
// repetitions come up.
TEST_P(Chessembly, RandomWalksWithSmallReserves) {
  std::mt19937_64 rng(7);
  WalkStats stats;
  // Under the sanitizers (ARBITER_FAST) 60 and 40 walks: the Release run takes 150 and 100.
  const bool fast = std::getenv("ARBITER_FAST") != nullptr;
  random_walks("4k3/8/8/8/8/8/8/4K3[BNPbnp] w - - 0 1", fast ? 60 : 150, 200, rng, stats);
  random_walks("8/8/8/8/8/8/8/8[KRPkp] w - - 0 1", fast ? 40 : 100, 200, rng, stats);
  std::cout << "random walks with small reserves: " << describe_stats(stats) << "\n";
  EXPECT_TRUE(stats.reasons.count("insufficient-material"));
  EXPECT_GT(stats.threefold_claims, 0);
}

TEST_P(Chessembly, CloneIsIndependent) {
  auto e = conformance::make_engine();
  play(*e, "K@e1");
  auto c = e->clone();
  play(*c, "K@e8");
  EXPECT_EQ(e->position(), "8/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPkqrrbbnnpppppppp] b - - 0 1");
  c->undo();
  EXPECT_EQ(c->position(), e->position());
  EXPECT_EQ(c->hash(), e->hash());
}

// ---------------------------------------------------------------------------------------
// The compiled generator against the reference engine: these compare two engines at every
// node, so they are plain TESTs rather than one instance per engine.

TEST(ChessemblyAgreement, PerftAndActionsFromTheStart) {
  auto compiled = conformance::compiled("chessembly").make({});
  auto ref = conformance::reference("chessembly").make({});
  EXPECT_EQ(compiled->position(), ref->position());
  for (int depth = 0; depth <= 3; ++depth) EXPECT_EQ(compiled->perft(depth), ref->perft(depth)) << depth;
  EXPECT_EQ(testing_helpers::legal_texts(*compiled), testing_helpers::legal_texts(*ref));
}

TEST(ChessemblyAgreement, RandomPlayouts) {
  conformance::compare_compiled_with_reference("chessembly", {kStart}, 200, 60, 20240601);
}

// Random playouts from positions with small reserves, where mates, stalemates and
// insufficient material (once both reserves are empty) are reached.
TEST(ChessemblyAgreement, PlayoutsWithSmallReserves) {
  conformance::compare_compiled_with_reference(
      "chessembly",
      {"8/8/8/8/8/8/8/8[KQkq] w - - 0 1", "8/8/8/8/8/8/8/8[KRBkn] w - - 0 1",
       "4k3/8/8/8/8/8/8/4K3[PPpp] w - - 0 1", "8/8/8/8/8/8/8/8[KNPkbp] b - - 0 1",
       "4k3/8/8/8/8/8/8/4K3[Bb] w - - 0 1"},
      200, 80, 77);
}

// Biased playouts that seek out the rules that make Chessembly differ from chess, compared
// with the reference engine at every node: double steps from the first rank followed by en
// passant onto the second, promotions, and placements that block a check.
TEST(ChessemblyAgreement, PlayoutsReachFirstRankDoubleStepsEnPassantPromotionsAndBlocks) {
  auto compiled = conformance::compiled("chessembly").make({});
  auto ref = arb::ref::make_reference_engine("chessembly");
  std::mt19937_64 rng(4242);
  int first_rank_double = 0, ep_after_first_rank = 0, promotions = 0, blocking_placements = 0;
  const int games = std::getenv("ARBITER_FAST") ? 40 : 150;
  for (int g = 0; g < games; ++g) {
    compiled->set_position(kStart);
    ref->set_position(kStart);
    bool last_was_first_rank_double = false;
    for (int ply = 0; ply < 150; ++ply) {
      ASSERT_EQ(compiled->position(), ref->position());
      auto texts = legal_texts(*compiled);
      ASSERT_EQ(texts, legal_texts(*ref)) << ref->position();
      arb::Status st = compiled->status();
      ASSERT_EQ(st.reason, ref->status().reason) << ref->position();
      if (texts.empty() || !st.reason.empty()) break;
      // Interesting actions: pawn double steps from the own first rank, en passant,
      // promotions, placements while in check, pawn placements on the first rank.
      std::vector<std::string> interesting;
      std::vector<arb::Action> acts;
      compiled->legal_actions(acts);
      for (const auto& a : acts) {
        arb::ActionInfo info = compiled->describe(a);
        const arb::Step& s = info.steps[0];
        std::string t = arb::uci(info, true);
        bool white = compiled->side_to_move() == arb::Color::White;
        int first = white ? 1 : 8;
        bool double_from_first = s.kind == arb::StepKind::Move && s.piece == 'P' && s.from.y == first &&
                                 std::abs(s.to.y - s.from.y) == 2;
        bool ep = s.kind == arb::StepKind::Move && s.piece == 'P' && s.capture() && s.from.x != s.to.x &&
                  last_was_first_rank_double;
        bool place_first = s.kind == arb::StepKind::Place && s.piece == 'P' && s.to.y == first;
        if (double_from_first || ep || s.promotion || (st.in_check && s.kind == arb::StepKind::Place) ||
            place_first || (s.kind == arb::StepKind::Move && s.piece == 'P'))
          interesting.push_back(t);
      }
      const std::string pick = !interesting.empty() && rng() % 4 != 0
                                   ? interesting[rng() % interesting.size()]
                                   : texts[rng() % texts.size()];
      arb::Action a = testing_helpers::find_action(*compiled, pick);
      arb::ActionInfo info = compiled->describe(a);
      const arb::Step& s = info.steps[0];
      bool white = compiled->side_to_move() == arb::Color::White;
      bool is_double_first = s.kind == arb::StepKind::Move && s.piece == 'P' && s.from.y == (white ? 1 : 8) &&
                             std::abs(s.to.y - s.from.y) == 2;
      if (is_double_first) ++first_rank_double;
      // En passant: a pawn capture onto an empty square, right after a first-rank double step.
      if (s.kind == arb::StepKind::Move && s.piece == 'P' && s.capture() && last_was_first_rank_double) {
        arb::FenFields f = arb::parse_fen(compiled->position(), 8, 8, "KQRBNPkqrbnp");
        if (!f.at(s.to)) ++ep_after_first_rank;
      }
      if (s.promotion) ++promotions;
      if (st.in_check && s.kind == arb::StepKind::Place) ++blocking_placements;
      last_was_first_rank_double = is_double_first;
      compiled->apply(a);
      ref->apply(testing_helpers::find_action(*ref, pick));
    }
  }
  std::printf(
      "chessembly features reached: %d first-rank double steps, %d en passant after them, %d "
      "promotions, %d placements blocking a check\n",
      first_rank_double, ep_after_first_rank, promotions, blocking_placements);
  EXPECT_GT(first_rank_double, 0);
  EXPECT_GT(ep_after_first_rank, 0);
  EXPECT_GT(promotions, 0);
  EXPECT_GT(blocking_placements, 0);
}

// ---------------------------------------------------------------------------------------
// Where the engines read a position text differently, each engine's own reading as a plain
// TEST for that engine.

// An en-passant field that no double step explains: the reference engine refuses the text,
// the compiled generator drops the field (as both chess engines do with a field no capture
// can use). The reference engine's PositionError also names the column of the fault; the
// compiled generator's names none (column 0).
TEST(ChessemblyReference, RefusesEnPassantFieldsWithoutADoubleStepAndNamesColumns) {
  for (const char* fen : {"7k/8/8/8/7K/3Pp3/8/8[] b - d6 0 1",  // no pawn skipped d6
                          "7k/8/8/8/7K/3Pp3/8/8[] w - d2 0 1",  // wrong side for d2
                          "7k/8/8/8/7K/8/8/8[] b - d2 0 1"}) {  // no pawn on d3
    auto e = arb::ref::make_chessembly_engine();
    EXPECT_THROW(e->set_position(fen), arb::PositionError) << fen;
    EXPECT_EQ(e->position(), kStart) << "a refused text leaves the position unchanged: " << fen;
  }
  // The column points at the fault.
  try {
    arb::ref::make_chessembly_engine()->set_position("4P2k/8/8/8/8/8/8/K7[] w - - 0 1");
    FAIL() << "accepted a White pawn on rank 8";
  } catch (const arb::PositionError& err) {
    EXPECT_EQ(err.column, 1u);
  }
  try {
    arb::ref::make_chessembly_engine()->set_position("k7/8/8/8/8/8/8/K3p3[] w - - 0 1");
    FAIL() << "accepted a Black pawn on rank 1";
  } catch (const arb::PositionError& err) {
    EXPECT_EQ(err.column, 17u);
  }
}

TEST(ChessemblyCompiled, DropsEnPassantFieldsWithoutADoubleStep) {
  auto e = conformance::compiled("chessembly").make({});
  for (const auto& [in, out] : std::vector<std::pair<std::string, std::string>>{
           {"7k/8/8/8/7K/3Pp3/8/8[] b - d6 0 1", "7k/8/8/8/7K/3Pp3/8/8[] b - - 0 1"},
           {"7k/8/8/8/7K/3Pp3/8/8[] w - d2 0 1", "7k/8/8/8/7K/3Pp3/8/8[] w - - 0 1"},
           {"7k/8/8/8/7K/8/8/8[] b - d2 0 1", "7k/8/8/8/7K/8/8/8[] b - - 0 1"}}) {
    EXPECT_NO_THROW(e->set_position(in)) << in;
    EXPECT_EQ(e->position(), out);
  }
}

}  // namespace
