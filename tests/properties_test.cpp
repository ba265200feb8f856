// Properties of the compiled generator (rulesets/chess.rules and rulesets/chessembly.rules),
// checked by RapidCheck on positions reached by random legal playouts: from the start,
// and for chess also from the positions of corpus/perft/random.perft. A generated case
// is (start index, seed, number of plies); shrinking goes toward fewer plies and smaller
// seeds, so a counterexample is a short game. RC_PARAMS (e.g. "max_success=500") tunes
// the number of cases.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "arbiter/perft_suite.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;
using arb::Action;
using arb::Engine;

// Start positions for a variant: its start, and for chess the random.perft positions.
const std::vector<std::string>& starts(const std::string& variant) {
  static const std::vector<std::string> chess = [] {
    std::vector<std::string> out = {kChessStart};
    for (const auto& c : arb::read_perft_suite(corpus_path("perft/random.perft"))) out.push_back(c.position);
    return out;
  }();
  static const std::vector<std::string> chessembly = {kChessemblyStart};
  return variant == "chess" ? chess : chessembly;
}

// A compiled engine at a generated position. Also checks, on the way, that undoing the
// whole playout walks back through the same position texts and hashes.
std::unique_ptr<Engine> generated_position(const std::string& variant, int max_plies) {
  const auto& s = starts(variant);
  // Half of the chess cases start from the start position, half from random.perft.
  const size_t index =
      s.size() == 1 || *rc::gen::arbitrary<bool>() ? 0 : *rc::gen::inRange<size_t>(1, s.size());
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const int plies = *rc::gen::inRange(0, max_plies + 1);
  auto e = compiled_at(variant, s[index]);
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, uint64_t>> trail;
  std::vector<Action> actions;
  for (int i = 0; i < plies; ++i) {
    e->legal_actions(actions);
    if (actions.empty()) break;
    trail.push_back({e->position(), e->hash()});
    e->apply(actions[rng() % actions.size()]);
  }
  RC_LOG(e->position());
  // Undo all of it on a copy: every step back restores the text and the hash.
  auto back = e->clone();
  for (size_t i = trail.size(); i-- > 0;) {
    back->undo();
    RC_ASSERT(back->position() == trail[i].first);
    RC_ASSERT(back->hash() == trail[i].second);
  }
  return e;
}

// ---------------------------------------------------------------------------------------
// apply then undo restores exactly position(), hash() and status() (claims included).

void apply_undo_restores(const std::string& variant) {
  auto e = generated_position(variant, 80);
  const std::string text = e->position();
  const uint64_t hash = e->hash();
  const arb::Status st = e->status();
  std::vector<Action> actions;
  e->legal_actions(actions);
  for (const Action& a : actions) {
    const std::string what = canonical(*e, a);
    e->apply(a);
    RC_ASSERT(e->position() != text);
    e->undo();
    if (e->position() != text || e->hash() != hash) RC_LOG("apply/undo of " + what);
    RC_ASSERT(e->position() == text);
    RC_ASSERT(e->hash() == hash);
    const arb::Status again = e->status();
    RC_ASSERT(again.reason == st.reason);
    RC_ASSERT(again.in_check == st.in_check);
    RC_ASSERT(again.claim_threefold == st.claim_threefold);
    RC_ASSERT(again.claim_fifty == st.claim_fifty);
  }
  std::vector<Action> after;
  e->legal_actions(after);
  RC_ASSERT(after == actions);
}

RC_GTEST_PROP(CompiledChessProperties, ApplyUndoRestores, ()) {
  apply_undo_restores("chess");
}
RC_GTEST_PROP(CompiledChessemblyProperties, ApplyUndoRestores, ()) {
  apply_undo_restores("chessembly");
}

// ---------------------------------------------------------------------------------------
// No legal action leaves the mover's royal piece attacked.
//
// Method: after apply(a), the position text (the opponent to move) is loaded into the
// hand-written REFERENCE engine of the variant, whose set_position refuses any position
// in which the side not to move is in check (and, in Chessembly, kings standing adjacent).
// The reference shares no move logic with the compiled generator, so this is an
// independent judge of "the mover's king is attacked". A second, weaker check uses the
// compiled engine itself: none of the opponent's replies captures on the mover's royal
// square (a pseudo-legal capture of a king would show the king was left attacked).
void no_action_leaves_royal_attacked(const std::string& variant) {
  auto e = generated_position(variant, 80);
  auto ref = arb::ref::make_reference_engine(variant);
  std::vector<Action> actions, replies;
  e->legal_actions(actions);
  for (const Action& a : actions) {
    const std::string what = canonical(*e, a);
    e->apply(a);
    const std::string after = e->position();
    std::string refused;
    try {
      ref->set_position(after);
    } catch (const arb::PositionError& err) {
      refused = err.what();
    }
    if (!refused.empty()) RC_LOG(what + " leads to " + after + ", refused by the reference: " + refused);
    RC_ASSERT(refused.empty());
    // The mover's royal square in the resulting position.
    const arb::Color mover = arb::opposite(e->side_to_move());
    const char king = mover == arb::Color::White ? 'K' : 'k';
    arb::FenFields f = arb::parse_fen(after, 8, 8, "KQRBNPkqrbnp");
    std::optional<arb::Coord> royal;
    for (int y = 1; y <= 8; ++y)
      for (int x = 0; x < 8; ++x)
        if (f.at(arb::Coord{x, y}) == king) royal = arb::Coord{x, y};
    if (royal) {
      e->legal_actions(replies);
      for (const Action& r : replies) {
        const arb::ActionInfo info = e->describe(r);
        for (const arb::Step& s : info.steps) {
          const bool takes_royal = s.kind == arb::StepKind::Move && s.to == *royal;
          if (takes_royal) RC_LOG(what + " leaves the royal to " + canonical(*e, r) + " in " + after);
          RC_ASSERT(!takes_royal);
        }
      }
    }
    e->undo();
  }
}

RC_GTEST_PROP(CompiledChessProperties, NoLegalActionLeavesTheMoverInCheck, ()) {
  no_action_leaves_royal_attacked("chess");
}
RC_GTEST_PROP(CompiledChessemblyProperties, NoLegalActionLeavesTheMoverInCheck, ()) {
  no_action_leaves_royal_attacked("chessembly");
}

// ---------------------------------------------------------------------------------------
// The colour-flipped position (ranks mirrored, colours and side swapped, castling and
// en-passant mirrored, reserves swapped) has the same perft, and its legal actions are the
// mirror images of the original's.

// Mirrors the ranks of the squares in a canonical action text (`e2e4` -> `e7e5`, `P@e1`
// -> `P@e8`, `e1h1` -> `e8h8`); promotion and piece letters stay.
std::string mirror_text(const std::string& t) {
  std::string out = t;
  for (size_t i = 0; i + 1 < out.size(); ++i)
    if (out[i] >= 'a' && out[i] <= 'h' && out[i + 1] >= '1' && out[i + 1] <= '8' &&
        (i + 2 >= out.size() || !std::isdigit(static_cast<unsigned char>(out[i + 2])))) {
      out[i + 1] = static_cast<char>('1' + ('8' - out[i + 1]));
      ++i;
    }
  return out;
}

void flip_keeps_perft(const std::string& variant, int depth) {
  auto e = generated_position(variant, 60);
  const std::string text = e->position();
  const std::string flipped = flip_fen(text);
  RC_LOG(flipped);
  RC_ASSERT(flip_fen(flipped) == text);
  std::unique_ptr<Engine> f;
  try {
    f = compiled_at(variant, flipped);
  } catch (const arb::PositionError& err) {
    RC_FAIL(std::string("the flipped position is refused: ") + err.what());
  }
  RC_ASSERT(f->side_to_move() == arb::opposite(e->side_to_move()));
  std::vector<std::string> mirrored;
  for (const std::string& t : legal_texts(*e)) mirrored.push_back(mirror_text(t));
  std::sort(mirrored.begin(), mirrored.end());
  RC_ASSERT(legal_texts(*f) == mirrored);
  RC_ASSERT(f->status().reason == e->status().reason);
  RC_ASSERT(f->status().in_check == e->status().in_check);
  for (int d = 1; d <= depth; ++d) RC_ASSERT(f->perft(d) == e->perft(d));
}

RC_GTEST_PROP(CompiledChessProperties, ColourFlipKeepsPerft, ()) {
  flip_keeps_perft("chess", 3);
}
RC_GTEST_PROP(CompiledChessemblyProperties, ColourFlipKeepsPerft, ()) {
  flip_keeps_perft("chessembly", 3);
}

// ---------------------------------------------------------------------------------------
// Position text round-trips, and the incremental hash equals the hash of the text.

void text_round_trips(const std::string& variant) {
  auto e = generated_position(variant, 100);
  const std::string text = e->position();
  const uint64_t hash = e->hash();
  auto fresh = compiled_at(variant, text);
  RC_ASSERT(fresh->position() == text);
  RC_ASSERT(fresh->hash() == hash);  // the hash depends on the position, not on the path
  RC_ASSERT(fresh->side_to_move() == e->side_to_move());
  RC_ASSERT(fresh->chess960() == e->chess960());
  e->set_position(text);
  RC_ASSERT(e->position() == text);
  RC_ASSERT(e->hash() == hash);
  RC_ASSERT(legal_texts(*fresh) == legal_texts(*e));
  // The reference engine reads and writes the same text.
  auto ref = reference_at(variant, text);
  RC_ASSERT(ref->position() == text);
}

RC_GTEST_PROP(CompiledChessProperties, PositionTextRoundTrips, ()) {
  text_round_trips("chess");
}
RC_GTEST_PROP(CompiledChessemblyProperties, PositionTextRoundTrips, ()) {
  text_round_trips("chessembly");
}

// ---------------------------------------------------------------------------------------
// Perft does not depend on the order in which actions are listed: the interface-only
// perft over a shuffled action list at every node gives the engine's own count.

void perft_order_independent(const std::string& variant, int depth) {
  auto e = generated_position(variant, 60);
  std::mt19937_64 rng(*rc::gen::arbitrary<uint64_t>());
  const std::string text = e->position();
  const uint64_t want = e->perft(depth);
  RC_ASSERT(shuffled_perft(*e, depth, rng) == want);
  RC_ASSERT(e->position() == text);
}

RC_GTEST_PROP(CompiledChessProperties, PerftIndependentOfActionOrder, ()) {
  perft_order_independent("chess", 3);
}
RC_GTEST_PROP(CompiledChessemblyProperties, PerftIndependentOfActionOrder, ()) {
  perft_order_independent("chessembly", 2);
}

// flip_fen and mirror_text themselves, on known texts.
TEST(PropertyHelpers, FlipAndMirror) {
  EXPECT_EQ(flip_fen(kChessStart), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(flip_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
  EXPECT_EQ(flip_fen("1r2k1rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1"), "rr2k2r/8/8/8/8/8/8/1R2K1RR b GQkb - 0 1");
  EXPECT_EQ(flip_fen("8/8/8/8/8/8/8/4K3[QRPqp] b - - 0 3"), "4k3/8/8/8/8/8/8/8[QPqrp] w - - 0 3");
  EXPECT_EQ(mirror_text("e2e4"), "e7e5");
  EXPECT_EQ(mirror_text("a7b8b"), "a2b1b");
  EXPECT_EQ(mirror_text("P@e1"), "P@e8");
  EXPECT_EQ(mirror_text("e1h1"), "e8h8");
}

}  // namespace
