// Issue 26, the catalogue sweep's notation divergences (corpus/fsf/SWEEP.md): the adapter of
// Fairy-Stockfish (checker/fsf/) and the compiled engine name the same actions and write the
// same positions, at positions where the sweep found them apart. Each variant is opened as
// `arbiter fuzz --against fairy-stockfish` opens it (the ruleset's facts passed on). Debian's
// Fairy-Stockfish 11.1 where it knows the variant, else current Fairy-Stockfish (the npm
// wasm build, $ARBITER_FSF_WASM_DIR or the build folder); skipped where the engine is absent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "fsf/fairy_stockfish.hpp"
#include "fsf_helpers.hpp"
#include "fuzz/fuzz.hpp"
#include "helpers.hpp"
#include "registry/engines.hpp"

namespace fs = std::filesystem;

namespace {

using fsf_testing::fsf_for;
using fsf_testing::have_wasm;
using fsf_testing::kDebian;
using fsf_testing::wasm_dir;
using testing_helpers::legal_texts;

// Both engines at `fen`: the same position text and the same actions.
void expect_same_node(arb::Engine& c, arb::Engine& f, const std::string& where) {
  EXPECT_EQ(f.position(), c.position()) << where;
  EXPECT_EQ(legal_texts(f), legal_texts(c)) << where;
}

// Plays `moves` on both, comparing every node.
void expect_same_line(arb::Engine& c, arb::Engine& f, const std::vector<std::string>& moves) {
  f.set_position(c.position());
  expect_same_node(c, f, c.position());
  for (const auto& m : moves) {
    c.apply(testing_helpers::find_action(c, m));
    f.apply(testing_helpers::find_action(f, m));
    expect_same_node(c, f, "after " + m);
  }
}

}  // namespace

// Janggi's pass is the king's square twice (`e2e2`), as Fairy-Stockfish and the compiled
// engine write it; only without the ruleset (nothing says the variant's pass is a move in
// place) is it read as a pass step, as ataxx's and flipello's `pass when-blocked` is.
TEST(FsfSweep, JanggiPassIsTheKingsSquareTwice) {
  REQUIRE_DEBIAN();
  auto c = testing_helpers::catalogue_at("janggi", "start");
  auto f = fsf_for("janggi", kDebian);
  expect_same_line(*c, *f, {"a1a2", "e9e9", "a2a3"});
  auto texts = legal_texts(*f);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "e9e9"), texts.end());
  arb::fsf::FsfSettings bare;
  bare.command = kDebian;
  bare.variant = "janggi";
  arb::fsf::FairyStockfishEngine plain(bare);
  texts = legal_texts(plain);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "pass"), texts.end());
  EXPECT_EQ(std::find(texts.begin(), texts.end(), "e2e2"), texts.end());
}

// Kyoto shogi starts with promoted pieces (`p+nks+l/5/5/5/+LSK+NP[]`): the adapter reads and
// writes `+X`, names a promotion (`+`), a demotion (`-`) and a promoted drop (`+N@c3`) by the
// ruleset's types, and a promotion that can be undone keeps the clock running (the sweep's
// `d5e4b`: Fairy-Stockfish resets the clock for a promotion only without pieceDemotion).
TEST(FsfSweep, KyotoshogiPromotedPiecesAndTheirClock) {
  REQUIRE_WASM();
  const std::string engine = "wasm:" + wasm_dir();
  auto f = fsf_for("kyotoshogi", engine);
  auto c = testing_helpers::catalogue_at("kyotoshogi", "start");
  expect_same_line(*c, *f, {});
  c = testing_helpers::catalogue_at("kyotoshogi", "p+nks+l/5/5/2K2/+LS1+NP[] b - - 1 1");
  expect_same_line(*c, *f, {"d5e4b"});
  EXPECT_EQ(f->position(), "p+nk1+l/4+s/5/2K2/+LS1+NP[] w - - 2 2");
  c = testing_helpers::catalogue_at("kyotoshogi", "4k/5/5/5/K4[Nn] w - - 3 1");
  expect_same_line(*c, *f, {"M@c3"});
  EXPECT_EQ(f->position(), "4k/5/2+N2/5/K4[n] b - - 0 1");  // a drop resets it
}

// Micro shogi's start has `+R` and `+L`, its promotions and demotions happen on captures.
TEST(FsfSweep, MicroStartsWithPromotedPieces) {
  REQUIRE_DEBIAN();
  auto f = fsf_for("micro", kDebian);
  auto c = testing_helpers::catalogue_at("micro", "start");
  expect_same_line(*c, *f, {});
  EXPECT_EQ(f->perft(3), c->perft(3));
}

// The fifty-move count of Fairy-Stockfish's custom pawns (nMoveRuleTypes): pawnback's pawn
// resets it by no move of its own (a capture or a promotion still does), pawnsideways' only by
// a move it cannot step straight back from. The compiled engine alone (no engine needed).
TEST(FsfSweep, CustomPawnsResetTheClockAsTheRulesetStates) {
  const auto after = [](const std::string& name, const std::string& fen, const std::string& move) {
    auto c = testing_helpers::catalogue_at(name, fen);
    c->apply(testing_helpers::find_action(*c, move));
    return c->position();
  };
  const std::string back = "4k3/1P6/8/8/8/8/1P6/4K3 w - - 5 10";
  EXPECT_EQ(after("pawnback", back, "b2b3"), "4k3/1P6/8/8/8/1P6/8/4K3 b - - 6 10");
  EXPECT_EQ(after("pawnback", back, "b2b4"), "4k3/1P6/8/8/1P6/8/8/4K3 b - b3b4 6 10");
  EXPECT_EQ(after("pawnback", back, "b7b8q"), "1Q2k3/8/8/8/8/8/1P6/4K3 b - - 0 10");
  const std::string side = "4k3/8/8/8/8/8/4P3/4K3 w - - 5 10";
  EXPECT_EQ(after("pawnsideways", side, "e2d2"), "4k3/8/8/8/8/8/3P4/4K3 b - - 6 10");
  EXPECT_EQ(after("pawnsideways", side, "e2e3"), "4k3/8/8/8/8/4P3/8/4K3 b - - 0 10");
  EXPECT_EQ(after("pawnsideways", side, "e2e4"), "4k3/8/8/8/4P3/8/8/4K3 b - e3e4 0 10");
  EXPECT_EQ(after("chess", side, "e2e3"), "4k3/8/8/8/8/4P3/8/4K3 b - - 0 10");  // chess's pawn as before
}

// The en-passant fields of the sweep through current Fairy-Stockfish. A custom pawn's field
// is the square passed and the arrival whether or not a capture is possible (berolina's
// `f5g6`, pawnback's `c5c6`: the adapter kept it only with a capture, as a chess pawn's),
// and a one-square field of such a pawn is sent in that form (`c3` is `c3c4`). Opulent's
// (and tencubed's) pawns double-step from rank 3, so an en-passant square on rank 3 is no
// position of the game (Fairy-Stockfish honoured it and listed `j4i3`). Two variants, each
// a process of the wasm build (seconds to start).
TEST(FsfSweep, EnPassantFieldsOfTheSweep) {
  REQUIRE_WASM();
  const std::string engine = "wasm:" + wasm_dir();
  {
    auto f = fsf_for("pawnback", engine);
    auto c = testing_helpers::catalogue_at("pawnback", "4k3/1P6/8/8/8/8/1P6/4K3 w - - 5 10");
    expect_same_line(*c, *f, {"b2b4", "e8e7", "b4b3", "e7e8", "b3b4"});
    EXPECT_EQ(f->position(), "4k3/1P6/8/8/1P6/8/8/4K3 b - - 10 12");  // b3b4: a single step
    c = testing_helpers::catalogue_at("pawnback", "4k3/8/8/2p5/8/8/8/4K3 w - c5c6 0 1");
    expect_same_line(*c, *f, {"e1d1"});
    c = testing_helpers::catalogue_at("pawnback", "4k3/8/8/8/2Pp4/8/8/4K3 b - c3 0 1");
    expect_same_line(*c, *f, {"d4c3"});
    EXPECT_EQ(f->position(), "4k3/8/8/8/8/2p5/8/4K3 w - - 0 2");
    // ... but without a legal capture a one-square field is no field (the sweep's position).
    c = testing_helpers::catalogue_at("pawnback",
                                      "1r1k1b2/p2np1p1/3p2bp/QPp2P1N/PpPP4/6P1/1P1PB1RP/2B1K3 b - a3 2 29");
    expect_same_line(*c, *f, {});
    EXPECT_EQ(f->position(), "1r1k1b2/p2np1p1/3p2bp/QPp2P1N/PpPP4/6P1/1P1PB1RP/2B1K3 b - - 2 29");
  }
  {
    auto f = fsf_for("opulent", engine);
    auto c = testing_helpers::catalogue_at("opulent", "10/5k4/10/10/10/8K1/8Pp/10/10/10 b - i3 0 1");
    expect_same_line(*c, *f, {});
    EXPECT_EQ(f->position(), "10/5k4/10/10/10/8K1/8Pp/10/10/10 b - - 0 1");
    c = testing_helpers::catalogue_at("opulent", "10/5k4/10/10/10/8p1/10/7P2/10/5K4 w - - 0 1");
    expect_same_line(*c, *f, {"h3h5", "i5h4"});  // a double step from rank 3, taken en passant
  }
}

// Janggi's second pass in a row ends the game (counted: Black's komi wins an even count).
// The adapter reads the verdict from the last move's search, which must know the first pass:
// it sends the parent with the move before it (janggitraditional's and janggicasual's sweeps
// stopped at `no score for a position without moves`).
TEST(FsfSweep, JanggiDoublePassVerdict) {
  REQUIRE_DEBIAN();
  auto c = testing_helpers::catalogue_at("janggi", "start");
  auto f = fsf_for("janggi", kDebian);
  expect_same_line(*c, *f, {"e2e2", "e9e9"});
  // (UCI names no end condition: the verdict is compared, as fuzz compares it)
  EXPECT_EQ(c->status().result, arb::Result::BlackWins);
  EXPECT_EQ(f->status().result, arb::Result::BlackWins);
}

// Pocket knight (the sweep at 2d550e5): a lone king with a piece in hand is not a dead
// position, since the piece may still be dropped. The adapter's dead-position rule counted
// the board only and called `4k3/8/8/8/8/8/8/3K4[B]` insufficient material, where the
// ruleset (`insufficient-material -> draw when reserves-empty`) plays on; with the hands
// empty both call it a draw.
// Current Fairy-Stockfish only (11.1 lacks the variant); not under the sanitizers, where the
// adapter's code is the same and the engine's start-up is what costs.
TEST(FsfSweep, PiecesInHandAreNotADeadPosition) {
  REQUIRE_WASM();
  if (testing_helpers::fast()) GTEST_SKIP() << "the Release run covers it";
  auto c = testing_helpers::catalogue_at("pocketknight", "start");
  auto f = fsf_for("pocketknight", "wasm:" + wasm_dir());
  for (const char* fen : {"4k3/8/8/8/8/8/8/3K4[B] b - - 0 1", "4k3/8/8/8/8/8/8/3K4[N] w - - 0 1",
                          "4k3/8/8/8/8/8/8/3K4[] w - - 0 1", "4k3/8/8/8/8/8/8/2NK4[] w - - 0 1"}) {
    c->set_position(fen);
    f->set_position(fen);
    EXPECT_EQ(f->status().result, c->status().result) << fen;
    EXPECT_EQ(f->status().end, c->status().end) << fen;
  }
  f->set_position("4k3/8/8/8/8/8/8/3K4[B] b - - 0 1");
  EXPECT_EQ(f->status().result, arb::Result::Ongoing);
  f->set_position("4k3/8/8/8/8/8/8/2NK4[] w - - 0 1");
  EXPECT_EQ(f->status().end, arb::Termination::InsufficientMaterial);
}

// Extinction (the sweep at 2d550e5): at `8/3k4/8/pP6/8/2K5/8/8 w - a6 0 1` the game has ended
// (Black has lost four of the types), so no capture en passant is possible; the compiled
// engine kept the `a6` the text gave, the adapter wrote `-` (it keeps a one-square field only
// with a capture among the engine's moves, and an ended game has none). fuzz compares an
// ended position's text with the field kept only where the side's own legal en-passant
// captures land. The normalisation alone, and compare_node on two compiled engines (no
// Fairy-Stockfish needed).
TEST(FsfSweep, AnEndedPositionsEnPassantFieldIsKeptOnlyWithACapture) {
  using arb::fuzz::ended_position_text;
  const std::string ext = "8/3k4/8/pP6/8/2K5/8/8 w - a6 0 1";
  EXPECT_EQ(ended_position_text(ext, {}), "8/3k4/8/pP6/8/2K5/8/8 w - - 0 1");
  EXPECT_EQ(ended_position_text(ext, {arb::Coord{0, 6}}), ext);
  EXPECT_EQ(ended_position_text(ext, {arb::Coord{2, 6}}), "8/3k4/8/pP6/8/2K5/8/8 w - - 0 1");
  // 3check's counters after the field; a ten-rank board's square; the field last.
  EXPECT_EQ(ended_position_text("4k3/8/8/3pP3/2K5/8/8/8 w - d6 3+0 0 2", {}),
            "4k3/8/8/3pP3/2K5/8/8/8 w - - 3+0 0 2");
  EXPECT_EQ(ended_position_text("10/10/10/10/10/10/10/10/10/10 b - a10 0 1", {arb::Coord{0, 10}}),
            "10/10/10/10/10/10/10/10/10/10 b - a10 0 1");
  EXPECT_EQ(ended_position_text("8/8/8/8/8/8/8/8 w - e3", {}), "8/8/8/8/8/8/8/8 w - -");
  // Unchanged: no field, a path field (written with or without a capture), other texts.
  for (const char* same :
       {"8/3k4/8/pP6/8/2K5/8/8 w - - 0 1", "4k3/8/8/8/1P6/8/8/4K3 b - b3b4 6 10", "kc6,Kc1 w -/- -/- -/- 1",
        "8/8 w", "8/8 w - e 0 1", "8/8 w - E3 0 1", "8/8 w - e3x 0 1", "8/8 w - e12345 0 1"})
    EXPECT_EQ(ended_position_text(same, {}), same);

  auto with_field = testing_helpers::catalogue_at("extinction", ext);
  auto without = testing_helpers::catalogue_at("extinction", "8/3k4/8/pP6/8/2K5/8/8 w - - 0 1");
  ASSERT_EQ(with_field->position(), ext);  // the compiled engine keeps the field it was given
  ASSERT_NE(with_field->status().result, arb::Result::Ongoing);
  EXPECT_FALSE(arb::fuzz::compare_node(*with_field, *without));
  // While the game goes on the field is compared as written (here the capture is legal).
  auto going = testing_helpers::catalogue_at("extinction",
                                             "rnbqkbnr/1ppppppp/8/pP6/8/8/P1PPPPPP/RNBQKBNR w KQkq a6 0 3");
  auto no_field = testing_helpers::catalogue_at("extinction",
                                                "rnbqkbnr/1ppppppp/8/pP6/8/8/P1PPPPPP/RNBQKBNR w KQkq - 0 3");
  ASSERT_EQ(going->status().result, arb::Result::Ongoing);
  EXPECT_TRUE(arb::fuzz::compare_node(*going, *no_field));
}

// The same at ends Fairy-Stockfish reaches: extinction's position through current
// Fairy-Stockfish (Debian's 11.1 judges the side to move first there), and a third check
// given by a double step in 3check (reachable in a game: the pawn that could take it en
// passant would take the checker; Debian's 11.1), compared as fuzz compares them.
TEST(FsfSweep, EndedGamesCompareTheSameText) {
  REQUIRE_DEBIAN();
  {
    auto c = testing_helpers::catalogue_at("3check", "4k3/3p4/8/4P3/2K5/8/8/8 b - - 3+1 0 1");
    auto f = fsf_for("3check", kDebian);
    const auto d = arb::fuzz::reproduce(*c, *f, c->position(), "d7d5");
    EXPECT_FALSE(d) << d->what << ": " << d->left << " / " << d->right;
    EXPECT_EQ(c->position(), "4k3/8/8/3pP3/2K5/8/8/8 w - d6 3+0 0 2");
    EXPECT_EQ(f->position(), "4k3/8/8/3pP3/2K5/8/8/8 w - - 3+0 0 2");
    EXPECT_EQ(f->status().result, arb::Result::BlackWins);
  }
  if (!have_wasm() || testing_helpers::fast()) return;  // the engine's start-up costs seconds
  const std::string ext = "8/3k4/8/pP6/8/2K5/8/8 w - a6 0 1";
  auto c = testing_helpers::catalogue_at("extinction", ext);
  auto f = fsf_for("extinction", "wasm:" + wasm_dir());
  f->set_position(ext);
  EXPECT_EQ(f->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(c->status().result, f->status().result);
  const auto d = arb::fuzz::compare_node(*c, *f);
  EXPECT_FALSE(d) << d->what << ": " << d->left << " / " << d->right;
}

// The whole-catalogue sweep at 875839f: capahouse's hand `[QC]` (the compiled engine writes the
// ruleset's order) against `[CQ]` (Fairy-Stockfish's piece-type order, a chancellor first).
// A hand is a multiset: compare_node() compares the texts with their hands in one order.
TEST(FsfSweep, HandsCompareInAnyOrder) {
  using arb::fuzz::hand_sorted_text;
  EXPECT_EQ(hand_sorted_text("5k4/10/10/10/10/10/4K5/10[QC] b - - 0 1"),
            hand_sorted_text("5k4/10/10/10/10/10/4K5/10[CQ] b - - 0 1"));
  EXPECT_NE(hand_sorted_text("8/8/8/8/8/8/8/K6k[QQc] w - - 0 1"),
            hand_sorted_text("8/8/8/8/8/8/8/K6k[Qcc] w - - 0 1"));
  // An entry is kept whole: a count, a `+`, a promoted piece's `~`.
  EXPECT_EQ(hand_sorted_text("8/8/8/8/8/8/8/K6k[b~2P+N] w - - 0 1"), "8/8/8/8/8/8/8/K6k[+N2Pb~] w - - 0 1");
  EXPECT_NE(hand_sorted_text("k7/8/8/8/8/8/8/K7[b~P] w - - 0 1"),
            hand_sorted_text("k7/8/8/8/8/8/8/K7[bP~] w - - 0 1"));
  for (const char* same : {"k7/8/8/8/8/8/8/K7 w - - 0 1", "k7/8/8/8/8/8/8/K7[] w - - 0 1", "", "[", "]"})
    EXPECT_EQ(hand_sorted_text(same), same);
  REQUIRE_DEBIAN();
  const std::string fen = "5k4/10/10/10/10/10/4K5/10[QC] b - - 0 1";
  auto c = testing_helpers::catalogue_at("capahouse", fen);
  auto f = fsf_for("capahouse", kDebian);
  f->set_position(fen);
  EXPECT_EQ(f->position(), "5k4/10/10/10/10/10/4K5/10[CQ] b - - 0 1");
  const auto d = arb::fuzz::compare_node(*c, *f);
  EXPECT_FALSE(d) << d->what << ": " << d->left << " / " << d->right;
}

// The same sweep: armageddon's lone kings. Its ruleset states `draw-odds black` (a draw is
// Black's win); Fairy-Stockfish turns each draw it adjudicates into Black's win
// (materialCounting = blackdrawodds), and the dead-position draw the adapter judges itself
// (UCI reports none) now goes the same way. The current build only (11.1 has no armageddon).
TEST(FsfSweep, ArmageddonsDeadPositionIsBlacksWin) {
  if (!have_wasm() || testing_helpers::fast())
    GTEST_SKIP() << "needs the wasm build; its start-up costs seconds";
  const std::string fen = "8/8/3k4/8/8/8/8/4K3 b - - 0 1";
  auto c = testing_helpers::catalogue_at("armageddon", fen);
  auto f = fsf_for("armageddon", "wasm:" + wasm_dir());
  f->set_position(fen);
  EXPECT_EQ(f->status().result, arb::Result::BlackWins);
  EXPECT_EQ(c->status().result, arb::Result::BlackWins);
  const auto d = arb::fuzz::compare_node(*c, *f);
  EXPECT_FALSE(d) << d->what << ": " << d->left << " / " << d->right;
}

// The same sweep: fox-and-hounds with two foxes (a mutation), one on the far rank. Fairy-
// Stockfish's flag needs one flag piece there (flagPieceCount 1): White has won. The ruleset
// said every fox (`region-reached F`) and played on; it now says `any F`.
TEST(FsfSweep, OneFoxOnTheFarRankHasEscaped) {
  const std::string fen = "5F2/8/8/8/5h2/8/8/6F1 b - - 0 1";
  auto c = testing_helpers::catalogue_at("fox-and-hounds", fen);
  EXPECT_EQ(c->status().result, arb::Result::WhiteWins);
  if (!have_wasm() || testing_helpers::fast()) return;  // the engine's start-up costs seconds
  auto f = fsf_for("fox-and-hounds", "wasm:" + wasm_dir());
  f->set_position(fen);
  EXPECT_EQ(f->status().result, arb::Result::WhiteWins);
  const auto d = arb::fuzz::compare_node(*c, *f);
  EXPECT_FALSE(d) << d->what << ": " << d->left << " / " << d->right;
}

// The same sweep: nightrider's king and `N` against a lone king. The adapter's dead-position
// rule counted the letter N as a knight; a nightrider is no minor piece (Fairy-Stockfish's
// has_insufficient_material counts its knight type only), and a king and a nightrider can
// mate. The adapter now asks the engine whether it moves N and B as a knight and a bishop.
TEST(FsfSweep, ANightriderIsNoMinorPiece) {
  const std::string fen = "8/3k4/8/8/8/8/2NK4/8 w - - 0 1";
  // A bishop each on squares of one colour (c2, b7): dead.
  const std::string bishops = "8/1b1k4/8/8/8/8/2BK4/8 w - - 0 1";
  std::vector<std::pair<std::string, std::string>> runs;
  if (access(kDebian, X_OK) == 0) runs.push_back({"chess", kDebian});
  if (have_wasm() && !testing_helpers::fast()) runs.push_back({"nightrider", "wasm:" + wasm_dir()});
  if (runs.empty()) GTEST_SKIP() << "no Fairy-Stockfish";
  for (const auto& [name, engine] : runs) {
    const bool rider = name == "nightrider";
    auto c = testing_helpers::catalogue_at(name, fen);
    auto f = fsf_for(name, engine);
    f->set_position(fen);
    EXPECT_EQ(f->status().result, rider ? arb::Result::Ongoing : arb::Result::Draw) << name;
    EXPECT_EQ(c->status().result, f->status().result) << name;
    f->set_position(bishops);
    EXPECT_EQ(f->status().result, arb::Result::Draw) << name;
  }
}

// 3check and 5check (the sweep after the en-passant fix): the adapter read the fifty-move
// claim from the FEN's fifth field, which in a check-counting variant holds the checks still
// to give (`3+3`), not the clock; the clock stands before the move number. Debian's 11.1.
TEST(FsfSweep, TheFiftyMoveClaimReadsTheClockAfterTheCheckCounters) {
  REQUIRE_DEBIAN();
  for (const char* name : {"3check", "chess"}) {
    const bool counters = std::string(name) == "3check";
    auto f = fsf_for(name, kDebian);
    for (const int clock : {99, 100}) {
      const std::string fen =
          std::string("8/8/8/8/8/K6k/8/8 w - - ") + (counters ? "3+3 " : "") + std::to_string(clock) + " 56";
      auto c = testing_helpers::catalogue_at(name, fen);
      f->set_position(fen);
      EXPECT_EQ(f->status().claim_fifty, clock >= 100) << name << " " << fen;
      EXPECT_EQ(c->status().claim_fifty, clock >= 100) << name << " " << fen;
      const auto d = arb::fuzz::compare_node(*c, *f);
      EXPECT_FALSE(d) << d->what << ": " << d->left << " / " << d->right;
    }
  }
}

// 5check (the same sweep): the adapter's position key for the threefold claim left out the
// checks still to give, so a knight's check back and forth (`5+5` becoming `5+4`, `5+3`)
// repeated the board but not the position; the compiled engine's key holds the counters, as
// Fairy-Stockfish's does. Without checks the claim stands on both. Debian's 11.1.
TEST(FsfSweep, ARepetitionCountsTheChecksStillToGive) {
  REQUIRE_DEBIAN();
  const auto claims = [](arb::Engine& e, const std::vector<std::string>& moves) {
    std::vector<bool> out;
    for (const auto& m : moves) {
      e.apply(testing_helpers::find_action(e, m));
      out.push_back(e.status().claim_threefold);
    }
    return out;
  };
  const std::vector<std::string> knight = {"f2e4", "h2h3", "e4f2", "h3h2", "f2e4", "h2h3", "e4f2", "h3h2"};
  const std::vector<std::string> kings = {"h2h3", "d8d7", "h3h2", "d7d8", "h2h3", "d8d7", "h3h2", "d7d8"};
  for (const auto& [fen, moves, last] : {std::tuple{"3k4/8/8/8/8/8/5n1K/8 b - - 5+5 1 28", knight, false},
                                         std::tuple{"n2k4/8/8/8/8/8/7K/8 w - - 5+5 1 28", kings, true}}) {
    auto c = testing_helpers::catalogue_at("5check", fen);
    auto f = fsf_for("5check", kDebian);
    f->set_position(fen);
    const auto want = claims(*c, moves);
    EXPECT_EQ(claims(*f, moves), want) << fen;
    EXPECT_EQ(want.back(), last) << fen;
    const auto d = arb::fuzz::compare_node(*c, *f);
    EXPECT_FALSE(d) << d->what << ": " << d->left << " / " << d->right;
  }
}
