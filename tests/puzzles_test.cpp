// Proved puzzles (solver/puzzles, `arbiter puzzles`, corpus/puzzles/): every stored puzzle
// re-solved (unique key, the solution line replayed to the goal), the generator's
// determinism and checks, the file format, and the command.
#include "arbiter/puzzles.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

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
  arb::puzzles::Puzzle two{"6k1/8/6K1/8/8/8/8/QQ6 w - - 0 1", "mate", 1, {"a1a8"}, "chess", ""};
  EXPECT_NE(arb::puzzles::verify(*e, two).find("not a unique key"), std::string::npos);
  // One key (Ra8#), but the stored line is wrong, too long or stated at the wrong depth.
  arb::puzzles::Puzzle one{"6k1/8/6K1/8/8/8/8/R7 w - - 0 1", "mate", 1, {"a1a8"}, "chess", ""};
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
      {"ka4,rc4,Pe4,Kf4,Pd3 w -/- -/- q/Q 31", "mate", 2, {"d5e5", "e4f4", "c6d6,N@d5"}, "chessme", "seed=1"},
      {"6k1/8/6K1/8/8/8/8/R7 w - - 0 1", "win", 1, {"a1a8"}, "chess", "fifty-move=100 repetition=3"}};
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

}  // namespace
