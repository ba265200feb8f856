// Boards over 64 squares on the bitboard back end (128- and 256-bit boards): Capablanca
// chess (10 x 8) against Fairy-Stockfish, a 10 x 10 variant against Fairy-Stockfish with a
// variants.ini, kings, rooks, bishops and knights on boards from 8 x 8 to 16 x 16 against a
// naive generator written here, hand-counted perft on 16 x 16, and the 16-square limit.
// Fairy-Stockfish is a peer when installed (Debian's `fairy-stockfish`); without it those
// comparisons are skipped with a message and the known counts are checked alone.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "arbiter/lang/compile.hpp"
#include "helpers.hpp"

namespace {

using testing_helpers::TempDir;

// ---- Fairy-Stockfish over UCI ----------------------------------------------------------

std::string fairy_path() {
  if (const char* env = std::getenv("ARBITER_FAIRY_STOCKFISH")) return env;
  for (std::string dir : {"/usr/games", "/usr/bin", "/usr/local/bin"}) {
    std::string p = dir + "/fairy-stockfish";
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

class Fairy {
 public:
  explicit Fairy(const std::string& path) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(out[1], 2);
      close(in[1]);
      close(out[0]);
      execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
    send("uci");
    for (std::string l; read_line(l) && l != "uciok";)
      if (l.rfind("option name UCI_Variant", 0) == 0) variants_ = l;
  }
  ~Fairy() {
    if (to_) {
      send("quit");
      fclose(to_);
    }
    if (from_) fclose(from_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  Fairy(const Fairy&) = delete;
  Fairy& operator=(const Fairy&) = delete;

  bool knows(const std::string& variant) const {
    return variants_.find(" var " + variant) != std::string::npos;
  }
  void send(const std::string& s) {
    fputs((s + "\n").c_str(), to_);
    fflush(to_);
  }
  void sync() {
    send("isready");
    for (std::string l; read_line(l) && l != "readyok";) {
    }
  }
  void variant(const std::string& name, const std::string& ini = "") {
    if (!ini.empty()) send("setoption name VariantPath value " + ini);
    send("setoption name UCI_Variant value " + name);
    sync();
  }
  // Perft from `fen`, or 0 when the engine printed no count.
  uint64_t perft(const std::string& fen, int depth) {
    send("position fen " + fen);
    sync();
    send("go perft " + std::to_string(depth));
    for (std::string l; read_line(l);)
      if (l.rfind("Nodes searched:", 0) == 0) return std::strtoull(l.c_str() + 15, nullptr, 10);
    return 0;
  }

 private:
  bool read_line(std::string& l) {
    l.clear();
    if (!from_) return false;
    for (int c; (c = fgetc(from_)) != EOF;) {
      if (c == '\n') return true;
      if (c != '\r') l.push_back(static_cast<char>(c));
    }
    return !l.empty();
  }
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
  std::string variants_;
};

// ---- rulesets written here ---------------------------------------------------------------

std::shared_ptr<const arb::lang::Program> compile_text(const TempDir& dir, const std::string& name,
                                                       const std::string& text,
                                                       arb::lang::Diagnostics& diags) {
  std::string path = dir.write(name + ".rules", text);
  arb::lang::Compiled c = arb::lang::compile_file(path, {}, diags);
  return c.program;
}

std::unique_ptr<arb::Engine> engine_for(const TempDir& dir, const std::string& name,
                                        const std::string& text) {
  arb::lang::Diagnostics diags;
  auto p = compile_text(dir, name, text, diags);
  EXPECT_NE(p, nullptr) << diags.render();
  if (!p) return nullptr;
  return arb::lang::make_compiled_engine(p);
}

// Kings, rooks, bishops and knights, nothing else, on a W x H board.
std::string minor_rules(int w, int h, const std::string& setup) {
  return "ruleset big\nboard " + std::to_string(w) + " x " + std::to_string(h) +
         "\n"
         "piece king K {\n  betza \"K\"\n  royal\n}\n"
         "piece rook R { betza \"R\" }\n"
         "piece bishop B { betza \"B\" }\n"
         "piece knight N { betza \"N\" }\n"
         "castling none\n"
         "setup \"" +
         setup +
         "\"\n"
         "turn { action move }\n"
         "legal { royal-safe }\n"
         "end {\n  checkmate -> loss\n  stalemate -> draw\n}\n";
}

// Capablanca's pieces on a 10 x 10 board: Fairy-Stockfish's `capablanca` with ten ranks.
constexpr const char* kCapa10Start =
    "rnabqkbcnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
std::string capa10_rules() {
  return std::string(
             "ruleset capa10\nboard 10 x 10\n"
             "piece king K {\n  betza \"K\"\n  royal\n}\n"
             "piece queen Q { betza \"Q\" }\n"
             "piece chancellor C { betza \"RN\" }\n"
             "piece archbishop A { betza \"BN\" }\n"
             "piece rook R { betza \"R\" }\n"
             "piece bishop B { betza \"B\" }\n"
             "piece knight N { betza \"N\" }\n"
             "piece pawn P {\n  betza \"fmWfceFifmnD\"\n  initial ranks 2\n  forbidden ranks 1\n"
             "  promote on rank 10 to Q C A R B N\n}\n"
             "castling {\n  rook R\n  king-side king-to i rook-to h\n  queen-side king-to c rook-to d\n}\n"
             "setup \"") +
         kCapa10Start +
         "\"\n"
         "turn { action move }\nlegal { royal-safe }\n"
         "end {\n  checkmate -> loss\n  stalemate -> draw\n}\n";
}
constexpr const char* kCapa10Ini =
    "[capa10:capablanca]\nmaxRank = 10\npromotionRank = 10\n"
    "startFen = rnabqkbcnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n";

// ---- a naive generator for kings, rooks, bishops and knights ----------------------------
// Squares as coordinates, moves by walking: nothing shared with the bitboard tables.

struct Naive {
  int w, h;
  std::vector<char> cell;  // y * w + x, 0 = empty, letters as in FEN
  bool white = true;

  static bool own(char c, bool white) {
    return c && (std::isupper(static_cast<unsigned char>(c)) != 0) == white;
  }
  bool on(int x, int y) const { return x >= 0 && y >= 0 && x < w && y < h; }
  char at(int x, int y) const { return cell[y * w + x]; }

  Naive(int w_, int h_, const std::string& fen) : w(w_), h(h_), cell(static_cast<size_t>(w_ * h_), 0) {
    int x = 0, y = h - 1;
    size_t i = 0;
    for (; i < fen.size() && fen[i] != ' '; ++i) {
      char c = fen[i];
      if (c == '/') {
        --y;
        x = 0;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        int n = 0;
        while (i < fen.size() && std::isdigit(static_cast<unsigned char>(fen[i])))
          n = n * 10 + (fen[i++] - '0');
        --i;
        x += n;
      } else {
        cell[y * w + x++] = c;
      }
    }
    white = fen.substr(i + 1, 1) == "w";
  }

  // Whether a piece of colour `by` attacks (x, y).
  bool attacked(int x, int y, bool by) const {
    for (int sy = 0; sy < h; ++sy)
      for (int sx = 0; sx < w; ++sx) {
        char c = at(sx, sy);
        if (!own(c, by)) continue;
        for (auto [tx, ty] : targets(sx, sy))
          if (tx == x && ty == y) return true;
      }
    return false;
  }
  // Squares the piece on (x, y) reaches: empty or enemy, by walking.
  std::vector<std::pair<int, int>> targets(int x, int y) const {
    std::vector<std::pair<int, int>> out;
    char c = at(x, y);
    bool wh = own(c, true);
    char t = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto add = [&](int tx, int ty) {
      if (on(tx, ty) && !own(at(tx, ty), wh)) out.push_back({tx, ty});
    };
    if (t == 'K') {
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          if (dx || dy) add(x + dx, y + dy);
    } else if (t == 'N') {
      for (auto [dx, dy] : {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
        add(x + dx, y + dy);
    } else {
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) {
          if (!dx && !dy) continue;
          bool diag = dx && dy;
          if ((t == 'R' && diag) || (t == 'B' && !diag)) continue;
          for (int tx = x + dx, ty = y + dy; on(tx, ty); tx += dx, ty += dy) {
            add(tx, ty);
            if (at(tx, ty)) break;
          }
        }
    }
    return out;
  }
  uint64_t perft(int depth) {
    if (depth == 0) return 1;
    uint64_t n = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        if (!own(at(x, y), white)) continue;
        for (auto [tx, ty] : targets(x, y)) {
          char moved = at(x, y), taken = at(tx, ty);
          cell[ty * w + tx] = moved;
          cell[y * w + x] = 0;
          int kx = -1, ky = -1;
          for (int s = 0; s < w * h; ++s)
            if (cell[s] == (white ? 'K' : 'k')) kx = s % w, ky = s / w;
          if (!attacked(kx, ky, !white)) {
            white = !white;
            n += perft(depth - 1);
            white = !white;
          }
          cell[y * w + x] = moved;
          cell[ty * w + tx] = taken;
        }
      }
    return n;
  }
};

// A random position of two kings (not adjacent, side not to move not in check) and
// `extra` rooks, bishops and knights, as a FEN.
std::string random_position(int w, int h, int extra, std::mt19937& rng) {
  for (;;) {
    std::vector<char> cell(static_cast<size_t>(w * h), 0);
    auto free_square = [&]() {
      for (;;) {
        int s = static_cast<int>(rng() % static_cast<unsigned>(w * h));
        if (!cell[s]) return s;
      }
    };
    cell[free_square()] = 'K';
    cell[free_square()] = 'k';
    const char kinds[] = "RBNrbn";
    for (int i = 0; i < extra; ++i) cell[free_square()] = kinds[rng() % 6];
    std::string fen;
    for (int y = h - 1; y >= 0; --y) {
      int empty = 0;
      for (int x = 0; x < w; ++x) {
        char c = cell[y * w + x];
        if (!c) {
          ++empty;
          continue;
        }
        if (empty) fen += std::to_string(empty);
        empty = 0;
        fen += c;
      }
      if (empty) fen += std::to_string(empty);
      if (y) fen += '/';
    }
    fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
    Naive n(w, h, fen);
    int bk = 0;
    for (int s = 0; s < w * h; ++s)
      if (cell[s] == (n.white ? 'k' : 'K')) bk = s;
    if (n.attacked(bk % w, bk / w, n.white)) continue;  // the side not to move in check
    return fen;
  }
}

// ---- Capablanca chess against Fairy-Stockfish --------------------------------------------

constexpr const char* kCapaStart = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";

// Perft of the start: Fairy-Stockfish 11.1 (LB) gives the same counts.
TEST(Capablanca, StartPerftKnownCounts) {
  auto e = testing_helpers::compiled_engine("capablanca");
  EXPECT_EQ(e->position(), kCapaStart);
  const uint64_t want[] = {1, 28, 784, 25228, 805128, 28741319};
  int max_depth = testing_helpers::perft_budget(30000000) >= want[5] ? 5 : 4;
  for (int d = 1; d <= max_depth; ++d) EXPECT_EQ(e->perft(d), want[d]) << "depth " << d;
}

// Positions where the rules differ most from 8 x 8 chess: promotion to the compound pieces,
// en passant, castling blocked, through check and onto the i-file.
const std::vector<std::string> kCapaSpecial = {
    "r4k3r/1P8/10/10/10/10/8p1/R4K3R w KQkq - 0 1",
    "r4k3r/1P8/10/10/10/10/8p1/R4K3R b KQkq - 0 1",
    "rnabqkbcnr/pppp1ppppp/10/10/4pP4/10/PPPPP1PPPP/RNABQKBCNR b KQkq f3 0 3",
    "r4kr2r/10/10/10/10/10/10/R4K3R w KQkq - 0 1",
    "r3k4r/10/10/10/10/10/10/R4K3R w KQq - 0 1",
    "2c2k4/10/10/10/10/10/10/R4K3R w KQ - 0 1",
    "5k4/10/10/10/10/10/3a6/R4K3R w KQ - 0 1",
};

// Positions reached by random play from the start (seeded), with their perft.
std::vector<std::string> random_capablanca_positions(int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  auto e = testing_helpers::compiled_engine("capablanca");
  std::vector<arb::Action> acts;
  while (static_cast<int>(out.size()) < count) {
    e->set_position(kCapaStart);
    int plies = 8 + static_cast<int>(rng() % 60);
    bool ok = true;
    for (int i = 0; i < plies && ok; ++i) {
      e->legal_actions(acts);
      if (acts.empty())
        ok = false;
      else
        e->apply(acts[rng() % acts.size()]);
    }
    e->legal_actions(acts);
    if (ok && !acts.empty()) out.push_back(e->position());
  }
  return out;
}

TEST(Capablanca, AgreesWithFairyStockfish) {
  std::string path = fairy_path();
  if (path.empty()) GTEST_SKIP() << "fairy-stockfish is not installed: peer comparison skipped";
  Fairy fsf(path);
  if (!fsf.knows("capablanca"))
    GTEST_SKIP() << path << " has no capablanca variant (needs a large-board build): peer comparison skipped";
  fsf.variant("capablanca");
  auto e = testing_helpers::compiled_engine("capablanca");
  for (int d = 1; d <= 5; ++d) {
    e->set_position(kCapaStart);
    EXPECT_EQ(e->perft(d), fsf.perft(kCapaStart, d)) << "start, depth " << d;
  }
  for (const std::string& fen : kCapaSpecial) {
    e->set_position(fen);
    EXPECT_EQ(e->perft(3), fsf.perft(fen, 3)) << fen;
  }
  int n = 0;
  for (const std::string& fen : random_capablanca_positions(30, 2026)) {
    e->set_position(fen);
    int depth = n++ % 3 == 0 ? 2 : 3;
    EXPECT_EQ(e->perft(depth), fsf.perft(fen, depth)) << fen << " depth " << depth;
  }
}

// ---- 10 x 10 --------------------------------------------------------------------------------

TEST(BigBoard, TenByTenAgreesWithFairyStockfish) {
  TempDir dir;
  auto e = engine_for(dir, "capa10", capa10_rules());
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->position(), kCapa10Start);
  EXPECT_EQ(e->perft(1), 28u);  // 10 pawns x 2, knights 2 x 2, archbishop and chancellor 2 each
  std::string path = fairy_path();
  if (path.empty()) GTEST_SKIP() << "fairy-stockfish is not installed: peer comparison skipped";
  Fairy fsf(path);
  if (!fsf.knows("capablanca"))
    GTEST_SKIP() << path << " is not a large-board build: peer comparison skipped";
  std::string ini = dir.write("variants.ini", kCapa10Ini);
  fsf.variant("capa10", ini);
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(e->perft(d), fsf.perft(kCapa10Start, d)) << "start, depth " << d;
  // Promotion on rank 10, en passant and castling on the taller board.
  for (const std::string fen : {"r4k3r/1P8/10/10/10/10/10/10/8p1/R4K3R w KQkq - 0 1",
                                "r4k3r/10/10/10/10/10/4pP4/10/10/R4K3R b KQkq f3 0 1"}) {
    e->set_position(fen);
    EXPECT_EQ(e->perft(3), fsf.perft(fen, 3)) << fen;
  }
}

// ---- rooks, bishops, knights and kings from 8 x 8 to 16 x 16, against the naive generator --

TEST(BigBoard, RandomPositionsAgreeWithANaiveGenerator) {
  TempDir dir;
  std::mt19937 rng(7);
  const std::pair<int, int> sizes[] = {{8, 8},   {16, 4},  {13, 5},  {10, 8},  {9, 9},
                                       {10, 10}, {11, 11}, {12, 12}, {16, 15}, {16, 16}};
  for (auto [w, h] : sizes) {
    std::string start = random_position(w, h, 4, rng);
    auto e = engine_for(dir, "big" + std::to_string(w) + "x" + std::to_string(h), minor_rules(w, h, start));
    ASSERT_NE(e, nullptr) << w << "x" << h;
    for (int i = 0; i < 12; ++i) {
      std::string fen = random_position(w, h, 3 + static_cast<int>(rng() % 5), rng);
      e->set_position(fen);
      EXPECT_EQ(e->position(), fen) << w << "x" << h;
      Naive n(w, h, fen);
      for (int d = 1; d <= 2; ++d)
        EXPECT_EQ(e->perft(d), n.perft(d)) << w << "x" << h << " " << fen << " depth " << d;
    }
  }
}

// Kings and a rook on an otherwise empty 16 x 16 board, counted by hand.
TEST(BigBoard, SixteenBySixteenHandCounted) {
  TempDir dir;
  const std::string fen = "15k/16/16/16/16/16/16/16/7R8/16/16/16/16/16/16/K15 w - - 0 1";
  auto e = engine_for(dir, "big16", minor_rules(16, 16, fen));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->position(), fen);
  // White: king a1 -> a2 b1 b2 (3), rook h8 along its rank and file (15 + 15).
  EXPECT_EQ(e->perft(1), 33u);
  // Black king p16 -> o16 o15 p15. Rook on o8 or h15 leaves it one square, on p8 or h16 it
  // checks and leaves two; the other 26 rook moves and the 3 king moves leave all three.
  EXPECT_EQ(e->perft(2), 26u * 3 + 1 + 1 + 2 + 2 + 3 * 3);
  Naive n(16, 16, fen);
  EXPECT_EQ(e->perft(3), n.perft(3));
  // The corners and the far edge: a rook on p16's file across all four words of the board.
  e->set_position("k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K14R w - - 0 1");
  EXPECT_EQ(e->perft(1), 3u + 15 + 14);  // the rook's rank stops at the king on a1
}

// ---- the limit ----------------------------------------------------------------------------

TEST(BigBoard, MoreThanSixteenFilesOrRanksIsALocatedError) {
  TempDir dir;
  for (auto [w, h] : {std::pair{17, 8}, {8, 17}, {20, 20}}) {
    arb::lang::Diagnostics diags;
    std::string text = minor_rules(w, h, "k7/8/8/8/8/8/8/K7 w - - 0 1");
    auto p = compile_text(dir, "too-big", text, diags);
    EXPECT_EQ(p, nullptr);
    bool found = false;
    for (const auto& d : diags.all())
      found |= d.severity == arb::lang::Severity::Error && d.loc.line == 2 &&
               d.message.find("16") != std::string::npos;
    EXPECT_TRUE(found) << w << "x" << h << ": " << diags.render();
  }
}

}  // namespace
