// Issue 24's pawns, promotion and royals on the bitboard back end (lang/src/gen_pawns.cpp
// sections of compile.cpp and generator.cpp): `en-passant-field path` (Fairy-Stockfish's
// custom pawns write their double step as the square passed and the arrival, `f3g4`),
// `confined` on initial leaps (pawnback's pawns never step back onto their first rank),
// `black-moves rotated` and `promotion-squares` (legan), `promotion optional` and
// `promotion-limit` (grand), several royal pieces of one type (coregal) and `duple-check`
// (spartan).
// Each count is by hand; each was also counted by current Fairy-Stockfish (npm
// fairy-stockfish-nnue.wasm 1.1.12) in the variant named beside it, which agrees. The
// catalogue suites (corpus/fsf/*.perft, fsf_catalogue_test) check the same rulesets from
// the start and random positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;

TEST(PawnsEnPassantField, BerolinaDoubleStepWritesPassedSquareAndArrival) {
  // e2-g4 passes f3: the field lists f3 and the arrival g4 (square order), although no
  // capture needs it to be shown. berolina: `4k3/8/8/8/5pP1/8/8/4K3 b - f3g4 0 1`.
  auto e = catalogue_at("berolina", "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1");
  ASSERT_TRUE(play(*e, "e2g4"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/5pP1/8/8/4K3 b - f3g4 0 1");
  // Black: the king's d8 f8 d7 e7 f7, the pawn's e3 g3 and f4xf3 en passant (straight
  // ahead onto the square passed, taking g4): 8. berolina: 8.
  EXPECT_EQ(e->perft(1), 8u);
  ASSERT_TRUE(play(*e, "f4f3"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/5p2/8/4K3 w - - 0 2");
  // A single step leaves the field empty.
  auto s = catalogue_at("berolina", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  ASSERT_TRUE(play(*s, "e2f3"));
  EXPECT_EQ(s->position(), "4k3/8/8/8/8/5P2/8/4K3 b - - 0 1");
}

TEST(PawnsEnPassantField, ListFormReadsBack) {
  // The text as Fairy-Stockfish prints it reads, plays the capture and writes back.
  const std::string fen = "4k3/8/8/8/5pP1/8/8/4K3 b - f3g4 0 1";
  auto e = catalogue_at("berolina", fen);
  EXPECT_EQ(e->position(), fen);
  EXPECT_EQ(e->perft(1), 8u);
  // Black's double step d7-f5 passes e6: `f5e6` (square order: f5 before e6), White to move. pawnsideways
  // writes its straight double step e7-e5 as `e5e6`.
  auto b = catalogue_at("berolina", "4k3/3p4/8/8/8/8/8/4K3 b - - 0 1");
  ASSERT_TRUE(play(*b, "d7f5"));
  EXPECT_EQ(b->position(), "4k3/8/8/5p2/8/8/8/4K3 w - f5e6 0 2");
  auto p = catalogue_at("pawnsideways", "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1");
  ASSERT_TRUE(play(*p, "e7e5"));
  EXPECT_EQ(p->position(), "4k3/8/8/4p3/8/8/8/4K3 w - e5e6 0 2");
  EXPECT_EQ(catalogue_at("pawnsideways", "4k3/8/8/4p3/8/8/8/4K3 w - e5e6 0 2")->position(),
            "4k3/8/8/4p3/8/8/8/4K3 w - e5e6 0 2");
}

TEST(PawnsEnPassantField, ListFormThatIsNoDoubleStepIsRefused) {
  // g4 holds no pawn that passed f3: refused at the field, not silently dropped.
  EXPECT_THROW(catalogue_at("berolina", "4k3/8/8/8/5p2/8/8/4K3 b - f3g4 0 1"), arb::PositionError);
  // Chess's pawn keeps the one-square form: a list is refused there.
  auto chess = arb::lang::make_compiled_engine(catalogue_program("chess"));
  EXPECT_THROW(chess->set_position("4k3/8/8/8/4Pp2/8/8/4K3 b - e3e4 0 1"), arb::PositionError);
  // Three squares are no double step.
  EXPECT_THROW(catalogue_at("berolina", "4k3/8/8/8/5pP1/8/8/4K3 b - f3g4h5 0 1"), arb::PositionError);
}

TEST(PawnsEnPassantField, MisuseIsLocated) {
  const std::string head = "ruleset r\nboard 8 x 8\npiece king K { betza \"K\"; royal }\n";
  const std::string tail =
      "setup \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"\nturn { action move }\nlegal { royal-safe }\n"
      "end { checkmate -> loss; stalemate -> draw }\n";
  const std::string bad =
      ruleset_errors(head +
                     "piece pawn P { betza \"fmWfceFifmnD\"; initial ranks 2; promote on rank 8 "
                     "to K; en-passant-field arrival }\n" +
                     tail);
  EXPECT_NE(bad.find("r.rules:4:"), std::string::npos) << bad;
  EXPECT_NE(bad.find("arrival"), std::string::npos) << bad;
  EXPECT_EQ(ruleset_errors(head +
                           "piece pawn P { betza \"fmWfceFifmnD\"; initial ranks 2; promote on rank 8 to K; "
                           "en-passant-field path }\n" +
                           tail),
            "");
}

TEST(PawnsConfined, PawnbackNeverStepsOntoItsFirstRank) {
  // The pawn on d2 steps to d3 or d4, never back to d1; the king d1 e2 f1 f2: 6.
  // pawnback: 6.
  EXPECT_EQ(catalogue_at("pawnback", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1")->perft(1), 6u);
  // On d3 it steps back to d2, forward to d4 (no double step off its second rank): the
  // king's 5: 7.
  EXPECT_EQ(catalogue_at("pawnback", "4k3/8/8/8/8/3P4/8/4K3 w - - 0 1")->perft(1), 7u);
  // Back on d2 it double-steps again: the field then holds d3d4 (and the clock runs on:
  // `resets-clock never`, as Fairy-Stockfish counts).
  auto e = catalogue_at("pawnback", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
  ASSERT_TRUE(play(*e, "d2d4"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/3P4/8/8/4K3 b - d3d4 1 1");
}

TEST(PawnsLegan, RotatedPawnsPromoteOnTheirSquares) {
  // White's b7 pawn steps forward-left to a8, a promotion square: Q R B N; the king a1
  // a2 b1 b2: 7. legan: 7.
  EXPECT_EQ(catalogue_at("legan", "7k/1P6/8/8/8/8/8/K7 w - - 0 1")->perft(1), 7u);
  // Black's pawn is White's turned by 180 degrees: g2 steps to h1, one of Black's promotion
  // squares (White's a8 turned): 4, and the king h8 g8 g7 h7: 7. legan: 7.
  EXPECT_EQ(catalogue_at("legan", "7k/8/8/8/8/8/6p1/K7 b - - 0 1")->perft(1), 7u);
  // f7-e8 reaches the last rank off the promotion squares: a plain move; the king's 3: 4.
  // legan: 4.
  EXPECT_EQ(catalogue_at("legan", "7k/5P2/8/8/8/8/8/K7 w - - 0 1")->perft(1), 4u);
}

TEST(PawnsGrand, OptionalPromotionLimitedToLostTypes) {
  // 10 x 10. White holds two knights (a3, c1): no promotion to N. c9-c10 must promote:
  // A C Q R B (5); the knights 4 + 4, the king a1 a2 b1 b2 (3): 16. grand: 16.
  EXPECT_EQ(catalogue_at("grand", "9k/2P7/10/10/10/10/10/N9/10/K1N7 w - - 0 1")->perft(1), 16u);
  // c8-c9 may promote (5) or not (1): 17. grand: 17.
  EXPECT_EQ(catalogue_at("grand", "9k/10/2P7/10/10/10/10/N9/10/K1N7 w - - 0 1")->perft(1), 17u);
  // A pawn on rank 9 with no type left to take may not enter rank 10: White holds Q C A,
  // two R, two B and two N. grand: no move of c9. With one knight fewer, c9-c10=N only.
  auto c9_moves = [](const std::string& fen) {
    auto e = catalogue_at("grand", fen);
    std::vector<std::string> moves = legal_texts(*e);
    return std::count_if(moves.begin(), moves.end(),
                         [](const std::string& m) { return m.rfind("c9", 0) == 0; });
  };
  EXPECT_EQ(c9_moves("9k/2P7/10/10/10/10/10/10/K9/CQARRBBNN1 w - - 0 1"), 0);
  EXPECT_EQ(c9_moves("9k/2P7/10/10/10/10/10/10/K9/CQARRBBN2 w - - 0 1"), 1);
}

TEST(PawnsCoregal, EveryQueenIsRoyal) {
  // The rook d8 attacks the queen d1: White is in check. Only queen moves off the d-file
  // answer it (c1 b1 a1, c2 b3 a4, e2 f3 g4 h5: 10); Qxd8 stands attacked by the king,
  // Kd2 blocks on an attacked square. coregal: 10.
  auto e = catalogue_at("coregal", "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1");
  EXPECT_TRUE(e->side_in_check());
  EXPECT_EQ(e->perft(1), 10u);
  // A promotion to a queen makes a third royal piece: the text with it reads and plays.
  auto p = catalogue_at("coregal", "4k3/1P6/8/8/8/8/8/3QK3 w - - 0 1");
  ASSERT_TRUE(play(*p, "b7b8q"));
  EXPECT_EQ(p->position(), "1Q2k3/8/8/8/8/8/8/3QK3 b - - 0 1");
  EXPECT_EQ(catalogue_at("coregal", "1Q2k3/8/8/8/8/8/8/3QK3 b - - 0 1")->position(),
            "1Q2k3/8/8/8/8/8/8/3QK3 b - - 0 1");
}

TEST(PawnsCoregal, TheKingCastlesNotTheRoyalQueen) {
  // The queen d1 stands before the king in square order; the king castles: e1-g1. The
  // rooks 9 + 9, the queen 14 (d7 and d8 stand attacked by the king e8: a royal queen may
  // not go there), the king d2 e2 f2 f1 and O-O: 37. coregal: 37.
  auto e = catalogue_at("coregal", "4k3/8/8/8/8/8/8/R2QK2R w KQ - 0 1");
  EXPECT_EQ(e->perft(1), 37u);
  ASSERT_TRUE(play(*e, "e1g1"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/8/R2Q1RK1 b - - 1 1");
}

TEST(PawnsSpartan, DupleCheck) {
  // Black's two kings: the rook a1 attacks a8 alone, which is no check; either king may
  // move, a8 even along the attacked file (h8 stays safe): a7 b7 b8, g7 g8 h7: 6.
  // spartan: 6.
  auto two = catalogue_at("spartan", "k6k/8/8/8/8/8/8/R3K3 b - - 0 1");
  EXPECT_FALSE(two->side_in_check());
  EXPECT_EQ(two->perft(1), 6u);
  // One king left: it is royal as usual (b7 b8; a7 stays attacked): 2. spartan: 2.
  auto one = catalogue_at("spartan", "k7/8/8/8/8/8/8/R3K3 b - - 0 1");
  EXPECT_TRUE(one->side_in_check());
  EXPECT_EQ(one->perft(1), 2u);
}

TEST(PawnsPromotion, MisuseIsLocated) {
  const std::string head = "ruleset r\nboard 8 x 8\npiece king K { betza \"K\"; royal }\n";
  const std::string tail =
      "setup \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"\nturn { action move }\nlegal { royal-safe }\n"
      "end { checkmate -> loss; stalemate -> draw }\n";
  // `promotion optional` without a `promote on rank` of the same piece.
  const std::string opt =
      ruleset_errors(head + "piece pawn P { betza \"fmW\"; promotion optional }\n" + tail);
  EXPECT_NE(opt.find("r.rules:4:29: error: `promotion optional`"), std::string::npos) << opt;
  // `promotion-squares` naming no region.
  const std::string sq =
      ruleset_errors(head +
                     "piece pawn P { betza \"fmW\"; promote on rank 8 to K; promotion-squares "
                     "nowhere }\n" +
                     tail);
  EXPECT_NE(sq.find("r.rules:4:"), std::string::npos) << sq;
  EXPECT_NE(sq.find("nowhere"), std::string::npos) << sq;
  // `promotion-limit 0` is out of range.
  const std::string lim = ruleset_errors(head + "piece pawn P { betza \"fmW\"; promotion-limit 0 }\n" + tail);
  EXPECT_NE(lim.find("r.rules:4:"), std::string::npos) << lim;
}

}  // namespace
