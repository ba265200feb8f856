// Atomic chess (corpus/rulesets/atomic.rules), stated with the language's primitives
// (`remove-around radius 1 when capture spare P self`, `captures none`, `royal-capture ->
// win`): hand-derived positions for each rule, notation round trips of the explosions, the
// located refusals of what does not run, and perft against Fairy-Stockfish's atomic
// variant when an engine that has it is installed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "mutate/rule_mutants.hpp"

namespace {

using namespace testing_helpers;
using arb::Engine;

std::string atomic_path() {
  return source_path("corpus/rulesets/atomic.rules");
}

std::shared_ptr<const arb::lang::Program> atomic_program() {
  static std::shared_ptr<const arb::lang::Program> p = [] {
    arb::lang::Diagnostics diags;
    auto c = arb::lang::compile_file(atomic_path(), {}, diags);
    EXPECT_FALSE(diags.has_errors()) << diags.render();
    return c.program;
  }();
  return p;
}

std::unique_ptr<Engine> atomic(const std::string& text = "start") {
  auto p = atomic_program();
  if (!p) throw std::runtime_error("atomic.rules does not compile");
  auto e = arb::lang::make_compiled_engine(p);
  e->set_position(text);
  return e;
}

bool has(Engine& e, const std::string& text) {
  auto l = legal_texts(e);
  return std::find(l.begin(), l.end(), text) != l.end();
}

// The pieces an action removes, as "d4r c5n " (square and letter, in order).
std::string removed_of(Engine& e, const std::string& text) {
  auto info = e.describe(find_action(e, text));
  std::string out;
  for (const auto& r : info.steps.at(0).removed)
    out += std::string(1, static_cast<char>('a' + r.at.x)) + std::to_string(r.at.y) + r.piece + " ";
  return out;
}

// Positions with captures and explosions near the kings, with perft(3) as Fairy-Stockfish's
// atomic variant counts it (UCI `go perft 3`, fairy-stockfish.wasm 1.1.12).
struct Known {
  const char* fen;
  uint64_t perft3;
};
const Known kKnown[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 8902},
    {"8/8/8/8/3kK3/8/8/R6r w - - 0 1", 7648},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 14295},
    {"4k3/8/8/8/8/8/4q3/R3K2R w KQ - 0 1", 0},
    {"r3k2r/8/8/8/8/8/8/R3Kq1R w KQkq - 0 1", 881},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 21511},
    {"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", 23194},
    {"r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5", 47878},
    {"rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 26797},
    {"8/8/3k4/3K4/8/8/8/q6Q w - - 0 1", 14177},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 2784},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 88298},
    {"4k3/8/8/2npb3/3r4/2P1N3/3R4/4K3 w - - 0 1", 12845},
    {"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", 944},
    {"3qk2r/8/8/8/8/8/8/3R3K w - - 0 1", 758},
    {"4r3/8/8/8/3kK3/8/8/R7 w - - 0 1", 6623},
    {"4k3/8/8/8/8/8/R2n4/4K3 w - - 0 1", 1814},
    {"4k3/8/8/8/8/8/4p3/4K3 w - - 0 1", 92},
    {"4k3/8/2n1b3/3pP3/8/8/8/4K3 w - d6 0 2", 739},
    {"5r2/8/8/8/8/8/6k1/4K2R w K - 0 1", 3784},
};

TEST(Atomic, PerftFromTheStartIsFairyStockfishs) {
  // Fairy-Stockfish's atomic: 20, 400, 8902, 197326 (the fourth ply differs from chess's 197281).
  auto e = atomic();
  EXPECT_EQ(e->perft(1), 20u);
  EXPECT_EQ(e->perft(2), 400u);
  if (!fast()) {
    EXPECT_EQ(e->perft(4), 197326u);
  }
}

TEST(Atomic, PerftOfPositionsNearTheKingsIsFairyStockfishs) {
  for (const Known& k : kKnown)
    if (!fast() || k.perft3 < 30000) {
      EXPECT_EQ(atomic(k.fen)->perft(3), k.perft3) << k.fen;
    }
}

// A second, independent source: the atomic perft counts (depths 1-3) that lichess's
// chessops library publishes in its test suite (facts, not code: the positions and counts
// only; the Chess960 castling positions of that list are left out, atomic.rules castles as
// standard chess does).
TEST(Atomic, PerftOfChessopsPublishedPositions) {
  struct Published {
    const char* name;
    const char* fen;
    uint64_t d1, d2, d3;
  };
  const Published published[] = {
      {"atomic-start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 20, 400, 8902},
      {"programfox-1", "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1", 40, 1238, 45237},
      {"programfox-2", "rn1qkb1r/p5pp/2p5/3p4/N3P3/5P2/PPP4P/R1BQK3 w Qkq - 0 1", 28, 833, 23353},
      {"near-king-explosion", "rnbqk2r/pp1p2pp/2p3Nn/5p2/1b2P1PP/8/PPP2P2/R1BQKB1R w KQkq - 0 1", 5, 132,
       4973},
  };
  for (const Published& p : published) {
    auto e = atomic(p.fen);
    EXPECT_EQ(e->perft(1), p.d1) << p.name;
    EXPECT_EQ(e->perft(2), p.d2) << p.name;
    if (!fast() || p.d3 < 10000) {
      EXPECT_EQ(e->perft(3), p.d3) << p.name;
    }
  }
}

// A capture explodes: the victim, every adjacent piece of either side but pawns, and the
// capturer itself leave the board; the step lists every one of them, and undo restores them.
TEST(Atomic, ExplosionRemovesNeighboursButPawnsAndTheCapturer) {
  const std::string before = "4k3/8/8/2npb3/3r4/2P1N3/3R4/4K3 w - - 0 1";
  auto e = atomic(before);
  EXPECT_EQ(removed_of(*e, "d2d4"), "d4r e3N c5n e5b d4R ");
  const uint64_t h = e->hash();
  ASSERT_TRUE(play(*e, "d2d4"));
  EXPECT_EQ(e->position(), "4k3/8/8/3p4/8/2P5/8/4K3 b - - 0 1");
  EXPECT_EQ(e->hash(), atomic(e->position())->hash());
  e->undo();
  EXPECT_EQ(e->position(), before);
  EXPECT_EQ(e->hash(), h);
}

// `self`: the capturing pawn goes too, and so does a piece just promoted by its capture.
TEST(Atomic, TheCapturerExplodesWithItsVictim) {
  auto e = atomic("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
  EXPECT_EQ(removed_of(*e, "e4d5"), "d5n d5P ");
  ASSERT_TRUE(play(*e, "e4d5"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
  auto p = atomic("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(removed_of(*p, "a7b8q"), "b8n b8Q ");
  ASSERT_TRUE(play(*p, "a7b8q"));
  EXPECT_EQ(p->position(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

// En passant explodes around the capturing pawn's destination, not the victim's square.
TEST(Atomic, EnPassantExplodesAroundTheDestination) {
  auto e = atomic("4k3/8/2n1b3/3pP3/8/8/8/4K3 w - d6 0 2");
  EXPECT_EQ(removed_of(*e, "e5d6"), "d5p c6n e6b d6P ");
  ASSERT_TRUE(play(*e, "e5d6"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/8/4K3 b - - 0 2");
}

// A capture that would explode the own king is illegal; the same capture with the king
// elsewhere is legal.
TEST(Atomic, ExplodingTheOwnKingIsIllegal) {
  EXPECT_FALSE(has(*atomic("4k3/8/8/8/8/8/R2n4/4K3 w - - 0 1"), "a2d2"));
  EXPECT_TRUE(has(*atomic("4k3/8/8/8/8/8/R2n4/7K w - - 0 1"), "a2d2"));
}

// Exploding the enemy king wins at once, even with the own king in check; then the game
// is over (no action, perft 0) and the position text is read back.
TEST(Atomic, ExplodingTheEnemyKingWins) {
  auto e = atomic("3qk2r/8/8/8/8/8/8/3R3K w - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  EXPECT_TRUE(has(*e, "d1d8"));
  EXPECT_FALSE(has(*e, "d1d2"));  // does not answer the check
  EXPECT_EQ(removed_of(*e, "d1d8"), "d8q e8k d8R ");
  ASSERT_TRUE(play(*e, "d1d8"));
  EXPECT_EQ(e->position(), "7r/8/8/8/8/8/8/7K b - - 0 1");
  auto reread = atomic(e->position());
  for (Engine* g : {e.get(), reread.get()}) {
    arb::Status st = g->status();
    EXPECT_EQ(st.result, arb::Result::WhiteWins);
    EXPECT_EQ(st.reason, "royal-capture");
    EXPECT_EQ(legal_texts(*g).size(), 0u);
    EXPECT_EQ(g->perft(1), 0u);
  }
}

// Kings side by side are never in check: a capture of either would explode its capturer's
// own king. Apart, the same rook gives check.
TEST(Atomic, KingsSideBySideAreNotInCheck) {
  auto e = atomic("4r3/8/8/8/3kK3/8/8/R7 w - - 0 1");
  EXPECT_FALSE(e->status().in_check);
  EXPECT_TRUE(has(*e, "a1a2"));
  EXPECT_TRUE(has(*e, "e4e5"));  // on the rook's file, still beside the king
  auto apart = atomic("4r3/8/8/8/2k1K3/8/8/R7 w - - 0 1");
  EXPECT_TRUE(apart->status().in_check);
  EXPECT_FALSE(has(*apart, "a1a2"));
  // Castling through a square the rook attacks, beside the enemy king.
  EXPECT_TRUE(has(*atomic("5r2/8/8/8/8/8/6k1/4K2R w K - 0 1"), "e1h1"));
}

// Kings never capture (`captures none`).
TEST(Atomic, KingsDoNotCapture) {
  auto e = atomic("4k3/8/8/8/8/8/4p3/4K3 w - - 0 1");
  EXPECT_FALSE(has(*e, "e1e2"));
  EXPECT_TRUE(has(*e, "e1d2"));
}

// Every action's canonical text and SAN read back as the same action, explosions included.
TEST(Atomic, NotationRoundTrips) {
  for (const Known& k : kKnown) {
    auto e = atomic(k.fen);
    std::vector<arb::Action> actions;
    e->legal_actions(actions);
    for (const arb::Action& a : actions) {
      for (const std::string& text : {canonical(*e, a), arb::san(*e, a)}) {
        auto back = arb::parse_action(*e, text);
        ASSERT_TRUE(back.has_value()) << text << " in " << k.fen;
        EXPECT_TRUE(back->lo == a.lo && back->hi == a.hi) << text << " in " << k.fen;
      }
    }
  }
}

// What does not run stays a located compile error; `royal-capture -> win` needs a royal.
TEST(Atomic, UnexecutableFormsAreLocatedErrors) {
  const std::string text = read_text(atomic_path());
  const std::string chess = source_path("rulesets/chess");
  auto compile_with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    t.replace(t.find("\"../../rulesets/chess\""), 22, "\"" + chess + "\"");
    if (!from.empty()) t.replace(t.find(from), from.size(), to);
    auto dir = std::filesystem::temp_directory_path() / ("atomic-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "mut.rules").string();
    std::ofstream(path) << t;
    arb::lang::Diagnostics diags;
    auto c = arb::lang::compile_file(path, {}, diags);
    std::filesystem::remove_all(dir);
    return std::make_pair(c.program != nullptr, diags.render());
  };
  EXPECT_TRUE(compile_with("", "").first);
  const std::string line = "remove-around radius 1 when capture spare P self";
  for (const auto& [to, what] : std::vector<std::pair<std::string, std::string>>{
           {"remove-around radius 1 when capture spare P self at-least 1", "when capture at-least"},
           {"remove-around radius 1 when capture spare P self not-beside own-royal",
            "when capture not-beside"},
           {"remove-around radius 1 when action spare P self", "when action self"}}) {
    auto [ok, msg] = compile_with(line, to);
    EXPECT_FALSE(ok) << to;
    EXPECT_NE(msg.find("mut.rules:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("`remove-around ... " + what + "` is not executable yet"), std::string::npos) << msg;
  }
  auto [ok, msg] = compile_with("  royal\n  captures none", "  captures none\n}\nlegal {");
  EXPECT_FALSE(ok);
  EXPECT_NE(msg.find("`royal-capture -> win` needs a royal piece"), std::string::npos) << msg;
}

// The mutation suite's operators on the new constructs of this ruleset (`arbiter mutate`
// runs on any ruleset): every single-point mutant of an explosion, of `captures none` and
// of `royal-capture -> win` is refused by the compiler or changes a perft count of the
// Fairy-Stockfish table above.
TEST(Atomic, MutantsOfTheNewConstructsAreKilledByTheTable) {
  const std::string text = read_text(atomic_path());
  const std::string chess = "\"" + source_path("rulesets/chess") + "\"";
  auto dir = std::filesystem::temp_directory_path() / ("atomic-mutants-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto program_of = [&](std::string t) -> std::shared_ptr<const arb::lang::Program> {
    t.replace(t.find("\"../../rulesets/chess\""), 22, chess);
    const std::string path = (dir / "m.rules").string();
    std::ofstream(path) << t;
    arb::lang::Diagnostics diags;
    return arb::lang::compile_file(path, {}, diags).program;
  };
  const auto original = program_of(text);
  ASSERT_NE(original, nullptr);
  int tried = 0;
  std::set<std::string> constructs;
  for (const auto& m : arb::mutate::generate_mutants(atomic_path(), text)) {
    const bool ours =
        m.construct == "remove-around" || m.construct == "captures" || m.construct == "royal-capture";
    if (!ours) continue;
    ++tried;
    constructs.insert(m.construct);
    auto p = program_of(m.text());
    if (!p) continue;  // refused
    ASSERT_NE(arb::mutate::program_fingerprint(*p), arb::mutate::program_fingerprint(*original))
        << m.describe();
    bool killed = false;
    for (size_t i = 0; i < std::size(kKnown) && !killed; ++i) {
      if (fast() && kKnown[i].perft3 >= 30000) continue;
      auto e = arb::lang::make_compiled_engine(p);
      try {
        e->set_position(kKnown[i].fen);
        killed = e->perft(3) != kKnown[i].perft3;
      } catch (const std::exception&) {
        killed = true;  // the mutant refuses a position the game has
      }
    }
    EXPECT_TRUE(killed) << "line " << m.line << ": " << m.describe();
  }
  std::filesystem::remove_all(dir);
  EXPECT_GE(tried, 10);
  EXPECT_TRUE(constructs.count("remove-around") && constructs.count("captures")) << tried;
}

// ---- Fairy-Stockfish ---------------------------------------------------------------------
// The engine: $ARBITER_FAIRY_STOCKFISH (a command line) or /usr/games/fairy-stockfish.
std::string fsf_command() {
  if (const char* env = std::getenv("ARBITER_FAIRY_STOCKFISH")) return env;
  return std::filesystem::exists("/usr/games/fairy-stockfish") ? "/usr/games/fairy-stockfish" : "";
}

// Current Fairy-Stockfish (the npm wasm build, which has atomic) through node:
// $ARBITER_FSF_WASM_DIR, else the build folder (tests/run.sh installs it there); empty
// when node or the package is missing.
std::string fsf_wasm_command() {
  namespace fs = std::filesystem;
  const char* env = std::getenv("ARBITER_FSF_WASM_DIR");
  const std::string dir =
      env && *env ? env : fs::read_symlink("/proc/self/exe").parent_path().parent_path().string();
  if (std::system("node --version > /dev/null 2>&1") != 0 ||
      !fs::exists(dir + "/node_modules/fairy-stockfish-nnue.wasm/stockfish.js"))
    return "";
  return "node '" + testing_helpers::source_path("checker/fsf/uci-wasm.js") + "' '" + dir + "'";
}

bool has_atomic(const std::string& uci_output) {
  const size_t at = uci_output.find("name UCI_Variant");
  if (at == std::string::npos) return false;
  const std::string line = uci_output.substr(at, uci_output.find('\n', at) - at);
  return line.find(" atomic") != std::string::npos;
}

// Runs a UCI engine: sends `commands`, reads until a line starts with `until` (or 90 s
// pass; with `times`, until that many such lines), then sends quit. Returns the output read.
std::string uci_session(const std::string& cmd, const std::string& commands, const std::string& until,
                        size_t times = 1) {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) return "";
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2);
    close(in[1]);
    close(out[0]);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  signal(SIGPIPE, SIG_IGN);
  (void)!write(in[1], commands.data(), commands.size());
  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    char buf[4096];
    ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
    size_t seen = 0;
    for (size_t at = text.find("\n" + until); at != std::string::npos; at = text.find("\n" + until, at + 1))
      ++seen;
    if (seen >= times && text.back() == '\n') break;
  }
  (void)!write(in[1], "quit\n", 5);
  close(in[1]);
  close(out[0]);
  for (int i = 0; i < 50 && waitpid(pid, nullptr, WNOHANG) == 0; ++i) usleep(20000);
  if (waitpid(pid, nullptr, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  return text;
}

// Debian's Fairy-Stockfish 11.1 predates atomic: the npm build (current Fairy-Stockfish)
// answers then, as tests/run.sh installs it. One session for every position.
TEST(Atomic, PerftAgreesWithFairyStockfish) {
  std::string cmd = fsf_command();
  if (cmd.empty() || !has_atomic(uci_session(cmd, "uci\n", "uciok"))) cmd = fsf_wasm_command();
  if (cmd.empty())
    GTEST_SKIP() << "no Fairy-Stockfish with atomic: Debian's 11.1 predates it, and the npm "
                    "fairy-stockfish-nnue.wasm is not installed (set ARBITER_FSF_WASM_DIR)";
  std::string commands = "uci\nsetoption name UCI_Variant value atomic\n";
  for (const Known& k : kKnown) commands += std::string("position fen ") + k.fen + "\ngo perft 3\n";
  const std::string out = uci_session(cmd, commands, "Nodes searched", std::size(kKnown));
  ASSERT_TRUE(has_atomic(out)) << cmd << " has no atomic variant:\n" << out;
  size_t at = 0;
  for (const Known& k : kKnown) {
    const size_t n = out.find("Nodes searched: ", at);
    ASSERT_NE(n, std::string::npos) << k.fen << "\n" << out;
    EXPECT_EQ(std::stoull(out.substr(n + 16)), atomic(k.fen)->perft(3)) << k.fen << " (" << cmd << ")";
    at = n + 16;
  }
}

}  // namespace
