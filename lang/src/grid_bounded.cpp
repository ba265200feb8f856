// The grid back end on a bounded board (issue 26): the pieces' move vectors walked on a
// W x H mailbox, the board's edges the only bound. It shares no move generation with the
// bitboard generator (generator.cpp): it reads a BoundedGridProgram built from the Betza
// text (grid_bounded_compile.cpp) and writes the same FEN, so `arbiter fuzz --against grid`
// compares the two node by node.
#include "arbiter/lang/grid_bounded.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "arbiter/fen.hpp"
#include "grid_bounded.hpp"

namespace arb::lang {

namespace {

enum Kind : uint64_t { kNormal = 0, kDouble, kEnPassant, kCastleK, kCastleQ, kPromote };

// Action.lo: from (16 bits), to (16), kind (8), promoted type (8).
inline Action encode(int from, int to, Kind k, int promo = 0) {
  return Action{static_cast<uint64_t>(from) | static_cast<uint64_t>(to) << 16 |
                    static_cast<uint64_t>(k) << 32 | static_cast<uint64_t>(promo) << 40,
                0};
}
inline int from_of(const Action& a) {
  return static_cast<int>(a.lo & 0xFFFF);
}
inline int to_of(const Action& a) {
  return static_cast<int>((a.lo >> 16) & 0xFFFF);
}
inline Kind kind_of(const Action& a) {
  return static_cast<Kind>((a.lo >> 32) & 0xFF);
}
inline int promo_of(const Action& a) {
  return static_cast<int>((a.lo >> 40) & 0xFF);
}

inline uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class BoundedGrid final : public Engine {
 public:
  explicit BoundedGrid(std::shared_ptr<const BoundedGridProgram> g)
      : g_(std::move(g)), w_(g_->width), h_(g_->height) {
    set_position(g_->program->start_text);
  }

  std::string name() const override { return "grid:" + g_->program->variant; }
  GameConfig config() const override { return GameConfig{g_->program->variant, g_->program->options}; }

  void set_position(std::string_view text) override {
    if (text == "start") text = g_->program->start_text;
    std::string allowed;
    for (char l : g_->letters) {
      allowed.push_back(l);
      allowed.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(l))));
    }
    const FenFields f = parse_fen(text, w_, h_, allowed);
    if (f.has_reserve) throw PositionError("this variant has no reserve", 0);
    if (f.checks_remaining) throw PositionError("this variant counts no checks", 0);
    if (!f.ep_more.empty()) throw PositionError("an en-passant field of one square is expected", 0);
    BoundedGrid fresh(g_, 0);
    fresh.load(f);
    *this = fresh;
  }

  std::string position() const override {
    FenFields f;
    f.width = w_;
    f.height = h_;
    f.cells.assign(board_.size(), 0);
    for (size_t s = 0; s < board_.size(); ++s)
      if (board_[s] >= 0) f.cells[s] = letter(board_[s]);
    f.has_reserve = g_->program->has_reserve;
    f.side = side_ == 0 ? Color::White : Color::Black;
    std::vector<CastlingRight> rights;
    for (int i = 0; i < 4; ++i)
      if (rook_sq_[i] >= 0) rights.push_back({i < 2 ? Color::White : Color::Black, rook_sq_[i] % w_});
    const Program& p = *g_->program;
    const char king = p.castling_king >= 0 ? p.letters[p.castling_king] : 'K';
    f.castling = format_castling(f, rights, king, p.castling_rooks, p.castling_rank);
    if (ep_ >= 0) f.ep = coord(ep_);
    f.halfmove = halfmove_;
    f.fullmove = fullmove_;
    return format_fen(f);
  }

  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    pseudo_actions(side_, out);
    if (pseudo_) return;
    size_t n = 0;
    for (const Action& a : out)
      if (legal(a)) out[n++] = a;
    out.resize(n);
  }
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
    Step s;
    const int from = from_of(a), to = to_of(a);
    const Kind k = kind_of(a);
    s.kind = StepKind::Move;
    s.piece = board_[from] >= 0 ? g_->letters[board_[from] >> 1] : '?';
    s.from = coord(from);
    s.to = coord(to);
    if (k == kCastleK || k == kCastleQ) {
      s.castle = k == kCastleK ? Castle::KingSide : Castle::QueenSide;
      s.king_to = coord(castle_king_to(from, k));
      return ActionInfo{{s}};
    }
    const int victim = k == kEnPassant ? ep_victim_ : to;
    if (victim >= 0 && board_[victim] >= 0) s.removed.push_back({coord(victim), letter(board_[victim])});
    if (k == kPromote) s.promotion = g_->letters[promo_of(a)];
    return ActionInfo{{s}};
  }

  Status status() override {
    Status st;
    st.in_check = attacked(royal_sq_[side_], side_ ^ 1);
    if (g_->claim_fifty && halfmove_ >= g_->claim_fifty) st.claim_fifty = true;
    if (g_->claim_repetition) {
      const uint64_t now = key();
      st.claim_threefold = std::count(history_.begin(), history_.end(), now) >= g_->claim_repetition;
    }
    std::vector<Action> acts;
    legal_actions(acts);
    if (acts.empty()) {
      if (st.in_check) {
        st.result = side_ == 0 ? Result::BlackWins : Result::WhiteWins;
        st.end = Termination::Checkmate;
        st.reason = g_->checkmate_reason;
      } else {
        st.result = Result::Draw;
        st.end = Termination::Stalemate;
        st.reason = g_->stalemate_reason;
      }
    } else if (g_->insufficient_draw && insufficient()) {
      st.result = Result::Draw;
      st.end = Termination::InsufficientMaterial;
      st.reason = "insufficient-material";
    }
    return st;
  }

  uint64_t hash() const override { return key(); }
  Color side_to_move() const override { return side_ == 0 ? Color::White : Color::Black; }
  std::unique_ptr<Engine> clone() const override { return std::make_unique<BoundedGrid>(*this); }

  uint64_t perft(int depth) override {
    if (depth <= 0) return 1;
    std::vector<Action> acts;
    legal_actions(acts);
    if (depth == 1) return acts.size();
    uint64_t n = 0;
    for (const Action& a : acts) {
      make(a);
      n += perft(depth - 1);
      unmake();
    }
    return n;
  }

 private:
  BoundedGrid(std::shared_ptr<const BoundedGridProgram> g, int)
      : g_(std::move(g)), w_(g_->width), h_(g_->height) {}

  struct Undo {
    Action action;
    int8_t moved = -1, captured = -1;
    int victim = -1;
    int ep = -1, ep_victim = -1, halfmove = 0, fullmove = 1;
    std::array<int, 4> rook_sq{};
    std::array<int, 2> royal_sq{};
  };

  std::shared_ptr<const BoundedGridProgram> g_;
  int w_ = 8, h_ = 8;
  std::vector<int8_t> board_;  // row-major from White's first rank; type*2+colour, -1 empty
  int side_ = 0, halfmove_ = 0, fullmove_ = 1;
  int ep_ = -1, ep_victim_ = -1;
  std::array<int, 4> rook_sq_{-1, -1, -1, -1};  // castling rights: White K, Q, Black K, Q
  std::array<int, 2> royal_sq_{-1, -1};
  std::vector<Undo> stack_;
  std::vector<uint64_t> history_;  // keys of the positions since the position was set
  bool pseudo_ = false;

  Coord coord(int s) const { return Coord{s % w_, s / w_ + 1}; }
  char letter(int code) const {
    const char l = g_->letters[code >> 1];
    return (code & 1) ? static_cast<char>(std::tolower(static_cast<unsigned char>(l))) : l;
  }
  const BoundedPiece& type(int code) const { return g_->types[code >> 1]; }
  bool inside(int x, int y) const { return x >= 0 && x < w_ && y >= 0 && y < h_; }
  bool on_initial_row(const BoundedPiece& bp, int color, int sq) const {
    return bp.initial_rows[color] >> (sq / w_) & 1;
  }
  // A lame leap's squares passed (straight line from `from`, exclusive of both ends) empty.
  bool path_clear(int fx, int fy, int dx, int dy) const {
    const int n = std::max(std::abs(dx), std::abs(dy));
    const int ux = dx / n, uy = dy / n;
    for (int k = 1; k < n; ++k)
      if (board_[(fy + uy * k) * w_ + fx + ux * k] >= 0) return false;
    return true;
  }

  uint64_t key() const {
    uint64_t h = mix(static_cast<uint64_t>(side_) + 0x5151);
    for (size_t s = 0; s < board_.size(); ++s)
      if (board_[s] >= 0) h ^= mix((s << 8) + static_cast<uint64_t>(board_[s]) + 1);
    for (int i = 0; i < 4; ++i)
      h ^= mix(0xCA57ull + (static_cast<uint64_t>(i) << 20) + static_cast<uint64_t>(rook_sq_[i] + 1));
    return h ^ mix(0xE9ull + static_cast<uint64_t>(ep_ + 1));
  }

  // Whether square `sq` is attacked by colour `by`.
  bool attacked(int sq, int by) const {
    const int tx = sq % w_, ty = sq / w_;
    for (int s = 0; s < static_cast<int>(board_.size()); ++s) {
      const int code = board_[s];
      if (code < 0 || (code & 1) != by) continue;
      const BoundedPiece& bp = type(code);
      const int sx = s % w_, sy = s / w_, ddx = tx - sx, ddy = ty - sy;
      for (const BoundedMove& mv : bp.moves[by]) {
        if (!mv.can_capture) continue;
        if (mv.initial && !on_initial_row(bp, by, s)) continue;
        if (mv.range == 1) {
          if (ddx == mv.dx && ddy == mv.dy && (!mv.lame || path_clear(sx, sy, mv.dx, mv.dy))) return true;
          continue;
        }
        int k = 0;
        if (mv.dx != 0) {
          if (ddx % mv.dx) continue;
          k = ddx / mv.dx;
        } else if (ddx != 0) {
          continue;
        }
        if (mv.dy != 0) {
          if (ddy % mv.dy) continue;
          if (mv.dx != 0 && k != ddy / mv.dy) continue;
          k = ddy / mv.dy;
        } else if (ddy != 0) {
          continue;
        }
        if (k <= 0 || (mv.range > 0 && k > mv.range)) continue;
        bool clear = true;
        for (int j = 1; j < k && clear; ++j) clear = board_[(sy + mv.dy * j) * w_ + sx + mv.dx * j] < 0;
        if (clear) return true;
      }
    }
    return false;
  }

  void add(std::vector<Action>& out, int us, int code, int from, int to, Kind k) const {
    const BoundedPiece& bp = type(code);
    const int row = to / w_;
    if (bp.promote_rows[us] >> row & 1) {
      for (char l : bp.promote_to)
        out.push_back(encode(from, to, kPromote, static_cast<int>(g_->letters.find(l))));
      return;
    }
    if (bp.forbidden_rows[us] >> row & 1) return;
    out.push_back(encode(from, to, k));
  }

  void pseudo_actions(int us, std::vector<Action>& out) const {
    for (int s = 0; s < static_cast<int>(board_.size()); ++s) {
      const int code = board_[s];
      if (code < 0 || (code & 1) != us) continue;
      const size_t first = out.size();
      const BoundedPiece& bp = type(code);
      const int sx = s % w_, sy = s / w_;
      for (const BoundedMove& mv : bp.moves[us]) {
        if (mv.initial && !on_initial_row(bp, us, s)) continue;
        for (int k = 1; mv.range == 0 || k <= mv.range; ++k) {
          const int x = sx + mv.dx * k, y = sy + mv.dy * k;
          if (!inside(x, y)) break;
          if (mv.lame && !path_clear(sx, sy, mv.dx, mv.dy)) break;
          const int t = y * w_ + x;
          if (board_[t] < 0) {
            if (mv.can_move) add(out, us, code, s, t, mv.double_step ? kDouble : kNormal);
            if (mv.en_passant && mv.can_capture && t == ep_) add(out, us, code, s, t, kEnPassant);
            continue;
          }
          if ((board_[t] & 1) != us && mv.can_capture) add(out, us, code, s, t, kNormal);
          break;
        }
      }
      // Two move vectors reaching one square make one action.
      std::sort(out.begin() + static_cast<long>(first), out.end(),
                [](const Action& a, const Action& b) { return a.lo < b.lo; });
      out.erase(std::unique(out.begin() + static_cast<long>(first), out.end()), out.end());
    }
    castlings(us, out);
  }

  int castle_king_to(int king, Kind k) const {
    const Program& p = *g_->program;
    return (king / w_) * w_ + (k == kCastleK ? p.ks_king_to : p.qs_king_to);
  }

  void castlings(int us, std::vector<Action>& out) const {
    const Program& p = *g_->program;
    for (int i = 0; i < 2; ++i) {
      const int rook = rook_sq_[us * 2 + i], king = royal_sq_[us];
      if (rook < 0) continue;
      const Kind k = i == 0 ? kCastleK : kCastleQ;
      const int kto = castle_king_to(king, k);
      const int rto = (king / w_) * w_ + (i == 0 ? p.ks_rook_to : p.qs_rook_to);
      bool ok = true;
      for (auto [a, b] : {std::pair{king, kto}, std::pair{rook, rto}})
        for (int q = std::min(a, b); q <= std::max(a, b) && ok; ++q)
          ok = q == king || q == rook || board_[q] < 0;
      for (int q = std::min(king, kto); q <= std::max(king, kto) && ok; ++q) ok = !attacked(q, us ^ 1);
      if (ok) out.push_back(encode(king, rook, k));
    }
  }

  bool legal(const Action& a) {
    make(a, /*settle_ep=*/false);
    const bool safe = !attacked(royal_sq_[side_ ^ 1], side_);
    unmake();
    return safe;
  }

  void make(const Action& a, bool settle_ep = true) {
    const int us = side_, from = from_of(a), to = to_of(a);
    const Kind k = kind_of(a);
    Undo u;
    u.action = a;
    u.moved = board_[from];
    u.ep = ep_;
    u.ep_victim = ep_victim_;
    u.halfmove = halfmove_;
    u.fullmove = fullmove_;
    u.rook_sq = rook_sq_;
    u.royal_sq = royal_sq_;
    ep_ = ep_victim_ = -1;
    if (k == kCastleK || k == kCastleQ) {
      const Program& p = *g_->program;
      const int kto = castle_king_to(from, k),
                rto = (from / w_) * w_ + (k == kCastleK ? p.ks_rook_to : p.qs_rook_to);
      const int8_t rook = board_[to];
      board_[from] = -1;
      board_[to] = -1;
      board_[kto] = u.moved;
      board_[rto] = rook;
      royal_sq_[us] = kto;
      rook_sq_[us * 2] = rook_sq_[us * 2 + 1] = -1;
      ++halfmove_;
    } else {
      u.victim = k == kEnPassant ? u.ep_victim : to;
      u.captured = board_[u.victim];
      board_[u.victim] = -1;
      board_[from] = -1;
      board_[to] = k == kPromote ? static_cast<int8_t>(promo_of(a) * 2 + us) : u.moved;
      if (type(u.moved).royal) {
        royal_sq_[us] = to;
        rook_sq_[us * 2] = rook_sq_[us * 2 + 1] = -1;
      }
      for (int& r : rook_sq_)
        if (r == from || r == to) r = -1;
      halfmove_ = u.captured >= 0 || type(u.moved).resets_clock || k == kPromote ? 0 : halfmove_ + 1;
    }
    if (us == 1) ++fullmove_;
    side_ ^= 1;
    stack_.push_back(u);
    if (k == kDouble && settle_ep) {
      // The square passed, kept only when the opponent has a legal capture there.
      ep_ = (from + to) / 2;
      ep_victim_ = to;
      if (!ep_capturable()) ep_ = ep_victim_ = -1;
    }
    if (settle_ep) history_.push_back(key());
  }

  bool ep_capturable() {
    std::vector<Action> acts;
    pseudo_actions(side_, acts);
    for (const Action& a : acts)
      if (kind_of(a) == kEnPassant && legal(a)) return true;
    return false;
  }

  void unmake() {
    const Undo u = stack_.back();
    stack_.pop_back();
    if (history_.size() > stack_.size() + 1) history_.pop_back();
    side_ ^= 1;
    const int from = from_of(u.action), to = to_of(u.action);
    const Kind k = kind_of(u.action);
    if (k == kCastleK || k == kCastleQ) {
      const Program& p = *g_->program;
      const int kto = castle_king_to(from, k),
                rto = (from / w_) * w_ + (k == kCastleK ? p.ks_rook_to : p.qs_rook_to);
      const int8_t rook = board_[rto];
      board_[kto] = -1;
      board_[rto] = -1;
      board_[from] = u.moved;
      board_[to] = rook;
    } else {
      board_[to] = -1;
      board_[u.victim] = u.captured;
      board_[from] = u.moved;
    }
    ep_ = u.ep;
    ep_victim_ = u.ep_victim;
    halfmove_ = u.halfmove;
    fullmove_ = u.fullmove;
    rook_sq_ = u.rook_sq;
    royal_sq_ = u.royal_sq;
  }

  // The dead-position rule as the ruleset states it (FIDE 5.2.2's usual cases): bare royal
  // pieces, one knight or bishop besides, or one bishop a side on squares of one colour.
  bool insufficient() const {
    int bishops[2] = {0, 0}, knights = 0, colour[2] = {-1, -1};
    for (size_t s = 0; s < board_.size(); ++s) {
      const int code = board_[s];
      if (code < 0 || type(code).royal) continue;
      if (type(code).bishop) {
        ++bishops[code & 1];
        colour[code & 1] = static_cast<int>((s % static_cast<size_t>(w_) + s / static_cast<size_t>(w_)) & 1);
      } else if (type(code).knight) {
        ++knights;
      } else {
        return false;
      }
    }
    const int minors = bishops[0] + bishops[1] + knights;
    if (minors <= 1) return true;
    return minors == 2 && knights == 0 && bishops[0] == 1 && bishops[1] == 1 && colour[0] == colour[1];
  }

  void load(const FenFields& f) {
    board_.assign(static_cast<size_t>(w_ * h_), -1);
    for (int s = 0; s < w_ * h_; ++s) {
      const char ch = f.cells[static_cast<size_t>(s)];
      if (!ch) continue;
      const size_t t = g_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
      if (t == std::string::npos) throw PositionError(std::string("no piece has the letter `") + ch + "`", 0);
      const int color = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
      const int code = static_cast<int>(t) * 2 + color;
      if (g_->types[t].forbidden_rows[color] >> (s / w_) & 1)
        throw PositionError(std::string("`") + ch + "` may not stand on " + square_name(s), 0);
      if (g_->types[t].promote_rows[color] >> (s / w_) & 1)
        throw PositionError(std::string(color ? "Black" : "White") + " has a " +
                                static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) +
                                " on its promotion rank",
                            0);
      if (g_->types[t].royal) {
        if (royal_sq_[color] >= 0) throw PositionError("more than one royal piece of a colour", 0);
        royal_sq_[color] = s;
      }
      board_[static_cast<size_t>(s)] = static_cast<int8_t>(code);
    }
    for (int c = 0; c < 2; ++c)
      if (royal_sq_[c] < 0)
        throw PositionError(std::string(c ? "Black" : "White") + " has no royal piece", 0);
    side_ = f.side == Color::White ? 0 : 1;
    halfmove_ = f.halfmove;
    fullmove_ = f.fullmove;
    if (attacked(royal_sq_[side_ ^ 1], side_)) throw PositionError("the side not to move is in check", 0);
    load_castling(f);
    if (f.ep) {
      const int passed = (f.ep->y - 1) * w_ + f.ep->x, mover = side_ ^ 1;
      bool any_double = false;
      for (size_t t = 0; t < g_->types.size() && ep_ < 0; ++t)
        for (const BoundedMove& mv : g_->types[t].moves[mover]) {
          if (!mv.double_step) continue;
          any_double = true;
          // The step fits: the mover's piece on its target, the passed square and the
          // origin (one of the piece's initial rows) empty.
          const int vx = f.ep->x + mv.dx / 2, vy = f.ep->y - 1 + mv.dy / 2;
          const int ox = f.ep->x - mv.dx / 2, oy = f.ep->y - 1 - mv.dy / 2;
          if (!inside(vx, vy) || !inside(ox, oy) || board_[passed] >= 0) continue;
          const int victim = vy * w_ + vx, origin = oy * w_ + ox;
          if (board_[victim] != static_cast<int>(t) * 2 + mover || board_[origin] >= 0 ||
              !on_initial_row(g_->types[t], mover, origin))
            continue;
          ep_ = passed;
          ep_victim_ = victim;
          if (!ep_capturable()) ep_ = ep_victim_ = -1;
        }
      if (!any_double)
        throw PositionError(
            "en-passant square " + square_name(passed) + ": no piece of this game makes a double step", 0);
    }
    history_.assign(1, key());
  }

  void load_castling(const FenFields& f) {
    if (f.castling.empty() || f.castling == "-") return;
    const Program& p = *g_->program;
    if (!p.castling) throw PositionError("this variant has no castling; the castling field must be `-`", 0);
    const char king = p.letters[p.castling_king];
    for (const CastlingRight& r : resolve_castling(f, king, p.castling_rooks, p.castling_rank)) {
      const int c = r.color == Color::White ? 0 : 1;
      const int row = c == 0 ? p.castling_rank - 1 : h_ - p.castling_rank;
      const int k = royal_sq_[c];
      if (k / w_ != row) throw PositionError("a castling right without a castling king on the home rank", 0);
      const int idx = c * 2 + (r.rook_file > k % w_ ? 0 : 1);
      if (rook_sq_[idx] >= 0) throw PositionError("two castling rights on the same side of the king", 0);
      rook_sq_[idx] = row * w_ + r.rook_file;
    }
  }

  std::string square_name(int s) const {
    return std::string(1, static_cast<char>('a' + s % w_)) + std::to_string(s / w_ + 1);
  }
};

}  // namespace

std::unique_ptr<Engine> make_bounded_grid_engine(std::shared_ptr<const BoundedGridProgram> grid) {
  return std::make_unique<BoundedGrid>(std::move(grid));
}

}  // namespace arb::lang
