// Odd rules of Fairy-Stockfish's catalogue (issue 24) on the bitboard back end:
// `draw-odds` (armageddon), `legal { royal-stays-in-check }` (makpong), `region-reached ...
// held` (jesonmor's flagMove), `captures-to-hand partner` (bughouse: captures leave the
// board), and a game without royal pieces won by reaching a region (fox-and-hounds). Each
// count is by hand; each was also counted by current Fairy-Stockfish (npm
// fairy-stockfish-nnue.wasm 1.1.12) in the variant named beside it, which agrees. The
// catalogue suites (corpus/fsf/*.perft, fsf_catalogue_test) check the same rulesets from
// the start and random positions.
#include <gtest/gtest.h>

#include <string>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;

TEST(MiscDrawOdds, ArmageddonDrawsAreBlacksWins) {
  // Black to move, stalemated by Qf7 and Kg6: chess calls it a draw, armageddon Black's win.
  const std::string stale = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
  const arb::Status chess = catalogue_at("chess", stale)->status();
  EXPECT_EQ(chess.result, arb::Result::Draw);
  const arb::Status st = catalogue_at("armageddon", stale)->status();
  EXPECT_EQ(st.result, arb::Result::BlackWins);
  EXPECT_EQ(st.end, arb::Termination::Stalemate);
  EXPECT_EQ(st.reason, "stalemate, draw odds");
  // Bare kings: a dead position, so Black's win too.
  const arb::Status dead = catalogue_at("armageddon", "8/8/4k3/8/8/4K3/8/8 w - - 0 1")->status();
  EXPECT_EQ(dead.result, arb::Result::BlackWins);
  EXPECT_EQ(dead.end, arb::Termination::InsufficientMaterial);
  // A checkmate is untouched: White mates (Qg7#, Kg6 guarding).
  const arb::Status mate = catalogue_at("armageddon", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")->status();
  EXPECT_EQ(mate.result, arb::Result::WhiteWins);
  EXPECT_EQ(mate.end, arb::Termination::Checkmate);
  // The moves are chess's: perft 3 from the start.
  EXPECT_EQ(catalogue_at("armageddon", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")->perft(3),
            8902u);
}

TEST(MiscDrawOdds, WrongColourIsLocated) {
  const std::string text = R"(ruleset r
board 8 x 8
piece king K { betza "K"; royal }
setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw; draw-odds red }
)";
  const std::string e = ruleset_errors(text);
  EXPECT_NE(e.find("r.rules:7:55: error:"), std::string::npos) << e;
  EXPECT_NE(e.find("red"), std::string::npos) << e;
}

TEST(MiscRoyalInCheck, MakpongKingMovesOnlyToTakeTheChecker) {
  // Rook e2 checks Ke1. Makruk: Kxe2, Kd1, Kf1 (d2 f2 are the rook's): 3. Makpong: the
  // king may only take the checker: 1.
  EXPECT_EQ(catalogue_at("makruk", "k7/8/8/8/8/8/4r3/4K3 w - - 0 1")->perft(1), 3u);
  EXPECT_EQ(catalogue_at("makpong", "k7/8/8/8/8/8/4r3/4K3 w - - 0 1")->perft(1), 1u);
  // Double check by the rook and the knight d3: taking the rook leaves the knight's check
  // (FSF: `checkers() ^ to` not empty): makpong 0, a checkmate; makruk Kxe2 Kd1 Kf1: 3.
  EXPECT_EQ(catalogue_at("makruk", "k7/8/8/8/8/3n4/4r3/4K3 w - - 0 1")->perft(1), 3u);
  auto dbl = catalogue_at("makpong", "k7/8/8/8/8/3n4/4r3/4K3 w - - 0 1");
  EXPECT_EQ(dbl->perft(1), 0u);
  EXPECT_EQ(dbl->status().result, arb::Result::BlackWins);
  EXPECT_EQ(dbl->status().end, arb::Termination::Checkmate);
  // A distant check: the king may not step aside, so it is mate. makruk: 4 king steps.
  EXPECT_EQ(catalogue_at("makruk", "k3r3/8/8/8/8/8/8/4K3 w - - 0 1")->perft(1), 4u);
  EXPECT_EQ(catalogue_at("makpong", "k3r3/8/8/8/8/8/8/4K3 w - - 0 1")->perft(1), 0u);
  // Out of check the king moves as in makruk: Ke1's five steps.
  EXPECT_EQ(catalogue_at("makpong", "k7/8/8/8/8/8/8/4K3 w - - 0 1")->perft(1), 5u);
}

TEST(MiscRoyalInCheck, NeedsARoyalPieceAndIsLocated) {
  const std::string text = R"(ruleset r
board 8 x 8
piece man M { betza "K" }
setup "4m3/8/8/8/8/8/8/4M3 w - - 0 1"
turn { action move }
legal { royal-stays-in-check }
end { no-legal-move -> loss }
)";
  const std::string e = ruleset_errors(text);
  EXPECT_NE(e.find("r.rules:6:9: error: `royal-stays-in-check`"), std::string::npos) << e;
}

TEST(MiscRegionHeld, JesonmorWinsWhenTheKnightStaysOnTheCentre) {
  // White's knight stands on e5 with White to move: it survived Black's reply, White has
  // won and no action is left. jesonmor: 0.
  auto won = catalogue_at("jesonmor", "n8/9/9/9/4N4/9/9/9/N8 w - - 0 1");
  EXPECT_EQ(won->perft(1), 0u);
  EXPECT_EQ(won->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(won->status().end, arb::Termination::RegionReached);
  EXPECT_EQ(won->status().reason, "jesonmor-centre");
  // Black to move may dislodge it: a9's b7 c8 and d7's eight leaps (e5 a capture): 10;
  // only after d7xe5 does White play on, with a1's b3 and c2: 2. jesonmor: 10, 2.
  auto reply = catalogue_at("jesonmor", "n8/9/3n5/9/4N4/9/9/9/N8 b - - 0 1");
  EXPECT_EQ(reply->status().result, arb::Result::Ongoing);
  EXPECT_EQ(reply->perft(1), 10u);
  EXPECT_EQ(reply->perft(2), 2u);
}

TEST(MiscRegionHeld, FoxAndHoundsWithoutRoyalPieces) {
  // The fox g7 steps to h8 (the last rank: won; f8 holds a hound) or f6 h6; after either
  // of these, the hounds b8 d8 f8 step down: a7 c7, c7 e7, e7 g7: 6. fox-and-hounds: 3, 12.
  auto e = catalogue_at("fox-and-hounds", "1h1h1h2/6F1/8/8/8/8/8/8 w - - 0 1");
  EXPECT_EQ(e->perft(1), 3u);
  EXPECT_EQ(e->perft(2), 12u);
  ASSERT_TRUE(play(*e, "g7h8"));
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().reason, "fox-escaped");
  // A fox without a move loses (no royal piece, `no-legal-move -> loss`).
  auto trapped = catalogue_at("fox-and-hounds", "8/8/8/8/8/8/1h1h4/2F5 w - - 0 1");
  EXPECT_EQ(trapped->perft(1), 0u);
  EXPECT_EQ(trapped->status().result, arb::Result::BlackWins);
}

TEST(MiscPartner, BughouseCapturesLeaveTheBoard) {
  // The hand holds what the text gives, more than a set's share (three queens); a capture
  // adds nothing to it: the partner gets the piece.
  auto e = catalogue_at("bughouse", "r3k3/1P6/8/8/8/8/8/4K3[QQQp] w - - 0 1");
  ASSERT_TRUE(play(*e, "b7a8q"));
  EXPECT_EQ(e->position(), "Q~3k3/8/8/8/8/8/8/4K3[QQQp] b - - 0 1");
  // Counted by current Fairy-Stockfish (bughouse): 6464 with a queen, a knight and a
  // black pawn in hand.
  EXPECT_EQ(catalogue_at("bughouse", "r3k3/1P6/8/8/8/8/8/4K3[QNp] w - - 0 1")->perft(2), 6464u);
  // Bare kings, Black stalemated: a loss in bughouse, not a draw.
  const arb::Status st = catalogue_at("bughouse", "k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1")->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.end, arb::Termination::Stalemate);
}

TEST(MiscMustDrop, KoedemDropsItsKingFirst) {
  // White holds a king and a queen: only the king's drops, on the 34 empty squares (the
  // queen's are illegal while a king is in hand). Black then drops its own king on the 33
  // left: 34 * 33. koedem (Fairy-Stockfish): 34, 1122.
  auto e = catalogue_at("koedem", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[KQk] w - - 0 1");
  EXPECT_EQ(e->perft(1), 34u);
  EXPECT_EQ(e->perft(2), 1122u);
  // White has no king, board or hand, Black both: White has lost (koedem: 0).
  auto gone = catalogue_at("koedem", "4k3/8/8/8/8/8/8/7R[k] w - - 0 1");
  EXPECT_EQ(gone->perft(1), 0u);
  EXPECT_EQ(gone->status().result, arb::Result::BlackWins);
  EXPECT_EQ(gone->status().end, arb::Termination::Extinction);
}

TEST(MiscMustDrop, UnknownLetterIsLocated) {
  const std::string text = R"(ruleset r
board 8 x 8
piece king K { betza "K"; royal }
piece queen Q { betza "Q" }
captures-to-hand
setup "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"
turn { action move or place }
legal { royal-safe; must-drop Z }
end { checkmate -> loss; stalemate -> draw }
)";
  const std::string e = ruleset_errors(text);
  EXPECT_NE(e.find("r.rules:8:31: error: `must-drop`: no compiled piece has the letter `Z`"),
            std::string::npos)
      << e;
}

TEST(MiscPartner, PartnerWithoutAHandIsLocated) {
  const std::string text = R"(ruleset r
board 8 x 8
piece king K { betza "K"; royal }
captures-to-hand partner
setup "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)";
  const std::string e = ruleset_errors(text);
  EXPECT_NE(e.find("r.rules:4:1: error: `captures-to-hand` fills a reserve that no action empties"),
            std::string::npos)
      << e;
}

}  // namespace
