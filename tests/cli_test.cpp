// Tests of the `arbiter` command, run as a process: exit status (0 success, 1 a check
// failed, 2 unusable input), stdout and stderr of check, moves, perft and test.
//
// The binary is found beside this test's build directory: /proc/self/exe is
// BUILD/tests/cli_test, the command is BUILD/cli/arbiter (build the `arbiter` target too).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/json.hpp"
#include "arbiter/perft_suite.hpp"
#include "arbiter/progress.hpp"
#include "helpers.hpp"
#include "process.hpp"

namespace {

using namespace testing_helpers;
using namespace testing_process;
using nlohmann::json;

// Runs `arbiter ARGS...` from the source directory (so that relative paths such as
// rulesets/chess.rules work).
Outcome run(const std::vector<std::string>& args) {
  return run_arbiter(args, arbiter_source_dir());
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(arbiter_path()))
        << arbiter_path() << " is missing: build the `arbiter` target before running cli_test";
  }
};

// ---------------------------------------------------------------------------------------
// perft

TEST_F(Cli, PerftDepth3) {
  Outcome r = run({"perft", "--variant", "chess", "--depth", "3"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.last_line(), "nodes 8902") << r;
  // The default variant is chess; --rules names a file.
  Outcome d = run({"perft", "--depth", "3"});
  EXPECT_EQ(d.code, 0) << d;
  EXPECT_EQ(d.last_line(), "nodes 8902") << d;
  Outcome f = run({"perft", "--rules", "rulesets/chess.rules", "--depth", "2"});
  EXPECT_EQ(f.code, 0) << f;
  EXPECT_EQ(f.last_line(), "nodes 400") << f;
  Outcome c = run({"perft", "--variant", "chessembly", "--depth", "2"});
  EXPECT_EQ(c.code, 0) << c;
  EXPECT_EQ(c.last_line(), "nodes 1002") << c;
  Outcome p = run(
      {"perft", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", "--depth", "2"});
  EXPECT_EQ(p.code, 0) << p;
  EXPECT_EQ(p.last_line(), "nodes 2039") << p;
}

TEST_F(Cli, PerftDivide) {
  Outcome r = run({"perft", "--variant", "chess", "--depth", "3", "--divide"});
  ASSERT_EQ(r.code, 0) << r;
  auto lines = r.lines();
  ASSERT_EQ(lines.size(), 21u) << r;
  EXPECT_EQ(lines.back(), "nodes 8902");
  uint64_t sum = 0;
  std::vector<std::string> moves;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    auto f = fields(lines[i]);
    ASSERT_EQ(f.size(), 2u) << lines[i];
    moves.push_back(f[0]);
    sum += std::stoull(f[1]);
  }
  EXPECT_EQ(sum, 8902u);
  std::sort(moves.begin(), moves.end());
  EXPECT_EQ(moves, legal_texts(*compiled_engine("chess")));
  EXPECT_NE(std::find(lines.begin(), lines.end(), "e2e4 600"), lines.end()) << r;
  EXPECT_NE(std::find(lines.begin(), lines.end(), "g1f3 440"), lines.end()) << r;
  // Chess960 castling is written king-takes-rook.
  // (king d1, castling rook e1).
  Outcome c = run({"perft", "--position", "2r5/8/8/8/8/8/6PP/k2KR3 w K -", "--depth", "1", "--divide"});
  ASSERT_EQ(c.code, 0) << c;
  EXPECT_TRUE(contains(c.out, "\nd1e1 1\n")) << c;
  EXPECT_EQ(c.last_line(), "nodes 17") << c;
}

TEST_F(Cli, PerftJson) {
  Outcome r = run({"perft", "--variant", "chess", "--depth", "2", "--json"});
  ASSERT_EQ(r.code, 0) << r;
  json j = json::parse(r.out);
  EXPECT_EQ(j.at("nodes").get<uint64_t>(), 400u);
  EXPECT_EQ(j.at("depth").get<int>(), 2);
  EXPECT_TRUE(j.at("seconds").is_number());
  EXPECT_TRUE(j.at("nodes_per_second").is_number());
  EXPECT_GE(j.at("cpu_seconds").get<double>(), 0.0);  // bench/run --cpu reads it
  EXPECT_FALSE(j.contains("divide"));

  Outcome d = run({"perft", "--variant", "chess", "--depth", "2", "--divide", "--json"});
  ASSERT_EQ(d.code, 0) << d;
  json jd = json::parse(d.out);
  EXPECT_EQ(jd.at("nodes").get<uint64_t>(), 400u);
  ASSERT_TRUE(jd.at("divide").is_object());
  EXPECT_EQ(jd.at("divide").size(), 20u);
  EXPECT_EQ(jd.at("divide").at("e2e4").get<int>(), 20);

  // Suite results in JSON.
  Outcome s = run({"perft", "--suite", corpus_path("perft/tricky.perft"), "--max-nodes", "10000", "--json"});
  ASSERT_EQ(s.code, 0) << s;
  json js = json::parse(s.out);
  for (const char* key : {"suite", "positions", "checked", "skipped", "failed", "nodes", "seconds"})
    EXPECT_TRUE(js.contains(key)) << key << " in " << s.out;
  EXPECT_EQ(js.at("positions").get<size_t>(),
            arb::read_perft_suite(corpus_path("perft/tricky.perft")).size());
  EXPECT_EQ(js.at("failed").get<int>(), 0);
  EXPECT_GT(js.at("skipped").get<int>(), 0);
}

TEST_F(Cli, PerftSuites) {
  TempDir dir;
  // A suite with a wrong expected count: exit 1, the failure named with file:line.
  const std::string bad = dir.write("bad.perft",
                                    "# one wrong count\n"
                                    "id start\n"
                                    "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
                                    "perft 1 20\n"
                                    "perft 2 401\n");
  Outcome r = run({"perft", "--suite", bad});
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_TRUE(contains(r.err, bad + ":3: start perft 2: expected 401, got 400")) << r;
  EXPECT_TRUE(contains(r.out, "1 failed")) << r;
  // The same suite, right: exit 0.
  const std::string good = dir.write("good.perft",
                                     "id start\n"
                                     "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
                                     "perft 1 20\n"
                                     "perft 2 400\n"
                                     "perft 5 4865609\n");
  Outcome g = run({"perft", "--suite", good, "--max-nodes", "100000"});
  EXPECT_EQ(g.code, 0) << g;
  EXPECT_TRUE(contains(g.out, "1 position, 2 checks, 1 skipped over --max-nodes, 0 failed")) << g;
  EXPECT_EQ(g.last_line(), "nodes 420") << g;
  // A position the engine cannot read makes the suite unusable (exit 2), every such line
  // named, before any count runs.
  const std::string badpos = dir.write("badpos.perft",
                                       "id x\nepd rnbqkbnr/pppppppp w KQkq -\nperft 1 20\n"
                                       "epd garbage\nperft 1 1\n"
                                       "epd 8/8/8/8/8/8/8/K6k w - - 0 99999999999\nperft 1 3\n");
  Outcome b = run({"perft", "--suite", badpos});
  EXPECT_EQ(b.code, 2) << b;
  EXPECT_TRUE(contains(b.err, badpos + ":2: bad position")) << b;
  EXPECT_TRUE(contains(b.err, badpos + ":4: bad position")) << b;
  EXPECT_TRUE(contains(b.err, badpos + ":6: bad position: bad fullmove number")) << b;
  EXPECT_TRUE(b.out.empty()) << b;
  // A suite without positions (empty, or comments only) checks nothing: unusable.
  for (const char* text : {"", "# only a comment\n\n"}) {
    Outcome e = run({"perft", "--suite", dir.write("empty.perft", text)});
    EXPECT_EQ(e.code, 2) << e;
    EXPECT_TRUE(contains(e.err, "the suite has no positions")) << e;
  }
  // Positions without a `perft` line check nothing: unusable too (it was exit 0, "0 checks").
  std::string nochecks = dir.write("nochecks.perft", "# a suite\nepd 8/8/8/8/8/8/8/K6k w - - 0 1\n");
  Outcome n = run({"perft", "--suite", nochecks});
  EXPECT_EQ(n.code, 2) << n;
  EXPECT_TRUE(contains(n.err, nochecks + ":2: the suite checks nothing")) << n;
  // A suite that cannot be read: unusable input.
  Outcome m = run({"perft", "--suite", dir.path() + "/missing.perft"});
  EXPECT_EQ(m.code, 2) << m;
}

// Regression: with `--engine reference` and no --position, the command must set the
// variant's start (the reference chess engine is constructed with an empty board; an
// earlier `arbiter perft --variant chess --engine reference --depth 3` printed `nodes 0`).
TEST_F(Cli, ReferenceEngineStartsFromTheVariantStart) {
  Outcome r = run({"perft", "--variant", "chess", "--engine", "reference", "--depth", "3"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.last_line(), "nodes 8902") << r;
  Outcome m = run({"moves", "--variant", "chess", "--engine", "reference", "--notation", "uci"});
  EXPECT_EQ(m.code, 0) << m;
  EXPECT_TRUE(contains(m.out, "actions 20\n")) << m;
  // With an explicit position the reference engine works, and agrees.
  Outcome p = run(
      {"perft", "--variant", "chess", "--engine", "reference", "--position", kChessStart, "--depth", "3"});
  EXPECT_EQ(p.code, 0) << p;
  EXPECT_EQ(p.last_line(), "nodes 8902") << p;
  Outcome e = run({"perft", "--variant", "chessembly", "--engine", "reference", "--depth", "2"});
  EXPECT_EQ(e.code, 0) << e;
  EXPECT_EQ(e.last_line(), "nodes 1002") << e;
}

// ---------------------------------------------------------------------------------------
// Unusable input: exit 2 with a message.

TEST_F(Cli, BadPositionNamesTheColumn) {
  const std::string fen = "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  Outcome r = run({"perft", "--variant", "chess", "--position", fen, "--depth", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_TRUE(r.out.empty()) << r;
  EXPECT_TRUE(contains(r.err, "bad position")) << r;
  EXPECT_TRUE(contains(r.err, "'X'")) << r;
  // The text is echoed with a caret under the bad character (column 13).
  EXPECT_TRUE(contains(r.err, "\n  " + fen + "\n  " + std::string(13, ' ') + "^\n")) << r;
  // Another fault: the side to move, at column 44.
  const std::string side = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1";
  Outcome s = run({"moves", "--position", side});
  EXPECT_EQ(s.code, 2) << s;
  EXPECT_TRUE(contains(s.err, "\n  " + side + "\n  " + std::string(side.find(" x") + 1, ' ') + "^\n")) << s;
  // Chessembly needs its reserves.
  Outcome c = run({"moves", "--variant", "chessembly", "--position", "8/8/8/8/8/8/8/8 w - - 0 1"});
  EXPECT_EQ(c.code, 2) << c;
  EXPECT_TRUE(contains(c.err, "reserves")) << c;
}

TEST_F(Cli, UnknownFlag) {
  Outcome r = run({"perft", "--bogus", "--depth", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_TRUE(contains(r.err, "--bogus")) << r;
  Outcome c = run({"frobnicate"});
  EXPECT_EQ(c.code, 2) << c;
  EXPECT_TRUE(contains(c.err, "unknown command `frobnicate`")) << c;
  Outcome n = run({});
  EXPECT_EQ(n.code, 2) << n;
  Outcome h = run({"--help"});
  EXPECT_EQ(h.code, 0) << h;
  EXPECT_TRUE(contains(h.out, "usage: arbiter")) << h;
  Outcome m = run({"moves", "--notation", "long"});
  EXPECT_EQ(m.code, 2) << m;
  Outcome d = run({"perft", "--variant", "chess"});
  EXPECT_EQ(d.code, 2) << d;
  EXPECT_TRUE(contains(d.err, "--depth")) << d;
  Outcome both = run({"perft", "--variant", "chess", "--rules", "rulesets/chess.rules", "--depth", "1"});
  EXPECT_EQ(both.code, 2) << both;
  Outcome eng = run({"perft", "--engine", "magic", "--depth", "1"});
  EXPECT_EQ(eng.code, 2) << eng;
}

TEST_F(Cli, UnknownVariant) {
  Outcome r = run({"perft", "--variant", "chesss", "--depth", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_TRUE(contains(r.err, "unknown variant `chesss`")) << r;
  EXPECT_TRUE(contains(r.err, "chessembly")) << r;  // the bundled ones are listed
  // The reference engine runs without compiling the ruleset, with the variant's options
  // (the reference engine plays Chess 2 without the ruleset).
  Outcome n = run({"perft", "--variant", "chess2", "--engine", "reference", "--set", "white-army=reaper",
                   "--set", "black-army=animals", "--depth", "2"});
  EXPECT_EQ(n.code, 0) << n;
  EXPECT_TRUE(contains(n.out, "nodes 3264")) << n;
  // A bad option of a reference engine is unusable input.
  Outcome bad = run({"perft", "--variant", "chess2", "--engine", "reference", "--set", "white-army=dragons",
                     "--depth", "1"});
  EXPECT_EQ(bad.code, 2) << bad;
  EXPECT_TRUE(contains(bad.err, "dragons")) << bad;
}

TEST_F(Cli, BadSet) {
  Outcome r = run({"perft", "--variant", "chess", "--set", "fifty-mov=3", "--depth", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_TRUE(contains(r.err, "no option `fifty-mov`")) << r;
  EXPECT_TRUE(contains(r.err, "did you mean `fifty-move`?")) << r;
  Outcome f = run({"perft", "--variant", "chess", "--set", "fifty-move", "--depth", "1"});
  EXPECT_EQ(f.code, 2) << f;
  EXPECT_TRUE(contains(f.err, "NAME=VALUE")) << f;
  Outcome t = run({"perft", "--variant", "chess", "--set", "fifty-move=soon", "--depth", "1"});
  EXPECT_EQ(t.code, 2) << t;
  EXPECT_TRUE(contains(t.err, "chess.rules:11:21: error: --set fifty-move=soon: this option takes a number"))
      << t;
  Outcome ref = run({"perft", "--engine", "reference", "--set", "fifty-move=10", "--depth", "1"});
  EXPECT_EQ(ref.code, 2) << ref;
  // A good --set is applied: the fifty-move claim comes after 10 halfmoves.
  Outcome g = run({"moves", "--set", "fifty-move=10", "--position", "4k3/8/8/8/8/8/8/R3K3 w - - 10 40"});
  EXPECT_EQ(g.code, 0) << g;
  EXPECT_EQ(g.last_line(), "status ongoing claim-fifty") << g;
}

// ---------------------------------------------------------------------------------------
// check

TEST_F(Cli, CheckReportsFileLineColumn) {
  TempDir dir;
  const std::string bad = dir.write("bad.rules",
                                    "ruleset bad\n"
                                    "board 8 x 8\n"
                                    "peice king K { betza \"K\"; royal }\n"
                                    "piece rook R { betza \"fmRx\" }\n"
                                    "end { checkmate -> loss }\n");
  Outcome r = run({"check", bad});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_TRUE(contains(r.err, bad + ":3:1: error: unknown statement `peice`")) << r;
  EXPECT_TRUE(contains(r.err, "hint: did you mean `piece`?")) << r;
  EXPECT_TRUE(contains(r.err, bad + ":4:26: error: modifiers without an atom")) << r;
  EXPECT_TRUE(contains(r.out, bad + ": ")) << r;
  // JSON: every diagnostic with its line and column.
  Outcome j = run({"check", "--json", bad});
  EXPECT_EQ(j.code, 2) << j;
  // One object per file, one a line.
  json arr = json::array();
  for (const auto& line : j.lines()) arr.push_back(json::parse(line));
  ASSERT_EQ(arr.size(), 1u);
  EXPECT_FALSE(arr[0].at("checks").get<bool>());
  EXPECT_FALSE(arr[0].at("executable").get<bool>());
  bool found = false;
  for (const auto& d : arr[0].at("diagnostics"))
    found |= d.at("line") == 3 && d.at("column") == 1 && d.at("hint") == "did you mean `piece`?";
  EXPECT_TRUE(found) << j.out;
  // Good rulesets: exit 0. A ruleset that checks but is not executable: exit 1.
  Outcome ok = run({"check", "rulesets/chess.rules", "rulesets/chessembly.rules"});
  EXPECT_EQ(ok.code, 0) << ok;
  EXPECT_TRUE(contains(ok.out, "rulesets/chess.rules: ok")) << ok;
  // An explosion that must remove at least one piece (`remove-around ... when capture
  // at-least 1`) checks but does not compile.
  dir.copy_ruleset("chess");
  const std::string atomic = dir.write("atomic.rules",
                                       "ruleset atomic extends chess\n"
                                       "piece bomber X {\n"
                                       "  betza \"K\"\n"
                                       "  remove-around radius 1 when capture at-least 1\n"
                                       "}\n");
  Outcome ne = run({"check", atomic});
  EXPECT_EQ(ne.code, 1) << ne;
  EXPECT_TRUE(contains(ne.out, "does not compile")) << ne;
  EXPECT_TRUE(contains(
      ne.err, atomic + ":4:48: error: `remove-around ... when capture at-least` is not executable yet"))
      << ne;
  Outcome none = run({"check"});
  EXPECT_EQ(none.code, 2) << none;
}

// ---------------------------------------------------------------------------------------
// moves

TEST_F(Cli, MovesAtTheStart) {
  Outcome r = run({"moves", "--notation", "uci"});
  ASSERT_EQ(r.code, 0) << r;
  auto lines = r.lines();
  ASSERT_EQ(lines.size(), 22u) << r;
  EXPECT_EQ(lines[20], "actions 20");
  EXPECT_EQ(lines[21], "status ongoing");
  std::vector<std::string> moves(lines.begin(), lines.begin() + 20);
  std::sort(moves.begin(), moves.end());
  EXPECT_EQ(moves, legal_texts(*compiled_engine("chess")));
  // SAN by default.
  Outcome s = run({"moves"});
  ASSERT_EQ(s.code, 0) << s;
  EXPECT_TRUE(contains(s.out, "\nNf3\n")) << s;
  EXPECT_TRUE(contains(s.out, "\ne4\n")) << s;
  // JSON.
  Outcome j = run({"moves", "--json"});
  ASSERT_EQ(j.code, 0) << j;
  json o = json::parse(j.out);
  EXPECT_EQ(o.at("position"), kChessStart);
  EXPECT_EQ(o.at("count"), 20);
  EXPECT_EQ(o.at("actions").size(), 20u);
  EXPECT_EQ(o.at("result"), arb::to_string(arb::Result::Ongoing));
  EXPECT_EQ(o.at("reason"), "");
  EXPECT_EQ(o.at("in_check"), false);
  EXPECT_EQ(o.at("claim_threefold"), false);
  EXPECT_EQ(o.at("claim_fifty"), false);
}

TEST_F(Cli, MovesReportsTheStatus) {
  Outcome m = run({"moves", "--position", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"});
  EXPECT_EQ(m.code, 0) << m;
  EXPECT_EQ(m.last_line(), "status " + arb::to_string(arb::Result::BlackWins) + " checkmate check") << m;
  EXPECT_TRUE(contains(m.out, "actions 0\n")) << m;
  Outcome s = run({"moves", "--position", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "--json"});
  EXPECT_EQ(s.code, 0) << s;
  json o = json::parse(s.out);
  EXPECT_EQ(o.at("reason"), "stalemate");
  EXPECT_EQ(o.at("result"), arb::to_string(arb::Result::Draw));
  EXPECT_EQ(o.at("count"), 0);
}

TEST_F(Cli, MovesAfterTheChessemblySampleGame) {
  // The position after the sample game of the rule text:
  //   pKe1 pKe7 pRe2+ pPe6 pQe3 pRc6 pBh4+ pPf6 pBa3+ Kf7 pNf4 pPd7
  auto e = compiled_engine("chessembly");
  for (const char* t :
       {"pKe1", "pKe7", "pRe2+", "pPe6", "pQe3", "pRc6", "pBh4+", "pPf6", "pBa3+", "Kf7", "pNf4", "pPd7"})
    ASSERT_TRUE(play(*e, t));
  const std::string fen = e->position();
  EXPECT_EQ(fen, "8/3p1k2/2r1pp2/8/5N1B/B3Q3/4R3/4K3[RNPPPPPPPPqrbbnnppppp] w - - 0 7");
  Outcome r = run({"moves", "--variant", "chessembly", "--position", fen});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.last_line(), "status ongoing") << r;
  const size_t n = legal_texts(*e).size();
  EXPECT_TRUE(contains(r.out, "actions " + std::to_string(n) + "\n")) << r;
  EXPECT_TRUE(contains(r.out, "\npNa1\n")) << r;  // placements in the rule text's form
  // The same game played by the command itself (--moves), move numbers skipped.
  Outcome g = run({"moves", "--variant", "chessembly", "--json", "--moves",
                   "1. pKe1 pKe7 2. pRe2+ pPe6 3. pQe3 pRc6 4. pBh4+ pPf6 5. pBa3+ Kf7 6. pNf4 pPd7"});
  ASSERT_EQ(g.code, 0) << g;
  json o = json::parse(g.out);
  EXPECT_EQ(o.at("position"), fen);
  EXPECT_EQ(o.at("result"), arb::to_string(arb::Result::Ongoing));
  EXPECT_EQ(o.at("reason"), "");
  EXPECT_EQ(o.at("count").get<size_t>(), n);
  // An illegal action in --moves is unusable input (kings may not stand adjacent).
  Outcome bad = run({"moves", "--variant", "chessembly", "--moves", "pKe1 pKe2"});
  EXPECT_EQ(bad.code, 2) << bad;
  EXPECT_TRUE(contains(bad.err, "action 2 `pKe2` is not legal")) << bad;
  // The reference engine lists the same actions.
  Outcome u = run({"moves", "--variant", "chessembly", "--position", fen, "--notation", "uci"});
  Outcome ru = run(
      {"moves", "--variant", "chessembly", "--engine", "reference", "--position", fen, "--notation", "uci"});
  ASSERT_EQ(u.code, 0) << u;
  ASSERT_EQ(ru.code, 0) << ru;
  auto a = u.lines(), b = ru.lines();
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

// ---------------------------------------------------------------------------------------
// test

TEST_F(Cli, TestRunsTheRulesetsExpectations) {
  Outcome r = run({"test", "rulesets/chess.rules", "rulesets/chessembly.rules"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.last_line(), "4 passed, 0 failed") << r;
  Outcome j = run({"test", "--json", "rulesets/chess.rules"});
  EXPECT_EQ(j.code, 0) << j;
  json o = json::parse(j.out);
  EXPECT_EQ(o.at("passed"), 2);
  EXPECT_EQ(o.at("failed"), 0);
  ASSERT_EQ(o.at("results").size(), 2u);
  EXPECT_EQ(o.at("results")[0].at("where"), "rulesets/chess.rules:60:3");

  // A failing expectation: exit 1, reported at its file:line:col.
  TempDir dir;
  dir.copy_ruleset("chess");
  const std::string child = dir.write("wrong.rules",
                                      "ruleset wrong extends chess\n"
                                      "expect {\n"
                                      "  perft 2 = 400\n"
                                      "  perft 1 = 21\n"
                                      "  status \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\" = stalemate\n"
                                      "  legal e2e4\n"
                                      "  illegal e2e5\n"
                                      "}\n");
  Outcome w = run({"test", child});
  EXPECT_EQ(w.code, 1) << w;
  EXPECT_EQ(w.last_line(), "4 passed, 1 failed") << w;
  EXPECT_TRUE(contains(w.err, child + ":4:3: expectation failed: perft expected 21, got 20")) << w;
  // A ruleset that does not compile: exit 2.
  const std::string atomic = dir.write("atomic.rules",
                                       "ruleset atomic extends chess\n"
                                       "piece bomber X {\n"
                                       "  betza \"K\"\n"
                                       "  remove-around radius 1 when capture at-least 1\n"
                                       "}\n");
  Outcome u = run({"test", atomic});
  EXPECT_EQ(u.code, 2) << u;
  // An expectation at a position no engine can read: unusable input (exit 2, it was 1),
  // located at the expectation, whether the text is garbage or a count overflows.
  for (const std::string pos : {"garbage", "99999999999k/8/8/8/8/8/8/K7 w - - 0 1"}) {
    const std::string bad = dir.write("badpos.rules", "ruleset badpos extends chess\nexpect {\n  perft \"" +
                                                          pos + "\" 1 = 20\n  perft 1 = 20\n}\n");
    Outcome b = run({"test", bad});
    EXPECT_EQ(b.code, 2) << b;
    EXPECT_TRUE(contains(b.err, bad + ":3:3: error: expectation at an unusable position")) << b;
  }
}

// ---------------------------------------------------------------------------------------
// Hardening: every class of unusable input is exit 2 with a message naming the place; no
// signal, hang, stray file or overwritten input.

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Exit 2 with a message (never a signal: run_arbiter reports a signal as -1).
void expect_unusable(const std::vector<std::string>& args, const std::string& message) {
  Outcome r = run(args);
  EXPECT_EQ(r.code, 2) << args.back() << "\n" << r;
  EXPECT_TRUE(contains(r.err, message)) << "expected `" << message << "`\n" << r;
}

TEST_F(Cli, OverflowingNumbersInPositionTexts) {
  // An empty-square count that overflows int: was a write outside the board (SIGSEGV).
  expect_unusable({"moves", "--fen", "21000000000k/8/8/8/8/8/8/K7 w - - 0 1"}, "rank 8 is longer than 8");
  expect_unusable(
      {"moves", "--variant", "chessembly", "--fen", "99999999999999999999k/8/8/8/8/8/8/K7[] w - - 0 1"},
      "rank 8 is longer than 8");
  expect_unusable({"moves", "--engine", "reference", "--fen", "4294967304/8/8/8/8/8/8/K6k w - - 0 1"},
                  "rank 8 is longer than 8");
  expect_unusable({"moves", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 99999999999"}, "bad fullmove number");
  expect_unusable({"moves", "--fen", "8/8/8/8/8/8/8/K6k w - a99999999999999999999 0 1"}, "en-passant");
  // ChessMe coordinates beyond int32 and counters beyond int.
  expect_unusable({"moves", "--variant", "chessme", "--position", "k(2147483648,1),K(0,0) w -/- -/- -/- 1"},
                  "bad square after 'k'");
  expect_unusable({"moves", "--variant", "chessme", "--position", "k(0,9),K(0,0) w -/- -/- -/- 2147483648"},
                  "bad fullmove number");
  // A ruleset's setup text goes through the same reader.
  TempDir dir;
  dir.copy_ruleset("chess");
  std::string child = dir.write("overflow.rules",
                                "ruleset overflow extends chess\n"
                                "setup \"21000000000k/8/8/8/8/8/8/K7 w - - 0 1\"\n");
  expect_unusable({"perft", "--depth", "1", "--rules", child}, "overflow.rules:2:8: error: bad setup");
}

TEST_F(Cli, EveryPrintedPositionReadsBack) {
  // Extreme ChessMe coordinates: the engines print them, so the reader takes them.
  const std::string far = "k(2147483647,-2147483647),K(-2147483648,2147483647) w -/- -/- -/- 2147483647";
  for (const char* engine : {"compiled", "reference"}) {
    Outcome r = run({"moves", "--variant", "chessme", "--engine", engine, "--position", far, "--json"});
    ASSERT_EQ(r.code, 0) << r;
    std::string printed = json::parse(r.out).at("position");
    Outcome back = run({"moves", "--variant", "chessme", "--engine", engine, "--position", printed});
    EXPECT_EQ(back.code, 0) << back;
  }
  Outcome m = run({"moves", "--variant", "chessme", "--notation", "uci", "--position",
                   "k(1000000000,1),K(999999999,-5),P(999999999,-4) w Q/- -/- -/- 999999999"});
  ASSERT_EQ(m.code, 0) << m;
}

TEST_F(Cli, PerftSuiteNumbersAndFiles) {
  TempDir dir;
  const std::string fen = "epd 8/8/8/8/8/8/8/K6k w - - 0 1\n";
  expect_unusable({"perft", "--suite", dir.write("a.perft", fen + "perft 99999999999 1\n")}, "a.perft:2:");
  expect_unusable({"perft", "--suite", dir.write("b.perft", fen + "perft 21 1\n")}, "between 0 and 20");
  expect_unusable({"perft", "--suite", dir.write("c.perft", fen + "perft 1 -3\n")},
                  "c.perft:2: perft node count");
  expect_unusable({"perft", "--suite", dir.write("d.perft", fen + "perft 1 3 junk\n")}, "d.perft:2:");
  expect_unusable({"perft", "--suite", dir.write("e.perft", fen + "perft 1 99999999999999999999999\n")},
                  "e.perft:2:");
  // A directory, a device: refused, not read (a directory used to pass with exit 0).
  expect_unusable({"perft", "--suite", dir.path()}, "not a regular file");
  expect_unusable({"perft", "--suite", "/dev/zero"}, "not a regular file");
  expect_unusable({"perft", "--suite", ""}, "--suite needs a file name");
}

TEST_F(Cli, RulesetLimits) {
  TempDir dir;
  // Deep nesting: was a stack overflow.
  std::string deep = "ruleset deep\n";
  for (int i = 0; i < 100000; ++i) deep += "a {\n";
  std::string f = dir.write("deep.rules", deep);
  expect_unusable({"check", f}, f + ":66:3: error: blocks nested deeper than 64 levels");
  // A long line of stray braces: diagnostics capped, the source echo windowed.
  std::string braces = "ruleset braces\n" + std::string(200000, '}') + "\n";
  f = dir.write("braces.rules", braces);
  Outcome r = run({"check", f});
  EXPECT_EQ(r.code, 2) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(r.err, f + ":2:1: error: unmatched `}`"));
  EXPECT_TRUE(contains(r.err, "more diagnostic(s) not shown"));
  EXPECT_LT(r.err.size(), 100000u);
  // Endless or special files, directories, oversized files: refused before reading.
  expect_unusable({"check", "/dev/zero"}, "/dev/zero: the ruleset is not a regular file");
  expect_unusable({"check", dir.path()}, "is a directory");
  expect_unusable({"test", "/dev/zero"}, "not a regular file");
  expect_unusable({"perft", "--depth", "1", "--rules", "/dev/zero"}, "not a regular file");
  expect_unusable({"diff", "--rules", "/dev/zero", "--rules", "rulesets/chess.rules"}, "not a regular file");
  f = dir.write("big.rules", "ruleset big\n" + std::string(2 << 20, '#') + "\n");
  // Refused where the limit is crossed: the line and column of the first byte past it.
  expect_unusable({"check", f},
                  f + ":2:1048565: the ruleset passes the limit of 1024 KiB here (2097165 bytes in all)");
  expect_unusable({"perft", "--depth", "1", "--rules", f}, f + ":2:1048565:");
  // A parent over the limit, reached through `extends`: located in the parent too (it said
  // "not a regular file of at most 1048576 bytes").
  std::string child = dir.write("child.rules", "ruleset child extends big\n");
  expect_unusable({"check", child},
                  child + ":1:23: error: cannot read ruleset file `" + f + "`: " + f +
                      ":2:1048565: the file passes the limit of 1024 KiB here (2097165 bytes in all)");
  // A perft suite over its limit: located the same way.
  std::string suite = dir.write("big.perft", "epd 8/8/8/8/8/8/8/K6k w - - 0 1\nperft 1 3\n" +
                                                 std::string(arb::kMaxSuiteBytes, '#') + "\n");
  expect_unusable({"perft", "--suite", suite},
                  suite + ":3:67108823: the perft suite passes the limit of 64 MiB here");
  // Numbers: too large is an error at file:line:col, and a Betza count never wraps to an
  // unlimited rider.
  dir.copy_ruleset("chess");
  f = dir.write("num.rules", "ruleset num extends chess\nboard 99999999999999999999 x 8\n");
  expect_unusable({"check", f}, f + ":2:7: error: number too large");
  f = dir.write("betza.rules", "ruleset betza extends chess\npiece rook R { betza \"W4294967296\" }\n");
  expect_unusable({"check", f}, "rider range too large");
  expect_unusable({"perft", "--depth", "1", "--set", "fifty-move=99999999999999999999"}, "number too large");
  // Past int32 but within 15 digits: named as --set, with the range a --set value can take.
  expect_unusable({"perft", "--depth", "1", "--set", "fifty-move=4294967396"},
                  "--set fifty-move=4294967396: must be between 0 and 2147483647");
}

// Numbers past 32 bits in a ruleset or an option are refused where they stand, never
// wrapped (4294967298 was read as rank 2, R*12345 as 1234 tiles).
TEST_F(Cli, RulesetNumbersNeverWrap) {
  TempDir dir;
  for (const char* v : {"chess", "chessme"}) dir.copy_ruleset(v);
  std::string chess = read_text(dir.path() + "/chess.rules");
  std::string f = dir.write("initial.rules",
                            "ruleset initial extends chess\npiece pawn P {\n  initial ranks 4294967298\n}\n");
  expect_unusable({"check", f}, f + ":3:17: error: rank 4294967298 is out of range");
  f = dir.write("range.rules",
                "ruleset range extends chess\npiece pawn P {\n  initial ranks 1..4294967298\n}\n");
  expect_unusable({"check", f}, f + ":3:17: error: rank 4294967298 is out of range");
  size_t at = chess.find("promote on rank 8");
  ASSERT_NE(at, std::string::npos);
  std::string promote = chess;
  promote.replace(at, 17, "promote on rank 4294967304");
  f = dir.write("promote.rules", promote);
  expect_unusable({"check", f}, "error: rank 4294967304 is out of range");
  std::string chessme = read_text(dir.path() + "/chessme.rules");
  at = chessme.find("P*4");
  ASSERT_NE(at, std::string::npos);
  std::string pile = chessme;
  pile.replace(at, 3, "R*12345");
  f = dir.write("pile.rules", pile);
  expect_unusable({"check", f}, "a count must be 1..999, found `12345` in `R*12345`");
  expect_unusable(
      {"synth", "--variant", "chessme", "--goal", "mate-in-1", "--origin", "(2147483647,2147483647)"},
      "reaches past coordinate 2147483647");
  // The ones that fit still work.
  Outcome ok = run({"check", dir.path() + "/chessme.rules"});
  EXPECT_EQ(ok.code, 0) << ok;
}

// A perft expectation runs within the command's node and time budget: `perft 12 = 1`
// used to run without end.
TEST_F(Cli, ExpectationsKeepTheBudget) {
  TempDir dir;
  dir.copy_ruleset("chess");
  std::string f =
      dir.write("deep.rules", "ruleset deep extends chess\nexpect {\n  perft 12 = 1\n  perft 3 = 8902\n}\n");
  auto t0 = std::chrono::steady_clock::now();
  Outcome r = run({"test", f, "--max-nodes", "1000000"});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10);
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_TRUE(contains(r.err, f + ":3:3: expectation failed: perft expected 1, got not counted: perft")) << r;
  EXPECT_TRUE(contains(r.err, "node budget of 1000000")) << r;
  EXPECT_TRUE(contains(r.out, "1 passed, 1 failed")) << r;
  // The default budget holds too (no option given).
  t0 = std::chrono::steady_clock::now();
  Outcome d = run({"test", f});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 60);
  EXPECT_EQ(d.code, 1) << d;
  EXPECT_TRUE(contains(d.err, "not counted")) << d;
  expect_unusable({"test", f, "--max-nodes", "-1"}, "--max-nodes `-1`");
}

std::string good_record(const TempDir& dir) {
  return dir.write("ok.pgn", "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 *\n");
}

// Values that used to be read as something else: a Chess 2 `[Seed]` that is no number
// (`abc`, `-7`, past 2^64) was some seed; the compiled No Stress Chess refused a
// `start:SEED` from 2^63 that the reference and --seed take.
TEST_F(Cli, SeedsAreNumbersOfTheirRange) {
  TempDir dir;
  for (const std::string seed : {"abc", "-7", "18446744073709551616"}) {
    std::string pgn = dir.write(
        "s.pgn", "[Event \"x\"]\n[Variant \"Chess 2\"]\n[Seed \"" + seed + "\"]\n[Result \"*\"]\n\n*\n");
    Outcome r = run({"validate", "--variant", "chess2", pgn});
    EXPECT_EQ(r.code, 1) << r;
    EXPECT_TRUE(contains(r.out, pgn + ":3:8:")) << r;
    EXPECT_TRUE(contains(r.out, "bad seed `" + seed + "`")) << r;
  }
  // A record file without a game checks nothing: exit 2, named.
  for (const char* text : {"", "; a comment\n{ and another }\n"}) {
    std::string none = dir.write("none.pgn", text);
    Outcome n = run({"validate", none, good_record(dir)});
    EXPECT_EQ(n.code, 2) << n;
    EXPECT_TRUE(contains(n.err, none + ": no games")) << n;
  }
  std::string good =
      dir.write("g.pgn", "[Event \"x\"]\n[Variant \"Chess 2\"]\n[Seed \"12\"]\n[Result \"*\"]\n\n*\n");
  Outcome g = run({"validate", "--variant", "chess2", good});
  EXPECT_EQ(g.code, 0) << g;
  for (const char* seed : {"9223372036854775808", "18446744073709551615"}) {
    std::string printed[2];
    int i = 0;
    for (const char* engine : {"compiled", "reference"}) {
      Outcome m = run({"moves", "--variant", "nostress", "--engine", engine, "--position",
                       std::string("start:") + seed, "--json"});
      ASSERT_EQ(m.code, 0) << m;
      printed[i++] = json::parse(m.out).at("position").get<std::string>();
    }
    EXPECT_EQ(printed[0], printed[1]) << seed;
  }
  expect_unusable({"moves", "--variant", "nostress", "--position", "start:18446744073709551616"},
                  "`start:SEED` needs a whole number");
}

TEST_F(Cli, StrayAndEmptyArguments) {
  expect_unusable({"perft", "--depth", "1", "stray"}, "unexpected argument `stray`");
  expect_unusable({"moves", "e2e4"}, "unexpected argument `e2e4`");
  expect_unusable({"fuzz", "--variant", "chess", "--games", "1", "extra"}, "unexpected argument `extra`");
  expect_unusable({"diff", "--rules", "rulesets/chess.rules", "--rules", "rulesets/chess.rules", "x"},
                  "unexpected argument `x`");
  expect_unusable({"perft", "--depth", "1", "--rules", ""}, "--rules needs a file name");
  expect_unusable({"perft", "--depth", "1", "--variant", ""}, "--variant needs a name");
  expect_unusable({"perft", "--depth", "1", "--variant", "../rulesets/chess"}, "not a path");
  expect_unusable({"perft", "--depth", "1", "--position", ""}, "--position needs a position text");
  expect_unusable({"test", "rulesets/chess.rules", "--junit", ""}, "--junit needs a file name");
  // An option the ruleset lacks, nothing near it: the options it has are listed.
  expect_unusable({"perft", "--depth", "1", "--set", "xyzzy=1"}, "hint: expected one of `");
  expect_unusable({"moves", "--fsf-variant", ""}, "--fsf-variant needs a value");
  expect_unusable({"perft", "--depth", "1", "--engine", "fairy-stockfish", "--fsf-engine", ""},
                  "--fsf-engine needs a value");
}

TEST_F(Cli, NumericOptionsAreRangeChecked) {
  expect_unusable({"perft", "--depth", "99999999999"}, "--depth `99999999999`: must be between 0 and 20");
  expect_unusable({"perft", "--depth", "-1"}, "--depth `-1`");
  expect_unusable({"perft", "--depth", "2x"}, "expected a number");
  expect_unusable({"perft", "--suite", "x.perft", "--max-nodes", "-1"}, "--max-nodes `-1`");
  expect_unusable({"fuzz", "--variant", "chess", "--games", "-1"}, "--games `-1`");
  expect_unusable({"fuzz", "--variant", "chess", "--games", "0"}, "--games `0`");
  expect_unusable({"fuzz", "--variant", "chess", "--seconds", "nan"}, "--seconds `nan`");
  expect_unusable({"fuzz", "--variant", "chess", "--seconds", "-5"}, "--seconds `-5`");
  expect_unusable({"fuzz", "--variant", "chess", "--seed", "-1"}, "--seed `-1`");
  expect_unusable({"fuzz", "--variant", "chess", "--jobs", "4294967297"}, "--jobs");
  expect_unusable({"fuzz", "--variant", "chess", "--max-divergences", "-1"}, "--max-divergences");
  expect_unusable({"diff", "--rules", "rulesets/chess.rules", "--rules", "rulesets/chess.rules",
                   "--max-differences", "18446744073709551615"},
                  "--max-differences");
  expect_unusable({"perft", "--depth", "5", "--timeout", "inf"}, "--timeout `inf`");
  expect_unusable({"moves", "--variant", "chessme", "--seed", "-1"}, "--seed `-1`");
  // One bound on threads for every command (arb::kMaxJobs): `validate --jobs 256` aborted.
  TempDir dir;
  std::string pgn = dir.write("g.pgn", "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 *\n");
  const std::string rules = "rulesets/chess.rules";
  for (const auto& args : std::vector<std::vector<std::string>>{{"validate", pgn},
                                                                {"fuzz"},
                                                                {"diff", "--rules", rules, "--rules", rules},
                                                                {"mutate", rules},
                                                                {"solve", "--depth", "1"}}) {
    auto a = args;
    a.insert(a.end(), {"--jobs", "65"});
    expect_unusable(a, "--jobs `65`: must be between 1 and 64");
  }
  Outcome v = run({"validate", pgn, "--jobs", "64"});
  EXPECT_EQ(v.code, 0) << v;
  EXPECT_TRUE(contains(v.out, "1 game: 1 valid")) << v;
}

TEST_F(Cli, TimeoutStopsEveryLongRun) {
  auto timed_out = [](const std::vector<std::string>& args) {
    auto t0 = std::chrono::steady_clock::now();
    Outcome r = run(args);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 1) << r;
    EXPECT_TRUE(contains(r.err, "--timeout")) << r;
    EXPECT_LT(secs, 20) << args[0];
  };
  timed_out({"perft", "--depth", "9", "--timeout", "0.5"});
  TempDir dir;
  std::string suite = dir.write("deep.perft",
                                "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                                "perft 9 2439530234167\n");
  timed_out({"perft", "--suite", suite, "--timeout", "0.5"});
  dir.copy_ruleset("chess");
  std::string deep =
      dir.write("deep.rules", "ruleset deep extends chess\nexpect {\n  perft 9 = 2439530234167\n}\n");
  // `test`: the expectation's perft is not started past the time --timeout leaves, so the
  // run ends with that line failed (and the JUnit file says so) rather than cut off.
  auto t0 = std::chrono::steady_clock::now();
  Outcome t = run({"test", deep, "--timeout", "0.5", "--max-nodes", "0", "--junit", dir.path() + "/out.xml"});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20);
  EXPECT_EQ(t.code, 1) << t;
  EXPECT_TRUE(contains(t.err, "would pass the time budget") || contains(t.err, "--timeout")) << t;
  if (std::filesystem::exists(dir.path() + "/out.xml")) {
    EXPECT_TRUE(contains(read_text(dir.path() + "/out.xml"), "failures=\"1\""))
        << read_text(dir.path() + "/out.xml");
  }
  timed_out(
      {"fuzz", "--variant", "chess", "--games", "100000000", "--timeout", "0.5", "--save-dir", dir.path()});
  timed_out({"diff", "--rules", "rulesets/chess.rules", "--rules", "rulesets/chess.rules", "--games",
             "100000000", "--timeout", "0.5"});
}

TEST_F(Cli, OutputsAreAtomicAndNeverOverwriteInputs) {
  TempDir dir;
  std::string rules = dir.copy_ruleset("chess");
  std::string before = read_text(rules);
  // --junit naming an input file: refused, the input unchanged.
  expect_unusable({"test", rules, "--junit", rules}, "refusing to overwrite it");
  expect_unusable({"diff", "--rules", rules, "--rules", rules, "--junit", rules}, "refusing to overwrite it");
  expect_unusable({"fuzz", "--rules", rules, "--games", "1", "--junit", rules}, "refusing to overwrite it");
  expect_unusable({"test", rules, "--junit", dir.path()}, "is a directory");
  EXPECT_EQ(read_text(rules), before);
  // Two runs writing the same report at once: each writes a whole file through its own
  // temporary, and none is left behind.
  std::string out = dir.path() + "/report.xml";
  std::string cmd =
      shell_quote(arbiter_path()) + " test " + shell_quote(rules) + " --junit " + shell_quote(out);
  int rc = std::system(("(" + cmd + " & " + cmd + " & wait) >/dev/null 2>&1").c_str());
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(contains(read_text(out), "</testsuites>"));
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_TRUE(e.path().filename() == "chess.rules" || e.path().filename() == "report.xml") << e.path();
}

// Outputs are regular files only: a FIFO, a device or a symbolic link at the path is
// refused by name (never replaced by a regular file); an input named as an output, an
// empty name or a folder that is a file is refused before any work; a write error on
// standard output is an error, not exit 0.
TEST_F(Cli, OutputsAreRegularFilesOnly) {
  TempDir dir;
  std::string rules = dir.copy_ruleset("chess");
  const std::string before = read_text(rules);
  const std::string fifo = dir.path() + "/fifo", link = dir.path() + "/link";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(symlink((dir.path() + "/target").c_str(), link.c_str()), 0);
  expect_unusable({"test", rules, "--junit", fifo}, "is a FIFO");
  expect_unusable({"test", rules, "--junit", link}, "is a symbolic link");
  expect_unusable({"test", rules, "--junit", "/dev/null"}, "is a device");
  expect_unusable({"diagram", "--variant", "chess", "--svg", fifo}, "is a FIFO");
  EXPECT_EQ(std::filesystem::status(fifo).type(), std::filesystem::file_type::fifo);
  EXPECT_TRUE(std::filesystem::is_symlink(std::filesystem::symlink_status(link)));
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/target"));
  // An input as the output: the ruleset given or the bundled one.
  expect_unusable({"diagram", "--rules", rules, "--svg", rules}, "refusing to overwrite it");
  expect_unusable({"diagram", "--variant", "chess", "--svg", "rulesets/chess.rules"},
                  "refusing to overwrite it");
  expect_unusable({"proofgame", "--rules", rules, "--svg", rules}, "refusing to overwrite it");
  expect_unusable({"puzzles", "--rules", rules, "--depth", "1", "--out", rules}, "refusing to overwrite it");
  EXPECT_EQ(read_text(rules), before);
  // A folder that is a file: refused up front (at once, not after the search).
  auto t0 = std::chrono::steady_clock::now();
  expect_unusable(
      {"puzzles", "--variant", "chess", "--depth", "3", "--count", "1000", "--out", rules + "/p.csv"},
      "is not a directory");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10);
  // fuzz saves its divergences after the run: a --save-dir that is a file is refused first.
  expect_unusable({"fuzz", "--variant", "chess", "--games", "1", "--save-dir", rules}, "is not a directory");
  expect_unusable({"fuzz", "--variant", "chess", "--games", "1", "--save-dir", rules + "/sub"},
                  "is not a directory");
  // Empty names are errors, not "not given".
  expect_unusable({"puzzles", "--variant", "chess", "--depth", "1", "--out", ""}, "--out needs a file name");
  expect_unusable({"diagram", "--variant", "chess", "--svg", ""}, "--svg needs a file name");
  expect_unusable({"proofgame", "--variant", "chess", "--svg", ""}, "--svg needs a file name");
  expect_unusable({"solve", "--variant", "chess", "--depth", "1", "--timeout", ""}, "--timeout ``");
  expect_unusable({"perft", "--depth", "1", "--timeout", ""}, "--timeout ``");
  // Standard output on a full device.
  int rc = std::system((shell_quote(arbiter_path()) + " perft --depth 1 --divide >/dev/full 2>" +
                        shell_quote(dir.path() + "/err"))
                           .c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 2);
  EXPECT_TRUE(contains(read_text(dir.path() + "/err"), "cannot write standard output"));
  // A regular file is still replaced.
  std::string svg = dir.write("old.svg", "old");
  Outcome ok = run({"diagram", "--variant", "chess", "--svg", svg});
  EXPECT_EQ(ok.code, 0) << ok;
  EXPECT_TRUE(contains(read_text(svg), "<svg")) << read_text(svg);
}

// Text read from input (a file name, a tag, a position) reaches the terminal escaped: no
// control character but newline and tab, and no byte that is not UTF-8; --json lines are
// valid UTF-8 JSON and the JUnit file valid XML whatever the bytes.
bool valid_utf8_without_controls(const std::string& s, bool allow_cr = false) {
  for (size_t i = 0; i < s.size();) {
    size_t len = arb::utf8_sequence(s, i);
    if (len == 0) return false;
    char32_t cp = arb::utf8_decode(s, i, len);
    if ((cp < 0x20 && cp != '\n' && cp != '\t' && !(allow_cr && cp == '\r')) || (cp >= 0x7F && cp <= 0x9F))
      return false;
    i += len;
  }
  return true;
}

TEST_F(Cli, TerminalOutputIsEscaped) {
  TempDir dir;
  const std::string name = "g\x1b[2J\xff\xc2\x9b.pgn";
  dir.write(name, "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Kxe8 *\n");
  Outcome t = run_arbiter({"validate", name}, dir.path());
  EXPECT_EQ(t.code, 1) << t;
  EXPECT_TRUE(valid_utf8_without_controls(t.out)) << t;
  EXPECT_TRUE(contains(t.out, "g\\x1b[2J\\xff\\xc2\\x9b.pgn:4:13:")) << t;
  Outcome j = run_arbiter({"validate", name, "--json"}, dir.path());
  EXPECT_EQ(j.code, 1) << j;
  EXPECT_TRUE(valid_utf8_without_controls(j.out)) << j;
  for (const auto& line : j.lines()) EXPECT_TRUE(json::accept(line)) << line;
  EXPECT_EQ(json::parse(j.lines().front()).at("file").get<std::string>(), "g\x1b[2J\xef\xbf\xbd\xc2\x9b.pgn");
  Outcome x = run_arbiter({"validate", name, "--junit", "j.xml"}, dir.path());
  EXPECT_EQ(x.code, 1) << x;
  std::string xml = read_text(dir.path() + "/j.xml");
  EXPECT_TRUE(valid_utf8_without_controls(xml)) << xml;
  EXPECT_TRUE(contains(xml, "</testsuites>")) << xml;
  // Error messages on stderr echo the input escaped.
  Outcome m = run({"moves", "--fen", "x\x1b[31m\x07"});
  EXPECT_EQ(m.code, 2) << m;
  EXPECT_TRUE(valid_utf8_without_controls(m.err)) << m;
  EXPECT_TRUE(contains(m.err, "x\\x1b[31m\\x07")) << m;
  // Well-formed UTF-8 passes unchanged; controls (C0, DEL, C1) are escaped, other bytes U+FFFD.
  EXPECT_EQ(arb::json_text(arb::Json("\xc3\xa9\xe2\x99\x94\x01\x7f\xc2\x9b\xc2\xa0\xff")),
            "\"\xc3\xa9\xe2\x99\x94\\u0001\\u007f\\u009b\xc2\xa0\xef\xbf\xbd\"");
}

// The commands draw what is there, never the empty expanse between far pieces (issue 29
// case 7: K(3000,3000) alone made a 747 MB SVG; a billion squares apart, every square was
// drawn): diagram, diagram --puzzles and a ChessMe position far from the origin.
TEST_F(Cli, DiagramsOfFarPiecesStaySmall) {
  TempDir dir;
  const std::string far = "k(1000000000,1),K(-1000000000,0) w -/- -/- -/- 1";
  for (const std::string& pos : {far, std::string("K(3000,3000),k(0,0) w -/- -/- -/- 1")}) {
    const std::string svg = dir.path() + "/far.svg";
    Outcome d = run({"diagram", "--variant", "chessme", "--position", pos, "--svg", svg});
    ASSERT_EQ(d.code, 0) << d;
    EXPECT_LT(std::filesystem::file_size(svg), 20000u) << pos;
  }
  const std::string csv = dir.write(
      "far.csv", "position,goal,depth,solution,variant,options\n\"" + far + "\",mate,1,,chessme,\n");
  const std::string html = dir.path() + "/far.html";
  Outcome p = run({"diagram", "--puzzles", csv, "--html", html});
  ASSERT_EQ(p.code, 0) << p;
  EXPECT_LT(std::filesystem::file_size(html), 40000u);
}

// Whether this build runs under AddressSanitizer (HugeHashOnASmallProofGameStartsSmall cannot: its
// memory limit and AddressSanitizer do not go together). Asked of the binary, not of the
// compiler: the test sources are compiled without the instrumentation (tests/CMakeLists.txt),
// but the test binary links AddressSanitizer's runtime, which defines __asan_init.
extern "C" __attribute__((weak)) void __asan_init();
bool asan_build() {
  return &__asan_init != nullptr;
}

// proofgame's transposition table starts at 256 KiB and grows with the work up to --hash
// (it zero-filled all of --hash up front: 64 GiB asked for on a 4-ply search was a bare
// std::bad_alloc, or minutes of page faults). Under `ulimit -v` of 1 GB a 4-ply search with
// --hash 65536 runs and proves its answer in well under the limit. Not under
// AddressSanitizer: it cannot start under `ulimit -v` (it reserves terabytes of shadow
// address space).
TEST_F(Cli, HugeHashOnASmallProofGameStartsSmall) {
  if (asan_build()) GTEST_SKIP() << "AddressSanitizer cannot run under ulimit -v";
  TempDir dir;
  const auto t0 = std::chrono::steady_clock::now();
  int rc = std::system(("cd " + shell_quote(std::string(arbiter_source_dir())) + " && (ulimit -v 1000000; " +
                        shell_quote(arbiter_path()) +
                        " proofgame --variant chess --goal mate --max-plies 4 --beam 0 --hash 65536 >" +
                        shell_quote(dir.path() + "/out") + " 2>" + shell_quote(dir.path() + "/err") + ")")
                           .c_str());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 0) << read_text(dir.path() + "/err");
  EXPECT_TRUE(contains(read_text(dir.path() + "/out"), "mate in 4 plies (shortest"))
      << read_text(dir.path() + "/out");
  EXPECT_FALSE(contains(read_text(dir.path() + "/err"), "cannot allocate"));
  EXPECT_LT(seconds, 20.0);  // 0.1 s measured; a 64 GiB zero-fill would not finish (nor fit)
}

// mutate leaves no temporary folder behind when --timeout or a signal ends it.
TEST_F(Cli, MutateCleansUpOnTimeoutAndSignal) {
  TempDir tmp;
  const std::string env = "cd " + shell_quote(std::string(arbiter_source_dir())) +
                          " && TMPDIR=" + shell_quote(tmp.path()) + " " + shell_quote(arbiter_path()) +
                          " mutate rulesets/chess.rules --games 100000";
  int rc = std::system((env + " --timeout 0.2 >/dev/null 2>&1").c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 1);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
  for (const char* sig : {"TERM", "INT"}) {
    // (A background job of a script ignores SIGINT unless it resets it: `trap - INT`.)
    rc = std::system(("(trap - INT; " + env + " >/dev/null 2>&1) & p=$!; sleep 0.3; kill -" + sig +
                      " $p 2>/dev/null; wait $p; exit $?")
                         .c_str());
    EXPECT_TRUE(std::filesystem::is_empty(tmp.path())) << sig;
  }
}

TEST_F(Cli, FuzzNeverWritesIntoTheSourceTree) {
  // A divergence is saved in the current directory by default (here: a scratch directory),
  // not under corpus/regressions/ of the source tree.
  TempDir dir;
  dir.copy_ruleset("chess");
  std::string noep = read_text(dir.path() + "/chess.rules");
  size_t at = noep.find("fmWfceFifmnD");
  ASSERT_NE(at, std::string::npos);
  noep.replace(at, 12, "fmWfcFifmnD");
  std::string mutant = dir.write("mutant.rules", noep);
  auto before = std::distance(
      std::filesystem::directory_iterator(std::string(arbiter_source_dir()) + "/corpus/regressions"),
      std::filesystem::directory_iterator());
  Outcome r = run_arbiter({"fuzz", "--rules", mutant, "--games", "300", "--seed", "1"}, dir.path());
  EXPECT_EQ(r.code, 1) << r;  // chess without en passant diverges from the reference engine
  bool saved = false;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    saved |= e.path().filename().string().rfind("chess-", 0) == 0;
  EXPECT_TRUE(saved) << r;
  auto after = std::distance(
      std::filesystem::directory_iterator(std::string(arbiter_source_dir()) + "/corpus/regressions"),
      std::filesystem::directory_iterator());
  EXPECT_EQ(before, after);
}

// synth --timeout holds within a second, the encoding's construction included (a Two
// Kings against Animals mate-in-1 took 12.9 s with --timeout 2), and the window is bounded
// (a 64x64 ChessMe window ran out of memory).
TEST_F(Cli, SynthTimeoutHolds) {
  auto t0 = std::chrono::steady_clock::now();
  Outcome r = run({"synth", "--variant", "chess2", "--set", "white-army=two-kings", "--set",
                   "black-army=animals", "--goal", "mate-in-1", "--timeout", "1"});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r;
  EXPECT_TRUE(contains(r.err, "--timeout")) << r;
  EXPECT_LT(secs, 3.0) << r;  // the second the brief allows, and room for a loaded machine
  // Self-play puzzles say so too.
  Outcome sp = run({"puzzles", "--variant", "chess", "--depth", "3", "--count", "100", "--timeout", "0.5"});
  EXPECT_EQ(sp.code, 3) << sp;
  EXPECT_TRUE(contains(sp.err, "; stopped at --timeout")) << sp;
  Outcome mg = run({"puzzles", "--variant", "chess", "--depth", "1", "--count", "100", "--max-games", "1"});
  EXPECT_EQ(mg.code, 3) << mg;
  EXPECT_TRUE(contains(mg.err, "; stopped at --max-games 1")) << mg;
  // puzzles --from synth gets the same clock, and says that Z3 stopped there (exit 3:
  // fewer puzzles than asked for).
  t0 = std::chrono::steady_clock::now();
  Outcome p =
      run({"puzzles", "--from", "synth", "--variant", "chess2", "--set", "white-army=two-kings", "--set",
           "black-army=animals", "--goal", "mate", "--depth", "1", "--count", "5", "--timeout", "1"});
  secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(p.code, 3) << p;
  EXPECT_TRUE(contains(p.err, "Z3 stopped at --timeout")) << p;
  EXPECT_LT(secs, 3.0) << p;
  expect_unusable({"synth", "--variant", "chessme", "--goal", "mate-in-1", "--window", "64x64"},
                  "at most 576 squares");
  expect_unusable({"synth", "--variant", "chess", "--goal", "mate-in-1", "--timeout", ""}, "--timeout ``");
}

// `arbiter synth --discard`: No Stress Chess discard piles for Again cards. Bad text is
// exit 2 with the fault named; a good one prints the piles in the position and, for an
// impossible request over chosen piles, what the proof covered.
TEST_F(Cli, SynthDiscardPiles) {
  const std::vector<std::string> base = {"synth",  "--variant", "nostress", "--set", "level=1",
                                         "--goal", "mate-in-1", "--window", "3x3",   "--material",
                                         "KR v K", "--hands",   "A/-"};
  const std::pair<std::string, std::string> bad[] = {{"RA", "must read WHITE/BLACK"},
                                                     {"RX/-", "`X` in White's pile is no card"},
                                                     {"-/", "Black's pile is missing"},
                                                     {"AAAAAA/-", "7 A cards; the deck has 6"}};
  for (const auto& [text, message] : bad) {
    auto args = base;
    args.insert(args.end(), {"--discard", text});
    Outcome r = run(args);
    EXPECT_EQ(r.code, 2) << r;
    EXPECT_TRUE(r.out.empty()) << r;
    EXPECT_TRUE(contains(r.err, message)) << r;
  }
  Outcome chess = run({"synth", "--variant", "chess", "--goal", "mate-in-1", "--discard", "-/-"});
  EXPECT_EQ(chess.code, 2) << chess;
  EXPECT_TRUE(contains(chess.err, "only No Stress Chess has discard piles")) << chess;
  auto good = base;
  good.insert(good.end(), {"--discard", "ra/-"});
  Outcome g = run(good);
  EXPECT_EQ(g.code, 0) << g;
  EXPECT_TRUE(contains(g.out, " wdiscard:RA bdiscard:- whand:A ")) << g;
  EXPECT_TRUE(contains(g.out, "key A:")) << g;
  // Piles chosen by Z3 around a board where nothing reaches the king: the proof says it
  // covered every pile.
  Outcome u = run({"synth", "--variant", "nostress", "--set", "level=1", "--goal", "mate-in-1", "--window",
                   "3x3", "--material", "KB v K", "--hands", "A/-", "--square", "a1=K", "--square", "c3=k",
                   "--square", "b2=."});
  EXPECT_EQ(u.code, 0) << u;
  EXPECT_TRUE(contains(u.out, "proved impossible")) << u;
  EXPECT_TRUE(contains(u.out, "every discard pile of White and Black")) << u;
}

}  // namespace

// Four runs appending to one puzzle file at once keep every puzzle (issue 29: 3 of 12 were
// kept, each run having read the file before its search and written it after): each merges
// under a lock.
TEST_F(Cli, ConcurrentAppendsKeepEveryPuzzle) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("arbiter-append-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string out = (dir / "p.csv").string();
  std::string cmd = "cd " + shell_quote(arbiter_source_dir()) + " && (";
  for (int seed = 1; seed <= 4; ++seed)
    cmd += shell_quote(arbiter_path()) + " puzzles --goal mate --depth 1 --count 3 --append --seed " +
           std::to_string(seed) + " --out " + shell_quote(out) + " 2>/dev/null & ";
  cmd += "wait)";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  auto rows_of = [](std::istream& in) {
    std::set<std::string> rows;
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line))
      if (!line.empty()) rows.insert(line);
    return rows;
  };
  std::ifstream in(out);
  const std::set<std::string> appended = rows_of(in);
  // The same runs one at a time (puzzles are a function of the seed), kept once each.
  std::set<std::string> alone;
  for (int seed = 1; seed <= 4; ++seed) {
    Outcome r =
        run({"puzzles", "--goal", "mate", "--depth", "1", "--count", "3", "--seed", std::to_string(seed)});
    std::istringstream ls(r.out);
    for (const auto& row : rows_of(ls)) alone.insert(row);
  }
  EXPECT_GE(alone.size(), 3u);
  EXPECT_EQ(appended, alone);
  fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------
// The progress line (arbiter/progress.hpp): done/total, rate, ETA, on a terminal only.

TEST(ProgressLine, Text) {
  EXPECT_EQ(arb::progress_text("solve", "problems", 3, 12, 2.0, "1 solved"),
            "solve: 3/12 problems (25%), 1.50 problems/s, ETA 0m06s, 1 solved");
  // No total: no percentage and no ETA unless another measure gives the share done.
  EXPECT_EQ(arb::progress_text("validate", "games", 500, 0, 4.0), "validate: 500 games, 125 games/s");
  EXPECT_EQ(arb::progress_text("validate", "games", 500, 0, 4.0, "0 invalid", 0.5),
            "validate: 500 games (50%), 125 games/s, ETA 0m04s, 0 invalid");
  EXPECT_EQ(arb::progress_text("fuzz", "games", 0, 10, 0.0), "fuzz: 0/10 games (0%), 0.00 games/s, ETA ?");
  EXPECT_EQ(arb::progress_text("synth", "positions", 1, 2, 7200.0),
            "synth: 1/2 positions (50%), 0.00 positions/s, ETA 2h00m");
}

// ARBITER_PROGRESS=1 forces the terminal path on a pipe: the line names done/total, the
// rate and the ETA; --json never has it, and a pipe without the variable neither.
TEST_F(Cli, ProgressLineOnlyOnATerminal) {
  TempDir dir;
  const std::string epd = dir.write("p.epd",
                                    "6k1/R7/6K1/8/8/8/8/8 w - - 0 1;#1\n"
                                    "2k5/8/2K5/8/8/8/8/1R6 w - - 0 1;#1\n");
  const std::string suite = dir.write("s.perft",
                                      "id start\n"
                                      "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
                                      "perft 2 400\n"
                                      "id kiwi\n"
                                      "epd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n"
                                      "perft 1 48\n");
  ::setenv("ARBITER_PROGRESS", "1", 1);
  Outcome solve = run({"solve", "--epd", epd});
  Outcome perft = run({"perft", "--suite", suite});
  Outcome json = run({"solve", "--epd", epd, "--json"});
  ::setenv("ARBITER_PROGRESS", "0", 1);
  Outcome off = run({"solve", "--epd", epd});
  ::unsetenv("ARBITER_PROGRESS");
  Outcome piped = run({"perft", "--suite", suite});
  ASSERT_EQ(solve.code, 0) << solve;
  EXPECT_TRUE(contains(solve.err, "\rsolve: 2/2 problems (100%), ")) << solve;
  EXPECT_TRUE(contains(solve.err, " problems/s, ETA 0m00s")) << solve;
  EXPECT_TRUE(contains(solve.err, "\r\033[K")) << solve;  // cleared before the report
  ASSERT_EQ(perft.code, 0) << perft;
  EXPECT_TRUE(contains(perft.err, "\rperft: 2/2 positions (100%), ")) << perft;
  EXPECT_TRUE(contains(perft.err, "2 checks, 0 failed")) << perft;
  ASSERT_EQ(json.code, 0) << json;
  EXPECT_FALSE(contains(json.err, "\r")) << json;
  EXPECT_FALSE(contains(off.err, "\r")) << off;
  ASSERT_EQ(piped.code, 0) << piped;
  EXPECT_FALSE(contains(piped.err, "\r")) << piped;
}
