// Game-record validation (checker/records/, `arbiter validate`): the broken records of
// corpus/records/broken/ each produce the diagnostic their tags state; the self-play corpus,
// the Chessembly sample game and every real-world oddity validate; the reader's edge cases;
// the command's exit codes, JSON, JUnit, --jobs and --shard (with GNU parallel).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "process.hpp"
#include "run.hpp"

namespace fs = std::filesystem;
using namespace arb::records;

namespace {

fs::path source_dir() {
  return fs::path(ARBITER_SOURCE_DIR);
}
fs::path records_dir() {
  return source_dir() / "corpus" / "records";
}

struct Validated {
  std::vector<GameReport> reports;
  std::vector<ParsedGame> games;
  RunTotals totals;
};

Validated validate_file(const std::string& path, int jobs = 1) {
  EngineCache cache((source_dir() / "rulesets").string());
  Validated v;
  v.totals = run_files(
      {path}, RunOptions{jobs, 0, 1}, cache,
      [&](const std::string&, const GameReport& r) { v.reports.push_back(r); }, nullptr);
  // The games' tags, read again.
  Splitter sp(open_source(path), path);
  std::string text;
  uint64_t line = 0;
  while (sp.next(text, line)) {
    v.games.emplace_back();
    parse_game(text, line, v.games.back());
    text.clear();
  }
  return v;
}

std::vector<GameReport> validate_text(const std::string& pgn) {
  EngineCache cache((source_dir() / "rulesets").string());
  Validator val(cache);
  Splitter sp(memory_source(pgn), "text");
  std::vector<GameReport> out;
  std::string text;
  uint64_t line = 0;
  ParsedGame g;
  uint64_t index = 0;
  while (sp.next(text, line)) {
    parse_game(text, line, g);
    GameReport r;
    r.game = ++index;
    val.validate(g, "", r);
    out.push_back(r);
    text.clear();
  }
  return out;
}

std::string temp_file(const std::string& name, const std::string& content) {
  fs::path p = fs::temp_directory_path() / ("arbiter-records-" + std::to_string(getpid()) + "-" + name);
  std::ofstream(p, std::ios::binary) << content;
  return p.string();
}

}  // namespace

// Every broken record produces the fault kind and ply its [Expect] and [ExpectPly] tags state.
TEST(Records, BrokenRecordsGiveTheirDiagnostic) {
  std::set<std::string> variants_seen;
  std::map<std::string, std::set<std::string>> kinds;
  for (const auto& entry : fs::directory_iterator(records_dir() / "broken")) {
    if (entry.path().extension() != ".pgn") continue;
    Validated v = validate_file(entry.path().string());
    ASSERT_EQ(v.reports.size(), v.games.size()) << entry.path();
    ASSERT_GT(v.reports.size(), 0u);
    for (size_t i = 0; i < v.reports.size(); ++i) {
      const GameReport& r = v.reports[i];
      const ParsedGame& g = v.games[i];
      const std::string* expect = g.tag("Expect");
      const std::string* ply = g.tag("ExpectPly");
      ASSERT_TRUE(expect && ply) << entry.path() << " game " << i + 1 << " lacks [Expect]/[ExpectPly]";
      SCOPED_TRACE(entry.path().string() + " game " + std::to_string(i + 1) + ": " + *g.tag("Event"));
      EXPECT_FALSE(r.valid);
      EXPECT_EQ(r.kind, *expect) << r.reason;
      EXPECT_EQ(std::to_string(r.ply), *ply) << r.reason;
      EXPECT_FALSE(r.reason.empty());
      EXPECT_GT(r.line, 0u);
      EXPECT_GT(r.column, 0u);
      kinds[entry.path().stem().string()].insert(r.kind);
    }
    variants_seen.insert(entry.path().stem().string());
  }
  for (const char* v : {"chess", "chessembly", "chessme", "capablanca", "nostress", "chess2"})
    EXPECT_TRUE(variants_seen.count(v)) << v;
  // Every kind of fault the issue names, in standard chess.
  for (const char* k :
       {"no-piece-reaches", "ambiguous", "king-in-check", "castling", "promotion", "occupied", "no-piece",
        "unreadable", "false-mate", "wrong-result", "unfinished-marked", "result-mismatch", "impossible-draw",
        "game-over", "syntax", "bad-position", "unknown-variant"})
    EXPECT_TRUE(kinds["chess"].count(k)) << k;
  for (const char* k : {"placement-outside-half", "king-first", "kings-adjacent", "not-in-reserve",
                        "king-in-check", "ambiguous", "false-mate"})
    EXPECT_TRUE(kinds["chessembly"].count(k)) << k;
  // The other variants: moves, steps and results (No Stress Chess and Chess 2 run on their
  // reference engines: their rulesets do not compile yet).
  const std::map<std::string, std::vector<const char*>> per_variant = {
      {"chessembly", {"no-piece", "unreadable", "result-mismatch", "wrong-result", "game-over"}},
      {"chessme",
       {"step", "adjacency", "king-in-check", "no-piece", "no-piece-reaches", "false-mate", "wrong-result",
        "unfinished-marked", "bad-position", "unreadable"}},
      {"capablanca",
       {"castling", "king-in-check", "ambiguous", "promotion", "no-piece-reaches", "occupied",
        "unfinished-marked", "false-mate"}},
      {"nostress", {"card", "impossible-draw", "no-piece-reaches", "illegal", "unreadable", "bad-option"}},
      {"chess2",
       {"impossible-draw", "ambiguous", "bad-option", "no-piece-reaches", "step", "wrong-result",
        "unfinished-marked", "false-mate", "no-piece", "illegal"}},
  };
  for (const auto& [variant, want] : per_variant)
    for (const char* k : want) EXPECT_TRUE(kinds[variant].count(k)) << variant << ": " << k;
}

// Where the fault is: file line and column of the offending action, and the nearest legal
// actions.
TEST(Records, LineColumnAndAlternatives) {
  auto r = validate_text("[Event \"x\"]\n\n1. e4 e5\n2. Nf3 Nc6 3. Bb5 a6 4. Nd5 *\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].line, 4u);
  EXPECT_EQ(r[0].column, 25u);
  EXPECT_EQ(r[0].ply, 7);
  EXPECT_EQ(r[0].move, "Nd5");
  EXPECT_EQ(r[0].kind, "no-piece-reaches");
  ASSERT_FALSE(r[0].alternatives.empty());
  EXPECT_EQ(r[0].alternatives[0], "Nd4");  // a knight move, to the nearest square
  // CRLF and a byte-order mark do not shift columns.
  r = validate_text("\xEF\xBB\xBF[Event \"x\"]\r\n\r\n1. e4 e5 2. Nd5 *\r\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].line, 3u);
  EXPECT_EQ(r[0].column, 13u);
}

TEST(Records, SelfPlayCorpusIsValid) {
  for (const char* v : {"chess", "chessembly", "chessme", "capablanca", "nostress", "chess2"}) {
    fs::path p = records_dir() / "selfplay" / (std::string(v) + ".pgn.zst");
    ASSERT_TRUE(fs::exists(p)) << p;
    Validated val = validate_file(p.string(), 2);
    SCOPED_TRACE(v);
    EXPECT_GE(val.totals.games, 200u);
    EXPECT_EQ(val.totals.invalid, 0u);
    for (const auto& r : val.reports)
      if (!r.valid) ADD_FAILURE() << report_text(p.string(), r);
    for (const auto& g : val.games) {
      ASSERT_TRUE(g.tag("Event"));
      EXPECT_EQ(*g.tag("Event"), "Arbiter self-play");
    }
  }
}

TEST(Records, ChessemblySampleGameFromTheRuleText) {
  Validated v = validate_file((records_dir() / "chessembly-sample.pgn").string());
  ASSERT_EQ(v.reports.size(), 1u);
  EXPECT_TRUE(v.reports[0].valid) << report_text("sample", v.reports[0]);
  EXPECT_EQ(v.reports[0].plies, 12);
  EXPECT_EQ(v.reports[0].variant, "chessembly");
}

// Each real-world oddity (one file each) is read and its games are valid.
TEST(Records, RealWorldOdditiesAreAccepted) {
  std::map<std::string, uint64_t> expected_games = {
      {"bom-crlf", 1},     {"comments-nags", 1}, {"escape-lines", 1},   {"variations", 1},
      {"missing-tags", 2}, {"extra-tags", 2},    {"notation-forms", 1}, {"lichess-style", 1}};
  for (const auto& [name, n] : expected_games) {
    fs::path p = records_dir() / "oddities" / (name + ".pgn");
    Validated v = validate_file(p.string());
    SCOPED_TRACE(name);
    EXPECT_EQ(v.totals.games, n);
    for (const auto& r : v.reports) EXPECT_TRUE(r.valid) << report_text(p.string(), r);
  }
}

TEST(Records, VariationsAreValidatedToo) {
  auto r = validate_text("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6 (2... Qa5 3. Qh5)) 2... d6) 2. Nf3 *\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_EQ(r[0].plies, 3);
  r = validate_text("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6 (2... Qa5 3. Qh6)) 2... d6) 2. Nf3 *\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].valid);
  EXPECT_TRUE(r[0].in_variation);
  EXPECT_EQ(r[0].move, "Qh6");
  EXPECT_EQ(r[0].ply, 5);
}

TEST(Records, ReaderEdgeCases) {
  // General-form squares are squares, not variations.
  ParsedGame g;
  parse_game("1. a3,P@(-1,3) (1. b3) *\n", 1, g);
  ASSERT_EQ(g.tokens.size(), 5u);
  EXPECT_EQ(g.tokens[0].text, "a3,P@(-1,3)");
  EXPECT_EQ(g.tokens[1].kind, TokKind::Open);
  EXPECT_EQ(g.tokens[2].text, "b3");
  EXPECT_EQ(g.tokens[3].kind, TokKind::Close);
  EXPECT_EQ(g.tokens[4].kind, TokKind::Result);
  // Marks and glued numbers.
  parse_game("12.e4!? 12...Nf6+ 13. exd6e.p. Qh4#\n", 1, g);
  ASSERT_EQ(g.tokens.size(), 4u);
  EXPECT_EQ(g.tokens[0].text, "e4");
  EXPECT_EQ(g.tokens[0].column, 4u);
  EXPECT_TRUE(g.tokens[1].check_mark);
  EXPECT_EQ(g.tokens[2].text, "exd6");
  EXPECT_TRUE(g.tokens[3].mate_mark);
  // Unusable input.
  EXPECT_THROW(
      {
        Splitter sp(memory_source(std::string("1. e4\0 e5", 9)), "nul");
        std::string t;
        uint64_t l;
        while (sp.next(t, l)) {
        }
      },
      InputError);
  EXPECT_THROW(memory_source(std::string("\x1f\x8b\x08\x00", 4)), InputError);
  EXPECT_THROW(
      {
        Splitter sp(memory_source(std::string("\x28\xb5\x2f\xfd\x00\x01", 6)), "zst");
        std::string t;
        uint64_t l;
        while (sp.next(t, l)) {
        }
      },
      InputError);
  // Games without tags or blank lines between them; a trailing comment is no game.
  auto r = validate_text("1. e4 e5 *\n1. d4 d5 *\n{ a trailing comment }\n");
  EXPECT_EQ(r.size(), 2u);
}

// ---------------------------------------------------------------------------------------
// The command.

using testing_process::run_arbiter;

TEST(RecordsCli, ExitCodesJsonAndSummary) {
  std::string broken = (records_dir() / "broken" / "chess.pgn").string();
  std::string good = (records_dir() / "chessembly-sample.pgn").string();
  auto r = run_arbiter({"validate", good});
  EXPECT_EQ(r.code, 0) << r;
  r = run_arbiter({"validate", broken, "--json"});
  EXPECT_EQ(r.code, 1) << r;
  auto lines = r.lines();
  ASSERT_GE(lines.size(), 2u);
  EXPECT_NE(lines[0].find("\"file\":"), std::string::npos);
  EXPECT_NE(lines[0].find("\"game\":1,\"valid\":false"), std::string::npos);
  for (const char* k : {"\"line\":", "\"column\":", "\"ply\":7", "\"move\":\"Nd5\"", "\"reason\":"})
    EXPECT_NE(lines[0].find(k), std::string::npos) << k;
  EXPECT_NE(lines.back().find("\"games\":"), std::string::npos);
  EXPECT_NE(lines.back().find("\"invalid\":"), std::string::npos);
  r = run_arbiter({"validate", "/nonexistent.pgn"});
  EXPECT_EQ(r.code, 2);
  std::string gz = temp_file("x.pgn", std::string("\x1f\x8b\x08\x00", 4));
  r = run_arbiter({"validate", gz});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("gzip"), std::string::npos);
  r = run_arbiter({"validate", good, "--shard", "3/2"});
  EXPECT_EQ(r.code, 2);
  std::string junit = temp_file("junit.xml", "");
  fs::remove(junit);
  r = run_arbiter({"validate", broken, "--junit", junit});
  EXPECT_EQ(r.code, 1);
  std::ifstream in(junit);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("<testsuite"), std::string::npos);
  EXPECT_NE(ss.str().find("Nd5"), std::string::npos);
}

// Two jobs print exactly what one prints; shards partition the games.
TEST(RecordsCli, JobsAndShards) {
  std::string corpus = (records_dir() / "selfplay" / "chess.pgn.zst").string();
  std::string broken = (records_dir() / "broken" / "chess.pgn").string();
  auto one = run_arbiter({"validate", broken, corpus, "--json", "--quiet"});
  auto two = run_arbiter({"validate", broken, corpus, "--json", "--quiet", "--jobs", "2"});
  auto strip_summary = [](std::vector<std::string> v) {
    v.pop_back();
    return v;
  };
  EXPECT_EQ(strip_summary(one.lines()), strip_summary(two.lines()));
  std::vector<std::string> one_lines = strip_summary(one.lines());
  std::multiset<std::string> all(one_lines.begin(), one_lines.end()), from_shards;
  for (int i = 0; i < 3; ++i) {
    auto s = run_arbiter({"validate", broken, corpus, "--json", "--shard", std::to_string(i) + "/3"});
    auto l = strip_summary(s.lines());
    from_shards.insert(l.begin(), l.end());
  }
  EXPECT_EQ(all, from_shards);
}

// The README's recipe: GNU parallel runs one shard per job and the outputs together hold
// every game exactly once.
TEST(RecordsCli, GnuParallelRecipe) {
  if (std::system("command -v parallel >/dev/null 2>&1") != 0) GTEST_SKIP() << "GNU parallel not installed";
  std::string corpus = (records_dir() / "selfplay" / "chessembly.pgn.zst").string();
  std::string out = temp_file("parallel.jsonl", "");
  std::string cmd = "parallel --will-cite -j2 " +
                    testing_process::shell_quote(testing_process::arbiter_path()) + " validate " +
                    testing_process::shell_quote(corpus) +
                    " --json --quiet --shard {}/4 ::: 0 1 2 3 | "
                    "grep -v '\"summary\"' | sort > " +
                    testing_process::shell_quote(out);
  int rc = std::system(cmd.c_str());
  (void)rc;
  auto one = run_arbiter({"validate", corpus, "--json", "--quiet"});
  auto lines = one.lines();
  lines.pop_back();
  std::sort(lines.begin(), lines.end());
  std::ifstream in(out);
  std::vector<std::string> got;
  for (std::string l; std::getline(in, l);) got.push_back(l);
  EXPECT_EQ(got.size(), 200u);
  EXPECT_EQ(got, lines);
}
