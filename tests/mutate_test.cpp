// arbiter mutate: the single-point mutants of a ruleset (checker/mutate/), the proof of
// equivalence by compiled program, and the mutation score of every bundled executable
// ruleset, where every survivor must be one of the explained ones below.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "helpers.hpp"
#include "mutate/rule_mutants.hpp"
#include "mutate/run_mutants.hpp"
#include "process.hpp"
#include "reference.hpp"

using testing_process::run_arbiter;

namespace fs = std::filesystem;

namespace {

using testing_helpers::fast;

std::string rules_path(const std::string& variant) {
  return testing_helpers::ruleset_path(variant);
}

std::string read(const fs::path& p) {
  return testing_helpers::read_text(p.string());
}

std::vector<arb::mutate::RuleMutant> mutants_of(const std::string& variant) {
  return arb::mutate::generate_mutants(rules_path(variant), read(rules_path(variant)));
}

bool has(const std::vector<arb::mutate::RuleMutant>& ms, int line, const std::string& from,
         const std::string& to) {
  for (const auto& m : ms)
    if (m.line == line && m.from == from && m.to == to) return true;
  return false;
}

std::shared_ptr<const arb::lang::Program> compile(const std::string& path) {
  arb::lang::Diagnostics d;
  auto c = arb::lang::compile_file(path, {}, d);
  EXPECT_FALSE(d.has_errors()) << d.render();
  return c.program;
}

}  // namespace

TEST(RuleMutants, EveryOperatorAtItsPlace) {
  auto chess = mutants_of("chess");
  EXPECT_TRUE(has(chess, 48, "royal-safe", ""));                        // drop
  EXPECT_TRUE(has(chess, 7, "8", "9"));                                 // number
  EXPECT_TRUE(has(chess, 26, "\"fmWfceFifmnD\"", "\"fmWfcFifmnD\""));   // betza: e removed
  EXPECT_TRUE(has(chess, 26, "\"fmWfceFifmnD\"", "\"fmWbceFifmnD\""));  // betza: f flipped
  EXPECT_TRUE(has(chess, 26, "\"fmWfceFifmnD\"", "\"fmWfceFifmnA\""));  // betza: atom swapped
  EXPECT_TRUE(has(chess, 29, " B", ""));                                // letter
  EXPECT_TRUE(has(chess, 52, "loss", "draw"));                          // choice (end rule)
  EXPECT_TRUE(has(chess, 55, "repetition", "fifty-move"));              // choice (claim)
  EXPECT_TRUE(has(chess, 36, "g", "h"));                                // castling file shifted
  auto chessembly = mutants_of("chessembly");
  EXPECT_TRUE(has(chessembly, 30, "1..4", "2..5"));              // region shifted
  EXPECT_TRUE(has(chessembly, 30, "1..4", "1..3"));              // region bound moved
  EXPECT_TRUE(has(chessembly, 9, "P*8", "P*7"));                 // count
  EXPECT_TRUE(has(chessembly, 43, " when reserves-empty", ""));  // condition dropped
  auto chessme = mutants_of("chessme");
  EXPECT_TRUE(has(chessme, 40, "mandatory", "optional"));  // phase choice
  EXPECT_TRUE(has(chessme, 36, "3", "2"));                 // schema Int
  for (const auto& ms : {chess, chessembly, chessme}) {
    std::set<std::string> texts;
    for (const auto& m : ms) {
      EXPECT_TRUE(texts.insert(m.text()).second) << "duplicate mutant " << m.describe();
      EXPECT_NE(m.construct, "expect");  // expectations are checks, not rules
      EXPECT_NE(m.construct, "title");
      EXPECT_GT(m.line, 0);
    }
  }
  // A single point: the text outside the span is the original's.
  std::string text = read(rules_path("chess"));
  for (const auto& m : chess) {
    EXPECT_EQ(m.text().substr(0, m.offset), text.substr(0, m.offset));
    EXPECT_EQ(m.text().substr(m.offset + m.to.size()), text.substr(m.offset + m.length));
  }
  EXPECT_GT(chess.size(), 80u);
}

TEST(RuleMutants, FingerprintProvesEquivalenceOnly) {
  auto a = compile(rules_path("chess")), b = compile(rules_path("chess"));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(arb::mutate::program_fingerprint(*a), arb::mutate::program_fingerprint(*b));
  auto capa = compile(rules_path("capablanca"));
  ASSERT_TRUE(capa);
  EXPECT_NE(arb::mutate::program_fingerprint(*a), arb::mutate::program_fingerprint(*capa));
  auto me = compile(rules_path("chessme"));
  ASSERT_TRUE(me);
  EXPECT_NE(arb::mutate::program_fingerprint(*a), arb::mutate::program_fingerprint(*me));
}

// A parent outside the mutated ruleset's directory (`extends "../b/chess"`): the mutants
// find it as the original does, so none is refused for want of its parent.
TEST(RuleMutants, ParentsOutsideTheDirectoryAreFound) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "mutate_parent_test";
  fs::create_directories(root / "a");
  fs::create_directories(root / "b");
  fs::copy_file(rules_path("chess"), root / "b" / "chess.rules", fs::copy_options::overwrite_existing);
  const std::string child = (root / "a" / "child.rules").string();
  {
    std::ofstream out(child);
    out << "ruleset child extends \"../b/chess\"\npiece knight N { betza \"NW\" }\n";
  }
  arb::mutate::MutateOptions o;
  o.fuzz.games = 20;
  o.fuzz.seed = 11;
  auto rep = arb::mutate::run_mutants(child, o);
  ASSERT_FALSE(rep.results.empty());
  for (const auto& r : rep.results)
    EXPECT_EQ(r.how.find("cannot find the parent"), std::string::npos)
        << r.mutant.describe() << ": " << r.how;
  EXPECT_GT(rep.killed, 0u);
}

// A ruleset the compiler refuses has no mutation score.
TEST(RuleMutants, DraftsAreRefusedWhole) {
  arb::mutate::MutateOptions o;
  o.fuzz.games = 1;
  o.overrides = {{"white-army", "dragons"}};  // no such army: the original does not compile
  EXPECT_THROW(arb::mutate::run_mutants(rules_path("chess2"), o), arb::mutate::OriginalError);
}

// The score of every bundled executable ruleset: every mutant is refused, proved
// equivalent or killed, except the survivors listed here with the reason each is
// equivalent (README, "arbiter mutate").
struct Expected {
  const char* variant;
  uint64_t games;
  bool slow;  // skipped under ARBITER_FAST (AddressSanitizer)
  // line:col and the mutation, for each explained survivor
  std::set<std::string> survivors;
};

void PrintTo(const Expected& e, std::ostream* os) {
  *os << e.variant;
}

class BundledScore : public ::testing::TestWithParam<Expected> {};

TEST_P(BundledScore, EverySurvivorIsExplained) {
  const Expected& e = GetParam();
  if (fast() && e.slow) GTEST_SKIP() << "a full mutate run under the sanitizers: the Release run covers it";
  arb::mutate::MutateOptions o;
  o.fuzz.games = e.games;
  o.fuzz.seed = 11;
  o.jobs = 2;
  auto rep = arb::mutate::run_mutants(rules_path(e.variant), o);
  std::set<std::string> survivors;
  for (const auto& r : rep.results)
    if (r.verdict == "survived")
      survivors.insert(std::to_string(r.mutant.line) + ":" + std::to_string(r.mutant.col) + " " +
                       r.mutant.describe());
  for (const auto& s : survivors)
    EXPECT_TRUE(e.survivors.count(s)) << e.variant << ": unexplained survivor " << s;
  std::cout << e.variant << ": " << rep.results.size() << " mutants, " << rep.killed << " killed, "
            << rep.refused << " refused, " << rep.equivalent << " equivalent, " << rep.survived
            << " survived (" << rep.seconds << " s)\n";
  EXPECT_GT(rep.killed, 35u);
  // Refusals fall as the language grows: `checkmate -> draw` (shatar's) became executable,
  // and chessembly's `loss -> draw` mutant of its checkmate rule is now killed, not refused.
  EXPECT_GT(rep.refused, 10u);
}

INSTANTIATE_TEST_SUITE_P(
    Rulesets, BundledScore,
    ::testing::Values(Expected{"chess", 200, false, {}}, Expected{"capablanca", 200, true, {}},
                      // royals-apart is implied by royal-safe with a king that attacks its 8 neighbours:
                      // an enemy king beside one's own is always attacked by it, so no legal action and
                      // no accepted text tells them apart (conformance_chessembly_test pins it). Dropping
                      // chessembly's legal block restores chess's, `royal-safe` alone: the same mutant.
                      Expected{"chessembly",
                               200,
                               true,
                               {"36:3 drop `royals-apart`",
                                "34:1 drop `legal {   royal-safe   royals-apart  # RULINGS 1.8: kings...`"}},
                      // A hand other than three tiles is refused by the grid back end (it used to
                      // be read nowhere: these mutants survived until the compiler refused them).
                      Expected{"chessme", 100, true, {}}),
    [](const ::testing::TestParamInfo<Expected>& info) { return std::string(info.param.variant); });

TEST(MutateCommand, JsonScoreAndJUnit) {
  fs::path junit = fs::temp_directory_path() / ("arbiter-mutate-test-" + std::to_string(getpid()) + ".xml");
  testing_process::Outcome r = run_arbiter(
      {"mutate", rules_path("chess"), "--games", "200", "--jobs", "2", "--json", "--junit", junit.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("\"score\":1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verdict\":\"equivalent\""), std::string::npos);
  std::string xml = read(junit.string());
  EXPECT_NE(xml.find("<testsuite"), std::string::npos);
  EXPECT_NE(xml.find("arbiter.mutate.killed"), std::string::npos);
  fs::remove(junit);
  // A survivor is exit 1 and printed at its line.
  testing_process::Outcome s = run_arbiter({"mutate", rules_path("chessembly"), "--games", "5"});
  EXPECT_EQ(s.code, 1) << s;
  EXPECT_NE(s.out.find("chessembly.rules:36:3: survived"), std::string::npos) << s.out;
  // Unusable input: exit 2.
  EXPECT_EQ(run_arbiter({"mutate", rules_path("chess2"), "--set", "white-army=dragons"}).code, 2);
  EXPECT_EQ(run_arbiter({"mutate", rules_path("chess"), "--against", "nobody"}).code, 2);
}

// A designer's ruleset that extends a bundled one by name (found along the search path, not
// beside the file): its mutants compile too, and are judged (they were all refused once,
// the name rewritten into a path beside the file).
TEST(MutateCommand, DesignersRulesetExtendingByNameIsJudged) {
  auto r = run_arbiter({"mutate", testing_helpers::source_path("corpus/rulesets/berolina.rules"), "--games",
                        "10", "--min-score", "0", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"verdict\":\"killed\""), std::string::npos) << r.out;
}

// --against properties: no oracle, the properties the original's statements promise on
// each mutant alone; --against grid: a ruleset the grid cannot run refused at its statements; --summary:
// Markdown.
TEST(MutateCommand, AgainstPropertiesAndGrid) {
  testing_helpers::TempDir dir;
  const std::string md = dir.path() + "/summary.md";
  auto r = run_arbiter({"mutate", testing_helpers::source_path("corpus/rulesets/berolina.rules"), "--against",
                        "properties", "--games", "2", "--min-score", "0", "--json", "--summary", md});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"against\":\"properties\""), std::string::npos) << r.out;
  // A mutant is killed only by a property its own engine breaks and the original keeps:
  // with seed 11, Berolina pawns that step backwards print positions (a pawn on its
  // forbidden first rank) the same generator refuses to read back.
  EXPECT_NE(r.out.find("\"verdict\":\"killed\",\"how\":\"property "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verdict\":\"survived\""), std::string::npos) << r.out;
  std::ifstream in(md);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("## arbiter mutate: "), std::string::npos) << ss.str();
  EXPECT_NE(ss.str().find("- survived: `"), std::string::npos) << ss.str();
  // The grid back end runs chess on its bounded board (grid_bounded_test); crazyhouse's
  // hand is refused at its statement.
  auto g = run_arbiter({"mutate", rules_path("fsf/crazyhouse"), "--against", "grid"});
  EXPECT_EQ(g.code, 2);
  EXPECT_NE(g.err.find("crazyhouse.rules:10:1"), std::string::npos) << g.err;
  EXPECT_NE(g.err.find("`captures-to-hand`: not executable by the grid back end"), std::string::npos)
      << g.err;
}

// The fingerprint is the proof of equivalence, so it must see every field the back ends
// read. It once missed the regions, hoppers' paths and `royals-not-facing`, and `mutate`
// called xiangqi's flying-general rule, its elephant's river and its cannon's capture
// equivalent to nothing. Those mutants now differ; and every mutant of every catalogue and
// bundled ruleset that the fingerprint calls equivalent has the original's perft from the
// start and from positions of seeded random play.
TEST(RuleMutants, FingerprintSeesEveryRule) {
  auto ms = arb::mutate::generate_mutants(rules_path("fsf/xiangqi"), read(rules_path("fsf/xiangqi")));
  auto original = compile(rules_path("fsf/xiangqi"));
  ASSERT_TRUE(original);
  const std::string fp = arb::mutate::program_fingerprint(*original);
  testing_helpers::TempDir dir;
  size_t checked = 0;
  for (const auto& m : ms) {
    bool must_differ = (m.op == "drop" && (m.from.rfind("royals-not-facing", 0) == 0 ||
                                           m.from.rfind("confined own-half", 0) == 0)) ||
                       (m.op == "betza" && m.from == "\"mRcpR\"") || (m.op == "betza" && m.from == "\"nA\"");
    if (!must_differ) continue;
    arb::lang::Diagnostics d;
    auto c = arb::mutate::compile_mutant(m, rules_path("fsf/xiangqi"), dir.path(), {}, d);
    if (!c.program) continue;  // refused by the compiler: not a question of equivalence
    EXPECT_NE(arb::mutate::program_fingerprint(*c.program), fp) << m.describe();
    ++checked;
  }
  EXPECT_GE(checked, 6u);
}

TEST(RuleMutants, EquivalentMutantsPlayAsTheOriginal) {
  std::vector<std::string> paths;
  for (const char* dir : {"rulesets", "rulesets/fsf"})
    for (const auto& e : fs::directory_iterator(testing_helpers::source_path(dir)))
      if (e.path().extension() == ".rules") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  if (fast()) paths.resize(std::min<size_t>(paths.size(), 12));
  testing_helpers::TempDir dir;
  size_t equivalents = 0;
  for (const auto& path : paths) {
    arb::lang::Diagnostics d0;
    auto original = arb::lang::compile_file(path, {}, d0).program;
    if (!original || original->grid || original->cards) continue;  // bounded boards: perft below
    const std::string fp = arb::mutate::program_fingerprint(*original);
    std::mt19937_64 rng(24);
    // Positions of the original: the start and three after 6 random plies.
    auto engine = arb::lang::make_compiled_engine(original);
    std::vector<std::string> positions{engine->position()};
    for (int g = 0; g < 3; ++g) {
      engine->set_position(positions[0]);
      std::vector<arb::Action> acts;
      for (int ply = 0; ply < 6; ++ply) {
        engine->legal_actions(acts);
        if (acts.empty()) break;
        engine->apply(acts[rng() % acts.size()]);
      }
      positions.push_back(engine->position());
    }
    for (const auto& m : arb::mutate::generate_mutants(path, read(path))) {
      arb::lang::Diagnostics d;
      auto c = arb::mutate::compile_mutant(m, path, dir.path(), {}, d);
      if (!c.program || arb::mutate::program_fingerprint(*c.program) != fp) continue;
      ++equivalents;
      auto a = arb::lang::make_compiled_engine(original), b = arb::lang::make_compiled_engine(c.program);
      for (const auto& pos : positions) {
        a->set_position(pos);
        b->set_position(pos);
        EXPECT_EQ(a->perft(2), b->perft(2)) << path << ": " << m.describe() << " at " << pos;
      }
    }
  }
  EXPECT_GT(equivalents, 0u);
}

// Issue 29: `mutate --list` grew with the square of the ruleset's size (every mutant held a
// copy of the whole file, and duplicates were found by comparing whole texts), so a 96 KB
// file ended in bad_alloc. A mutant now holds its edit and one shared original.
TEST(RuleMutants, MutantsShareTheOriginalText) {
  testing_helpers::TempDir dir;
  std::string text = read(rules_path("fsf/xiangqi"));
  for (int i = 0; i < 5000; ++i) text += "region r" + std::to_string(i) + " a1-c3\n";
  ASSERT_GT(text.size(), 80'000u);
  const std::string path = dir.write("xiangqi.rules", text);
  auto ms = arb::mutate::generate_mutants(path, text);
  ASSERT_GT(ms.size(), 4000u);
  for (const auto& m : ms) {
    ASSERT_EQ(m.original.get(), ms.front().original.get()) << m.describe();
    ASSERT_EQ(m.original->size(), text.size());
  }
  // The text is built on demand, and it is the original with the one edit.
  const auto& m = ms.back();
  EXPECT_EQ(m.text(), text.substr(0, m.offset) + m.to + text.substr(m.offset + m.length));
}
