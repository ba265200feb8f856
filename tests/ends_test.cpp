// Issue 24's end conditions, counters and forced capture (lang/src/gen_ends.hpp) on
// positions counted by hand: `must-capture`, a non-royal king (promotion to it, castling
// through attacked squares), `extinction` (antichess's every piece, shatranj's bare king
// with its bare-back exception), `checks N -> win` with the FEN's check counter, and the
// results `checkmate -> win`, `stalemate -> win|loss`. The catalogue rulesets they state
// are rulesets/fsf/*.rules (their perft against Fairy-Stockfish: fsf_catalogue_test).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;
namespace fs = std::filesystem;

std::unique_ptr<arb::Engine> fsf_at(const std::string& variant, const std::string& fen) {
  return compiled_at("fsf/" + variant, fen);
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(EndsMustCapture, OnlyCapturesWhenOneIsLegal) {
  // Antichess: the rook a1 could go to 13 squares, but it can take the pawn a5: 1 move.
  EXPECT_EQ(fsf_at("antichess", "7n/8/8/p7/8/8/8/R7 w - - 0 1")->perft(1), 1u);
  // Two captures (a5, the knight e1), the quiet moves b1 c1 d1 a2..a4 dropped: 2.
  EXPECT_EQ(fsf_at("antichess", "7n/8/8/p7/8/8/8/R3n3 w - - 0 1")->perft(1), 2u);
  // No capture: every move (the rook's 14).
  EXPECT_EQ(fsf_at("antichess", "8/8/8/8/8/8/7n/R7 w - - 0 1")->perft(1), 14u);
  // En passant is a capture: exd6 only (e6 dropped).
  auto e = fsf_at("antichess", "7k/8/8/3pP3/8/8/8/8 w - d6 0 2");
  EXPECT_EQ(legal_texts(*e), std::vector<std::string>{"e5d6"});
}

TEST(EndsMustCapture, OnlyLegalCapturesCount) {
  // Losers (royal kings, check): the rook d2 is pinned by the bishop b4, so Rxd7 is no
  // legal capture and the king's four steps d1 e2 f1 f2 are legal.
  EXPECT_EQ(fsf_at("losers", "7k/3n4/8/8/1b6/8/3R4/4K3 w - - 0 1")->perft(1), 4u);
  // Without the pin, Rxd7 is the only legal move.
  EXPECT_EQ(fsf_at("losers", "7k/3n4/8/8/8/8/3R4/4K3 w - - 0 1")->perft(1), 1u);
}

TEST(EndsNonRoyalKing, PromotesToItAndCastlesThroughAttack) {
  // Antichess: a8 promotes to Q R B N and the king.
  auto e = fsf_at("antichess", "8/P7/8/8/8/8/8/7k w - - 0 1");
  EXPECT_EQ(e->perft(1), 5u);
  EXPECT_TRUE(has(legal_texts(*e), "a7a8k"));
  // Giveaway: the rook f8 attacks f1, yet the king (no royal piece) castles both ways:
  // king d1 d2 e2 f2 f1 (5) + 2 castlings + rook a1 a2..a8 b1 c1 d1 (10) + rook h1 h2..h8
  // g1 f1 (9) = 26.
  auto g = fsf_at("giveaway", "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_EQ(g->perft(1), 26u);
}

TEST(EndsExtinction, EveryPieceLostWins) {
  // Antichess: White has no piece left: the game is over (no move), White wins.
  auto e = fsf_at("antichess", "8/8/8/8/8/8/8/7k w - - 0 1");
  EXPECT_EQ(e->perft(1), 0u);
  arb::Status st = e->status();
  EXPECT_EQ(st.end, arb::Termination::Extinction);
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "extinction");
  // Stalemate wins: the pawn a2 is blocked by a3, White has no move.
  auto s = fsf_at("antichess", "8/8/8/8/8/p7/P7/8 w - - 0 1");
  EXPECT_EQ(s->perft(1), 0u);
  EXPECT_EQ(s->status().end, arb::Termination::Stalemate);
  EXPECT_EQ(s->status().result, arb::Result::WhiteWins);
}

TEST(EndsResults, SuicideStalemateByPieceCount) {
  // Suicide: White stalemated with as many pieces as Black draws, with fewer wins.
  auto eq = fsf_at("suicide", "8/8/8/8/8/p7/P7/8 w - - 0 1");
  EXPECT_EQ(eq->perft(1), 0u);
  EXPECT_EQ(eq->status().end, arb::Termination::Stalemate);
  EXPECT_EQ(eq->status().result, arb::Result::Draw);
  auto fewer = fsf_at("suicide", "8/7p/8/8/8/p7/P7/8 w - - 0 1");
  EXPECT_EQ(fewer->status().result, arb::Result::WhiteWins);
  // Three blocked white pawns (a2, h4 behind h5, h5) against two: White loses.
  auto more = fsf_at("suicide", "8/8/7p/7P/7P/p7/P7/8 w - - 0 1");
  EXPECT_EQ(more->perft(1), 0u);
  EXPECT_EQ(more->status().result, arb::Result::BlackWins);
}

TEST(EndsExtinction, ShatranjBareKingAndBaringBack) {
  // Black to move is bare against king and one rook (two pieces): it may still bare back
  // (`claim`), so the game goes on: the king's five steps d8 d7 e7 f7 f8.
  EXPECT_EQ(fsf_at("shatranj", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")->perft(1), 5u);
  // Against three pieces it has lost: no move, White wins.
  auto e = fsf_at("shatranj", "4k3/8/8/8/8/8/8/RR2K3 b - - 0 1");
  EXPECT_EQ(e->perft(1), 0u);
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().end, arb::Termination::Extinction);
  // The side that just moved is judged first, without the claim: White bare against two
  // black pieces has lost, Black to move.
  auto w = fsf_at("shatranj", "r3k3/8/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_EQ(w->perft(1), 0u);
  EXPECT_EQ(w->status().result, arb::Result::BlackWins);
  // Baring back: Kxa1 (with b3 c3 c2; a2 a3 b1 c1 are the rook's) leaves both kings bare
  // and the game goes on: White's king has d1 d2 e2 f1 f2.
  auto b = fsf_at("shatranj", "8/8/8/8/8/8/1k6/R3K3 b - - 0 1");
  EXPECT_EQ(b->perft(1), 4u);
  ASSERT_TRUE(play(*b, "b2a1"));
  EXPECT_EQ(b->status().end, arb::Termination::None);
  EXPECT_EQ(b->perft(1), 5u);
  // Stalemate loses: the black king a8 has no move (a7 b7 are the king b6's, b8 the
  // knight d7's); bare against two pieces it is not yet lost by the bare king. White wins.
  auto s = fsf_at("shatranj", "k7/3N4/1K6/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(s->perft(1), 0u);
  EXPECT_EQ(s->status().end, arb::Termination::Stalemate);
  EXPECT_EQ(s->status().result, arb::Result::WhiteWins);
}

TEST(EndsChecks, CounterReadWrittenHashedAndUndone) {
  auto e = fsf_at("3check", "start");
  const std::string start = e->position();
  EXPECT_EQ(start, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1");
  const uint64_t h0 = e->hash();
  ASSERT_TRUE(play(*e, "e2e4"));
  ASSERT_TRUE(play(*e, "d7d5"));
  const uint64_t before = e->hash();
  ASSERT_TRUE(play(*e, "f1b5"));  // check: White has two checks left to give
  EXPECT_EQ(e->position(), "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 2+3 1 2");
  // The same board with the counter at 3+3 is another position (another hash).
  auto same_board = fsf_at("3check", "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 3+3 1 2");
  EXPECT_NE(same_board->hash(), e->hash());
  EXPECT_EQ(fsf_at("3check", e->position())->hash(), e->hash());
  e->undo();
  EXPECT_EQ(e->hash(), before);
  e->undo();
  e->undo();
  EXPECT_EQ(e->position(), start);
  EXPECT_EQ(e->hash(), h0);
}

TEST(EndsChecks, LastCheckEndsTheGame) {
  // Black in check from b5 blocks on c6 (c7c6, b8c6) or d7 (b8d7, c8d7, d8d7); the king
  // has no square (d7 is the bishop's, e7 f8 d8 are its own): 5 moves while White still
  // has a check to give.
  const std::string board = "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - ";
  EXPECT_EQ(fsf_at("3check", board + "1+3 1 2")->perft(1), 5u);
  // With no check left to give, White has won: no move, reason `checks`.
  auto over = fsf_at("3check", board + "0+3 1 2");
  EXPECT_EQ(over->perft(1), 0u);
  EXPECT_EQ(over->status().end, arb::Termination::ChecksGiven);
  EXPECT_EQ(over->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(over->status().reason, "checks");
  // A check counter in a variant that counts no checks is refused.
  EXPECT_THROW(compiled_at("chess", board + "1+3 1 2"), arb::PositionError);
}

TEST(EndsResults, CheckmateWins) {
  // Misère: the fool's mate; White, checkmated, wins.
  auto e = fsf_at("misere", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_EQ(e->status().end, arb::Termination::Checkmate);
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
}

TEST(EndsErrors, MisuseIsLocated) {
  const std::string base = std::string("ruleset bad extends \"") + source_path("rulesets/chess") + "\"\n";
  {
    arb::lang::Diagnostics d;
    auto c1 = compile_text("bad1",
                           base + "end { checkmate -> loss; stalemate -> draw; extinction Z -> loss }\n", d);
    EXPECT_TRUE(d.has_errors());
    EXPECT_NE(d.render().find("bad1.rules:2:"), std::string::npos) << d.render();
    EXPECT_NE(d.render().find("no compiled piece has the letter `Z`"), std::string::npos) << d.render();
  }
  {
    arb::lang::Diagnostics d;
    auto c2 = compile_text(
        "bad2", base + "legal { }\nend { checkmate -> loss; stalemate -> draw; checks 3 -> win }\n", d);
    EXPECT_NE(d.render().find("bad2.rules:3:"), std::string::npos) << d.render();
    EXPECT_NE(d.render().find("needs a royal piece and `legal { royal-safe }`"), std::string::npos)
        << d.render();
  }
  {
    arb::lang::Diagnostics d;
    auto c3 = compile_text(
        "bad3", base + "end { checkmate -> loss; stalemate -> draw; extinction all -> lose }\n", d);
    EXPECT_NE(d.render().find("bad3.rules:2:"), std::string::npos) << d.render();
    EXPECT_NE(d.render().find("win|loss|draw"), std::string::npos) << d.render();
  }
  {
    // A non-royal king without `king` in the castling block: no castling king.
    arb::lang::Diagnostics d;
    auto c4 = compile_text("bad4",
                           base + "piece king K { betza \"K\" }\nlegal { }\nend { stalemate -> draw }\n", d);
    EXPECT_NE(d.render().find("castling needs a royal piece, or a castling king"), std::string::npos)
        << d.render();
  }
}

}  // namespace
