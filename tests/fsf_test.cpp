// Fairy-Stockfish as a reference engine (checker/fsf/): the adapter's legal moves, status,
// positions and perft agree with the compiled generator on chess and Knightmate, a fuzz
// run finds no divergence, and a wrong Knightmate (its royal moving as a king) is caught.
// Skipped only where /usr/games/fairy-stockfish is absent (CI installs it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/export_fsf.hpp"
#include "fsf/fairy_stockfish.hpp"
#include "fsf_helpers.hpp"
#include "fuzz/fuzz.hpp"
#include "helpers.hpp"
#include "process.hpp"
#include "registry/engines.hpp"

namespace fs = std::filesystem;
using fsf_testing::wasm_dir;

namespace {

using arb::fsf::FairyStockfishEngine;
using arb::fsf::FsfSettings;
using testing_helpers::legal_texts;

#define REQUIRE_FSF()                                  \
  if (access("/usr/games/fairy-stockfish", X_OK) != 0) \
  GTEST_SKIP() << "/usr/games/fairy-stockfish is not installed (apt-get install fairy-stockfish)"

FsfSettings settings(const std::string& variant) {
  FsfSettings s;
  s.command = "/usr/games/fairy-stockfish";
  s.variant = variant;
  return s;
}

std::shared_ptr<const arb::lang::Program> compile(const std::string& path) {
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(path, {}, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  return c.program;
}

std::string knightmate_path() {
  return testing_helpers::source_path("corpus/rulesets/knightmate.rules");
}

// Knightmate with one rule wrong: the royal moves as a king, not as a knight.
std::shared_ptr<const arb::lang::Program> wrong_knightmate() {
  std::string text = testing_helpers::read_text(knightmate_path());
  const std::string royal = "betza \"N\"\n  royal";
  size_t at = text.find(royal);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, royal.size(), "betza \"K\"\n  royal");
  fs::path dir = fs::temp_directory_path() / ("arbiter-fsf-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "knightmate.rules") << text;
  // The wrong royal changes more than the moves: the ruleset's own expectations fail, so it
  // is compiled without them (the check is the fuzzer's to make).
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file((dir / "knightmate.rules").string(), {}, diags);
  fs::remove_all(dir);
  return c.program;
}

struct Game {
  const char* variant;  // UCI_Variant
  std::shared_ptr<const arb::lang::Program> program;
};

std::vector<Game> games() {
  return {{"chess", testing_helpers::bundled_program("chess")}, {"knightmate", compile(knightmate_path())}};
}

// Plays the same random game on both engines and compares every node.
void compare_random_games(const Game& g, int n, int plies, uint64_t seed) {
  auto c = arb::lang::make_compiled_engine(g.program);
  FairyStockfishEngine f(settings(g.variant));
  std::mt19937_64 rng(seed);
  for (int game = 0; game < n; ++game) {
    c->set_position("start");
    f.set_position(c->position());
    ASSERT_EQ(f.position(), c->position()) << g.variant;
    for (int ply = 0; ply < plies; ++ply) {
      auto ct = legal_texts(*c), ft = legal_texts(f);
      ASSERT_EQ(ct, ft) << g.variant << " at " << c->position();
      ASSERT_EQ(arb::fuzz::status_text(c->status()), arb::fuzz::status_text(f.status())) << c->position();
      ASSERT_EQ(c->position(), f.position());
      if (ct.empty() || c->status().result != arb::Result::Ongoing) break;
      const std::string pick = ct[rng() % ct.size()];
      c->apply(testing_helpers::find_action(*c, pick));
      f.apply(testing_helpers::find_action(f, pick));
    }
  }
}

TEST(FairyStockfish, LegalMovesAgreeAlongRandomGames) {
  REQUIRE_FSF();
  for (const Game& g : games()) compare_random_games(g, 4, 80, 11);
}

// Castling both ways, en passant, promotion with and without capture: the canonical texts
// (arb::uci of describe) equal the compiled generator's.
TEST(FairyStockfish, SpecialMovesDescribedAsTheCompiledEngineDoes) {
  REQUIRE_FSF();
  const std::vector<std::pair<std::string, Game>> cases = {
      {"r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2", games()[0]},
      {"r3k2r/8/8/8/3pP3/8/1p6/R3K2R b KQkq e3 0 2", games()[0]},
      {"rm2k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 2", games()[1]},
      // Castling rights with the king off the e file (found by fuzzing Knightmate: the
      // king's one-file castling f1-h1 was read as a step to g1).
      {"4k3/8/8/8/8/8/8/5K1R w K - 0 1", games()[1]},
      {"4k3/8/8/8/8/8/8/5K1R w K - 0 1", games()[0]},
  };
  for (const auto& [fen, g] : cases) {
    auto c = arb::lang::make_compiled_engine(g.program);
    c->set_position(fen);
    FairyStockfishEngine f(settings(g.variant));
    f.set_position(fen);
    EXPECT_EQ(legal_texts(*c), legal_texts(f)) << fen;
    EXPECT_EQ(c->position(), f.position());
    std::vector<arb::Action> acts;
    f.legal_actions(acts);
    bool castled = false, passant = false;
    for (const auto& a : acts) {
      const arb::Step s = f.describe(a).steps.at(0);
      castled |= s.castle != arb::Castle::None;
      if (s.piece == 'P' && s.capture() && s.removed[0].at != s.to) passant = true;
    }
    EXPECT_TRUE(castled) << fen;
    if (testing_helpers::fields(fen).at(3) != "-") {
      EXPECT_TRUE(passant) << fen;
    }
  }
}

TEST(FairyStockfish, PerftAgreesFromTheStartAndRandomPositions) {
  REQUIRE_FSF();
  std::mt19937_64 rng(5);
  for (const Game& g : games()) {
    auto c = arb::lang::make_compiled_engine(g.program);
    FairyStockfishEngine f(settings(g.variant));
    for (int round = 0; round < 4; ++round) {
      c->set_position("start");
      for (int ply = 0, len = round * 12; ply < len; ++ply) {
        auto t = legal_texts(*c);
        if (t.empty()) break;
        c->apply(testing_helpers::find_action(*c, t[rng() % t.size()]));
      }
      f.set_position(c->position());
      EXPECT_EQ(c->perft(3), f.perft(3)) << g.variant << " " << c->position();
    }
  }
}

TEST(FairyStockfish, FuzzFindsNoDivergence) {
  REQUIRE_FSF();
  for (const Game& g : games()) {
    auto program = g.program;
    auto proto = std::make_shared<FairyStockfishEngine>(settings(g.variant));
    arb::fuzz::Options o;
    o.games = 25;
    o.seed = 3;
    auto start = arb::lang::make_compiled_engine(program)->position();
    arb::fuzz::Report r = arb::fuzz::run([program] { return arb::lang::make_compiled_engine(program); },
                                         [proto] { return proto->clone(); }, start, o);
    EXPECT_EQ(r.games, 25u);
    EXPECT_GT(r.positions, 500u);
    EXPECT_FALSE(r.divergence) << g.variant << ": " << arb::fuzz::to_json(*r.divergence);
  }
}

TEST(FairyStockfish, WrongKnightmateIsCaught) {
  REQUIRE_FSF();
  auto program = wrong_knightmate();
  ASSERT_NE(program, nullptr);
  auto proto = std::make_shared<FairyStockfishEngine>(settings("knightmate"));
  arb::fuzz::Options o;
  o.games = 50;
  o.seed = 1;
  auto start = arb::lang::make_compiled_engine(program)->position();
  arb::fuzz::Report r = arb::fuzz::run([program] { return arb::lang::make_compiled_engine(program); },
                                       [proto] { return proto->clone(); }, start, o);
  ASSERT_TRUE(r.divergence);
  EXPECT_EQ(r.divergence->what, "actions");
  // The royal's moves differ: a K move only one engine has.
  EXPECT_NE(r.divergence->shape.find('K'), std::string::npos) << arb::fuzz::to_json(*r.divergence);
}

TEST(FairyStockfish, StatusCheckmateStalemateDeadPositionsAndClaims) {
  REQUIRE_FSF();
  FairyStockfishEngine f(settings("chess"));
  f.set_position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(arb::fuzz::status_text(f.status()), "1-0 checkmate check");
  f.set_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(arb::fuzz::status_text(f.status()), "1/2-1/2 stalemate");
  f.set_position("7k/8/6K1/8/8/8/8/1B6 b - - 100 80");
  EXPECT_EQ(arb::fuzz::status_text(f.status()), "1/2-1/2 insufficient-material claim-fifty");
  EXPECT_TRUE(f.dead_positions());
  // The compiled generator says the same of each.
  for (const char* fen : {"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
                          "7k/8/6K1/8/8/8/8/1B6 b - - 100 80", "7k/8/6K1/8/8/8/8/bB6 b - - 0 80"}) {
    f.set_position(fen);
    EXPECT_EQ(arb::fuzz::status_text(f.status()),
              arb::fuzz::status_text(testing_helpers::compiled_at("chess", fen)->status()))
        << fen;
  }
  // Knightmate's royal moves as a knight: the chess material rule does not hold there.
  FairyStockfishEngine k(settings("knightmate"));
  EXPECT_FALSE(k.dead_positions());
  k.set_position("k7/8/B7/3K4/8/8/8/8 w - - 0 1");
  EXPECT_EQ(k.status().result, arb::Result::Ongoing);
  // Threefold: knights out and back twice.
  f.set_position("start");
  for (int i = 0; i < 2; ++i)
    for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) f.apply(testing_helpers::find_action(f, m));
  EXPECT_TRUE(f.status().claim_threefold);
  f.undo();
  EXPECT_FALSE(f.status().claim_threefold);
  // A clone plays on by itself from the same node.
  auto g = f.clone();
  EXPECT_EQ(g->position(), f.position());
  g->apply(testing_helpers::find_action(*g, "f6g8"));
  EXPECT_NE(g->position(), f.position());
  EXPECT_EQ(g->name(), "fairy-stockfish:chess");
}

TEST(FairyStockfish, BadPositionsAreRejectedBeforeTheEngineSeesThem) {
  REQUIRE_FSF();
  FairyStockfishEngine f(settings("chess"));
  for (const char* bad :
       {"8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "4k3/8/8/8/8/8/8/4K2Z w - - 0 1"})
    EXPECT_THROW(f.set_position(bad), arb::PositionError) << bad;
  // The position is unchanged by a rejected text.
  EXPECT_EQ(f.position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

TEST(FairyStockfish, MissingSilentOrRefusingEnginesAreClearErrors) {
  REQUIRE_FSF();
  FsfSettings s = settings("chess");
  s.command = "/nonexistent/fairy-stockfish";
  try {
    FairyStockfishEngine e(s);
    FAIL() << "a missing engine was started";
  } catch (const arb::fsf::EngineMissing& e) {
    EXPECT_NE(std::string(e.what()).find("apt-get install fairy-stockfish"), std::string::npos) << e.what();
  }
  // An engine that never answers (cat echoes `uci` back, never `uciok`) times out.
  s.command = "/bin/cat";
  s.timeout = 0.3;
  s.start_timeout = 0.5;
  EXPECT_THROW(FairyStockfishEngine e(s), arb::fsf::EngineMissing);
  // An engine that exits at once.
  s.command = "/bin/true";
  EXPECT_THROW(FairyStockfishEngine e(s), arb::fsf::EngineMissing);
  // A variant 11.1 does not know.
  EXPECT_THROW(FairyStockfishEngine e(settings("atomic")), arb::fsf::VariantRefused);
  FsfSettings p = settings("chess");
  p.variant_path = "/nonexistent/variants.ini";
  EXPECT_THROW(FairyStockfishEngine e(p), arb::fsf::VariantRefused);
}

// A variant of one's own from a VariantPath ini file: unknown without the file, played
// with it (here Knightmate under another name: its perft 3 from the start is 6,765).
TEST(FairyStockfish, VariantPathIniFile) {
  REQUIRE_FSF();
  fs::path ini = fs::temp_directory_path() / ("arbiter-fsf-" + std::to_string(getpid()) + ".ini");
  std::ofstream(ini) << "[mymate:knightmate]\n";
  EXPECT_THROW(FairyStockfishEngine e(settings("mymate")), arb::fsf::VariantRefused);
  FsfSettings s = settings("mymate");
  s.variant_path = ini.string();
  FairyStockfishEngine f(s);
  EXPECT_EQ(f.name(), "fairy-stockfish:mymate");
  EXPECT_EQ(f.position(), "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1");
  EXPECT_EQ(f.perft(3), 6765u);
  fs::remove(ini);
}

// The command: `arbiter fuzz --against fairy-stockfish` and `arbiter perft --engine
// fairy-stockfish`, with exit 2 for a missing engine or a variant it refuses.
TEST(FairyStockfish, Command) {
  REQUIRE_FSF();
  using testing_process::run_arbiter;
  const char* old = std::getenv("ARBITER_FAIRY_STOCKFISH");
  const std::string saved = old ? old : "";
  setenv("ARBITER_FAIRY_STOCKFISH", "/usr/games/fairy-stockfish", 1);
  fs::path dir = fs::temp_directory_path() / ("arbiter-fsf-cli-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto r = run_arbiter({"fuzz", "--rules", knightmate_path(), "--against", "fairy-stockfish", "--fsf-variant",
                        "knightmate", "--games", "5", "--json", "--save-dir", dir.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("\"against\":\"fairy-stockfish:knightmate\""), std::string::npos) << r;
  EXPECT_NE(r.out.find("\"divergence\":null"), std::string::npos) << r;
  r = run_arbiter({"fuzz", "--rules", knightmate_path(), "--against", "fairy-stockfish", "--fsf-variant",
                   "atomic", "--games", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("does not know the variant `atomic`"), std::string::npos) << r;
  // Without --fsf-variant: the ruleset exported for Fairy-Stockfish 11.1 (chess names no
  // Fairy-Stockfish variant), or its located errors when it cannot be (atomic's explosions).
  r = run_arbiter({"fuzz", "--rules", testing_helpers::source_path("rulesets/chess.rules"), "--against",
                   "fairy-stockfish", "--games", "3", "--save-dir", dir.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("exported as [chess-arbiter] (11)"), std::string::npos) << r;
  EXPECT_NE(r.out.find("no divergence"), std::string::npos) << r;
  r = run_arbiter({"fuzz", "--rules", testing_helpers::source_path("corpus/rulesets/chessme-hand4.rules"),
                   "--against", "fairy-stockfish", "--games", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("chessme-hand4.rules:"), std::string::npos) << r;
  EXPECT_NE(r.err.find("give --fsf-variant NAME"), std::string::npos) << r;
  r = run_arbiter({"perft", "--engine", "fairy-stockfish", "--fsf-variant", "knightmate", "--depth", "3"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("6765"), std::string::npos) << r;
  setenv("ARBITER_FAIRY_STOCKFISH", "/nonexistent/fairy-stockfish", 1);
  r = run_arbiter({"fuzz", "--rules", knightmate_path(), "--against", "fairy-stockfish", "--fsf-variant",
                   "knightmate", "--games", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("apt-get install fairy-stockfish"), std::string::npos) << r;
  if (old)
    setenv("ARBITER_FAIRY_STOCKFISH", saved.c_str(), 1);
  else
    unsetenv("ARBITER_FAIRY_STOCKFISH");
  fs::remove_all(dir);
}

// ---- export to Fairy-Stockfish (arbiter export --fsf) --------------------------------------

// The model of a ruleset file (its sources kept alive with it).
arb::lang::Compiled load(const std::string& path) {
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(path, {}, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  return c;
}

std::string export_section(const std::string& path, arb::lang::FsfDialect dialect,
                           const std::string& section) {
  auto c = load(path);
  arb::lang::Diagnostics diags;
  auto ini = arb::lang::export_fsf(*c.model, dialect, section, diags);
  EXPECT_TRUE(ini.has_value()) << diags.render();
  return ini.value_or("");
}

fs::path write_ini(const std::string& name, const std::string& text) {
  fs::path p =
      fs::temp_directory_path() / ("arbiter-export-" + std::to_string(getpid()) + "-" + name + ".ini");
  std::ofstream(p) << text;
  return p;
}

// Perft of the compiled ruleset and of Fairy-Stockfish playing the exported section, from
// the start and from positions along a random game, at `depth`.
void compare_export(const std::string& rules, FsfSettings s, int depth, int rounds, uint64_t seed) {
  auto program = compile(rules);
  auto c = arb::lang::make_compiled_engine(program);
  FairyStockfishEngine f(std::move(s));
  EXPECT_EQ(f.start(), c->position()) << rules;
  std::mt19937_64 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    c->set_position("start");
    for (int ply = 0, len = round * 10; ply < len; ++ply) {
      auto t = legal_texts(*c);
      if (t.empty()) break;
      c->apply(testing_helpers::find_action(*c, t[rng() % t.size()]));
    }
    f.set_position(c->position());
    EXPECT_EQ(c->perft(depth), f.perft(depth)) << rules << " " << c->position();
  }
}

TEST(FsfExport, SectionsFor11LoadAndPerftAgrees) {
  REQUIRE_FSF();
  struct Case {
    const char* rules;
    const char* must_say;  // a line the section needs
  };
  for (const Case& k : {Case{"corpus/rulesets/knightmate.rules", "kingType = n"},
                        Case{"rulesets/capablanca.rules", "castlingKingsideFile = i"},
                        Case{"rulesets/chess.rules", "pawn = p"}}) {
    const std::string rules = testing_helpers::source_path(k.rules);
    const std::string section = "x" + fs::path(rules).stem().string();
    const std::string ini = export_section(rules, arb::lang::FsfDialect::Fsf11, section);
    EXPECT_NE(ini.find(std::string("\n") + k.must_say + "\n"), std::string::npos) << ini;
    EXPECT_EQ(ini.find("customPiece"), std::string::npos) << ini;
    fs::path path = write_ini(section, ini);
    // 11.1's own checker reports nothing but the section's name.
    testing_process::Outcome chk;
    {
      std::string cmd =
          "/usr/games/fairy-stockfish check " + testing_process::shell_quote(path.string()) + " 2>&1";
      FILE* p = popen(cmd.c_str(), "r");
      ASSERT_NE(p, nullptr);
      char buf[4096];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, p)) > 0) chk.out.append(buf, n);
      pclose(p);
    }
    for (const auto& line : chk.lines()) {
      if (line.rfind("Fairy-Stockfish", 0) == 0) continue;
      EXPECT_EQ(line, "Parsing variant: " + section) << k.rules << "\n" << ini;
    }
    FsfSettings s = settings(section);
    s.variant_path = path.string();
    compare_export(rules, s, 3, 3, 11);
    fs::remove(path);
  }
}

TEST(FsfExport, WhatFairyStockfishCannotSayIsALocatedError) {
  // Berolina's pawn is no predefined piece of 11.1 (current Fairy-Stockfish takes its Betza).
  auto c = load(testing_helpers::source_path("corpus/rulesets/berolina.rules"));
  arb::lang::Diagnostics d11;
  EXPECT_FALSE(arb::lang::export_fsf(*c.model, arb::lang::FsfDialect::Fsf11, "b", d11));
  const std::string text = d11.render();
  EXPECT_NE(text.find("berolina.rules:11:9: error: Fairy-Stockfish 11.1 cannot move the pawn"),
            std::string::npos)
      << text;
  arb::lang::Diagnostics dcur;
  auto ini = arb::lang::export_fsf(*c.model, arb::lang::FsfDialect::Current, "b", dcur);
  ASSERT_TRUE(ini) << dcur.render();
  EXPECT_NE(ini->find("\ncustomPiece1 = p:mfFcefWimfnA\npawnTypes = p\n"), std::string::npos) << *ini;
  // A royal knight: `king = k:N` for current Fairy-Stockfish.
  auto km = load(testing_helpers::source_path("corpus/rulesets/knightmate.rules"));
  arb::lang::Diagnostics dk;
  auto kini = arb::lang::export_fsf(*km.model, arb::lang::FsfDialect::Current, "k", dk);
  ASSERT_TRUE(kini);
  EXPECT_NE(kini->find("\nking = k:N\n"), std::string::npos) << *kini;
  // Atomic's explosions and royal capture: each statement at its own line.
  auto at = load(testing_helpers::source_path("corpus/rulesets/atomic.rules"));
  arb::lang::Diagnostics da;
  EXPECT_FALSE(arb::lang::export_fsf(*at.model, arb::lang::FsfDialect::Current, "a", da));
  const std::string atext = da.render();
  EXPECT_NE(atext.find("atomic.rules:50:3: error: Fairy-Stockfish cannot express `royal-capture`"),
            std::string::npos)
      << atext;
  EXPECT_NE(atext.find("cannot express `remove-around`"), std::string::npos) << atext;
}

TEST(FsfExport, StatementNamesTheVariantAndIsNotInherited) {
  fs::path dir = fs::temp_directory_path() / ("arbiter-fsf-stmt-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "mine.rules") << "ruleset mine extends chess\nfairy-stockfish my-chess_2\n";
  std::ofstream(dir / "child.rules") << "ruleset child extends mine\n";
  std::ofstream(dir / "bad.rules") << "ruleset bad extends chess\nfairy-stockfish \"two words\"\n";
  auto mine = load((dir / "mine.rules").string());
  ASSERT_TRUE(mine.model);
  EXPECT_EQ(mine.model->fsf_variant, "my-chess_2");
  EXPECT_EQ(mine.model->fsf_loc.line, 2);
  EXPECT_EQ(mine.model->fsf_loc.col, 17);
  auto child = load((dir / "child.rules").string());
  ASSERT_TRUE(child.model);
  EXPECT_EQ(child.model->fsf_variant, "");
  arb::lang::Diagnostics d;
  auto bad = arb::lang::compile_file((dir / "bad.rules").string(), {}, d);  // keeps the sources
  EXPECT_NE(d.render().find("bad.rules:2:17: error: `fairy-stockfish` takes the variant's name"),
            std::string::npos)
      << d.render();
  fs::remove_all(dir);
}

// ---- current Fairy-Stockfish: the npm build through node (--fsf-engine wasm:DIR) ----------

TEST(FsfWasm, BerolinaExportedAndBuiltInAgreeWithTheCompiledRuleset) {
  REQUIRE_WASM();
  const std::string rules = testing_helpers::source_path("corpus/rulesets/berolina.rules");
  fs::path path = write_ini("wberolina", export_section(rules, arb::lang::FsfDialect::Current, "wberolina"));
  FsfSettings s;
  s.argv = arb::fsf::engine_command("wasm:" + wasm_dir()).argv;
  s.timeout = 60;
  s.variant = "wberolina";
  s.variant_path = path.string();
  compare_export(rules, s, 3, 3, 4);
  s.variant = "berolina";  // current Fairy-Stockfish's own
  s.variant_path.clear();
  compare_export(rules, s, 3, 2, 5);
  fs::remove(path);
}

TEST(FsfWasm, BerolinaFuzzFindsNoDivergence) {
  REQUIRE_WASM();
  using testing_process::run_arbiter;
  fs::path dir = fs::temp_directory_path() / ("arbiter-fsf-wasm-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto r = run_arbiter({"fuzz", "--rules", testing_helpers::source_path("corpus/rulesets/berolina.rules"),
                        "--against", "fairy-stockfish", "--fsf-variant", "berolina", "--fsf-engine",
                        "wasm:" + wasm_dir(), "--games", "6", "--seed", "1", "--json", "--save-dir",
                        dir.string()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("\"divergence\":null"), std::string::npos) << r;
  // A folder without the package: exit 2 naming the npm command.
  r = run_arbiter({"perft", "--engine", "fairy-stockfish", "--fsf-variant", "berolina", "--fsf-engine",
                   "wasm:" + dir.string(), "--depth", "1"});
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find("npm install --prefix"), std::string::npos) << r;
  fs::remove_all(dir);
}

}  // namespace

// The verdict on a position without moves is the variant's, not an optional draw folded
// in: Fairy-Stockfish's search scores the n-move rule first (halfmove 103 >= 2 * 50,
// not in check), but xiangqi's stalemate loses (stalemateValue) and the fifty-move draw
// stays a claim (found by arbiter fuzz --against fairy-stockfish).
TEST(FairyStockfish, StalemateVerdictIgnoresTheFiftyMoveClaim) {
  REQUIRE_FSF();
  FairyStockfishEngine f(settings("xiangqi"));
  f.set_position("4k4/9/9/9/9/9/8K/9/9/9 w - - 103 1");
  arb::Status st = f.status();
  EXPECT_EQ(st.result, arb::Result::BlackWins);
  EXPECT_TRUE(st.claim_fifty);
  EXPECT_FALSE(st.in_check);
}

// Makruk's family: no double step, so an en-passant field is not a position of the game
// (Fairy-Stockfish honours one, and the fuzzer's mutated positions diverged on it). And its
// claims are the ruleset's: makruk counts moves instead and states no fifty-move claim, so
// the adapter, judging claims for UCI, does not claim one at 100 halfmoves.
TEST(FairyStockfish, MakrukHasNoEnPassantFieldAndNoFiftyMoveClaim) {
  auto e = testing_helpers::compiled_engine("fsf/makruk");
  try {
    e->set_position("3k4/8/8/8/2Pp4/8/8/2K5 b - c3 0 1");
    ADD_FAILURE() << "an en-passant square in makruk was read";
  } catch (const arb::PositionError& err) {
    EXPECT_NE(std::string(err.what()).find("no piece of this game makes a double step"), std::string::npos)
        << err.what();
    EXPECT_EQ(err.column, 27u);  // the field's first character
  }
  // Chess keeps reading a square no step fits as no square (its references do).
  EXPECT_NO_THROW(testing_helpers::compiled_at("chess", "8/3q1k2/8/3pP3/8/8/8/K7 w - d6 0 1"));
  REQUIRE_FSF();
  FsfSettings s = settings("makruk");
  s.claim_fifty = 0;
  s.claim_repetition = 0;
  FairyStockfishEngine f(s);
  f.set_position("8/7k/8/8/8/8/8/1K5r w - - 100 1");
  EXPECT_FALSE(f.status().claim_fifty);
  FairyStockfishEngine c(settings("chess"));
  c.set_position("8/7k/8/8/8/8/8/1K5r w - - 100 1");
  EXPECT_TRUE(c.status().claim_fifty);
}

namespace {

// The adapter for a catalogue ruleset, opened as fuzz opens it (the ruleset's piece facts
// passed on), on Debian's Fairy-Stockfish.
std::unique_ptr<arb::Engine> fsf_for(const std::string& name) {
  arb::registry::EngineSpec spec;
  spec.kind = arb::registry::EngineKind::FairyStockfish;
  spec.rules = testing_helpers::source_path("rulesets/fsf/" + name + ".rules");
  spec.fsf_variant = name;
  spec.fsf_engine = "/usr/games/fairy-stockfish";
  arb::lang::Diagnostics d;
  auto o = arb::registry::open_engine(spec, d);
  EXPECT_TRUE(o.engine) << d.render();
  return std::move(o.engine);
}

// Plays `moves` on both and compares the position after each.
void expect_same_positions(arb::Engine& c, arb::Engine& f, const std::vector<std::string>& moves) {
  ASSERT_EQ(c.position(), f.position());
  for (const auto& m : moves) {
    c.apply(testing_helpers::find_action(c, m));
    f.apply(testing_helpers::find_action(f, m));
    ASSERT_EQ(c.position(), f.position()) << "after " << m;
  }
}

}  // namespace

// Issue 26: once a side has a bare king, Fairy-Stockfish's makruk family writes its counting
// rule's limit and ply where the en-passant field and the halfmove clock stand (`b - 32 8 2`).
// The adapter rebuilds the clock from the moves, as the ruleset counts it
// (found by the catalogue sweep: ai-wok, makruk, asean).
TEST(FairyStockfish, MakrukCountingFieldsAreReadAsTheClock) {
  REQUIRE_FSF();
  for (const char* name : {"makruk", "ai-wok", "asean"}) {
    auto c = testing_helpers::catalogue_at(name, "4k3/8/8/4n3/8/8/8/3KR3 w - - 5 1");
    auto f = fsf_for(name);
    f->set_position(c->position());
    // The rook's capture starts the count; the king's capture of the rook resets the clock.
    expect_same_positions(*c, *f, {"e1e5", "e8d7", "e5e4", "d7c6", "e4d4", "c6c5", "d1e1"});
    EXPECT_EQ(f->position(), "8/8/8/2k5/3R4/8/8/4K3 b - - 6 4") << name;
    expect_same_positions(*c, *f, {"c5d4"});
    EXPECT_EQ(f->position(), "8/8/8/8/3k4/8/8/4K3 w - - 0 5") << name;
  }
}

// Issue 26: `P` is the ruleset's piece, not a chess pawn: breakthrough and clobber start
// with theirs on the first rank, and the adapter takes where a piece may stand from the
// ruleset (chess's pawn still may not stand on rank 1 or 8).
TEST(FairyStockfish, PieceRanksComeFromTheRuleset) {
  REQUIRE_FSF();
  for (const char* name : {"breakthrough", "clobber"}) {
    auto c = testing_helpers::catalogue_at(name, "start");
    auto f = fsf_for(name);
    f->set_position(c->position());
    EXPECT_EQ(f->position(), c->position()) << name;
    EXPECT_EQ(f->perft(2), c->perft(2)) << name;
  }
  auto chess = fsf_for("chess");
  EXPECT_THROW(chess->set_position("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"), arb::PositionError);
  EXPECT_THROW(chess->set_position("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"), arb::PositionError);
  auto makruk = fsf_for("makruk");  // promotes on ranks 6-8, always
  EXPECT_THROW(makruk->set_position("4k3/8/2P5/8/8/8/8/4K3 w - - 0 1"), arb::PositionError);
  EXPECT_NO_THROW(makruk->set_position("4k3/8/8/2P5/8/8/8/4K3 w - - 0 1"));
}

// Issue 26: the castling field as the ruleset writes it. caparandom states Shredder-FEN (rook
// files); capahouse's (and bughouse's) X-FEN reads a promoted piece's `~` on the back rank
// (the field was left in the engine's Shredder form: `j`, `A`). Positions from the sweep.
TEST(FairyStockfish, CastlingFieldsAsTheRulesetWritesThem) {
  REQUIRE_FSF();
  {
    auto c = testing_helpers::catalogue_at("caparandom", "r4k4/10/10/10/10/10/10/5K4 w a - 0 1");
    auto f = fsf_for("caparandom");
    f->set_position(c->position());
    expect_same_positions(*c, *f, {"f1e1"});
    EXPECT_EQ(f->position(), "r4k4/10/10/10/10/10/10/4K5 b a - 1 1");
  }
  // (Debian's 11.1 marks no promoted piece in bughouse; current Fairy-Stockfish does, and
  // the sweep runs it.)
  auto c = testing_helpers::catalogue_at("capahouse", "5k3r/10/10/10/10/10/2p7/1N3K4[] b k - 0 1");
  auto f = fsf_for("capahouse");
  f->set_position(c->position());
  expect_same_positions(*c, *f, {"c2b1a"});
  EXPECT_EQ(f->position(), "5k3r/10/10/10/10/10/10/1a~3K4[n] w k - 0 2");
}

// Issue 26: dragon's dragon starts in hand (`[Dd]`): its letter is one of the game's, so
// the adapter reads the start (current Fairy-Stockfish only; Debian's has no dragon).
TEST(FsfWasm, DragonStartsWithItsPieceInHand) {
  REQUIRE_WASM();
  arb::registry::EngineSpec spec;
  spec.kind = arb::registry::EngineKind::FairyStockfish;
  spec.rules = testing_helpers::source_path("rulesets/fsf/dragon.rules");
  spec.fsf_variant = "dragon";
  spec.fsf_engine = "wasm:" + wasm_dir();
  arb::lang::Diagnostics d;
  auto o = arb::registry::open_engine(spec, d);
  ASSERT_TRUE(o.engine) << d.render();
  auto c = testing_helpers::catalogue_at("dragon", "start");
  EXPECT_NO_THROW(o.engine->set_position(c->position()));
  EXPECT_EQ(o.engine->position(), c->position());
}

// Issue 26: Fairy-Stockfish writes a promotion into the promoted type `+` (`f1f5+`); the
// ruleset's `promotes-to D` names it, so the adapter lists the action as the compiled engine
// does (`f1f5d`). Positions from the sweep (judkins, euroshogi).
TEST(FairyStockfish, PlusPromotionsNamedByTheRuleset) {
  REQUIRE_FSF();
  for (const auto& [name, fen] : std::vector<std::pair<std::string, std::string>>{
           {"judkins", "5k/5p/6/6/6/K4R[] w - - 0 1"},
           {"euroshogi", "4k3/6b1/8/8/8/2P5/8/3K4[] b - - 0 1"}}) {
    auto c = testing_helpers::catalogue_at(name, fen);
    auto f = fsf_for(name);
    f->set_position(c->position());
    EXPECT_EQ(legal_texts(*f), legal_texts(*c)) << name;
  }
}
