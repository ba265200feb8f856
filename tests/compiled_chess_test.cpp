// Tests of the compiled generator running rulesets/chess.rules and rulesets/chessembly.rules:
// perft against the corpus suites (corpus/perft/), agreement with the hand-written reference engines
// (perft, the sorted canonical action texts, status and position text along random
// playouts), and the status of ended and drawn positions.
//
// The node budget of a perft check is ARBITER_PERFT_BUDGET (default 200000): checks whose
// expected count is larger are skipped, so that the binary runs in well under a minute in
// Release; CI lowers it under sanitizers.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "arbiter/perft_suite.hpp"
#include "arbiter/targeted.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;
using arb::Action;
using arb::Engine;
using arb::Result;

constexpr uint64_t kDefaultBudget = 200000;

std::vector<arb::PerftCase> suite(const std::string& name) {
  return arb::read_perft_suite(corpus_path("perft/" + name));
}

// Runs every depth whose expected count is at most `budget` on the compiled chess engine.
void run_suite(const std::string& name, uint64_t budget) {
  auto cases = suite(name);
  ASSERT_FALSE(cases.empty()) << name;
  auto e = compiled_engine("chess");
  size_t checked_cases = 0, checked_depths = 0, skipped = 0;
  uint64_t nodes = 0;
  auto start = std::chrono::steady_clock::now();
  for (const auto& c : cases) {
    ASSERT_NO_THROW(e->set_position(c.position)) << name << " " << c.id << ": " << c.position;
    bool any = false;
    for (auto [depth, expected] : c.expected) {
      if (expected > budget) {
        ++skipped;
        continue;
      }
      ASSERT_EQ(e->perft(depth), expected)
          << name << " " << c.id << " (line " << c.line << ") depth " << depth << ": " << c.position;
      any = true;
      ++checked_depths;
      nodes += expected;
    }
    if (any) ++checked_cases;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("compiled %s: %zu of %zu cases, %zu depths (%zu skipped over %llu), %llu nodes in %.2f s\n",
              name.c_str(), checked_cases, cases.size(), checked_depths, skipped,
              static_cast<unsigned long long>(budget), static_cast<unsigned long long>(nodes), secs);
}

// ---------------------------------------------------------------------------------------
// Perft suites.

TEST(CompiledChessPerft, StartPosition) {
  auto e = compiled_engine("chess");
  EXPECT_EQ(e->name(), "compiled:chess");
  EXPECT_EQ(e->position(), kChessStart);
  EXPECT_EQ(e->perft(0), 1u);
  EXPECT_EQ(e->perft(1), 20u);
  EXPECT_EQ(e->perft(2), 400u);
  EXPECT_EQ(e->perft(3), 8902u);
  EXPECT_EQ(e->perft(4), 197281u);
  if (perft_budget(kDefaultBudget) >= 4865609) {
    EXPECT_EQ(e->perft(5), 4865609u);
  }
  EXPECT_EQ(e->position(), kChessStart);  // perft leaves the position as it was
  // The interface's generic perft (legal_actions/apply/undo) agrees with the fast path.
  EXPECT_EQ(e->Engine::perft(3), 8902u);
}

// tricky.perft: every depth of every case, whatever the budget (at most 1.3M nodes).
TEST(CompiledChessPerft, Tricky) {
  run_suite("tricky.perft", UINT64_MAX);
}
TEST(CompiledChessPerft, Chess960) {
  run_suite("chess960.perft", perft_budget(kDefaultBudget));
}
TEST(CompiledChessPerft, Random) {
  run_suite("random.perft", perft_budget(kDefaultBudget));
}

// Perft's last ply counts without listing (the generator counts unpinned pawns by shifts and
// other plain pieces by their destinations): on every suite position and every position one
// action from it, the count equals the number of listed legal actions.
TEST(CompiledChessPerft, LeafCountsAgreeWithTheListedActions) {
  auto e = compiled_engine("chess");
  size_t n = 0;
  for (const char* name : {"tricky.perft", "chess960.perft", "random.perft"}) {
    for (const auto& c : suite(name)) {
      e->set_position(c.position);
      std::vector<Action> actions, replies;
      e->legal_actions(actions);
      ASSERT_EQ(e->perft(1), actions.size()) << name << " " << c.id << ": " << c.position;
      for (const Action& a : actions) {
        const std::string text = canonical(*e, a);
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

// legal_actions_to(square) (the record validator's SAN resolution) lists exactly the legal
// actions whose brief names that square, in the list's order, on every suite position and
// every position one action later; a square off the board is refused.
TEST(CompiledChessPerft, ActionsOntoASquareAreTheListFiltered) {
  auto e = compiled_engine("chess");
  auto* targeted = dynamic_cast<arb::TargetedActions*>(e.get());
  ASSERT_NE(targeted, nullptr);
  size_t positions = 0, nonempty = 0;
  std::vector<Action> all, onto, want;
  auto check_here = [&](const std::string& where) {
    e->legal_actions(all);
    for (int y = 1; y <= 8; ++y)
      for (int x = 0; x < 8; ++x) {
        const arb::Coord c{x, y};
        ASSERT_TRUE(targeted->legal_actions_to(c, onto)) << where;
        want.clear();
        for (const Action& a : all)
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
      std::vector<Action> root;
      e->legal_actions(root);
      for (const Action& a : root) {
        const std::string where = std::string(name) + " " + c.id + " after " + canonical(*e, a);
        e->apply(a);
        ASSERT_NO_FATAL_FAILURE(check_here(where));
        e->undo();
      }
    }
  }
  EXPECT_GT(nonempty, positions);  // the lists are not all empty
  std::printf("actions onto each square agree with the filtered list on %zu positions\n", positions);
}

// ---------------------------------------------------------------------------------------
// Agreement with the reference chess engine.

// The root actions (sorted canonical texts) agree on every position of every suite.
TEST(CompiledVsReferenceChess, RootActionsOnEverySuitePosition) {
  auto compiled = compiled_engine("chess");
  auto ref = arb::ref::make_chess_engine();
  size_t n = 0;
  for (const char* name : {"tricky.perft", "chess960.perft", "random.perft"}) {
    for (const auto& c : suite(name)) {
      compiled->set_position(c.position);
      ref->set_position(c.position);
      ASSERT_EQ(legal_texts(*compiled), legal_texts(*ref)) << name << " " << c.id << ": " << c.position;
      ASSERT_EQ(compiled->position(), ref->position()) << name << " " << c.id;
      ASSERT_EQ(compiled->chess960(), ref->chess960()) << name << " " << c.id;
      ++n;
    }
  }
  std::printf("root actions agree on %zu positions\n", n);
}

// Perft 2 and 3 agree on the first 200 random positions (and the first 50 Chess960 ones),
// and the per-root-action counts (divide) agree at depth 2.
TEST(CompiledVsReferenceChess, PerftOnTheFirstRandomPositions) {
  auto compiled = compiled_engine("chess");
  auto ref = arb::ref::make_chess_engine();
  const uint64_t budget = perft_budget(kDefaultBudget);
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
      std::string text = canonical(*compiled, a);
      compiled->apply(a);
      uint64_t got = compiled->perft(1);
      compiled->undo();
      Action r = find_action(*ref, text);
      ref->apply(r);
      uint64_t want = ref->perft(1);
      ref->undo();
      ASSERT_EQ(got, want) << c.id << " after " << text << ": " << c.position;
    }
  }
}

// Random playouts from the start and from suite positions: at every node the same sorted
// action texts, status and position text; undo walks back through the same texts.
void compare_playouts(const std::string& variant, const std::vector<std::string>& starts, int games,
                      int plies, uint64_t seed) {
  auto compiled = compiled_engine(variant);
  auto ref = arb::ref::make_reference_engine(variant);
  ASSERT_NE(ref, nullptr);
  std::mt19937_64 rng(seed);
  size_t nodes = 0;
  std::map<std::string, size_t> endings;
  for (int g = 0; g < games; ++g) {
    const std::string& start = starts[g % starts.size()];
    compiled->set_position(start);
    ref->set_position(start);
    std::vector<std::string> trail;  // texts played, for the failure message
    std::vector<std::string> positions;
    for (int ply = 0; ply < plies; ++ply) {
      ++nodes;
      // Built only when an assertion fails.
      auto where = [&] {
        std::string w = "game " + std::to_string(g) + " from " + start + " after [";
        for (const auto& t : trail) w += t + " ";
        return w + "]";
      };
      ASSERT_EQ(compiled->position(), ref->position()) << where();
      ASSERT_EQ(compiled->side_to_move(), ref->side_to_move()) << where();
      auto texts = legal_texts(*compiled);
      ASSERT_EQ(texts, legal_texts(*ref)) << where() << " at " << ref->position();
      arb::Status cs = compiled->status(), rs = ref->status();
      ASSERT_EQ(cs.reason, rs.reason) << where() << " at " << ref->position();
      ASSERT_EQ(cs.result, rs.result) << where();
      ASSERT_EQ(cs.in_check, rs.in_check) << where();
      ASSERT_EQ(cs.claim_fifty, rs.claim_fifty) << where();
      ASSERT_EQ(cs.claim_threefold, rs.claim_threefold) << where();
      if (texts.empty() || !cs.reason.empty()) {
        ++endings[cs.reason.empty() ? "no-action" : cs.reason];
        break;
      }
      const std::string& pick = texts[rng() % texts.size()];
      positions.push_back(compiled->position());
      compiled->apply(find_action(*compiled, pick));
      ref->apply(find_action(*ref, pick));
      trail.push_back(pick);
    }
    // Undo back to the start: the same texts in reverse.
    while (!positions.empty()) {
      compiled->undo();
      ref->undo();
      ASSERT_EQ(compiled->position(), positions.back()) << "undo in game " << g;
      ASSERT_EQ(ref->position(), positions.back()) << "undo in game " << g;
      positions.pop_back();
    }
  }
  std::printf("%s playouts: %d games, %zu nodes;", variant.c_str(), games, nodes);
  for (const auto& [reason, n] : endings) std::printf(" %s %zu", reason.c_str(), n);
  std::printf("\n");
}

TEST(CompiledVsReferenceChess, RandomPlayouts) {
  std::vector<std::string> starts = {kChessStart};
  auto rnd = suite("random.perft");
  auto c960 = suite("chess960.perft");
  for (size_t i = 0; i < 60 && i < rnd.size(); ++i) starts.push_back(rnd[i * (rnd.size() / 60)].position);
  for (size_t i = 0; i < 40 && i < c960.size(); ++i) starts.push_back(c960[i * (c960.size() / 40)].position);
  for (const auto& c : suite("tricky.perft")) starts.push_back(c.position);
  compare_playouts("chess", starts, 200, 120, 0xC0FFEE);
}

// ---------------------------------------------------------------------------------------
// Chessembly: compiled rulesets/chessembly.rules against the reference engine.

TEST(CompiledChessembly, PerftFromTheStart) {
  auto compiled = compiled_engine("chessembly");
  auto ref = arb::ref::make_chessembly_engine();
  EXPECT_EQ(compiled->name(), "compiled:chessembly");
  EXPECT_EQ(compiled->position(), kChessemblyStart);
  EXPECT_EQ(compiled->position(), ref->position());
  const uint64_t want[] = {1, 32, 1002, 161718};
  for (int depth = 0; depth <= 3; ++depth) {
    EXPECT_EQ(compiled->perft(depth), want[depth]) << depth;
    EXPECT_EQ(compiled->perft(depth), ref->perft(depth)) << depth;
  }
  EXPECT_EQ(legal_texts(*compiled), legal_texts(*ref));
  EXPECT_EQ(compiled->position(), kChessemblyStart);
}

TEST(CompiledChessembly, RandomPlayoutsAgreeWithTheReference) {
  compare_playouts("chessembly", {kChessemblyStart}, 200, 60, 20240601);
}

// The sample game of the rule text, on the compiled engine.
TEST(CompiledChessembly, SampleGameOfTheRuleText) {
  const std::vector<std::string> game = {"pKe1",  "pKe7", "pRe2+", "pPe6", "pQe3", "pRc6",
                                         "pBh4+", "pPf6", "pBa3+", "Kf7",  "pNf4", "pPd7"};
  auto e = compiled_engine("chessembly");
  for (const std::string& text : game) {
    auto a = arb::parse_action(*e, text);
    ASSERT_TRUE(a.has_value()) << text << " is not legal in " << e->position();
    EXPECT_EQ(arb::san(*e, *a, /*placement_p=*/true), text) << "in " << e->position();
    e->apply(*a);
  }
  EXPECT_EQ(e->position(), "8/3p1k2/2r1pp2/8/5N1B/B3Q3/4R3/4K3[RNPPPPPPPPqrbbnnppppp] w - - 0 7");
  arb::Status st = e->status();
  EXPECT_EQ(st.result, Result::Ongoing);
  EXPECT_EQ(st.reason, "");
  EXPECT_FALSE(st.in_check);
}

// Chessembly to depth 4 from the empty start: 23,530,136 on both engines (the reference
// engine's own test pins the same figure; here it is the compiled generator's).
TEST(CompiledChessembly, PerftFourFromTheStart) {
  if (std::getenv("ARBITER_FAST")) GTEST_SKIP() << "depth 4 skipped under ARBITER_FAST";
  auto compiled = compiled_engine("chessembly");
  EXPECT_EQ(compiled->perft(4), 23530136u);
}

// Biased playouts that seek out the rules that make Chessembly differ from chess, compared
// with the reference engine at every node: double steps from the first rank followed by en
// passant onto the second, promotions, and placements that block a check.
TEST(CompiledChessembly, PlayoutsReachFirstRankDoubleStepsEnPassantPromotionsAndBlocks) {
  auto compiled = compiled_engine("chessembly");
  auto ref = arb::ref::make_reference_engine("chessembly");
  std::mt19937_64 rng(4242);
  int first_rank_double = 0, ep_after_first_rank = 0, promotions = 0, blocking_placements = 0;
  const int games = std::getenv("ARBITER_FAST") ? 40 : 150;
  for (int g = 0; g < games; ++g) {
    compiled->set_position(kChessemblyStart);
    ref->set_position(kChessemblyStart);
    bool last_was_first_rank_double = false;
    for (int ply = 0; ply < 150; ++ply) {
      ASSERT_EQ(compiled->position(), ref->position());
      auto texts = legal_texts(*compiled);
      ASSERT_EQ(texts, legal_texts(*ref)) << ref->position();
      arb::Status st = compiled->status();
      ASSERT_EQ(st.reason, ref->status().reason) << ref->position();
      if (texts.empty() || !st.reason.empty()) break;
      // Interesting actions: pawn double steps from the own first rank, en passant,
      // promotions, placements while in check, pawn placements on the first rank.
      std::vector<std::string> interesting;
      std::vector<arb::Action> acts;
      compiled->legal_actions(acts);
      for (const auto& a : acts) {
        arb::ActionInfo info = compiled->describe(a);
        const arb::Step& s = info.steps[0];
        std::string t = arb::uci(info, true);
        bool white = compiled->side_to_move() == arb::Color::White;
        int first = white ? 1 : 8;
        bool double_from_first = s.kind == arb::StepKind::Move && s.piece == 'P' && s.from.y == first &&
                                 std::abs(s.to.y - s.from.y) == 2;
        bool ep = s.kind == arb::StepKind::Move && s.piece == 'P' && s.capture() && s.from.x != s.to.x &&
                  last_was_first_rank_double;
        bool place_first = s.kind == arb::StepKind::Place && s.piece == 'P' && s.to.y == first;
        if (double_from_first || ep || s.promotion || (st.in_check && s.kind == arb::StepKind::Place) ||
            place_first || (s.kind == arb::StepKind::Move && s.piece == 'P'))
          interesting.push_back(t);
      }
      const std::string pick = !interesting.empty() && rng() % 4 != 0
                                   ? interesting[rng() % interesting.size()]
                                   : texts[rng() % texts.size()];
      arb::Action a = find_action(*compiled, pick);
      arb::ActionInfo info = compiled->describe(a);
      const arb::Step& s = info.steps[0];
      bool white = compiled->side_to_move() == arb::Color::White;
      bool is_double_first = s.kind == arb::StepKind::Move && s.piece == 'P' && s.from.y == (white ? 1 : 8) &&
                             std::abs(s.to.y - s.from.y) == 2;
      if (is_double_first) ++first_rank_double;
      // En passant: a pawn capture onto an empty square, right after a first-rank double step.
      if (s.kind == arb::StepKind::Move && s.piece == 'P' && s.capture() && last_was_first_rank_double) {
        arb::FenFields f = arb::parse_fen(compiled->position(), 8, 8, "KQRBNPkqrbnp");
        if (!f.at(s.to)) ++ep_after_first_rank;
      }
      if (s.promotion) ++promotions;
      if (st.in_check && s.kind == arb::StepKind::Place) ++blocking_placements;
      last_was_first_rank_double = is_double_first;
      compiled->apply(a);
      ref->apply(find_action(*ref, pick));
    }
  }
  std::printf(
      "chessembly features reached: %d first-rank double steps, %d en passant after them, %d "
      "promotions, %d placements blocking a check\n",
      first_rank_double, ep_after_first_rank, promotions, blocking_placements);
  EXPECT_GT(first_rank_double, 0);
  EXPECT_GT(ep_after_first_rank, 0);
  EXPECT_GT(promotions, 0);
  EXPECT_GT(blocking_placements, 0);
}

// Random playouts from positions with small reserves, where mates, stalemates and
// insufficient material (once both reserves are empty) are reached.
TEST(CompiledChessembly, PlayoutsWithSmallReservesAgreeWithTheReference) {
  compare_playouts("chessembly",
                   {"8/8/8/8/8/8/8/8[KQkq] w - - 0 1", "8/8/8/8/8/8/8/8[KRBkn] w - - 0 1",
                    "4k3/8/8/8/8/8/8/4K3[PPpp] w - - 0 1", "8/8/8/8/8/8/8/8[KNPkbp] b - - 0 1",
                    "4k3/8/8/8/8/8/8/4K3[Bb] w - - 0 1"},
                   200, 80, 77);
}

// ---------------------------------------------------------------------------------------
// Status of the compiled chess engine.

TEST(CompiledChessStatus, Checkmate) {
  auto e = compiled_engine("chess");
  for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) ASSERT_TRUE(play(*e, m));
  arb::Status st = e->status();
  EXPECT_EQ(st.result, Result::BlackWins);
  EXPECT_EQ(st.reason, "checkmate");
  EXPECT_TRUE(st.in_check);
  std::vector<Action> none;
  e->legal_actions(none);
  EXPECT_TRUE(none.empty());

  st = compiled_at("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")->status();
  EXPECT_EQ(st.result, Result::WhiteWins);
  EXPECT_EQ(st.reason, "checkmate");
  // Back-rank mate; a mate by a knight through a smothered king.
  EXPECT_EQ(compiled_at("chess", "3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")->status().reason, "checkmate");
  EXPECT_EQ(compiled_at("chess", "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1")->status().reason, "checkmate");
  // In check but not mated.
  st = compiled_at("chess", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1")->status();
  EXPECT_TRUE(st.in_check);
  EXPECT_EQ(st.result, Result::Ongoing);
  EXPECT_EQ(st.reason, "");
}

TEST(CompiledChessStatus, Stalemate) {
  arb::Status st = compiled_at("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")->status();
  EXPECT_EQ(st.result, Result::Draw);
  EXPECT_EQ(st.reason, "stalemate");
  EXPECT_FALSE(st.in_check);
  // Stalemate is judged before insufficient material (README, Status).
  EXPECT_EQ(compiled_at("chess", "k7/2K5/1B6/8/8/8/8/8 b - - 0 1")->status().reason, "stalemate");
  // A king with no square and a blocked pawn of the other side: stalemate with a pawn on the board.
  EXPECT_EQ(compiled_at("chess", "8/8/8/8/8/5k2/5p2/5K2 w - - 0 1")->status().reason, "stalemate");
}

TEST(CompiledChessStatus, InsufficientMaterial) {
  auto reason = [](const char* fen) { return compiled_at("chess", fen)->status().reason; };
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/4KN2 b - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4kn2/8/8/8/8/8/8/4K3 w - - 0 1"), "insufficient-material");
  // K+B v K+B with both bishops on light squares (f1, c8), and on dark squares (c1, f8).
  EXPECT_EQ(reason("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1"), "insufficient-material");
  EXPECT_EQ(reason("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"), "insufficient-material");
  // Opposite colours, two minor pieces of one side, knights, or any pawn, rook or queen.
  EXPECT_EQ(reason("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"), "");
  EXPECT_EQ(reason("4kn2/8/8/8/8/8/8/4KB2 w - - 0 1"), "");
  EXPECT_EQ(reason("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "");
  EXPECT_EQ(reason("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), "");
  EXPECT_EQ(compiled_at("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")->status().result, Result::Draw);
  // Reached by a capture.
  auto e = compiled_at("chess", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
  EXPECT_EQ(e->status().reason, "");
  ASSERT_TRUE(play(*e, "e1d2"));
  EXPECT_EQ(e->status().reason, "insufficient-material");
  EXPECT_EQ(e->status().result, Result::Draw);
  e->undo();
  EXPECT_EQ(e->status().reason, "");
  // Chessembly: only once both reserves are empty.
  EXPECT_EQ(compiled_at("chessembly", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1")->status().reason,
            "insufficient-material");
  EXPECT_EQ(compiled_at("chessembly", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1")->status().reason, "");
  EXPECT_EQ(compiled_at("chessembly", "4k3/8/8/8/8/8/8/4K3[b] w - - 0 1")->status().reason, "");
}

TEST(CompiledChessStatus, FiftyMoveClaim) {
  auto e = compiled_at("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
  EXPECT_FALSE(e->status().claim_fifty);
  ASSERT_TRUE(play(*e, "a1a2"));
  EXPECT_FALSE(e->status().claim_fifty);
  ASSERT_TRUE(play(*e, "e8d8"));
  arb::Status st = e->status();
  EXPECT_TRUE(st.claim_fifty);
  EXPECT_EQ(st.result, Result::Ongoing);  // a claim does not end the game
  EXPECT_EQ(st.reason, "");
  EXPECT_EQ(e->position(), "3k4/8/8/8/8/8/R7/4K3 w - - 100 81");
  e->undo();
  EXPECT_FALSE(e->status().claim_fifty);
  // A pawn move or a capture resets the clock.
  auto p = compiled_at("chess", "4k3/8/8/8/8/8/P7/4K3 w - - 120 80");
  EXPECT_TRUE(p->status().claim_fifty);
  ASSERT_TRUE(play(*p, "a2a3"));
  EXPECT_FALSE(p->status().claim_fifty);
  EXPECT_EQ(p->position(), "4k3/8/8/8/8/P7/8/4K3 b - - 0 80");
  auto c = compiled_at("chess", "4k3/8/8/8/8/8/r7/R3K3 w - - 110 80");
  EXPECT_TRUE(c->status().claim_fifty);
  ASSERT_TRUE(play(*c, "a1a2"));
  EXPECT_FALSE(c->status().claim_fifty);
  // Chessembly: a placement resets the counter (RULINGS 1.9).
  auto m = compiled_at("chessembly", "4k3/8/8/8/8/8/8/4K3[N] w - - 100 80");
  EXPECT_TRUE(m->status().claim_fifty);
  ASSERT_TRUE(play(*m, "N@a1"));
  EXPECT_FALSE(m->status().claim_fifty);
  EXPECT_EQ(m->position(), "4k3/8/8/8/8/8/8/N3K3[] b - - 0 80");
  // A mate is a mate whatever the clock.
  EXPECT_EQ(compiled_at("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 150 100")->status().reason, "checkmate");
}

TEST(CompiledChessStatus, ThreefoldClaim) {
  auto e = compiled_engine("chess");
  const std::vector<std::string> moves = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
  for (size_t i = 0; i < moves.size(); ++i) {
    EXPECT_FALSE(e->status().claim_threefold) << "before move " << i;
    ASSERT_TRUE(play(*e, moves[i]));
  }
  // The start position has now occurred three times.
  arb::Status st = e->status();
  EXPECT_TRUE(st.claim_threefold);
  EXPECT_EQ(st.result, Result::Ongoing);
  e->undo();
  EXPECT_FALSE(e->status().claim_threefold);
  ASSERT_TRUE(play(*e, "f6g8"));
  EXPECT_TRUE(e->status().claim_threefold);
  // set_position starts a new history.
  e->set_position(e->position());
  EXPECT_FALSE(e->status().claim_threefold);

  // Castling rights are part of a position: after the kings step out and back the board
  // is the same but the rights are gone, so the first two occurrences do not count.
  auto k = compiled_at("chess", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
  for (const char* m : {"e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8"})
    ASSERT_TRUE(play(*k, m));
  EXPECT_FALSE(k->status().claim_threefold);
  for (const char* m : {"e1d1", "e8d8", "d1e1", "d8e8"}) ASSERT_TRUE(play(*k, m));
  EXPECT_TRUE(k->status().claim_threefold);

  // The en-passant possibility is part of a position: after 1. e4 (no capture possible)
  // the position repeats with the knights' shuffles.
  auto p = compiled_at("chess", "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  ASSERT_TRUE(play(*p, "e2e4"));  // d4xe3 e.p. is possible now
  EXPECT_NE(p->position().find(" e3 "), std::string::npos) << p->position();
  for (const char* m : {"g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1"})
    ASSERT_TRUE(play(*p, m));
  // Same pieces as after e4 three times, but the first had an e.p. right: two occurrences.
  EXPECT_FALSE(p->status().claim_threefold);
  for (const char* m : {"g8f6", "g1f3", "f6g8", "f3g1"}) ASSERT_TRUE(play(*p, m));
  EXPECT_TRUE(p->status().claim_threefold);
}

// ---------------------------------------------------------------------------------------
// Position text of the compiled chess engine.

TEST(CompiledChessFen, TextAndValidation) {
  // EPD input (no clocks); X-FEN output of inner rooks; Chess960 flag.
  EXPECT_EQ(compiled_at("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")->position(),
            kChessStart);
  EXPECT_EQ(compiled_at("chess", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")->position(),
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(compiled_at("chess", "1r2k1rr/8/8/8/8/8/8/RR2K2R w BKgq - 0 1")->position(),
            "1r2k1rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1");
  EXPECT_TRUE(compiled_at("chess", "1r2k1rr/8/8/8/8/8/8/RR2K2R w BKgq - 0 1")->chess960());
  EXPECT_FALSE(compiled_at("chess", kChessStart)->chess960());
  // The en-passant field only when a capture is legal.
  EXPECT_EQ(compiled_at("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")->position(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(compiled_at("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")->position(),
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  // Bad positions are refused with PositionError and leave the engine as it was.
  auto e = compiled_engine("chess");
  for (const char* bad : {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                          "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
                          "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", "8/8/8/8/8/8/8/4K3 w - - 0 1"}) {
    EXPECT_THROW(e->set_position(bad), arb::PositionError) << bad;
    EXPECT_EQ(e->position(), kChessStart) << bad;
  }
}

// Regression (found by this test, fixed in lang/ with `forbidden ranks`): the compiled
// chess engine accepts a pawn on its own first rank, which no game of chess can reach; the
// reference chess engine refuses such a position (PositionError). The generator only
// refuses pawns on their promotion rank. Reproducer:
//   arbiter moves --variant chess --position "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"
// exits 0 and lists a1a2, while `--engine reference` exits 2. (Chessembly, where pawns may
// stand on the first rank, must keep accepting it.)
TEST(CompiledChessFen, PawnOnItsFirstRankIsRefusedLikeTheReference) {
  for (const char* fen : {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "3pk3/8/8/8/8/8/8/4K3 w - - 0 1"}) {
    auto ref = arb::ref::make_chess_engine();
    EXPECT_THROW(ref->set_position(fen), arb::PositionError) << fen;
    auto e = compiled_engine("chess");
    EXPECT_THROW(e->set_position(fen), arb::PositionError) << fen;
  }
  EXPECT_NO_THROW(compiled_at("chessembly", "4k3/8/8/8/8/8/8/P3K3[] w - - 0 1"));
}

}  // namespace
