// Tests of the hand-written chess reference engine (checker/reference/chess): perft against
// the corpus suites (corpus/perft/), FEN input and output, status, apply/undo and notation.
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
#include "reference.hpp"

namespace {

using arb::Action;
using arb::Engine;

std::unique_ptr<Engine> engine_at(const std::string& fen) {
  auto e = arb::ref::make_chess_engine();
  e->set_position(fen);
  return e;
}

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

std::string suite_path(const char* name) {
  return std::string(ARBITER_SOURCE_DIR) + "/corpus/perft/" + name;
}

// Runs every depth of every case whose expected node count is at most `budget`; the
// environment variable ARBITER_PERFT_BUDGET raises it for a deep run.
void run_suite(const char* name, uint64_t budget) {
  if (const char* env = std::getenv("ARBITER_PERFT_BUDGET")) budget = std::strtoull(env, nullptr, 10);
  auto cases = arb::read_perft_suite(suite_path(name));
  ASSERT_FALSE(cases.empty());
  auto e = arb::ref::make_chess_engine();
  size_t checked_cases = 0, checked_depths = 0;
  uint64_t nodes = 0;
  auto start = std::chrono::steady_clock::now();
  for (const auto& c : cases) {
    e->set_position(c.position);
    bool any = false;
    for (auto [depth, expected] : c.expected) {
      if (expected > budget) continue;
      ASSERT_EQ(e->perft(depth), expected)
          << name << " " << c.id << " (line " << c.line << ") depth " << depth << ": " << c.position;
      any = true;
      ++checked_depths;
      nodes += expected;
    }
    if (any) ++checked_cases;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %zu of %zu cases, %zu depths, %llu nodes in %.2f s\n", name, checked_cases, cases.size(),
              checked_depths, static_cast<unsigned long long>(nodes), secs);
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

std::string san_of(Engine& e, const std::string& text) {
  auto a = arb::parse_action(e, text);
  EXPECT_TRUE(a.has_value()) << "no legal move " << text << " in " << e.position();
  return a ? arb::san(e, *a) : std::string();
}

// ---------------------------------------------------------------------------------------
// Perft.

TEST(ReferenceChessPerft, StartPosition) {
  auto e = engine_at(kStart);
  EXPECT_EQ(e->perft(0), 1u);
  EXPECT_EQ(e->perft(1), 20u);
  EXPECT_EQ(e->perft(2), 400u);
  EXPECT_EQ(e->perft(3), 8902u);
  EXPECT_EQ(e->perft(4), 197281u);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(e->perft(5), 4865609u);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("startpos perft 5: %.3f s, %.2f M nodes/s\n", secs, 4865609 / secs / 1e6);
}

TEST(ReferenceChessPerft, DefaultPerftAgreesWithFastPath) {
  // The interface's generic perft (legal_actions/apply/undo) against the engine's own.
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9"}) {
    auto e = engine_at(fen);
    EXPECT_EQ(e->Engine::perft(3), e->perft(3)) << fen;
  }
}

TEST(ReferenceChessPerft, Tricky) {
  run_suite("tricky.perft", UINT64_MAX);
}
TEST(ReferenceChessPerft, Chess960) {
  run_suite("chess960.perft", 100000);
}
TEST(ReferenceChessPerft, Random) {
  run_suite("random.perft", 20000);
}

// ---------------------------------------------------------------------------------------
// FEN.

TEST(ReferenceChessFen, RoundTripOnSuitePositions) {
  size_t n = 0;
  for (const char* name : {"tricky.perft", "chess960.perft", "random.perft"}) {
    for (const auto& c : arb::read_perft_suite(suite_path(name))) {
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

TEST(ReferenceChessFen, StartPositionText) {
  auto e = engine_at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  EXPECT_EQ(e->position(), kStart);
  EXPECT_FALSE(e->chess960());
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
  EXPECT_EQ(e->name(), "reference:chess");
}

TEST(ReferenceChessFen, CastlingFieldsAreWrittenInXFen) {
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
}

TEST(ReferenceChessFen, EnPassantFieldOnlyWhenCaptureIsLegal) {
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

TEST(ReferenceChessFen, RejectsBadPositions) {
  auto e = arb::ref::make_chess_engine();
  const std::vector<std::string> bad = {
      "",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
      "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
      "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",
      "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
      "3pk3/8/8/8/8/8/8/4K3 w - - 0 1",
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
  for (const std::string& fen : bad) {
    EXPECT_THROW(e->set_position(fen), arb::PositionError) << fen;
  }
  // A failed set_position leaves the engine as it was.
  e->set_position(kStart);
  EXPECT_THROW(e->set_position("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"), arb::PositionError);
  EXPECT_EQ(e->position(), kStart);
  EXPECT_EQ(e->perft(2), 400u);
}

// ---------------------------------------------------------------------------------------
// Status.

TEST(ReferenceChessStatus, CheckmateAndStalemate) {
  auto e = engine_at(kStart);
  for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) play(*e, m);
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::BlackWins);
  EXPECT_EQ(st.reason, "checkmate");
  EXPECT_TRUE(st.in_check);

  auto w = engine_at("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(w->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(w->status().reason, "checkmate");

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
}

TEST(ReferenceChessStatus, InsufficientMaterial) {
  auto reason = [](const char* fen) { return engine_at(fen)->status().reason; };
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4kn2/8/8/8/8/8/8/4K3 w - - 0 1"), "insufficient-material");
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
}

TEST(ReferenceChessStatus, FiftyMoveClaim) {
  auto e = engine_at("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
  EXPECT_FALSE(e->status().claim_fifty);
  play(*e, "a1a2");
  EXPECT_FALSE(e->status().claim_fifty);
  play(*e, "e8d8");
  EXPECT_TRUE(e->status().claim_fifty);
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);  // a claim does not end the game
  EXPECT_EQ(e->position(), "3k4/8/8/8/8/8/R7/4K3 w - - 100 81");
  e->undo();
  EXPECT_FALSE(e->status().claim_fifty);
  // A pawn move or a capture resets the clock.
  auto p = engine_at("4k3/8/8/8/8/8/P7/4K3 w - - 120 80");
  EXPECT_TRUE(p->status().claim_fifty);
  play(*p, "a2a3");
  EXPECT_FALSE(p->status().claim_fifty);
  EXPECT_EQ(p->position(), "4k3/8/8/8/8/P7/8/4K3 b - - 0 80");
}

TEST(ReferenceChessStatus, ThreefoldClaim) {
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
  // Positions repeat only with the same castling rights: after Ke2 Ke7 Ke1 Ke8 the board
  // is the start again but the rights are gone.
  auto k = engine_at("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
  for (const char* m : {"e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8"}) play(*k, m);
  EXPECT_FALSE(k->status().claim_threefold);
  for (const char* m : {"e1d1", "e8d8", "d1e1", "d8e8"}) play(*k, m);
  EXPECT_TRUE(k->status().claim_threefold);
}

// ---------------------------------------------------------------------------------------
// Moves: castling, en passant, promotion, pins.

TEST(ReferenceChessMoves, StandardCastling) {
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

TEST(ReferenceChessMoves, Chess960Castling) {
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

TEST(ReferenceChessMoves, EnPassantAndPromotion) {
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

TEST(ReferenceChessMoves, SanDisambiguation) {
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

TEST(ReferenceChessUndo, RandomWalksRestorePositionAndHash) {
  std::mt19937_64 rng(20240601);
  std::vector<std::string> starts = {kStart};
  for (const char* name : {"tricky.perft", "chess960.perft"})
    for (const auto& c : arb::read_perft_suite(suite_path(name))) starts.push_back(c.position);
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
  EXPECT_THROW(engine_at(kStart)->undo(), std::logic_error);
  std::printf("random walks: %zu moves applied and undone\n", steps);
}

}  // namespace
