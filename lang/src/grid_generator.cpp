// The compiled generator on the unbounded grid (ChessMe): runs a GridProgram. Pieces live
// in a short slot list (a position never holds more than 32), so no cost depends on how far
// the pieces are from the origin or from each other: a rider's non-capturing destinations
// are found from the pieces that could make them legal (the adjacency rule), not by walking.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>

#include "arbiter/chessme_text.hpp"
#include "arbiter/lang/program.hpp"
#include "arbiter/random.hpp"
#include "backends.hpp"

namespace arb::lang {

namespace {

inline uint64_t mix(uint64_t z) {
  return arb::splitmix64_next(z);
}
inline uint64_t piece_key(int64_t x, int64_t y, int code) {
  uint64_t packed = (static_cast<uint64_t>(static_cast<uint32_t>(x)) << 32) | static_cast<uint32_t>(y);
  return mix(packed ^ mix(static_cast<uint64_t>(code) + 0x51ED27ull));
}
inline uint64_t count_key(int what, int color, int type, int count) {
  return mix(0xC0FFEEull + (static_cast<uint64_t>(what) << 40) + (static_cast<uint64_t>(color) << 32) +
             (static_cast<uint64_t>(type) << 16) + static_cast<uint64_t>(count));
}

struct Slot {
  int32_t x, y;
  int8_t code;  // type*2 + colour, -1 when the slot is empty (a captured piece)
};

// Action encoding. lo: mover slot (16 bits), move index (4), exchange type+1 (4), placed
// type+1 (4), placement relation (2: left, right, behind), placement pawn slot (16).
// hi: distance along the move vector.
struct Decoded {
  int slot, move, exchange, place, relation, pawn_slot;
  int64_t dist;
};
inline Action encode(int slot, int move, int64_t dist, int exchange = -1, int place = -1, int relation = 0,
                     int pawn_slot = 0) {
  Action a;
  a.lo = static_cast<uint64_t>(slot) | (static_cast<uint64_t>(move) << 16) |
         (static_cast<uint64_t>(exchange + 1) << 20) | (static_cast<uint64_t>(place + 1) << 24) |
         (static_cast<uint64_t>(relation) << 28) | (static_cast<uint64_t>(pawn_slot) << 30);
  a.hi = static_cast<uint64_t>(dist);
  return a;
}
inline Decoded decode(const Action& a) {
  return Decoded{static_cast<int>(a.lo & 0xFFFF),
                 static_cast<int>((a.lo >> 16) & 15),
                 static_cast<int>((a.lo >> 20) & 15) - 1,
                 static_cast<int>((a.lo >> 24) & 15) - 1,
                 static_cast<int>((a.lo >> 28) & 3),
                 static_cast<int>((a.lo >> 30) & 0xFFFF),
                 static_cast<int64_t>(a.hi)};
}

struct Undo {
  Action action;
  int32_t from_x, from_y;
  int captured_slot;
  int8_t captured_code;
  int8_t moved_code;
  int placed_slot;  // -1 when no placement
  int drew;         // type drawn, -1 when none
  int fullmove;
  uint64_t hash;
};

class GridGenerator final : public Engine {
 public:
  explicit GridGenerator(std::shared_ptr<const Program> p) : p_(std::move(p)), g_(*p_->grid) {
    set_position("start");
  }

  std::string name() const override { return "compiled:" + p_->variant; }
  GameConfig config() const override { return GameConfig{p_->variant, p_->options}; }

  void set_position(std::string_view text) override {
    ChessMePosition pos;
    // `start` and `start:SEED` exactly (no surrounding blanks), as every ChessMe engine reads them.
    std::string_view t = text;
    if (t == "start" || t.substr(0, 6) == "start:") {
      uint64_t seed = g_.seed;
      if (t.size() == 6 || t.size() > 26)
        throw PositionError("`start:SEED` needs a number of at most 20 digits", 6);
      if (t.size() > 6) {
        seed = 0;
        for (size_t i = 6; i < t.size(); ++i) {
          if (!std::isdigit(static_cast<unsigned char>(t[i])))
            throw PositionError("`start:SEED` needs a number", i);
          uint64_t next = seed * 10 + static_cast<uint64_t>(t[i] - '0');
          if (next / 10 != seed) throw PositionError("start seed out of range", 6);
          seed = next;
        }
      }
      pos = start_position(seed);
    } else {
      pos = parse_chessme(t, g_.tile_rules());
    }
    GridGenerator fresh(p_, 0);
    fresh.load(pos);
    *this = fresh;
  }

  std::string position() const override {
    ChessMePosition pos;
    for (const Slot& s : slots_)
      if (s.code >= 0) pos.pieces.push_back({Coord{s.x, s.y}, letter(s.code)});
    pos.side = side_ == 0 ? Color::White : Color::Black;
    for (int c = 0; c < 2; ++c) {
      for (int t = 0; t < ntypes(); ++t) {
        pos.hand[c].append(static_cast<size_t>(hand_[c][t]), letter(t * 2 + c));
        pos.captured[c].append(static_cast<size_t>(captured_[c][t]), letter(t * 2 + (c ^ 1)));
      }
      pos.pile_known[c] = pile_known_[c];
      if (pile_known_[c])
        for (size_t i = cursor_[c]; i < pile_[c].size(); ++i)
          pos.pile[c].push_back(letter(pile_[c][i] * 2 + c));
    }
    pos.fullmove = fullmove_;
    return format_chessme(pos);
  }

  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    generate<false>(&out);
  }
  // The same generation without the royal-safety test (moves that leave the royal
  // piece attacked included): the record validator's explanations.
  void pseudo_legal_actions(std::vector<Action>& out) override {
    pseudo_ = true;
    legal_actions(out);
    pseudo_ = false;
  }

  void apply(const Action& a) override { make(a); }
  void undo() override {
    if (!stack_.empty()) unmake();
  }

  ActionInfo describe(const Action& a) const override {
    Decoded d = decode(a);
    const Slot& s = slots_[d.slot];
    const GridMove& mv = g_.types[s.code >> 1].moves[side_][d.move];
    int64_t tx = s.x + mv.dx * d.dist, ty = s.y + mv.dy * d.dist;
    ActionInfo info;
    Step m;
    m.kind = StepKind::Move;
    m.piece = p_->letters[s.code >> 1];
    m.from = Coord{s.x, s.y};
    m.to = Coord{static_cast<int32_t>(tx), static_cast<int32_t>(ty)};
    if (int victim = find(tx, ty); victim >= 0) m.removed.push_back({m.to, letter(slots_[victim].code)});
    if (d.exchange >= 0) m.promotion = p_->letters[d.exchange];
    info.steps.push_back(m);
    if (d.place >= 0) {
      Step pl;
      pl.kind = StepKind::Place;
      pl.piece = p_->letters[d.place];
      const Slot& pawn = slots_[d.pawn_slot];
      int64_t px = d.pawn_slot == d.slot ? tx : pawn.x, py = d.pawn_slot == d.slot ? ty : pawn.y;
      Coord c = placement_square(px, py, d.relation, side_);
      pl.to = c;
      info.steps.push_back(pl);
    }
    return info;
  }

  // describe() without allocating: the record validator calls it on every legal action.
  StepBrief brief(const Action& a) const override {
    Decoded d = decode(a);
    const Slot& s = slots_[d.slot];
    const GridMove& mv = g_.types[s.code >> 1].moves[side_][d.move];
    int64_t tx = s.x + mv.dx * d.dist, ty = s.y + mv.dy * d.dist;
    StepBrief b;
    b.steps = d.place >= 0 ? 2 : 1;
    b.piece = p_->letters[s.code >> 1];
    b.from = Coord{s.x, s.y};
    b.to = Coord{static_cast<int32_t>(tx), static_cast<int32_t>(ty)};
    b.capture = find(tx, ty) >= 0;
    if (d.exchange >= 0) b.promotion = p_->letters[d.exchange];
    return b;
  }

  Status status() override {
    Status st;
    const Slot& k = slots_[royal_slot_[side_]];
    st.in_check = attacked(k.x, k.y, side_ ^ 1);
    if (generate<true>(nullptr) == 0) {
      if (st.in_check) {
        st.result = side_ == 0 ? Result::BlackWins : Result::WhiteWins;
        st.end = Termination::Checkmate;
        st.reason = "checkmate";
      } else {
        st.result = Result::Draw;
        st.end = g_.no_move_end;
        st.reason = g_.no_move_reason;
      }
    }
    return st;
  }

  uint64_t hash() const override { return hash_; }
  Color side_to_move() const override { return side_ == 0 ? Color::White : Color::Black; }
  std::unique_ptr<Engine> clone() const override { return std::make_unique<GridGenerator>(*this); }

  uint64_t perft(int depth) override {
    if (depth <= 0) return 1;
    if (depth == 1) return generate<true>(nullptr);
    if (static_cast<int>(buffers_.size()) <= depth) buffers_.resize(static_cast<size_t>(depth) + 1);
    buffers_[depth].clear();
    generate<false>(&buffers_[depth]);
    uint64_t n = 0;
    for (size_t i = 0; i < buffers_[depth].size(); ++i) {
      make(buffers_[depth][i]);
      n += perft(depth - 1);
      unmake();
    }
    return n;
  }

 private:
  GridGenerator(std::shared_ptr<const Program> p, int) : p_(std::move(p)), g_(*p_->grid) {}

  std::shared_ptr<const Program> p_;
  const GridProgram& g_;
  std::vector<Slot> slots_;
  int royal_slot_[2] = {-1, -1};
  int side_ = 0;
  int fullmove_ = 1;
  std::array<std::array<int, kMaxTypes>, 2> hand_{};
  std::array<std::array<int, kMaxTypes>, 2> captured_{};  // [c]: pieces of c's opponent that c captured
  std::array<std::vector<int>, 2> pile_;
  std::array<size_t, 2> cursor_{};
  bool pile_known_[2] = {true, true};
  uint64_t hash_ = 0;
  std::vector<Undo> stack_;
  std::vector<std::vector<Action>> buffers_;

  GridGenerator& operator=(const GridGenerator& o) {
    if (this == &o) return *this;
    p_ = o.p_;
    slots_ = o.slots_;
    royal_slot_[0] = o.royal_slot_[0];
    royal_slot_[1] = o.royal_slot_[1];
    side_ = o.side_;
    fullmove_ = o.fullmove_;
    hand_ = o.hand_;
    captured_ = o.captured_;
    pile_ = o.pile_;
    cursor_ = o.cursor_;
    pile_known_[0] = o.pile_known_[0];
    pile_known_[1] = o.pile_known_[1];
    hash_ = o.hash_;
    stack_ = o.stack_;
    return *this;
  }

 public:
  GridGenerator(const GridGenerator& o) : p_(o.p_), g_(*p_->grid) { *this = o; }

 private:
  int ntypes() const { return p_->ntypes; }
  char letter(int code) const {
    char l = p_->letters[code >> 1];
    return (code & 1) ? static_cast<char>(std::tolower(static_cast<unsigned char>(l))) : l;
  }
  int type_of_letter(char ch) const {
    size_t i = p_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
    return i == std::string::npos ? -1 : static_cast<int>(i);
  }
  int find(int64_t x, int64_t y) const {
    for (size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].code >= 0 && slots_[i].x == x && slots_[i].y == y) return static_cast<int>(i);
    return -1;
  }
  // Is (x, y) next to a piece other than slot `except`?
  bool adjacent_other(int64_t x, int64_t y, int except) const {
    for (size_t i = 0; i < slots_.size(); ++i) {
      const Slot& s = slots_[i];
      if (s.code < 0 || static_cast<int>(i) == except) continue;
      if (std::abs(s.x - x) <= 1 && std::abs(s.y - y) <= 1) return true;
    }
    return false;
  }
  Coord placement_square(int64_t px, int64_t py, int relation, int color) const {
    if (relation == 0) return Coord{static_cast<int32_t>(px - 1), static_cast<int32_t>(py)};
    if (relation == 1) return Coord{static_cast<int32_t>(px + 1), static_cast<int32_t>(py)};
    return Coord{static_cast<int32_t>(px), static_cast<int32_t>(color == 0 ? py - 1 : py + 1)};
  }

  // Whether (x, y) is attacked by colour `by`: a piece that could capture there, the
  // adjacency rule ignored (RULINGS 2.5e).
  bool attacked(int64_t x, int64_t y, int by) const {
    for (size_t j = 0; j < slots_.size(); ++j) {
      const Slot& s = slots_[j];
      if (s.code < 0 || (s.code & 1) != by) continue;
      const GridPiece& gp = g_.types[s.code >> 1];
      int64_t dx = x - s.x, dy = y - s.y;
      if (dx == 0 && dy == 0) continue;
      if (std::abs(dx) <= 3 && std::abs(dy) <= 3 && gp.leap_capture[by][dx + 3][dy + 3]) return true;
      if (!gp.ride_capture[by]) continue;
      if (dx != 0 && dy != 0 && std::abs(dx) != std::abs(dy)) continue;
      int ux = (dx > 0) - (dx < 0), uy = (dy > 0) - (dy < 0);
      if (!(gp.ride_capture[by] & (1u << unit_dir(ux, uy)))) continue;
      int64_t dist = std::max(std::abs(dx), std::abs(dy));
      bool clear = true;
      for (size_t m = 0; m < slots_.size() && clear; ++m) {
        const Slot& o = slots_[m];
        if (o.code < 0 || m == j) continue;
        int64_t rx = int64_t{o.x} - s.x, ry = int64_t{o.y} - s.y;  // 64-bit: coordinates span int32
        int64_t k = ux != 0 ? rx * ux : ry * uy;
        if (k > 0 && k < dist && rx == k * ux && ry == k * uy) clear = false;
      }
      if (clear) return true;
    }
    return false;
  }

  bool pseudo_ = false;  // pseudo_legal_actions(): no royal-safety test

  bool own_royal_safe(int us) const {
    const Slot& k = slots_[royal_slot_[us]];
    return !attacked(k.x, k.y, us ^ 1);
  }

  // Distinct placement squares after a move: (square, relation, pawn slot), pawn tiles
  // and other tiles separately. `not_pawn` is a slot that no longer counts as a pawn (an
  // exchanged pawn).
  struct PlaceSq {
    int64_t x, y;
    int relation, pawn_slot;
  };
  void placement_squares(int us, int not_pawn, std::vector<PlaceSq>& beside,
                         std::vector<PlaceSq>& behind) const {
    beside.clear();
    behind.clear();
    for (size_t i = 0; i < slots_.size(); ++i) {
      const Slot& s = slots_[i];
      if (s.code != g_.pawn_type * 2 + us || static_cast<int>(i) == not_pawn) continue;
      auto add = [&](std::vector<PlaceSq>& v, int64_t x, int64_t y, int rel) {
        if (find(x, y) >= 0) return;
        for (const auto& e : v)
          if (e.x == x && e.y == y) return;
        v.push_back({x, y, rel, static_cast<int>(i)});
      };
      if (g_.place_pawn_beside) {
        add(beside, int64_t{s.x} - 1, s.y, 0);
        add(beside, int64_t{s.x} + 1, s.y, 1);
      }
      if (g_.place_other_behind) add(behind, s.x, us == 0 ? int64_t{s.y} - 1 : int64_t{s.y} + 1, 2);
    }
  }

  template <bool Count>
  uint64_t generate(std::vector<Action>* out) {
    uint64_t n = 0;
    const int us = side_, them = us ^ 1;
    std::vector<int64_t> ks;
    std::vector<PlaceSq> beside, behind;
    // Tries the move of slot i by vector mi over distance k; emits it with its exchange
    // and placement choices when legal.
    auto try_move = [&](int i, int mi, int64_t k, int64_t tx, int64_t ty) {
      if (tx < INT32_MIN || tx > INT32_MAX || ty < INT32_MIN || ty > INT32_MAX) return;
      Slot& s = slots_[i];
      const int32_t fx = s.x, fy = s.y;
      const int victim = find(tx, ty);
      int8_t vcode = victim >= 0 ? slots_[victim].code : int8_t{-1};
      if (victim >= 0) slots_[victim].code = -1;
      s.x = static_cast<int32_t>(tx);
      s.y = static_cast<int32_t>(ty);
      if (pseudo_ || own_royal_safe(us)) {
        // Exchange choices (RULINGS 2.7): on the enemy royal's rank, for an own piece type
        // the opponent has captured; the plain move is always a choice.
        int choices[kMaxTypes + 1];
        int nchoices = 0;
        choices[nchoices++] = -1;
        const GridPiece& gp = g_.types[s.code >> 1];
        if (gp.promote_exchange && s.y == slots_[royal_slot_[them]].y)
          for (int t = 0; t < ntypes(); ++t)
            if (captured_[them][t] > 0 && t != g_.pawn_type && t != g_.royal_type) choices[nchoices++] = t;
        for (int c = 0; c < nchoices; ++c) {
          const int ex = choices[c];
          if (Count) {
            ++n;
          } else {
            out->push_back(encode(i, mi, k, ex));
          }
          if (!g_.place) continue;
          placement_squares(us, ex >= 0 ? i : -1, beside, behind);
          for (int t = 0; t < ntypes(); ++t) {
            if (hand_[us][t] <= 0) continue;
            const auto& squares = t == g_.pawn_type ? beside : behind;
            if (Count) {
              n += squares.size();
            } else {
              for (const auto& sq : squares)
                out->push_back(encode(i, mi, k, ex, t, sq.relation, sq.pawn_slot));
            }
          }
        }
      }
      s.x = fx;
      s.y = fy;
      if (victim >= 0) slots_[victim].code = vcode;
    };
    for (int i = 0; i < static_cast<int>(slots_.size()); ++i) {
      const Slot s = slots_[i];
      if (s.code < 0 || (s.code & 1) != us) continue;
      const auto& moves = g_.types[s.code >> 1].moves[us];
      for (int mi = 0; mi < static_cast<int>(moves.size()); ++mi) {
        const GridMove& mv = moves[mi];
        if (!mv.rider) {
          int64_t tx = int64_t{s.x} + mv.dx, ty = int64_t{s.y} + mv.dy;
          int j = find(tx, ty);
          if (j >= 0) {
            if ((slots_[j].code & 1) == them && mv.can_capture) try_move(i, mi, 1, tx, ty);
          } else if (mv.can_move && (!g_.adjacency_rule || adjacent_other(tx, ty, i))) {
            try_move(i, mi, 1, tx, ty);
          }
          continue;
        }
        // A rider: the first piece on the ray, then the empty squares before it that some
        // other piece makes legal.
        int64_t kb = INT64_MAX;
        int jb = -1;
        for (int j = 0; j < static_cast<int>(slots_.size()); ++j) {
          const Slot& o = slots_[j];
          if (o.code < 0 || j == i) continue;
          int64_t rx = int64_t{o.x} - s.x, ry = int64_t{o.y} - s.y;
          int64_t k = mv.dx != 0 ? rx * mv.dx : ry * mv.dy;
          if (k > 0 && rx == k * mv.dx && ry == k * mv.dy && k < kb) {
            kb = k;
            jb = j;
          }
        }
        if (jb >= 0 && mv.can_capture && (slots_[jb].code & 1) == them)
          try_move(i, mi, kb, int64_t{s.x} + kb * mv.dx, int64_t{s.y} + kb * mv.dy);
        if (!mv.can_move) continue;
        ks.clear();
        for (int j = 0; j < static_cast<int>(slots_.size()); ++j) {
          const Slot& o = slots_[j];
          if (o.code < 0 || j == i) continue;
          int64_t lo = 1, hi = kb - 1;
          // |s + k*d - o| <= 1 on each axis.
          auto axis = [&](int64_t sv, int64_t ov, int dv) {
            if (dv == 0) {
              if (std::abs(sv - ov) > 1) hi = lo - 1;
              return;
            }
            int64_t c = (ov - sv) * dv;
            lo = std::max(lo, c - 1);
            hi = std::min(hi, c + 1);
          };
          axis(s.x, o.x, mv.dx);
          axis(s.y, o.y, mv.dy);
          for (int64_t k = lo; k <= hi; ++k) ks.push_back(k);
        }
        std::sort(ks.begin(), ks.end());
        ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
        for (int64_t k : ks) try_move(i, mi, k, int64_t{s.x} + k * mv.dx, int64_t{s.y} + k * mv.dy);
      }
    }
    return n;
  }

  void set_piece_hash(const Slot& s) { hash_ ^= piece_key(s.x, s.y, s.code); }

  void make(const Action& a) {
    const Decoded d = decode(a);
    const int us = side_, them = us ^ 1;
    Slot& s = slots_[d.slot];
    const GridMove& mv = g_.types[s.code >> 1].moves[us][d.move];
    Undo u{a, s.x, s.y, -1, -1, s.code, -1, -1, fullmove_, hash_};
    const int64_t tx = int64_t{s.x} + mv.dx * d.dist, ty = int64_t{s.y} + mv.dy * d.dist;
    const int victim = find(tx, ty);
    if (victim >= 0) {
      Slot& v = slots_[victim];
      u.captured_slot = victim;
      u.captured_code = v.code;
      set_piece_hash(v);
      bump_captured(us, v.code >> 1, +1);
      v.code = -1;
    }
    set_piece_hash(s);
    s.x = static_cast<int32_t>(tx);
    s.y = static_cast<int32_t>(ty);
    if (d.exchange >= 0) {
      bump_captured(them, d.exchange, -1);
      bump_captured(them, s.code >> 1, +1);
      s.code = static_cast<int8_t>(d.exchange * 2 + us);
    }
    set_piece_hash(s);
    if (d.place >= 0) {
      const Slot& pawn = slots_[d.pawn_slot];
      Coord c = placement_square(pawn.x, pawn.y, d.relation, us);
      bump_hand(us, d.place, -1);
      slots_.push_back(Slot{c.x, c.y, static_cast<int8_t>(d.place * 2 + us)});
      u.placed_slot = static_cast<int>(slots_.size()) - 1;
      set_piece_hash(slots_.back());
      // One draw after a placement, when the pile holds a tile and the hand has room
      // (RULINGS 2.4; the hand never exceeds its size).
      if (g_.draw_after_place && pile_known_[us] && cursor_[us] < pile_[us].size() &&
          hand_total(us) < g_.hand_size) {
        u.drew = pile_[us][cursor_[us]];
        hash_ ^= pile_key(us, cursor_[us]);
        ++cursor_[us];
        bump_hand(us, u.drew, +1);
      }
    }
    if (us == 1 && fullmove_ < INT32_MAX) ++fullmove_;
    side_ ^= 1;
    hash_ ^= count_key(3, 0, 0, 0);
    stack_.push_back(u);
  }

  void unmake() {
    const Undo u = stack_.back();
    stack_.pop_back();
    side_ ^= 1;
    const int us = side_, them = us ^ 1;
    const Decoded d = decode(u.action);
    if (u.placed_slot >= 0) {
      if (u.drew >= 0) {
        bump_hand(us, u.drew, -1);
        --cursor_[us];
      }
      slots_.pop_back();
      bump_hand(us, d.place, +1);
    }
    Slot& s = slots_[d.slot];
    if (d.exchange >= 0) {
      bump_captured(them, u.moved_code >> 1, -1);
      bump_captured(them, d.exchange, +1);
    }
    s.code = u.moved_code;
    s.x = u.from_x;
    s.y = u.from_y;
    if (u.captured_slot >= 0) {
      slots_[u.captured_slot].code = u.captured_code;
      bump_captured(us, u.captured_code >> 1, -1);
    }
    fullmove_ = u.fullmove;
    hash_ = u.hash;
  }

  uint64_t pile_key(int c, size_t index) const {
    return count_key(4, c, pile_[c][index], static_cast<int>(pile_[c].size() - 1 - index));
  }
  int hand_total(int c) const {
    int n = 0;
    for (int t = 0; t < ntypes(); ++t) n += hand_[c][t];
    return n;
  }
  void bump_hand(int c, int t, int delta) {
    hash_ ^= count_key(0, c, t, hand_[c][t]);
    hand_[c][t] += delta;
    hash_ ^= count_key(0, c, t, hand_[c][t]);
  }
  void bump_captured(int c, int t, int delta) {
    hash_ ^= count_key(1, c, t, captured_[c][t]);
    captured_[c][t] += delta;
    hash_ ^= count_key(1, c, t, captured_[c][t]);
  }

  ChessMePosition start_position(uint64_t seed) const {
    ChessMePosition pos = parse_chessme(g_.setup_pieces + " w -/- -/- -/- 1", g_.tile_rules());
    for (int c = 0; c < 2; ++c) {
      std::string tiles =
          g_.pile_shuffled ? shuffle_tiles(g_.pile, seed, c == 0 ? Color::White : Color::Black) : g_.pile;
      if (c == 1)
        for (char& ch : tiles) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      size_t draw = std::min(tiles.size(), static_cast<size_t>(g_.hand_draw));
      pos.hand[c] = tiles.substr(0, draw);
      pos.pile[c] = tiles.substr(draw);
      pos.pile_known[c] = true;
    }
    return pos;
  }

  void load(const ChessMePosition& pos) {
    slots_.clear();
    for (const auto& [c, l] : pos.pieces) {
      int t = type_of_letter(l);
      if (t < 0) throw PositionError(std::string("no piece of this ruleset has the letter `") + l + "`", 0);
      int color = std::islower(static_cast<unsigned char>(l)) ? 1 : 0;
      if (t == g_.royal_type) royal_slot_[color] = static_cast<int>(slots_.size());
      slots_.push_back(Slot{c.x, c.y, static_cast<int8_t>(t * 2 + color)});
    }
    for (int c = 0; c < 2; ++c)
      if (royal_slot_[c] < 0)
        throw PositionError(std::string(c ? "Black" : "White") + " has no royal piece", 0);
    side_ = pos.side == Color::White ? 0 : 1;
    fullmove_ = pos.fullmove;
    for (int c = 0; c < 2; ++c) {
      for (char l : pos.hand[c]) {
        int t = type_of_letter(l);
        if (t < 0) throw PositionError(std::string("unknown tile `") + l + "` in a hand", 0);
        ++hand_[c][t];
      }
      for (char l : pos.captured[c]) {
        int t = type_of_letter(l);
        if (t < 0) throw PositionError(std::string("unknown tile `") + l + "` in a capture pile", 0);
        ++captured_[c][t];
      }
      pile_known_[c] = pos.pile_known[c];
      for (char l : pos.pile[c]) {
        int t = type_of_letter(l);
        if (t < 0) throw PositionError(std::string("unknown tile `") + l + "` in a draw pile", 0);
        pile_[c].push_back(t);
      }
      cursor_[c] = 0;
    }
    const Slot& k = slots_[royal_slot_[side_ ^ 1]];
    if (attacked(k.x, k.y, side_)) throw PositionError("the side not to move is in check", 0);
    hash_ = 0;
    for (const Slot& s : slots_) set_piece_hash(s);
    for (int c = 0; c < 2; ++c) {
      for (int t = 0; t < ntypes(); ++t) {
        hash_ ^= count_key(0, c, t, hand_[c][t]);
        hash_ ^= count_key(1, c, t, captured_[c][t]);
      }
      // The remaining pile is part of the position; each tile is keyed by its distance from
      // the bottom, which drawing from the top does not change, so a position hashes the
      // same however it was reached.
      if (!pile_known_[c]) hash_ ^= count_key(2, c, 1, 0);
      for (size_t i = 0; i < pile_[c].size(); ++i) hash_ ^= pile_key(c, i);
    }
    if (side_) hash_ ^= count_key(3, 0, 0, 0);
  }
};

}  // namespace

std::unique_ptr<Engine> make_grid_engine(std::shared_ptr<const Program> program) {
  return std::make_unique<GridGenerator>(std::move(program));
}

}  // namespace arb::lang
