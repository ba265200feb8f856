// Reference engine for ChessMe, written from ../shared/rules/chessme.* and RULINGS.md
// section 2 alone. Correctness and clarity come first; speed is secondary, but nothing
// costs more as pieces get farther from the origin or from each other: the board is a
// hash map of occupied squares, and slider rays are intersected with the pieces instead of
// walked square by square.
//
// An action is a complete turn (RULINGS 2.4): a legal move (with its optional exchange,
// 2.7), then optionally one placement from the hand (2.6), then, after a placement, the
// draw from the top of the own pile when it is known and not empty.
//
// A designer's tiles and hand (options `tiles`, `hand-size`, `draw`; arb::TileRules):
// `tiles` is one side's tiles that start in the draw pile (ChessMe's: QRRBBNNPPPP),
// `hand-size` the most tiles a hand holds (RULINGS 2.4's 3), `draw` the tiles the setup
// draws into the hand (RULINGS 2.3's 3; no more than hand-size). After a placement the
// player draws one tile, as the rule text says, when the pile has one and the hand is under
// hand-size (it always is: it held at most hand-size before the placement).
//
// Action encoding (opaque to others):
//   lo = the move's origin, (uint32 x << 32) | uint32 y
//   hi bits  0-31  distance k along the direction (to = from + k * dir)
//          32-35  direction: 0-7 the king steps of kSteps, 8-15 the knight jumps of kJumps
//          36-38  exchange: 0 none, else 1 + index in K Q R B N P of the piece taken back
//          39-41  placement: 0 none, else 1 + index of the placed tile type
//          46-47  square relative to the anchor: 0 left (x-1), 1 right (x+1), 2 behind
//          48-63  placement anchor: index of an own pawn in the position after the move,
//                 pawns sorted by Coord's operator< (rank, then file)
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "arbiter/chessme_text.hpp"
#include "reference.hpp"
#include "seed_option.hpp"

namespace arb::ref {

namespace {

constexpr std::string_view kTypes = "KQRBNP";
enum Type { King = 0, Queen, Rook, Bishop, Knight, Pawn };

const std::array<Coord, 8> kSteps = {{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}};
const std::array<Coord, 8> kJumps = {
    {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};

int type_of(char piece) {
  return static_cast<int>(kTypes.find(static_cast<char>(std::toupper(static_cast<unsigned char>(piece)))));
}
Color color_of(char piece) {
  return std::isupper(static_cast<unsigned char>(piece)) ? Color::White : Color::Black;
}
char letter(int type, Color c) {
  char up = kTypes[type];
  return c == Color::White ? up : static_cast<char>(std::tolower(static_cast<unsigned char>(up)));
}
int idx(Color c) {
  return static_cast<int>(c);
}
int forward(Color c) {
  return c == Color::White ? 1 : -1;
}

uint64_t key(Coord c) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(c.x)) << 32) | static_cast<uint32_t>(c.y);
}
Coord unkey(uint64_t k) {
  return Coord{static_cast<int32_t>(static_cast<uint32_t>(k >> 32)),
               static_cast<int32_t>(static_cast<uint32_t>(k))};
}
Coord add(Coord a, Coord d, int64_t k = 1) {
  return Coord{static_cast<int32_t>(a.x + k * d.x), static_cast<int32_t>(a.y + k * d.y)};
}
// a + k*d when that square can be written (both coordinates within int32, as the position
// text holds them); nullopt past the edge of what the text can name.
std::optional<Coord> add_checked(Coord a, Coord d, int64_t k = 1) {
  int64_t x = static_cast<int64_t>(a.x) + k * d.x, y = static_cast<int64_t>(a.y) + k * d.y;
  if (x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX) return std::nullopt;
  return Coord{static_cast<int32_t>(x), static_cast<int32_t>(y)};
}

// j >= 1 when q = s + j * d (d a unit step, not the zero vector), else 0.
int64_t ray_index(Coord s, Coord d, Coord q) {
  int64_t dx = static_cast<int64_t>(q.x) - s.x, dy = static_cast<int64_t>(q.y) - s.y;
  int64_t j = d.x != 0 ? dx / d.x : dy / d.y;
  if (j < 1 || j * d.x != dx || j * d.y != dy) return 0;
  return j;
}

uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
uint64_t tag(uint64_t kind, uint64_t a, uint64_t b, uint64_t c) {
  return mix(mix(kind * 0x100000001B3ULL + a) ^ mix(b * 0x3C6EF372FE94F82BULL + c));
}

// The decoded form of an action.
struct Turn {
  Coord from{};
  Coord to{};
  char exchange = 0;  // upper-case letter of the piece taken back by promotion, or 0
  char place = 0;     // upper-case letter of the placed tile, or 0
  Coord place_at{};
};

struct Undo {
  Turn turn;
  char moved = 0;
  char captured = 0;
  std::string drawn;  // the tiles drawn after the placement, in draw order
};

class ChessMeEngine final : public Engine {
 public:
  // `given`: the options that were set (config() names them), in name order.
  explicit ChessMeEngine(TileRules rules = {}, std::vector<std::pair<std::string, std::string>> given = {},
                         uint64_t seed = kChessMeDefaultSeed)
      : rules_(std::move(rules)), given_(std::move(given)), seed_(seed) {}

  std::string name() const override { return "reference:chessme"; }
  // The start's shuffle is seed 1 unless a position text names another (`start:SEED`).
  GameConfig config() const override {
    GameConfig c{"chessme", {{"seed", std::to_string(seed_)}}};
    for (const auto& o : given_) c.options.push_back(o);
    std::sort(c.options.begin(), c.options.end());
    return c;
  }

  void set_position(std::string_view text) override {
    ChessMePosition p;
    if (text == "start") {
      p = chessme_start_position(seed_, rules_);
    } else if (text.substr(0, 6) == "start:") {
      std::string_view digits = text.substr(6);
      if (digits.empty() || digits.size() > 20) throw PositionError("bad start seed", 6);
      uint64_t seed = 0;
      for (size_t i = 0; i < digits.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(digits[i])))
          throw PositionError("bad start seed", 6 + i);
        uint64_t next = seed * 10 + static_cast<uint64_t>(digits[i] - '0');
        if (next / 10 != seed) throw PositionError("start seed out of range", 6);
        seed = next;
      }
      p = chessme_start_position(seed, rules_);
    } else {
      p = parse_chessme(text, rules_);
    }
    ChessMeEngine fresh(rules_, given_, seed_);
    fresh.load(p);
    // The side that just moved may not have left its king attacked.
    if (fresh.attacked(fresh.king_[idx(opposite(fresh.side_))], fresh.side_))
      throw PositionError("the side not to move is in check", 0);
    *this = std::move(fresh);
  }

  std::string position() const override {
    ChessMePosition p;
    for (const auto& [k, pc] : board_) p.pieces.push_back({unkey(k), pc});
    p.side = side_;
    for (int c = 0; c < 2; ++c) {
      for (int t = 0; t < 6; ++t) {
        p.hand[c] += std::string(static_cast<size_t>(hand_[c][t]), letter(t, static_cast<Color>(c)));
        p.captured[c] +=
            std::string(static_cast<size_t>(captured_[c][t]), letter(t, static_cast<Color>(1 - c)));
      }
      p.pile[c] = pile_known_[c] ? pile_[c] : "";
      p.pile_known[c] = pile_known_[c];
    }
    p.fullmove = fullmove_;
    return format_chessme(p);
  }

  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    std::vector<Turn> moves;
    legal_moves(moves);
    const Color us = side_;
    for (const Turn& m : moves) {
      std::vector<Coord> anchors = pawns_after(m);
      out.push_back(encode(m, anchors, us));
      Undo u = make_move(m);
      // Placements: one per (tile type, square); the first anchor that names the square
      // is the one encoded.
      for (int t = 0; t < 6; ++t) {
        if (hand_[idx(us)][t] == 0) continue;
        std::set<Coord> done;
        for (const Coord& pawn : anchors) {
          // Rule 2.6: a pawn beside an own pawn (left, right), any other tile behind one.
          for (uint64_t rel : t == Pawn ? std::vector<uint64_t>{0, 1} : std::vector<uint64_t>{2}) {
            // A square past what the text can name is no placement.
            auto target = placement_square(pawn, rel, us);
            if (!target) continue;
            Coord sq = *target;
            if (occupied(sq) || !done.insert(sq).second) continue;
            // A placement adds an own piece, so it cannot expose the king; checked anyway.
            board_[key(sq)] = letter(t, us);
            bool safe = !attacked(king_[idx(us)], opposite(us));
            board_.erase(key(sq));
            if (!safe) continue;
            Turn full = m;
            full.place = kTypes[t];
            full.place_at = sq;
            out.push_back(encode(full, anchors, us));
          }
        }
      }
      unmake_move(u);
    }
  }

  void apply(const Action& a) override {
    Turn t = decode(a);
    Undo u = make_move(t);
    const Color us = side_;
    if (t.place) {
      int type = type_of(t.place);
      --hand_[idx(us)][type];
      board_[key(t.place_at)] = letter(type, us);
      // The draw after a placement (see the top): one tile, the hand staying within hand-size.
      std::string& pile = pile_[idx(us)];
      if (pile_known_[idx(us)] && !pile.empty() && hand_size(us) < rules_.hand_size) {
        u.drawn.push_back(pile[0]);
        pile.erase(0, 1);
        ++hand_[idx(us)][type_of(u.drawn.back())];
      }
    }
    if (us == Color::Black && fullmove_ < INT32_MAX) ++fullmove_;
    side_ = opposite(us);
    history_.push_back(u);
  }

  void undo() override {
    if (history_.empty()) return;
    Undo u = history_.back();
    history_.pop_back();
    side_ = opposite(side_);
    const Color us = side_;
    if (us == Color::Black) --fullmove_;
    if (u.turn.place) {
      for (size_t i = u.drawn.size(); i-- > 0;) {
        --hand_[idx(us)][type_of(u.drawn[i])];
        pile_[idx(us)].insert(pile_[idx(us)].begin(), u.drawn[i]);
      }
      board_.erase(key(u.turn.place_at));
      ++hand_[idx(us)][type_of(u.turn.place)];
    }
    unmake_move(u);
  }

  Status status() override {
    Status s;
    s.in_check = attacked(king_[idx(side_)], opposite(side_));
    std::vector<Turn> moves;
    legal_moves(moves);
    if (!moves.empty()) return s;
    if (s.in_check) {
      s.result = side_ == Color::White ? Result::BlackWins : Result::WhiteWins;
      s.end = Termination::Checkmate;
      s.reason = "checkmate";
    } else {
      s.result = Result::Draw;
      s.end = Termination::NoLegalMove;  // RULINGS 2.8: no legal move is a draw
      s.reason = "chessme-draw";
    }
    return s;
  }

  // Recomputed from scratch: pieces, side, hands, piles and capture piles (not fullmove).
  uint64_t hash() const override {
    uint64_t h = 0;
    for (const auto& [k, pc] : board_) h ^= tag(1, mix(k), static_cast<unsigned char>(pc), 0);
    if (side_ == Color::Black) h ^= tag(2, 0, 0, 0);
    for (int c = 0; c < 2; ++c) {
      for (int t = 0; t < 6; ++t) {
        if (hand_[c][t]) h ^= tag(3, c, t, hand_[c][t]);
        if (captured_[c][t]) h ^= tag(4, c, t, captured_[c][t]);
      }
      if (!pile_known_[c]) {
        h ^= tag(5, c, 0, 0);
      } else {
        for (size_t i = 0; i < pile_[c].size(); ++i)
          h ^= tag(6, c, i, static_cast<unsigned char>(pile_[c][i]));
      }
    }
    return h;
  }

  Color side_to_move() const override { return side_; }

  ActionInfo describe(const Action& a) const override {
    Turn t = decode(a);
    ActionInfo info;
    Step mv;
    mv.kind = StepKind::Move;
    mv.piece = kTypes[type_of(at(t.from))];
    mv.from = t.from;
    mv.to = t.to;
    if (occupied(t.to)) mv.removed.push_back({t.to, at(t.to)});
    mv.promotion = t.exchange;
    info.steps.push_back(mv);
    if (t.place) {
      Step pl;
      pl.kind = StepKind::Place;
      pl.piece = t.place;
      pl.to = t.place_at;
      info.steps.push_back(pl);
    }
    return info;
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<ChessMeEngine>(*this); }

 private:
  TileRules rules_;
  std::vector<std::pair<std::string, std::string>> given_;
  uint64_t seed_ = kChessMeDefaultSeed;  // the deal of `start`
  std::unordered_map<uint64_t, char> board_;
  Coord king_[2] = {};
  Color side_ = Color::White;
  std::array<int, 6> hand_[2] = {};
  std::array<int, 6> captured_[2] = {};  // [c]: pieces of the opponent that c captured
  std::string pile_[2];                  // top first
  bool pile_known_[2] = {true, true};
  int fullmove_ = 1;
  std::vector<Undo> history_;

  void load(const ChessMePosition& p) {
    for (const auto& [sq, pc] : p.pieces) {
      board_[key(sq)] = pc;
      if (type_of(pc) == King) king_[idx(color_of(pc))] = sq;
    }
    side_ = p.side;
    for (int c = 0; c < 2; ++c) {
      for (char ch : p.hand[c]) ++hand_[c][type_of(ch)];
      for (char ch : p.captured[c]) ++captured_[c][type_of(ch)];
      pile_[c] = p.pile_known[c] ? p.pile[c] : "";
      pile_known_[c] = p.pile_known[c];
    }
    fullmove_ = p.fullmove;
  }

  int hand_size(Color c) const {
    int n = 0;
    for (int k : hand_[idx(c)]) n += k;
    return n;
  }

  char at(Coord c) const {
    auto it = board_.find(key(c));
    return it == board_.end() ? 0 : it->second;
  }
  bool occupied(Coord c) const { return board_.count(key(c)) != 0; }

  // Is `sq` attacked by a piece of colour `by`? Rule 5e: the adjacency rule plays no part.
  bool attacked(Coord sq, Color by) const {
    // A pawn of `by` on (x -/+ 1, y - forward) captures onto sq.
    for (int dx : {-1, 1})
      if (auto p = add_checked(sq, Coord{dx, -forward(by)}); p && at(*p) == letter(Pawn, by)) return true;
    for (const Coord& j : kJumps)
      if (auto p = add_checked(sq, j); p && at(*p) == letter(Knight, by)) return true;
    for (const Coord& d : kSteps)
      if (auto p = add_checked(sq, d); p && at(*p) == letter(King, by)) return true;
    for (const auto& [k, pc] : board_) {
      if (color_of(pc) != by) continue;
      int t = type_of(pc);
      if (t != Queen && t != Rook && t != Bishop) continue;
      Coord q = unkey(k);
      int64_t dx = static_cast<int64_t>(q.x) - sq.x, dy = static_cast<int64_t>(q.y) - sq.y;
      bool orth = (dx == 0) != (dy == 0);
      bool diag = dx != 0 && std::llabs(dx) == std::llabs(dy);
      if (!((t == Rook && orth) || (t == Bishop && diag) || (t == Queen && (orth || diag)))) continue;
      Coord unit{static_cast<int32_t>((dx > 0) - (dx < 0)), static_cast<int32_t>((dy > 0) - (dy < 0))};
      int64_t dist = std::max(std::llabs(dx), std::llabs(dy));
      bool clear = true;
      for (const auto& [k2, pc2] : board_) {
        int64_t j = ray_index(sq, unit, unkey(k2));
        if (j >= 1 && j < dist) {
          clear = false;
          break;
        }
      }
      if (clear) return true;
    }
    return false;
  }

  // Rule 5a: after a non-capturing move from `from` to `to`, some other piece stands on one
  // of the 8 neighbours of `to` (the origin is empty by then).
  bool adjacent_after(Coord from, Coord to) const {
    for (const Coord& d : kSteps) {
      auto n = add_checked(to, d);
      if (n && *n != from && occupied(*n)) return true;
    }
    return false;
  }

  // Destinations (without the legality test) of the piece on `s`: (square, capture).
  void piece_moves(Coord s, char pc, std::vector<std::pair<Coord, bool>>& out) const {
    const Color us = color_of(pc);
    auto step_to = [&](std::optional<Coord> to_or_edge, bool may_capture, bool may_move) {
      if (!to_or_edge) return;  // past what a position text can name
      const Coord to = *to_or_edge;
      char target = at(to);
      if (target) {
        if (may_capture && color_of(target) != us && type_of(target) != King) out.push_back({to, true});
      } else if (may_move && adjacent_after(s, to)) {
        out.push_back({to, false});
      }
    };
    switch (type_of(pc)) {
      case Pawn: {
        step_to(add_checked(s, Coord{0, forward(us)}), false, true);
        step_to(add_checked(s, Coord{-1, forward(us)}), true, false);
        step_to(add_checked(s, Coord{1, forward(us)}), true, false);
        break;
      }
      case Knight:
        for (const Coord& j : kJumps) step_to(add_checked(s, j), true, true);
        break;
      case King:
        for (const Coord& d : kSteps) step_to(add_checked(s, d), true, d.y != -forward(us));
        break;
      default: {
        int t = type_of(pc);
        for (const Coord& d : kSteps) {
          bool diag = d.x != 0 && d.y != 0;
          if ((t == Rook && diag) || (t == Bishop && !diag)) continue;
          slider_ray(s, d, us, out);
        }
      }
    }
  }

  // One ray of a slider: a capture of the first piece met if it is an enemy, and every empty
  // square before it that is next to a piece other than the slider. Those squares are
  // found from the pieces' neighbours, so a long ray costs no more than a short one.
  void slider_ray(Coord s, Coord d, Color us, std::vector<std::pair<Coord, bool>>& out) const {
    int64_t block = INT64_MAX;
    char blocker = 0;
    for (const auto& [k, pc] : board_) {
      int64_t j = ray_index(s, d, unkey(k));
      if (j >= 1 && j < block) {
        block = j;
        blocker = pc;
      }
    }
    std::set<int64_t> steps;
    for (const auto& [k, pc] : board_) {
      Coord q = unkey(k);
      if (q == s) continue;
      for (const Coord& n : kSteps) {
        auto beside = add_checked(q, n);
        if (!beside) continue;
        int64_t j = ray_index(s, d, *beside);
        if (j >= 1 && j < block) steps.insert(j);
      }
    }
    for (int64_t j : steps) out.push_back({add(s, d, j), false});
    if (blocker && color_of(blocker) != us && type_of(blocker) != King)
      out.push_back({add(s, d, block), true});
  }

  // Every legal move of the side to move, exchange choices included.
  void legal_moves(std::vector<Turn>& out) {
    out.clear();
    const Color us = side_;
    std::vector<std::pair<Coord, char>> own;
    for (const auto& [k, pc] : board_)
      if (color_of(pc) == us) own.push_back({unkey(k), pc});
    std::sort(own.begin(), own.end());
    const int32_t enemy_king_rank = king_[idx(opposite(us))].y;
    std::vector<std::pair<Coord, bool>> dests;
    for (const auto& [from, pc] : own) {
      dests.clear();
      piece_moves(from, pc, dests);
      for (const auto& [to, capture] : dests) {
        (void)capture;
        Turn t;
        t.from = from;
        t.to = to;
        Undo u = make_move(t);
        bool safe = !attacked(king_[idx(us)], opposite(us));
        unmake_move(u);
        if (!safe) continue;
        out.push_back(t);
        // Rule 2.7: a pawn arriving on the enemy king's rank may be exchanged for an own
        // non-pawn piece from the opponent's capture pile, one choice per type.
        if (type_of(pc) == Pawn && to.y == enemy_king_rank) {
          for (int x : {Queen, Rook, Bishop, Knight}) {
            if (captured_[idx(opposite(us))][x] == 0) continue;
            Turn e = t;
            e.exchange = kTypes[x];
            Undo ue = make_move(e);
            bool ok = !attacked(king_[idx(us)], opposite(us));
            unmake_move(ue);
            if (ok) out.push_back(e);
          }
        }
      }
    }
  }

  // The move part of a turn on the board and capture piles (not the side to move).
  Undo make_move(const Turn& t) {
    Undo u;
    u.turn = t;
    u.moved = at(t.from);
    u.captured = at(t.to);
    const Color us = color_of(u.moved);
    board_.erase(key(t.from));
    if (u.captured) ++captured_[idx(us)][type_of(u.captured)];
    if (t.exchange) {
      board_[key(t.to)] = letter(type_of(t.exchange), us);
      --captured_[idx(opposite(us))][type_of(t.exchange)];
      ++captured_[idx(opposite(us))][Pawn];
    } else {
      board_[key(t.to)] = u.moved;
    }
    if (type_of(u.moved) == King) king_[idx(us)] = t.to;
    return u;
  }

  void unmake_move(const Undo& u) {
    const Turn& t = u.turn;
    const Color us = color_of(u.moved);
    if (t.exchange) {
      ++captured_[idx(opposite(us))][type_of(t.exchange)];
      --captured_[idx(opposite(us))][Pawn];
    }
    if (u.captured) {
      --captured_[idx(us)][type_of(u.captured)];
      board_[key(t.to)] = u.captured;
    } else {
      board_.erase(key(t.to));
    }
    board_[key(t.from)] = u.moved;
    if (type_of(u.moved) == King) king_[idx(us)] = t.from;
  }

  // Own pawns of the mover in the position after the move part of `t`, sorted: the
  // placement anchors.
  std::vector<Coord> pawns_after(const Turn& t) const {
    char moved = at(t.from);
    const Color us = color_of(moved);
    std::vector<Coord> pawns;
    for (const auto& [k, pc] : board_) {
      Coord sq = unkey(k);
      if (pc == letter(Pawn, us) && sq != t.from) pawns.push_back(sq);
    }
    if (type_of(moved) == Pawn && !t.exchange) pawns.push_back(t.to);
    std::sort(pawns.begin(), pawns.end());
    return pawns;
  }

  // The square named by a placement anchor and relation (see the encoding above).
  // nullopt past what a position text can name (int32 coordinates).
  static std::optional<Coord> placement_square(Coord pawn, uint64_t rel, Color us) {
    if (rel == 0) return add_checked(pawn, Coord{-1, 0});
    if (rel == 1) return add_checked(pawn, Coord{1, 0});
    return add_checked(pawn, Coord{0, -forward(us)});
  }

  static Action encode(const Turn& t, const std::vector<Coord>& anchors, Color us) {
    Action a;
    a.lo = key(t.from);
    int64_t dx = static_cast<int64_t>(t.to.x) - t.from.x, dy = static_cast<int64_t>(t.to.y) - t.from.y;
    uint64_t dir = 0, dist = 1;
    bool found = false;
    for (size_t i = 0; i < kJumps.size(); ++i)
      if (dx == kJumps[i].x && dy == kJumps[i].y) {
        dir = 8 + i;
        found = true;
      }
    if (!found) {
      Coord unit{static_cast<int32_t>((dx > 0) - (dx < 0)), static_cast<int32_t>((dy > 0) - (dy < 0))};
      for (size_t i = 0; i < kSteps.size(); ++i)
        if (kSteps[i] == unit) dir = i;
      dist = static_cast<uint64_t>(std::max(std::llabs(dx), std::llabs(dy)));
    }
    a.hi = dist | (dir << 32);
    if (t.exchange) a.hi |= static_cast<uint64_t>(1 + type_of(t.exchange)) << 36;
    if (t.place) {
      a.hi |= static_cast<uint64_t>(1 + type_of(t.place)) << 39;
      bool encoded = false;
      for (size_t i = 0; i < anchors.size() && !encoded; ++i) {
        for (uint64_t rel : t.place == 'P' ? std::vector<uint64_t>{0, 1} : std::vector<uint64_t>{2}) {
          if (placement_square(anchors[i], rel, us) != t.place_at) continue;
          a.hi |= (static_cast<uint64_t>(i) << 48) | (rel << 46);
          encoded = true;
          break;
        }
      }
    }
    return a;
  }

  Turn decode(const Action& a) const {
    Turn t;
    t.from = unkey(a.lo);
    uint64_t dist = a.hi & 0xFFFFFFFFULL;
    uint64_t dir = (a.hi >> 32) & 0xF;
    t.to = dir >= 8 ? add(t.from, kJumps[dir - 8]) : add(t.from, kSteps[dir], static_cast<int64_t>(dist));
    uint64_t ex = (a.hi >> 36) & 0x7;
    if (ex) t.exchange = kTypes[ex - 1];
    uint64_t pl = (a.hi >> 39) & 0x7;
    if (pl) {
      t.place = kTypes[pl - 1];
      std::vector<Coord> anchors = pawns_after(t);
      size_t i = (a.hi >> 48) & 0xFFFF;
      uint64_t rel = (a.hi >> 46) & 0x3;
      Coord p = i < anchors.size() ? anchors[i] : Coord{};
      t.place_at = placement_square(p, rel, color_of(at(t.from))).value_or(Coord{});
    }
    return t;
  }
};

}  // namespace

namespace {

// Bounds of the options: a side's pile and a hand hold at most this many tiles.
constexpr int kMaxTiles = 64;

// A count option: a decimal 0..kMaxTiles.
int count_option(const std::string& key, const std::string& value) {
  bool ok = !value.empty() && value.size() <= 2 && std::all_of(value.begin(), value.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (!ok || std::stoi(value) > kMaxTiles)
    throw std::invalid_argument("chessme: option " + key + " must be 0.." + std::to_string(kMaxTiles) +
                                ", not '" + value + "'");
  return std::stoi(value);
}

// The tiles option: upper-case letters of the pieces a side may bring into play (Q R B N P;
// a second king would break the one-king rule of the setup), at most kMaxTiles; `-` none.
std::string tiles_option(const std::string& value) {
  if (value == "-") return "";
  if (value.empty()) throw std::invalid_argument("chessme: option tiles is empty (write '-' for no tiles)");
  if (value.size() > static_cast<size_t>(kMaxTiles))
    throw std::invalid_argument("chessme: option tiles holds " + std::to_string(value.size()) +
                                " tiles, at most " + std::to_string(kMaxTiles));
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c == 'K')
      throw std::invalid_argument("chessme: option tiles: a K tile at " + std::to_string(i) +
                                  " (each side has exactly one king, set up on the board)");
    if (std::string_view("QRBNP").find(c) == std::string_view::npos)
      throw std::invalid_argument(std::string("chessme: option tiles: '") + c + "' at " + std::to_string(i) +
                                  " is not a tile (upper case Q R B N P)");
  }
  return value;
}

}  // namespace

std::unique_ptr<Engine> make_chessme_engine(const std::map<std::string, std::string>& options) {
  TileRules rules;
  std::vector<std::pair<std::string, std::string>> given;
  uint64_t seed = kChessMeDefaultSeed;
  for (const auto& [key, value] : options) {
    if (key == "seed") {
      seed = seed_option("chessme", value);
      continue;  // config() names the seed always
    }
    if (key == "tiles") {
      rules.tiles = tiles_option(value);
    } else if (key == "hand-size") {
      rules.hand_size = count_option(key, value);
    } else if (key == "draw") {
      rules.draw = count_option(key, value);
    } else {
      throw std::invalid_argument("chessme: unknown option '" + key +
                                  "' (the options are draw, hand-size, seed, tiles)");
    }
    given.push_back({key, value});
  }
  if (rules.draw > rules.hand_size)
    throw std::invalid_argument("chessme: option draw (" + std::to_string(rules.draw) +
                                ") must not exceed hand-size (" + std::to_string(rules.hand_size) +
                                "): the setup draws into the hand");
  return std::make_unique<ChessMeEngine>(std::move(rules), std::move(given), seed);
}

}  // namespace arb::ref
