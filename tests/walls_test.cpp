// Issue 24's wall squares on the bitboard back end: `walls` (FEN `*`: blocks every move,
// never captured), `walls placed arrow|duck|past|static|edge [in REGION]` (every move places
// a wall, Fairy-Stockfish's `e2e4,e4e5`) and `petrify` (a capturer turns into a wall). Each
// count is by hand (the reasoning beside it); the catalogue suites (corpus/fsf/*.perft,
// fsf_catalogue_test) check the same rulesets against Fairy-Stockfish from the start and
// random positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "arbiter/notation.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;

std::vector<std::string> uci_texts(arb::Engine& e) {
  std::vector<arb::Action> acts;
  e.legal_actions(acts);
  std::vector<std::string> out;
  for (const arb::Action& a : acts) out.push_back(arb::uci(e.describe(a), e.chess960()));
  return out;
}

const std::string kRook = R"(ruleset r
board 8 x 8
walls
piece king K { betza "K"; royal }
piece rook R { betza "R" }
piece knight N { betza "N" }
castling none
setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)";

TEST(Walls, BlockRidersAndLeapsAndAreNeverCaptured) {
  // Rook a1, wall d1: b1 c1 and a2..a8 (9); king h1: g1 g2 h2 (3).
  auto e = ruleset_at(kRook, "7k/8/8/8/8/8/8/R2*3K w - - 0 1");
  EXPECT_EQ(e->perft(1), 12u);
  EXPECT_EQ(e->position(), "7k/8/8/8/8/8/8/R2*3K w - - 0 1");
  // Knight b1 beside walls c3 and d2: only a3 (a wall is no target); king h1: 3.
  e->set_position("7k/8/8/8/8/2*5/3*4/1N5K w - - 0 1");
  EXPECT_EQ(e->perft(1), 4u);
  // A wall between the rook a8 and the king h8 shields it: no check, the king has g8 g7 h7.
  e->set_position("R2*3k/8/8/8/8/8/8/7K b - - 0 1");
  EXPECT_EQ(e->perft(1), 3u);
  // Without the wall the king is in check along rank 8: g7 h7 only.
  e->set_position("R6k/8/8/8/8/8/8/7K b - - 0 1");
  EXPECT_EQ(e->perft(1), 2u);
}

TEST(Walls, PositionTextNeedsTheConstruct) {
  // A ruleset without `walls` reads no `*`.
  auto e = compiled_engine("chess");
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/3*K3 w - - 0 1"), arb::PositionError);
}

TEST(Walls, Gustav3AndOmicronStarts) {
  // gustav3: 8 pawns x 2; knights c1 (b3 d3) and h1 (g3 i3); the amazons' knight leaps
  // a1-b3 and j1-i3 (their rides stop at the walls a2 j2, the rooks and the pawns):
  // 16 + 4 + 2 = 22 (Fairy-Stockfish: 22).
  auto e = catalogue_at("gustav3", "start");
  EXPECT_EQ(e->perft(1), 22u);
  EXPECT_EQ(e->position(), "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1");
  // omicron: 10 pawns x 2; knights d2 (c4 e4) and i2 (h4 j4); champions b2 (b4 d4) and
  // k2 (k4 i4), their steps blocked by walls and own pieces; wizards a1 and l1 one camel
  // leap each (b4, k4): 20 + 4 + 4 + 2 = 30 (Fairy-Stockfish: 30).
  e = catalogue_at("omicron", "start");
  EXPECT_EQ(e->perft(1), 30u);
}

TEST(Walls, TroitzkyPromotesWhereItsFileEnds) {
  // The pawn a5 steps to a6, where the a-file ends (walls above): it must promote, to
  // Q R B N (4); the king e1 has f1 d2 e2 f2 (d1 is a wall): 8 (Fairy-Stockfish: 8).
  auto e = catalogue_at("troitzky", "****1k****/**6**/*8*/*8*/10/P9/10/*8*/**6**/****K1**** w - - 0 1");
  EXPECT_EQ(e->perft(1), 8u);
  // From b5 the pawn steps to b6, no promotion square (b8 is): 1 + 4 (Fairy-Stockfish: 5).
  e->set_position("****1k****/**6**/*8*/*8*/10/1P8/10/*8*/**6**/****K1**** w - - 0 1");
  EXPECT_EQ(e->perft(1), 5u);
}

TEST(WallsPlaced, DuckMovesToAnyOtherEmptySquare) {
  // From the start: 20 moves, each with the duck on one of the 32 empty squares: 640.
  auto e = catalogue_at("duck", "start");
  EXPECT_EQ(e->perft(1), 640u);
  // The duck on e4: the e-pawn only steps to e3 (19 moves), and the duck must move: 31
  // empty squares remain for it (e4 is not one): 19 x 31.
  e->set_position("rnbqkbnr/pppppppp/8/8/4*3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(e->perft(1), 19u * 31u);
  // The turn as Fairy-Stockfish writes it, applied and undone.
  auto texts = uci_texts(*e);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "e2e3,e3e5"), texts.end());
  EXPECT_EQ(std::find(texts.begin(), texts.end(), "e2e3,e3e4"), texts.end());  // the duck stays: no
  auto a = arb::parse_action(*e, "e2e3,e3e5");
  ASSERT_TRUE(a.has_value());
  const std::string before = e->position();
  const uint64_t hash = e->hash();
  e->apply(*a);
  EXPECT_EQ(e->position(), "rnbqkbnr/pppppppp/8/4*3/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), before);
  EXPECT_EQ(e->hash(), hash);
}

TEST(WallsPlaced, DuckWithCastling) {
  // Castling frees the king's and the rook's squares for the duck and takes the two it
  // lands on; written as the king's move (`e1g1,g1b1`). Perft 2 as current Fairy-Stockfish
  // (npm 1.1.12) counts it: 1,940,435.
  auto e = catalogue_at("duck", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  auto texts = uci_texts(*e);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "e1g1,g1e1"), texts.end());  // the king's square
  EXPECT_NE(std::find(texts.begin(), texts.end(), "e1g1,g1h1"), texts.end());  // the rook's square
  EXPECT_EQ(std::find(texts.begin(), texts.end(), "e1g1,g1f1"), texts.end());  // the rook stands there
  EXPECT_EQ(e->perft(2), 1940435u);
}

TEST(WallsPlaced, DuckOnThePassedSquareLeavesNoEnPassant) {
  // After d7d5 with the duck on d6 the white pawn e5 cannot take en passant.
  auto e = catalogue_at("duck", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
  auto a = arb::parse_action(*e, "d7d5,d5d6");
  ASSERT_TRUE(a.has_value());
  e->apply(*a);
  EXPECT_EQ(e->position(), "4k3/8/3*4/3pP3/8/8/8/4K3 w - - 0 2");
  e->undo();
  a = arb::parse_action(*e, "d7d5,d5a6");
  ASSERT_TRUE(a.has_value());
  e->apply(*a);
  EXPECT_EQ(e->position(), "4k3/8/*7/3pP3/8/8/8/4K3 w - d6 0 2");
}

TEST(WallsPlaced, ArrowAlongTheAmazonsLines) {
  // An amazon a1 under a walled rank 2 moves to b1..j1 (9); its arrow flies along rank 1 to
  // each empty square but its own, a1 included: 9 each.
  auto e = catalogue_at("amazons", "10/10/10/10/10/10/10/10/**********/Q9 w - - 0 1");
  EXPECT_EQ(e->perft(1), 81u);
  auto texts = uci_texts(*e);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "a1d1,d1a1"), texts.end());
}

TEST(WallsPlaced, PastAndStatic) {
  // snailtrail: the snail a1 steps to a2 b1 b2, leaving a wall on a1; then Black's g7 has 3.
  auto e = catalogue_at("snailtrail", "start");
  EXPECT_EQ(e->perft(1), 3u);
  EXPECT_EQ(e->perft(2), 9u);
  auto a = arb::parse_action(*e, "a1b2,b2a1");
  ASSERT_TRUE(a.has_value());
  e->apply(*a);
  EXPECT_EQ(e->position(), "6p/7/7/7/7/1P5/*6 b - - 1 1");
  // isolation: the token c1 has 5 steps; 46 squares are empty after each, of which c1 may
  // take no wall: 5 x 45.
  EXPECT_EQ(catalogue_at("isolation", "start")->perft(1), 225u);
}

TEST(WallsPlaced, EdgeOnTheRimOrBesideAWall) {
  const std::string edge = R"(ruleset r
board 4 x 4
walls placed edge
piece token P { betza "mK" }
castling none
setup "3p/4/4/P3 w - - 0 1"
turn { action move }
legal { }
end { stalemate -> loss }
)";
  // The token a1 steps to a2, b1 (each leaves 10 empty rim squares: 12 less its own and
  // d4's) or b2 (11: b2 is inside): 31.
  auto e = ruleset_at(edge, "start");
  EXPECT_EQ(e->perft(1), 31u);
  // A wall on b2 blocks that step and opens b3 and c2 beside it: a2 and b1, 10 + 2 each.
  e->set_position("3p/4/1*2/P3 w - - 0 1");
  EXPECT_EQ(e->perft(1), 24u);
}

TEST(WallsPlaced, MisuseIsALocatedError) {
  const std::string base = R"(ruleset r
board 8 x 8
piece king K { betza "K"; royal }
castling none
setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
turn { action move }
end { checkmate -> loss; stalemate -> draw }
)";
  // Placed walls with royal safety: a wall could block a check.
  std::string err = ruleset_errors(base + "legal { royal-safe }\nwalls placed duck\n");
  EXPECT_NE(err.find("r.rules:9:14"), std::string::npos) << err;
  EXPECT_NE(err.find("`walls placed` with `royal-safe`"), std::string::npos) << err;
  // `in` without `placed`.
  err = ruleset_errors(base + "legal { }\nregion z a1-b2\nwalls in z\n");
  EXPECT_NE(err.find("r.rules:10:10"), std::string::npos) << err;
  // A misspelt rule: the schema's choices as the hint.
  err = ruleset_errors(base + "legal { }\nwalls placed arow\n");
  EXPECT_NE(err.find("r.rules:9:14"), std::string::npos) << err;
  // `petrify` on a royal piece.
  err = ruleset_errors(R"(ruleset r
board 8 x 8
piece king K { betza "K"; royal; petrify }
castling none
setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)");
  EXPECT_NE(err.find("r.rules:3:34"), std::string::npos) << err;
  EXPECT_NE(err.find("`petrify` on a royal piece"), std::string::npos) << err;
}

const std::string kPetrify = R"(ruleset r
board 8 x 8
piece king K { betza "K"; royal; captures none }
piece rook R { betza "R"; petrify }
piece pawn P { betza "fmWfcF"; promote on rank 8 to R }
castling none
setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)";

TEST(Petrify, TheCapturerBecomesAWall) {
  // Rxa7 leaves a wall on a7 and no rook: Black's king a8 then has b8 b7 (a7 is a wall).
  auto e = ruleset_at(kPetrify, "k7/p7/8/8/8/8/8/R6K w - - 0 1");
  auto a = arb::parse_action(*e, "a1a7");
  ASSERT_TRUE(a.has_value());
  const uint64_t hash = e->hash();
  e->apply(*a);
  EXPECT_EQ(e->position(), "k7/*7/8/8/8/8/8/7K b - - 0 1");
  EXPECT_EQ(e->perft(1), 2u);
  e->undo();
  EXPECT_EQ(e->position(), "k7/p7/8/8/8/8/8/R6K w - - 0 1");
  EXPECT_EQ(e->hash(), hash);
  // The rook's 7 quiet moves up to a6 and b1..g1, and the capture; the king h1: g1 g2 h2;
  // after the capture the wall still blocks the file: perft 2 counts Black's replies, the
  // king a8 with b8 b7 after Rxa7 (2), else the king's 3 minus checked squares.
  e->set_position("k7/p7/8/8/8/8/8/R6K w - - 0 1");
  EXPECT_EQ(e->perft(1), 5u + 6u + 1u + 3u);
  // A pawn capture petrifies nothing (the pawn is no `petrify` piece).
  e->set_position("k7/8/8/8/8/8/1p6/R6K b - - 0 1");
  a = arb::parse_action(*e, "b2a1r");
  ASSERT_TRUE(a.has_value());
  e->apply(*a);
  EXPECT_EQ(e->position(), "k7/8/8/8/8/8/8/r6K w - - 0 2");
}

}  // namespace
