// Shogi-style promotion (issue 24): `promotes-to LETTER in REGION [optional]` (a move that
// starts or ends in the zone may promote; optional except where the piece would have no
// move; mandatory without `optional`), promoted types written `+P` (`captures-to-hand
// plus-marks`) and returned demoted to the hand. Counts are derived by hand in the comments;
// those marked FSF were also counted by fairy-stockfish.wasm 1.1.12.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "arbiter/perft_suite.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;
namespace fs = std::filesystem;

std::string errors_of(const std::string& text) {
  fs::path dir = fs::temp_directory_path() / ("arbiter-shogi-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path file = dir / "bad.rules";
  std::ofstream(file) << text;
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(file.string(), {}, diags);
  EXPECT_EQ(c.program, nullptr);
  return diags.render();
}

// A small zone-promotion game; `pawn` and `top` are spliced into the pawn and the top level.
std::string game(const std::string& pawn, const std::string& top = "captures-to-hand plus-marks") {
  return R"(ruleset zoned
board 5 x 5
region camp rank 5 mirrored
piece king K { betza "K"; royal }
piece gold G { betza "WfF" }
piece pawn P {
  betza "fW"
  )" + pawn +
         R"(
}
piece tokin T { betza "WfF" }
)" + top +
         R"(
castling none
setup "4k/5/P4/P4/K4[PP] w - - 0 1"
turn { action move or place }
legal { royal-safe }
end { checkmate -> loss; no-legal-move -> loss }
)";
}

// Silver c4 (minishogi): c5, b5, d5 enter the zone, each promoted or not (6); b3, d3 (2);
// king a1: a2, b1, b2 (3) = 11.
TEST(Shogi, OptionalPromotionEnteringTheZone) {
  auto e = compiled_at("fsf/minishogi", "4k/2S2/5/5/K4[] w - - 0 1");
  EXPECT_EQ(e->perft(1), 11u);
  ASSERT_TRUE(play(*e, "c4c5v"));
  EXPECT_EQ(e->position(), "2+S1k/5/5/5/K4[] b - - 0 1");  // FSF: a promotion resets the clock
  e->undo();
  ASSERT_TRUE(play(*e, "c4c5"));
  EXPECT_EQ(e->position(), "2S1k/5/5/5/K4[] b - - 1 1");
}

// Silver c5, in the zone: b4 and d4 leave it, each promoted or not (4); king 3 = 7 (5 if
// only entering the zone promoted).
TEST(Shogi, PromotionLeavingTheZone) {
  auto e = compiled_at("fsf/minishogi", "2S1k/5/5/5/K4[] w - - 0 1");
  EXPECT_EQ(e->perft(1), 7u);
  ASSERT_TRUE(play(*e, "c5b4v"));
  EXPECT_EQ(e->position(), "4k/1+S3/5/5/K4[] b - - 0 1");  // FSF
}

// Where the piece would have no move the promotion is mandatory: the pawn c4 reaches c5
// promoted only (1) + king 3 = 4. Shogi's knight (ffN): from e5 to d7, f7 (zone, may move
// again: 4); from e6 to d8, f8 (no move from rank 8: promoted only, 2); king e1: 5.
TEST(Shogi, MandatoryWhereImmobile) {
  EXPECT_EQ(compiled_at("fsf/minishogi", "4k/5/5/2P2/K4[] w - - 0 1")->perft(1), 4u);
  EXPECT_EQ(compiled_at("fsf/shogi", "4k4/9/9/9/4N4/9/9/9/4K4[] w - - 0 1")->perft(1), 9u);
  EXPECT_EQ(compiled_at("fsf/shogi", "4k4/9/9/4N4/9/9/9/9/4K4[] w - - 0 1")->perft(1), 7u);
}

// Without `optional` (EuroShogi) every move into, out of or inside the zone promotes: the
// pawn e5 to e6 promoted (1); the rook a6 to a7 a8, b6..h6 and a5..a1, each promoted
// (2 + 7 + 5 = 14); king e1: 5.
TEST(Shogi, MandatoryPromotion) {
  EXPECT_EQ(compiled_at("fsf/euroshogi", "4k3/8/8/4P3/8/8/8/4K3[] w - - 0 1")->perft(1), 6u);
  EXPECT_EQ(compiled_at("fsf/euroshogi", "4k3/8/R7/8/8/8/8/4K3[] w - - 0 1")->perft(1), 19u);
}

// A promoted piece captured returns to the hand as what it promoted from: the tokin b1
// checks the king a1, which takes it or steps to a2 (b2 is covered) = 2.
TEST(Shogi, CapturedPromotedPieceReturnsDemoted) {
  auto e = compiled_at("fsf/minishogi", "4k/5/5/5/K+p3[] w - - 0 1");
  EXPECT_EQ(e->perft(1), 2u);
  const uint64_t before = e->hash();
  ASSERT_TRUE(play(*e, "a1b1"));
  EXPECT_EQ(e->position(), "4k/5/5/5/1K3[P] b - - 0 1");
  EXPECT_EQ(e->hash(), compiled_at("fsf/minishogi", "4k/5/5/5/1K3[P] b - - 0 1")->hash());
  e->undo();
  EXPECT_EQ(e->position(), "4k/5/5/5/K+p3[] w - - 0 1");
  EXPECT_EQ(e->hash(), before);
}

// Drops go where the piece can move again: a pawn on ranks 1..4 (19 empty squares) + king
// 3 = 22; shogi's knight on ranks 1..7 (62) + king 5 = 67.
TEST(Shogi, DropsWhereThePieceCanMove) {
  EXPECT_EQ(compiled_at("fsf/minishogi", "4k/5/5/5/K4[P] w - - 0 1")->perft(1), 22u);
  EXPECT_EQ(compiled_at("fsf/shogi", "4k4/9/9/9/9/9/9/9/4K4[N] w - - 0 1")->perft(1), 67u);
}

// FSF's FEN is read and written as is: every position of the shogi-family suites.
TEST(Shogi, FsfFenRoundTrip) {
  for (const std::string v : {"minishogi", "shogi", "gorogoro", "judkins", "euroshogi"}) {
    auto e = compiled_engine("fsf/" + v);
    for (const arb::PerftCase& pc : arb::read_perft_suite(corpus_path("fsf/" + v + ".perft"))) {
      e->set_position(pc.position);
      EXPECT_EQ(e->position(), pc.position) << v << " " << pc.id;
    }
  }
  auto e = compiled_engine("fsf/minishogi");
  for (const std::string fen :
       {"s1+b1g/p1B1p/4k/1r1r1/K2S1[G] w - - 1 20", "+r+b2k/5/5/5/K+P+S2[] w - - 0 1"}) {
    e->set_position(fen);
    EXPECT_EQ(e->position(), fen);
  }
  // `+G`: gold promotes to nothing; the promoted types' own letters are not FEN; a `+` in a
  // hand or without a letter after it; a `+` where the variant writes no promoted pieces.
  EXPECT_THROW(e->set_position("4k/5/5/5/K+G3[] w - - 0 1"), arb::PositionError);
  EXPECT_THROW(e->set_position("4k/5/5/5/KT3[] w - - 0 1"), arb::PositionError);
  EXPECT_THROW(e->set_position("4k/5/5/5/K4[+P] w - - 0 1"), arb::PositionError);
  EXPECT_THROW(e->set_position("4k/5/5/5/K3+[] w - - 0 1"), arb::PositionError);
  EXPECT_THROW(compiled_at("fsf/crazyhouse", "4k3/8/8/8/8/8/8/+P3K3[] w - - 0 1"), arb::PositionError);
}

// `drop per-file N`: the pawns a3 and a2 fill file a for N = 2: drops on b1..e4 (16), the
// pawn a3 to a4 (1), the king to b1 and b2 (2) = 19; N = 3 admits a4 as well = 20.
TEST(Shogi, DropPerFile) {
  for (const auto& [limit, nodes] : {std::pair{2, 19u}, std::pair{3, 20u}}) {
    fs::path file = fs::temp_directory_path() / ("arbiter-shogi-pf-" + std::to_string(getpid()) + ".rules");
    std::ofstream(file) << game("forbidden ranks 5\n  drop per-file " + std::to_string(limit));
    arb::lang::Diagnostics diags;
    auto c = arb::lang::compile_file(file.string(), {}, diags);
    ASSERT_NE(c.program, nullptr) << diags.render();
    auto e = arb::lang::make_compiled_engine(c.program);
    e->set_position("4k/5/P4/P4/K4[P] w - - 0 1");
    EXPECT_EQ(e->perft(1), nodes) << limit;
  }
}

// ---- located errors ------------------------------------------------------------------

TEST(Shogi, MisuseIsALocatedError) {
  // The game itself compiles.
  {
    arb::lang::Diagnostics diags;
    fs::path file = fs::temp_directory_path() / ("arbiter-shogi-ok-" + std::to_string(getpid()) + ".rules");
    std::ofstream(file) << game("promotes-to T in camp optional");
    auto c = arb::lang::compile_file(file.string(), {}, diags);
    EXPECT_NE(c.program, nullptr) << diags.render();
  }
  std::string err = errors_of(game("promotes-to T in kamp"));
  EXPECT_NE(err.find("bad.rules:8:20: error: unknown region `kamp`"), std::string::npos) << err;
  err = errors_of(game("promotes-to X in camp"));
  EXPECT_NE(err.find("bad.rules:8:"), std::string::npos) << err;
  EXPECT_NE(err.find("no piece has that letter"), std::string::npos) << err;
  err = errors_of(game("promotes-to T G in camp"));
  EXPECT_NE(err.find("bad.rules:8:"), std::string::npos) << err;
  EXPECT_NE(err.find("takes one piece letter"), std::string::npos) << err;
  err = errors_of(game("promotes-to K in camp"));
  EXPECT_NE(err.find("a royal piece"), std::string::npos) << err;
  err = errors_of(game("promotes-to T in camp\n  promote on rank 5 to G"));
  EXPECT_NE(err.find("state one promotion"), std::string::npos) << err;
  err = errors_of(game("promotes-to T in camp", "captures-to-hand keep-promoted plus-marks"));
  EXPECT_NE(err.find("bad.rules:11:1:"), std::string::npos) << err;
}

}  // namespace
