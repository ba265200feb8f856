// Hands filled by captures and drops (issue 24): `captures-to-hand` (a captured piece joins
// the captor's reserve, a promoted one demoted, or kept with `keep-promoted`), promoted
// marks in Fairy-Stockfish's FEN (`Q~`), drop ranks from `forbidden`, and the `drop`
// restrictions `unique-on-file` (nifu) and `no-mate` (uchifuzume). Counts are derived by
// hand in the comments; those marked FSF were also counted by fairy-stockfish.wasm 1.1.12.
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

// A small drop game: kings, a bishop, pawns; pawn drops restricted as the test asks.
std::string drop_game(const std::string& pawn_extra, const std::string& top_extra = "captures-to-hand") {
  return R"(ruleset dropper
board 8 x 8
piece king K { betza "K"; royal }
piece bishop B { betza "B" }
piece pawn P {
  betza "fmWfcF"
  forbidden ranks 1
  promote on rank 8 to B
  )" + pawn_extra +
         R"(
}
)" + top_extra +
         R"(
setup "4k3/pppppppp/8/8/8/8/PPPPPPPP/2B1KB2[] w - - 0 1"
turn { action move or place }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)";
}

std::unique_ptr<arb::Engine> dropper(const std::string& pawn_extra, const std::string& fen) {
  arb::lang::Diagnostics diags;
  auto c = compile_text("dropper", drop_game(pawn_extra), diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  if (!c.program) return nullptr;
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position(fen);
  return e;
}

std::string errors_of(const std::string& text) {
  arb::lang::Diagnostics diags;
  auto c = compile_text("bad", text, diags);
  EXPECT_EQ(c.program, nullptr);
  return diags.render();
}

// ---- the hand filled by captures --------------------------------------------------------

// Black's queen on d2 was a pawn (`q~`). White: Kf1 or Kxd2 (d1, e2 and f2 are attacked) = 2.
// Kxd2 puts a pawn in White's hand (crazyhouse demotes), a queen in loop chess (kept).
TEST(Drops, CaptureFillsTheHandDemoted) {
  auto e = compiled_at("fsf/crazyhouse", "4k3/8/8/8/8/8/3q~4/4K3[] w - - 0 1");
  EXPECT_EQ(e->perft(1), 2u);
  ASSERT_TRUE(play(*e, "e1d2"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/3K4/8[P] b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/3q~4/4K3[] w - - 0 1");
  e->set_position("4k3/8/8/8/8/8/3q~4/4K3[] w - - 0 1");
  EXPECT_EQ(e->perft(3), 347u);  // FSF

  auto loop = compiled_at("fsf/loop", "4k3/8/8/8/8/8/3q4/4K3[] w - - 0 1");
  ASSERT_TRUE(play(*loop, "e1d2"));
  EXPECT_EQ(loop->position(), "4k3/8/8/8/8/8/3K4/8[Q] b - - 0 1");
  loop->set_position("4k3/8/8/8/8/8/3q4/4K3[] w - - 0 1");
  EXPECT_EQ(loop->perft(3), 425u);  // FSF: the queen drops where crazyhouse drops a pawn
}

// An unpromoted capture joins the hand as it stands; the hash follows the hand.
TEST(Drops, CaptureOfAnUnpromotedPiece) {
  auto e = compiled_at("fsf/crazyhouse", "4k3/8/8/8/8/8/3q4/4K3[] w - - 0 1");
  const uint64_t before = e->hash();
  ASSERT_TRUE(play(*e, "e1d2"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/3K4/8[Q] b - - 0 1");
  auto fresh = compiled_at("fsf/crazyhouse", "4k3/8/8/8/8/8/3K4/8[Q] b - - 0 1");
  EXPECT_EQ(e->hash(), fresh->hash());
  e->undo();
  EXPECT_EQ(e->hash(), before);
}

// A promotion marks the piece; it keeps the mark when it moves, loses it when captured.
TEST(Drops, PromotionMarksThePiece) {
  auto e = compiled_at("fsf/crazyhouse", "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
  ASSERT_TRUE(play(*e, "b7b8q"));
  EXPECT_EQ(e->position(), "1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");  // as FSF prints it
  ASSERT_TRUE(play(*e, "e8e7"));
  ASSERT_TRUE(play(*e, "b8b4"));
  EXPECT_EQ(e->position(), "8/4k3/8/8/1Q~6/8/8/4K3[] b - - 2 2");
  e->undo();
  e->undo();
  e->undo();
  EXPECT_EQ(e->position(), "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
  // Loop chess marks nothing, and refuses a mark.
  auto loop = compiled_at("fsf/loop", "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
  ASSERT_TRUE(play(*loop, "b7b8q"));
  EXPECT_EQ(loop->position(), "1Q2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
  EXPECT_THROW(loop->set_position("1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1"), arb::PositionError);
  // Chess tracks no promotions: a mark is a located error, as is a mark on nothing.
  auto chess = compiled_engine("chess");
  EXPECT_THROW(chess->set_position("1Q~2k3/8/8/8/8/8/8/4K3 b - - 0 1"), arb::PositionError);
  EXPECT_THROW(e->set_position("~Q3k3/8/8/8/8/8/8/4K3[] b - - 0 1"), arb::PositionError);
}

// FSF's FEN is read and written as is: every position of the crazyhouse-family suites, and
// marked ones.
TEST(Drops, FsfFenRoundTrip) {
  for (const std::string v : {"crazyhouse", "loop", "chessgi", "pocketknight", "capahouse"}) {
    auto e = compiled_engine("fsf/" + v);
    for (const arb::PerftCase& pc : arb::read_perft_suite(corpus_path("fsf/" + v + ".perft"))) {
      e->set_position(pc.position);
      EXPECT_EQ(e->position(), pc.position) << v << " " << pc.id;
    }
  }
  auto e = compiled_engine("fsf/crazyhouse");
  for (const std::string fen : {"rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3",
                                "r1bqk2r/pppp1ppp/2n2n2/4p3/1b2P3/8/PPPP1PPP/R1BQK1NR[Nb] w KQkq - 0 1",
                                "4k3/8/8/8/8/8/3q~4/4K3[] w - - 0 1", "1Q~2k3/8/8/8/8/8/8/4K3[] b - - 0 1"}) {
    e->set_position(fen);
    EXPECT_EQ(e->position(), fen);
  }
  // More of a type than the start holds, promoted ones counted as pawns, is refused.
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/3q4/4K3[QQ] w - - 0 1"), arb::PositionError);
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/4K3[PPPPPPPPPPPPPPPPP] w - - 0 1"), arb::PositionError);
}

// ---- drops ------------------------------------------------------------------------------

// A pawn in hand: never on rank 1 (`forbidden`) nor 8 (it would have to promote): 48 empty
// squares on ranks 2..7, plus 5 king steps = 53. Chessgi's pawn has no `forbidden` rank: 7
// more on rank 1.
TEST(Drops, PawnDropRanks) {
  EXPECT_EQ(compiled_at("fsf/crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")->perft(1), 53u);
  EXPECT_EQ(compiled_at("fsf/chessgi", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1")->perft(1), 60u);
  // A knight drops anywhere empty: 62 + 5.
  EXPECT_EQ(compiled_at("fsf/crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")->perft(1), 67u);
  // In check, a drop must block: the rook a1 checks the king h1 along rank 1: drops on b1..g1 (a knight: 6),
  // king steps g2, h2 = 8.
  EXPECT_EQ(compiled_at("fsf/crazyhouse", "4k3/8/8/8/8/8/8/r6K[N] w - - 0 1")->perft(1), 8u);
}

// `drop unique-on-file` (nifu): with a pawn on e2, the e-file takes no pawn drop: 47 empty
// squares on ranks 2..7 less e3..e7 = 42, plus the pawn's step e3 and the king's d1 d2 f1
// f2: 42 + 1 + 4 = 47; without the rule 52.
TEST(Drops, UniqueOnFile) {
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3[P] w - - 0 1";
  EXPECT_EQ(dropper("", fen)->perft(1), 52u);
  EXPECT_EQ(dropper("drop unique-on-file", fen)->perft(1), 47u);
  // A pawn of the other colour does not count: 47 drops (e5 taken) and 5 king steps.
  EXPECT_EQ(dropper("drop unique-on-file", "4k3/8/8/4p3/8/8/8/4K3[P] w - - 0 1")->perft(1), 52u);
}

// `drop no-mate` (uchifuzume): P@b7 mates the king a8 (a7 and b7 are covered by the king
// b6, the bishop b8 cannot take on b7). White: 47 pawn drops, king a5 b5 c5 a6 c6 = 52;
// without P@b7, 51. A pawn drop that checks without mating stays legal.
TEST(Drops, NoMateByDrop) {
  const std::string fen = "kb6/8/1K6/8/8/8/8/8[P] w - - 0 1";
  auto free = dropper("", fen);
  EXPECT_EQ(free->perft(1), 52u);
  ASSERT_TRUE(play(*free, "P@b7"));
  EXPECT_EQ(free->status().end, arb::Termination::Checkmate);
  auto rule = dropper("drop no-mate", fen);
  EXPECT_EQ(rule->perft(1), 51u);
  EXPECT_THROW(find_action(*rule, "P@b7"), std::runtime_error);
  // Without the bishop the king escapes to b8: P@b7 is check, not mate, and legal.
  auto escape = dropper("drop no-mate", "k7/8/1K6/8/8/8/8/8[P] w - - 0 1");
  EXPECT_NO_THROW(find_action(*escape, "P@b7"));
}

// ---- located errors ------------------------------------------------------------------

TEST(Drops, MisuseIsALocatedError) {
  // `drop` without placements.
  std::string text = drop_game("drop unique-on-file");
  text.replace(text.find("action move or place"), 20, "action move");
  std::string err = errors_of(text);
  EXPECT_NE(err.find("bad.rules:9:3: error: `drop` restricts placements"), std::string::npos) << err;
  // A hand no action empties.
  text = drop_game("");
  text.replace(text.find("action move or place"), 20, "action move");
  err = errors_of(text);
  EXPECT_NE(err.find("bad.rules:11:1: error: `captures-to-hand` fills a reserve"), std::string::npos) << err;
  // Two types promoting to the same one: a captured one has no single base.
  text = drop_game("");
  text.replace(text.find("piece bishop B"), 14,
               "piece knight N { betza \"N\"; promote on rank 8 to B }\npiece bishop B");
  err = errors_of(text);
  EXPECT_NE(err.find("no single base"), std::string::npos) << err;
  // An unknown flag: the construct's schema.
  err = errors_of(drop_game("drop unique-on-rank"));
  EXPECT_NE(err.find("bad.rules:9:8"), std::string::npos) << err;
}

}  // namespace
