// Stipulation puzzles built around a frame (see arbiter/puzzles.hpp): selfmates are rare in
// self-play positions, common around a frame that leaves the defender one mating move.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "arbiter/parallel.hpp"
#include "arbiter/puzzles.hpp"
#include "arbiter/text_fields.hpp"

namespace arb::puzzles {

// puzzles.cpp: the stipulation proof of the engine's position, the options' check, and
// whether a puzzle's position is new to `out`; puzzles_stip.cpp: the side field rewritten.
std::optional<Puzzle> candidate_stip(Engine& e, Engine& check, const Options& opt, const GameConfig& config,
                                     Stats& stats);
void check_options(const Options& opt);
bool fresh(const std::vector<Puzzle>& out, const Puzzle& p);
std::string with_side(const std::string& position, Color side);

namespace {

// The cheap filter: a defender with more legal moves than this, when to move, is seldom
// forced to mate within a few moves (measured: docs/puzzles.md).
constexpr size_t kMaxDefenderMoves = 4;

uint64_t mix(uint64_t x) {  // splitmix64's finaliser: candidate k's seed from (seed, k)
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The board of a FEN-shaped text as rows of characters ('.' empty), top rank first; empty
// when the text is not one (holdings, markers, uneven ranks).
std::vector<std::string> rows_of(const std::string& position) {
  auto rows = board_ranks(std::string_view(position).substr(0, position.find(' ')), 26);
  if (!rows || rows->size() < 2) return {};
  for (const std::string& r : *rows)
    if (r.empty() || r.size() != rows->front().size()) return {};
  return *rows;
}

}  // namespace

std::string frame_position(const std::string& frame, uint64_t seed, const std::string& pieces) {
  std::vector<std::string> rows = rows_of(frame);
  const size_t slash = pieces.find('/');
  if (rows.empty() || slash == 0 || slash == std::string::npos) return "";
  const std::string white = pieces.substr(0, slash), black = pieces.substr(slash + 1);
  std::mt19937_64 rng(seed);
  const size_t height = rows.size(), width = rows[0].size();
  std::vector<char> add;
  for (int i = 0, n = 2 + static_cast<int>(rng() % 3); i < n; ++i) add.push_back(white[rng() % white.size()]);
  for (int i = 0, n = static_cast<int>(rng() % 2); i < n && !black.empty(); ++i)
    add.push_back(black[rng() % black.size()]);
  for (char piece : add) {
    std::vector<std::pair<size_t, size_t>> free;
    for (size_t y = 0; y < height; ++y)
      for (size_t x = 0; x < width; ++x)
        if (rows[y][x] == '.' && (std::tolower(piece) != 'p' || (y != 0 && y + 1 != height)))
          free.emplace_back(y, x);
    if (free.empty()) break;
    auto [y, x] = free[rng() % free.size()];
    rows[y][x] = piece;
  }
  std::vector<std::string> f = field_strings(frame);
  f[0] = board_field(rows);
  return join_fields(f);
}

std::string default_frame_pieces(const std::string& start, const std::string& frame) {
  const std::vector<std::string> start_rows = rows_of(start), frame_rows = rows_of(frame);
  if (start_rows.empty() || frame_rows.empty()) return "";
  std::map<char, int> in_start, in_frame;
  for (const std::string& r : start_rows)
    for (char c : r)
      if (c != '.') ++in_start[c];
  for (const std::string& r : frame_rows)
    for (char c : r)
      if (c != '.') ++in_frame[c];
  auto holds = [&](const char* letters) {
    for (const char* c = letters; *c; ++c)
      if (!in_start.count(*c)) return false;
    return true;
  };
  if (holds("QRBNPpnb")) return "QRBNP/pnb";
  std::string white, black;
  for (const auto& [c, n] : in_start) {
    if (n == 1 && in_frame.count(c) && in_frame.at(c) == 1) continue;  // a royal
    (std::isupper(static_cast<unsigned char>(c)) ? white : black) += c;
  }
  return white.empty() ? "" : white + "/" + black;
}

std::vector<Puzzle> generate_frame(const Engine& engine, const Options& opt, Stats& stats) {
  check_options(opt);
  if (opt.stipulation.empty()) throw std::invalid_argument("puzzles around a frame need a stipulation");
  const std::string frame = opt.frame.empty() ? std::string(kSelfmateFrame) : opt.frame;
  if (rows_of(frame).empty())
    throw std::invalid_argument("the frame `" + frame + "` is not a FEN-shaped position text");
  const std::string pieces =
      opt.frame_pieces.empty() ? default_frame_pieces(engine.position(), frame) : opt.frame_pieces;
  if (pieces.empty())
    throw std::invalid_argument(
        "no pieces to add to the frame: the game's start position names none (give --pieces)");
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const int jobs = std::clamp(opt.jobs, 1, kMaxJobs);
  struct Worker {
    std::unique_ptr<Engine> e, check;
    Stats stats;
    std::vector<Action> moves;
  };
  std::vector<Worker> workers(static_cast<size_t>(jobs));
  for (Worker& w : workers) {
    w.e = engine.clone();
    w.check = engine.clone();
  }
  const GameConfig config = engine.config();
  const size_t count = static_cast<size_t>(std::max(opt.count, 0));
  // Candidate k: built, taken by the engine, through the filter, proved (or not).
  auto try_one = [&](Worker& w, uint64_t k, bool& legal) -> std::optional<Puzzle> {
    const std::string pos = frame_position(frame, mix(opt.seed ^ mix(k)), pieces);
    try {
      w.e->set_position(pos);
    } catch (const std::exception&) {
      return std::nullopt;  // not a position of the game (a king attacked, say)
    }
    legal = true;
    if (w.e->chance() || w.e->status().result != Result::Ongoing) return std::nullopt;
    // The filter: the defender, to move, has few legal moves. A position it cannot stand
    // with the defender to move (the attacker in check) goes to the proof unfiltered.
    const Color attacker = w.e->side_to_move();
    try {
      w.e->set_position(with_side(pos, opposite(attacker)));
      if (w.e->side_to_move() != attacker) {
        w.e->legal_actions(w.moves);
        if (w.moves.size() > kMaxDefenderMoves) return std::nullopt;
      }
    } catch (const std::exception&) {
    }
    w.e->set_position(pos);
    ++w.stats.positions;
    return candidate_stip(*w.e, *w.check, opt, config, w.stats);
  };
  std::vector<Puzzle> out;
  uint64_t next = 0, legal_total = 0;
  const uint64_t round = 16 * static_cast<uint64_t>(jobs);
  while (out.size() < count && next < opt.max_frames) {
    if (opt.timeout > 0 && elapsed() >= opt.timeout) break;
    const uint64_t n = std::min(round, opt.max_frames - next);
    std::vector<std::optional<Puzzle>> got(n);
    std::vector<char> legal(n, 0);
    std::atomic<uint64_t> cursor{0};
    parallel_for(jobs, [&](int j, std::stop_token) {
      Worker& w = workers[static_cast<size_t>(j)];
      for (uint64_t k; (k = cursor++) < n;) {
        if (opt.timeout > 0 && elapsed() >= opt.timeout) break;
        bool ok = false;
        got[k] = try_one(w, next + k, ok);
        legal[k] = ok;
      }
    });
    // In candidate order, whatever the threads' timing: the same puzzles for any --jobs.
    for (uint64_t k = 0; k < n; ++k) {
      legal_total += legal[k] ? 1 : 0;
      if (got[k] && out.size() < count && fresh(out, *got[k])) {
        out.push_back(*got[k]);
        if (opt.found) opt.found(out.back());
      }
    }
    next += n;
    stats.built = next;
    stats.positions = stats.unknown = 0;
    for (const Worker& w : workers) {
      stats.positions += w.stats.positions;
      stats.unknown += w.stats.unknown;
    }
    stats.seconds = elapsed();
    if (opt.progress) opt.progress(stats, out.size());
    if (legal_total == 0 && next >= 1000)
      throw std::invalid_argument("the game takes none of the first " + std::to_string(next) +
                                  " positions built around the frame `" + frame +
                                  "` (give one it takes with --base)");
  }
  stats.seconds = elapsed();
  return out;
}

}  // namespace arb::puzzles
