// Z3's mate-in-1 answer against a generator's (mate1_check.hpp).
#include "arbiter/synth/mate1_check.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>
#include <random>
#include <sstream>

#include "arbiter/notation.hpp"
#include "arbiter/synth/synth.hpp"
#include "arbiter/text_fields.hpp"

namespace arb::synth {

std::vector<std::string> mating_actions(Engine& e) {
  std::vector<Action> acts;
  e.legal_actions(acts);
  const Result win = e.side_to_move() == Color::White ? Result::WhiteWins : Result::BlackWins;
  std::vector<std::string> out;
  for (const Action& a : acts) {
    const std::string t = uci(e.describe(a), e.chess960());
    e.apply(a);
    const Status after = e.status();
    e.undo();
    if (after.result == win && after.end == Termination::Checkmate) out.push_back(t);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string without_rights(const std::string& position) {
  std::vector<std::string> f = field_strings(position);
  if (f.size() < 4 || f[0].find('/') == std::string::npos) return position;
  f[2] = "-";
  f[3] = "-";
  return join_fields(f);
}

namespace {

struct Fixed {
  std::vector<std::pair<Coord, char>> squares;  // every square of the board
  std::string material;                         // "KQ v K"
  std::string hands;                            // the reserve's letters
};

// Every square of a FEN's board fixed, its material and reserve; nullopt for other texts.
std::optional<Fixed> fixed_squares(const std::string& text) {
  const size_t end = text.find_first_of(" [");
  if (end == std::string::npos || text.find('/') > end) return std::nullopt;
  Fixed f;
  const auto board = board_ranks(std::string_view(text).substr(0, end));
  if (!board) return std::nullopt;
  const std::vector<std::string>& ranks = *board;
  std::string white, black;
  const int h = static_cast<int>(ranks.size());
  for (int r = 0; r < h; ++r)
    for (size_t x = 0; x < ranks[r].size(); ++x) {
      const char c = ranks[r][x];
      f.squares.push_back({Coord{static_cast<int32_t>(x), h - r}, c});
      if (c != '.') (std::isupper(static_cast<unsigned char>(c)) ? white : black).push_back(c);
    }
  if (text[end] == '[') {
    const size_t close = text.find(']', end);
    if (close == std::string::npos) return std::nullopt;
    f.hands = text.substr(end + 1, close - end - 1);
  }
  for (char& c : black) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  f.material = white + " v " + black;
  return f;
}

}  // namespace

std::vector<std::string> random_endings(const lang::Model& m, Engine& engine, int count, uint64_t seed) {
  const std::string start = engine.position();
  const auto f = fixed_squares(start);
  std::vector<std::string> out;
  if (!f) return out;
  int w = 0, h = 0;
  for (const auto& [c, p] : f->squares) w = std::max(w, c.x + 1), h = std::max(h, c.y);
  std::string royals, others;
  for (const auto& [c, p] : f->squares) {
    if (p == '.') continue;
    const lang::PieceDef* d = m.piece(static_cast<char>(std::toupper(static_cast<unsigned char>(p))));
    (d && d->royal ? royals : others).push_back(p);
  }
  if (royals.empty() || others.empty()) return out;
  std::mt19937_64 rng(seed);
  // Half with a mate in 1 for the side to move, half without (random endings seldom have
  // one): both of Z3's answers, sat and unsat, get compared.
  const int want_mate = count / 2, want_none = count - want_mate;
  int mates = 0, nones = 0;
  for (int tries = 0; static_cast<int>(out.size()) < count && tries < count * 2000; ++tries) {
    std::string pieces = royals;
    const int extra = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < extra; ++i) pieces.push_back(others[rng() % others.size()]);
    std::vector<std::string> board(static_cast<size_t>(h), std::string(static_cast<size_t>(w), '.'));
    bool placed = true;
    for (char p : pieces) {
      int guard = 0;
      size_t x, y;
      do {
        x = rng() % static_cast<size_t>(w);
        y = rng() % static_cast<size_t>(h);
      } while (board[y][x] != '.' && ++guard < 100);
      if (board[y][x] != '.') placed = false;
      board[y][x] = p;
    }
    if (!placed) continue;
    std::string text;
    for (int y = 0; y < h; ++y) {
      int run = 0;
      for (char c : board[static_cast<size_t>(y)]) {
        if (c == '.') {
          ++run;
          continue;
        }
        if (run) text += std::to_string(run);
        run = 0;
        text.push_back(c);
      }
      if (run) text += std::to_string(run);
      if (y + 1 < h) text.push_back('/');
    }
    text += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
    try {
      engine.set_position(text);
    } catch (const PositionError&) {
      continue;
    }
    if (engine.status().end != Termination::None) continue;
    const bool mate = !mating_actions(engine).empty();
    if (mate ? mates >= want_mate : nones >= want_none) continue;
    ++(mate ? mates : nones);
    out.push_back(engine.position());
  }
  engine.set_position(start);
  return out;
}

Mate1Report compare_mate_in_1(const std::shared_ptr<const lang::Program>& program,
                              const std::function<std::unique_ptr<Engine>()>& engines,
                              const std::vector<std::string>& positions, double timeout_seconds) {
  Mate1Report r;
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& given : positions) {
    const std::string text = without_rights(given);
    auto e = engines();
    try {
      e->set_position(text);
    } catch (const PositionError&) {
      ++r.refused;
      continue;
    }
    if (e->status().end != Termination::None) continue;  // an ended game has no move to mate with
    const auto fixed = fixed_squares(text);
    if (!fixed) {
      ++r.refused;
      continue;
    }
    Request q;
    q.goal = Goal::MateIn1;
    q.side = e->side_to_move();
    q.squares = fixed->squares;
    q.material = fixed->material;
    q.hands = fixed->hands;
    q.count = 1;
    q.timeout_seconds = timeout_seconds;
    Outcome o;
    try {
      o = synthesize(program, q);
    } catch (const std::invalid_argument&) {
      ++r.refused;
      continue;
    }
    ++r.positions;
    const auto mates = mating_actions(*e);
    if (!mates.empty()) ++r.with_mate;
    std::string listed;
    for (const auto& m : mates) listed += (listed.empty() ? "" : " ") + m;
    if (listed.empty()) listed = "none";
    if (!o.found.empty()) {
      const std::string& m = o.found.front().move;
      if (!std::binary_search(mates.begin(), mates.end(), m))
        r.differences.push_back({text, "mate by " + m, listed});
    } else if (o.exhausted && o.incomplete.empty() && !o.timed_out) {
      if (!mates.empty()) r.differences.push_back({text, "no mate in 1 (proved)", listed});
    } else {
      ++r.inconclusive;
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace arb::synth
