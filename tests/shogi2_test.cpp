// The rest of the shogi family (issue 24): `orientation rotated` (tori shogi), and the
// catalogue rulesets mini, micro, okisakishogi, yarishogi, torishogi, kyotoshogi, dobutsu,
// checkshogi, shoshogi, dragon, placement (rulesets/fsf/, suites in corpus/fsf/, checked by
// fsf_catalogue_test). Counts here are derived by hand in the comments; those marked FSF
// were also counted by fairy-stockfish.wasm 1.1.12.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;

std::unique_ptr<arb::Engine> engine_of(const std::string& text, const std::string& position) {
  arb::lang::Diagnostics diags;
  auto c = compile_text("shogi2", text, diags);
  EXPECT_NE(c.program, nullptr) << diags.render();
  if (!c.program) return nullptr;
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position(position);
  return e;
}

std::string errors_of(const std::string& text) {
  arb::lang::Diagnostics diags;
  auto c = compile_text("bad", text, diags);
  EXPECT_EQ(c.program, nullptr);
  return diags.render();
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A 5x5 game whose only other piece steps forward-right (`frF`); `top` goes at the top level.
std::string lopsided(const std::string& top) {
  return "ruleset lopsided\nboard 5 x 5\n" + top + R"(
piece king K { betza "K"; royal }
piece stepper X { betza "frF" }
castling none
setup "k4/5/2x2/5/4K w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)";
}

// ---- orientation ----------------------------------------------------------------------

// Black's stepper on c3. Mirrored (the default, and `orientation mirrored`), Black's
// forward-right is d2 (White's `fr` seen from Black's side of the middle rank); rotated, it
// is b2 (the board turned round: Black's right is White's left). Black's king a5: a4, b5,
// b4 (3); with the stepper's one move, 4 either way.
TEST(Shogi2Orientation, RotatedTurnsBlacksLeftAndRight) {
  for (const std::string& top : {std::string(""), std::string("orientation mirrored")}) {
    auto e = engine_of(lopsided(top), "k4/5/2x2/5/4K b - - 0 1");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->perft(1), 4u) << top;
    auto moves = legal_texts(*e);
    EXPECT_TRUE(has(moves, "c3d2")) << top;
    EXPECT_FALSE(has(moves, "c3b2")) << top;
  }
  auto e = engine_of(lopsided("orientation rotated"), "k4/5/2x2/5/4K b - - 0 1");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->perft(1), 4u);
  auto moves = legal_texts(*e);
  EXPECT_TRUE(has(moves, "c3b2"));
  EXPECT_FALSE(has(moves, "c3d2"));
  // White's own pieces are untouched: White's stepper c3 goes to d4 (king e1: d1, d2, e2 = 4).
  e->set_position("k4/5/2X2/5/4K w - - 0 1");
  moves = legal_texts(*e);
  EXPECT_TRUE(has(moves, "c3d4"));
  EXPECT_EQ(e->perft(1), 4u);
}

// Attacks follow the rotation: Black's stepper b3 attacks a2 when rotated (its
// forward-right, seen from Black's side turned round), c2 when mirrored; White's king a2 is
// in check only in the first.
TEST(Shogi2Orientation, AttacksAreRotatedToo) {
  auto rotated = engine_of(lopsided("orientation rotated"), "4k/5/1x3/K4/5 w - - 0 1");
  ASSERT_TRUE(rotated);
  EXPECT_TRUE(rotated->side_in_check());
  auto mirrored = engine_of(lopsided(""), "4k/5/1x3/K4/5 w - - 0 1");
  ASSERT_TRUE(mirrored);
  EXPECT_FALSE(mirrored->side_in_check());
}

// Tori shogi (rulesets/fsf/torishogi.rules): Black's left quail alone on d4, the kings on
// g7 (Black) and a1 (White). FSF's `fRrbBlbF` turned round for Black: `fR` down the board
// d3, d2, d1 (3); White's `rbB` runs down-right, so Black's runs up-left: c5, b6, a7 (3);
// White's `lbF` steps down-left, Black's up-right: e5 (1); king g7: f7, g6, f6 (3) = 10
// (FSF 10: the same ten moves).
TEST(Shogi2Orientation, ToriShogiLeftQuail) {
  auto e = compiled_at("fsf/torishogi", "6k/7/7/3l3/7/7/K6[] b - - 0 1");
  EXPECT_EQ(e->perft(1), 10u);
  auto moves = legal_texts(*e);
  EXPECT_TRUE(has(moves, "d4a7"));
  EXPECT_TRUE(has(moves, "d4e5"));
  EXPECT_FALSE(has(moves, "d4f6"));
}

TEST(Shogi2Orientation, MisuseIsALocatedError) {
  std::string err = errors_of(lopsided("orientation turned"));
  EXPECT_NE(err.find("bad.rules:3:13: error:"), std::string::npos) << err;
  EXPECT_NE(err.find("mirrored|rotated"), std::string::npos) << err;
  err = errors_of(lopsided("orientation"));
  EXPECT_NE(err.find("bad.rules:3:1: error:"), std::string::npos) << err;
}

// ---- region-reached ... safe (dobutsu) ---------------------------------------------------

// White's lion on b4, Black's far rank for White is rank 4. Attacked there by the giraffe
// c4, it has not won: Black plays the giraffe c4xb4 or c3 (2) and the lion a2 to a1, b1,
// b2, a3, b3 (5) = 7 (FSF 7). Without the giraffe it stands safe: White has won, nothing
// is played (FSF 0).
TEST(Shogi2Dobutsu, LionOnTheFarRankWinsOnlyUnattacked) {
  auto e = compiled_at("fsf/dobutsu", "1Lg/3/l2/3[] b - - 0 1");
  EXPECT_EQ(e->perft(1), 7u);
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  e->set_position("1L1/3/l2/3[] b - - 0 1");
  EXPECT_EQ(e->perft(1), 0u);
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().end, arb::Termination::RegionReached);
  // Both lions safe on their far ranks: a draw (FSF's flagPieceSafe rule).
  e->set_position("1L1/3/3/1l1[] w - - 0 1");
  EXPECT_EQ(e->status().result, arb::Result::Draw);
}

// The lion captured: the side without it has lost (extinction, the lion counted with the
// hand). Black's lion went to White's hand (`[L]`): White has won (FSF 0).
TEST(Shogi2Dobutsu, CapturedLionLoses) {
  auto e = compiled_at("fsf/dobutsu", "3/1L1/3/3[L] b - - 0 1");
  EXPECT_EQ(e->perft(1), 0u);
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
}

TEST(Shogi2Dobutsu, SafeIsAWordOfRegionReached) {
  const std::string game = R"(ruleset flags
board 3 x 4
region far rank 4 mirrored
piece lion L { betza "K" }
castling none
setup "1l1/3/3/1L1 w - - 0 1"
turn { action move }
legal { }
end {
  no-legal-move -> loss
  region-reached L far WORD -> win
}
)";
  std::string text = game;
  text.replace(text.find("WORD"), 4, "safely");
  std::string err = errors_of(text);
  EXPECT_NE(err.find("bad.rules:11:24: error:"), std::string::npos) << err;
  EXPECT_NE(err.find("[unless-answered|safe|held]"), std::string::npos) << err;
}

// ---- demotes, promotes-to ... capturing, drop promoted (kyoto, micro) ------------------

// Kyoto: the pawn c2 moves only turned over (c2c3, a rook, `+P`), king e1: 3 = 4 (FSF 4);
// the rook then turns back at its next move. Neither resets the clock (a promotion that can be
// undone: Fairy-Stockfish's pieceDemotion).
TEST(Shogi2Kyoto, EveryMoveTurnsThePieceOver) {
  auto e = compiled_at("fsf/kyotoshogi", "k4/5/5/2P2/4K[] w - - 0 1");
  EXPECT_EQ(e->perft(1), 4u);
  ASSERT_TRUE(play(*e, "c2c3r"));
  EXPECT_EQ(e->position(), "k4/5/2+P2/5/4K[] b - - 1 1");
  ASSERT_TRUE(play(*e, "a5a4"));
  // The rook c3: c4, c5, c2, c1, a3, b3, d3, e3 (8), each only turned back to a pawn; king 3.
  EXPECT_EQ(e->perft(1), 11u);
  ASSERT_TRUE(play(*e, "c3c5p"));
  EXPECT_EQ(e->position(), "2P2/k4/5/5/4K[] b - - 3 2");
}

// A pawn in hand drops on the 23 empty squares either side up (46), king e1: 3 = 49 (FSF 49).
TEST(Shogi2Kyoto, DropsEitherSideUp) {
  auto e = compiled_at("fsf/kyotoshogi", "k4/5/5/5/4K[P] w - - 0 1");
  EXPECT_EQ(e->perft(1), 49u);
}

// Micro: only captures turn a piece over. The pawn b2 takes b3 turned over (a knight, 1),
// king d1: c1, c2, d2 (3) = 4 (FSF 4). The turned pawn (`+P`, a knight) b2: a4, c4 quietly,
// unturned (2), king 3 = 5 (FSF 5).
TEST(Shogi2Micro, OnlyCapturesTurnPiecesOver) {
  auto e = compiled_at("fsf/micro", "k3/4/1p2/1P2/3K[] w - - 0 1");
  EXPECT_EQ(e->perft(1), 4u);
  e->set_position("k3/4/1p2/1+P2/3K[] w - - 0 1");
  EXPECT_EQ(e->perft(1), 5u);
  ASSERT_TRUE(play(*e, "b2a4"));
  EXPECT_EQ(e->position(), "k3/+P3/1p2/4/3K[] b - - 1 1");
}

TEST(Shogi2Kyoto, MisuseIsALocatedError) {
  const std::string game = R"(ruleset flips
board 5 x 5
region board ranks 1..5
piece king K { betza "K"; royal }
piece pawn P { betza "fW"; promotes-to R in board; DROP }
piece rook R { betza "R"; DEMOTES }
HAND
castling none
setup "k4/5/5/5/4K[] w - - 0 1"
turn { action move or place }
legal { royal-safe }
end { checkmate -> loss; no-legal-move -> loss }
)";
  auto with = [&](const std::string& drop, const std::string& demotes, const std::string& hand) {
    std::string t = game;
    t.replace(t.find("DROP"), 4, drop);
    t.replace(t.find("DEMOTES"), 7, demotes);
    t.replace(t.find("HAND"), 4, hand);
    return t;
  };
  // The well-formed game compiles.
  {
    arb::lang::Diagnostics diags;
    auto c = compile_text("flips", with("drop promoted", "demotes in board", "captures-to-hand plus-marks"),
                          diags);
    EXPECT_NE(c.program, nullptr) << diags.render();
  }
  std::string err = errors_of(with("drop promoted", "demotes in bord", "captures-to-hand plus-marks"));
  EXPECT_NE(err.find("bad.rules:6:38: error: unknown region `bord`"), std::string::npos) << err;
  // Without hands there is no type to turn back into.
  err = errors_of(with("", "demotes in board", ""));
  EXPECT_NE(err.find("bad.rules:6:27: error: `demotes`: no piece promotes to `R`"), std::string::npos) << err;
  // The king promotes to nothing: `drop promoted` on it is an error at the word.
  err = errors_of(std::string(with("", "demotes in board", "captures-to-hand plus-marks"))
                      .replace(game.find("piece king K { betza \"K\"; royal }"), 33,
                               "piece king K { betza \"K\"; royal; drop promoted }"));
  EXPECT_NE(err.find("bad.rules:4:39: error: `drop promoted`: `K` promotes to no type"), std::string::npos)
      << err;
}

// ---- must-drop, drop opposite-colours, castling by-drop (placement) ----------------------

// Holding a king, White must drop it: b1..h1 (7), the rook a1 may not move (FSF 7). Once
// dropped on e1 beside the rook a1, the king gains the queen-side right (FSF writes `Q`).
TEST(Shogi2Placement, DropsComeFirstAndGainCastlingRights) {
  auto e = compiled_at("fsf/placement", "4k3/8/8/8/8/8/8/R7[K] w - - 0 1");
  EXPECT_EQ(e->perft(1), 7u);
  ASSERT_TRUE(play(*e, "K@e1"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/8/R3K3[] b Q - 0 1");  // FSF
  ASSERT_TRUE(play(*e, "e8d8"));
  // The hand empty, moves are back: the rook a1 (10), the king (5) and castling (1) = 16,
  // as from the same position read with its right (FSF 16).
  EXPECT_EQ(e->perft(1), 16u);
  ASSERT_TRUE(play(*e, "O-O-O"));
  EXPECT_EQ(e->position(), "3k4/8/8/8/8/8/8/2KR4[] b - - 2 2");
  e->set_position("4k3/8/8/8/8/8/8/R3K3[] w Q - 0 1");
  EXPECT_EQ(e->perft(1), 16u);
  // A king dropped elsewhere gains nothing.
  e->set_position("4k3/8/8/8/8/8/8/R7[K] w - - 0 1");
  ASSERT_TRUE(play(*e, "K@d1"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/8/R2K4[] b - - 0 1");
}

// The bishop a1 stands on a dark square: the second goes on a light one, b1, d1, f1, h1 (4);
// the knight anywhere empty, a light square stays free (6) = 10 (FSF 10). With one light
// square left (b1), the bishop goes there (1) and the knight only to c1 or g1 (2) = 3 (FSF 3).
TEST(Shogi2Placement, BishopsOnBothColours) {
  auto e = compiled_at("fsf/placement", "4k3/pppppppp/8/8/8/8/8/B3K3[BN] w - - 0 1");
  EXPECT_EQ(e->perft(1), 10u);
  e->set_position("4k3/pppppppp/8/8/8/8/8/B2QKR1R[BN] w - - 0 1");
  EXPECT_EQ(e->perft(1), 3u);
  auto moves = legal_texts(*e);
  EXPECT_TRUE(has(moves, "B@b1"));
  EXPECT_FALSE(has(moves, "N@b1"));
}

TEST(Shogi2Placement, MisuseIsALocatedError) {
  const std::string game = R"(ruleset drops
board 5 x 5
piece king K { betza "K"; royal }
piece rook R { betza "R" }
castling none
setup "k4/5/5/5/R3K w - - 0 1"
turn { action move }
legal { royal-safe; must-drop }
end { checkmate -> loss; stalemate -> draw }
)";
  std::string err = errors_of(game);
  EXPECT_NE(err.find("bad.rules:8:21: error: `must-drop`: the turn has no drops"), std::string::npos) << err;
  std::string text = game;
  text.replace(text.find("must-drop"), 9, "must-drop now");
  err = errors_of(text);
  EXPECT_NE(err.find("bad.rules:8:31: error:"), std::string::npos) << err;
}

}  // namespace
