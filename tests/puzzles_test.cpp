// Proved puzzles (solver/puzzles, `arbiter puzzles`, corpus/puzzles/): every stored puzzle
// re-solved (unique key, the solution line replayed to the goal), the generator's
// determinism and checks, the file format, and the command.
#include "arbiter/puzzles.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "arbiter/notation.hpp"
#include "arbiter/stipulation.hpp"
#include "helpers.hpp"
#include "process.hpp"

namespace {

using testing_helpers::fast;
using testing_helpers::read_text;
using testing_helpers::source_path;

// An engine of the puzzle's game: the bundled ruleset compiled with the options column.
std::unique_ptr<arb::Engine> game_engine(const std::string& variant, const std::string& options) {
  std::map<std::string, std::string> overrides;
  std::istringstream in(options);
  std::string kv;
  while (in >> kv) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) throw std::runtime_error("option without `=`: " + kv);
    overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  arb::lang::Diagnostics d;
  auto c = arb::lang::compile_file(testing_helpers::ruleset_path(variant), overrides, d);
  if (d.has_errors() || !c.program) throw std::runtime_error(variant + ": " + d.render());
  return arb::lang::make_compiled_engine(c.program);
}

// Every stored puzzle of every executable variant: at least 50 per file, each re-solved
// with --all-keys (one key, the solution's first action, the goal in exactly `depth`, none
// in fewer) and its solution replayed to the goal. Under ARBITER_FAST (sanitizers) every
// fourth puzzle of each file (rows 0, 4, 8, ...).
class StoredPuzzles : public ::testing::TestWithParam<const char*> {};

TEST_P(StoredPuzzles, EveryOneReSolves) {
  {
    const std::string variant = GetParam();
    std::string path = source_path("corpus/puzzles/" + variant + ".csv");
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    std::vector<arb::puzzles::Puzzle> ps = arb::puzzles::from_csv(read_text(path));
    EXPECT_GE(ps.size(), 50u) << path;
    std::map<std::string, std::unique_ptr<arb::Engine>> engines;
    std::map<int, int> depths;
    for (size_t i = 0; i < ps.size(); ++i) {
      const auto& p = ps[i];
      EXPECT_EQ(p.variant, variant) << path << " record " << i + 2;
      ++depths[p.depth];
      if (fast() && i % 4 != 0) continue;
      auto& e = engines[p.options];
      if (!e) e = game_engine(p.variant, p.options);
      EXPECT_EQ(arb::puzzles::verify(*e, p), "") << path << " record " << i + 2 << ": " << p.position;
    }
    EXPECT_GE(depths[2], 5) << path << ": some mates in 2";
  }
}
INSTANTIATE_TEST_SUITE_P(Puzzles, StoredPuzzles,
                         ::testing::Values("chess", "chessembly", "chessme", "capablanca", "chess2",
                                           "nostress"));

TEST(Puzzles, GeneratorIsDeterministicAndEveryPuzzleVerifies) {
  auto e = testing_helpers::compiled_engine("chess");
  arb::puzzles::Options o;
  o.goal = "mate";
  o.depth = 1;
  o.count = 3;
  o.seed = 7;
  arb::puzzles::Stats s1, s2;
  auto a = arb::puzzles::generate(*e, o, s1);
  auto b = arb::puzzles::generate(*e, o, s2);
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(s1.games, s2.games);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].position, b[i].position);
    EXPECT_EQ(a[i].solution, b[i].solution);
    EXPECT_EQ(a[i].solution.size(), 1u);
    auto check = testing_helpers::compiled_engine("chess");
    EXPECT_EQ(arb::puzzles::verify(*check, a[i]), "") << a[i].position;
  }
  EXPECT_NE(a[0].position, a[1].position);
  o.seed = 8;
  arb::puzzles::Stats s3;
  auto c = arb::puzzles::generate(*e, o, s3);
  ASSERT_FALSE(c.empty());
  EXPECT_NE(c[0].position, a[0].position);
}

// verify() refuses what is not a proved unique-key puzzle.
TEST(Puzzles, VerifyRefusesWrongPuzzles) {
  auto e = testing_helpers::compiled_engine("chess");
  // Two keys: both queens mate on the back rank.
  arb::puzzles::Puzzle two{"6k1/8/6K1/8/8/8/8/QQ6 w - - 0 1", "mate", 1, {"a1a8"}, "chess", "", ""};
  EXPECT_NE(arb::puzzles::verify(*e, two).find("not a unique key"), std::string::npos);
  // One key (Ra8#), but the stored line is wrong, too long or stated at the wrong depth.
  arb::puzzles::Puzzle one{"6k1/8/6K1/8/8/8/8/R7 w - - 0 1", "mate", 1, {"a1a8"}, "chess", "", ""};
  EXPECT_EQ(arb::puzzles::verify(*e, one), "");
  auto bad = one;
  bad.solution = {"a1a7"};
  EXPECT_NE(arb::puzzles::verify(*e, bad).find("the key is a1a8"), std::string::npos);
  bad = one;
  bad.depth = 2;
  EXPECT_NE(arb::puzzles::verify(*e, bad).find("proves it in 1"), std::string::npos);
  bad = one;
  bad.solution = {"a1a8", "g8h7"};
  EXPECT_NE(arb::puzzles::verify(*e, bad), "");
  bad = one;
  bad.goal = "stalemate";
  EXPECT_NE(arb::puzzles::verify(*e, bad).find("goal must be"), std::string::npos);
}

// The CSV: fields with commas (ChessMe positions and actions) quoted, read back equal; a
// bad depth or a bad header names the record.
TEST(Puzzles, CsvRoundTrip) {
  std::vector<arb::puzzles::Puzzle> ps = {
      {"ka4,rc4,Pe4,Kf4,Pd3 w -/- -/- q/Q 31",
       "mate",
       2,
       {"d5e5", "e4f4", "c6d6,N@d5"},
       "chessme",
       "seed=1",
       ""},
      {"6k1/8/6K1/8/8/8/8/R7 w - - 0 1", "win", 1, {"a1a8"}, "chess", "fifty-move=100 repetition=3", ""}};
  std::string csv = arb::puzzles::to_csv(ps);
  EXPECT_EQ(csv.rfind("position,goal,depth,solution,variant,options\n", 0), 0u);
  auto back = arb::puzzles::from_csv(csv);
  ASSERT_EQ(back.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back[i].position, ps[i].position);
    EXPECT_EQ(back[i].goal, ps[i].goal);
    EXPECT_EQ(back[i].depth, ps[i].depth);
    EXPECT_EQ(back[i].solution, ps[i].solution);
    EXPECT_EQ(back[i].options, ps[i].options);
  }
  EXPECT_THROW(arb::puzzles::from_csv("position,goal,depth,solution,variant,options\nx,mate,0,a1a8,chess,\n"),
               std::invalid_argument);
  EXPECT_THROW(arb::puzzles::from_csv("position,goal,depth\nx,mate,1\n"), std::invalid_argument);
}

TEST(Puzzles, CommandWritesOnlyWhenAskedAndAppends) {
  using testing_process::run_arbiter;
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("arbiter-puzzles-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string out = (dir / "p.csv").string();
  auto r = run_arbiter({"puzzles", "--variant", "chess", "--goal", "mate", "--depth", "1", "--count", "2",
                        "--seed", "3", "--out", out, "--json"});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_NE(r.last_line().find("\"found\":2"), std::string::npos) << r;
  auto first = arb::puzzles::from_csv(read_text(out));
  EXPECT_EQ(first.size(), 2u);
  r = run_arbiter({"puzzles", "--variant", "chess", "--goal", "mate", "--depth", "1", "--count", "2",
                   "--seed", "4", "--out", out, "--append"});
  ASSERT_EQ(r.code, 0) << r;
  auto both = arb::puzzles::from_csv(read_text(out));
  EXPECT_GT(both.size(), 2u);
  EXPECT_EQ(both[0].position, first[0].position);
  // Without --out the CSV goes to standard output; nothing else is written.
  r = run_arbiter({"puzzles", "--variant", "chess", "--goal", "mate", "--depth", "1", "--count", "1"},
                  dir.string());
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.out.rfind("position,goal,depth,solution,variant,options\n", 0), 0u) << r;
  size_t files = 0;
  for (auto& f : std::filesystem::directory_iterator(dir)) files += f.is_regular_file();
  EXPECT_EQ(files, 1u);
  // From Z3's mate-in-1 positions (KR v K in the 4x4 corner): a unique-key mate in 1 that
  // verifies (not under ARBITER_FAST: Z3 under the sanitizers is slow).
  if (!fast()) {
    r = run_arbiter({"puzzles", "--variant", "chess", "--from", "synth", "--material", "KR v K", "--window",
                     "4x4", "--goal", "mate", "--depth", "1", "--count", "1", "--timeout", "60"});
    ASSERT_EQ(r.code, 0) << r;
    auto synth = arb::puzzles::from_csv(r.out);
    ASSERT_EQ(synth.size(), 1u) << r;
    auto e = testing_helpers::compiled_engine("chess");
    EXPECT_EQ(arb::puzzles::verify(*e, synth[0]), "") << synth[0].position;
  }
  r = run_arbiter({"puzzles", "--variant", "chess", "--from", "synth", "--goal", "mate", "--depth", "2"});
  EXPECT_EQ(r.code, 2) << r;
  // Unusable input: exit 2 with a message.
  r = run_arbiter({"puzzles", "--variant", "chess", "--goal", "stalemate", "--depth", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("--goal"), std::string::npos) << r;
  r = run_arbiter({"puzzles", "--variant", "chess", "--goal", "mate"});
  EXPECT_EQ(r.code, 2) << r;
  // A budget too small to find them: exit 3, what was found still reported.
  r = run_arbiter({"puzzles", "--variant", "chess", "--goal", "mate", "--depth", "1", "--count", "5",
                   "--max-games", "1", "--json"});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.last_line().find("\"requested\":5"), std::string::npos) << r;
  std::filesystem::remove_all(dir);
}

// ---- Stipulation puzzles (--stipulation, --quiet-key, --economy, the tree column) ----

// The canonical text of every legal action at the engine's position.
std::vector<std::pair<std::string, arb::Action>> actions_of(arb::Engine& e) {
  std::vector<arb::Action> ms;
  e.legal_actions(ms);
  std::vector<std::pair<std::string, arb::Action>> out;
  for (const auto& a : ms) out.push_back({arb::uci(e.describe(a), e.chess960()), a});
  return out;
}

// Generated #2s with --quiet-key: the key (first move of the stored line and of the tree)
// neither captures (no capturing step) nor leaves the defender in check, checked here by
// playing it; the puzzle is sound (one key, no mate in 1) and verifies. Without
// --quiet-key the same seed's first #2 has a checking key (Qh5+), so the filter is what
// makes them quiet.
TEST(StipulationPuzzles, QuietKeyTwoMoversHaveQuietKeys) {
  auto e = testing_helpers::compiled_engine("chess");
  arb::puzzles::Options o;
  o.stipulation = "#2";
  o.count = 2;
  o.seed = 1;
  arb::puzzles::Stats st;
  auto loud = arb::puzzles::generate(*e, o, st);
  ASSERT_FALSE(loud.empty());
  o.quiet_key = true;
  arb::puzzles::Stats sq;
  auto quiet = arb::puzzles::generate(*e, o, sq);
  ASSERT_EQ(quiet.size(), 2u);
  auto check = testing_helpers::compiled_engine("chess");
  auto is_quiet = [&](const arb::puzzles::Puzzle& p) {
    check->set_position(p.position);
    for (auto& [text, a] : actions_of(*check)) {
      if (text != p.solution[0]) continue;
      for (const auto& step : check->describe(a).steps)
        if (step.capture()) return false;
      check->apply(a);
      bool in_check = check->status().in_check;
      check->undo();
      return !in_check;
    }
    ADD_FAILURE() << "the key " << p.solution[0] << " is not legal in " << p.position;
    return false;
  };
  EXPECT_FALSE(is_quiet(loud[0])) << loud[0].position << " " << loud[0].solution[0];
  for (const auto& p : quiet) {
    EXPECT_EQ(p.goal, "#2");
    EXPECT_EQ(p.depth, 2);
    EXPECT_TRUE(is_quiet(p)) << p.position << " " << p.solution[0];
    EXPECT_NE(p.tree.find("\"uci\":[\"" + p.solution[0] + "\"]"), std::string::npos) << p.tree;
    // No short solution: the solver finds no mate in 1, and exactly one key in 2.
    check->set_position(p.position);
    auto r = arb::puzzles::solve_stipulation(*check, *arb::stip::parse_stipulation("#2"), 0);
    EXPECT_TRUE(r.shorter.empty());
    ASSERT_EQ(r.solutions.size(), 1u);
    EXPECT_EQ(r.proved_none_below, 2);
    EXPECT_EQ(arb::puzzles::verify(*check, p), "") << p.position;
  }
  // quiet_first_move on a fixed position: Ra8+ checks, Ra2 is quiet, Rxa7 captures.
  check->set_position("6k1/p7/6K1/8/8/8/8/R7 w - - 0 1");
  EXPECT_FALSE(arb::puzzles::quiet_first_move(*check, "a1a8"));
  EXPECT_FALSE(arb::puzzles::quiet_first_move(*check, "a1a7"));
  EXPECT_TRUE(arb::puzzles::quiet_first_move(*check, "a1a2"));
  EXPECT_FALSE(arb::puzzles::quiet_first_move(*check, "a1h8"));  // not legal
}

// Economy on a fixed #2 (KR v K, zugzwang key Kd6): every piece is needed (the kings:
// illegal; the rook: no mate). The same with an idle white pawn on h2: that pawn's removal
// leaves the same tree ("unchanged"), which the check proves by re-solving the position
// without it; the generator with --economy takes such pieces off.
TEST(StipulationPuzzles, EconomyProvesEveryPieceNeeded) {
  auto e = testing_helpers::compiled_engine("chess");
  const auto s = *arb::stip::parse_stipulation("#2");
  auto puzzle_at = [&](const std::string& pos) {
    e->set_position(pos);
    auto r = arb::puzzles::solve_stipulation(*e, s, 0);
    EXPECT_TRUE(arb::puzzles::sound(r)) << pos;
    return arb::puzzles::Puzzle{pos, "#2", 2, r.solutions.at(0).uci, "chess", "", arb::puzzles::tree_json(r)};
  };
  auto lean = puzzle_at("2k5/8/8/3K4/1R6/8/8/8 w - - 0 1");
  EXPECT_EQ(lean.solution, std::vector<std::string>{"d5d6"});
  std::map<std::string, std::string> change;
  for (const auto& r : arb::puzzles::economy(*e, lean)) change[r.piece.square] = r.change;
  EXPECT_EQ(change, (std::map<std::string, std::string>{
                        {"b4", "no solution"}, {"c8", "illegal"}, {"d5", "illegal"}}));

  auto fat = puzzle_at("2k5/8/8/3K4/1R6/8/7P/8 w - - 0 1");
  EXPECT_EQ(fat.tree, lean.tree);
  change.clear();
  for (const auto& r : arb::puzzles::economy(*e, fat)) change[r.piece.square] = r.change;
  EXPECT_EQ(change["h2"], "unchanged");
  EXPECT_EQ(change["b4"], "no solution");
  // The proof, by hand: the position without the pawn is the lean one, with the same tree.
  auto pieces = arb::puzzles::pieces_of(fat.position);
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[3].square, "h2");
  EXPECT_EQ(arb::puzzles::without_piece(fat.position, pieces[3].index), "2k5/8/8/3K4/1R6/8/8/8 w - - 0 1");
  EXPECT_EQ(arb::puzzles::without_piece(fat.position, pieces[2].index), "2k5/8/8/3K4/8/8/7P/8 w - - 0 1");
  e->set_position(arb::puzzles::without_piece(fat.position, pieces[2].index));
  auto no_rook = arb::puzzles::solve_stipulation(*e, s, 0);
  EXPECT_EQ(no_rook.outcome, arb::stip::Outcome::None);

  // Generated with --economy: every piece left is needed, each removal proved to change it.
  arb::puzzles::Options o;
  o.stipulation = "#2";
  o.economy = true;
  o.count = 2;
  o.seed = 1;
  arb::puzzles::Stats st;
  auto ps = arb::puzzles::generate(*e, o, st);
  ASSERT_EQ(ps.size(), 2u);
  for (const auto& p : ps) {
    auto rs = arb::puzzles::economy(*e, p);
    EXPECT_EQ(rs.size(), arb::puzzles::pieces_of(p.position).size());
    for (const auto& r : rs) {
      EXPECT_NE(r.change, "unchanged") << p.position << " " << r.piece.square;
      EXPECT_NE(r.change, "unknown") << p.position << " " << r.piece.square;
    }
    EXPECT_EQ(arb::puzzles::verify(*e, p), "") << p.position;
  }
}

// The stored tree re-solves to the same: generated puzzles of several stipulations written
// to CSV (seven columns), read back, and verify() re-solves each to the same line and tree;
// a changed tree, a changed solution or a missing tree is refused.
TEST(StipulationPuzzles, StoredTreeReSolvesToTheSame) {
  auto e = testing_helpers::compiled_engine("chess");
  std::vector<arb::puzzles::Puzzle> all;
  for (const char* stip : {"#2", "h#1", "=1", "r#1"}) {
    arb::puzzles::Options o;
    o.stipulation = stip;
    o.count = 1;
    o.seed = 1;
    o.max_games = 300;
    arb::puzzles::Stats st;
    auto ps = arb::puzzles::generate(*e, o, st);
    ASSERT_EQ(ps.size(), 1u) << stip;
    EXPECT_EQ(ps[0].goal, stip);
    all.push_back(ps[0]);
  }
  std::string csv = arb::puzzles::to_csv(all);
  EXPECT_EQ(csv.rfind("position,goal,depth,solution,variant,options,tree\n", 0), 0u);
  auto back = arb::puzzles::from_csv(csv);
  ASSERT_EQ(back.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(back[i].tree, all[i].tree);
    EXPECT_EQ(back[i].solution, all[i].solution);
    EXPECT_EQ(arb::puzzles::verify(*e, back[i]), "") << back[i].goal << " " << back[i].position;
  }
  auto bad = back[0];
  bad.tree.replace(bad.tree.find("\"moves\":1"), 9, "\"moves\":2");
  EXPECT_NE(arb::puzzles::verify(*e, bad).find("tree differs"), std::string::npos);
  bad = back[0];
  bad.tree.clear();
  EXPECT_NE(arb::puzzles::verify(*e, bad).find("no solution tree"), std::string::npos);
  bad = back[1];
  bad.solution.pop_back();
  EXPECT_NE(arb::puzzles::verify(*e, bad).find("the solution is"), std::string::npos);
  bad = back[0];
  bad.goal = "#1";
  EXPECT_NE(arb::puzzles::verify(*e, bad), "");
  // A depth that is not the stipulation's N is refused when read.
  std::string wrong = csv;
  wrong.replace(wrong.find(",#2,2,"), 6, ",#2,3,");
  EXPECT_THROW(arb::puzzles::from_csv(wrong), std::invalid_argument);
}

TEST(StipulationPuzzles, Command) {
  using testing_process::run_arbiter;
  auto r = run_arbiter({"puzzles", "--variant", "chess", "--stipulation", "#2", "--quiet-key", "--economy",
                        "--count", "1", "--json"});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("\"goal\":\"#2\""), std::string::npos) << r;
  EXPECT_NE(r.out.find("\"tree\":[{\"uci\":"), std::string::npos) << r;
  r = run_arbiter({"puzzles", "--variant", "chess", "--stipulation", "h#1", "--count", "1"});
  ASSERT_EQ(r.code, 0) << r;
  auto ps = arb::puzzles::from_csv(r.out);
  ASSERT_EQ(ps.size(), 1u);
  auto e = testing_helpers::compiled_engine("chess");
  EXPECT_EQ(arb::puzzles::verify(*e, ps[0]), "");
  for (std::vector<std::string> bad : {std::vector<std::string>{"--stipulation", "x#2"},
                                       {"--stipulation", "#2", "--goal", "mate"},
                                       {"--goal", "mate", "--depth", "2", "--quiet-key"},
                                       {"--goal", "mate", "--depth", "2", "--economy"},
                                       {"--stipulation", "#0"}}) {
    std::vector<std::string> args = {"puzzles", "--variant", "chess", "--count", "1"};
    args.insert(args.end(), bad.begin(), bad.end());
    r = run_arbiter(args);
    EXPECT_EQ(r.code, 2) << r;
    EXPECT_FALSE(r.err.empty()) << r;
  }
  // Economy removes pieces from FEN boards: ChessMe's position text is refused up front.
  r = run_arbiter({"puzzles", "--variant", "chessme", "--stipulation", "#1", "--economy", "--count", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("--economy"), std::string::npos) << r;
}

// Selfmates around the frame (--from frame, the default of s#N): a seeded `puzzles
// --stipulation s#2 --count 1` run gives a selfmate that the solver proves again with one
// key and none shorter, standing on the frame (Ka1, Black's Ka3, b3, a2), its stored tree
// re-solved by verify(); the same puzzles with two threads; frame_position is seeded; the
// command's refusals. About 0.5 s in Release.
TEST(StipulationPuzzles, SelfmatesAroundTheFrame) {
  using testing_process::run_arbiter;
  auto r =
      run_arbiter({"puzzles", "--variant", "chess", "--stipulation", "s#2", "--count", "1", "--seed", "3"});
  ASSERT_EQ(r.code, 0) << r;
  auto ps = arb::puzzles::from_csv(r.out);
  ASSERT_EQ(ps.size(), 1u) << r;
  const auto& p = ps[0];
  EXPECT_EQ(p.goal, "s#2");
  EXPECT_EQ(p.depth, 2);
  EXPECT_NE(r.err.find("frame positions built"), std::string::npos) << r;
  std::map<std::string, char> at;
  for (const auto& bp : arb::puzzles::pieces_of(p.position)) at[bp.square] = bp.piece;
  EXPECT_EQ(at["a1"], 'K') << p.position;
  EXPECT_EQ(at["a3"], 'k') << p.position;
  EXPECT_EQ(at["b3"], 'p') << p.position;
  auto e = testing_helpers::compiled_engine("chess");
  e->set_position(p.position);
  auto again = arb::puzzles::solve_stipulation(*e, *arb::stip::parse_stipulation("s#2"), 0);
  ASSERT_EQ(again.outcome, arb::stip::Outcome::Solved) << p.position;
  ASSERT_EQ(again.solutions.size(), 1u) << p.position << ": one key";
  EXPECT_TRUE(again.shorter.empty()) << p.position;
  EXPECT_EQ(again.proved_none_below, 2);
  EXPECT_EQ(again.solutions[0].uci[0], p.solution[0]);
  EXPECT_EQ(arb::puzzles::tree_json(again), p.tree);
  EXPECT_EQ(arb::puzzles::verify(*e, p), "") << p.position;

  // The library: the same puzzles with one thread or two, each verified.
  arb::puzzles::Options o;
  o.stipulation = "s#2";
  o.count = fast() ? 1 : 3;
  o.seed = 5;
  arb::puzzles::Stats s1, s2;
  auto one = arb::puzzles::generate_frame(*e, o, s1);
  o.jobs = 2;
  auto two = arb::puzzles::generate_frame(*e, o, s2);
  ASSERT_EQ(one.size(), static_cast<size_t>(o.count));
  ASSERT_EQ(two.size(), one.size());
  EXPECT_GT(s1.built, s1.positions) << "the filter drops candidates before the proof";
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].position, two[i].position);
    EXPECT_EQ(one[i].tree, two[i].tree);
    EXPECT_EQ(arb::puzzles::verify(*e, one[i]), "") << one[i].position;
  }
  // frame_position: seeded, pieces added to the frame, "" for a text that is not a board.
  const std::string a = arb::puzzles::frame_position(arb::puzzles::kSelfmateFrame, 11);
  EXPECT_EQ(a, arb::puzzles::frame_position(arb::puzzles::kSelfmateFrame, 11));
  EXPECT_NE(a, arb::puzzles::frame_position(arb::puzzles::kSelfmateFrame, 12));
  EXPECT_GE(arb::puzzles::pieces_of(a).size(), 4u + 2u) << a;
  EXPECT_LE(arb::puzzles::pieces_of(a).size(), 4u + 5u) << a;
  EXPECT_EQ(arb::puzzles::frame_position("8/8/8[Q]/8 w - - 0 1", 1), "");
  // The pieces: only the letters given; chess's by default, a game's own otherwise (its
  // start position's letters less the frame's royals).
  for (uint64_t seed = 1; seed <= 20; ++seed)
    for (const auto& p :
         arb::puzzles::pieces_of(arb::puzzles::frame_position(arb::puzzles::kSelfmateFrame, seed, "A/c")))
      EXPECT_NE(std::string("KkpAc").find(p.piece), std::string::npos) << p.piece;
  EXPECT_EQ(arb::puzzles::frame_position(arb::puzzles::kSelfmateFrame, 1, "/pnb"), "");
  EXPECT_EQ(arb::puzzles::default_frame_pieces("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                               arb::puzzles::kSelfmateFrame),
            "QRBNP/pnb");
  EXPECT_EQ(arb::puzzles::default_frame_pieces("rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w - - 0 1",
                                               arb::puzzles::kSelfmateFrame),
            "ABNPR/abnpr");
  EXPECT_EQ(arb::puzzles::default_frame_pieces("8[Q] w", arb::puzzles::kSelfmateFrame), "");

  r = run_arbiter({"puzzles", "--variant", "chess", "--stipulation", "s#2", "--pieces", "QR/Q"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("--pieces"), std::string::npos) << r;
  r = run_arbiter({"puzzles", "--variant", "chess", "--stipulation", "s#2", "--count", "1", "--pieces",
                   "QRBN/p", "--max-positions", "3000"});
  EXPECT_EQ(r.code, 0) << r;

  // The budget: exit 3, and why. Refused: a frame without kings, frame without a
  // stipulation, --jobs or --base without the frame, a frame with --position.
  r = run_arbiter(
      {"puzzles", "--variant", "chess", "--stipulation", "s#2", "--count", "50", "--max-positions", "20"});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("stopped at --max-positions 20"), std::string::npos) << r;
  for (std::vector<std::string> bad :
       {std::vector<std::string>{"--stipulation", "s#2", "--base", "8/8/8/8/8/8/8/8 w - - 0 1"},
        {"--stipulation", "s#2", "--base", "not a board"},
        {"--from", "frame", "--goal", "mate", "--depth", "1"},
        {"--stipulation", "#2", "--jobs", "2"},
        {"--stipulation", "s#2", "--from", "selfplay", "--base", "8/8/8/8/8/kp6/p7/K7 w - - 0 1"},
        {"--stipulation", "s#2", "--from", "frame", "--position", "8/8/8/8/8/kp6/p7/K7 w - - 0 1"}}) {
    std::vector<std::string> args = {"puzzles", "--variant", "chess", "--count", "1"};
    args.insert(args.end(), bad.begin(), bad.end());
    r = run_arbiter(args);
    EXPECT_EQ(r.code, 2) << r;
    EXPECT_FALSE(r.err.empty()) << r;
  }
}

// corpus/puzzles/stipulations/chess.csv (made with --economy, #2 and #3 also with
// --quiet-key): every row re-solves to its stored line and tree, and every piece of every
// row is needed (economy() reports no `unchanged` or `unknown` removal). Under ARBITER_FAST
// the economy check on every fourth row.
TEST(StipulationPuzzles, StoredProblemsReSolveAndAreEconomical) {
  std::string path = source_path("corpus/puzzles/stipulations/chess.csv");
  auto ps = arb::puzzles::from_csv(read_text(path));
  EXPECT_GE(ps.size(), 20u);
  auto e = testing_helpers::compiled_engine("chess");
  std::map<std::string, int> by;
  for (size_t i = 0; i < ps.size(); ++i) {
    const auto& p = ps[i];
    ++by[p.goal];
    EXPECT_EQ(arb::puzzles::verify(*e, p), "") << path << " record " << i + 2 << ": " << p.position;
    if (p.goal == "#2" || p.goal == "#3") {
      e->set_position(p.position);
      EXPECT_TRUE(arb::puzzles::quiet_first_move(*e, p.solution[0])) << p.position;
    }
    if (fast() && i % 4 != 0) continue;
    for (const auto& r : arb::puzzles::economy(*e, p)) {
      EXPECT_NE(r.change, "unchanged") << path << " record " << i + 2 << ": " << r.piece.square;
      EXPECT_NE(r.change, "unknown") << path << " record " << i + 2 << ": " << r.piece.square;
    }
  }
  EXPECT_GE(by.size(), 5u) << "several stipulations";
}

}  // namespace

// The puzzle file stores UCI unless --notation san asks for SAN (which reads back: the
// file's readers take either); --json gives both, `solution_san` beside `solution`.
TEST(Puzzles, CommandNotation) {
  using testing_process::run_arbiter;
  const std::vector<std::string> base = {"puzzles", "--variant", "chess", "--goal", "mate", "--depth",
                                         "1",       "--count",   "1",     "--seed", "3"};
  auto uci = run_arbiter(base);
  ASSERT_EQ(uci.code, 0) << uci;
  auto san_args = base;
  san_args.insert(san_args.end(), {"--notation", "san"});
  auto san = run_arbiter(san_args);
  ASSERT_EQ(san.code, 0) << san;
  auto u = arb::puzzles::from_csv(uci.out), s = arb::puzzles::from_csv(san.out);
  ASSERT_EQ(u.size(), 1u);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(u[0].position, s[0].position);
  ASSERT_EQ(s[0].solution.size(), 1u);
  // The same move: UCI squares, SAN with a mate mark.
  auto e = testing_helpers::compiled_at("chess", u[0].position);
  auto a = arb::parse_action(*e, u[0].solution[0]);
  ASSERT_TRUE(a);
  EXPECT_EQ(s[0].solution[0], arb::san(*e, *a));
  EXPECT_EQ(s[0].solution[0].back(), '#');
  EXPECT_EQ(u[0].solution[0].size(), 4u);
  auto json_args = base;
  json_args.push_back("--json");
  auto j = run_arbiter(json_args);
  ASSERT_EQ(j.code, 0) << j;
  EXPECT_NE(j.out.find("\"solution\":[\"" + u[0].solution[0] + "\"],\"solution_san\":[\"" + s[0].solution[0] +
                       "\"]"),
            std::string::npos)
      << j;
  san_args.back() = "xboard";
  EXPECT_EQ(run_arbiter(san_args).code, 2);
}
