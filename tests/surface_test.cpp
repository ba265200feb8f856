// The surface users touch (issue 29): `arbiter --version`, every command's --help against
// its page in docs/commands/ (so the two cannot drift apart), --json printing JSON values and
// nothing else, one per record, in every command that has it, and counts worded as English.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/wording.hpp"
#include "helpers.hpp"
#include "process.hpp"

namespace {

using namespace testing_helpers;
using namespace testing_process;
using nlohmann::json;
namespace fs = std::filesystem;

Outcome run(const std::vector<std::string>& args) {
  return run_arbiter(args, arbiter_source_dir());
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Every `--flag` token of `text`.
std::set<std::string> flags_in(const std::string& text) {
  std::set<std::string> out;
  static const std::regex flag(R"((^|[^A-Za-z0-9-])(--[a-z][a-z0-9-]*))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator(); ++it)
    out.insert((*it)[2].str());
  return out;
}

// The flags a --help lists: boost's option lines, `  --name arg   description`.
std::set<std::string> help_flags(const std::string& help) {
  std::set<std::string> out;
  std::istringstream in(help);
  static const std::regex line(R"(^  (-[a-z], )?(--[a-z][a-z0-9-]*))");
  std::smatch m;
  for (std::string l; std::getline(in, l);)
    if (std::regex_search(l, m, line)) out.insert(m[2].str());
  return out;
}

// The text of a page's `## NAME` section, up to the next `## `.
std::string section(const std::string& page, const std::string& name) {
  size_t at = page.find("\n## " + name + "\n");
  if (at == std::string::npos) return "";
  at += 4 + name.size();
  size_t end = page.find("\n## ", at);
  return page.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The commands `arbiter --help` lists: lines of two spaces and a lower-case word.
std::vector<std::string> listed_commands() {
  Outcome h = run({"--help"});
  EXPECT_EQ(h.code, 0) << h;
  std::vector<std::string> out;
  bool in_list = false;
  static const std::regex cmd(R"(^  ([a-z][a-z0-9]*)\b)");
  std::smatch m;
  for (const auto& l : h.lines()) {
    if (l == "commands:") {
      in_list = true;
      continue;
    }
    if (in_list && l.empty()) break;
    if (in_list && std::regex_search(l, m, cmd)) out.push_back(m[1].str());
  }
  return out;
}

// Standard output as JSON values, one a line: fails the test on any line that is not one.
std::vector<json> json_lines(const Outcome& r) {
  std::vector<json> out;
  for (const auto& l : r.lines()) {
    if (!json::accept(l)) {
      ADD_FAILURE() << "not a JSON value on standard output: `" << l << "`\n" << r;
      continue;
    }
    out.push_back(json::parse(l));
  }
  EXPECT_FALSE(out.empty()) << r;
  return out;
}

TEST(Surface, VersionIsTheProjectVersion) {
  // The version CMake's project() states, read from the top CMakeLists.txt.
  std::string cmake = read_text(source_path("CMakeLists.txt"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(cmake, m, std::regex(R"(project\(arbiter VERSION ([0-9.]+))")))
      << "no version";
  const std::string version = m[1].str();
  for (const char* flag : {"--version", "version"}) {
    Outcome r = run({flag});
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_EQ(r.out.rfind("arbiter " + version, 0), 0u) << r;
    EXPECT_EQ(r.lines().size(), 1u) << r;
    EXPECT_TRUE(r.err.empty()) << r;
  }
  // The top-level help names it.
  EXPECT_TRUE(contains(run({"--help"}).out, "--version"));
}

// Every command --help answers with exit 0 on standard output, and its docs page and its
// help name the same flags.
TEST(Surface, EveryCommandHelpMatchesItsDocsPage) {
  const std::vector<std::string> cmds = listed_commands();
  ASSERT_GE(cmds.size(), 14u) << "arbiter --help lists too few commands";
  std::set<std::string> listed(cmds.begin(), cmds.end());
  for (const auto& cmd : cmds) {
    SCOPED_TRACE(cmd);
    Outcome h = run({cmd, "--help"});
    EXPECT_EQ(h.code, 0) << h;
    EXPECT_TRUE(h.err.empty()) << h;
    EXPECT_TRUE(contains(h.out, "exit status: 0 success")) << h;
    const std::set<std::string> in_help = help_flags(h.out);
    EXPECT_GE(in_help.size(), 2u) << h;
    const std::string page_path = source_path("docs/commands/" + cmd + ".md");
    const std::string page = read_text(page_path);
    ASSERT_FALSE(page.empty()) << page_path << " is missing";
    EXPECT_TRUE(contains(page, "# arbiter " + cmd)) << page_path;
    EXPECT_FALSE(section(page, "Exit status").empty()) << page_path;
    EXPECT_FALSE(section(page, "JSON").empty()) << page_path;
    const std::set<std::string> in_page = flags_in(section(page, "Flags"));
    for (const auto& f : in_page)
      EXPECT_TRUE(f == "--help" || in_help.count(f))
          << page_path << " names " << f << ", which `arbiter " << cmd << " --help` does not list";
    for (const auto& f : in_help)
      EXPECT_TRUE(f == "--help" || in_page.count(f))
          << "`arbiter " << cmd << " --help` lists " << f << ", which " << page_path << " does not name";
  }
  // No page for a command that does not exist.
  for (const auto& e : fs::directory_iterator(source_path("docs/commands"))) {
    std::string name = e.path().stem().string();
    if (name == "README") continue;
    EXPECT_TRUE(listed.count(name)) << e.path() << " documents a command `arbiter --help` does not list";
  }
  // An unknown command: exit 2, the list on standard output.
  Outcome bad = run({"frobnicate", "--help"});
  EXPECT_EQ(bad.code, 2) << bad;
}

// --json: JSON values on standard output and nothing else, one per record.
TEST(SurfaceJson, Check) {
  Outcome r = run({"check", "--json", "rulesets/chess.rules", "rulesets/chessembly.rules"});
  EXPECT_EQ(r.code, 0) << r;
  auto v = json_lines(r);
  ASSERT_EQ(v.size(), 2u) << r;  // one object per file
  EXPECT_EQ(v[0].at("file"), "rulesets/chess.rules");
  EXPECT_TRUE(v[1].at("executable").get<bool>());
}

TEST(SurfaceJson, Test) {
  Outcome r = run({"test", "--json", "corpus/rulesets/knightmate.rules"});
  EXPECT_EQ(r.code, 0) << r;
  auto v = json_lines(r);
  ASSERT_EQ(v.size(), 1u) << r;
  EXPECT_GT(v[0].at("passed").get<int>(), 0);
  EXPECT_EQ(v[0].at("results").size(), v[0].at("passed").get<size_t>());
}

TEST(SurfaceJson, MovesAndPerft) {
  auto m = json_lines(run({"moves", "--variant", "chess", "--json"}));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].at("count"), 20);
  Outcome p = run({"perft", "--variant", "chess", "--depth", "2", "--divide", "--json"});
  auto v = json_lines(p);
  ASSERT_EQ(v.size(), 1u) << p;  // no `nodes N` text line after the object
  EXPECT_EQ(v[0].at("nodes"), 400);
  EXPECT_EQ(v[0].at("divide").size(), 20u);
  Outcome s = run({"perft", "--rules", "rulesets/fsf/3check.rules", "--suite", "corpus/fsf/3check.perft",
                   "--max-nodes", "500", "--json"});
  auto sv = json_lines(s);
  ASSERT_EQ(sv.size(), 1u) << s;
  EXPECT_GT(sv[0].at("checked").get<int>(), 0) << s;
  EXPECT_EQ(sv[0].at("failed"), 0) << s;
}

TEST(SurfaceJson, FuzzAndProperties) {
  Outcome f = run({"fuzz", "--variant", "chess", "--games", "2", "--seed", "1", "--json"});
  EXPECT_EQ(f.code, 0) << f;
  auto v = json_lines(f);
  ASSERT_EQ(v.size(), 1u) << f;
  EXPECT_EQ(v[0].at("games"), 2);
  EXPECT_TRUE(v[0].at("divergence").is_null());
  Outcome p = run({"fuzz", "--variant", "chess", "--properties", "--games", "2", "--seed", "1", "--json"});
  EXPECT_EQ(p.code, 0) << p;
  auto pv = json_lines(p);
  ASSERT_EQ(pv.size(), 1u) << p;
  EXPECT_EQ(pv[0].at("mode"), "properties");
}

TEST(SurfaceJson, Diff) {
  Outcome r = run({"diff", "--rules", "rulesets/chess.rules", "--rules", "rulesets/chess.rules", "--games",
                   "2", "--expect", "same", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  auto v = json_lines(r);
  ASSERT_EQ(v.size(), 1u) << r;
  EXPECT_FALSE(v[0].at("different").get<bool>());
}

TEST(SurfaceJson, MutateList) {
  Outcome r = run({"mutate", "corpus/rulesets/knightmate.rules", "--list", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  auto v = json_lines(r);
  ASSERT_EQ(v.size(), 1u) << r;
  EXPECT_GT(v[0].at("mutants").size(), 0u);
}

TEST(SurfaceJson, Validate) {
  // One object per game, then one summary object.
  Outcome r = run({"validate", "corpus/records/chessembly-sample.pgn", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  auto v = json_lines(r);
  ASSERT_GE(v.size(), 2u) << r;
  EXPECT_EQ(v.back().at("games").get<size_t>(), v.size() - 1) << r;
  // Two shards' outputs merged: one summary object.
  const fs::path dir = fs::temp_directory_path() / ("arbiter-surface-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::vector<std::string> merge = {"validate", "--merge", "--json"};
  for (const char* shard : {"0/2", "1/2"}) {
    Outcome s = run({"validate", "corpus/records/broken/chess.pgn", "--json", "--shard", shard});
    EXPECT_EQ(s.code, 1) << s;  // the broken records are invalid
    json_lines(s);
    const fs::path out = dir / (std::string("shard") + shard[0] + ".json");
    std::ofstream(out) << s.out;
    merge.push_back(out.string());
  }
  Outcome m = run(merge);
  auto mv = json_lines(m);
  ASSERT_EQ(mv.size(), 1u) << m;
  EXPECT_EQ(mv[0].at("merged"), 2) << m;
  fs::remove_all(dir);
}

TEST(SurfaceJson, SolveMateInTwoSaysNoneBelowTwo) {
  // A mate in 2 (README's #2): none in 1 is proved, so none below 2.
  Outcome r = run({"solve", "--position", "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1", "--goal", "mate", "--depth",
                   "2", "--json"});
  EXPECT_EQ(r.code, 0) << r;
  auto v = json_lines(r);
  ASSERT_EQ(v.size(), 1u) << r;
  EXPECT_EQ(v[0].at("result"), "win");
  EXPECT_EQ(v[0].at("moves"), 2);
  EXPECT_EQ(v[0].at("proved_none_within"), 1);
  EXPECT_EQ(v[0].at("proved_none_below"), 2);
  // The stipulation's form: none shorter than 2, proved.
  Outcome s =
      run({"solve", "--position", "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1", "--stipulation", "#2", "--json"});
  EXPECT_EQ(s.code, 0) << s;
  auto sv = json_lines(s);
  ASSERT_EQ(sv.size(), 1u) << s;
  EXPECT_EQ(sv[0].at("proved_none_below"), 2) << s;
  // A batch: one object per problem, then the summary.
  const fs::path epd = fs::temp_directory_path() / ("arbiter-surface-" + std::to_string(getpid()) + ".epd");
  std::ofstream(epd) << "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1;#2\n"
                        "8/8/8/8/p7/1pP3B1/p1k1PN2/Kb1NQ3 w - - 0 1;s#2\n";
  Outcome b = run({"solve", "--epd", epd.string(), "--json"});
  fs::remove(epd);
  EXPECT_EQ(b.code, 0) << b;
  auto bv = json_lines(b);
  ASSERT_EQ(bv.size(), 3u) << b;
  EXPECT_EQ(bv[0].at("line"), 1);
  EXPECT_EQ(bv[1].at("stipulation"), "s#2");
  EXPECT_EQ(bv[2].at("problems"), 2);
}

TEST(SurfaceJson, SynthDiagramProofgamePuzzles) {
  Outcome sy = run({"synth", "--goal", "checkmated", "--material", "KQ v K", "--side", "b", "--window", "4x4",
                    "--count", "1", "--json", "--timeout", "60"});
  EXPECT_EQ(sy.code, 0) << sy;
  auto sv = json_lines(sy);
  ASSERT_EQ(sv.size(), 2u) << sy;  // the position, then the summary
  EXPECT_TRUE(sv[0].at("verified").get<bool>());
  Outcome d = run({"diagram", "--variant", "chess", "--json"});
  EXPECT_EQ(d.code, 0) << d;
  auto dv = json_lines(d);
  ASSERT_EQ(dv.size(), 1u) << d;
  EXPECT_TRUE(contains(dv[0].at("svg").get<std::string>(), "<svg"));
  Outcome pg =
      run({"proofgame", "--goal", "mate", "--beam", "0", "--max-plies", "4", "--json", "--timeout", "60"});
  EXPECT_EQ(pg.code, 0) << pg;
  auto pv = json_lines(pg);
  ASSERT_EQ(pv.size(), 1u) << pg;
  EXPECT_EQ(pv[0].at("plies"), 4);
  Outcome pz = run({"puzzles", "--variant", "chess", "--goal", "mate", "--depth", "1", "--count", "1",
                    "--seed", "1", "--json", "--timeout", "60"});
  EXPECT_EQ(pz.code, 0) << pz;
  auto zv = json_lines(pz);
  ASSERT_EQ(zv.size(), 2u) << pz;  // the puzzle, then the summary
  EXPECT_EQ(zv.back().at("found"), 1);
}

// The one helper every count-with-noun message uses.
TEST(SurfaceWording, PluralHelper) {
  EXPECT_EQ(arb::plural(1, "move"), "1 move");
  EXPECT_EQ(arb::plural(2, "move"), "2 moves");
  EXPECT_EQ(arb::plural(0, "move"), "0 moves");
  EXPECT_EQ(arb::plural(-1, "move"), "-1 move");
  EXPECT_EQ(arb::plural(size_t{1}, "ply", "plies"), "1 ply");
  EXPECT_EQ(arb::plural(uint64_t{3}, "ply", "plies"), "3 plies");
  EXPECT_EQ(arb::plural(11, "unusable file"), "11 unusable files");
}

// Counts read as English: "1 move", "2 moves", and no "within 0 moves".
TEST(SurfaceWording, Plurals) {
  Outcome one = run({"solve", "--variant", "chess", "--goal", "mate", "--depth", "1"});
  EXPECT_EQ(one.code, 0) << one;
  EXPECT_TRUE(contains(one.out, "within 1 move (proved)")) << one;
  Outcome two = run({"solve", "--variant", "chess", "--goal", "mate", "--depth", "2"});
  EXPECT_TRUE(contains(two.out, "within 2 moves (proved)")) << two;
  // A budget spent first: what is proved, in English (the budget is checked every 1,024
  // actions, so depth 1 is always settled here).
  Outcome none = run({"solve", "--variant", "chess", "--goal", "mate", "--depth", "3", "--max-nodes", "10"});
  EXPECT_EQ(none.code, 3) << none;
  EXPECT_TRUE(contains(none.out, "no forced mate within 2 moves (proved)")) << none;
  EXPECT_FALSE(contains(none.out, "within 0 moves")) << none;
  Outcome v = run({"validate", "corpus/records/chessembly-sample.pgn"});
  EXPECT_TRUE(contains(v.out, "1 game: ")) << v;
  // A ruleset with one error: "1 error", not "1 error(s)".
  const fs::path bad = fs::temp_directory_path() / ("arbiter-surface-" + std::to_string(getpid()) + ".rules");
  {
    std::ofstream out(bad);
    out << "ruleset oneerror extends chess\npeice king K { betza \"K\"; royal }\n";
  }
  Outcome c = run({"check", bad.string()});
  fs::remove(bad);
  EXPECT_EQ(c.code, 2) << c;
  EXPECT_TRUE(contains(c.out, ": 1 error\n")) << c;
  for (const std::string& text : {one.out, two.out, none.out, v.out, c.out}) {
    EXPECT_FALSE(std::regex_search(text, std::regex(R"((^|[^0-9])1 (moves|games|positions|errors|plies)\b)")))
        << text;
    EXPECT_FALSE(contains(text, "(s)")) << text;
  }
}

}  // namespace
