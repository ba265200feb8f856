// Proof games to ChessMe's no-legal-move draw (solver/proofgame/): the game found from the
// start replays turn by turn on the compiled generator and on the reference engine and
// ends in a draw; an exhaustive search from a position of that game proves its draw the
// shortest; the smallest draw positions (fewest tiles) are re-verified.
#include "arbiter/proofgame.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "arbiter/chessme_text.hpp"
#include "arbiter/synth/synth.hpp"
#include "helpers.hpp"
#include "process.hpp"
#include "reference.hpp"

namespace {

using namespace testing_helpers;

// The position after the first `n` turns of `line` from `start`, on the compiled generator.
std::string after(const std::string& start, const std::vector<std::string>& line, size_t n) {
  auto e = compiled_at("chessme", start);
  for (size_t i = 0; i < n; ++i) {
    auto a = arb::parse_action(*e, line[i]);
    if (!a) throw std::runtime_error("`" + line[i] + "` does not replay");
    e->apply(*a);
  }
  return e->position();
}

// Both engines replay the game, and none but the last position is a no-move draw.
void expect_replays(const std::string& start, const arb::proofgame::Result& r) {
  auto compiled = compiled_engine("chessme");
  EXPECT_EQ(arb::proofgame::replay(*compiled, start, r.line), "");
  EXPECT_EQ(compiled->position(), r.final_position);
  EXPECT_EQ(compiled->status().reason, "chessme-draw");
  auto reference = arb::ref::make_reference_engine("chessme");
  EXPECT_EQ(arb::proofgame::replay(*reference, start, r.line), "");
  EXPECT_EQ(reference->position(), r.final_position);
  EXPECT_EQ(reference->status().reason, "chessme-draw");
  // The SAN line reads back to the same turns.
  ASSERT_EQ(r.san.size(), r.line.size());
  auto again = compiled_engine("chessme");
  EXPECT_EQ(arb::proofgame::replay(*again, start, r.san), "");
}

// The search from the start with a narrow beam, run once for the tests below.
const arb::proofgame::Result& from_start() {
  static const arb::proofgame::Result r = [] {
    auto e = compiled_at("chessme", "start");
    const std::string start = e->position();
    arb::proofgame::Options o;
    o.max_plies = 2;  // the exhaustive part: no draw within 2 plies
    o.beam_width = fast() ? 20 : 50;
    o.table_mb = 8;
    o.last_turn_filter = false;  // so that every turn is applied: the counts are perft's
    arb::proofgame::Result res = arb::proofgame::search(*e, o);
    EXPECT_EQ(e->position(), start);  // the root engine is left as it was
    return res;
  }();
  return r;
}

// ChessMe's rules meet the last-turn filters' conditions (the command asks the same).
bool chessme_filters() {
  return arb::proofgame::witness_filters_apply(*bundled_program("chessme"));
}

TEST(ProofGame, FiltersRunOnlyWhereTheRulesAllowThem) {
  std::string why;
  EXPECT_TRUE(arb::proofgame::witness_filters_apply(*bundled_program("chessme"), &why)) << why;
  EXPECT_FALSE(arb::proofgame::witness_filters_apply(*bundled_program("chess"), &why));
  EXPECT_NE(why.find("unbounded grid"), std::string::npos) << why;
  // ChessMe with a knight that leaps three squares (a camel).
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream out(dir + "/chessme.rules");
    out << read_text(ruleset_path("chessme"));
  }
  auto compile = [&](const std::string& text) {
    {
      std::ofstream out(dir + "/proofgame_filter_test.rules");
      out << text;
    }
    arb::lang::Diagnostics d;
    auto c = arb::lang::compile_file(dir + "/proofgame_filter_test.rules", {}, d);
    EXPECT_NE(c.program, nullptr) << d.render();
    return c.program;
  };
  auto camel = compile("ruleset t extends chessme\npiece knight N { betza \"C\" }\n");
  ASSERT_NE(camel, nullptr);
  EXPECT_FALSE(arb::proofgame::witness_filters_apply(*camel, &why));
  EXPECT_NE(why.find("farther than two squares"), std::string::npos) << why;
}

TEST(ProofGame, FromTheStartADrawReplaysOnBothEngines) {
  auto e = compiled_at("chessme", "start");
  const std::string start = e->position();
  const arb::proofgame::Result& r = from_start();
  EXPECT_EQ(r.proved_none_within, 2);
  ASSERT_EQ(r.depth_nodes.size(), 2u);
  EXPECT_EQ(r.depth_nodes[0], e->perft(1));  // iteration 1 applies every turn once
  EXPECT_EQ(r.depth_nodes[1], e->perft(1) + e->perft(2));
  if (!r.found) GTEST_SKIP() << "the beam found no draw at this width";
  EXPECT_EQ(r.found_by, "beam");
  EXPECT_GT(r.plies, 2);
  EXPECT_EQ(static_cast<int>(r.line.size()), r.plies);
  EXPECT_FALSE(r.shortest);  // plies 3.. were not searched exhaustively
  expect_replays(start, r);
}

TEST(ProofGame, ExhaustiveSearchProvesTheShortestDraw) {
  // A game to a draw from the start (beam), then, from a position k turns before its end,
  // an exhaustive search without the beam: it must find a draw within k turns and prove
  // that none is shorter.
  const std::string start = compiled_at("chessme", "start")->position();
  const arb::proofgame::Result& game = from_start();
  if (!game.found) GTEST_SKIP() << "the beam found no draw at this width";
  const size_t k = fast() ? 2 : 3;
  ASSERT_GE(game.line.size(), k);
  std::string mid = after(start, game.line, game.line.size() - k);
  auto m = compiled_at("chessme", mid);
  arb::proofgame::Options p;
  p.max_plies = static_cast<int>(k);
  p.beam_width = 0;
  p.table_mb = 8;
  p.last_turn_filter = chessme_filters();
  arb::proofgame::Result r = arb::proofgame::search(*m, p);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.found_by, "proof");
  EXPECT_TRUE(r.shortest);
  EXPECT_LE(r.plies, static_cast<int>(k));
  EXPECT_EQ(r.proved_none_within, r.plies - 1);
  EXPECT_TRUE(r.why.empty());
  expect_replays(mid, r);
  // The same from an engine that played the game's turns (its own encoding of the pieces,
  // not the one of an engine that read the position's text).
  auto played = compiled_at("chessme", "start");
  for (size_t i = 0; i + k < game.line.size(); ++i) played->apply(*arb::parse_action(*played, game.line[i]));
  ASSERT_EQ(played->position(), mid);
  arb::proofgame::Result again = arb::proofgame::search(*played, p);
  EXPECT_TRUE(again.found && again.shortest);
  EXPECT_EQ(again.plies, r.plies);
  expect_replays(mid, again);
  // Below the shortest, a search with no more plies proves there is none.
  if (r.plies > 1) {
    p.max_plies = r.plies - 1;
    arb::proofgame::Result none = arb::proofgame::search(*m, p);
    EXPECT_FALSE(none.found);
    EXPECT_EQ(none.proved_none_within, r.plies - 1);
  }
  // Every position one turn before the draw: one turn reaches it, and the search says 1.
  std::string last = after(mid, r.line, r.line.size() - 1);
  auto l = compiled_at("chessme", last);
  p.max_plies = 1;
  arb::proofgame::Result one = arb::proofgame::search(*l, p);
  EXPECT_TRUE(one.found && one.shortest && one.plies == 1);
}

// Positions one to three turns before the no-move draw that ends a random game: the search
// with the filters (skipping turns without applying them) and without them must agree.
// `games` random games that end in a draw are used; ARBITER_PROOFGAME_GAMES raises it.
TEST(ProofGame, FiltersAgreeWithTheFullSearchNearDraws) {
  int games = fast() ? 3 : 10;
  if (const char* g = std::getenv("ARBITER_PROOFGAME_GAMES")) games = std::atoi(g);
  std::mt19937_64 rng(20261123);
  int used = 0, compared = 0;
  for (int attempt = 0; attempt < 50 * games && used < games; ++attempt) {
    auto e = compiled_at("chessme", "start:" + std::to_string(attempt + 1));
    std::vector<std::string> positions{e->position()};
    std::vector<arb::Action> acts;
    for (int ply = 0; ply < 400; ++ply) {
      e->legal_actions(acts);
      if (acts.empty()) break;
      e->apply(acts[rng() % acts.size()]);
      positions.push_back(e->position());
    }
    if (e->status().reason != "chessme-draw") continue;
    ++used;
    for (int k = 1; k <= 3 && k < static_cast<int>(positions.size()); ++k) {
      if (k == 3 && fast()) break;
      const std::string& pos = positions[positions.size() - 1 - static_cast<size_t>(k)];
      auto m = compiled_at("chessme", pos);
      arb::proofgame::Options o;
      o.max_plies = k;
      o.beam_width = 0;
      o.table_mb = 2;
      o.last_turn_filter = chessme_filters();
      arb::proofgame::Result with = arb::proofgame::search(*m, o);
      o.last_turn_filter = false;
      arb::proofgame::Result without = arb::proofgame::search(*m, o);
      EXPECT_TRUE(with.filter);
      EXPECT_FALSE(without.filter);
      ASSERT_TRUE(without.found) << pos;
      EXPECT_EQ(with.found, without.found) << pos;
      EXPECT_EQ(with.plies, without.plies) << pos;
      EXPECT_EQ(with.proved_none_within, without.proved_none_within) << pos;
      EXPECT_TRUE(with.shortest && without.shortest) << pos;
      EXPECT_LE(with.proof_nodes, without.proof_nodes);
      if (with.found) {
        EXPECT_EQ(arb::proofgame::replay(*compiled_engine("chessme"), pos, with.line), "");
      }
      ++compared;
    }
  }
  EXPECT_EQ(used, games);
  EXPECT_GE(compared, games);
}

TEST(ProofGame, BudgetAndHiddenPiles) {
  auto e = compiled_at("chessme", "start");
  arb::proofgame::Options o;
  o.max_plies = 6;
  o.beam_width = 0;
  o.max_nodes = 5000;
  o.last_turn_filter = false;
  o.table_mb = 2;
  arb::proofgame::Result r = arb::proofgame::search(*e, o);
  EXPECT_FALSE(r.found);
  EXPECT_FALSE(r.why.empty());
  // 66 + 2,904 turns for depths 1 and 2 (perft), the budget ends inside depth 3.
  EXPECT_EQ(r.proved_none_within, 2);
  // A pile of unknown order is a chance node: no proof game.
  auto hidden = compiled_at("chessme", "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w BNP/rbb ?/? -/- 1");
  EXPECT_THROW(arb::proofgame::search(*hidden, o), std::invalid_argument);
}

TEST(ProofGame, SmallestDrawPositionsHaveTwoTiles) {
  // Z3's smallest draw positions (fewest tiles), re-verified here on both engines; fewer
  // than two tiles is no position at all (each side needs its king on the board).
  arb::synth::Request q;
  q.goal = arb::synth::Goal::Stalemated;
  q.smallest = true;
  q.count = 3;
  auto out = arb::synth::synthesize(bundled_program("chessme"), q);
  ASSERT_EQ(out.found.size(), 3u);
  for (const auto& f : out.found) {
    EXPECT_EQ(f.pieces, 2);
    auto c = compiled_at("chessme", f.position);
    EXPECT_TRUE(arb::proofgame::no_move_draw(*c)) << f.position;
    auto ref = reference_at("chessme", f.position);
    EXPECT_TRUE(arb::proofgame::no_move_draw(*ref)) << f.position;
  }
  EXPECT_THROW(arb::parse_chessme("Kc1 w -/- -/- -/- 1"), arb::PositionError);
  // Every two-tile draw in a small window, White to move: Z3 with blocking clauses until
  // unsat, against an enumeration of every placement of the two kings judged by both engines.
  const int side = fast() ? 3 : 4;
  q.window_w = q.window_h = side;
  q.count = 100000;
  out = arb::synth::synthesize(bundled_program("chessme"), q);
  EXPECT_TRUE(out.exhausted);
  std::set<std::string> z3;
  for (const auto& f : out.found) z3.insert(f.position);
  std::set<std::string> enumerated;
  auto compiled = compiled_engine("chessme");
  auto reference = arb::ref::make_reference_engine("chessme");
  for (int a = 0; a < side * side; ++a)
    for (int b = 0; b < side * side; ++b) {
      if (a == b) continue;
      arb::ChessMePosition p;
      p.pieces = {{arb::Coord{a % side, 1 + a / side}, 'K'}, {arb::Coord{b % side, 1 + b / side}, 'k'}};
      std::string text = arb::format_chessme(p);
      bool legal = true;
      try {
        compiled->set_position(text);
        reference->set_position(text);
      } catch (const arb::PositionError&) {
        legal = false;  // kings side by side: refused as a position
      }
      if (!legal) continue;
      bool draw = arb::proofgame::no_move_draw(*compiled);
      EXPECT_EQ(draw, arb::proofgame::no_move_draw(*reference)) << text;
      if (draw && !compiled->status().in_check) enumerated.insert(compiled->position());
    }
  EXPECT_EQ(z3, enumerated);
  EXPECT_GT(enumerated.size(), 0u);
  // A king beside its pawn has a move: no draw.
  auto c = compiled_at("chessme", "kh8,Pc2,Kc1 w -/- -/- -/- 1");
  EXPECT_FALSE(arb::proofgame::no_move_draw(*c));
}

TEST(ProofGame, Command) {
  using testing_process::run_arbiter;
  if (!std::filesystem::exists(testing_process::arbiter_path())) GTEST_SKIP() << "build the arbiter target";
  // From one turn before the draw of the game found from the start: a proved draw in 1.
  const arb::proofgame::Result& game = from_start();
  if (!game.found) GTEST_SKIP() << "the beam found no draw at this width";
  const std::string start = compiled_at("chessme", "start")->position();
  std::string last = after(start, game.line, game.line.size() - 1);
  auto o = run_arbiter({"proofgame", "--variant", "chessme", "--position", last, "--goal", "draw", "--beam",
                        "0", "--max-plies", "2", "--json"});
  ASSERT_EQ(o.code, 0) << o.err;
  auto lines = o.lines();
  ASSERT_FALSE(lines.empty());
  auto j = nlohmann::json::parse(lines.back());
  EXPECT_EQ(j["result"], "shortest");
  EXPECT_EQ(j["plies"], 1);
  EXPECT_EQ(j["proved_none_within"], 0);
  EXPECT_EQ(j["final"], game.final_position);
  EXPECT_EQ(j["checked_by"].size(), 2u);  // the compiled generator and the reference engine
  // No draw within 1 ply from the start: proved, exit 0.
  auto none = run_arbiter({"proofgame", "--variant", "chessme", "--beam", "0", "--max-plies", "1", "--json"});
  EXPECT_EQ(none.code, 0) << none.err;
  EXPECT_NE(none.out.find("\"result\":\"none\""), std::string::npos) << none.out;
  // Unusable input: exit 2 with a message.
  auto bad = run_arbiter({"proofgame", "--variant", "chessme", "--goal", "checkmated"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--goal"), std::string::npos) << bad.err;
  auto hidden = run_arbiter({"proofgame", "--variant", "chessme", "--position",
                             "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w BNP/rbb ?/? -/- 1"});
  EXPECT_EQ(hidden.code, 2);
  EXPECT_NE(hidden.err.find("pile"), std::string::npos) << hidden.err;
}

}  // namespace
