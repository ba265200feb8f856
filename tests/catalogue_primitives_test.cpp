// The general fixes issue 24's catalogue needed, each on a hand-checked position (the
// catalogue suites, tests/fsf_catalogue_test.cpp, check them against Fairy-Stockfish's
// counts): castling on another rank and with several castling pieces, one colour's own
// promotion choices, Betza direction letters on an orthogonal atom, castling without check
// rules, and a capture that explodes the capturer's own king.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "arbiter/lang/betza.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;

std::unique_ptr<arb::Engine> catalogue_at(const std::string& name, const std::string& fen) {
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(source_path("rulesets/fsf/" + name + ".rules"), {}, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  if (!c.program) return nullptr;
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position(fen);
  return e;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::vector<std::string> starting_with(const std::vector<std::string>& v, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& s : v)
    if (s.rfind(prefix, 0) == 0) out.push_back(s);
  return out;
}

// Shako: king f2, rooks b2 and i2 on rank 2 (`castling { rank 2 }`); the king castles to h2
// (rook to g2) and to d2 (rook to e2), and the castling field reads back as KQkq.
TEST(CataloguePrimitives, CastlingOnTheSecondRank) {
  const std::string fen = "c8c/er3k2re/10/10/10/10/10/10/ER3K2RE/C8C w KQkq - 0 1";
  auto e = catalogue_at("shako", fen);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->position(), fen);
  const auto moves = legal_texts(*e);
  EXPECT_TRUE(has(moves, "f2i2")) << "king side: the king takes the rook's square in canonical text";
  EXPECT_TRUE(has(moves, "f2b2"));
  play(*e, "f2i2");
  EXPECT_EQ(e->position(), "c8c/er3k2re/10/10/10/10/10/10/ER4RK1E/C8C b kq - 1 1");
  // A rank-1 castling field would not read: the kings stand on rank 2.
  EXPECT_THROW(catalogue_at("chess", fen), std::exception);
}

// Perfect chess: the chancellor on a1 castles with the king (`rook R C`); `Q` names it.
TEST(CataloguePrimitives, CastlingWithSeveralPieceTypes) {
  const std::string fen = "c3k2r/8/8/8/8/8/8/C3K2R w KQkq - 0 1";
  auto e = catalogue_at("perfect", fen);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->position(), fen);
  EXPECT_TRUE(has(legal_texts(*e), "e1a1"));
  play(*e, "e1a1");
  EXPECT_EQ(e->position(), "c3k2r/8/8/8/8/8/8/2KC3R b kq - 1 1");
}

// Sort of almost chess: White promotes to C R B N, Black to Q R B N.
TEST(CataloguePrimitives, PromotionChoicesPerColour) {
  auto w = catalogue_at("sortofalmost", "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1");
  ASSERT_NE(w, nullptr);
  const auto white = starting_with(legal_texts(*w), "b7b8");
  EXPECT_EQ(white, (std::vector<std::string>{"b7b8b", "b7b8c", "b7b8n", "b7b8r"}));
  auto b = catalogue_at("sortofalmost", "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1");
  ASSERT_NE(b, nullptr);
  const auto black = starting_with(legal_texts(*b), "g2g1");
  EXPECT_EQ(black, (std::vector<std::string>{"g2g1b", "g2g1n", "g2g1q", "g2g1r"}));
}

// `fsmW`: on W the letters f and s name no pair, so each counts alone (forward and both
// sideways steps); on N, `fs` stays the pair (the two flat forward leaps).
TEST(CataloguePrimitives, DirectionLettersOnAnOrthogonalAtomCountAlone) {
  std::vector<arb::lang::BetzaMove> moves;
  arb::lang::BetzaError err;
  ASSERT_TRUE(arb::lang::parse_betza("fsmW", moves, err)) << err.message;
  std::vector<std::pair<int, int>> dirs;
  for (const auto& m : moves) dirs.push_back({m.dx, m.dy});
  std::sort(dirs.begin(), dirs.end());
  EXPECT_EQ(dirs, (std::vector<std::pair<int, int>>{{-1, 0}, {0, 1}, {1, 0}}));
  moves.clear();
  ASSERT_TRUE(arb::lang::parse_betza("fsN", moves, err)) << err.message;
  dirs.clear();
  for (const auto& m : moves) dirs.push_back({m.dx, m.dy});
  std::sort(dirs.begin(), dirs.end());
  EXPECT_EQ(dirs, (std::vector<std::pair<int, int>>{{-2, 1}, {2, 1}}));
}

// Without `royal-safe` (no check) the king castles through an attacked square; with it, not.
TEST(CataloguePrimitives, CastlingThroughAttackWithoutCheckRules) {
  const std::string through = "4k3/8/8/8/8/7n/8/4K2R w K - 0 1";  // the knight h3 attacks f2 and g1
  auto no_check = catalogue_at("nocheckatomic", through);
  ASSERT_NE(no_check, nullptr);
  EXPECT_TRUE(has(legal_texts(*no_check), "e1h1"));
  auto chess = catalogue_at("atomic", through);
  ASSERT_NE(chess, nullptr);
  EXPECT_FALSE(has(legal_texts(*chess), "e1h1"));
}

// No-check atomic: a king that captures explodes with its victim; the game is then over
// (no action), lost by the side whose king exploded (`extinction K -> loss`). A king that
// takes the other explodes both: the side that just moved is judged first and loses, as
// Fairy-Stockfish judges it (the catalogue sweep's `3k4/4K3/8/8/8/8/8/8 b - - 0 1` d8e7:
// `royal-capture -> win` had called it the mover's win).
TEST(CataloguePrimitives, AKingsOwnExplosionEndsTheGame) {
  auto both = catalogue_at("nocheckatomic", "3k4/4K3/8/8/8/8/8/8 b - - 0 1");
  ASSERT_NE(both, nullptr);
  play(*both, "d8e7");
  EXPECT_EQ(both->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(both->perft(1), 0u);
  auto e = catalogue_at("nocheckatomic", "4k3/8/8/8/8/8/4n3/4K3 w - - 0 1");
  ASSERT_NE(e, nullptr);
  play(*e, "e1e2");
  EXPECT_EQ(e->perft(1), 0u);
  const arb::Status st = e->status();
  EXPECT_EQ(st.result, arb::Result::BlackWins);
  EXPECT_EQ(st.end, arb::Termination::Extinction);
  // The position text without White's king reads back (Black to move, the game over).
  auto again = catalogue_at("nocheckatomic", e->position());
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->status().result, arb::Result::BlackWins);
}

}  // namespace
