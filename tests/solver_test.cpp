// The solver (solver/, `arbiter solve`): hand-made positions for every win condition of
// every variant, wins that exist only through a rule of that variant, chance modes, and
// the corpus mates #1-#5 (corpus/mates/mates.epd: exact mate length, no shorter mate).
#include "arbiter/solver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arbiter/lang/compile.hpp"
#include "process.hpp"
#include "reference.hpp"
#include "source_dir.hpp"

namespace {

using arb::solve::Chance;
using arb::solve::Goal;
using arb::solve::Outcome;

// The mates of corpus/mates/mates.epd (corpus/tools/make_corpus.py: found by Stockfish in
// random play), as (FEN, N) in file order. Fails the test when the file cannot be read.
std::vector<std::pair<std::string, int>> corpus_mates() {
  const std::string path = std::string(arbiter_source_dir()) + "/corpus/mates/mates.epd";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path << " cannot be read";
  std::vector<std::pair<std::string, int>> out;
  std::string line;
  while (std::getline(in, line)) {
    size_t bm = line.find(" bm #");
    if (line.empty() || line[0] == '#' || bm == std::string::npos) continue;
    out.emplace_back(line.substr(0, bm), std::atoi(line.c_str() + bm + 5));
  }
  return out;
}

std::unique_ptr<arb::Engine> compiled(const std::string& variant, const std::string& position) {
  arb::lang::Diagnostics d;
  auto c =
      arb::lang::compile_file(std::string(arbiter_source_dir()) + "/rulesets/" + variant + ".rules", {}, d);
  EXPECT_TRUE(c.program) << d.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position(position);
  return e;
}

std::unique_ptr<arb::Engine> reference(const std::string& variant, const std::string& position,
                                       const std::map<std::string, std::string>& options = {}) {
  auto e = arb::ref::make_reference_engine(variant, options);
  e->set_position(position);
  return e;
}

arb::solve::Result solve(const arb::Engine& e, Goal goal, int depth, bool keys = false,
                         Chance chance = Chance::Known, int jobs = 1) {
  arb::solve::Options o;
  o.goal = goal;
  o.depth = depth;
  o.all_keys = keys;
  o.chance = chance;
  o.jobs = jobs;
  o.table_mb = 16;
  return arb::solve::solve(e, o);
}

bool fast() {
  return std::getenv("ARBITER_FAST") != nullptr;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// ---- chess (compiled and reference) --------------------------------------------------

TEST(SolverChess, BackRankMateAndNoShorter) {
  const char* fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
  for (auto* e : {compiled("chess", fen).release(), reference("chess", fen).release()}) {
    std::unique_ptr<arb::Engine> own(e);
    auto r = solve(*e, Goal::Mate, 3, true);
    EXPECT_EQ(r.outcome, Outcome::Proved);
    EXPECT_EQ(r.moves, 1);
    EXPECT_EQ(r.line, std::vector<std::string>{"d1d8"});
    EXPECT_EQ(r.keys, std::vector<std::string>{"d1d8"});
  }
  // The same with the rook gone: no mate within 2, proved.
  auto e = compiled("chess", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
  auto r = solve(*e, Goal::Mate, 2);
  EXPECT_EQ(r.outcome, Outcome::None);
  EXPECT_EQ(r.proved_none_within, 2);
}

TEST(SolverChess, StalemateIsADrawNotAWin) {
  // Bg1 (or Kb6) stalemates the king on a8 (the pawns are blocked); no mate exists.
  auto e = compiled("chess", "k7/2K5/8/7p/7P/8/7B/8 w - - 0 1");
  auto d = solve(*e, Goal::Draw, 1, true);
  EXPECT_EQ(d.outcome, Outcome::Proved);
  EXPECT_EQ(d.keys, (std::vector<std::string>{"h2g1", "c7b6"}));
  auto w = solve(*e, Goal::Mate, 2);
  EXPECT_EQ(w.outcome, Outcome::None);
}

TEST(SolverChess, ParallelRootSplittingAgrees) {
  auto e = compiled("chess", "1B2n3/8/2R5/5p2/3kp1n1/4p3/B3K3/8 w - - 0 1");
  auto one = solve(*e, Goal::Mate, 4, true, Chance::Known, 1);
  auto two = solve(*e, Goal::Mate, 4, true, Chance::Known, 2);
  EXPECT_EQ(one.moves, 4);
  EXPECT_EQ(two.moves, 4);
  EXPECT_EQ(one.keys, two.keys);
}

// --jobs 2 without --all-keys: the same proof as one job (df-pn runs on one thread; the
// root split with alpha-beta searched several times the actions and could print another
// key). The first three corpus mates in 3 and in 4: the same length, line and none-within.
TEST(SolverChess, JobsKeepOneJobsProof) {
  auto e = compiled("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  std::map<int, int> seen;
  for (const auto& [fen, n] : corpus_mates()) {
    if (n < 3 || n > 4 || seen[n] >= (fast() ? 1 : 3)) continue;
    ++seen[n];
    e->set_position(fen);
    const auto one = solve(*e, Goal::Mate, n);
    const auto two = solve(*e, Goal::Mate, n, false, Chance::Known, 2);
    ASSERT_EQ(one.outcome, Outcome::Proved) << fen;
    EXPECT_EQ(two.outcome, one.outcome) << fen;
    EXPECT_EQ(two.moves, n) << fen;
    EXPECT_EQ(two.line, one.line) << fen;
    EXPECT_EQ(two.proved_none_within, one.proved_none_within) << fen;
  }
  EXPECT_EQ(seen[3] + seen[4], fast() ? 2 : 6);
}

TEST(SolverChess, BudgetEndsWithUnknown) {
  auto e = compiled("chess", "1B2n3/8/2R5/5p2/3kp1n1/4p3/B3K3/8 w - - 0 1");
  arb::solve::Options o;
  o.goal = Goal::Mate;
  o.depth = 4;
  o.max_nodes = 2000;
  auto r = arb::solve::solve(*e, o);
  EXPECT_EQ(r.outcome, Outcome::Unknown);
  EXPECT_NE(r.why.find("node budget"), std::string::npos);
}

// df-pn (the default with one thread) and the depth-limited alpha-beta search prove the
// same length and the same set of keys on the first 20 corpus mates in 2 and in 3 (under
// ARBITER_FAST the first five of each).
TEST(SolverChess, ProofNumbersAgreeWithAlphaBeta) {
  auto e = compiled("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  const int per = fast() ? 5 : 20;
  std::map<int, int> seen;
  int cases = 0;
  for (const auto& [fen, n] : corpus_mates()) {
    if (n < 2 || n > 3 || seen[n] >= per) continue;
    ++seen[n];
    e->set_position(fen);
    arb::solve::Options o;
    o.goal = Goal::Mate;
    o.depth = n;
    o.all_keys = true;
    o.table_mb = 16;
    auto pn = arb::solve::solve(*e, o);
    o.proof_numbers = false;
    auto ab = arb::solve::solve(*e, o);
    ASSERT_EQ(pn.outcome, Outcome::Proved) << fen;
    ASSERT_EQ(ab.outcome, Outcome::Proved) << fen;
    EXPECT_EQ(pn.moves, n) << fen;
    EXPECT_EQ(ab.moves, n) << fen;
    auto a = pn.keys, b = ab.keys;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << fen;
    EXPECT_FALSE(a.empty()) << fen;
    EXPECT_TRUE(has(a, pn.line.at(0))) << fen;
    ++cases;
  }
  EXPECT_EQ(cases, 2 * per);
}

// Engine::gives_check, which the solver asks before playing a last move for a mate: the
// compiled generator's attack test on a light copy of the move against playing it, for every
// action of positions two plies deep from corpus mates and from positions where a
// castling, an en passant capture (discovered check) or a promotion gives check.
TEST(SolverEngine, GivesCheckAgreesWithPlaying) {
  std::vector<std::string> fens = {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
                                   "3k4/1P6/8/8/8/8/8/K7 w - - 0 1", "r3k3/8/8/8/8/8/8/5K2 b q - 0 1"};
  for (const auto& [fen, n] : corpus_mates())
    if (fens.size() < 34 && n >= 2) fens.push_back(fen);
  ASSERT_EQ(fens.size(), 34u);
  size_t checks = 0, tested = 0;
  for (const std::string& fen : fens) {
    auto e = compiled("chess", fen);
    std::vector<arb::Action> first, second;
    e->legal_actions(first);
    auto compare = [&](const arb::Action& a) {
      e->apply(a);
      const bool played = e->side_in_check();
      e->undo();
      EXPECT_EQ(e->gives_check(a), played) << e->position() << " " << e->describe(a).steps.size();
      checks += played;
      ++tested;
    };
    for (const arb::Action& a : first) {
      compare(a);
      e->apply(a);
      e->legal_actions(second);
      for (const arb::Action& b : second) compare(b);
      e->undo();
    }
  }
  EXPECT_GT(tested, 10000u);
  EXPECT_GT(checks, 100u);
}

// Engine::checking_actions and Engine::has_legal_action, the solver's queries at the last
// move of a mate: the compiled generator's check squares and discovered-check lines
// against playing every legal action, and its first-action stop against the full list, on
// the positions of GivesCheckAgreesWithPlaying two plies deep (castling, en passant and
// promotion checks among them), and on the default of the interface (the reference engine).
// Discovered checks by a knight, the king and a pawn's double step, and a double step's
// direct check (the generator lists only the moves that may check). Where an action
// exists, status_when_movable() is status().
TEST(SolverEngine, CheckingActionsAgreeWithPlaying) {
  std::vector<std::string> fens = {"5k2/8/8/8/8/8/8/4K2R w K - 0 1",     "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
                                   "3k4/1P6/8/8/8/8/8/K7 w - - 0 1",     "r3k3/8/8/8/8/8/8/5K2 b q - 0 1",
                                   "4k3/8/8/8/1b6/8/3P4/4K2R w K - 0 1", "6k1/8/8/8/8/8/5B2/R3K2R w KQ - 0 1",
                                   "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",  "4k3/8/8/4N3/8/8/8/4R1K1 w - - 0 1",
                                   "4k3/8/8/8/4K3/8/8/4R3 w - - 0 1",    "7k/8/8/8/8/8/1P6/B3K3 w - - 0 1",
                                   "8/8/8/3k4/8/8/2P5/4K3 w - - 0 1"};
  for (const auto& [fen, n] : corpus_mates())
    if (fens.size() < 20 && n >= 2) fens.push_back(fen);
  size_t checks = 0, nodes = 0, stuck = 0;
  for (const std::string& fen : fens) {
    std::unique_ptr<arb::Engine> engines[2] = {compiled("chess", fen), reference("chess", fen)};
    for (auto& e : engines) {
      std::vector<arb::Action> first, second;
      auto compare = [&] {
        std::vector<arb::Action> all, want, got;
        e->legal_actions(all);
        for (const arb::Action& a : all) {
          e->apply(a);
          if (e->side_in_check()) want.push_back(a);
          e->undo();
        }
        e->checking_actions(got);
        EXPECT_EQ(got, want) << e->name() << " " << e->position();
        EXPECT_EQ(e->has_legal_action(), !all.empty()) << e->name() << " " << e->position();
        // status()'s royal-step shortcut: a mate or stalemate exactly where no action is.
        const arb::Termination end = e->status().end;
        EXPECT_EQ(end == arb::Termination::Checkmate || end == arb::Termination::Stalemate, all.empty())
            << e->name() << " " << e->position();
        if (!all.empty()) {
          const arb::Status a = e->status(), b = e->status_when_movable();
          EXPECT_TRUE(a.result == b.result && a.end == b.end && a.reason == b.reason &&
                      a.in_check == b.in_check && a.claim_threefold == b.claim_threefold &&
                      a.claim_fifty == b.claim_fifty)
              << e->name() << " " << e->position();
        }
        checks += want.size();
        stuck += all.empty();
        ++nodes;
      };
      e->legal_actions(first);
      compare();
      for (const arb::Action& a : first) {
        e->apply(a);
        compare();
        e->legal_actions(second);
        for (const arb::Action& b : second) {
          e->apply(b);
          compare();
          e->undo();
        }
        e->undo();
        if (fast()) break;
      }
    }
  }
  EXPECT_GT(nodes, fast() ? 400u : 10000u);
  EXPECT_GT(checks, fast() ? 20u : 500u);
  EXPECT_GT(stuck, 0u);  // some mates among them: has_legal_action() false
}

// The corpus mates #1-#5: the listed length exactly; the iterations below it are
// refutations. Under ARBITER_FAST (sanitizers) every fourth case of each length.
TEST(SolverChess, CorpusMatesOneToFive) {
  auto e = compiled("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  std::map<int, int> listed, solved;
  for (const auto& [fen, n] : corpus_mates()) {
    ASSERT_TRUE(n >= 1 && n <= 5) << fen << " bm #" << n;
    const int k = listed[n]++;
    if (fast() && k % 4 != 0) continue;
    e->set_position(fen);
    auto r = solve(*e, Goal::Mate, n);
    ASSERT_EQ(r.outcome, Outcome::Proved) << fen << " bm #" << n;
    EXPECT_EQ(r.moves, n) << fen;
    EXPECT_EQ(r.proved_none_within, n - 1) << fen;
    EXPECT_EQ(static_cast<int>(r.line.size()), 2 * n - 1) << fen;
    ++solved[n];
  }
  // Every length is there in strength (the file holds 40 of each).
  for (int n = 1; n <= 5; ++n) {
    EXPECT_GE(listed[n], 30) << "mates in " << n << " listed";
    EXPECT_EQ(solved[n], fast() ? (listed[n] + 3) / 4 : listed[n]) << "mates in " << n << " solved";
  }
}

// ---- Chessembly (placement from the reserve) -----------------------------------------

TEST(SolverChessembly, MateThroughAPlacement) {
  auto e = compiled("chessembly", "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1");
  auto r = solve(*e, Goal::Mate, 2, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  EXPECT_EQ(r.moves, 2);
  EXPECT_EQ(r.line.back().substr(0, 2), "Q@");
  // Without the reserve queen there is none.
  auto bare = compiled("chessembly", "k7/8/1K6/8/8/8/8/8[] w - - 0 1");
  EXPECT_EQ(solve(*bare, Goal::Win, 2).outcome, Outcome::None);
}

// ---- ChessMe (unbounded grid, placements, no-legal-move draw) ------------------------

TEST(SolverChessMe, MateThroughAPlacementOnBothEngines) {
  const char* pos = "ka8,Pb5,Pc5,Kd5 w Q/- -/- -/- 1";
  for (auto* e : {compiled("chessme", pos).release(), reference("chessme", pos).release()}) {
    std::unique_ptr<arb::Engine> own(e);
    auto r = solve(*e, Goal::Mate, 2, true);
    ASSERT_EQ(r.outcome, Outcome::Proved) << e->name();
    EXPECT_EQ(r.moves, 2);
    EXPECT_NE(r.line.back().find(",Q@"), std::string::npos) << r.line.back();
  }
  // No queen in hand: no mate within 2.
  auto e = compiled("chessme", "ka8,Pb5,Pc5,Kd5 w -/- -/- -/- 1");
  EXPECT_EQ(solve(*e, Goal::Mate, 2).outcome, Outcome::None);
}

TEST(SolverChessMe, FarFromTheOriginNoBoardBound) {
  // The same position shifted 1000 files left and 1000 ranks down.
  auto e = compiled("chessme", "k(-1000,-992),P(-999,-995),P(-998,-995),K(-997,-995) w Q/- -/- -/- 1");
  auto r = solve(*e, Goal::Mate, 2);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  EXPECT_EQ(r.moves, 2);
}

TEST(SolverChessMe, NoLegalMoveDraw) {
  // c5c6 leaves the king on a8 without a legal move, not in check: a ChessMe draw.
  auto e = compiled("chessme", "ka8,Pb6,Kc5 w Q/- -/- -/- 1");
  auto d = solve(*e, Goal::Draw, 1, true);
  ASSERT_EQ(d.outcome, Outcome::Proved);
  EXPECT_TRUE(has(d.keys, "c5c6"));
  EXPECT_EQ(solve(*e, Goal::Mate, 2).outcome, Outcome::None);
}

// ---- Chess 2 (reference engine) -----------------------------------------------------

TEST(SolverChess2, MidlineInvasion) {
  auto e = reference("chess2", "7k/8/8/8/4K3/8/8/8 w - - 0 1");
  auto r = solve(*e, Goal::Win, 1, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  EXPECT_EQ(r.keys, (std::vector<std::string>{"e4f5", "e4e5", "e4d5"}));
  EXPECT_EQ(solve(*e, Goal::Mate, 1).outcome, Outcome::None);  // not a checkmate
}

TEST(SolverChess2, NoLegalMoveLoss) {
  auto e = reference("chess2", "k7/8/8/1Q6/8/8/8/4K3 w - - 0 1");
  auto r = solve(*e, Goal::Win, 1, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  EXPECT_EQ(r.keys, std::vector<std::string>{"b5b6"});
  EXPECT_EQ(solve(*e, Goal::Mate, 1).outcome, Outcome::None);
}

TEST(SolverChess2, CheckmateThroughARampage) {
  // The elephant e5 tramples e6 and e7 to reach e8: mate (a rook could not pass).
  auto e = reference("chess2", "7k/4p1pp/4p3/4E3/8/8/8/K7 w - - 0 1", {{"white-army", "animals"}});
  auto r = solve(*e, Goal::Mate, 1, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  EXPECT_EQ(r.keys, std::vector<std::string>{"e5e8"});
}

TEST(SolverChess2, NoLegalMoveThroughAWhirlwind) {
  // The warrior king d1 whirls away the protected rook e2: Black has no legal move left.
  auto e = reference("chess2", "k7/8/8/2B5/8/1R3p2/4rP2/3W3W w - - 0 1", {{"white-army", "two-kings"}});
  auto r = solve(*e, Goal::Win, 1, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  ASSERT_FALSE(r.keys.empty());
  for (const auto& k : r.keys) EXPECT_NE(k.find("W*d1"), std::string::npos) << k;
}

TEST(SolverChess2, TwoKingsInvadeThroughTheKingTurn) {
  auto e = reference("chess2", "7k/8/8/8/3WW3/8/8/8 w - - 0 1", {{"white-army", "two-kings"}});
  auto r = solve(*e, Goal::Win, 1, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  for (const auto& k : r.keys) EXPECT_NE(k.find(','), std::string::npos) << k;  // both kings cross
}

// ---- No Stress Chess (reference engine; cards and chance) ----------------------------

const char* kNoStressKnown =
    "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 level:3 pile:R?45 wdiscard:- bdiscard:- whand:PPNNB bhand:QQBBN";
const char* kNoStressUnknown =
    "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 level:3 pile:?46 wdiscard:- bdiscard:- whand:PPNNB bhand:QQBBN";

TEST(SolverNoStress, RoyalCaptureThroughTheDrawnCard) {
  // No rook card in hand: the known top card R allows R:e1e8, taking the king.
  auto e = reference("nostress", kNoStressKnown);
  auto r = solve(*e, Goal::Win, 1, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  EXPECT_EQ(r.keys, std::vector<std::string>{"R:e1e8"});
  EXPECT_EQ(solve(*e, Goal::Mate, 1).outcome, Outcome::None);  // royal capture, not mate
}

TEST(SolverNoStress, ChanceModes) {
  auto e = reference("nostress", kNoStressUnknown);
  auto known = solve(*e, Goal::Win, 1);
  EXPECT_EQ(known.outcome, Outcome::Unknown);
  EXPECT_NE(known.why.find("does not fix the draw"), std::string::npos);
  EXPECT_EQ(solve(*e, Goal::Win, 1, false, Chance::Adversarial).outcome, Outcome::None);
  auto ex = solve(*e, Goal::Win, 1, false, Chance::Expected);
  ASSERT_EQ(ex.outcome, Outcome::Chance);
  EXPECT_NEAR(ex.probability, 8.0 / 46.0, 1e-12);  // the 8 rook cards among 46 unknown
}

TEST(SolverNoStress, ExpectedTakesAWinAtOnceBeforeAnySubtree) {
  // Depth 2 with the known rook card on top: R:e1e8 wins at once, probability 1. The passes
  // listed before it lead to subtrees of tens of millions of draws (minutes); the budget
  // makes a search that enters them fail (Unknown) instead of hanging.
  auto e = reference("nostress", kNoStressKnown);
  arb::solve::Options o;
  o.goal = Goal::Win;
  o.depth = 2;
  o.chance = Chance::Expected;
  o.max_nodes = 100000;
  o.table_mb = 16;
  auto r = arb::solve::solve(*e, o);
  ASSERT_EQ(r.outcome, Outcome::Chance) << r.why;
  EXPECT_EQ(r.probability, 1.0);
  EXPECT_EQ(r.line, std::vector<std::string>{"R:e1e8"});
}

TEST(SolverNoStress, AdvancedCheckmate) {
  const char* pos =
      "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 level:advanced pile:N?45 wdiscard:- bdiscard:- whand:RPPNB "
      "bhand:QQBBN";
  auto e = reference("nostress", pos, {{"level", "advanced"}});
  auto r = solve(*e, Goal::Mate, 1, true);
  ASSERT_EQ(r.outcome, Outcome::Proved);
  EXPECT_EQ(r.keys, std::vector<std::string>{"R:a1a8"});
}

// Expected mode on the compiled engine merges draws (set_merged_chance) and, with one
// prover move left, keeps a redraw's new hand hidden until its owner acts
// (set_deferred_draws); the reference engine does neither (one card per chance node, every
// hand drawn at once). Level 2, an unknown pile of 20 (the 8 R, 7 K and 5 P cards not
// elsewhere: everything else known), the e-file open: the probabilities of winning within
// 1 and 2 moves agree (depth 2 meets Black's redraw with the pile deep enough to defer).
TEST(SolverNoStress, MergedAndDeferredDrawsKeepTheExpectedValue) {
  const char* pos =
      "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 level:2 pile:?20 wdiscard:PPPNNNBBBQQQAAA "
      "bdiscard:PPPNNNBBBQQQAAA whand:NNB bhand:QQB";
  arb::lang::Diagnostics d;
  auto c = arb::lang::compile_file(std::string(arbiter_source_dir()) + "/rulesets/nostress.rules",
                                   {{"level", "2"}}, d);
  ASSERT_TRUE(c.program) << d.render();
  auto mine = arb::lang::make_compiled_engine(c.program);
  mine->set_position(pos);
  auto ref = reference("nostress", pos, {{"level", "2"}});
  for (int depth = 1; depth <= (fast() ? 1 : 2); ++depth) {
    SCOPED_TRACE(depth);
    auto a = solve(*mine, Goal::Win, depth, false, Chance::Expected);
    auto b = solve(*ref, Goal::Win, depth, false, Chance::Expected);
    ASSERT_EQ(a.outcome, Outcome::Chance) << a.why;
    ASSERT_EQ(b.outcome, Outcome::Chance) << b.why;
    EXPECT_NEAR(a.probability, b.probability, 1e-12);
    EXPECT_GT(a.probability, 0.0);
    EXPECT_LT(a.probability, 1.0);
  }
}

// ---- the command ---------------------------------------------------------------------

TEST(SolveCommand, JsonLastLineAndExitCodes) {
  using testing_process::run_arbiter;
  auto ok = run_arbiter({"solve", "--variant", "chess", "--position", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
                         "--goal", "mate", "--depth", "2", "--all-keys", "--json"},
                        arbiter_source_dir());
  ASSERT_EQ(ok.code, 0) << ok;
  auto j = nlohmann::json::parse(ok.last_line());
  EXPECT_EQ(j["result"], "win");
  EXPECT_EQ(j["moves"], 1);
  EXPECT_EQ(j["line"], nlohmann::json::array({"d1d8"}));
  EXPECT_EQ(j["keys"], nlohmann::json::array({"d1d8"}));
  EXPECT_TRUE(j.contains("nodes") && j.contains("seconds"));

  auto none =
      run_arbiter({"solve", "--position", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "--depth", "2", "--json"},
                  arbiter_source_dir());
  ASSERT_EQ(none.code, 0) << none;
  j = nlohmann::json::parse(none.last_line());
  EXPECT_EQ(j["result"], "none");
  EXPECT_FALSE(j.contains("moves"));
  EXPECT_FALSE(j.contains("keys"));

  auto budget = run_arbiter({"solve", "--position", "1B2n3/8/2R5/5p2/3kp1n1/4p3/B3K3/8 w - - 0 1", "--depth",
                             "4", "--max-nodes", "1000", "--json"},
                            arbiter_source_dir());
  EXPECT_EQ(budget.code, 3) << budget;
  // --json: the object is all of stdout.
  auto bj = nlohmann::json::parse(budget.out);
  EXPECT_EQ(bj["result"], "unknown");
  EXPECT_NE(bj["why"].get<std::string>().find("node budget"), std::string::npos) << budget;

  auto bad = run_arbiter({"solve", "--depth", "0"}, arbiter_source_dir());
  EXPECT_EQ(bad.code, 2) << bad;
  auto goal = run_arbiter({"solve", "--depth", "1", "--goal", "checkmate"}, arbiter_source_dir());
  EXPECT_EQ(goal.code, 2) << goal;
}

}  // namespace

// The moves a person reads are SAN by default (`line:`, `keys`), UCI with --notation uci;
// --json keeps UCI in `line` and adds `line_san`; another notation is refused.
TEST(SolveCommand, NotationSanOrUci) {
  using testing_process::run_arbiter;
  const std::vector<std::string> base = {
      "solve",  "--variant", "chess",   "--position", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
      "--goal", "mate",      "--depth", "2",          "--all-keys"};
  auto san = run_arbiter(base);
  ASSERT_EQ(san.code, 0) << san;
  EXPECT_NE(san.out.find("line: Rd8#\n"), std::string::npos) << san;
  EXPECT_NE(san.out.find("keys (1): Rd8#"), std::string::npos) << san;
  auto args = base;
  args.insert(args.end(), {"--notation", "uci"});
  auto uci = run_arbiter(args);
  ASSERT_EQ(uci.code, 0) << uci;
  EXPECT_NE(uci.out.find("line: d1d8\n"), std::string::npos) << uci;
  args = base;
  args.push_back("--json");
  auto j = nlohmann::json::parse(run_arbiter(args).last_line());
  EXPECT_EQ(j["line"], nlohmann::json::array({"d1d8"}));
  EXPECT_EQ(j["line_san"], nlohmann::json::array({"Rd8#"}));
  args = base;
  args.insert(args.end(), {"--notation", "lan"});
  auto bad = run_arbiter(args);
  EXPECT_EQ(bad.code, 2) << bad;
  EXPECT_NE(bad.err.find("--notation must be san or uci"), std::string::npos) << bad;
}
