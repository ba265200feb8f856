// Game-record validation (checker/records/, `arbiter validate`): the broken records of
// corpus/records/broken/ each produce the diagnostic their tags state; the self-play corpus,
// the Chessembly sample game and every real-world oddity validate; the reader's edge cases;
// the command's exit codes, JSON, JUnit, --jobs and --shard (with GNU parallel).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "arbiter/lang/compile.hpp"
#include "process.hpp"
#include "run.hpp"
#include "source_dir.hpp"

namespace fs = std::filesystem;
using namespace arb::records;

namespace {

fs::path source_dir() {
  return fs::path(arbiter_source_dir());
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

// The finding codes that are warnings (the record stays valid) among the [Expect] tags.
const std::set<std::string> kWarningCodes = {"unfinished-marked",  "fen-fullmove-zero", "false-check",
                                             "missing-check-mark", "missing-mate-mark", "wrong-mark"};

// Every broken record produces the finding and ply its [Expect] and [ExpectPly] tags state.
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
      // An error makes the game invalid and is its first error; a warning code (a `*` after a
      // decided end) leaves it valid and is among its findings.
      const bool warning = kWarningCodes.count(*expect) > 0;
      EXPECT_EQ(r.valid, warning) << report_text("", r);
      const Finding* f = nullptr;
      for (const auto& x : r.findings)
        if (!f && (warning ? x.code == *expect : x.severity == Severity::Error)) f = &x;
      ASSERT_TRUE(f) << report_text("", r);
      EXPECT_EQ(f->code, *expect) << f->reason;
      EXPECT_EQ(f->severity, warning ? Severity::Warning : Severity::Error);
      if (!warning) {
        EXPECT_EQ(r.kind, f->code);
      }
      EXPECT_EQ(std::to_string(f->ply), *ply) << f->reason;
      EXPECT_FALSE(f->reason.empty());
      EXPECT_GT(f->line, 0u);
      EXPECT_GT(f->column, 0u);
      kinds[entry.path().stem().string()].insert(f->code);
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
  // The other variants: moves, steps and results, each explained through the engine's
  // pseudo-legal actions (No Stress Chess's advanced game: a pinned piece's move).
  const std::map<std::string, std::vector<const char*>> per_variant = {
      {"chessembly", {"no-piece", "unreadable", "result-mismatch", "wrong-result", "game-over"}},
      {"chessme",
       {"step", "adjacency", "king-in-check", "no-piece", "no-piece-reaches", "false-mate", "wrong-result",
        "unfinished-marked", "bad-position", "unreadable"}},
      {"capablanca",
       {"castling", "king-in-check", "ambiguous", "promotion", "no-piece-reaches", "occupied",
        "unfinished-marked", "false-mate"}},
      {"nostress",
       {"card", "impossible-draw", "no-piece-reaches", "illegal", "unreadable", "bad-option",
        "king-in-check"}},
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
  // A truncated gzip stream.
  EXPECT_THROW(
      {
        Splitter sp(memory_source(std::string("\x1f\x8b\x08\x00", 4)), "gz");
        std::string t;
        uint64_t l;
        while (sp.next(t, l)) {
        }
      },
      InputError);
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

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The lines between `# begin shard command` and `# end shard command`, each without its
// leading blanks (a YAML block scalar indents them).
std::string shard_command(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  bool on = false;
  while (std::getline(in, line)) {
    std::string t = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    if (t == "# end shard command") break;
    if (on) out += t + "\n";
    if (t == "# begin shard command") on = true;
  }
  return out;
}

// The shell script of the Indexed Job: the block scalar after `- |` under `args:`, dedented.
std::string indexed_job_script(const std::string& yaml) {
  std::istringstream in(yaml);
  std::string out, line;
  size_t indent = std::string::npos;
  bool after_args = false, on = false;
  while (std::getline(in, line)) {
    size_t lead = line.find_first_not_of(' ');
    if (on) {
      if (lead == std::string::npos) {
        out += "\n";
        continue;
      }
      if (indent == std::string::npos) indent = lead;
      if (lead < indent) break;
      out += line.substr(indent) + "\n";
      continue;
    }
    if (lead != std::string::npos && line.compare(lead, 5, "args:") == 0) after_args = true;
    if (after_args && lead != std::string::npos && line.compare(lead, 3, "- |") == 0) on = true;
  }
  return out;
}

std::string json_field(const std::string& line, const std::string& key) {
  size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return "";
  at += key.size() + 3;
  size_t end = line[at] == '{' ? line.find('}', at) + 1 : line.find_first_of(",}", at);
  return line.substr(at, end - at);
}

}  // namespace

// Archive scale: the Slurm job array and the Kubernetes Indexed Job in deploy/ run the same
// shard command; run with GNU parallel standing in for the scheduler's index variable, their
// shards merge (`validate --merge`) into the summary one run over the whole file gives.
TEST(RecordsCli, SchedulerFilesShardAndMerge) {
  if (std::system("command -v parallel >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "GNU parallel not installed (cli/install-deps.sh installs it)";
  const std::string slurm = read_text(source_dir() / "deploy" / "validate-shards.slurm");
  const std::string yaml = read_text(source_dir() / "deploy" / "validate-shards-job.yaml");
  ASSERT_FALSE(shard_command(slurm).empty());
  EXPECT_EQ(shard_command(slurm), shard_command(yaml)) << "the two files must run the same command";
  const std::string script = indexed_job_script(yaml);
  ASSERT_NE(script.find("JOB_COMPLETION_INDEX"), std::string::npos) << script;
  const std::string input = (records_dir() / "broken" / "chess.pgn").string();  // invalid games: exit 1
  auto whole = run_arbiter({"validate", input, "--json", "--quiet"});
  ASSERT_EQ(whole.code, 1);
  const std::string total = whole.last_line();
  using testing_process::shell_quote;
  const std::string env =
      "ARBITER=" + shell_quote(testing_process::arbiter_path()) + " INPUT=" + shell_quote(input) + " JOBS=1 ";
  struct Run {
    const char* name;
    std::string command;  // {} is the index
  };
  fs::path base = fs::temp_directory_path() / ("arbiter-records-sched-" + std::to_string(getpid()));
  fs::create_directories(base / "k8s");
  fs::create_directories(base / "slurm");
  std::ofstream(base / "job.sh") << script;
  const Run runs[] = {
      {"k8s", "JOB_COMPLETION_INDEX={} SHARDS=3 RESULTS=" + shell_quote((base / "k8s").string()) + " sh " +
                  shell_quote((base / "job.sh").string())},
      {"slurm",
       "SLURM_ARRAY_TASK_ID={} SLURM_ARRAY_TASK_COUNT=3 RESULTS=" + shell_quote((base / "slurm").string()) +
           " bash " + shell_quote((source_dir() / "deploy" / "validate-shards.slurm").string())}};
  for (const Run& run : runs) {
    SCOPED_TRACE(run.name);
    std::string cmd = "parallel --will-cite -j2 " + shell_quote(env + run.command) + " ::: 0 1 2";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;  // exit 1 of a shard (invalid games) is no failed task
    std::vector<std::string> shards;
    for (int i = 0; i < 3; ++i)
      shards.push_back((base / run.name / ("shard-" + std::to_string(i) + ".json")).string());
    std::vector<std::string> args = {"validate", "--merge", "--json"};
    args.insert(args.end(), shards.begin(), shards.end());
    auto merged = run_arbiter(args);
    EXPECT_EQ(merged.code, 1) << merged;  // the invalid games, as the whole run
    for (const char* key : {"games", "valid", "invalid", "valid_with_warnings", "counts", "unusable_files"})
      EXPECT_EQ(json_field(merged.last_line(), key), json_field(total, key)) << key << "\n"
                                                                             << merged.last_line();
    EXPECT_EQ(json_field(merged.last_line(), "merged"), "3");
    // A missing shard makes the merge unusable (exit 2), named.
    args.pop_back();
    auto partial = run_arbiter(args);
    EXPECT_EQ(partial.code, 2);
    EXPECT_NE(partial.err.find("shard 2/3 is missing"), std::string::npos) << partial;
    // So does a shard cut short (its summary line lost).
    std::string text = read_text(shards[2]);
    text.resize(text.rfind("{\"summary\""));
    std::string cut = (base / run.name / "cut.json").string();
    std::ofstream(cut) << text;
    args.push_back(cut);
    auto cut_short = run_arbiter(args);
    EXPECT_EQ(cut_short.code, 2);
    EXPECT_NE(cut_short.err.find("no summary line"), std::string::npos) << cut_short;
  }
  fs::remove_all(base);
}

// validate --merge reads its shards with nlohmann-json: a line that is not an object, nests
// 100,000 deep or counts games with a negative number is named, not merged (exit 2), and
// the process neither crashes nor overflows its stack.
TEST(RecordsCli, MergeRefusesLinesThatAreNotShardSummaries) {
  fs::path base = fs::temp_directory_path() / ("arbiter-records-merge-" + std::to_string(getpid()));
  fs::create_directories(base);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"deep.json", std::string(100000, '[') + "\n"},
      {"string.json", "\"summary\"\n"},
      {"negative.json", "{\"summary\":true,\"games\":-1,\"invalid\":0}\n"},
  };
  for (const auto& [name, text] : cases) {
    const std::string path = (base / name).string();
    std::ofstream(path) << text;
    auto r = run_arbiter({"validate", "--merge", "--json", path});
    EXPECT_EQ(r.code, 2) << name << "\n" << r.err;
    EXPECT_NE(r.err.find(name + ":1:"), std::string::npos) << r.err;
  }
  fs::remove_all(base);
}

namespace {

// A designer's variant in a folder of its own (its parent chess.rules beside it): Knightmate,
// whose royal K moves as a knight and whose non-royal mann M moves as a king.
std::string knightmate_dir() {
  fs::path dir = fs::temp_directory_path() / ("arbiter-records-km-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(source_dir() / "rulesets" / "chess.rules", dir / "chess.rules",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "knightmate.rules", std::ios::binary) << R"(ruleset knightmate extends chess
title "Knightmate"
piece king K {
  betza "N"
  royal
}
piece mann M { betza "K" }
setup "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1"
records {
  name "Knightmate"
  agreement-draws no
}
)";
  return dir.string();
}

std::vector<GameReport> validate_in(const std::string& dir, const std::string& pgn) {
  EngineCache cache((source_dir() / "rulesets").string());
  Validator val(cache);
  ParsedGame g;
  parse_game(pgn, 1, g);
  GameReport r;
  r.game = 1;
  val.validate(g, dir, r);
  return {r};
}

}  // namespace

// The explanations come from the engine's actions, so they are right for a designer's
// pieces: the validator has no movement tables of its own.
TEST(Records, DesignerVariantFaultsAreExplainedByItsEngine) {
  const std::string dir = knightmate_dir();
  const std::string head = "[Rules \"knightmate.rules\"]\n";
  // A legal game: the royal knight, the mann, castling.
  auto ok = validate_in(dir, head + "\n1. c3 c6 2. Mc2 Mc7 3. Kd3 Kd6 *\n");
  EXPECT_TRUE(ok[0].valid) << report_text("knightmate", ok[0]);
  EXPECT_EQ(ok[0].variant, "knightmate");
  EXPECT_EQ(ok[0].plies, 6);
  auto castle =
      validate_in(dir, head + "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/r7/8/R3K2R w KQ - 0 1\"]\n\n1. O-O *\n");
  EXPECT_TRUE(castle[0].valid) << report_text("knightmate", castle[0]);
  // The royal knight onto a square the rook on a3 attacks.
  auto r =
      validate_in(dir, head + "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/r7/8/R3K2R w KQ - 0 1\"]\n\n1. Kd3 *\n");
  EXPECT_FALSE(r[0].valid);
  EXPECT_EQ(r[0].kind, "king-in-check") << r[0].reason;
  EXPECT_NE(r[0].reason.find("leaves the royal piece attacked"), std::string::npos) << r[0].reason;
  EXPECT_NE(r[0].reason.find("king would stand attacked on d3"), std::string::npos) << r[0].reason;
  // A king step of the royal piece: it moves as a knight, nothing reaches.
  r = validate_in(dir, head + "\n1. e4 e5 2. Ke2 *\n");
  EXPECT_FALSE(r[0].valid);
  EXPECT_EQ(r[0].ply, 3);
  EXPECT_EQ(r[0].kind, "no-piece-reaches") << r[0].reason;
  EXPECT_EQ(r[0].reason, "no king (e1) can reach e2");
  // The mann moves as a king: b3 is two squares from b1 and g1 is far.
  r = validate_in(dir, head + "\n1. Mb3 *\n");
  EXPECT_FALSE(r[0].valid);
  EXPECT_EQ(r[0].kind, "no-piece-reaches") << r[0].reason;
  EXPECT_EQ(r[0].reason, "no mann can reach b3");
  // A chess knight move in a game without knights.
  r = validate_in(dir, head + "\n1. Nf3 *\n");
  EXPECT_EQ(r[0].kind, "no-piece") << r[0].reason;
  // A pinned mann: the explanation names it.
  r = validate_in(dir, head + "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/r2MK3 w - - 0 1\"]\n\n1. Mc2 *\n");
  EXPECT_EQ(r[0].kind, "king-in-check") << r[0].reason;
  EXPECT_NE(r[0].reason.find("the mann on d1 is pinned"), std::string::npos) << r[0].reason;
  // `agreement-draws no` in its records block: an agreed draw is refused.
  r = validate_in(dir, head + "\n1. e4 e5 1/2-1/2\n");
  EXPECT_EQ(r[0].kind, "impossible-draw") << r[0].reason;
  fs::remove_all(dir);
}

// [Variant] names come from the rulesets' `records { name ... }`, option tags from their
// `tag` statements.
TEST(Records, VariantNamesAndTagsComeFromTheRulesets) {
  for (const char* name : {"Chess 2", "chess 2: the sequel", "  CHESS 2 "}) {
    auto r = validate_text(std::string("[Variant \"") + name + "\"]\n[WhiteArmy \"Reaper\"]\n\n1. e4 e5 *\n");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_TRUE(r[0].valid) << name << ": " << report_text("", r[0]);
    EXPECT_EQ(r[0].variant, "chess2") << name;
  }
  // The army tag reaches the option: a bad army is a bad option at the tag.
  auto bad = validate_text("[Variant \"Chess 2\"]\n[WhiteArmy \"banana\"]\n\n1. e4 *\n");
  EXPECT_EQ(bad[0].kind, "bad-option") << bad[0].reason;
  EXPECT_EQ(bad[0].line, 2u);
  // The reaper army has no queen: Qh5 is no move of it, but of the classic army.
  auto reaper = validate_text("[Variant \"Chess 2\"]\n[WhiteArmy \"reaper\"]\n\n1. e4 e5 2. Qh5 *\n");
  EXPECT_FALSE(reaper[0].valid);
  auto classic = validate_text("[Variant \"Chess 2\"]\n\n1. e4 e5 2. Qh5 *\n");
  EXPECT_TRUE(classic[0].valid) << report_text("", classic[0]);
  for (const char* name : {"Chess 960", "chess-960", "Regular", "Standard", "From Position", ""}) {
    auto r = validate_text(std::string("[Variant \"") + name + "\"]\n\n1. e4 e5 *\n");
    EXPECT_TRUE(r[0].valid) << name << ": " << report_text("", r[0]);
    EXPECT_EQ(r[0].variant, "chess") << name;
  }
  auto ns = validate_text("[Variant \"No Stress Chess\"]\n[Level \"4\"]\n[Seed \"3\"]\n\n*\n");
  EXPECT_TRUE(ns[0].valid) << report_text("", ns[0]);
  EXPECT_EQ(ns[0].variant, "nostress");
  auto unknown = validate_text("[Variant \"Chess 3\"]\n\n1. e4 *\n");
  EXPECT_EQ(unknown[0].kind, "unknown-variant");
  // Variant names as lichess, chess.com, pychess and Fairy-Stockfish write them reach the
  // Fairy-Stockfish catalogue's rulesets (rulesets/fsf/), by name or by the squeezed name.
  const std::pair<const char*, const char*> servers[] = {{"King of the Hill", "kingofthehill"},
                                                         {"kingofthehill", "kingofthehill"},
                                                         {"Three-check", "3check"},
                                                         {"3 Check", "3check"},
                                                         {"Crazyhouse", "crazyhouse"},
                                                         {"Atomic", "atomic"},
                                                         {"Antichess", "antichess"},
                                                         {"Racing Kings", "racingkings"},
                                                         {"Horde", "horde"}};
  for (const auto& [tag, ruleset] : servers) {
    auto r = validate_text(std::string("[Variant \"") + tag + "\"]\n\n*\n");
    EXPECT_TRUE(r[0].valid) << tag << ": " << report_text("", r[0]);
    EXPECT_EQ(r[0].variant, ruleset) << tag;
  }
  // And their games are played by those rules: Horde's e4 holds a white pawn at the start.
  auto koth = validate_text("[Variant \"King of the Hill\"]\n\n1. e3 e6 2. Ke2 Ke7 3. Kd3 Kd6 4. Kd4 *\n");
  ASSERT_EQ(koth[0].findings.size(), 1u) << report_text("", koth[0]);
  EXPECT_EQ(koth[0].findings[0].code, "unfinished-marked") << "the king reached the centre: the game is won";
  auto horde = validate_text("[Variant \"Horde\"]\n\n1. e4 *\n");
  EXPECT_EQ(horde[0].kind, "occupied") << report_text("", horde[0]);
}

// Engine::pseudo_legal_actions of the compiled generators (bitboard and grid): every legal
// action, plus those that only royal safety forbids.
TEST(Records, PseudoLegalActionsAddOnlyWhatRoyalSafetyForbids) {
  struct Case {
    const char* variant;
    const char* position;
    size_t legal, pseudo;
  };
  // A knight pinned against its king (6 knight moves added); a king in check by a rook on
  // its file (the king's steps along it and the other pieces' moves that do not parry).
  for (const Case& c : {Case{"chess", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", 4, 10},
                        Case{"chess", "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", 3, 5 + 10},
                        Case{"chessme", "ke8,rc8,Kc1,Ra1 w -/- -/- -/- 1", 0, 0}}) {
    arb::lang::Diagnostics d;
    auto compiled = arb::lang::compile_file(
        (source_dir() / "rulesets" / (std::string(c.variant) + ".rules")).string(), {}, d);
    ASSERT_TRUE(compiled.program) << d.render();
    auto e = arb::lang::make_compiled_engine(compiled.program);
    e->set_position(c.position);
    std::vector<arb::Action> legal, pseudo;
    e->legal_actions(legal);
    e->pseudo_legal_actions(pseudo);
    for (const auto& a : legal)
      EXPECT_NE(std::find(pseudo.begin(), pseudo.end(), a), pseudo.end()) << c.position;
    if (c.pseudo) {
      EXPECT_EQ(legal.size(), c.legal) << c.position;
      EXPECT_EQ(pseudo.size(), c.pseudo) << c.position;
    } else {
      EXPECT_GT(pseudo.size(), legal.size()) << c.position;
    }
    // The position is untouched and legal_actions() unchanged after the call.
    std::vector<arb::Action> again;
    e->legal_actions(again);
    EXPECT_EQ(again.size(), legal.size());
  }
}

namespace {

// The codes of a report's findings of one severity, in text order.
std::vector<std::string> codes(const GameReport& r, Severity s) {
  std::vector<std::string> out;
  for (const auto& f : r.findings)
    if (f.severity == s) out.push_back(f.code);
  return out;
}
bool has(const GameReport& r, const std::string& code, Severity s = Severity::Warning) {
  for (const auto& f : r.findings)
    if (f.code == code && f.severity == s) return true;
  return false;
}

std::vector<GameReport> validate_strict(const std::string& pgn) {
  EngineCache cache((source_dir() / "rulesets").string());
  Validator val(cache, true);
  Splitter sp(memory_source(pgn), "text");
  std::vector<GameReport> out;
  std::string text;
  uint64_t line = 0;
  ParsedGame g;
  while (sp.next(text, line)) {
    parse_game(text, line, g);
    g.bom = sp.game_bom();
    g.crlf = sp.game_crlf();
    g.cut_line = static_cast<uint32_t>(sp.game_cut());
    GameReport r;
    val.validate(g, "", r);
    out.push_back(r);
    text.clear();
  }
  return out;
}

}  // namespace

// Errors make a record invalid, warnings are reported and leave it valid; --strict makes
// every warning an error. Each finding has a code, a location and the move.
TEST(Records, ErrorsAndWarnings) {
  // Fullmove 0 (mate-in-N collections): valid, with a warning at the FEN's last field.
  const std::string mate_in_1 = "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 0\"]\n[SetUp \"1\"]\n\n1. Ra8# 1-0\n";
  auto r = validate_text(mate_in_1);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  ASSERT_TRUE(has(r[0], "fen-fullmove-zero"));
  EXPECT_EQ(r[0].findings[0].line, 1u);
  EXPECT_EQ(r[0].findings[0].column, 7u + 32u);  // the last field of the value
  EXPECT_EQ(r[0].warnings, 1u);
  auto s = validate_strict(mate_in_1);
  EXPECT_FALSE(s[0].valid);
  EXPECT_EQ(s[0].kind, "fen-fullmove-zero");
  // `*` after a decided end: a warning; a contradicting result: an error.
  r = validate_text("1. f3 e5 2. g4 Qh4# *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_TRUE(has(r[0], "unfinished-marked"));
  r = validate_text("1. f3 e5 2. g4 Qh4# 1-0\n");
  EXPECT_FALSE(r[0].valid);
  EXPECT_EQ(r[0].kind, "wrong-result");
  // Check marks: missing `+`, a false `+`, mate written `+` or bare; each at its move.
  r = validate_text("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6+ 4. Qxf7 *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_EQ(codes(r[0], Severity::Warning),
            (std::vector<std::string>{"false-check", "missing-mate-mark", "unfinished-marked"}));
  EXPECT_EQ(r[0].findings[0].move, "Nf6");
  EXPECT_EQ(r[0].findings[0].ply, 6);
  EXPECT_EQ(r[0].findings[1].move, "Qxf7");
  EXPECT_EQ(r[0].findings[1].column, 36u);
  r = validate_text("1. e4 f5 2. Qh5 *\n");
  EXPECT_EQ(codes(r[0], Severity::Warning), (std::vector<std::string>{"missing-check-mark"}));
  // Lower-case piece letters where only the capital reads as a legal action.
  r = validate_text("1. e4 e5 2. nf3 nc6 3. bb5 *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_EQ(codes(r[0], Severity::Warning),
            (std::vector<std::string>{"lowercase-piece", "lowercase-piece", "lowercase-piece"}));
  // Non-standard tags, a byte-order mark and CRLF line ends.
  r = validate_strict("\xEF\xBB\xBF[Event \"x\"]\r\n[Mood \"good\"]\r\n\r\n1. e4 *\r\n");
  EXPECT_EQ(codes(r[0], Severity::Error), (std::vector<std::string>{"bom", "crlf", "nonstandard-tag"}));
  // Several errors in one game: a fault in a variation does not stop the main line.
  r = validate_text("1. e4 e5 (1... Nf6 2. e5 (2. Ke3) 2... Nd5) 2. Nf3 Nc6 3. O-O *\n");
  EXPECT_FALSE(r[0].valid);
  EXPECT_EQ(codes(r[0], Severity::Error), (std::vector<std::string>{"no-piece-reaches", "castling"}));
  EXPECT_TRUE(r[0].findings[0].in_variation);
  EXPECT_EQ(r[0].findings[0].move, "Ke3");
  EXPECT_EQ(r[0].kind, "no-piece-reaches");  // the first error is the game's fault
  EXPECT_EQ(r[0].errors, 2u);
}

// Real-world syntax: null moves, evaluation symbols, commands in comments, escapes in tag
// values, FEN/SetUp in any case, the variant names of the servers.
TEST(Records, RealWorldSyntax) {
  // Null moves in variations (no finding), in the main line (a warning); `--` and `Z0`.
  auto r = validate_text("1. e4 e5 (1... -- 2. d4 Z0 3. c4) 2. Nf3 *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_TRUE(r[0].findings.empty()) << report_text("", r[0]);
  r = validate_text("1. e4 -- 2. d4 d5 *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_EQ(codes(r[0], Severity::Warning), (std::vector<std::string>{"null-move"}));
  EXPECT_EQ(r[0].plies, 4);
  // After a null move the other side moves: 2. d4 is White's, so `d5` after `--` is Black's.
  r = validate_text("1. e4 -- 2. e5 *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  r = validate_text("1. e4 -- 2. e5 e5 *\n");  // the pawn already stands on e5
  EXPECT_FALSE(r[0].valid);
  // A null move in check is no move.
  r = validate_text("1. e4 f5 2. Qh5+ g6 (2... --) *\n");
  EXPECT_EQ(codes(r[0], Severity::Error), (std::vector<std::string>{"null-move"}));
  EXPECT_TRUE(r[0].findings[0].in_variation);
  // Null moves, variations taken back across them: a later variation on the main line.
  r = validate_text("1. e4 e5 (1... -- 2. d4 (2. c4 --) 2... --) (1... c5) 2. Nf3 *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  // Evaluation and annotation symbols, NAGs, %clk/%eval/arrows in comments, escaped braces.
  r = validate_text(
      "1. e4 += e5 =/+ 2. Nf3 +- {[%clk 0:03:00] [%eval 0.3] [%cal Ge2e4,Rd7d5]} Nc6 -+ 3. Bb5 inf a6 "
      "\xE2\x88\x9E 4. Ba4 N {a \\} brace} Nf6 RR 5. O-O ! Be7 !? (5... b5 ~) *\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_TRUE(r[0].findings.empty()) << report_text("", r[0]);
  // Escapes in tag values; an unescaped quote read to the last quote (a warning).
  r = validate_text("[Event \"The \\\"Big\\\" one \\\\ 1\"]\n[Site \"A \"quoted\" place\"]\n\n1. e4 *\n");
  ASSERT_GE(r[0].tags.size(), 2u);
  EXPECT_EQ(r[0].tags[0].second, "The \"Big\" one \\ 1");
  EXPECT_EQ(r[0].tags[1].second, "A \"quoted\" place");
  EXPECT_EQ(codes(r[0], Severity::Warning), (std::vector<std::string>{"unescaped-quote"}));
  EXPECT_EQ(r[0].findings[0].line, 2u);
  // FEN and SetUp in any spelling.
  for (const char* tags : {"[SetUp \"1\"]\n[FEN \"%\"]", "[Setup \"1\"]\n[Fen \"%\"]", "[FEN \"%\"]"}) {
    std::string t = tags;
    t.replace(t.find('%'), 1, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    r = validate_text(t + "\n\n1. O-O *\n");
    EXPECT_TRUE(r[0].valid) << t << report_text("", r[0]);
    EXPECT_EQ(r[0].plies, 1);
  }
  // Variant names as lichess, chess.com, pychess and Fairy-Stockfish write them.
  for (const char* v :
       {"Standard", "From Position", "Chess960", "chess", "fischerandom", "Chess 960", "Regular"}) {
    r = validate_text(std::string("[Variant \"") + v + "\"]\n\n1. e4 *\n");
    EXPECT_TRUE(r[0].valid) << v << ": " << report_text("", r[0]);
    EXPECT_EQ(r[0].variant, "chess") << v;
  }
  for (const char* v : {"Capablanca", "capablanca", "Capablanca Chess"}) {
    r = validate_text(std::string("[Variant \"") + v + "\"]\n\n1. e4 *\n");
    EXPECT_EQ(r[0].variant, "capablanca") << v << ": " << report_text("", r[0]);
  }
}

// The Chess 2 writer and validator agree on the marks: a midline invasion wins without `#`;
// a `#` on it is a warning (the result stands), a `#` on a game that goes on is an error.
TEST(Records, WinsThatAreNotCheckmateCarryNoMateMark) {
  const std::string tags =
      "[Variant \"Chess 2\"]\n[FEN \"4k3/8/8/8/4K3/8/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n\n";
  auto r = validate_text(tags + "1. Ke5 1-0\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_TRUE(r[0].findings.empty()) << report_text("", r[0]);
  r = validate_text(tags + "1. Ke5# 1-0\n");
  EXPECT_TRUE(r[0].valid) << report_text("", r[0]);
  EXPECT_EQ(codes(r[0], Severity::Warning), (std::vector<std::string>{"wrong-mark"}));
  r = validate_text(tags + "1. Kd4# *\n");
  EXPECT_FALSE(r[0].valid);
  EXPECT_EQ(r[0].kind, "false-mate");
}

// The command over a batch: gzip and bzip2 input by content, a missing file reported in its
// place while the batch goes on (exit 2 at the end), --strict, JSON with every tag, every
// finding and the counts per code.
TEST(RecordsCli, BatchesStrictAndJson) {
  const std::string pgn =
      "[Event \"a \\\"b\\\"\"]\n[Mood \"good\"]\n[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 0\"]\n\n1. Ra8 *\n";
  std::string plain = temp_file("batch.pgn", pgn);
  for (const char* tool : {"gzip", "bzip2"}) {
    std::string cmd = std::string(tool) + " -kf " + plain;
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  std::string gz = plain + ".gz", bz = plain + ".bz2";
  // Renamed: the format is told by the content, not the name.
  std::string bz_renamed = temp_file("batch-bz.pgn", "");
  fs::rename(bz, bz_renamed);
  auto r = run_arbiter({"validate", plain, "/nonexistent/x.pgn", gz, bz_renamed, "--json", "--quiet"});
  EXPECT_EQ(r.code, 2) << r;  // an unusable file, the rest validated
  auto lines = r.lines();
  ASSERT_EQ(lines.size(), 5u) << r;
  EXPECT_NE(lines[1].find("\"unusable\":true"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("/nonexistent/x.pgn"), std::string::npos) << lines[1];
  for (size_t k : {0u, 2u, 3u}) {
    EXPECT_NE(lines[k].find("\"valid\":true"), std::string::npos) << lines[k];
    EXPECT_NE(lines[k].find("\"tags\":{\"Event\":\"a \\\"b\\\"\",\"Mood\":\"good\",\"FEN\":"),
              std::string::npos)
        << lines[k];
    for (const char* code :
         {"\"code\":\"nonstandard-tag\"", "\"code\":\"fen-fullmove-zero\"", "\"code\":\"missing-mate-mark\"",
          "\"code\":\"unfinished-marked\"", "\"severity\":\"warning\""})
      EXPECT_NE(lines[k].find(code), std::string::npos) << code << " in " << lines[k];
  }
  const std::string& summary = lines.back();
  EXPECT_NE(summary.find("\"games\":3"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"unusable_files\":1"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"fen-fullmove-zero\":3"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"unusable-file\":1"), std::string::npos) << summary;
  // Without the missing file: valid with warnings (exit 0); --strict: invalid (exit 1).
  r = run_arbiter({"validate", plain, gz, "--quiet"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("warning:"), std::string::npos) << r;
  EXPECT_NE(r.out.find("findings: fen-fullmove-zero 2"), std::string::npos) << r;
  r = run_arbiter({"validate", plain, "--strict", "--quiet"});
  EXPECT_EQ(r.code, 1) << r;
  // JUnit carries times.
  std::string junit = temp_file("batch-junit.xml", "");
  r = run_arbiter({"validate", plain, "--strict", "--quiet", "--junit", junit});
  std::ifstream in(junit);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("time=\""), std::string::npos);
  EXPECT_NE(ss.str().find("[nonstandard-tag]"), std::string::npos) << ss.str();
  // A corrupt compressed file is unusable; the files after it are still validated.
  std::string bad = temp_file("bad.pgn", std::string("\x1f\x8b\x08\x00garbage", 11));
  r = run_arbiter({"validate", bad, plain, "--json", "--quiet"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.out.find("\"unusable\":true"), std::string::npos) << r;
  EXPECT_NE(r.out.find("\"games\":1"), std::string::npos) << r;
}

// kokopu's PGN test data with its stated outcomes (corpus/records/kokopu/README.md): every
// game kokopu reads is valid here unless Arbiter names an error kokopu misses (listed with
// the reason in arbiter-differs.tsv), and every error kokopu names is an error here at the
// same line (or, where listed, a warning: Arbiter reads it, as the other reader does).
TEST(Records, KokopuTestSuiteOutcomes) {
  const fs::path dir = records_dir() / "kokopu";
  struct Differs {
    std::string code, severity;  // severity: error, warning, or none (Arbiter finds nothing)
    bool split = false;          // Arbiter reads the game as two (tags after movetext)
    uint32_t line = 0;           // Arbiter reports it at another line (`line=N`): where it is
  };
  std::map<std::pair<std::string, int>, Differs> differs;
  {
    std::ifstream in(dir / "arbiter-differs.tsv");
    ASSERT_TRUE(in) << "arbiter-differs.tsv";
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream ls(line);
      std::string label, game, code, severity, split;
      std::getline(ls, label, '\t');
      std::getline(ls, game, '\t');
      std::getline(ls, code, '\t');
      std::getline(ls, severity, '\t');
      std::getline(ls, split, '\t');
      differs[{label, std::stoi(game)}] = {
          code, severity, split == "split",
          split.rfind("line=", 0) == 0 ? static_cast<uint32_t>(std::stoul(split.substr(5))) : 0u};
    }
  }
  std::ifstream in(dir / "expected.tsv");
  ASSERT_TRUE(in) << "expected.tsv";
  std::map<std::string, std::vector<std::vector<std::string>>> by_label;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::istringstream ls(line);
    std::string x;
    while (std::getline(ls, x, '\t')) f.push_back(x);
    ASSERT_GE(f.size(), 5u) << line;
    by_label[f[0]].push_back(f);
  }
  ASSERT_GE(by_label.size(), 20u);
  size_t games = 0, used_differs = 0, valid = 0, errors_at_line = 0;
  for (const auto& [label, rows] : by_label) {
    Validated v = validate_file((dir / (label + ".pgn")).string());
    size_t splits = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      auto d = differs.find({label, static_cast<int>(i + 1)});
      if (d != differs.end() && d->second.split) ++splits;
    }
    ASSERT_EQ(v.reports.size(), rows.size() + splits)
        << label << ": the games are not split as kokopu splits them";
    size_t k = 0;  // Arbiter's game for kokopu's game i
    for (size_t i = 0; i < rows.size(); ++i, ++k) {
      const auto& row = rows[i];
      const GameReport& r = v.reports[k];
      SCOPED_TRACE(label + " game " + row[1] + ": " + report_text(label, r));
      ++games;
      auto d = differs.find({label, static_cast<int>(i + 1)});
      if (d != differs.end()) {
        ++used_differs;
        if (d->second.split) ++k;
      }
      if (row[2] == "valid") {
        if (d == differs.end()) {
          EXPECT_TRUE(r.valid);
          valid += r.valid;
        } else {
          EXPECT_FALSE(r.valid);
          EXPECT_EQ(r.kind, d->second.code);
        }
        continue;
      }
      // kokopu names an error at this line.
      uint32_t at = static_cast<uint32_t>(std::stoul(row[3]));
      if (d != differs.end() && d->second.line) at = d->second.line;
      if (d != differs.end() && d->second.severity == "none") {
        EXPECT_TRUE(r.valid) << "kokopu: line " << at << ": " << row[5];
        continue;
      }
      const Severity want =
          d != differs.end() && d->second.severity == "warning" ? Severity::Warning : Severity::Error;
      bool found = false;
      for (const auto& f : r.findings)
        if (f.line == at && f.severity == want && (d == differs.end() || f.code == d->second.code))
          found = true;
      EXPECT_TRUE(found) << "kokopu: line " << at << ": " << row[5];
      errors_at_line += found && want == Severity::Error;
    }
  }
  EXPECT_EQ(games, 91u);
  EXPECT_EQ(used_differs, differs.size());  // every listed difference is still one
  // What this asserts, in numbers (see the README): games valid in both, errors at kokopu's line.
  EXPECT_EQ(valid, 52u);
  EXPECT_EQ(errors_at_line, 29u);
}

// Issue 28's acceptance on real files (corpus/records/real/, sources and licences in its
// README): every record that kokopu and pgn-extract both accept (accepted.tsv, written by
// running both) is valid here, and the text that breaks the standard gets its warning.
TEST(Records, RealFilesBothReadersAccept) {
  const fs::path dir = records_dir() / "real";
  std::ifstream in(dir / "accepted.tsv");
  ASSERT_TRUE(in) << "accepted.tsv";
  std::map<std::string, std::vector<std::vector<std::string>>> by_file;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::istringstream ls(line);
    std::string x;
    while (std::getline(ls, x, '\t')) f.push_back(x);
    ASSERT_GE(f.size(), 5u) << line;
    by_file[f[0]].push_back(f);
  }
  ASSERT_GE(by_file.size(), 30u);
  size_t games = 0, both = 0, valid_both = 0, fen_zero = 0, warned = 0;
  std::map<std::string, size_t> warnings;
  for (const auto& [file, rows] : by_file) {
    Validated v = validate_file((dir / file).string());
    ASSERT_EQ(v.reports.size(), rows.size()) << file << ": the games are not split as kokopu splits them";
    for (size_t i = 0; i < rows.size(); ++i) {
      const GameReport& r = v.reports[i];
      SCOPED_TRACE(file + " game " + rows[i][1] + ": " + report_text(file, r));
      ++games;
      if (rows[i][4] == "yes") {
        ++both;
        EXPECT_TRUE(r.valid);
        valid_both += r.valid;
      }
      warned += r.warnings > 0;
      for (const auto& f : r.findings)
        if (f.severity == Severity::Warning) ++warnings[f.code];
      // A FEN whose fullmove number is 0 (all the pychess mate-in-N puzzles): a warning.
      for (const auto& [name, value] : r.tags) {
        if (name != "FEN" || value.size() < 2 || value.substr(value.size() - 2) != " 0") continue;
        ++fen_zero;
        bool found = false;
        for (const auto& f : r.findings)
          found = found || (f.code == "fen-fullmove-zero" && f.severity == Severity::Warning);
        EXPECT_TRUE(found) << "FEN " << value;
      }
    }
  }
  // The figures the README states.
  EXPECT_EQ(games, 3448u);
  EXPECT_EQ(both, 3436u);
  EXPECT_EQ(valid_both, both);
  EXPECT_EQ(fen_zero, 914u);
  EXPECT_EQ(warnings["fen-fullmove-zero"], 914u);
  EXPECT_GT(warnings["unfinished-marked"], 900u);  // mate-in-N solutions end in mate, marked `*`
  EXPECT_GT(warned, 1000u);
}

// The splitter's and tokenizer's readings that kokopu's suite asked for, one by one.
TEST(Records, LineEndsAndTagForms) {
  // CR alone ends a line: the fault is on line 3.
  auto r = validate_text("[Event \"x\"]\r\r1. e4 e5 2. e5 *\r");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].kind, "no-piece-reaches") << report_text("", r[0]);
  EXPECT_EQ(r[0].line, 3u);
  // Tags and moves on one line; two games so written.
  r = validate_text("[Event \"a\"][Result \"*\"] 1. e4 *\n[Event \"b\"] 1. d4 h6*\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[0].valid && r[1].valid) << report_text("", r[0]) << report_text("", r[1]);
  EXPECT_EQ(r[1].plies, 2);  // `h6*`: the move, then the result
  // A tag value cut by a line break: an error at the tag; the next line is not moves.
  r = validate_text("[Event \"x\"]\n[Site \"Some\nwhere\"]\n[Result \"*\"]\n\n1. e4 *\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(codes(r[0], Severity::Error), (std::vector<std::string>{"syntax"}));
  EXPECT_EQ(r[0].line, 2u);
  EXPECT_EQ(r[0].tags[1].second, "Some where");
  // Tags after movetext without a result: two games, a warning at the cutting tag.
  r = validate_strict("[Event \"x\"]\n\n1. e4 e5\n\n[Event \"y\"]\n\n1. d4 *\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(codes(r[0], Severity::Error), (std::vector<std::string>{"missing-result"}));
  EXPECT_EQ(r[0].line, 5u);
  // An unclosed variation is reported at its `(`.
  r = validate_text("1. e4 e5\n(1... c5 *\n");
  EXPECT_EQ(r[0].kind, "syntax");
  EXPECT_EQ(r[0].line, 2u);
  EXPECT_EQ(r[0].column, 1u);
}

namespace {
const Finding* find_code(const GameReport& r, const std::string& code) {
  for (const auto& f : r.findings)
    if (f.code == code) return &f;
  return nullptr;
}
}  // namespace

// Issue 29: memory stays bounded whatever the records say; each bound hit is an error with
// code `limit` that names the bound, at the place it was hit.
TEST(Records, MemoryLimitsAreNamedWhereHit) {
  // Variations nested deeper than kMaxNesting: reported at the `(` past the limit.
  std::string deep = "1. e4 ";
  for (int i = 0; i <= kMaxNesting; ++i) deep += "(1. d4 ";
  for (int i = 0; i <= kMaxNesting; ++i) deep += ")";
  auto r = validate_text(deep + " *\n");
  ASSERT_EQ(r.size(), 1u);
  const Finding* f = find_code(r[0], "limit");
  ASSERT_NE(f, nullptr) << report_text("", r[0]);
  EXPECT_EQ(f->severity, Severity::Error);
  EXPECT_EQ(f->line, 1u);
  EXPECT_EQ(f->column, 7u + 7u * kMaxNesting);  // the (kMaxNesting+1)-th `(`
  EXPECT_NE(f->reason.find("nesting limit"), std::string::npos) << f->reason;
  // More movetext tokens than kMaxTokens: the rest of the game is not read.
  std::string many = "1. e4 " + std::string(kMaxTokens + 10, '(');
  r = validate_text(many + "\n");
  ASSERT_EQ(r.size(), 1u);
  bool token_limit = false;
  for (const auto& x : r[0].findings)
    token_limit = token_limit || (x.code == "limit" && x.reason.find("token limit") != std::string::npos);
  EXPECT_TRUE(token_limit) << report_text("", r[0]);
  EXPECT_FALSE(r[0].valid);
  // More findings than kMaxFindings in one game (a null move in the main line is a warning).
  std::string passes;
  for (size_t i = 0; i <= kMaxFindings; ++i) passes += "-- ";
  r = validate_text(passes + "*\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].findings.size(), kMaxFindings + 1);
  EXPECT_EQ(r[0].findings.back().code, "limit");
  EXPECT_NE(r[0].findings.back().reason.find("findings limit"), std::string::npos);
  EXPECT_EQ(r[0].findings.back().column, 1u + 3u * kMaxFindings);
  // More distinct rulesets-with-options than EngineCache::kMaxEngines in one run.
  std::string games;
  for (size_t i = 0; i <= EngineCache::kMaxEngines; ++i)
    games += "[Options \"no-such-option=" + std::to_string(i) + "\"]\n\n*\n\n";
  r = validate_text(games);
  ASSERT_EQ(r.size(), EngineCache::kMaxEngines + 1);
  EXPECT_EQ(r[0].kind, "bad-option");
  EXPECT_EQ(r.back().kind, "limit") << report_text("", r.back());
  EXPECT_NE(r.back().reason.find("engine limit"), std::string::npos);
  EXPECT_EQ(r.back().line, 1u + 4u * EngineCache::kMaxEngines);  // at its Options tag
}

// Issue 29: a record's [Rules "PATH"] names only a ruleset beside it (or below its folder)
// or along the ruleset search path, unless `--rules-anywhere`.
TEST(RecordsCli, RulesTagStaysBesideTheRecord) {
  fs::path base = fs::temp_directory_path() / ("arbiter-records-rules-" + std::to_string(getpid()));
  fs::create_directories(base / "records");
  fs::create_directories(base / "elsewhere");
  fs::copy_file(source_dir() / "rulesets" / "chess.rules", base / "records" / "mine.rules",
                fs::copy_options::overwrite_existing);
  fs::copy_file(source_dir() / "rulesets" / "chess.rules", base / "elsewhere" / "other.rules",
                fs::copy_options::overwrite_existing);
  auto write = [&](const std::string& name, const std::string& rules) {
    std::string p = (base / "records" / name).string();
    std::ofstream(p) << "[Rules \"" << rules << "\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    return p;
  };
  auto beside = run_arbiter({"validate", write("a.pgn", "mine.rules")});
  EXPECT_EQ(beside.code, 0) << beside;
  const std::string outside = write("b.pgn", "../elsewhere/other.rules");
  auto refused = run_arbiter({"validate", outside, "--json", "--quiet"});
  EXPECT_EQ(refused.code, 1) << refused;
  EXPECT_NE(refused.out.find("\"kind\":\"rules-path\""), std::string::npos) << refused;
  EXPECT_NE(refused.out.find("--rules-anywhere"), std::string::npos) << refused;
  auto absolute = run_arbiter({"validate", write("c.pgn", (base / "elsewhere" / "other.rules").string())});
  EXPECT_EQ(absolute.code, 1) << absolute;
  auto allowed = run_arbiter({"validate", outside, "--rules-anywhere"});
  EXPECT_EQ(allowed.code, 0) << allowed;
  // A bundled ruleset along the search path may be named by its path.
  auto bundled =
      run_arbiter({"validate", write("d.pgn", (source_dir() / "rulesets" / "chess.rules").string())});
  EXPECT_EQ(bundled.code, 0) << bundled;
  fs::remove_all(base);
}

// Every shard opens every input file, so each reports a missing one: the merge counts it once
// per file, as the run over the whole batch does (it used to count it once per shard).
TEST(RecordsCli, MergeCountsAnUnusableFileOnce) {
  const std::string input = (records_dir() / "broken" / "chess.pgn").string();
  const std::string missing = (fs::temp_directory_path() / "arbiter-no-such-record.pgn").string();
  auto whole = run_arbiter({"validate", missing, input, "--json", "--quiet"});
  ASSERT_EQ(whole.code, 2) << whole;
  EXPECT_EQ(json_field(whole.last_line(), "unusable_files"), "1");
  fs::path base = fs::temp_directory_path() / ("arbiter-merge-unusable-" + std::to_string(getpid()));
  fs::create_directories(base);
  std::vector<std::string> args = {"validate", "--merge", "--json"};
  for (int i = 0; i < 3; ++i) {
    auto shard =
        run_arbiter({"validate", missing, input, "--json", "--quiet", "--shard", std::to_string(i) + "/3"});
    ASSERT_EQ(shard.code, 2) << shard;
    const std::string path = (base / ("shard-" + std::to_string(i) + ".json")).string();
    std::ofstream(path) << shard.out;
    args.push_back(path);
  }
  auto merged = run_arbiter(args);
  for (const char* key : {"games", "valid", "invalid", "counts", "unusable_files"})
    EXPECT_EQ(json_field(merged.last_line(), key), json_field(whole.last_line(), key)) << key << "\n"
                                                                                       << merged.last_line();
  fs::remove_all(base);
}
