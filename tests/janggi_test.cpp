// Janggi's primitives on the bitboard back end (issue 24), each general: `region-betza ...
// to` with riders and hoppers (moves along the palace's diagonal lines), the lame (2,3)
// leap `nZ`, `hops-not-over` and `never-captures` (the janggi cannon), the turn's `pass`,
// the ends `double-pass` and `royals-facing` (bikjang) and `counting`. Each count is by
// hand; each was also counted by current Fairy-Stockfish (npm fairy-stockfish-nnue.wasm
// 1.1.12) in the variant named, which agrees. The catalogue suites (corpus/fsf/janggi*.perft,
// fsf_catalogue_test) check the rulesets from the start and random positions.
#include <gtest/gtest.h>

#include <string>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;

TEST(JanggiPalace, KingOnTheLines) {
  // The king on e2, the palace's centre: e1 e3 d2 f2, the diagonals d1 f1 d3 f3, and the
  // pass: 9. janggicasual: 9.
  EXPECT_EQ(catalogue_at("janggicasual", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1")->perft(1), 9u);
  // On f1, a corner, with a rook on d3, another corner: the king f2 e1 and the diagonal e2
  // (3); the rook d4-d10 (7), d2 d1 (2), a3-c3 (3), e3-i3 (5) and the diagonal e2, not f1
  // (its own king): 18; the pass: 22. janggicasual: 22.
  EXPECT_EQ(catalogue_at("janggicasual", "4k4/9/9/9/9/9/9/3R5/9/5K3 w - - 0 1")->perft(1), 22u);
}

TEST(JanggiPalace, CannonAndSoldierOnTheLines) {
  // Cannon d3 jumps the soldier e2 along the diagonal to f1 (no orthogonal screen): 1; the
  // soldier e2: e3 d2 f2 and the forward diagonal f3 (d3 is its own cannon): 4; the king e1:
  // d1 f1: 2; the pass: 8. janggicasual: 8.
  EXPECT_EQ(catalogue_at("janggicasual", "3k5/9/9/9/9/9/9/3C5/4P4/4K4 w - - 0 1")->perft(1), 8u);
}

TEST(JanggiCannon, ScreenAndVictim) {
  // Cannon a1 over the soldier a4: a5 a6 and takes the horse a7 (3); the soldier a5 b4 (2);
  // the king e2 (8); the pass: 14. janggicasual: 14.
  EXPECT_EQ(catalogue_at("janggicasual", "5k3/9/9/n8/9/9/P8/9/4K4/C8 w - - 0 1")->perft(1), 14u);
  // A cannon on a7 instead of the horse is never taken: 13. janggicasual: 13.
  EXPECT_EQ(catalogue_at("janggicasual", "5k3/9/9/c8/9/9/P8/9/4K4/C8 w - - 0 1")->perft(1), 13u);
  // A cannon on a4 is no screen: a1 has no move; a4 jumps the horse a7 to a8 a9 a10 and not
  // down over a1 (3); the king (8), the pass: 12. janggicasual: 12.
  EXPECT_EQ(catalogue_at("janggicasual", "5k3/9/9/n8/9/9/C8/9/4K4/C8 w - - 0 1")->perft(1), 12u);
}

TEST(JanggiElephant, LameZebra) {
  // Elephant e5: the eight (2,3) leaps but c8 and g8, which pass e6 (the own soldier): 6;
  // the soldier e7 d6 f6 (3); the king f1: f2 e1 e2 (3); the pass: 13. janggicasual: 13.
  EXPECT_EQ(catalogue_at("janggicasual", "3k5/9/9/9/4P4/4B4/9/9/9/5K3 w - - 0 1")->perft(1), 13u);
}

TEST(JanggiPass, NotInCheckAndHowItIsWritten) {
  // The rook e9 checks the king e2: d2 f2 d1 f1 d3 f3, and no pass: 6. janggicasual: 6.
  EXPECT_EQ(catalogue_at("janggicasual", "4k4/4r4/9/9/9/9/9/9/4K4/9 w - - 0 1")->perft(1), 6u);
  auto e = catalogue_at("janggicasual", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
  const auto texts = legal_texts(*e);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "e2e2"), texts.end());  // FSF's form of the pass
}

TEST(JanggiPass, TwoPassesEndTheGame) {
  auto e = catalogue_at("janggicasual", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
  e->apply(find_action(*e, "e2e2"));
  EXPECT_EQ(e->status().end, arb::Termination::None);
  e->apply(find_action(*e, "d10d10"));
  EXPECT_EQ(e->perft(1), 0u);
  EXPECT_EQ(e->status().end, arb::Termination::DoublePass);
  EXPECT_EQ(e->status().result, arb::Result::Draw);
  e->undo();
  // Back to Black after one pass: the king d10 (a corner) d9 e10, the diagonal e9, the pass: 4.
  EXPECT_EQ(e->perft(1), 4u);
}

TEST(JanggiCounting, DecidesTheCountedEnds) {
  // janggi counts: a rook (13) against nothing is a White win after two passes; bare kings
  // (0 against 0, White needs 2 more) are Black's.
  auto e = catalogue_at("janggi", "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1");
  e->apply(find_action(*e, "e2e2"));
  e->apply(find_action(*e, "d10d10"));
  EXPECT_EQ(e->status().end, arb::Termination::DoublePass);
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  auto bare = catalogue_at("janggi", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
  bare->apply(find_action(*bare, "e2e2"));
  bare->apply(find_action(*bare, "d10d10"));
  EXPECT_EQ(bare->status().result, arb::Result::BlackWins);
}

TEST(JanggiBikjang, BreakOrPass) {
  // Kings e2 and e9 face on the open e-file: White must break it (d2 f2 d1 f1 d3 f3, not e1
  // e3) or pass: 7; after the pass the game is over; after each of the six, Black's king
  // has its eight steps and the pass: 6 x 9 = 54. janggi: 7, 54. janggicasual: 9.
  const std::string fen = "9/4k4/9/9/9/9/9/9/4K4/9 w - - 0 1";
  EXPECT_EQ(catalogue_at("janggi", fen)->perft(1), 7u);
  EXPECT_EQ(catalogue_at("janggi", fen)->perft(2), 54u);
  EXPECT_EQ(catalogue_at("janggicasual", fen)->perft(1), 9u);
  auto e = catalogue_at("janggitraditional", fen);
  e->apply(find_action(*e, "e2e2"));
  EXPECT_EQ(e->status().end, arb::Termination::RoyalsFacing);
  EXPECT_EQ(e->status().result, arb::Result::Draw);
}

TEST(PathFastPath, ArrivingScreenIsTested) {
  // Hoppers on the fast path (path_exposure): only actions entering or leaving a square a
  // cannon's walk to the king depends on are tested in full. The rook d4 may not step onto
  // e4, where it would screen the cannon e8's check on the king e1: d5-d10 (6), d1-d3 (3),
  // a4-c4 (3), f4-i4 (4); the king d1 e2 (f1 faces the general f10): 18. xiangqi: 18.
  EXPECT_EQ(catalogue_at("xiangqi", "5k3/9/4c4/9/9/9/3R5/9/9/4K4 w - - 0 1")->perft(1), 18u);
}

const std::string kHead = R"(ruleset r
board 9 x 10
region palace d1-f3 mirrored
region lines d1 f1 e2 d3 f3 d8 f8 e9 d10 f10
piece king K { betza "W"; royal; confined palace }
)";
const std::string kTail = R"(castling none
setup "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
legal { royal-safe }
)";

TEST(JanggiErrors, Located) {
  // A screen rule on a piece that never hops.
  std::string r = ruleset_errors(kHead + "piece rook R { betza \"R\"; hops-not-over C }\n" + kTail +
                                 "turn { action move }\nend { checkmate -> loss; no-legal-move -> loss }\n");
  EXPECT_NE(r.find("r.rules:6:"), std::string::npos) << r;
  EXPECT_NE(r.find("never hops"), std::string::npos) << r;
  // A letter no piece has.
  r = ruleset_errors(kHead + "piece cannon C { betza \"pR\"; never-captures X }\n" + kTail +
                     "turn { action move }\nend { checkmate -> loss; no-legal-move -> loss }\n");
  EXPECT_NE(r.find("no compiled piece has the letter `X`"), std::string::npos) << r;
  // `-> counting` without `counting`.
  r = ruleset_errors(
      kHead + kTail +
      "turn { action move; pass }\nend { checkmate -> loss; no-legal-move -> loss; double-pass -> "
      "counting }\n");
  EXPECT_NE(r.find("needs a `counting white-needs N`"), std::string::npos) << r;
  // An end on a pass without `pass` in the turn.
  r = ruleset_errors(
      kHead + kTail +
      "turn { action move }\nend { checkmate -> loss; no-legal-move -> loss; royals-facing -> draw }\n");
  EXPECT_NE(r.find("the turn has no `pass`"), std::string::npos) << r;
  // region-betza still refuses lame leaps, at the Betza.
  r = ruleset_errors(kHead + "piece horse N { betza \"W\"; region-betza \"nN\" from lines to lines }\n" +
                     kTail + "turn { action move }\nend { checkmate -> loss; no-legal-move -> loss }\n");
  EXPECT_NE(r.find("r.rules:6:"), std::string::npos) << r;
  EXPECT_NE(r.find("not executable yet"), std::string::npos) << r;
}

}  // namespace
