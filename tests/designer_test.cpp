// Designer variants: rulesets no bundled file contains (corpus/rulesets/), checked the way
// a bundled game is, and the generic parts below the language they rely on: SAN that
// reads back for every ruleset, and dead positions judged from the pieces' movement.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "arbiter/notation.hpp"
#include "arbiter/solver.hpp"
#include "helpers.hpp"
#include "process.hpp"

namespace {

using namespace testing_helpers;
namespace fs = std::filesystem;
using arb::Action;
using arb::Engine;

struct Game {
  std::string label;  // file and options, for messages
  std::shared_ptr<const arb::lang::Program> program;
};

std::shared_ptr<const arb::lang::Program> compile_at(const std::string& path,
                                                     const std::map<std::string, std::string>& options) {
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(path, options, diags);
  EXPECT_FALSE(diags.has_errors()) << path << "\n" << diags.render();
  return c.program;
}

// Every bundled ruleset with its default options, No Stress Chess at each level, Chess 2
// with several army pairs, and every ruleset of corpus/rulesets/ (the designer variants).
const std::vector<Game>& games() {
  static const std::vector<Game> all = [] {
    std::vector<Game> out;
    auto add = [&](const fs::path& path, const std::map<std::string, std::string>& options) {
      std::string label = path.filename().string();
      for (const auto& [k, v] : options) label += " " + k + "=" + v;
      if (auto p = compile_at(path.string(), options)) out.push_back({label, p});
    };
    std::vector<fs::path> files;
    for (const char* dir : {"rulesets", "corpus/rulesets"})
      for (const auto& e : fs::directory_iterator(source_path(dir)))
        if (e.path().extension() == ".rules") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      add(f, {});
      if (f.stem() == "nostress")
        for (const char* level : {"1", "2", "advanced"}) add(f, {{"level", level}});
      if (f.stem() == "chess2")
        for (auto [w, b] : std::vector<std::pair<const char*, const char*>>{
                 {"nemesis", "reaper"}, {"empowered", "animals"}, {"two-kings", "classic"}})
          add(f, {{"white-army", w}, {"black-army", b}});
    }
    return out;
  }();
  return all;
}

const Game* game_named(const std::string& label) {
  for (const Game& g : games())
    if (g.label == label) return &g;
  return nullptr;
}

// ---------------------------------------------------------------------------------------
// SAN is generic: in every position of every ruleset, the SAN of each legal action is
// distinct from the others' and reads back (parse_action) to that very action.

void san_reads_back(Engine& e) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  std::vector<arb::ActionInfo> infos;
  for (const Action& a : actions) infos.push_back(e.describe(a));
  std::set<std::string> seen;
  for (const Action& a : actions) {
    const std::string text = arb::san(e, a, infos);
    RC_ASSERT(seen.insert(text).second);  // no two actions print alike
    auto back = arb::parse_action(e, text);
    if (!back || !(*back == a)) RC_LOG(e.position() + ": `" + text + "` does not read back");
    RC_ASSERT(back.has_value());
    RC_ASSERT(*back == a);
  }
}

RC_GTEST_PROP(DesignerSan, EveryPrintedSanReadsBackInEveryRuleset, ()) {
  const auto& all = games();
  RC_PRE(!all.empty());
  const Game& g = all[*rc::gen::inRange<size_t>(0, all.size())];
  RC_LOG(g.label);
  auto e = arb::lang::make_compiled_engine(g.program);
  std::mt19937_64 rng(*rc::gen::arbitrary<uint64_t>());
  const int plies = *rc::gen::inRange(0, 40);
  std::vector<Action> actions;
  for (int i = 0; i < plies && !e->chance(); ++i) {
    e->legal_actions(actions);
    if (actions.empty()) break;
    e->apply(actions[rng() % actions.size()]);
  }
  RC_LOG(e->position());
  if (!e->chance()) san_reads_back(*e);
}

TEST(DesignerSan, BerolinaPawnsSharingATargetAreDisambiguated) {
  const Game* g = game_named("berolina.rules");
  ASSERT_NE(g, nullptr);
  auto e = arb::lang::make_compiled_engine(g->program);
  e->set_position(kChessStart);
  // b3 is reached by the pawns a2 and c2 (one diagonal step each), c4 by a2 and e2 (two).
  std::vector<Action> actions;
  e->legal_actions(actions);
  std::map<std::string, std::string> san_of;  // canonical -> SAN
  for (const Action& a : actions) san_of[canonical(*e, a)] = arb::san(*e, a);
  EXPECT_EQ(san_of["a2b3"], "ab3");
  EXPECT_EQ(san_of["c2b3"], "cb3");
  EXPECT_EQ(san_of["a2c4"], "ac4");
  EXPECT_EQ(san_of["e2c4"], "ec4");
  EXPECT_EQ(san_of["b2a3"], "a3");                        // only b2 reaches a3
  EXPECT_FALSE(arb::parse_action(*e, "b3").has_value());  // ambiguous: refused, not guessed
  // A straight capture names its file, as every pawn capture does.
  e->set_position("4k3/8/8/8/8/3p4/3P4/4K3 w - - 0 1");
  e->legal_actions(actions);
  bool found = false;
  for (const Action& a : actions)
    if (canonical(*e, a) == "d2d3") {
      EXPECT_EQ(arb::san(*e, a), "dxd3");
      found = true;
    }
  EXPECT_TRUE(found);
}

// ---------------------------------------------------------------------------------------
// Dead positions are judged from the pieces' movement.

TEST(DesignerDeadPositions, KnightmateKingAndBishopAgainstKingIsNotDead) {
  const Game* g = game_named("knightmate.rules");
  ASSERT_NE(g, nullptr);
  auto e = arb::lang::make_compiled_engine(g->program);
  // The royal pieces move as knights: the black king a8 can go to b6 and c7 only, both
  // covered by the white king d5; Bb7 checks along the diagonal: mate.
  e->set_position("k7/8/B7/3K4/8/8/8/8 w - - 0 1");
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  ASSERT_TRUE(play(*e, "Bb7"));
  EXPECT_EQ(e->status().reason, "checkmate");
  // Nor is a bare royal knight against a bare royal knight declared dead: nothing is
  // decided for these pieces, so nothing is declared.
  e->set_position("k7/8/8/8/8/8/8/7K w - - 0 1");
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
}

TEST(DesignerDeadPositions, AKingSpelledOtherwiseIsStillAKingAndOtherEndsLeaveItOpen) {
  TempDir dir;
  // The royal piece spelled "WF": the same movement as "K", so the rule is decided.
  std::string wf = dir.write("wf.rules",
                             "ruleset wf extends chess\npiece king K { betza \"WF\"; royal }\n"
                             "piece knight N { betza \"N\" }\n");
  auto p = compile_at(wf, {});
  ASSERT_NE(p, nullptr);
  auto e = arb::lang::make_compiled_engine(p);
  e->set_position("k7/8/B7/3K4/8/8/8/8 w - - 0 1");
  EXPECT_EQ(e->status().reason, "insufficient-material");
  // With a royal capture as a win, K+B v K can end: nothing is declared, and the compiler
  // says so at the statement.
  std::string rc = dir.write("rc.rules",
                             "ruleset rc extends chess\nlegal { }\n"
                             "end { checkmate -> loss; stalemate -> draw; insufficient-material -> draw; "
                             "royal-capture -> win }\n");
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(rc, {}, diags);
  ASSERT_NE(c.program, nullptr) << diags.render();
  EXPECT_NE(diags.render().find("is not decided for this ruleset: capturing a royal piece wins"),
            std::string::npos)
      << diags.render();
  auto r = arb::lang::make_compiled_engine(c.program);
  r->set_position("k7/8/B7/3K4/8/8/8/8 w - - 0 1");
  EXPECT_EQ(r->status().result, arb::Result::Ongoing);
  // Chess itself keeps its dead positions.
  auto chess = compiled_at("chess", "k7/8/B7/3K4/8/8/8/8 w - - 0 1");
  EXPECT_EQ(chess->status().reason, "insufficient-material");
  chess->set_position("k7/8/8/8/8/8/8/b5BK w - - 0 1");  // bishops a1 and g1: one colour
  EXPECT_EQ(chess->status().reason, "insufficient-material");
  chess->set_position("k7/8/8/8/8/8/8/1b4BK w - - 0 1");  // b1 and g1: both colours, a mate exists
  EXPECT_EQ(chess->status().result, arb::Result::Ongoing);
}

// ---------------------------------------------------------------------------------------
// The solver on designer rulesets, through the command a designer runs.

TEST(DesignerSolve, MatesInTheDesignersOwnRules) {
  using testing_process::run_arbiter;
  // Knightmate: Bb7 mates the royal knight a8 (its squares b6 and c7 are the white royal
  // knight's), and no mate is shorter than one move.
  auto km = run_arbiter({"solve", "--rules", source_path("corpus/rulesets/knightmate.rules"), "--position",
                         "k7/8/B7/3K4/8/8/8/8 w - - 0 1", "--goal", "mate", "--depth", "2", "--json"});
  ASSERT_EQ(km.code, 0) << km;
  EXPECT_NE(km.last_line().find("\"result\":\"win\",\"moves\":1,\"line\":[\"a6b7\"]"), std::string::npos)
      << km;
  // The same position in chess is a dead draw: no mate at any depth, proved at once.
  auto chess = run_arbiter({"solve", "--variant", "chess", "--position", "k7/8/B7/3K4/8/8/8/8 w - - 0 1",
                            "--goal", "mate", "--depth", "2", "--json"});
  ASSERT_EQ(chess.code, 0) << chess;
  EXPECT_NE(chess.last_line().find("\"result\":\"none\""), std::string::npos) << chess;
  // Berolina: the pawn g6 takes straight ahead, so it guards g7, and Ra8 mates the king h8
  // (g8 is the rook's, h7 its own pawn's). In chess the pawn guards f7 and h7, the king
  // escapes to g7: no mate in one.
  for (auto [rules, want] : std::vector<std::pair<std::string, std::string>>{
           {source_path("corpus/rulesets/berolina.rules"),
            "\"result\":\"win\",\"moves\":1,\"line\":[\"a1a8\"],\"keys\":[\"a1a8\"]"},
           {ruleset_path("chess"), "\"result\":\"none\""}}) {
    auto r = run_arbiter({"solve", "--rules", rules, "--position", "7k/7p/6P1/8/8/8/8/R5K1 w - - 0 1",
                          "--goal", "mate", "--depth", "1", "--all-keys", "--json"});
    ASSERT_EQ(r.code, 0) << r;
    EXPECT_NE(r.last_line().find(want), std::string::npos) << rules << "\n" << r;
  }
}

// ---------------------------------------------------------------------------------------
// Proof games on each designer variant: the shortest game to the goal, proved shortest,
// and the final position has the goal's status on a fresh engine.

TEST(DesignerProofgame, ShortestGamesToEachVariantsEnd) {
  using testing_process::run_arbiter;
  struct Case {
    const char* file;
    const char* goal;
    const char* max_plies;
    int plies;
    const char* status;  // what `moves` says of the final position
  };
  const std::vector<Case> cases = {
      {"knightmate.rules", "mate", "4", 4, "checkmate"},  // 1.Kf3 e5 2.Qe1 Qf6#
      {"berolina.rules", "mate", "4", 5, "checkmate"},    // 1.de3 h6 2.Qd6 fg6 3.Qxg6#
      {"nostress-plain4.rules", "reason:royal-capture", "4", 4, "royal-capture"},
      {"chessme-hand4.rules", "mate", "3", 4, "checkmate"},
  };
  for (const Case& c : cases) {
    if (fast() && std::string(c.file) == "chessme-hand4.rules") continue;  // 4 s unsanitized
    const std::string rules = source_path(std::string("corpus/rulesets/") + c.file);
    auto r =
        run_arbiter({"proofgame", "--rules", rules, "--goal", c.goal, "--max-plies", c.max_plies, "--json"});
    ASSERT_EQ(r.code, 0) << c.file << "\n" << r;
    const std::string j = r.last_line();
    EXPECT_NE(j.find("\"plies\":" + std::to_string(c.plies) + ","), std::string::npos) << c.file << "\n" << j;
    EXPECT_NE(j.find("\"proved_shortest\":true"), std::string::npos) << c.file << "\n" << j;
    const size_t at = j.find("\"final\":\"");
    ASSERT_NE(at, std::string::npos) << j;
    const std::string final_pos = j.substr(at + 9, j.find('"', at + 9) - (at + 9));
    auto m = run_arbiter({"moves", "--rules", rules, "--position", final_pos, "--json"});
    EXPECT_NE(m.out.find(std::string("\"reason\":\"") + c.status + "\""), std::string::npos) << c.file << "\n"
                                                                                             << m;
  }
}

// ---------------------------------------------------------------------------------------
// Game records of a designer's variant: `arbiter validate --rules FILE`.

TEST(DesignerValidate, RecordsAreJudgedByTheDesignersRules) {
  using testing_process::run_arbiter;
  TempDir dir;
  // Valid in Knightmate (the royal knights hop out: 2.Kf3 and 2...Kd6), not in chess.
  std::string good =
      dir.write("good.pgn", "[Event \"km\"]\n[Result \"*\"]\n\n1. e4 e5 2. Kf3 Kd6 3. Kxe5 Ke8 *\n");
  // Invalid in Knightmate: the royal piece does not step like a king.
  std::string bad = dir.write("bad.pgn", "[Event \"km\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke2 *\n");
  const std::string km = source_path("corpus/rulesets/knightmate.rules");
  auto ok = run_arbiter({"validate", "--rules", km, "--json", good});
  EXPECT_EQ(ok.code, 0) << ok;
  EXPECT_NE(ok.out.find("\"valid\":true"), std::string::npos) << ok;
  auto as_chess = run_arbiter({"validate", "--variant", "chess", good});
  EXPECT_EQ(as_chess.code, 1) << as_chess;
  auto wrong = run_arbiter({"validate", "--rules", km, bad});
  EXPECT_EQ(wrong.code, 1) << wrong;
  // Explained by the engine's movement, not chess's: the royal knight cannot reach e2.
  EXPECT_NE(wrong.out.find("ply 3 `Ke2`: no king (e1) can reach e2 [no-piece-reaches]"), std::string::npos)
      << wrong;
  // A hop onto a square the rook d8 attacks leaves the royal piece attacked.
  std::string into = dir.write("into.pgn",
                               "[Event \"km\"]\n[SetUp \"1\"]\n[FEN \"3r1k2/8/8/8/8/8/8/4K3 w - - 0 1\"]\n"
                               "[Result \"*\"]\n\n1. Kd3 *\n");
  auto check = run_arbiter({"validate", "--rules", km, into});
  EXPECT_EQ(check.code, 1) << check;
  EXPECT_NE(
      check.out.find(
          "`Kd3`: it leaves the royal piece attacked (the king would stand attacked on d3) [king-in-check]"),
      std::string::npos)
      << check;
  // A ruleset that does not exist is unusable input.
  auto missing = run_arbiter({"validate", "--rules", dir.path() + "/none.rules", good});
  EXPECT_EQ(missing.code, 2) << missing;
}

// ---------------------------------------------------------------------------------------
// The differential checker on designer variants: each against an independent engine (the
// No Stress Chess and ChessMe references told the ruleset's deck, tiles and hand; Knightmate
// against Fairy-Stockfish, tests/fsf_test.cpp).

TEST(DesignerFuzz, DesignersDecksAndHandsAgreeWithTheReferences) {
  using testing_process::run_arbiter;
  for (const char* file : {"nostress-plain4.rules", "chessme-hand4.rules"}) {
    auto r = run_arbiter({"fuzz", "--rules", source_path(std::string("corpus/rulesets/") + file), "--games",
                          fast() ? "6" : "30", "--seed", "7"});
    EXPECT_EQ(r.code, 0) << file << "\n" << r;
    EXPECT_NE(r.out.find("no divergence"), std::string::npos) << file << "\n" << r;
    EXPECT_NE(r.out.find("against reference"), std::string::npos) << file << "\n" << r;
  }
}

// Perft counts another program established (its name and command beside each list).
struct PerftCase {
  const char* fen;
  int depth;
  uint64_t nodes;
};
void expect_perft(const Game& g, const std::vector<PerftCase>& cases) {
  auto e = arb::lang::make_compiled_engine(g.program);
  for (const PerftCase& c : cases) {
    e->set_position(c.fen);
    if (fast() && c.nodes > perft_budget(UINT64_MAX)) continue;
    EXPECT_EQ(e->perft(c.depth), c.nodes) << g.label << ": " << c.fen << " depth " << c.depth;
  }
}

// ---------------------------------------------------------------------------------------
// Knightmate against Fairy-Stockfish 11.1 (Debian's `fairy-stockfish`, UCI_Variant
// knightmate, `go perft N`), counts measured 2026-11-26 and stored here.

TEST(DesignerKnightmate, PerftAgreesWithFairyStockfish) {
  const Game* g = game_named("knightmate.rules");
  ASSERT_NE(g, nullptr);
  const std::vector<PerftCase> cases = {
      {"rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", 1, 18},
      {"rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", 2, 324},
      {"rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", 3, 6765},
      {"rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1", 4, 139774},
      // Random-play positions (arbiter's generator chose the moves; Fairy-Stockfish counted).
      {"r1bq1bmr/1m1ppp1p/ppp2k2/6p1/2P2P2/BP4P1/P2PP1MP/RM1QKB1R w KQ - 0 7", 3, 20852},
      {"rmb1k1mr/p2p4/4p1pp/qpP2p1P/P1P5/3P2PB/Mb2PP1K/R1BQ2MR b kq - 4 13", 3, 50419},
      {"r1m3mr/p1p1Qpbp/1p4p1/4p2P/1P2P1P1/K1p3kB/PBMP1q2/R5MR w - - 3 21", 3, 58221},
      {"5mm1/rpp1b2r/4pkpp/7P/p4PM1/PPMKP1P1/4P1b1/R1B5 w - - 0 31", 3, 18989},
  };
  expect_perft(*g, cases);
}

// ---------------------------------------------------------------------------------------
// Berolina against current Fairy-Stockfish (npm fairy-stockfish-nnue.wasm 1.1.12, UCI_Variant
// berolina, `go perft N`; Debian's 11.1 has no berolina), counts measured 2026-11-27 and
// stored here. The first comparison found the ruleset without en passant, which Berolina
// chess has (a diagonal double step taken by the pawn straight ahead of the square passed):
// 45,759 here against 45,761 from the first position below, one `e7c5` reply apart.

TEST(DesignerBerolina, PerftAgreesWithFairyStockfish) {
  const Game* g = game_named("berolina.rules");
  ASSERT_NE(g, nullptr);
  const std::vector<PerftCase> cases = {
      {kChessStart, 3, 28328},
      {kChessStart, 4, 882717},
      {kChessStart, 5, 29119802},
      // Random-play positions (arbiter's generator chose the moves; Fairy-Stockfish counted).
      {"rnbqkbnr/1p2p1pp/1p4p1/1p2p3/2B1P3/4PP2/PP1P2PP/RNBQK1NR w KQkq - 0 5", 3, 45761},
      {"rnbqkb1r/pp2pp1p/1p5n/1p2P3/RP3p2/1P6/1BP1PPPP/1N1QKBNR b Kkq - 0 6", 3, 63327},
      {"rnbqkb1r/pp2pp1p/1p5n/1p2P3/RP3p2/1P6/1BP1PPPP/1N1QKBNR b Kkq - 0 6", 4, 2596274},
      {"rn1q1b1r/Rppbpk1p/1pp2npp/8/6P1/1P2P3/1PPP1KPP/1NB1QBNR b - - 0 8", 3, 42197},
      {"rn2kbnr/p3p1pp/b5p1/B3p3/2PpP1p1/4P1P1/4P1PP/RN1QKBNR w KQkq - 0 9", 3, 32707},
  };
  expect_perft(*g, cases);
}

// ---------------------------------------------------------------------------------------
// Every designer variant through `validate` and `solve`, on games its own engine plays.

const char* const kDesignerFiles[] = {"knightmate.rules", "berolina.rules", "nostress-plain4.rules",
                                      "chessme-hand4.rules"};

// A random game of `plies` turns from the ruleset's start (fewer when it ends), as actions.
std::vector<Action> random_game(Engine& e, std::mt19937_64& rng, int plies) {
  std::vector<Action> line, actions;
  for (int i = 0; i < plies && !e.chance(); ++i) {
    e.legal_actions(actions);
    if (actions.empty()) break;
    line.push_back(actions[rng() % actions.size()]);
    e.apply(line.back());
  }
  return line;
}

// A record of a random game is valid under the ruleset that played it; the same record
// with one action replaced by a word no legal action has is invalid at that ply.
TEST(DesignerValidate, RandomGamesOfEveryDesignerVariantAreValidAndAFaultIsFound) {
  using testing_process::run_arbiter;
  TempDir dir;
  std::mt19937_64 rng(20261127);
  for (const char* file : kDesignerFiles) {
    const std::string rules = source_path(std::string("corpus/rulesets/") + file);
    auto program = compile_at(rules, {});
    ASSERT_TRUE(program) << file;
    for (int game = 0; game < 3; ++game) {
      auto e = arb::lang::make_compiled_engine(program);
      const std::string start = e->position();
      std::vector<std::string> sans;
      for (int i = 0; i < 24 && !e->chance(); ++i) {
        std::vector<Action> actions;
        e->legal_actions(actions);
        if (actions.empty() || e->status().result != arb::Result::Ongoing) break;
        const Action a = actions[rng() % actions.size()];
        sans.push_back(arb::san(*e, a));
        e->apply(a);
      }
      ASSERT_GE(sans.size(), 4u) << file;
      auto record = [&](const std::vector<std::string>& moves) {
        std::string pgn = "[Event \"designer\"]\n[SetUp \"1\"]\n[FEN \"" + start + "\"]\n[Result \"*\"]\n\n";
        for (size_t i = 0; i < moves.size(); ++i)
          pgn += (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : std::string()) + moves[i] + " ";
        return pgn + "*\n";
      };
      const std::string good = dir.path() + "/good.pgn", bad = dir.path() + "/bad.pgn";
      std::ofstream(good) << record(sans);
      auto ok = run_arbiter({"validate", "--rules", rules, good});
      EXPECT_EQ(ok.code, 0) << file << " game " << game << "\n" << record(sans) << "\n" << ok;
      std::vector<std::string> broken = sans;
      const size_t at = 1 + rng() % (broken.size() - 1);
      broken[at] = "Kz9";  // no square of the board: no action reads so
      std::ofstream(bad) << record(broken);
      auto wrong = run_arbiter({"validate", "--rules", rules, "--json", bad});
      EXPECT_EQ(wrong.code, 1) << file << "\n" << wrong;
      EXPECT_NE(wrong.out.find("\"ply\":" + std::to_string(at + 1)), std::string::npos) << file << "\n"
                                                                                        << wrong;
    }
  }
}

// Within `n` moves of the side `prover`, by plain minimax over every legal action: a check of
// the solver (its proof numbers, tables and move orders) by the simplest search there is.
bool wins_within(Engine& e, arb::Color prover, int n) {
  const arb::Status st = e.status();
  const arb::Result mine = prover == arb::Color::White ? arb::Result::WhiteWins : arb::Result::BlackWins;
  if (st.result != arb::Result::Ongoing) return st.result == mine;
  if (n == 0 || e.chance()) return false;
  std::vector<Action> actions;
  e.legal_actions(actions);
  const bool mover = e.side_to_move() == prover;
  for (const Action& a : actions) {
    e.apply(a);
    const bool w = wins_within(e, prover, mover ? n - 1 : n);
    e.undo();
    if (mover && w) return true;
    if (!mover && !w) return false;
  }
  return !mover;
}

TEST(DesignerSolve, EveryDesignerVariantsWinsAgreeWithPlainMinimax) {
  std::mt19937_64 rng(7);
  for (const char* file : kDesignerFiles) {
    auto program = compile_at(source_path(std::string("corpus/rulesets/") + file), {});
    ASSERT_TRUE(program) << file;
    int positions = 0, wins = 0;
    for (int game = 0; game < 12; ++game) {
      auto e = arb::lang::make_compiled_engine(program);
      random_game(*e, rng, 6 + static_cast<int>(rng() % 30));
      if (e->chance() || e->status().result != arb::Result::Ongoing) continue;
      const arb::Color prover = e->side_to_move();
      std::vector<Action> actions;
      e->legal_actions(actions);
      std::set<std::string> want;  // every first move that wins within one move
      for (const Action& a : actions) {
        e->apply(a);
        const bool w = wins_within(*e, prover, 0);
        e->undo();
        if (w) want.insert(arb::uci(e->describe(a), e->chess960()));
      }
      arb::solve::Options o;
      o.goal = arb::solve::Goal::Win;
      o.depth = 1;
      o.all_keys = true;
      const arb::solve::Result r = arb::solve::solve(*e, o);
      ASSERT_NE(r.outcome, arb::solve::Outcome::Unknown) << file << " " << e->position();
      EXPECT_EQ(std::set<std::string>(r.keys.begin(), r.keys.end()), want) << file << " " << e->position();
      EXPECT_EQ(r.outcome == arb::solve::Outcome::Proved, !want.empty()) << file << " " << e->position();
      // Two moves: the solver's answer against minimax (skipped where the tree is large).
      if (actions.size() <= 40 && !fast()) {
        o.depth = 2;
        o.all_keys = false;
        const arb::solve::Result r2 = arb::solve::solve(*e, o);
        EXPECT_EQ(r2.outcome == arb::solve::Outcome::Proved, wins_within(*e, prover, 2))
            << file << " " << e->position();
      }
      ++positions;
      wins += !want.empty();
    }
    EXPECT_GE(positions, 6) << file;
    RecordProperty(std::string(file) + "_wins_in_one", wins);
  }
}

}  // namespace
