// Proof games (solver/proofgame/). ChessMe's no-legal-move draw: the game found from the
// start replays turn by turn on the compiled generator and on the reference engine and
// ends in a draw; an exhaustive search from a position of that game proves its draw the
// shortest; the smallest draw positions (fewest tiles) are re-verified. Other goals and
// rulesets (mate, stalemate, royal capture, midline invasion, a designer ruleset): each
// expected length derived by hand or known from chess literature, stated beside it.
#include "arbiter/proofgame.hpp"

#include <cstdlib>
#include <filesystem>
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

// ---- other goals and rulesets ------------------------------------------------------------

arb::proofgame::Result proof(arb::Engine& e, const arb::proofgame::Goal& goal, int max_plies) {
  arb::proofgame::Options o;
  o.goal = goal;
  o.max_plies = max_plies;
  o.beam_width = 0;  // the exhaustive search alone: what it finds is proved shortest
  o.table_mb = 2;
  return arb::proofgame::search(e, o);
}

TEST(ProofGame, GoalsParse) {
  using arb::proofgame::Goal;
  using arb::proofgame::parse_goal;
  EXPECT_EQ(parse_goal("mate").kind, Goal::Kind::Mate);
  EXPECT_FALSE(parse_goal("mate").winner.has_value());
  EXPECT_EQ(parse_goal("mate", "b").winner, arb::Color::Black);
  EXPECT_EQ(parse_goal("stalemate").kind, Goal::Kind::Stalemate);
  EXPECT_EQ(parse_goal("draw").kind, Goal::Kind::Draw);
  EXPECT_EQ(parse_goal("win", "w").winner, arb::Color::White);
  EXPECT_EQ(parse_goal("no-legal-move").kind, Goal::Kind::NoLegalMove);
  Goal r = parse_goal("reason:royal-capture");
  EXPECT_EQ(r.kind, Goal::Kind::Reason);
  EXPECT_EQ(r.reason, "royal-capture");
  EXPECT_EQ(r.text(), "reason:royal-capture");
  EXPECT_THROW(parse_goal("checkmated"), std::invalid_argument);
  EXPECT_THROW(parse_goal("reason:"), std::invalid_argument);
  EXPECT_THROW(parse_goal("mate", "white"), std::invalid_argument);
  EXPECT_THROW(parse_goal("draw", "w"), std::invalid_argument);  // a draw has no winner
  // The witness filters only where every goal position is a no-move position out of check.
  std::string why;
  EXPECT_TRUE(arb::proofgame::goal_filters_apply(parse_goal("draw"), *bundled_program("chessme"), &why))
      << why;
  EXPECT_TRUE(arb::proofgame::goal_filters_apply(parse_goal("stalemate"), *bundled_program("chessme")));
  EXPECT_FALSE(arb::proofgame::goal_filters_apply(parse_goal("mate"), *bundled_program("chessme"), &why));
  EXPECT_NE(why.find("mate"), std::string::npos) << why;
  EXPECT_FALSE(arb::proofgame::goal_filters_apply(parse_goal("no-legal-move"), *bundled_program("chessme")));
  EXPECT_FALSE(arb::proofgame::goal_filters_apply(parse_goal("draw"), *bundled_program("chess"), &why));
  EXPECT_NE(why.find("insufficient"), std::string::npos) << why;
  // Every end of ChessMe leaves no legal action; chess's insufficient material does not.
  EXPECT_TRUE(arb::proofgame::ends_only_without_moves(*bundled_program("chessme")));
  EXPECT_FALSE(arb::proofgame::ends_only_without_moves(*bundled_program("chess")));
  EXPECT_FALSE(arb::proofgame::ends_only_without_moves(*bundled_program("chess2")));  // the invasion
  // The search refuses the filters for a goal they do not hold for.
  auto e = compiled_at("chessme", "start");
  arb::proofgame::Options o;
  o.goal = parse_goal("mate");
  o.last_turn_filter = true;
  EXPECT_THROW(arb::proofgame::search(*e, o), std::invalid_argument);
}

TEST(ProofGame, ChessFoolsMate) {
  // The shortest checkmate from the chess start is the fool's mate, 1.f3 e5 2.g4 Qh4#: 4
  // plies (Black mates; a literature fact). With White the winner, 5 plies (1.e3 f6 2.Na3
  // g5 3.Qh5#: Black's f- and g-pawns must open the e8-h5 diagonal, two Black turns, so
  // White's mate comes on its third turn at the earliest).
  auto e = compiled_at("chess", "start");
  const std::string start = e->position();
  arb::proofgame::Result r = proof(*e, arb::proofgame::parse_goal("mate"), 6);
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.shortest);
  EXPECT_EQ(r.plies, 4);
  EXPECT_EQ(r.proved_none_within, 3);
  EXPECT_GT(r.check_pruned, 0u);  // the last turn must give check
  ASSERT_EQ(r.san.size(), 4u);
  EXPECT_EQ(r.san.back().back(), '#');
  EXPECT_EQ(compiled_at("chess", r.final_position)->status().reason, "checkmate");
  EXPECT_EQ(
      arb::proofgame::replay(*compiled_engine("chess"), start, r.line, arb::proofgame::parse_goal("mate")),
      "");
  EXPECT_EQ(arb::proofgame::replay(*arb::ref::make_reference_engine("chess"), start, r.san,
                                   arb::proofgame::parse_goal("mate", "b")),
            "");
  EXPECT_NE(arb::proofgame::replay(*compiled_engine("chess"), start, r.line,
                                   arb::proofgame::parse_goal("mate", "w")),
            "");  // Black mates, not White
  arb::proofgame::Result w = proof(*e, arb::proofgame::parse_goal("mate", "w"), 6);
  ASSERT_TRUE(w.found);
  EXPECT_TRUE(w.shortest);
  EXPECT_EQ(w.plies, 5);
  EXPECT_EQ(e->position(), start);
  // Without the budget to finish, nothing is claimed.
  arb::proofgame::Options o;
  o.goal = arb::proofgame::parse_goal("mate", "w");
  o.max_plies = 6;
  o.beam_width = 0;
  o.table_mb = 2;
  o.max_nodes = 100;
  arb::proofgame::Result cut = arb::proofgame::search(*e, o);
  EXPECT_FALSE(cut.found);
  EXPECT_FALSE(cut.why.empty());
  EXPECT_LT(cut.proved_none_within, 5);
}

TEST(ProofGame, ChessStalemateNearTheEnd) {
  // White Kg6 Qf2 against Kh8, White to move: the start is no stalemate (White has moves),
  // and 1.Qf7 leaves Black's king g8 (the queen's), g7 and h7 (king and queen), not in
  // check: a stalemate in 1 ply. With Black to move in the same position: not stalemated
  // (Kg8 is legal: the queen on f2 does not reach g8), and one Black ply leaves White to
  // move, with moves: none within 1 ply.
  auto e = compiled_at("chess", "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1");
  arb::proofgame::Result r = proof(*e, arb::proofgame::parse_goal("stalemate"), 3);
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.shortest);
  EXPECT_EQ(r.plies, 1);
  auto end = compiled_at("chess", r.final_position);
  EXPECT_EQ(end->status().reason, "stalemate");
  EXPECT_TRUE(arb::proofgame::no_move_draw(*end));
  // 1.Qf7 is one of the answers: the final position after it meets the goal.
  auto f7 = compiled_at("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 1 1");
  EXPECT_TRUE(arb::proofgame::reached(*f7, arb::proofgame::parse_goal("stalemate")));
  EXPECT_TRUE(arb::proofgame::reached(*f7, arb::proofgame::parse_goal("no-legal-move")));
  EXPECT_TRUE(arb::proofgame::reached(*f7, arb::proofgame::parse_goal("draw")));
  EXPECT_FALSE(arb::proofgame::reached(*f7, arb::proofgame::parse_goal("mate")));
  auto b = compiled_at("chess", "7k/8/6K1/8/8/8/5Q2/8 b - - 0 1");
  arb::proofgame::Result rb = proof(*b, arb::proofgame::parse_goal("stalemate"), 1);
  EXPECT_FALSE(rb.found);
  EXPECT_EQ(rb.proved_none_within, 1);
}

// A designer ruleset: Knightmate, the royal piece moving as a knight and a commoner M
// moving as a king.
std::string knightmate_rules() {
  const std::string dir = ::testing::TempDir() + "/proofgame_knightmate";
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir + "/chess.rules");
    out << read_text(ruleset_path("chess"));
  }
  std::ofstream out(dir + "/knightmate.rules");
  out << "ruleset knightmate extends chess\n"
         "title \"Knightmate\"\n"
         "piece king K {\n  betza \"N\"\n  royal\n}\n"
         "piece commoner M { betza \"K\" }\n"
         "castling none\n"
         "setup \"rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w - - 0 1\"\n";
  return dir + "/knightmate.rules";
}

// The table starts small and grows with the work, up to --hash: a huge --hash on a short
// search allocates (and zero-fills) little, and a longer search gets a larger table; the
// answers do not depend on the table's size.
TEST(ProofGame, TableStartsSmallAndGrows) {
  auto e = compiled_at("chess", "start");
  auto run = [&](size_t mb, int plies, const char* side) {
    arb::proofgame::Options o;
    o.goal = arb::proofgame::parse_goal("mate", side);
    o.max_plies = plies;
    o.beam_width = 0;
    o.table_mb = mb;
    return arb::proofgame::search(*e, o);
  };
  arb::proofgame::Result huge = run(65536, 4, "b"), tiny = run(1, 4, "b");
  ASSERT_TRUE(huge.found);
  EXPECT_EQ(huge.plies, 4);
  EXPECT_EQ(huge.line, tiny.line);
  EXPECT_EQ(huge.proof_nodes, tiny.proof_nodes);  // 1 MiB holds a 4-ply search's table
  EXPECT_LE(huge.table_bytes, size_t{1} << 20);   // not 64 GiB
  EXPECT_LE(tiny.table_bytes, size_t{1} << 20);
  arb::proofgame::Result longer = run(65536, 5, "w");
  ASSERT_TRUE(longer.found);
  EXPECT_EQ(longer.plies, 5);
  EXPECT_GT(longer.table_bytes, huge.table_bytes);  // grew with the work
  EXPECT_LE(longer.table_bytes, size_t{1} << 30);
  arb::proofgame::Result capped = run(1, 5, "w");
  EXPECT_EQ(capped.plies, 5);
  EXPECT_LE(capped.table_bytes, size_t{1} << 20);  // never past --hash
}

TEST(ProofGame, KnightmateMate) {
  arb::lang::Diagnostics d;
  auto c = arb::lang::compile_file(knightmate_rules(), {}, d);
  ASSERT_NE(c.program, nullptr) << d.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  // White M f5, K a1; Black's royal knight h8 and a pawn a7. Mg7 mates (it attacks h8, and
  // covers g6 and f7, the royal knight's only squares; h8 cannot take g7, no knight move).
  // From f5 the commoner reaches no square next to h8 in one step and White's royal knight
  // on a1 gives no check in one, so no White mate in 1 ply; Black (pawn and a royal knight
  // far away) cannot mate in ply 2; 1.Mf6 a6 2.Mg7#: 3 plies.
  e->set_position("7k/p7/8/5M2/8/8/8/K7 w - - 0 1");
  arb::proofgame::Result r = proof(*e, arb::proofgame::parse_goal("mate", "w"), 4);
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.shortest);
  EXPECT_EQ(r.plies, 3);
  ASSERT_EQ(r.line.size(), 3u);
  EXPECT_EQ(r.san.back(), "Mg7#");
  auto again = arb::lang::make_compiled_engine(c.program);
  EXPECT_EQ(arb::proofgame::replay(*again, "7k/p7/8/5M2/8/8/8/K7 w - - 0 1", r.line,
                                   arb::proofgame::parse_goal("mate", "w")),
            "");
  EXPECT_EQ(again->status().reason, "checkmate");
}

TEST(ProofGame, NoStressRoyalCaptureAndChess2Invasion) {
  using testing_process::run_arbiter;
  if (!std::filesystem::exists(testing_process::arbiter_path())) GTEST_SKIP() << "build the arbiter target";
  // No Stress Chess level 1 (the top card is played at once), the whole deck known: the
  // pile's top cards R, P, R. White's rook a1 cannot reach e8 on the first card, Black's
  // pawn card cannot take White's king, so no royal capture in 1 or 2 plies; 1.R:Ra8
  // 2.P:h6 (or h5) 3.R:Rxe8 takes the king: 3 plies.
  const std::string ns =
      "4k3/7p/8/8/8/8/8/R3K3 w - - 0 1 level:1 pile:RPRPPPPPPPPPPNNNNNNNNBBBBBBBBRRRRRRQQQQQQQQKKKKKKKAAAAAA "
      "wdiscard:- bdiscard:- whand:- bhand:-";
  auto o = run_arbiter({"proofgame", "--variant", "nostress", "--set", "level=1", "--position", ns, "--goal",
                        "reason:royal-capture", "--side", "w", "--max-plies", "4", "--json"});
  ASSERT_EQ(o.code, 0) << o.err;
  auto j = nlohmann::json::parse(o.lines().back());
  EXPECT_EQ(j["result"], "shortest");
  EXPECT_EQ(j["plies"], 3);
  EXPECT_EQ(j["proved_shortest"], true);
  EXPECT_EQ(j["proved_none_within"], 2);
  EXPECT_EQ(j["line"][2], "R:a8e8");
  EXPECT_EQ(j["checked_by"].size(), 2u);
  // A pile of unknown order is refused (no chance nodes in a proof game).
  const std::string hidden =
      "4k3/7p/8/8/8/8/8/R3K3 w - - 0 1 level:1 pile:RPR?53 wdiscard:- bdiscard:- whand:- bhand:-";
  auto h = run_arbiter({"proofgame", "--variant", "nostress", "--set", "level=1", "--position", hidden,
                        "--goal", "reason:royal-capture"});
  EXPECT_EQ(h.code, 2) << h.out;
  EXPECT_NE(h.err.find("draw"), std::string::npos) << h.err;
  // Chess 2: White's king on e3 is two steps from the midline (rank 5 is Black's half),
  // Black's on e8 four steps from its own goal (rank 4); nothing else can end the game: 1.K
  // to rank 4, a Black pawn move, 2.K to rank 5: 3 plies, none shorter (one king step from
  // rank 3 reaches rank 4 only).
  auto c2 = run_arbiter({"proofgame", "--variant", "chess2", "--position", "4k3/7p/8/8/8/4K3/P7/8 w - - 0 1",
                         "--goal", "reason:midline-invasion", "--notation", "uci", "--json"});
  ASSERT_EQ(c2.code, 0) << c2.err;
  auto k = nlohmann::json::parse(c2.lines().back());
  EXPECT_EQ(k["result"], "shortest");
  EXPECT_EQ(k["plies"], 3);
  EXPECT_EQ(k["moves"], k["line"]);  // --notation uci
  EXPECT_EQ(k["goal"], "reason:midline-invasion");
  // Chess from the start, --goal mate: the fool's mate (4 plies), SAN by default.
  auto fm = run_arbiter({"proofgame", "--goal", "mate", "--json"});
  ASSERT_EQ(fm.code, 0) << fm.err;
  auto m = nlohmann::json::parse(fm.lines().back());
  EXPECT_EQ(m["plies"], 4);
  EXPECT_EQ(m["moves"], m["san"]);
  EXPECT_EQ(fm.lines().size(), 1u) << fm.out;  // --json: the object and nothing else
  auto text = run_arbiter({"proofgame", "--goal", "mate"});
  EXPECT_NE(text.out.find("mate in 4 plies (shortest"), std::string::npos) << text.out;
  auto side = run_arbiter({"proofgame", "--goal", "draw", "--side", "w"});
  EXPECT_EQ(side.code, 2);
  EXPECT_NE(side.err.find("--side"), std::string::npos) << side.err;
}

}  // namespace

// The game as a person reads it, in the text and in the --svg diagram (a `Game` note):
// SAN by default, UCI with --notation uci.
TEST(ProofGame, CommandNotationInTextAndDiagram) {
  using testing_process::run_arbiter;
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("arbiter-proofgame-svg-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string svg = (dir / "g.svg").string();
  auto san =
      run_arbiter({"proofgame", "--variant", "chess", "--goal", "mate", "--max-plies", "4", "--svg", svg});
  ASSERT_EQ(san.code, 0) << san;
  EXPECT_NE(san.out.find("game: 1. f3 e"), std::string::npos) << san;
  std::string text = read_text(svg);
  EXPECT_NE(text.find("class=\"note\""), std::string::npos);
  size_t at = text.find(">Game: 1. f3 e");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_NE(text.find("Qh4#", at), std::string::npos) << text;
  auto uci = run_arbiter({"proofgame", "--variant", "chess", "--goal", "mate", "--max-plies", "4",
                          "--notation", "uci", "--svg", svg});
  ASSERT_EQ(uci.code, 0) << uci;
  text = read_text(svg);
  at = text.find(">Game: 1. f2f3 e");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_NE(text.find("d8h4", at), std::string::npos) << text;
  fs::remove_all(dir);
}
