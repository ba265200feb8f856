// Every position text the tool prints, it reads back: RapidCheck properties per variant
// (chess, Chessembly, ChessMe) and per engine (compiled, reference). A case is a start
// (chess and Chessembly: the start or a random.perft position with random move counters;
// ChessMe: the seeded start or kings and pawns at random coordinates, extreme ones
// included) and a random playout; after every ply the text the engine prints must load
// into a fresh engine and print the same text.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "arbiter/chessme_text.hpp"
#include "arbiter/perft_suite.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;

std::unique_ptr<arb::Engine> make(const std::string& variant, bool reference) {
  return reference ? arb::ref::make_reference_engine(variant) : compiled_engine(variant);
}

// The text `e` prints reads back into a fresh engine as the same text.
void reads_back(arb::Engine& e, arb::Engine& fresh) {
  const std::string text = e.position();
  RC_LOG(text);
  try {
    fresh.set_position(text);
  } catch (const arb::PositionError& err) {
    RC_FAIL(e.name() + " refuses the text it printed: " + text + " (" + err.what() + ")");
  }
  RC_ASSERT(fresh.position() == text);
}

void playout_reads_back(arb::Engine& e, arb::Engine& fresh, int plies, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<arb::Action> actions;
  reads_back(e, fresh);
  for (int i = 0; i < plies; ++i) {
    e.legal_actions(actions);
    if (actions.empty()) break;
    e.apply(actions[rng() % actions.size()]);
    reads_back(e, fresh);
  }
}

// A FEN start with random halfmove/fullmove counters (large ones included).
std::string fen_start(const std::string& variant) {
  static const std::vector<std::string> positions = [] {
    std::vector<std::string> out;
    for (const auto& c : arb::read_perft_suite(corpus_path("perft/random.perft"))) out.push_back(c.position);
    return out;
  }();
  std::string base = variant == "chess" ? kChessStart : kChessemblyStart;
  if (variant == "chess" && *rc::gen::arbitrary<bool>())
    base = positions[*rc::gen::inRange<size_t>(0, positions.size())];
  // The board, side, castling and en-passant fields, then our counters.
  std::string fields;
  int n = 0;
  for (size_t i = 0; i < base.size() && n < 4; ++i) {
    if (base[i] == ' ' && ++n == 4) break;
    fields.push_back(base[i]);
  }
  const int halfmove = *rc::gen::oneOf(rc::gen::inRange(0, 100), rc::gen::inRange(0, INT_MAX - 1000));
  const int fullmove = *rc::gen::oneOf(rc::gen::inRange(1, 100), rc::gen::inRange(1, INT_MAX - 1000));
  return fields + " " + std::to_string(halfmove) + " " + std::to_string(fullmove);
}

void fen_property(const std::string& variant, bool reference) {
  auto e = make(variant, reference);
  auto fresh = make(variant, reference);
  const std::string start = fen_start(variant);
  RC_LOG(start);
  try {
    e->set_position(start);
  } catch (const arb::PositionError&) {
    RC_DISCARD("the engine refuses this start");
  }
  playout_reads_back(*e, *fresh, *rc::gen::inRange(0, 120), *rc::gen::arbitrary<uint64_t>());
}

// A coordinate: small, around 10^9 (the old reader's limit) or at the int32 limits.
rc::Gen<int32_t> coordinate() {
  return rc::gen::oneOf(rc::gen::inRange<int32_t>(-20, 20), rc::gen::inRange<int32_t>(999999980, 1000000020),
                        rc::gen::inRange<int32_t>(-1000000020, -999999980),
                        rc::gen::inRange<int32_t>(INT32_MAX - 8, INT32_MAX),
                        rc::gen::inRange<int32_t>(INT32_MIN, INT32_MIN + 8));
}

std::string square(int32_t x, int32_t y) {
  return arb::square_name(arb::Coord{x, y});
}

// Kings, pawns and a queen near each other somewhere on the grid, random hands.
std::string chessme_start() {
  if (*rc::gen::inRange(0, 4) == 0) return arb::chessme_start(*rc::gen::inRange<uint64_t>(0, 1000));
  const int32_t x = *coordinate(), y = *coordinate();
  auto at = [&](int dx, int dy) {
    int64_t tx = int64_t{x} + dx, ty = int64_t{y} + dy;
    tx = std::min<int64_t>(std::max<int64_t>(tx, INT32_MIN), INT32_MAX);
    ty = std::min<int64_t>(std::max<int64_t>(ty, INT32_MIN), INT32_MAX);
    return square(static_cast<int32_t>(tx), static_cast<int32_t>(ty));
  };
  // Offsets chosen so that no two pieces share a square even when clamped at a limit.
  std::string pieces =
      "k" + at(0, 6) + ",p" + at(1, 4) + ",P" + at(-1, 1) + ",K" + at(0, 0) + ",q" + at(3, 3);
  const std::string hands = *rc::gen::element<std::string>("-/-", "QRN/qrb", "P/p", "B/-");
  const std::string fullmove = std::to_string(
      *rc::gen::oneOf(rc::gen::inRange(1, 50), rc::gen::inRange(INT_MAX - 1000, INT_MAX - 500)));
  return pieces + " " + (*rc::gen::arbitrary<bool>() ? "w" : "b") + " " + hands + " -/- -/- " + fullmove;
}

void chessme_property(bool reference) {
  auto e = make("chessme", reference);
  auto fresh = make("chessme", reference);
  const std::string start = chessme_start();
  RC_LOG(start);
  try {
    e->set_position(start);
  } catch (const arb::PositionError& err) {
    RC_DISCARD(std::string("the engine refuses this start: ") + err.what());
  }
  playout_reads_back(*e, *fresh, *rc::gen::inRange(0, 40), *rc::gen::arbitrary<uint64_t>());
}

}  // namespace

RC_GTEST_PROP(ReadBack, ChessCompiled, ()) {
  fen_property("chess", false);
}
RC_GTEST_PROP(ReadBack, ChessReference, ()) {
  fen_property("chess", true);
}
RC_GTEST_PROP(ReadBack, ChessemblyCompiled, ()) {
  fen_property("chessembly", false);
}
RC_GTEST_PROP(ReadBack, ChessemblyReference, ()) {
  fen_property("chessembly", true);
}
RC_GTEST_PROP(ReadBack, ChessMeCompiled, ()) {
  chessme_property(false);
}
RC_GTEST_PROP(ReadBack, ChessMeReference, ()) {
  chessme_property(true);
}

// The example that failed before: a piece at the old reader's limit (10^9) moves past it,
// and the text printed then must read back.
TEST(ReadBack, ChessMePastTheOldLimit) {
  for (bool reference : {false, true}) {
    auto e = make("chessme", reference);
    auto fresh = make("chessme", reference);
    e->set_position("k(999999990,20),K(1000000000,1),Q(1000000000,2) w -/- -/- -/- 1");
    std::vector<arb::Action> actions;
    e->legal_actions(actions);
    ASSERT_FALSE(actions.empty());
    for (const auto& a : actions) {
      e->apply(a);
      std::string text = e->position();
      EXPECT_NO_THROW(fresh->set_position(text)) << text;
      e->undo();
    }
  }
}

// Found by `arbiter fuzz --properties`: after a Berolina pawn's diagonal double step f7-d5
// the generator prints en passant e6 (exe6 takes the pawn on d5); reading that text back
// must keep e6, whose victim follows from the double step's geometry, not from the square
// straight behind it.
TEST(ReadBack, BerolinaDiagonalDoubleStepKeepsEnPassant) {
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(corpus_path("rulesets/berolina.rules"), {}, diags);
  ASSERT_NE(c.program, nullptr) << diags.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  auto fresh = arb::lang::make_compiled_engine(c.program);
  e->set_position("4k3/5p2/8/4P3/8/8/8/4K3 b - - 0 1");
  e->apply(find_action(*e, "f7d5"));
  const std::string text = e->position();
  ASSERT_NE(text.find(" e6 "), std::string::npos) << text;
  fresh->set_position(text);
  EXPECT_EQ(fresh->position(), text);
  std::vector<std::string> played, read;
  std::vector<arb::Action> actions;
  e->legal_actions(actions);
  for (const auto& a : actions) played.push_back(canonical(*e, a));
  fresh->legal_actions(actions);
  for (const auto& a : actions) read.push_back(canonical(*fresh, a));
  EXPECT_EQ(played, read);
  EXPECT_EQ(fresh->perft(2), e->perft(2));
}
