// The chess conformance suite: every engine that plays chess (the compiled generator
// running rulesets/chess.rules and the hand-written reference engine, checker/reference/chess)
// against the perft suites (corpus/perft/), FEN input and output, status, apply/undo and
// notation, as one TEST_P per rule (`Conformance/Chess.PerftStartPosition/compiled`).
// The ChessAgreement tests compare the two engines with each other (root actions, divide,
// playouts): they need both at once, so they are plain TESTs.
//
// The node budget of a perft check is ARBITER_PERFT_BUDGET (default 200000 for the
// compiled generator, less for the slower reference engine): checks whose expected count
// is larger are skipped; CI lowers it under sanitizers.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/perft_suite.hpp"
#include "arbiter/targeted.hpp"
#include "conformance.hpp"
#include "reference.hpp"

namespace {

using arb::Action;
using arb::Engine;

std::unique_ptr<Engine> engine_at(const std::string& fen) {
  auto e = conformance::make_engine();
  e->set_position(fen);
  return e;
}

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Every depth of the suite NAME whose count is within the budget: ARBITER_PERFT_BUDGET when
// set, else `compiled_budget` on the compiled generator and `reference_budget` on the
// reference engine (a plain 0x88-style engine, a few times slower).
void run_suite(const char* name, uint64_t compiled_budget, uint64_t reference_budget) {
  auto e = conformance::make_engine();
  conformance::run_perft_suite(
      *e, name,
      testing_helpers::perft_budget(conformance::is_compiled() ? compiled_budget : reference_budget));
}

// The canonical text of every legal action, sorted.
std::vector<std::string> legal_texts(Engine& e) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  std::vector<std::string> out;
  for (const Action& a : actions) out.push_back(arb::uci(e.describe(a), e.chess960()));
  std::sort(out.begin(), out.end());
  return out;
}

bool has_move(Engine& e, const std::string& text) {
  auto all = legal_texts(e);
  return std::find(all.begin(), all.end(), text) != all.end();
}

void play(Engine& e, const std::string& text) {
  auto a = arb::parse_action(e, text);
  ASSERT_TRUE(a.has_value()) << "no legal move " << text << " in " << e.position();
  e.apply(*a);
}

class Chess : public conformance::Suite {};
INSTANTIATE_TEST_SUITE_P(Conformance, Chess,
                         ::testing::Values(conformance::compiled("chess"), conformance::reference("chess")),
                         conformance::engine_name);
// Perft, on Fairy-Stockfish too (an outside engine that plays chess; skipped where it is not
// installed).
class ChessPerft : public conformance::Suite {};
INSTANTIATE_TEST_SUITE_P(Conformance, ChessPerft,
                         ::testing::Values(conformance::compiled("chess"), conformance::reference("chess"),
                                           conformance::fairy_stockfish("chess")),
                         conformance::engine_name);

std::string san_of(Engine& e, const std::string& text) {
  auto a = arb::parse_action(e, text);
  EXPECT_TRUE(a.has_value()) << "no legal move " << text << " in " << e.position();
  return a ? arb::san(e, *a) : std::string();
}

// ---------------------------------------------------------------------------------------
// Perft.

TEST_P(ChessPerft, StartPosition) {
  auto e = engine_at(kStart);
  EXPECT_EQ(e->name(), GetParam().prefix() + ":chess");
  EXPECT_EQ(e->perft(0), 1u);
  EXPECT_EQ(e->perft(0), 1u);
  EXPECT_EQ(e->perft(1), 20u);
  EXPECT_EQ(e->perft(2), 400u);
  EXPECT_EQ(e->perft(3), 8902u);
  EXPECT_EQ(e->perft(4), 197281u);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(e->perft(5), 4865609u);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("startpos perft 5: %.3f s, %.2f M nodes/s\n", secs, 4865609 / secs / 1e6);
  EXPECT_EQ(e->position(), kStart);  // perft leaves the position as it was
  // The interface's generic perft (legal_actions/apply/undo) agrees with the fast path.
  EXPECT_EQ(e->Engine::perft(3), 8902u);
}

TEST_P(ChessPerft, DefaultPerftAgreesWithFastPath) {
  // The interface's generic perft (legal_actions/apply/undo) against the engine's own.
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9"}) {
    auto e = engine_at(fen);
    EXPECT_EQ(e->Engine::perft(3), e->perft(3)) << fen;
  }
}

// tricky.perft: every depth of every case, whatever the budget (at most 1.3M nodes).
TEST_P(ChessPerft, Tricky) {
  auto e = conformance::make_engine();
  conformance::run_perft_suite(*e, "tricky.perft", UINT64_MAX);
}
TEST_P(ChessPerft, Chess960) {
  run_suite("chess960.perft", 200000, 100000);
}
TEST_P(ChessPerft, Random) {
  run_suite("random.perft", 200000, 20000);
}

// ---------------------------------------------------------------------------------------
// FEN.

TEST_P(Chess, FenRoundTripOnSuitePositions) {
  size_t n = 0;
  for (const char* name : {"tricky.perft", "chess960.perft", "random.perft"}) {
    for (const auto& c : arb::read_perft_suite(testing_helpers::corpus_path(std::string("perft/") + name))) {
      auto e = engine_at(c.position);
      std::string once = e->position();
      uint64_t h = e->hash();
      e->set_position(once);
      ASSERT_EQ(e->position(), once) << name << " " << c.id;
      ASSERT_EQ(e->hash(), h) << name << " " << c.id;
      ++n;
    }
  }
  std::printf("FEN round trip: %zu positions\n", n);
}

TEST_P(Chess, FenStartPositionText) {
  auto e = engine_at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  EXPECT_EQ(e->position(), kStart);
  EXPECT_FALSE(e->chess960());
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
  EXPECT_EQ(e->name(), GetParam().name + ":chess");
}

TEST_P(Chess, FenCastlingFieldsAreWrittenInXFen) {
  // Shredder letters of the outermost rooks become KQkq.
  EXPECT_EQ(engine_at("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")->position(),
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  // An inner rook is named by its file.
  EXPECT_EQ(engine_at("1r2k1rr/8/8/8/8/8/8/RR2K2R w BKgq - 0 1")->position(),
            "1r2k1rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1");
  // Chess960 flag: king off e or rook off a/h.
  EXPECT_TRUE(engine_at("1r2k1rr/8/8/8/8/8/8/RR2K2R w BKgq - 0 1")->chess960());
  EXPECT_TRUE(engine_at("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9")->chess960());
  EXPECT_FALSE(engine_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")->chess960());
  // No rights: not Chess960 even with the king off e.
  EXPECT_FALSE(engine_at("8/8/8/8/8/8/8/1K4k1 w - - 0 1")->chess960());
  EXPECT_FALSE(engine_at(kStart)->chess960());
}

TEST_P(Chess, FenEnPassantFieldOnlyWhenCaptureIsLegal) {
  // After 1. e4 no Black pawn can take: the field is dropped, in the text and the hash.
  auto e = engine_at(kStart);
  play(*e, "e2e4");
  EXPECT_EQ(e->position(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(e->hash(), engine_at("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")->hash());
  EXPECT_EQ(engine_at("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")->position(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  // A capture is possible: the field stays, and the hash differs from the same board without.
  auto f = engine_at("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
  play(*f, "c2c4");
  EXPECT_EQ(f->position(), "rnbqkbnr/ppp1pppp/8/8/2PpP3/8/PP1P1PPP/RNBQKBNR b KQkq c3 0 3");
  EXPECT_NE(f->hash(), engine_at("rnbqkbnr/ppp1pppp/8/8/2PpP3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 3")->hash());
  EXPECT_TRUE(has_move(*f, "d4c3"));
  // The only capturer is pinned along the rank (discovered check): no field.
  auto g = engine_at("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1");
  play(*g, "e2e4");
  EXPECT_EQ(g->position(), "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
  EXPECT_FALSE(has_move(*g, "d4e3"));
  // Inconsistent fields are dropped: wrong rank, no pawn to take, occupied origin.
  EXPECT_EQ(engine_at("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1")->position(), "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(engine_at("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1")->position(), "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(engine_at("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1")->position(),
            "4k3/3n4/8/3pP3/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(engine_at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")->position(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
}

TEST_P(Chess, FenRejectsBadPositions) {
  auto e = conformance::make_engine();
  const std::vector<std::string> bad = {
      "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
      "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
      "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",
      // A pawn on its own first rank, which no game of chess reaches. Regression: the
      // compiled generator accepted it until rulesets/chess.rules said `forbidden ranks`
      // (Chessembly, where pawns may stand there, keeps accepting it).
      "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "3pk3/8/8/8/8/8/8/4K3 w - - 0 1",
      "8/8/8/8/8/8/8/4K3 w - - 0 1",       // no Black king
      "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",    // no rook on the queen side
      "4k3/8/8/8/8/8/8/4K3 w K - 0 1",     // no rook at all
      "4k3/8/8/8/8/8/4K3/7R w K - 0 1",    // king off the back rank
      "4k3/8/8/8/8/8/8/4K1RR w GH - 0 1",  // two king-side rights
      "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",   // the same right twice
      "4k3/8/8/8/8/8/8/4K2R w K-- - 0 1",  // '-' mixed with rights
      "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",    // Black in check, White to move
      "4k3/8/8/8/8/8/8/4K2r b - - 0 1",    // White in check, Black to move
      "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",    // ep off the board
      "4k3/8/8/8/8/8/8/4K3 w - - x 1",     // bad halfmove clock
      "4k3/8/8/8/8/8/8/4K3 w - - 0 0",     // fullmove 0
  };
  // A failed set_position leaves the engine as it was.
  e->set_position(kStart);
  for (const std::string& fen : bad) {
    EXPECT_THROW(e->set_position(fen), arb::PositionError) << fen;
    EXPECT_EQ(e->position(), kStart) << fen;
  }
  EXPECT_THROW(e->set_position("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"), arb::PositionError);
  EXPECT_EQ(e->position(), kStart);
  EXPECT_EQ(e->perft(2), 400u);
}

// ---------------------------------------------------------------------------------------
// Status.

TEST_P(Chess, StatusCheckmateAndStalemate) {
  auto e = engine_at(kStart);
  for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) play(*e, m);
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::BlackWins);
  EXPECT_EQ(st.reason, "checkmate");
  EXPECT_TRUE(st.in_check);
  std::vector<Action> none;
  e->legal_actions(none);
  EXPECT_TRUE(none.empty());

  auto w = engine_at("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(w->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(w->status().reason, "checkmate");
  // Back-rank mate; a mate by a knight through a smothered king.
  EXPECT_EQ(engine_at("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")->status().reason, "checkmate");
  EXPECT_EQ(engine_at("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1")->status().reason, "checkmate");
  // A king with no square and a blocked pawn of the other side: stalemate with a pawn on the board.
  EXPECT_EQ(engine_at("8/8/8/8/8/5k2/5p2/5K2 w - - 0 1")->status().reason, "stalemate");

  auto s = engine_at("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  st = s->status();
  EXPECT_EQ(st.result, arb::Result::Draw);
  EXPECT_EQ(st.reason, "stalemate");
  EXPECT_FALSE(st.in_check);

  // Checkmate is judged before insufficient material... and stalemate too: K+B v K with
  // no legal move is reported as stalemate.
  auto sb = engine_at("k7/2K5/1B6/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(sb->status().reason, "stalemate");

  auto ongoing = engine_at(kStart);
  st = ongoing->status();
  EXPECT_EQ(st.result, arb::Result::Ongoing);
  EXPECT_EQ(st.reason, "");
  EXPECT_FALSE(st.in_check);
  EXPECT_FALSE(st.claim_fifty);
  EXPECT_FALSE(st.claim_threefold);

  auto check = engine_at("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
  play(*check, "e8d8");
  EXPECT_FALSE(check->status().in_check);
  auto check2 = engine_at("4k3/8/8/8/8/8/8/4K2R b - - 0 1");
  EXPECT_FALSE(check2->status().in_check);
  auto check3 = engine_at("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
  EXPECT_TRUE(check3->status().in_check);
  EXPECT_EQ(check3->status().result, arb::Result::Ongoing);
  EXPECT_EQ(check3->status().reason, "");
}

TEST_P(Chess, StatusInsufficientMaterial) {
  auto reason = [](const char* fen) { return engine_at(fen)->status().reason; };
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4kn2/8/8/8/8/8/8/4K3 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4KN2 b - - 0 1"), "insufficient-material");
  // Both bishops on dark squares (c1, f8).
  EXPECT_EQ(reason("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1"), "");
  // K+B v K+B: f1 and c8 are both light squares; f1 and f8 are of opposite colours.
  EXPECT_EQ(reason("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1"), "");
  // Anything else is sufficient by the project's definition.
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1"), "");  // two bishops
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"), "");  // two knights
  EXPECT_EQ(reason("4kn2/8/8/8/8/8/8/4KB2 w - - 0 1"), "");  // bishop v knight
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), "");
  EXPECT_EQ(engine_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")->status().result, arb::Result::Draw);
  // A capture that leaves bare kings.
  auto e = engine_at("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
  EXPECT_EQ(e->status().reason, "");
  play(*e, "e1d2");
  EXPECT_EQ(e->status().reason, "insufficient-material");
  EXPECT_EQ(e->status().result, arb::Result::Draw);
  e->undo();
  EXPECT_EQ(e->status().reason, "");
}

TEST_P(Chess, StatusFiftyMoveClaim) {
  auto e = engine_at("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
  EXPECT_FALSE(e->status().claim_fifty);
  play(*e, "a1a2");
  EXPECT_FALSE(e->status().claim_fifty);
  play(*e, "e8d8");
  EXPECT_TRUE(e->status().claim_fifty);
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);  // a claim does not end the game
  EXPECT_EQ(e->status().reason, "");
  EXPECT_EQ(e->position(), "3k4/8/8/8/8/8/R7/4K3 w - - 100 81");
  e->undo();
  EXPECT_FALSE(e->status().claim_fifty);
  // A pawn move or a capture resets the clock.
  auto p = engine_at("4k3/8/8/8/8/8/P7/4K3 w - - 120 80");
  EXPECT_TRUE(p->status().claim_fifty);
  play(*p, "a2a3");
  EXPECT_FALSE(p->status().claim_fifty);
  EXPECT_EQ(p->position(), "4k3/8/8/8/8/P7/8/4K3 b - - 0 80");
  auto c = engine_at("4k3/8/8/8/8/8/r7/R3K3 w - - 110 80");
  EXPECT_TRUE(c->status().claim_fifty);
  play(*c, "a1a2");
  EXPECT_FALSE(c->status().claim_fifty);
  // A mate is a mate whatever the clock.
  EXPECT_EQ(engine_at("7k/6Q1/6K1/8/8/8/8/8 b - - 150 100")->status().reason, "checkmate");
}

TEST_P(Chess, StatusThreefoldClaim) {
  auto e = engine_at(kStart);
  const std::vector<std::string> moves = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
  for (size_t i = 0; i < moves.size(); ++i) {
    EXPECT_FALSE(e->status().claim_threefold) << "before move " << i;
    play(*e, moves[i]);
  }
  // The start position has now occurred three times.
  EXPECT_TRUE(e->status().claim_threefold);
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  e->undo();
  EXPECT_FALSE(e->status().claim_threefold);
  play(*e, "f6g8");
  EXPECT_TRUE(e->status().claim_threefold);
  // set_position starts a new history.
  e->set_position(e->position());
  EXPECT_FALSE(e->status().claim_threefold);
  // Positions repeat only with the same castling rights: after Ke2 Ke7 Ke1 Ke8 the board
  // is the start again but the rights are gone.
  auto k = engine_at("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
  for (const char* m : {"e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8"}) play(*k, m);
  EXPECT_FALSE(k->status().claim_threefold);
  for (const char* m : {"e1d1", "e8d8", "d1e1", "d8e8"}) play(*k, m);
  EXPECT_TRUE(k->status().claim_threefold);

  // The en-passant possibility is part of a position: after 1. e4 (no capture possible)
  // the position repeats with the knights' shuffles.
  auto p = engine_at("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  play(*p, "e2e4");  // d4xe3 e.p. is possible now
  EXPECT_NE(p->position().find(" e3 "), std::string::npos) << p->position();
  for (const char* m : {"g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1"}) play(*p, m);
  // Same pieces as after e4 three times, but the first had an e.p. right: two occurrences.
  EXPECT_FALSE(p->status().claim_threefold);
  for (const char* m : {"g8f6", "g1f3", "f6g8", "f3g1"}) play(*p, m);
  EXPECT_TRUE(p->status().claim_threefold);
}

// ---------------------------------------------------------------------------------------
// Moves: castling, en passant, promotion, pins.

TEST_P(Chess, MovesStandardCastling) {
  auto e = engine_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_TRUE(has_move(*e, "e1g1"));
  EXPECT_TRUE(has_move(*e, "e1c1"));
  play(*e, "e1g1");
  EXPECT_EQ(e->position(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  play(*e, "e8c8");
  EXPECT_EQ(e->position(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
  e->undo();
  e->undo();
  EXPECT_EQ(e->position(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  // Through an attacked square, out of check, into check; b1 attacked is fine.
  EXPECT_FALSE(has_move(*engine_at("r3k2r/8/8/8/8/8/5r2/R3K2R w KQ - 0 1"), "e1g1"));
  EXPECT_FALSE(has_move(*engine_at("r3k2r/8/8/8/8/8/4r3/R3K2R w KQ - 0 1"), "e1c1"));
  EXPECT_FALSE(has_move(*engine_at("r3k2r/8/8/8/8/8/6r1/R3K2R w KQ - 0 1"), "e1g1"));
  EXPECT_TRUE(has_move(*engine_at("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1"), "e1c1"));
  EXPECT_FALSE(has_move(*engine_at("4k3/8/8/8/8/8/2r5/R3K2R w KQ - 0 1"), "e1c1"));
  // Blocked.
  EXPECT_FALSE(has_move(*engine_at("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1"), "e1c1"));
  // Rights are lost when the rook moves or is captured.
  auto r = engine_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  play(*r, "h1h8");
  EXPECT_EQ(r->position(), "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
  auto a = engine_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  play(*a, "a1a2");
  EXPECT_EQ(a->position(), "r3k2r/8/8/8/8/8/R7/4K2R b Kkq - 1 1");
}

TEST_P(Chess, MovesChess960Castling) {
  // King b1, rook a1: castling queen side moves the king to c1 and the rook to d1.
  auto e = engine_at("r5kr/8/8/8/8/8/8/RK5R w AH - 0 1");
  EXPECT_TRUE(e->chess960());
  EXPECT_EQ(e->position(), "r5kr/8/8/8/8/8/8/RK5R w KQ - 0 1");
  EXPECT_TRUE(has_move(*e, "b1a1"));
  EXPECT_TRUE(has_move(*e, "b1h1"));
  play(*e, "b1a1");
  EXPECT_EQ(e->position(), "r5kr/8/8/8/8/8/8/2KR3R b - - 1 1");
  e->undo();
  play(*e, "b1h1");
  EXPECT_EQ(e->position(), "r5kr/8/8/8/8/8/8/R4RK1 b - - 1 1");
  // b1 is attacked by the rook on b8: the king stands in check, no castling.
  auto c = engine_at("1r4k1/8/8/8/8/8/8/RK5R w AH - 0 1");
  EXPECT_FALSE(has_move(*c, "b1a1"));
  // King on f1, rook on g1: they swap squares.
  auto s = engine_at("k7/8/8/8/8/8/8/5KR1 w G - 0 1");
  EXPECT_TRUE(has_move(*s, "f1g1"));
  play(*s, "f1g1");
  EXPECT_EQ(s->position(), "k7/8/8/8/8/8/8/5RK1 b - - 1 1");
  // King already on g1: only the rook moves.
  auto g = engine_at("k7/8/8/8/8/8/8/6KR w K - 0 1");
  EXPECT_TRUE(g->chess960());
  play(*g, "g1h1");
  EXPECT_EQ(g->position(), "k7/8/8/8/8/8/8/5RK1 b - - 1 1");
  // The castling rook shields the king's destination from a rook on a1: castling with
  // the rook on b1 would leave the king on c1 attacked along the rank.
  auto shield = engine_at("4k3/8/8/8/8/8/8/rR3K2 w B - 0 1");
  EXPECT_FALSE(has_move(*shield, "f1b1"));
  auto shield_ok = engine_at("4k3/8/8/8/8/8/8/1R3K2 w B - 0 1");
  EXPECT_TRUE(has_move(*shield_ok, "f1b1"));
  // King on c1 stays; the rook goes a1 -> d1, so a piece on d1 blocks, one on e1 does not.
  EXPECT_FALSE(has_move(*engine_at("4k3/8/8/8/8/8/8/R1KB4 w A - 0 1"), "c1a1"));
  auto unblocked = engine_at("4k3/8/8/8/8/8/8/R1K1B3 w A - 0 1");
  play(*unblocked, "c1a1");
  EXPECT_EQ(unblocked->position(), "4k3/8/8/8/8/8/8/2KRB3 b - - 1 1");
  // UCI writes e1g1 in standard positions, king-takes-rook in Chess960 ones.
  auto std_pos = engine_at("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  auto a = arb::parse_action(*std_pos, "e1g1");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(arb::action_text(*std_pos, *a, arb::Notation::Uci), "e1g1");
  EXPECT_EQ(arb::uci(std_pos->describe(*a), true), "e1h1");
  auto info = std_pos->describe(*a);
  ASSERT_EQ(info.steps.size(), 1u);
  EXPECT_EQ(info.steps[0].piece, 'K');
  EXPECT_EQ(info.steps[0].castle, arb::Castle::KingSide);
  EXPECT_EQ(info.steps[0].to, (arb::Coord{7, 1}));
  EXPECT_EQ(info.steps[0].king_to, (arb::Coord{6, 1}));
  EXPECT_FALSE(info.steps[0].capture());
}

TEST_P(Chess, MovesEnPassantAndPromotion) {
  auto e = engine_at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  auto a = arb::parse_action(*e, "e5d6");
  ASSERT_TRUE(a.has_value());
  auto info = e->describe(*a);
  EXPECT_TRUE(info.steps[0].capture());
  EXPECT_EQ(info.steps[0].to, (arb::Coord{3, 6}));
  EXPECT_EQ(arb::san(*e, *a), "exd6");
  e->apply(*a);
  EXPECT_EQ(e->position(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  // En passant removes the checking pawn.
  auto c = engine_at("8/8/8/4k3/4p3/8/3P4/3K4 w - - 0 1");
  play(*c, "d2d4");
  EXPECT_EQ(c->position(), "8/8/8/4k3/3Pp3/8/8/3K4 b - d3 0 1");
  EXPECT_TRUE(c->status().in_check);
  EXPECT_TRUE(has_move(*c, "e4d3"));
  // Promotion: four pieces, with and without capture.
  auto p = engine_at("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  ASSERT_EQ(p->perft(1), 13u);  // 8 promotions and 5 king moves
  auto texts = legal_texts(*p);
  for (const char* m : {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"})
    EXPECT_NE(std::find(texts.begin(), texts.end(), m), texts.end()) << m;
  EXPECT_EQ(san_of(*p, "a7a8q"), "a8=Q");
  EXPECT_EQ(san_of(*p, "a7b8q"), "axb8=Q+");
  EXPECT_EQ(san_of(*p, "a7b8n"), "axb8=N");
  play(*p, "a7b8r");
  EXPECT_EQ(p->position(), "1R2k3/8/8/8/8/8/8/4K3 b - - 0 1");
  // A pinned piece may move only along the pin.
  auto pin = engine_at("4k3/4r3/8/8/8/4B3/8/4K3 w - - 0 1");
  for (const std::string& m : legal_texts(*pin)) EXPECT_NE(m.substr(0, 2), "e3") << m;
}

TEST_P(Chess, MovesSanDisambiguation) {
  auto e = engine_at("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
  EXPECT_EQ(san_of(*e, "a1d1"), "Rad1");
  EXPECT_EQ(san_of(*e, "h1f1"), "Rhf1");
  EXPECT_EQ(san_of(*engine_at("4k3/8/8/8/8/8/8/R3K2R w - - 0 1"), "a1d1"), "Rd1");  // h1 is blocked
  auto r = engine_at("4k3/R7/8/8/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(san_of(*r, "a1a4"), "R1a4");
  EXPECT_EQ(san_of(*r, "a7a4"), "R7a4");
  // Queens on a4, h4 and h1 all reach e4: h4 shares a rank with a4 and a file with h1.
  auto q = engine_at("1k6/8/8/8/Q6Q/8/8/K6Q w - - 0 1");
  EXPECT_EQ(san_of(*q, "h4e4"), "Qh4e4");
  EXPECT_EQ(san_of(*q, "a4e4"), "Qae4");
  EXPECT_EQ(san_of(*q, "h1e4"), "Q1e4");
  auto n = engine_at("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  EXPECT_EQ(san_of(*n, "b1d2"), "Nbd2");
  EXPECT_EQ(san_of(*n, "f1g3"), "Ng3");
  EXPECT_EQ(san_of(*engine_at(kStart), "e2e4"), "e4");
  EXPECT_EQ(san_of(*engine_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "e1g1"), "O-O");
  EXPECT_EQ(san_of(*engine_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "e1c1"), "O-O-O");
  EXPECT_EQ(san_of(*engine_at("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "a1a8"), "Ra8+");
  EXPECT_EQ(san_of(*engine_at("k7/8/1K6/8/8/8/8/7R w - - 0 1"), "h1h8"), "Rh8#");
}

// ---------------------------------------------------------------------------------------
// Apply and undo.

TEST_P(Chess, UndoRandomWalksRestorePositionAndHash) {
  std::mt19937_64 rng(20240601);
  std::vector<std::string> starts = {kStart};
  for (const char* name : {"tricky.perft", "chess960.perft"})
    for (const auto& c : arb::read_perft_suite(testing_helpers::corpus_path(std::string("perft/") + name)))
      starts.push_back(c.position);
  size_t steps = 0;
  for (size_t walk = 0; walk < 200; ++walk) {
    auto e = engine_at(starts[walk % starts.size()]);
    std::vector<std::string> texts = {e->position()};
    std::vector<uint64_t> hashes = {e->hash()};
    std::vector<Action> actions;
    for (int ply = 0; ply < 80; ++ply) {
      e->legal_actions(actions);
      if (actions.empty()) break;
      Action a = actions[rng() % actions.size()];
      // Every legal action has a distinct canonical text.
      auto all = legal_texts(*e);
      ASSERT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << e->position();
      e->apply(a);
      ++steps;
      texts.push_back(e->position());
      hashes.push_back(e->hash());
      // The hash depends only on the position: a fresh engine on the same text agrees.
      auto fresh = engine_at(texts.back());
      ASSERT_EQ(fresh->hash(), hashes.back()) << texts.back();
      ASSERT_EQ(fresh->position(), texts.back());
      // A clone answers the same.
      auto copy = e->clone();
      ASSERT_EQ(copy->position(), texts.back());
      if (ply % 8 == 0) {
        ASSERT_EQ(copy->perft(2), fresh->perft(2)) << texts.back();
      }
    }
    while (texts.size() > 1) {
      e->undo();
      texts.pop_back();
      hashes.pop_back();
      ASSERT_EQ(e->position(), texts.back());
      ASSERT_EQ(e->hash(), hashes.back());
    }
  }
  std::printf("random walks: %zu moves applied and undone\n", steps);
}

// ---------------------------------------------------------------------------------------
// The compiled generator against the reference engine: these compare two engines at every
// position, so they are plain TESTs rather than one instance per engine.

std::vector<arb::PerftCase> suite(const std::string& name) {
  return arb::read_perft_suite(testing_helpers::corpus_path("perft/" + name));
}

// The root actions (sorted canonical texts) agree on every position of every suite.
TEST(ChessAgreement, RootActionsOnEverySuitePosition) {
  auto compiled = conformance::compiled("chess").make({});
  auto ref = arb::ref::make_chess_engine();
  size_t n = 0;
  for (const char* name : {"tricky.perft", "chess960.perft", "random.perft"}) {
    for (const auto& c : suite(name)) {
      compiled->set_position(c.position);
      ref->set_position(c.position);
      ASSERT_EQ(testing_helpers::legal_texts(*compiled), testing_helpers::legal_texts(*ref))
          << name << " " << c.id << ": " << c.position;
      ASSERT_EQ(compiled->position(), ref->position()) << name << " " << c.id;
      ASSERT_EQ(compiled->chess960(), ref->chess960()) << name << " " << c.id;
      ++n;
    }
  }
  std::printf("root actions agree on %zu positions\n", n);
}

// Perft 2 and 3 agree on the first 200 random positions (and the first 50 Chess960 ones),
// and the per-root-action counts (divide) agree at depth 2.
TEST(ChessAgreement, PerftOnTheFirstRandomPositions) {
  auto compiled = conformance::compiled("chess").make({});
  auto ref = arb::ref::make_chess_engine();
  const uint64_t budget = testing_helpers::perft_budget(200000);
  auto cases = suite("random.perft");
  auto c960 = suite("chess960.perft");
  cases.resize(std::min<size_t>(cases.size(), 200));
  cases.insert(cases.end(), c960.begin(), c960.begin() + std::min<size_t>(c960.size(), 50));
  for (const auto& c : cases) {
    compiled->set_position(c.position);
    ref->set_position(c.position);
    for (int depth = 2; depth <= 3; ++depth) {
      uint64_t want = ref->perft(depth);
      if (want > budget) continue;
      ASSERT_EQ(compiled->perft(depth), want) << c.id << " depth " << depth << ": " << c.position;
    }
    std::vector<Action> actions;
    compiled->legal_actions(actions);
    for (const Action& a : actions) {
      std::string text = testing_helpers::canonical(*compiled, a);
      compiled->apply(a);
      uint64_t got = compiled->perft(1);
      compiled->undo();
      Action r = testing_helpers::find_action(*ref, text);
      ref->apply(r);
      uint64_t want = ref->perft(1);
      ref->undo();
      ASSERT_EQ(got, want) << c.id << " after " << text << ": " << c.position;
    }
  }
}

// Random playouts from the start and from suite positions: at every node the same sorted
TEST(ChessAgreement, RandomPlayouts) {
  std::vector<std::string> starts = {kStart};
  auto rnd = suite("random.perft");
  auto c960 = suite("chess960.perft");
  for (size_t i = 0; i < 60 && i < rnd.size(); ++i) starts.push_back(rnd[i * (rnd.size() / 60)].position);
  for (size_t i = 0; i < 40 && i < c960.size(); ++i) starts.push_back(c960[i * (c960.size() / 40)].position);
  for (const auto& c : suite("tricky.perft")) starts.push_back(c.position);
  conformance::compare_compiled_with_reference("chess", starts, 200, 120, 0xC0FFEE);
}

// ---------------------------------------------------------------------------------------
// Where the engines differ in what the interface leaves open: each engine's own behaviour,
// pinned as a plain TEST for that engine.

// Perft's last ply counts without listing (the compiled generator counts unpinned pawns by
// shifts and other plain pieces by their destinations): on every suite position and every
// position one action from it, the count equals the number of listed legal actions.
TEST(ChessCompiled, LeafCountsAgreeWithTheListedActions) {
  auto e = conformance::compiled("chess").make({});
  size_t n = 0;
  for (const char* name : {"tricky.perft", "chess960.perft", "random.perft"}) {
    for (const auto& c : suite(name)) {
      e->set_position(c.position);
      std::vector<arb::Action> actions, replies;
      e->legal_actions(actions);
      ASSERT_EQ(e->perft(1), actions.size()) << name << " " << c.id << ": " << c.position;
      for (const arb::Action& a : actions) {
        const std::string text = testing_helpers::canonical(*e, a);
        e->apply(a);
        e->legal_actions(replies);
        ASSERT_EQ(e->perft(1), replies.size())
            << name << " " << c.id << " after " << text << ": " << c.position;
        e->undo();
        ++n;
      }
    }
  }
  std::printf("leaf counts agree with the lists on %zu positions\n", n);
}

// Perft of depth 2 and more plays its steps on the board fields alone (no hash, no undo
// stack: gen_perft.hpp's perft_plain). The same count by the interface's apply/undo (the
// full make) on suite positions, and perft leaves the position, its text and its key, as
// it found them.
TEST(ChessCompiled, PerftByBoardStepsAgreesWithTheFullMake) {
  auto e = conformance::compiled("chess").make({});
  auto full = [&](auto&& self, int depth) -> uint64_t {
    if (depth == 1) return e->perft(1);
    std::vector<arb::Action> actions;
    e->legal_actions(actions);
    uint64_t n = 0;
    for (const arb::Action& a : actions) {
      e->apply(a);
      n += self(self, depth - 1);
      e->undo();
    }
    return n;
  };
  size_t checked = 0;
  const std::pair<const char*, size_t> sources[] = {
      {"tricky.perft", 1}, {"chess960.perft", 40}, {"random.perft", 20}};
  for (const auto& [name, every] : sources) {
    const auto cases = suite(name);
    for (size_t i = 0; i < cases.size(); i += every) {
      const auto& c = cases[i];
      e->set_position(c.position);
      const std::string text = e->position();
      const uint64_t key = e->hash();
      const uint64_t got = e->perft(3);
      EXPECT_EQ(e->position(), text) << name << " " << c.id;
      EXPECT_EQ(e->hash(), key) << name << " " << c.id;
      ASSERT_EQ(got, full(full, 3)) << name << " " << c.id << ": " << c.position;
      ++checked;
    }
  }
  EXPECT_GT(checked, 150u);  // 15 + 24 + 150
}

// legal_actions_to(square) (the record validator's SAN resolution) lists exactly the legal
// actions whose brief names that square, in the list's order, on every suite position and
// every position one action later; a square off the board is refused.
TEST(ChessCompiled, ActionsOntoASquareAreTheListFiltered) {
  auto e = conformance::compiled("chess").make({});
  auto* targeted = dynamic_cast<arb::TargetedActions*>(e.get());
  ASSERT_NE(targeted, nullptr);
  size_t positions = 0, nonempty = 0;
  std::vector<arb::Action> all, onto, want;
  auto check_here = [&](const std::string& where) {
    e->legal_actions(all);
    for (int y = 1; y <= 8; ++y)
      for (int x = 0; x < 8; ++x) {
        const arb::Coord c{x, y};
        ASSERT_TRUE(targeted->legal_actions_to(c, onto)) << where;
        want.clear();
        for (const arb::Action& a : all)
          if (e->brief(a).to == c) want.push_back(a);
        ASSERT_EQ(onto, want) << where << " onto " << x << "," << y;
        nonempty += !want.empty();
      }
    EXPECT_FALSE(targeted->legal_actions_to(arb::Coord{8, 1}, onto)) << where;
    EXPECT_FALSE(targeted->legal_actions_to(arb::Coord{0, 0}, onto)) << where;
    ++positions;
  };
  for (const char* name : {"tricky.perft", "chess960.perft"}) {
    for (const auto& c : suite(name)) {
      e->set_position(c.position);
      ASSERT_NO_FATAL_FAILURE(check_here(std::string(name) + " " + c.id));
      std::vector<arb::Action> root;
      e->legal_actions(root);
      for (const arb::Action& a : root) {
        const std::string where =
            std::string(name) + " " + c.id + " after " + testing_helpers::canonical(*e, a);
        e->apply(a);
        ASSERT_NO_FATAL_FAILURE(check_here(where));
        e->undo();
      }
    }
  }
  EXPECT_GT(nonempty, positions);  // the lists are not all empty
  std::printf("actions onto each square agree with the filtered list on %zu positions\n", positions);
}

// A new compiled engine stands at the ruleset's start; a new reference engine on an empty
// board until set_position (the reference engines take every position from outside).
TEST(ChessCompiled, StartsAtTheStartPosition) {
  auto e = conformance::compiled("chess").make({});
  EXPECT_EQ(e->position(), kStart);
  EXPECT_EQ(e->perft(1), 20u);
}

// A reserve ("[Q]") is no part of a chess position: the compiled engine refuses it; the
// reference engine reads the board and drops the bracket, so this is the compiled one's.
TEST(ChessCompiled, RefusesAReserve) {
  auto e = conformance::compiled("chess").make({});
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1"), arb::PositionError);
  EXPECT_EQ(e->position(), kStart);
}

// undo() with nothing to undo: the reference engine throws std::logic_error, the compiled
// generator leaves the position as it is (Engine::undo does not say which).
TEST(ChessReference, UndoWithoutHistoryThrows) {
  auto e = conformance::reference("chess").make({});
  e->set_position(kStart);
  EXPECT_THROW(e->undo(), std::logic_error);
}
TEST(ChessCompiled, UndoWithoutHistoryKeepsThePosition) {
  auto e = conformance::compiled("chess").make({});
  e->set_position(kStart);
  EXPECT_NO_THROW(e->undo());
  EXPECT_EQ(e->position(), kStart);
}

}  // namespace
