// The compiled generator: runs a Program (compile.hpp) on bitboards. Nothing here knows a
// piece by name; every move comes from the program's per-square tables.
#include <algorithm>
#include <array>
#include <cctype>

#include "arbiter/fen.hpp"
#include "arbiter/lang/compile.hpp"
#include "card_board.hpp"
#include "gen_ends.hpp"
#include "gen_flip.hpp"
#include "gen_misc.hpp"
#include "gen_pass.hpp"

namespace arb::lang {

namespace {

// The generator is instantiated once per bitboard type; that makes its functions look
// bigger to the inliner, which then stops inlining the small hot ones (attack tests, board
// updates) into the move loop. They are inlined as they were with one instantiation.
#define ARB_INLINE [[gnu::always_inline]] inline

using Move = uint32_t;
enum Kind : uint32_t { kNormal = 0, kDouble, kEnPassant, kCastleK, kCastleQ, kPromote, kPlace, kNull };

// 8-bit squares (up to 256), 3-bit kind, 4-bit type.
constexpr Move make_move(int from, int to, uint32_t kind, int type = 0) {
  return static_cast<Move>(from) | (static_cast<Move>(to) << 8) | (kind << 16) |
         (static_cast<Move>(type) << 19);
}
constexpr int from_of(Move m) {
  return m & 255;
}
constexpr int to_of(Move m) {
  return (m >> 8) & 255;
}
constexpr uint32_t kind_of(Move m) {
  return (m >> 16) & 7;
}
constexpr int type_of(Move m) {
  return (m >> 19) & 15;
}
// A kNormal move's type field names the actions that are no plain move (RULINGS 4.10):
// a rampage (the mover runs to `to`, removing every piece on the way) and a strike (the
// mover stays and removes the piece on `to`).
constexpr int kSubRampage = 1, kSubStrike = 2, kSubWhirl = 3;  // a whirlwind: from == to
constexpr int sub_of(Move m) {
  return kind_of(m) == kNormal ? type_of(m) : 0;
}
// A move's second part, the wall it places (`walls placed`, section "walls"): bit 23 set,
// the wall's square in bits 24..31. Moves of programs without placed walls never set them.
constexpr Move with_wall(Move m, int q) {
  return m | (1u << 23) | (static_cast<Move>(q) << 24);
}
constexpr bool has_wall(Move m) {
  return (m >> 23) & 1;
}
constexpr int wall_of(Move m) {
  return static_cast<int>(m >> 24);
}

using bb::clear_lsb;
using bb::lsb;
using bb::msb;
using bb::popcount;
using bb::test;

// Keys for N squares. The sequence is the same for every N, so boards of up to 64 squares
// hash as they always have.
template <int N>
struct Zobrist {
  uint64_t psq[2][kMaxTypes][N];
  uint64_t side;
  uint64_t castle[16];
  uint64_t ep[N];
  uint64_t reserve[2][kMaxTypes][33];
  uint64_t promoted[N];  // a piece standing promoted (`captures-to-hand`: FEN `Q~`)
  uint64_t wall[N];      // a wall square (`walls`: FEN `*`)
  Zobrist() {
    uint64_t s = 0x243F6A8885A308D3ull;
    auto next = [&]() {
      s += 0x9E3779B97F4A7C15ull;
      uint64_t z = s;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    };
    for (auto& a : psq)
      for (auto& b : a)
        for (auto& c : b) c = next();
    side = next();
    for (auto& c : castle) c = next();
    for (auto& e : ep) e = next();
    for (auto& a : reserve)
      for (auto& b : a)
        for (auto& c : b) c = next();
    for (auto& p : promoted) p = next();
    for (auto& w : wall) w = next();
  }
};
template <int N>
const Zobrist<N>& zob() {
  static const Zobrist<N> z;
  return z;
}
// The key of colour c holding n pieces of type t in reserve: the table's up to 32, a mix
// beyond (Reversi's hands hold up to 128).
template <int N>
uint64_t reserve_key(const Zobrist<N>& z, int c, int t, int n) {
  if (n <= 32) return z.reserve[c][t][n];
  uint64_t k = 0xD6E8FEB86659FD93ull * static_cast<uint64_t>((c * kMaxTypes + t) * 512 + n + 1);
  k = (k ^ (k >> 30)) * 0xBF58476D1CE4E5B9ull;
  k = (k ^ (k >> 27)) * 0x94D049BB133111EBull;
  return k ^ (k >> 31);
}

struct Undo {
  Move move;
  int8_t moved;     // code of the piece that moved, or -1 for a placement
  int8_t captured;  // piece code or -1
  int16_t ep, ep_victim;
  uint8_t castling;
  int halfmove;
  int fullmove;
  uint64_t hash;
  // The turn layer: whether this step ended the turn (the side changed), and the double
  // step a first step left pending for the end of the turn.
  bool ends_turn = true;
  int16_t pending_passed = -1, pending_victim = -1;
  uint8_t nremoved = 0;                 // entries this step pushed on Generator::removed_ (rampage, strike)
  bool captured_promoted = false;       // `captures-to-hand`: the victim stood promoted
  bool mover_promoted = false;          // `captures-to-hand`: the mover stood promoted
  std::array<int8_t, 2> checks_left{};  // `checks N -> win`: the counter before the step
  int16_t wall_taken = -1;              // `walls placed duck`: where the wall stood before
  bool petrified = false;               // `petrify`: the capturer turned into a wall
};

template <class BB>
class Generator final : public Engine, public CardBoard {
  static constexpr int N = bb::kSquares<BB>;
  static BB bit(int s) { return bb::bit<BB>(s); }

 public:
  Generator(std::shared_ptr<const Program> p, const BoardTables<BB>* t) : p_(std::move(p)), t_(t) {
    set_position(p_->start_text);
  }

  std::string name() const override { return "compiled:" + p_->variant; }
  GameConfig config() const override { return GameConfig{p_->variant, p_->options}; }

  // ---- position text ----------------------------------------------------------------
  void set_position(std::string_view text) override {
    // `start`, and with `setup chess960` `start:N` (Chess960 start N, RULINGS 4.2).
    if (text == "start") return set_position(p_->start_text);
    if (text.substr(0, 6) == "start:") {
      std::string_view num = text.substr(6);
      if (num.empty() || num.size() > 3 || num.find_first_not_of("0123456789") != std::string_view::npos)
        throw PositionError("start:N needs N in 0..959", 6);
      std::string start = program_start(*p_, std::stoi(std::string(num)));
      return set_position(start);
    }
    std::string allowed;
    for (int t = 0; t < p_->ntypes; ++t) {
      if (p_->plus_marks && p_->plus_base[t] >= 0) continue;  // written `+BASE`
      allowed.push_back(p_->letters[t]);
      allowed.push_back(static_cast<char>(std::tolower(p_->letters[t])));
    }
    if (p_->walls) allowed.push_back('*');  // wall squares
    if (p_->plus_marks)
      allowed.push_back('+');  // shogi's `+P`
    else if (p_->hand_marks)
      allowed.push_back('~');  // promoted pieces are marked
    FenFields f = parse_fen(text, p_->width, p_->height, allowed);
    Generator g(p_, t_, 0);
    g.load(f, text);
    *this = g;
  }

  std::string position() const override {
    FenFields f;
    f.width = p_->width;
    f.height = p_->height;
    f.cells.assign(static_cast<size_t>(p_->squares), 0);
    for (int s = 0; s < p_->squares; ++s)
      if (board_[s] >= 0) f.cells[s] = letter(board_[s]);
    for (BB w = walls_; w; clear_lsb(w)) f.cells[lsb(w)] = '*';
    if (p_->plus_marks) {
      f.plus.assign(f.cells.size(), false);
      for (int s = 0; s < p_->squares; ++s)
        if (board_[s] >= 0 && p_->plus_base[board_[s] >> 1] >= 0) {
          f.plus[s] = true;
          f.cells[s] = letter(p_->plus_base[board_[s] >> 1] * 2 + (board_[s] & 1));
        }
    } else if (promoted_) {
      f.promoted.assign(f.cells.size(), false);
      for (BB b = promoted_; b; clear_lsb(b)) f.promoted[lsb(b)] = true;
    }
    f.has_reserve = p_->has_reserve;
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < p_->ntypes; ++t)
        for (int k = 0; k < reserve_[c][t]; ++k)
          f.reserve.push_back(c == 0 ? p_->letters[t] : static_cast<char>(std::tolower(p_->letters[t])));
    f.side = side_ == 0 ? Color::White : Color::Black;
    std::vector<CastlingRight> rights;
    for (int i = 0; i < 4; ++i)
      if (castling_ & (1 << i))
        rights.push_back({i < 2 ? Color::White : Color::Black, rook_sq_[i] % p_->width});
    char royal = p_->castling_king >= 0 ? p_->letters[p_->castling_king] : 'K';
    if (p_->castling_shredder) {
      // Shredder-FEN: each right as its rook's file, White's first, king side first.
      f.castling.clear();
      for (const auto& r : rights)
        f.castling.push_back(static_cast<char>((r.color == Color::White ? 'A' : 'a') + r.rook_file));
      if (f.castling.empty()) f.castling = "-";
    } else {
      f.castling = format_castling(f, rights, royal, p_->castling_rooks, p_->castling_rank);
    }
    if (ep_ >= 0) write_ep(f);
    if (counting_checks_) f.checks_remaining = std::array<int, 2>{checks_left_[0], checks_left_[1]};
    f.halfmove = halfmove_;
    f.fullmove = fullmove_;
    return format_fen(f);
  }

  // ---- actions ----------------------------------------------------------------------
  // The turn layer (Program::turn): a complete turn is the normal action, then, when the
  // ruleset has an optional `royal-move` phase, a move of one own royal piece. An action is
  // the whole turn: lo holds the first step, and the second in its high half when hi is 1.
  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    std::vector<Move>& moves = legal_buf_;  // reused: no allocation per call
    moves.clear();
    generate<false>(&moves);
    out.reserve(moves.size());
    for (Move m : moves) {
      out.push_back(Action{m, 0});
      if (!royal_phase_ || !(turn_phase_ || p_->king_turn[side_])) continue;
      make(m, /*ends_turn=*/false);
      // A normal action that wins by midline invasion ends the game (RULINGS 4.12).
      if (p_->invasion && !p_->flag_held && invaded(side_)) {
        unmake();
        continue;
      }
      std::vector<Move> seconds;
      royal_only_ = true;
      generate<false>(&seconds);
      royal_only_ = false;
      unmake();
      for (Move m2 : seconds) out.push_back(Action{m | (uint64_t{m2} << 32), 1});
    }
  }

  // The same generation with the royal-safety stage switched off (pseudo_): no pins, no
  // evasions, and the legality test accepts every action the movement rules produce.
  void pseudo_legal_actions(std::vector<Action>& out) override {
    pseudo_ = true;
    legal_actions(out);
    pseudo_ = false;
  }

  void apply(const Action& a) override {
    if (a.hi == 1) {
      make(static_cast<Move>(a.lo), /*ends_turn=*/false);
      make(static_cast<Move>(a.lo >> 32));
    } else {
      make(static_cast<Move>(a.lo));
    }
  }
  void undo() override {
    if (stack_.empty()) return;
    unmake();
    // A turn's second step came after a first that did not end the turn: undo both.
    if (!stack_.empty() && !stack_.back().ends_turn) unmake();
  }

  ActionInfo describe(const Action& a) const override {
    if (a.hi == 1) {
      ActionInfo info = describe(Action{static_cast<Move>(a.lo), 0});
      Generator after(*this);
      after.make(static_cast<Move>(a.lo), /*ends_turn=*/false);
      ActionInfo second = after.describe(Action{static_cast<Move>(a.lo >> 32), 0});
      for (Step& s : second.steps) {
        s.phase = 1;  // the turn's second phase (Chess 2: the king-turn)
        info.steps.push_back(s);
      }
      return info;
    }
    Move m = static_cast<Move>(a.lo);
    if (has_wall(m)) {
      // The move, then its wall: Fairy-Stockfish writes `e2e4,e4e5` (the wall aimed from the
      // mover's destination, the king's when castling).
      ActionInfo info = describe(Action{m & ((1u << 23) - 1), 0});
      const Step& mv = info.steps[0];
      Step w;
      w.kind = StepKind::Wall;
      w.from = mv.castle != Castle::None && !chess960_ ? mv.king_to : mv.to;
      w.to = coord(wall_of(m));
      w.phase = 1;
      info.steps.push_back(w);
      return info;
    }
    Step s;
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    if (k == kPlace) {
      s.kind = StepKind::Place;
      s.piece = p_->letters[type_of(m)];
      s.to = coord(to);
      return ActionInfo{{s}};
    }
    // `pass when-blocked` (gen_flip.hpp) is written `pass`; janggi's `pass` (gen_pass.hpp) as
    // the royal piece's move to its own square, as Fairy-Stockfish writes it (`e2e2`).
    if (k == kNull && !p_->pass) {
      s.kind = StepKind::Pass;
      return ActionInfo{{s}};
    }
    s.kind = sub_of(m) == kSubStrike || sub_of(m) == kSubWhirl ? StepKind::Remove : StepKind::Move;
    s.piece = board_[from] >= 0 ? p_->letters[board_[from] >> 1] : '?';
    s.from = coord(from);
    s.to = coord(to);
    if (sub_of(m) == kSubRampage) {
      // The pieces on the path, nearest first.
      const int d = t_->dir[from][to];
      for (int q = from; q != to;) {
        q = first(d, q, occupied() | bit(to));
        if (board_[q] >= 0) s.removed.push_back({coord(q), letter(board_[q])});
      }
      return ActionInfo{{s}};
    }
    if (sub_of(m) == kSubWhirl) {
      for (BB v = whirl_victims(from); v; clear_lsb(v))
        s.removed.push_back({coord(lsb(v)), letter(board_[lsb(v)])});
      return ActionInfo{{s}};
    }
    if (k == kCastleK || k == kCastleQ) {
      s.castle = k == kCastleK ? Castle::KingSide : Castle::QueenSide;
      int rank = side_ == 0 ? 0 : p_->height - 1;
      s.king_to = coord(rank * p_->width + (k == kCastleK ? p_->ks_king_to : p_->qs_king_to));
    }
    if (k != kCastleK && k != kCastleQ && k != kNull) {  // a pass (kNull) takes nothing
      int victim = k == kEnPassant ? ep_victim_ : to;
      if (victim >= 0 && board_[victim] >= 0) {
        s.removed.push_back({coord(victim), letter(board_[victim])});
        if (blast_types_ >> (board_[from] >> 1) & 1) describe_blast(m, victim, s);
      }
    }
    if (k == kPromote) s.promotion = p_->letters[type_of(m)];
    return ActionInfo{{s}};
  }

  // describe() without allocating: the record validator calls it on every legal action.
  StepBrief brief(const Action& a) const override {
    StepBrief b;
    b.steps = a.hi == 1 || has_wall(static_cast<Move>(a.lo)) ? 2 : 1;
    Move m = static_cast<Move>(a.lo);
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    b.to = coord(to);
    if (k == kPlace) {
      b.kind = StepKind::Place;
      b.piece = p_->letters[type_of(m)];
      return b;
    }
    if (k == kNull && !p_->pass) {
      b.kind = StepKind::Pass;
      return b;
    }
    b.piece = board_[from] >= 0 ? p_->letters[board_[from] >> 1] : '?';
    b.from = coord(from);
    if (sub_of(m) == kSubStrike || sub_of(m) == kSubWhirl) b.kind = StepKind::Remove;
    if (sub_of(m) == kSubRampage || sub_of(m) == kSubWhirl) {
      b.capture = true;  // a rampage always removes a piece
      return b;
    }
    if (k == kCastleK || k == kCastleQ) {
      b.castle = k == kCastleK ? Castle::KingSide : Castle::QueenSide;
      int rank = side_ == 0 ? 0 : p_->height - 1;
      b.king_to = coord(rank * p_->width + (k == kCastleK ? p_->ks_king_to : p_->qs_king_to));
      return b;
    }
    int victim = k == kEnPassant ? ep_victim_ : to;
    b.capture = k != kNull && victim >= 0 && board_[victim] >= 0;
    if (k == kPromote) b.promotion = p_->letters[type_of(m)];
    return b;
  }

  // ---- status -----------------------------------------------------------------------
  Status status() override {  // only "some legal action or none" matters: the count stops at 1
    any_only_ = true;
    const uint64_t n = generate<true>(nullptr);
    any_only_ = false;
    return status_of(n);
  }
  Status status_and_actions(std::vector<Action>& out) override {
    legal_actions(out);
    return status_of(out.size());
  }
  Status status_of(uint64_t n) {
    Status st = verdict_of(n);
    if (p_->draw_odds >= 0) [[unlikely]]
      misc::apply_draw_odds(p_->draw_odds, st);
    return st;
  }
  Status verdict_of(uint64_t n) {  // n: the number of legal actions (only n == 0 matters)
    Status st;
    st.in_check = in_check();
    if (p_->claim_fifty && halfmove_ >= p_->claim_fifty) st.claim_fifty = true;
    if (p_->claim_repetition) {
      int count = 0;
      for (uint64_t h : history_)
        if (h == hash_) ++count;
      st.claim_threefold = count >= p_->claim_repetition;
    }
    bool draw = false;
    if (p_->invasion && region_ended(draw)) {
      // The side that reached the region wins: the opponent, or (`unless-answered`) the side
      // to move when it reached it on an earlier turn.
      const bool mover_won = (p_->flag_answer || p_->flag_safe || p_->flag_held) && invaded(side_);
      st.result = draw ? Result::Draw : (side_ == 0) != mover_won ? Result::BlackWins : Result::WhiteWins;
      st.end = Termination::RegionReached;
      st.reason = p_->invasion_reason;
      return st;
    }
    if (royal_ends_ && (royal_lost(side_) || royal_lost(side_ ^ 1))) {
      // The side that lost its royal pieces loses: the side to move, or the mover, whose
      // own explosion took them.
      const bool mover_lost = !royal_lost(side_);
      st.result = (side_ == 0) != mover_lost ? Result::BlackWins : Result::WhiteWins;
      st.end = Termination::RoyalCapture;
      st.reason = "royal-capture";
      return st;
    }
    if (counted_ends_) [[unlikely]] {
      const ends::Verdict v = counted_verdict();
      if (v.over) {
        st.result = v.result;
        st.end = v.end;
        st.reason = v.reason;
        return st;
      }
    }
    if (n == 0) {
      if (!st.in_check && p_->no_move_loses) {
        st.result = side_ == 0 ? Result::BlackWins : Result::WhiteWins;
        st.end = Termination::NoLegalMove;
        st.reason = "no-legal-move";
      } else {  // checkmate or stalemate, with the ruleset's results
        int more = 0;
        if (p_->stalemate_by_count) {
          // The pieces on the board, as Fairy-Stockfish's stalematePieceCount counts them.
          more = popcount(by_color_[side_]) - popcount(by_color_[side_ ^ 1]);
        }
        const ends::Verdict v = ends::no_move(*p_, side_, st.in_check, more);
        st.result = v.result;
        st.end = v.end;
        st.reason = v.reason;
      }
      return st;
    }
    if (p_->insufficient_draw && insufficient()) {
      st.result = Result::Draw;
      st.end = Termination::InsufficientMaterial;
      st.reason = "insufficient-material";
    }
    return st;
  }

  uint64_t hash() const override { return hash_; }
  Color side_to_move() const override { return side_ == 0 ? Color::White : Color::Black; }
  bool chess960() const override { return chess960_; }
  std::unique_ptr<Engine> clone() const override { return std::make_unique<Generator>(*this); }

  // ---- the card layer's hook (card_board.hpp) ------------------------------------------
  void set_move_types(uint32_t mask) override { move_types_ = mask; }
  uint64_t count_moves() override { return generate<true>(nullptr); }
  void list_moves(std::vector<Action>& out) override {
    card_moves_.clear();
    generate<false>(&card_moves_);
    for (Move m : card_moves_) out.push_back(Action{m, 0});
  }
  void list_pseudo_moves(std::vector<Action>& out) override {
    pseudo_ = true;
    list_moves(out);
    pseudo_ = false;
  }
  void pass_turn() override { make(make_move(0, 0, kNull)); }
  bool has_royal(int c) const override { return royal_square(c) >= 0; }
  bool in_check() override { return p_->royal_safe && royals_in_check(side_); }
  bool side_in_check() override { return in_check(); }
  bool gives_check(const Action& a) override {  // plain programs: the attack after a light make
    if (rich_ || a.hi || !p_->royal_safe || p_->petrify_types || has_wall(static_cast<Move>(a.lo)))
      return Engine::gives_check(a);
    const Move m = static_cast<Move>(a.lo);
    const int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    const Light l = light_make(m);
    const bool check = royals_attacked(side_ ^ 1);
    light_unmake(m, l, moved);
    return check;
  }

  uint64_t perft(int depth) override {
    if (royal_phase_) return perft_turns(depth);  // turns of two steps
    if (depth <= 0) return 1;
    if (depth == 1) return generate<true>(nullptr);
    if (static_cast<int>(buffers_.size()) <= depth) buffers_.resize(depth + 1);
    std::vector<Move>& moves = buffers_[depth];
    moves.clear();
    generate<false>(&moves);
    uint64_t n = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
      make(buffers_[depth][i]);
      n += perft(depth - 1);
      unmake();
    }
    return n;
  }

 private:
  Generator(std::shared_ptr<const Program> p, const BoardTables<BB>* t, int) : p_(std::move(p)), t_(t) {}

  // Perft over complete turns (RULINGS 4.9): each normal action alone, and followed by each
  // king-turn when the colour has one and the action did not win by midline invasion.
  // legal_actions' walk without building the actions.
  uint64_t perft_turns(int depth) {
    if (depth <= 0) return 1;
    if (static_cast<int>(buffers_.size()) <= depth) buffers_.resize(depth + 1);
    if (static_cast<int>(seconds_.size()) <= depth) seconds_.resize(depth + 1);
    buffers_[depth].clear();
    generate<false>(&buffers_[depth]);
    const bool second = turn_phase_ || p_->king_turn[side_];
    uint64_t n = 0;
    for (size_t i = 0; i < buffers_[depth].size(); ++i) {
      const Move m = buffers_[depth][i];
      if (depth == 1) {
        ++n;
      } else {
        make(m);
        n += perft_turns(depth - 1);
        unmake();
      }
      if (!second) continue;
      if (depth == 1 && !p_->action_place) {
        n += count_royal_moves_after(m);
        continue;
      }
      make(m, /*ends_turn=*/false);
      if (!(p_->invasion && invaded(side_))) {
        royal_only_ = true;
        if (depth == 1) {
          n += generate<true>(nullptr);
          royal_only_ = false;
        } else {
          std::vector<Move>& s2 = seconds_[depth];
          s2.clear();
          generate<false>(&s2);
          royal_only_ = false;
          for (size_t j = 0; j < s2.size(); ++j) {
            make(s2[j]);
            n += perft_turns(depth - 1);
            unmake();
          }
        }
      }
      unmake();
    }
    return n;
  }

  // The number of royal-move steps after the normal action m (none when m wins by midline
  // invasion), on the board alone: the royal-move phase reads no clock, hash, castling
  // right or en-passant square (no castling then; a double step's en passant waits for
  // the end of the turn), so perft's last ply needs no make/unmake. Not with placements
  // (light_make leaves the reserves).
  uint64_t count_royal_moves_after(Move m) {
    const int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    const Light l = light_make(m);
    // The pieces a whirlwind or a rampage removed: generate's legality tests use lrem_ too.
    std::array<std::pair<int16_t, int8_t>, 16> removed;
    const int nremoved = sub_of(m) ? nlrem_ : 0;
    std::copy_n(lrem_.begin(), nremoved, removed.begin());
    const int ep = ep_, ep_victim = ep_victim_;
    ep_ = ep_victim_ = -1;
    uint64_t n = 0;
    if (!(p_->invasion && invaded(side_))) {
      royal_only_ = true;
      n = generate<true>(nullptr);
      royal_only_ = false;
    }
    ep_ = ep;
    ep_victim_ = ep_victim;
    std::copy_n(removed.begin(), nremoved, lrem_.begin());
    nlrem_ = nremoved;
    light_unmake(m, l, moved);
    return n;
  }

  std::shared_ptr<const Program> p_;
  const BoardTables<BB>* t_;  // owned by *p_
  std::array<int8_t, N> board_{};
  BB by_color_[2] = {};
  BB by_type_[kMaxTypes] = {};
  BB walls_{};  // wall squares (`walls`, section "walls")
  int side_ = 0;
  int ep_ = -1, ep_victim_ = -1;
  uint8_t castling_ = 0;
  std::array<int, 4> rook_sq_{};      // right i = colour*2 + (0 king side, 1 queen side)
  std::array<int, 4> castle_from_{};  // the castling king's square of right i
  bool castle_royal_ = true;          // the castling king is royal (its path must not be attacked)
  // Per right: the squares that must be empty, and those the king passes (its destination
  // included) that must not be attacked. Fixed while the right lasts: the king and the rook
  // have not moved.
  std::array<BB, 4> castle_need_{}, castle_path_{};
  std::array<uint8_t, N> castle_clear_{};
  int halfmove_ = 0, fullmove_ = 1;
  int reserve_[2][kMaxTypes] = {};
  // `captures-to-hand`: captures fill the captor's reserve, and promoted_ holds the squares
  // of the pieces standing promoted (they return demoted). Section "hands and drops".
  bool hand_ = false, marks_ = false;  // marks_: promoted pieces are tracked (no `keep-promoted`)
  BB promoted_{};
  uint64_t hash_ = 0;
  bool chess960_ = false;
  std::vector<Undo> stack_;
  std::vector<uint64_t> history_;
  std::vector<std::vector<Move>> buffers_;
  std::vector<std::vector<Move>> seconds_;  // perft_turns' king-turn lists
  std::vector<Move> legal_buf_;             // legal_actions' scratch
  // The turn layer: a second, optional phase moving one royal piece (Program::turn), and
  // while generating it, only royal pieces move (no castling, no placement).
  bool royal_phase_ = false;
  bool pseudo_ = false;      // pseudo_legal_actions(): generate without the royal-safety test
  bool turn_phase_ = false;  // the ruleset's own `phase royal-move` (both colours)
  bool royal_only_ = false;
  bool any_only_ = false;  // status(): generate<true> may stop at the first legal action
  // More than one royal piece per colour or royal type (RULINGS 4.9): every royal piece
  // must stay safe, and every action gets the full legality test.
  bool multi_royal_ = false;
  // Copies of the program's flags the hot loops test (Program::borrowing, chess2_primitives).
  bool borrowing_ = false, rich_ = false;
  // RULINGS 4.10's primitives: some type rampages, strikes, rides a limited line, captures
  // own pieces or is protected from afar. Attacks then include rampage paths and strike
  // lines, and every action gets the full legality test (a strike or a rampage removes
  // pieces without standing in the line it opens).
  bool animals_ = false;
  bool plain_king_ = false;       // one royal piece whose step is judged by attacked() alone (see generate)
  bool animal_attacks_ = false;   // some type attacks by a rampage, a strike line or a whirlwind
  bool occupancy_tests_ = false;  // safe_after's tests without make/unmake apply (see there)
  uint32_t target_types_ = 0;     // types special_targets() adds targets for
  uint32_t within_types_ = 0, immune_types_ = 0, line_check_types_ = 0, rampage_types_ = 0, whirl_types_ = 0;
  // Types whose captures explode (`remove-around ... when capture`), and whether removing
  // the last royal piece of a colour ends the game (`royal-capture -> win`).
  uint32_t blast_types_ = 0;
  bool royal_ends_ = false;
  // `royal-safe` with `royal-capture -> win` (No Stress Chess's advanced game, RULINGS 3.7):
  // a capture of an enemy royal piece wins at once, so it is legal whatever it leaves
  // attacked (a piece pinned to its own royal piece may take it). Explosions decide this in
  // safe_after_blast().
  bool royal_take_ = false;
  bool answering_ = false;  // can_answer()'s generation: the region's end is being decided
  // Types with other riders, hoppers or lame leaps (PieceProgram::paths), and those of them
  // that give check with such a path: attacks then include them, and every action gets the
  // full legality test (a screen arriving or leaving, a horse's leg freed: the pins do not
  // see them).
  uint32_t path_types_ = 0, path_check_types_ = 0;
  std::array<int, kMaxTypes> line_reach_{};  // per type: the longest rampage or strike line (0: unlimited)
  std::vector<std::pair<int16_t, int8_t>> removed_;  // pieces removed by rampages, strikes, explosions
  // light_make's: one entry per square, sized by load() (a whirlwind or an explosion of
  // radius 8 removes up to 80 pieces).
  std::vector<std::pair<int16_t, int8_t>> lrem_;
  int nlrem_ = 0;
  int pending_passed_ = -1, pending_victim_ = -1;  // a first step's double step
  uint32_t move_types_ = CardBoard::kAllTypes;     // the card layer's type mask
  std::vector<Move> card_moves_;                   // its move list, reused
  // Issue 24 (gen_ends.hpp): some counted end condition or `must-capture`; the checks each
  // side has still to give (`checks N -> win`); must-capture's scratch list.
  bool ends_any_ = false, counted_ends_ = false, counting_checks_ = false;
  bool facing_now_ = false;        // `royals-facing`: the royal pieces face each other (generate_with_pass)
  bool opposite_colours_ = false;  // shogi2: a type with `drop opposite-colours`
  BB dark_{};                      // the squares of a1's colour
  std::array<int8_t, 2> checks_left_{};
  std::vector<Move> forced_buf_;
  // Flipping pieces and passes (gen_flip.hpp): the game ends by a full board or passes,
  // a blocked side passes, placements have conditions or no reserve, the types that
  // convert; flipped_ holds each converting step's converted squares, newest last.
  bool flip_ends_ = false, pass_ = false, flip_drops_ = false, flip_supply_ = false;
  uint32_t convert_types_ = 0;
  std::vector<BB> flipped_;

  Coord coord(int s) const { return Coord{s % p_->width, s / p_->width + 1}; }
  char letter(int code) const {
    char l = p_->letters[code >> 1];
    return (code & 1) ? static_cast<char>(std::tolower(l)) : l;
  }
  // Wall squares (`walls`) are occupied: they block every move, and no piece captures them.
  ARB_INLINE BB occupied() const { return by_color_[0] | by_color_[1] | walls_; }
  ARB_INLINE BB pieces(int c, int t) const { return by_color_[c] & by_type_[t]; }
  ARB_INLINE BB royals(int c) const {
    if (!multi_royal_) return p_->royal_type >= 0 ? pieces(c, p_->royal_type) : BB{};
    BB b{};
    for (uint32_t m = p_->royal_types; m; m &= m - 1) b |= pieces(c, __builtin_ctz(m));
    return b;
  }
  // The pieces of the types in a mask (both colours).
  BB types_bb(uint32_t mask) const {
    BB b{};
    for (; mask; mask &= mask - 1) b |= by_type_[__builtin_ctz(mask)];
    return b;
  }
  ARB_INLINE int royal_square(int c) const {
    BB b = royals(c);
    return b ? lsb(b) : -1;
  }
  // Whether any royal piece of colour c is attacked.
  bool royals_attacked(int c) const {
    const BB occ = occupied();
    for (BB b = royals(c); b; clear_lsb(b))
      if (blast_types_ ? blast_attacked(lsb(b), c ^ 1, occ) : attacked(lsb(b), c ^ 1, occ)) return true;
    return false;
  }
  // ---- gen_pawns: `duple-check`: a colour holding several royal pieces is in check only
  // when every one is attacked (Fairy-Stockfish's dupleCheck, spartan); otherwise, any.
  bool royals_in_check(int c) const {
    if (!p_->duple_check) return royals_attacked(c);
    const BB rs = royals(c);
    if (!rs) return false;
    const BB occ = occupied();
    for (BB b = rs; b; clear_lsb(b))
      if (!attacked(lsb(b), c ^ 1, occ)) return false;
    return true;
  }
  // Colour c has lost its royal pieces (none on the board, none in reserve to place).
  bool royal_lost(int c) const {
    return !royals(c) && !(p_->royal_type >= 0 && reserve_[c][p_->royal_type] > 0);
  }
  // The pieces a whirlwind from s removes: every piece around it but immune and spared ones.
  BB whirl_victims(int s) const {
    const PieceProgram& pp = p_->types[board_[s] >> 1];
    BB v = t_->pieces[board_[s] >> 1].around[s] & occupied();
    for (uint32_t m = immune_types_ | pp.around.kept; m; m &= m - 1) v &= ~by_type_[__builtin_ctz(m)];
    return v;
  }
  // The pieces among `occ` an explosion of a capture by type t on `to` removes besides the
  // capturer: every piece around `to` but immune and spared ones.
  BB blast_victims(int t, int to, const BB& occ) const {
    BB v = t_->pieces[t].around[to] & occ;
    for (uint32_t m = immune_types_ | p_->types[t].around.kept; m; m &= m - 1)
      v &= ~by_type_[__builtin_ctz(m)];
    return v;
  }
  // Removes what the capture by type t just made on `to` blows up (the capturer last, with
  // `self`), recording each piece in `out`; returns how many.
  template <class Out>
  int explode(int t, int to, Out&& out) {
    int n = 0;
    for (BB v = blast_victims(t, to, occupied()); v; clear_lsb(v), ++n) {
      out(lsb(v), board_[lsb(v)]);
      remove(lsb(v));
    }
    if (p_->types[t].around.self) {
      out(to, board_[to]);
      remove(to);
      ++n;
    }
    return n;
  }
  // The explosions of make() and unmake(), recorded in removed_ (hashed, castling rights
  // of the squares dropped), and of light_make() and light_unmake(), in lrem_. Out of line:
  // plain chess's make and unmake keep their size.
  [[gnu::noinline]] int make_explosion(int t, int to) {
    const Zobrist<N>& z = zob<N>();
    return explode(t, to, [&](int q, int code) {
      removed_.push_back({static_cast<int16_t>(q), static_cast<int8_t>(code)});
      hash_ ^= z.psq[code & 1][code >> 1][q];
      castling_ &= static_cast<uint8_t>(~castle_clear_[q]);
    });
  }
  [[gnu::noinline]] void restore_removed(int n) {
    for (int i = 0; i < n; ++i) {
      put(removed_.back().first, removed_.back().second);
      removed_.pop_back();
    }
  }
  [[gnu::noinline]] bool light_explosion(int t, int to) {
    nlrem_ = 0;
    explode(t, to, [&](int q, int c) {
      lrem_[nlrem_++] = {static_cast<int16_t>(q), static_cast<int8_t>(c)};
    });
    return true;
  }
  [[gnu::noinline]] void light_restore() {
    for (int i = nlrem_ - 1; i >= 0; --i) put(lrem_[i].first, lrem_[i].second);
  }
  // describe()'s explosion: the pieces it removes after the victim, the capturer last.
  void describe_blast(Move m, int victim, Step& s) const {
    const int from = from_of(m), to = to_of(m), t = board_[from] >> 1;
    const BB occ = occupied() & ~bit(from) & ~bit(victim);
    for (BB v = blast_victims(t, to, occ); v; clear_lsb(v))
      s.removed.push_back({coord(lsb(v)), letter(board_[lsb(v)])});
    if (p_->types[t].around.self)
      s.removed.push_back(
          {coord(to), letter(kind_of(m) == kPromote ? type_of(m) * 2 + side_ : board_[from])});
  }
  // An attack on s by colour `by` where captures explode: a capture whose explosion would
  // remove one of the capturer's own royal pieces is illegal, so it attacks nothing (atomic
  // chess: a king beside the enemy king is never in check).
  [[gnu::noinline]] bool blast_attacked(int s, int by, const BB& occ) const {
    uint32_t harmless = 0;
    const BB own_royals = royals(by) & occ;
    for (uint32_t m = blast_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      if ((blast_victims(t, s, occ) & own_royals) || (p_->types[t].around.self && (p_->royal_types >> t & 1)))
        harmless |= 1u << t;
    }
    for (int t = 0; t < p_->ntypes; ++t)
      if (!(harmless >> t & 1) && (t_->pieces[t].check_from[by][s] & pieces(by, t) & occ)) return true;
    for (int d = 0; d < 8; ++d) {
      const int b = first(d, s, occ);
      if (b < 0) continue;
      const int code = board_[b];
      if (code < 0 || (code & 1) != by || (harmless >> (code >> 1) & 1)) continue;
      if (t_->pieces[code >> 1].ride_check[by] & (1u << ((d + 4) & 7))) return true;
    }
    if (borrowing_ && borrowed_attack(s, by, occ)) return true;
    if (animals_ || path_check_types_) return animal_attack(s, by, occ, harmless);
    return false;
  }

  // Which enemy pieces each type may capture (`captures`, `captured-by`, `immune`).
  void capture_targets(int us, BB* out) const {
    using T = PieceProgram::Targets;
    const int them = us ^ 1;
    const BB opp = by_color_[them];
    const BB royals = this->royals(them);
    BB never{}, only_royal{};
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.immune || pp.captured_by == T::None)
        never |= pieces(them, t);
      else if (pp.captured_by == T::Royal)
        only_royal |= pieces(them, t);
    }
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      BB b = opp & ~never;
      if (!pp.royal) b &= ~only_royal;
      if (pp.captures == T::Royal) b &= royals;
      if (pp.captures == T::NonRoyal) b &= ~royals;
      if (pp.captures == T::None) b = BB{};
      out[t] = b;
    }
  }

  // The basic movement of friendly neighbours of the types it borrows from (RULINGS 4.7).
  void borrowed_targets(int s, int t, int us, const BB& occ, const BB& tg, BB& quiet, BB& caps) const {
    const uint32_t lends = p_->types[t].borrows;
    for (BB nb = t_->pieces[t].lenders[s] & by_color_[us]; nb; clear_lsb(nb)) {
      const int u = board_[lsb(nb)] >> 1;
      if (!(lends >> u & 1)) continue;
      const PieceTables<BB>& lt = t_->pieces[u];
      quiet |= lt.leap_move[us][s] & ~occ;
      caps |= lt.leap_capture[us][s] & tg;
      for (uint8_t dm = lt.ride_move[us] | lt.ride_capture[us]; dm; dm &= dm - 1) {
        int d = __builtin_ctz(dm);
        BB r = ride(d, s, occ);
        if (lt.ride_move[us] & (1u << d)) quiet |= r & ~occ;
        if (lt.ride_capture[us] & (1u << d)) caps |= r & tg;
      }
    }
  }

  // Teleports and region moves (RULINGS 4.6, 4.8).
  [[gnu::noinline]] void special_targets(int s, int t, int us, const BB& occ, const BB& tg, BB& quiet,
                                         BB& caps) const {
    const PieceProgram& pp = p_->types[t];
    const PieceTables<BB>& pt = t_->pieces[t];
    if (pp.borrows) borrowed_targets(s, t, us, occ, tg, quiet, caps);
    if (path_types_ >> t & 1) path_targets(s, t, us, occ, tg, quiet, caps);
    if (pp.teleport_move) quiet |= ~occ & pt.teleport_to[us];
    if (pp.teleport_capture) caps |= tg & pt.teleport_to[us];
    for (const PieceProgram::Line& l : pp.limited[us]) {
      const BB r = ride(l.d, s, occ) & reach(l.d, s, l.range);
      if (l.move) quiet |= r & ~occ;
      if (l.capture) caps |= r & tg;
    }
    if (!pp.own_leaps[us].empty()) {
      // Own pieces, never a royal or an immune one (RULINGS 4.10's wild horse).
      BB own = by_color_[us];
      own &= ~royals(us);
      for (uint32_t m = immune_types_; m; m &= m - 1) own &= ~by_type_[__builtin_ctz(m)];
      caps |= pt.own_capture[us][s] & own;
    }
    BB region = pt.region_move[us][s] & ~occ;
    if (!region) return;
    const int w = p_->width, sx = s % w, sy = s / w;
    for (BB kb = royals(us ^ 1); kb; clear_lsb(kb)) {
      const int k = lsb(kb), kx = k % w, ky = k / w;
      for (BB r = region; r; clear_lsb(r)) {
        const int to = lsb(r), x = to % w, y = to / w;
        if (x >= std::min(sx, kx) && x <= std::max(sx, kx) && y >= std::min(sy, ky) && y <= std::max(sy, ky))
          quiet |= bit(to);
      }
    }
  }

  // `region-reached`: every piece of colour c of the flag types (at least one) stands in
  // the region (midline invasion: every royal piece on the opponent's half), or with
  // `any` one of them does (breakthrough).
  bool invaded(int c) const {
    BB r{};
    for (uint32_t m = p_->flag_types; m; m &= m - 1) r |= pieces(c, __builtin_ctz(m));
    if (p_->flag_safe) [[unlikely]]
      return flag_safe_reached(c, r);
    if (p_->flag_any) return static_cast<bool>(r & t_->flag_zone[c]);
    return r && !(r & ~t_->flag_zone[c]);
  }
  // `unless-answered`: the first player reached the region; whether the second, to move,
  // has a legal action of a flag piece into it (a draw then follows).
  bool can_answer() {
    if (in_check()) return false;
    std::vector<Move> all;
    answering_ = true;
    generate_impl<false, true>(&all);
    answering_ = false;
    for (Move m : all) {
      const uint32_t k = kind_of(m);
      if (k == kPlace || k == kCastleK || k == kCastleQ) continue;
      if ((p_->flag_types >> (board_[from_of(m)] >> 1) & 1) && test(t_->flag_zone[side_], to_of(m)))
        return true;
    }
    return false;
  }
  // The game ended by `region-reached` before the side to move acts: it reached the region
  // itself on an earlier turn (`unless-answered`: the answer, or a position given so), or
  // the opponent did and no answer is possible. Sets `draw` when both reached it.
  bool region_ended(bool& draw) {
    draw = false;
    if (p_->flag_safe) [[unlikely]]
      return flag_safe_ended(draw);
    if (p_->flag_held) return invaded(side_);
    if (p_->flag_answer && invaded(side_)) {
      draw = side_ == 0 && invaded(1);
      return true;
    }
    if (!invaded(side_ ^ 1)) return false;
    return !(p_->flag_answer && side_ == 1 && can_answer());
  }

  // King distance between two squares.
  int dist(int a, int b) const {
    const int w = p_->width;
    return std::max(std::abs(a % w - b % w), std::abs(a / w - b / w));
  }
  // The squares along d from s (exclusive), at most `range` of them (0: to the edge).
  BB reach(int d, int s, int range) const {
    const BB r = t_->ray[d][s];
    if (range <= 0) return r;
    const int w = p_->width, x = s % w + kDirDx[d] * range, y = s / w + kDirDy[d] * range;
    if (x < 0 || y < 0 || x >= w || y >= p_->height) return r;
    return r & ~t_->ray[d][y * w + x];
  }
  // Enemy pieces a piece starting on s may not capture: those protected from afar
  // (`captured-by ... within`).
  BB far_protected(int s, int them) const {
    BB out{};
    for (uint32_t m = within_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      out |= pieces(them, t) & ~t_->pieces[t].near[s];
    }
    return out;
  }
  // The pieces a rampage of type t and colour c from s may not remove.
  BB rampage_blockers(int s, int t, int c) const {
    const PieceProgram& pp = p_->types[t];
    BB bl{};
    if (pp.rampage.blocked_own_royal) bl |= royals(c);
    uint32_t types = pp.rampage.blocked_types | (pp.rampage.blocked_immune ? immune_types_ : 0u);
    for (; types; types &= types - 1) bl |= by_type_[__builtin_ctz(types)];
    if (pp.rampage.self_beyond >= 0) bl |= pieces(c ^ 1, t) & ~t_->pieces[t].rampage_near[s];
    return bl;
  }
  // The path of a rampage from s along d, when the rampage is possible: a piece within reach
  // and no blocker. Empty otherwise.
  BB rampage_path(int s, int t, int c, int d, const BB& occ) const {
    const BB path = reach(d, s, p_->types[t].rampage.reach);
    if (!(path & occ) || (path & occ & rampage_blockers(s, t, c))) return BB{};
    return path;
  }
  // The destinations of the paths of a piece of type t on s (other riders, hoppers, lame
  // leaps): a rider's squares up to and including the first piece; a cannon's beyond its
  // screen, up to and including the next piece; a grasshopper's one square just beyond
  // the first piece; a lame leap's target when the squares it passes are empty.
  [[gnu::noinline]] void path_targets(int s, int t, int us, const BB& occ, const BB& tg, BB& quiet,
                                      BB& caps) const {
    const PieceTables<BB>& pt = t_->pieces[t];
    const BB no_screen = types_bb(p_->types[t].screen_not);  // `hops-not-over`
    for (const auto& w : pt.walks[us][s]) {
      const int16_t* q = pt.walk_sq.data() + w.first;
      const int16_t* const end = q + w.len;
      if (w.hop) {
        while (q != end && !test(occ, *q)) ++q;  // to the screen
        if (q == end || test(no_screen, *q) || ++q == end) continue;
        if (w.hop == 'g') {
          if (!test(occ, *q)) {
            if (w.move) bb::set(quiet, *q);
          } else if (w.capture && test(tg, *q)) {
            bb::set(caps, *q);
          }
          continue;
        }
      } else if (w.block & occ) {
        continue;  // a lame leap's leg is blocked
      }
      for (; q != end; ++q) {
        if (!test(occ, *q)) {
          if (w.move) bb::set(quiet, *q);
          continue;
        }
        if (w.capture && test(tg, *q)) bb::set(caps, *q);
        break;
      }
    }
  }
  // Whether a piece of `by` captures on s along a path (types in `skip` aside): walks each
  // candidate (walk_from) along its paths through s, counting the pieces before s.
  bool path_attack(int s, int by, const BB& occ, uint32_t skip) const {
    for (uint32_t m = path_check_types_ & ~skip; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      const PieceTables<BB>& pt = t_->pieces[t];
      const BB no_screen = types_bb(p_->types[t].screen_not);
      for (BB b = pieces(by, t) & occ & pt.walk_from[by][s]; b; clear_lsb(b)) {
        for (const auto& w : pt.walks[by][lsb(b)]) {
          if (!w.capture) continue;
          const int16_t* q = pt.walk_sq.data() + w.first;
          const int16_t* const end = q + w.len;
          int passed = 0;  // pieces before s
          bool last = false;
          int screen = -1;
          for (; q != end && *q != s && passed < 2; ++q) {
            last = test(occ, *q);
            if (last && !passed) screen = *q;
            passed += last;
          }
          if (q == end || *q != s) continue;
          const bool hit = w.hop == 'p'   ? passed == 1 && !test(no_screen, screen)
                           : w.hop == 'g' ? passed == 1 && last && !test(no_screen, screen)
                                          : passed == 0 && !(w.block & occ);
          if (hit) return true;
        }
      }
    }
    return false;
  }
  // The squares whose occupancy decides whether an enemy path reaches a royal piece of `us`
  // (a hopper's squares before the royal piece, screens included, a lame leap's leg) or
  // whether the royal pieces face each other (`royals-not-facing`: the squares between).
  // An action leaving or entering one is tested in full; every other action of a piece
  // that is not pinned cannot change those attacks (Stockfish's blockers, for paths).
  [[gnu::noinline]] BB path_exposure(int us, const BB& occ) const {
    BB e{};
    const int them = us ^ 1;
    for (BB r = royals(us); r; clear_lsb(r)) {
      const int kq = lsb(r);
      for (uint32_t m = path_check_types_; m; m &= m - 1) {
        const int t = __builtin_ctz(m);
        const PieceTables<BB>& pt = t_->pieces[t];
        for (BB b = pieces(them, t) & occ & pt.walk_from[them][kq]; b; clear_lsb(b))
          for (const auto& w : pt.walks[them][lsb(b)]) {
            if (!w.capture) continue;
            const int16_t* q = pt.walk_sq.data() + w.first;
            const int16_t* const end = q + w.len;
            BB seg = w.block;
            for (; q != end && *q != kq; ++q) bb::set(seg, *q);
            if (q != end) e |= seg;
          }
      }
      if (p_->royals_not_facing)
        for (BB b = royals(them); b; clear_lsb(b)) {
          const int d = t_->dir[kq][lsb(b)];
          if (d >= 0 && d % 2 == 0) e |= t_->between(kq, lsb(b));
        }
    }
    return e;
  }
  // Attacks by strikes, limited capturing lines and rampages (RULINGS 4.10), and by paths.
  [[gnu::noinline]] bool animal_attack(int s, int by, const BB& occ, uint32_t skip = 0) const {
    if (path_check_types_ && path_attack(s, by, occ, skip)) return true;
    for (uint32_t m = line_check_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      const PieceProgram& pp = p_->types[t];
      for (BB b = pieces(by, t) & occ; b; clear_lsb(b)) {
        const int q = lsb(b), d = t_->dir[q][s];
        if (d < 0 || (t_->between(q, s) & occ)) continue;
        for (const auto* lines : {&pp.strike.lines[by], &pp.limited[by]})
          for (const PieceProgram::Line& l : *lines)
            if (l.capture && l.d == d && (l.range == 0 || dist(q, s) <= l.range)) return true;
      }
    }
    for (uint32_t m = whirl_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      const PieceProgram& pp = p_->types[t];
      for (BB b = pieces(by, t) & occ & t_->pieces[t].around[s]; b; clear_lsb(b)) {
        const int q = lsb(b);
        if (pp.around.not_beside_own_royal && (t_->adjacent[q] & royals(by) & occ)) continue;
        return true;
      }
    }
    for (uint32_t m = rampage_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      for (BB b = pieces(by, t) & occ; b; clear_lsb(b)) {
        const int q = lsb(b), d = t_->dir[q][s];
        if (d < 0 || !(p_->types[t].rampage.dirs[by] >> d & 1)) continue;
        // A king standing on s is a piece in reach: a castling king's path counts as it.
        if (test(rampage_path(q, t, by, d, occ | bit(s)), s)) return true;
      }
    }
    return false;
  }
  // Strikes and rampages of the piece of type t on s (they need the full legality test).
  int actions_in_place(int s, int t, int us, const BB& occ, const BB& tg, Move* out) const {
    const PieceProgram& pp = p_->types[t];
    int n = 0;
    for (const PieceProgram::Line& l : pp.strike.lines[us]) {
      const int b = first(l.d, s, occ);
      if (b >= 0 && test(tg, b) && (l.range == 0 || dist(s, b) <= l.range))
        out[n++] = make_move(s, b, kNormal, kSubStrike);
    }
    if (pp.whirlwind() && !(pp.around.not_beside_own_royal && (t_->adjacent[s] & royals(us)))) {
      const BB v = whirl_victims(s);
      if (popcount(v) >= pp.around.at_least) out[n++] = make_move(s, s, kNormal, kSubWhirl);
    }
    if (pp.rampage.reach > 0)
      for (uint8_t dm = pp.rampage.dirs[us]; dm; dm &= dm - 1) {
        const int d = __builtin_ctz(dm);
        const BB path = rampage_path(s, t, us, d, occ);
        if (!path) continue;
        out[n++] = make_move(s, (kDirUp >> d & 1) ? msb(path) : lsb(path), kNormal, kSubRampage);
      }
    return n;
  }

  ARB_INLINE void put(int s, int code) {
    board_[s] = static_cast<int8_t>(code);
    by_color_[code & 1] |= bit(s);
    by_type_[code >> 1] |= bit(s);
  }
  ARB_INLINE void remove(int s) {
    int code = board_[s];
    board_[s] = -1;
    by_color_[code & 1] &= ~bit(s);
    by_type_[code >> 1] &= ~bit(s);
  }

  // Squares a rider reaches from s along direction d, stopping at (and including) the
  // first occupied square.
  ARB_INLINE BB ride(int d, int s, const BB& occ) const {
    BB r = t_->ray[d][s];
    BB blockers = r & occ;
    if (!blockers) return r;
    int b = (kDirUp >> d & 1) ? lsb(blockers) : msb(blockers);
    return r & ~t_->ray[d][b];
  }
  // First occupied square from s along d, or -1.
  ARB_INLINE int first(int d, int s, const BB& occ) const {
    BB blockers = t_->ray[d][s] & occ;
    if (!blockers) return -1;
    return (kDirUp >> d & 1) ? lsb(blockers) : msb(blockers);
  }

  ARB_INLINE bool attacked(int s, int by, const BB& occ) const {
    for (int t = 0; t < p_->ntypes; ++t) {
      if (t_->pieces[t].check_from[by][s] & pieces(by, t) & occ) return true;
    }
    for (int d = 0; d < 8; ++d) {
      int b = first(d, s, occ);
      if (b < 0) continue;
      int code = board_[b];
      if (code < 0 || (code & 1) != by) continue;
      if (t_->pieces[code >> 1].ride_check[by] & (1u << ((d + 4) & 7))) return true;
    }
    if (borrowing_ && borrowed_attack(s, by, occ)) return true;
    if (animal_attacks_) return animal_attack(s, by, occ);
    return false;
  }

  // `royal-stays-in-check` (gen_misc.hpp): of the captures `caps` of the royal piece on k in
  // check, those that take its only checker: k is no longer attacked without the victim
  // (Fairy-Stockfish's makpongRule: `checkers() ^ to` empty).
  BB royal_in_check_targets(int k, int by, BB caps, const BB& occ) const {
    BB out{};
    for (BB b = caps; b; clear_lsb(b))
      if (!attacked(k, by, occ & ~bit(lsb(b)))) out |= bit(lsb(b));
    return out;
  }

  // The squares where an action of a non-royal piece may end a check on the royal piece on
  // k by `by` (plain programs: leaps and rides only): the checker's square, and the squares
  // between it and k when it rides there (a leap cannot be blocked). None in double check.
  BB evasion_squares(int k, int by, const BB& occ) const {
    BB checkers{};
    for (int t = 0; t < p_->ntypes; ++t) checkers |= t_->pieces[t].check_from[by][k] & pieces(by, t) & occ;
    const BB leapers = checkers;
    BB blocks{};
    for (int d = 0; d < 8; ++d) {
      const int b = first(d, k, occ);
      if (b < 0 || board_[b] < 0 || (board_[b] & 1) != by) continue;
      if (!(t_->pieces[board_[b] >> 1].ride_check[by] & (1u << ((d + 4) & 7)))) continue;
      checkers |= bit(b);
      if (!test(leapers, b)) blocks |= t_->between(k, b);
    }
    if (popcount(checkers) != 1) return BB{};
    return checkers | blocks;
  }

  // Whether type t's whirlwind attacks no square its own capturing moves do not attack
  // already (a warrior king's radius-1 whirlwind and its king step): then attacked() need
  // not look at the whirlwind (a whirlwind from q reaches s when s is around q).
  bool whirl_covered(int t) const {
    const PieceTables<BB>& pt = t_->pieces[t];
    for (int c = 0; c < 2; ++c)
      for (int s = 0; s < p_->squares; ++s)
        if (pt.around[s] & ~pt.check_from[c][s]) return false;
    return true;
  }

  // Whether a piece of `by` attacks s with movement borrowed from a neighbour (RULINGS 4.7).
  [[gnu::noinline]] bool borrowed_attack(int s, int by, const BB& occ) const {
    for (int t = 0; t < p_->ntypes; ++t) {
      const uint32_t lends = p_->types[t].borrows;
      if (!lends) continue;
      for (BB b = pieces(by, t) & occ; b; clear_lsb(b)) {
        const int q = lsb(b);
        for (BB nb = t_->pieces[t].lenders[q] & by_color_[by] & occ; nb; clear_lsb(nb)) {
          const int u = board_[lsb(nb)] >> 1;
          if (!(lends >> u & 1)) continue;
          const PieceTables<BB>& lt = t_->pieces[u];
          if (test(lt.check_from[by][s], q)) return true;
          const int d = t_->dir[q][s];
          if (d >= 0 && (lt.ride_check[by] >> d & 1) && !(t_->between(q, s) & occ)) return true;
        }
      }
    }
    return false;
  }

  ARB_INLINE BB pinned(int k, int us) const {
    BB pins{};
    BB occ = occupied();
    for (int d = 0; d < 8; ++d) {
      int b1 = first(d, k, occ);
      if (b1 < 0 || board_[b1] < 0 || (board_[b1] & 1) != us) continue;
      int b2 = first(d, b1, occ);
      if (b2 < 0) continue;
      int code = board_[b2];
      if (code < 0 || (code & 1) == us) continue;  // a wall square pins nothing
      unsigned dirs = t_->pieces[code >> 1].ride_check[us ^ 1];
      if (borrowing_ && p_->types[code >> 1].borrows) dirs |= borrowed_rides(b2, code >> 1, us ^ 1);
      if (dirs & (1u << ((d + 4) & 7))) pins |= bit(b1);
    }
    return pins;
  }

  // The ride directions (with check) a piece of type t and colour c on q borrows.
  [[gnu::noinline]] unsigned borrowed_rides(int q, int t, int c) const {
    unsigned dirs = 0;
    for (BB nb = t_->pieces[t].lenders[q] & by_color_[c]; nb; clear_lsb(nb)) {
      const int u = board_[lsb(nb)] >> 1;
      if (p_->types[t].borrows >> u & 1) dirs |= t_->pieces[u].ride_check[c];
    }
    return dirs;
  }

  // The king's and the rook's destinations of a castling move of the side to move (`side`).
  ARB_INLINE void castle_targets(uint32_t kind, int side, int& kto, int& rto) const {
    int rank = side == 0 ? p_->castling_rank - 1 : p_->height - p_->castling_rank;
    kto = rank * p_->width + (kind == kCastleK ? p_->ks_king_to : p_->qs_king_to);
    rto = rank * p_->width + (kind == kCastleK ? p_->ks_rook_to : p_->qs_rook_to);
  }
  // Moves king and rook between their castling squares (either direction).
  ARB_INLINE void shift_pair(int kfrom, int rfrom, int kto, int rto) {
    int kc = board_[kfrom], rc = board_[rfrom];
    remove(kfrom);
    remove(rfrom);
    put(kto, kc);
    put(rto, rc);
  }

  // Board-only make and unmake, for legality tests.
  struct Light {
    int8_t captured;
    int victim_sq;
    bool blast;  // the capture exploded: lrem_ holds what it removed
  };
  // Removes the pieces a rampage from `from` to `to` or a strike on `to` takes off,
  // recording them in `out` (nearest first); returns how many.
  template <class Out>
  int remove_effect(Move m, Out&& out) {
    const int from = from_of(m), to = to_of(m);
    if (sub_of(m) == kSubStrike) {
      out(to, board_[to]);
      remove(to);
      return 1;
    }
    if (sub_of(m) == kSubWhirl) {
      int n = 0;
      for (BB v = whirl_victims(from); v; clear_lsb(v), ++n) {
        out(lsb(v), board_[lsb(v)]);
        remove(lsb(v));
      }
      return n;
    }
    int n = 0;
    for (BB path = t_->between(from, to) | bit(to); path; clear_lsb(path)) {
      const int q = lsb(path);
      if (board_[q] < 0) continue;
      out(q, board_[q]);
      remove(q);
      ++n;
    }
    return n;
  }
  // Blast: the program's captures may explode (only the general loop runs such programs).
  template <bool Blast = true>
  ARB_INLINE Light light_make(Move m) {
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    Light l{-1, -1, false};
    if (sub_of(m)) {
      nlrem_ = 0;
      remove_effect(m, [&](int q, int code) {
        lrem_[nlrem_++] = {static_cast<int16_t>(q), static_cast<int8_t>(code)};
      });
      if (sub_of(m) == kSubRampage) {
        int code = board_[from];
        remove(from);
        put(to, code);
      }
      return l;
    }
    if (k == kPlace) {
      put(to, type_of(m) * 2 + side_);
      return l;
    }
    if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, side_, kto, rto);
      shift_pair(from, to, kto, rto);
      return l;
    }
    int victim = k == kEnPassant ? ep_victim_ : to;
    if (board_[victim] >= 0) {
      l.captured = board_[victim];
      l.victim_sq = victim;
      remove(victim);
    }
    int code = board_[from];
    remove(from);
    put(to, k == kPromote ? type_of(m) * 2 + side_ : code);
    if (Blast && l.captured >= 0 && (blast_types_ >> (code >> 1) & 1)) [[unlikely]]
      l.blast = light_explosion(code >> 1, to);
    return l;
  }
  template <bool Blast = true>
  ARB_INLINE void light_unmake(Move m, Light l, int moved_code) {
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    if (sub_of(m)) {
      if (sub_of(m) == kSubRampage) {
        remove(to);
        put(from, moved_code);
      }
      for (int i = 0; i < nlrem_; ++i) put(lrem_[i].first, lrem_[i].second);
      return;
    }
    if (k == kPlace) {
      remove(to);
      return;
    }
    if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, side_, kto, rto);
      shift_pair(kto, rto, from, to);
      return;
    }
    if (Blast && l.blast) [[unlikely]]
      light_restore();
    remove(to);
    put(from, moved_code);
    if (l.captured >= 0) put(l.victim_sq, l.captured);
  }

  // Whether the side to move's royal piece is safe after m (and royals stay apart).
  // `only_mover`: with several royal pieces, a royal piece's plain move that can expose no
  // other (not in check, not pinned, no rampage or strike lines): only its destination is
  // tested.
  // Rich: called from the general loop, where captures may explode.
  template <bool Rich = true>
  bool safe_after(Move m, bool only_mover = false) {
    if constexpr (Rich)
      if (blast_types_) return safe_after_blast(m);
    // Without rampages (whose blockers are read from the board, not the occupancy) and
    // without royals kept apart, attacked() sees the board after a royal piece's plain
    // move or a whirlwind through the occupancy alone: no make and unmake. Not with
    // borrowing for the plain move (a captured lender would still lend).
    if (occupancy_tests_) {
      if (only_mover && !borrowing_)
        return !attacked(to_of(m), side_ ^ 1, (occupied() & ~bit(from_of(m))) | bit(to_of(m)));
      if (sub_of(m) == kSubWhirl) {
        const BB v = whirl_victims(from_of(m));
        if (!(v & (royals(0) | royals(1)))) {
          if (!p_->royal_safe) return true;
          const BB occ = occupied() & ~v;
          for (BB r = royals(side_); r; clear_lsb(r))
            if (attacked(lsb(r), side_ ^ 1, occ)) return false;
          return true;
        }
      }
    }
    int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    Light l = light_make<Rich>(m);
    int k = royal_square(side_);
    bool ok = true;
    if (only_mover)
      ok = !attacked(to_of(m), side_ ^ 1, occupied());
    else if (multi_royal_)
      ok = !p_->royal_safe || !royals_in_check(side_);
    else if (k >= 0 && p_->royal_safe)
      ok = !attacked(k, side_ ^ 1, occupied());
    if (ok && k >= 0 && p_->royals_apart) {
      int ek = royal_square(side_ ^ 1);
      if (ek >= 0 && test(t_->adjacent[k], ek)) ok = false;
    }
    if (ok && (p_->royals_not_facing || p_->no_check_given || facing_now_)) ok = judged_after();
    light_unmake<Rich>(m, l, moved);
    return ok;
  }

  // The conditions judged on the board after an action (light_make'd, the mover still to
  // move): `royals-not-facing`, no royal pieces of the two sides on one file or rank with
  // nothing between (the flying general); `no-check-given`, no enemy royal piece attacked.
  [[gnu::noinline]] bool judged_after() const {
    if (p_->royals_not_facing || facing_now_) {
      const BB occ = occupied();
      for (BB a = royals(side_); a; clear_lsb(a))
        for (BB b = royals(side_ ^ 1); b; clear_lsb(b)) {
          const int d = t_->dir[lsb(a)][lsb(b)];
          if (d >= 0 && d % 2 == 0 && !(t_->between(lsb(a), lsb(b)) & occ)) return false;
        }
    }
    if (p_->no_check_given && royals_attacked(side_ ^ 1)) return false;
    return true;
  }

  // safe_after() where captures explode: an action removing an own royal piece is illegal
  // (with `royal-safe`); one removing an enemy royal piece wins at once (with
  // `royal-capture -> win`), so it is legal whatever it leaves attacked; otherwise no own
  // royal piece may be left attacked by a capture that would be legal.
  [[gnu::noinline]] bool safe_after_blast(Move m) {
    const int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    const int own = popcount(royals(side_)), theirs = popcount(royals(side_ ^ 1));
    Light l = light_make(m);
    bool ok = true;
    if (p_->royal_safe && popcount(royals(side_)) < own) {
      ok = false;
    } else if (!(p_->royal_capture && popcount(royals(side_ ^ 1)) < theirs)) {
      if (p_->royal_safe) ok = !royals_attacked(side_);
      const int k = royal_square(side_), ek = royal_square(side_ ^ 1);
      if (ok && p_->royals_apart && k >= 0 && ek >= 0 && test(t_->adjacent[k], ek)) ok = false;
    }
    light_unmake(m, l, moved);
    return ok;
  }

  // Generates legal moves into `out`, or only counts them when Count is set.
  // Programs without Chess 2's primitives run a copy of the generator without them.
  template <bool Count>
  uint64_t generate(std::vector<Move>* out) {
    if (ends_any_) [[unlikely]]
      return generate_ends<Count>(out);
    return generate_moves<Count>(out);
  }

  // Issue 24 (gen_ends.hpp): a game a counted end condition has ended has no action;
  // `must-capture` keeps the captures when there is one.
  ends::Verdict counted_verdict() const {
    if (p_->pass) {
      const ends::Verdict v = pass_verdict();
      if (v.over) return v;
    }
    if (counting_checks_) {
      const ends::Verdict v = ends::checks(side_, checks_left_);
      if (v.over) return v;
    }
    if (flip_ends_) {
      const ends::Verdict v = flip_verdict();
      if (v.over) return v;
    }
    return ends::extinction(*p_, side_, [this](int c, int t) {
      if (t < 0) {
        int n = popcount(by_color_[c]);
        for (int u = 0; u < p_->ntypes; ++u) n += reserve_[c][u];
        return n;
      }
      return popcount(pieces(c, t)) + reserve_[c][t];
    });
  }
  // ---- passes, facing royals, counting (janggi's primitives; gen_pass.hpp) --------------
  // `pass`: a kNull move from the royal square to itself (Fairy-Stockfish writes `e2e2`).
  // It is legal when the side to move is not in check, and always while the royal pieces
  // face each other under `royals-facing`; every other action must then break the facing
  // (facing_now_ makes judged_after() test it).
  bool royals_face() const {
    const int a = royal_square(0), b = royal_square(1);
    if (a < 0 || b < 0) return false;
    const int d = t_->dir[a][b];
    return d >= 0 && d % 2 == 0 && !(t_->between(a, b) & occupied());
  }
  bool last_was_pass(size_t back) const {
    return stack_.size() >= back && kind_of(stack_[stack_.size() - back].move) == kNull &&
           stack_[stack_.size() - back].ends_turn;
  }
  ends::Verdict pass_verdict() const {
    int value = Program::kNoEnd;
    Termination end = Termination::None;
    if (p_->double_pass != Program::kNoEnd && last_was_pass(1) && last_was_pass(2)) {
      value = p_->double_pass;
      end = Termination::DoublePass;
    } else if (p_->royals_facing != Program::kNoEnd && last_was_pass(1) && royals_face()) {
      value = p_->royals_facing;
      end = Termination::RoyalsFacing;
    }
    if (end == Termination::None) return {};
    int white = 0, black = 0;
    for (int t = 0; t < p_->ntypes; ++t) {
      white += p_->types[t].points * popcount(pieces(0, t));
      black += p_->types[t].points * popcount(pieces(1, t));
    }
    return pass::verdict(end, value, white, black, p_->counting_needs);
  }
  template <bool Count>
  [[gnu::noinline]] uint64_t generate_with_pass(std::vector<Move>* out) {
    facing_now_ = p_->royals_facing != Program::kNoEnd && royals_face();
    uint64_t n = generate_moves<Count>(out);
    facing_now_ = false;
    if (royal_only_ || (any_only_ && Count && n)) return n;
    const int k = royal_square(side_);
    const bool checked = k >= 0 && p_->royal_safe && royals_attacked(side_);
    if (checked && !(p_->royals_facing != Program::kNoEnd && royals_face())) return n;
    const Move m = make_move(k < 0 ? 0 : k, k < 0 ? 0 : k, kNull);
    if constexpr (Count)
      ++n;
    else
      out->push_back(m);
    return n;
  }

  bool is_capture(Move m) const {
    const uint32_t k = kind_of(m);
    if (k == kEnPassant) return true;
    if (k == kCastleK || k == kCastleQ || k == kPlace || k == kNull) return false;
    const int to = to_of(m);
    return board_[to] >= 0 && (board_[to] & 1) != side_;
  }
  template <bool Count>
  [[gnu::noinline]] uint64_t generate_ends(std::vector<Move>* out) {
    if (counted_ends_ && counted_verdict().over) return 0;
    if (p_->pass) return generate_with_pass<Count>(out);
    if (pass_) return generate_or_pass<Count>(out);
    if (wall_rule_ != Program::WallRule::None) return generate_walls<Count>(out);
    if (p_->must_drop && hand_holds(side_)) [[unlikely]]
      return generate_must_drop<Count>(out);
    const bool dropping = p_->must_drop_type >= 0 && reserve_[side_][p_->must_drop_type] > 0;
    if (!p_->must_capture && !dropping) return generate_moves<Count>(out);
    forced_buf_.clear();
    generate_moves<false>(&forced_buf_);
    if (p_->must_capture) ends::keep_captures(forced_buf_, [this](Move m) { return is_capture(m); });
    if (dropping)
      misc::keep_must_drops(
          forced_buf_, [this](Move m) { return kind_of(m) == kPlace; },
          [this](Move m) { return static_cast<int>(type_of(m)) == p_->must_drop_type; });
    if constexpr (!Count) out->insert(out->end(), forced_buf_.begin(), forced_buf_.end());
    return forced_buf_.size();
  }

  template <bool Count>
  uint64_t generate_moves(std::vector<Move>* out) {
    // pseudo_legal_actions() runs a copy of the loop without the legality test (a template
    // argument: the normal loop pays nothing for it).
    if (pseudo_) [[unlikely]]
      return generate_impl<Count, true, true>(out);
    // A royal capture legal whatever it leaves (royal_take_) is judged in the general loop
    // only: the plain loop of every other program pays nothing for it.
    return rich_ || royal_take_ ? generate_impl<Count, true>(out) : generate_impl<Count, false>(out);
  }

  template <bool Count, bool Rich, bool Pseudo = false>
  uint64_t generate_impl(std::vector<Move>* out) {
    uint64_t n = 0;
    auto emit = [&](Move m) {
      if constexpr (Count) {
        ++n;
      } else {
        out->push_back(m);
      }
    };
    const int us = side_, them = us ^ 1;
    const BB occ = occupied(), own = by_color_[us], opp = by_color_[them];
    const int k = royal_square(us);
    const bool guard = k >= 0 && p_->royal_safe;
    // The royal-move phase follows a legal normal action, which left no royal piece
    // attacked; only a royal piece moves then, so the only pins that matter hold one royal
    // piece against another: none unless two stand on a line with nothing between.
    const bool in_check =
        guard && !royal_only_ &&
        ((multi_royal_ || (Rich && blast_types_)) ? royals_attacked(us) : attacked(k, them, occ));
    // Where captures explode, every action gets the full legality test (an explosion may
    // remove a pinner, a blocker or a royal piece).
    // Paths (hoppers, lame leaps, other riders) and the flying general are judged by the
    // squares they depend on (path_exposure(): `disc` below), as Stockfish judges pins.
    const bool test_every =
        in_check || facing_now_ || (Rich && (blast_types_ || p_->no_check_given || p_->duple_check));
    // In check in a plain program (attacks by leaps and rides only: no borrowing, no
    // animal lines, one royal piece), an action of another piece can only help by taking
    // the one checker or standing between it and a riding check: the others are dropped
    // before their full test (en passant, whose victim is not on its destination, keeps it).
    bool evading = false;
    BB evade{};
    if constexpr (!Rich)
      if (in_check && !multi_royal_ && !borrowing_ && !animal_attacks_ && !Pseudo) {
        evading = true;
        evade = evasion_squares(k, them, occ);
      }
    // The legality test of this loop: explosions only in the general one.
    const bool blast = Rich && blast_types_;
    auto legal = [&](Move m, bool only_mover = false) {
      if constexpr (Pseudo) return true;
      return blast ? safe_after_blast(m) : safe_after<false>(m, only_mover);
    };
    // The enemy royal pieces a capture may take whatever it leaves (royal_take_): general
    // loop only (the plain loop's tests below fold away).
    BB take{};
    if constexpr (Rich)
      if (royal_take_ && !blast) take = royals(them);
    BB pins{};
    if (guard && !multi_royal_ && !royal_only_ && !Pseudo) pins = pinned(k, us);
    if (guard && multi_royal_ && !Pseudo) {
      const BB rs = royals(us);
      bool need = !royal_only_;
      for (BB r = rs; r && !need; clear_lsb(r))
        for (BB r2 = rs & ~bit(lsb(r)); r2 && !need; clear_lsb(r2))
          need = t_->dir[lsb(r)][lsb(r2)] >= 0 && !(t_->between(lsb(r), lsb(r2)) & occ);
      if (need)
        for (BB r = rs; r; clear_lsb(r)) pins |= pinned(lsb(r), us);
    }
    // Rampages and strikes of the opponent attack along lines the pins do not see (a
    // blocker leaving a rampage path): every action is then tested in full.
    // The squares between such a piece and an own royal piece within its reach: an action
    // leaving or landing on one is tested in full (landing matters for a self-capture of
    // a blocker).
    BB disc{};
    if constexpr (Rich)
      if (guard)
        for (uint32_t m = rampage_types_ | line_check_types_; m; m &= m - 1) {
          const int t = __builtin_ctz(m);
          const int reach_of = line_reach_[t];
          for (BB b = pieces(them, t); b; clear_lsb(b))
            for (BB r = royals(us); r; clear_lsb(r)) {
              const int q = lsb(b), kq = lsb(r);
              const int d = t_->dir[q][kq];
              if (d < 0 || (reach_of != 0 && dist(q, kq) > reach_of)) continue;
              // A blocker beyond the king on a rampage path counts too: the whole path.
              disc |= t_->between(q, kq);
              if (p_->types[t].rampage.reach > 0) disc |= reach(d, q, p_->types[t].rampage.reach);
            }
        }
    if constexpr (Rich)
      if (guard && !in_check && (path_check_types_ || p_->royals_not_facing)) disc |= path_exposure(us, occ);
    const bool royal_in_reserve =
        p_->place_first_royal && p_->royal_type >= 0 && reserve_[us][p_->royal_type] > 0;
    // A game won by midline invasion has no further action (RULINGS 4.12).
    BB targets_of[kMaxTypes];
    if constexpr (Rich) {
      if (p_->invasion && !answering_) {
        bool draw;
        if (region_ended(draw)) return 0;
      }
      // A colour's royal pieces were removed (by the opponent, or by the mover's own
      // explosion): the game is over.
      if (royal_ends_ && (royal_lost(us) || royal_lost(them))) return 0;
      if (p_->capture_rules) capture_targets(us, targets_of);
    }

    if (p_->action_move && !royal_in_reserve) {
      BB movers = royal_only_ ? royals(us) : own;
      if (move_types_ != CardBoard::kAllTypes) {
        BB allowed{};
        for (int t = 0; t < p_->ntypes; ++t)
          if (move_types_ >> t & 1) allowed |= by_type_[t];
        movers &= allowed;
      }
      for (BB b = movers; b; clear_lsb(b)) {
        if (Count && any_only_ && n) return n;
        const int s = lsb(b);
        const int t = board_[s] >> 1;
        const PieceTables<BB>& pp = t_->pieces[t];
        const bool is_royal = p_->royal_types >> t & 1;
        // Moves whose legality needs a full test; the others are legal as generated.
        const bool pinned_here = test(pins, s);
        // A pinned teleporter may land on the pin's line beyond the pinner or the king.
        bool test_all = test_every || is_royal;
        // Borrowed rides count in the pins (pinned()); a pinned teleporter may land on the
        // pin's line beyond the pinner or the king.
        // (a pinned piece taking the pinner's lender breaks the pin: full test when borrowing).
        if constexpr (Rich)
          test_all = test_all || (pinned_here && (pp.special || borrowing_)) || test(disc, s);
        // Several royal pieces: a pin may hold against any of them, not only k's line.
        test_all = test_all || (pinned_here && multi_royal_);
        // Several royal pieces: a royal piece's plain move is tested at its destination only.
        const bool mover_only =
            multi_royal_ && is_royal && !in_check && !pinned_here && !test(disc, s) && !p_->duple_check;
        BB tg = opp;
        if constexpr (Rich) {
          if (p_->capture_rules) tg = targets_of[t];
          if (within_types_) tg &= ~far_protected(s, them);
          if (p_->types[t].capture_not) tg &= ~types_bb(p_->types[t].capture_not);  // `never-captures`
        }
        BB quiet = pp.leap_move[us][s] & ~occ;
        BB caps = pp.leap_capture[us][s] & tg;
        for (uint8_t dm = pp.ride_move[us] | pp.ride_capture[us]; dm; dm &= dm - 1) {
          int d = __builtin_ctz(dm);
          BB r = ride(d, s, occ);
          if (pp.ride_move[us] & (1u << d)) quiet |= r & ~occ;
          if (pp.ride_capture[us] & (1u << d)) caps |= r & tg;
        }
        if constexpr (Rich)
          if (pp.special && (target_types_ >> t & 1)) special_targets(s, t, us, occ, tg, quiet, caps);
        BB targets = quiet | caps;
        BB takes{};
        if constexpr (Rich) takes = caps & take;
        if (evading && !is_royal) targets &= evade;
        if (in_check && is_royal && p_->royal_stays_in_check) [[unlikely]]
          targets = royal_in_check_targets(k, them, targets & opp, occ);
        // A pinned piece stays between its royal piece and the pinner (taking it); a line
        // jumper could otherwise leap over the pinner onto the line beyond.
        if (pinned_here && !test_all)
          targets &= pp.line_jumps ? t_->between(k, s) | ride(t_->dir[k][s], s, occ) : t_->line(k, s);
        if constexpr (Rich) targets |= takes;
        // A royal piece's plain steps judged by attacked() on the occupancy without it, no
        // make and unmake (safe_after(m, true) without the call, see there; a captured
        // piece on the destination attacks nothing there): with several royal pieces when
        // the step can expose no other (the hot test of Two Kings), and the one royal
        // piece of a plain program (leaps and rides only).
        bool by_occupancy;
        if constexpr (Rich)
          by_occupancy = mover_only && occupancy_tests_ && !borrowing_ && !(targets & disc);
        else
          by_occupancy = is_royal && guard && plain_king_;
        if (by_occupancy && !Pseudo && !(targets & pp.promote_zone[us])) {
          const BB occ_without = occ & ~bit(s);
          for (BB tb = targets; tb; clear_lsb(tb))
            if (test(takes, lsb(tb)) || !attacked(lsb(tb), them, occ_without))
              emit(make_move(s, lsb(tb), kNormal));
          targets = BB{};
        }
        // gen_promote: a `promotes-to` piece standing in its zone may promote on any move;
        // an optional promotion keeps the plain move unless the piece would stand immobile.
        const PieceProgram& prog = p_->types[t];
        const BB zone =
            prog.promote_leaving && test(pp.promote_zone[us], s) ? t_->board_mask : pp.promote_zone[us];
        for (BB tb = targets; tb; clear_lsb(tb)) {
          int to = lsb(tb);
          if (test(zone, to) && (!prog.promote_capturing || board_[to] >= 0)) {
            for (char pt : prog.promote_choices[us]) {
              if (!promotable(us, pt)) continue;
              Move m = make_move(s, to, kPromote, pt);
              if ((!test_all && !test(disc, to)) || test(takes, to) || legal(m)) emit(m);
            }
            if (!prog.promote_optional || test(pp.immobile[us], to)) continue;
          }
          Move m = make_move(s, to, kNormal);
          if ((!test_all && !test(disc, to)) || test(takes, to) || legal(m, mover_only && !test(disc, to)))
            emit(m);
        }
        if constexpr (Rich)
          if (pp.special && animals_) {
            Move buf[64];
            const int nb = actions_in_place(s, t, us, occ, tg, buf);
            for (int i = 0; i < nb; ++i)
              if (legal(buf[i])) emit(buf[i]);
          }
        for (const auto& lame : pp.initial_lame[us][s]) {
          if ((lame.path | bit(lame.to)) & occ) continue;
          if (evading && !is_royal && !test(evade, lame.to)) continue;
          if (pinned_here && !test_all && !test(t_->line(k, s), lame.to)) continue;
          Move m = make_move(s, lame.to, kDouble);
          if (test(pp.promote_zone[us], lame.to)) {
            for (char pt : p_->types[t].promote_choices[us]) {
              if (!promotable(us, pt)) continue;
              Move pm = make_move(s, lame.to, kPromote, pt);
              if ((!test_all && !test(disc, lame.to)) || legal(pm)) emit(pm);
            }
            if (!p_->types[t].promote_optional || test(pp.immobile[us], lame.to)) continue;
          }
          if ((!test_all && !test(disc, lame.to)) || legal(m)) emit(m);
        }
        if (ep_ >= 0 && test(pp.ep_capture[us][s], ep_)) {
          Move m = make_move(s, ep_, kEnPassant);
          if (legal(m)) emit(m);
        }
      }
      // A non-royal castling king (`king LETTER`: giveaway, extinction) castles through
      // attacked squares, as Fairy-Stockfish's non-royal kings do.
      if (p_->castling && (castle_royal_ ? k >= 0 && !in_check : true) && !royal_only_ &&
          (move_types_ >> p_->castling_king & 1)) {
        for (int side = 0; side < 2; ++side) {
          int right = us * 2 + side;
          if (!(castling_ & (1 << right))) continue;
          if (castle_need_[right] & occ) continue;
          bool ok = true;
          // Check rules forbid passing attacked squares: for a royal castling king, and
          // only with `royal-safe` (no check: the king may castle through them).
          if (castle_royal_ && guard)
            for (BB pb = castle_path_[right]; pb && ok; clear_lsb(pb))
              if ((Rich && blast_types_) ? blast_attacked(lsb(pb), them, occ) : attacked(lsb(pb), them, occ))
                ok = false;
          if (!ok) continue;
          Move m = make_move(castle_from_[right], rook_sq_[right], side == 0 ? kCastleK : kCastleQ);
          if (legal(m)) emit(m);
        }
      }
    }
    if (p_->action_place && !royal_only_) {
      for (int t = 0; t < p_->ntypes; ++t) {
        if (reserve_[us][t] <= 0 && !flip_supply_) continue;
        if (royal_in_reserve && t != p_->royal_type) continue;
        const bool is_royal = t == p_->royal_type;
        BB zone = t_->place_zone[us] & ~occ;
        if (evading && !is_royal) zone &= evade;
        if (p_->types[t].must_promote) zone &= ~t_->pieces[t].promote_zone[us];
        zone = drop_squares(us, t, zone);
        if (flip_drops_) [[unlikely]]
          zone = flip::drop_zone(*p_, *t_, us, zone, own, opp);
        const bool test_drop = in_check || is_royal;
        const bool no_mate = p_->types[t].drop_no_mate && !Pseudo;
        for (; zone; clear_lsb(zone)) {
          Move m = make_move(0, lsb(zone), kPlace, t);
          if ((!(test_drop || test(disc, lsb(zone))) || legal(m)) && !(no_mate && drop_mates(m))) emit(m);
          if (p_->types[t].drop_promoted) [[unlikely]] {
            // shogi2 `drop promoted`: the same drop as the promoted type (from names the hand's type).
            Move pm = make_move(t + 1, lsb(zone), kPlace, p_->types[t].promote_to[0]);
            if ((!(test_drop || test(disc, lsb(zone))) || legal(pm)) && !(no_mate && drop_mates(pm)))
              emit(pm);
          }
        }
      }
    }
    return n;
  }

  // Plays one step. `ends_turn` false: the first step of a turn whose next phase follows
  // (the side does not change; a double step's en passant waits for the end of the turn).
  // A step after such a first one continues the turn: the clock counted the turn already.
  void make(Move m, bool ends_turn = true) {
    const Zobrist<N>& z = zob<N>();
    const bool continues = !stack_.empty() && !stack_.back().ends_turn;
    Undo u{m,
           static_cast<int8_t>(kind_of(m) == kPlace ? -1 : board_[from_of(m)]),
           -1,
           static_cast<int16_t>(ep_),
           static_cast<int16_t>(ep_victim_),
           castling_,
           halfmove_,
           fullmove_,
           hash_,
           ends_turn,
           static_cast<int16_t>(pending_passed_),
           static_cast<int16_t>(pending_victim_)};
    const int us = side_, from = from_of(m), to = to_of(m);
    const uint32_t k = kind_of(m);
    if (ep_ >= 0) hash_ ^= z.ep[ep_];
    ep_ = ep_victim_ = -1;
    hash_ ^= z.castle[castling_];
    if (!continues && halfmove_ < INT32_MAX) ++halfmove_;  // saturates: the text holds int32 counters
    if (k == kNull) {
      // A turn without a move (the card layer's pass or redraw).
    } else if (k == kPlace) {
      const int placed = type_of(m);
      const int t = from ? from - 1 : placed;  // a promoted drop names the hand's type (shogi2)
      if (!flip_supply_) {                     // `supply unlimited`: no reserve
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
        --reserve_[us][t];
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
      }
      put(to, placed * 2 + us);
      hash_ ^= z.psq[us][placed][to];
      if (from) [[unlikely]] {
        promoted_ |= bit(to);
        hash_ ^= z.promoted[to];
      }
      if (p_->castle_by_drop) [[unlikely]]
        castle_rights_by_drop(us, placed, to);
      halfmove_ = 0;
      if (convert_types_ >> t & 1) [[unlikely]]
        flip_make(t, to);
    } else if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, us, kto, rto);
      int kc = board_[from], rc = board_[to];
      shift_pair(from, to, kto, rto);
      hash_ ^= z.psq[us][kc >> 1][from] ^ z.psq[us][kc >> 1][kto] ^ z.psq[us][rc >> 1][to] ^
               z.psq[us][rc >> 1][rto];
      castling_ &= static_cast<uint8_t>(~castle_clear_[from] & ~castle_clear_[to]);
    } else if (sub_of(m)) {
      // A rampage or a strike (RULINGS 4.10): removals, then a rampage's run.
      u.nremoved = static_cast<uint8_t>(remove_effect(m, [&](int q, int code) {
        removed_.push_back({static_cast<int16_t>(q), static_cast<int8_t>(code)});
        hash_ ^= z.psq[code & 1][code >> 1][q];
        castling_ &= static_cast<uint8_t>(~castle_clear_[q]);
      }));
      halfmove_ = 0;
      if (sub_of(m) == kSubRampage) {
        const int code = board_[from];
        remove(from);
        put(to, code);
        hash_ ^= z.psq[us][code >> 1][from] ^ z.psq[us][code >> 1][to];
        castling_ &= static_cast<uint8_t>(~castle_clear_[from]);
      }
    } else {
      int victim = k == kEnPassant ? u.ep_victim : to;
      if (board_[victim] >= 0) {
        u.captured = board_[victim];
        hash_ ^= z.psq[u.captured & 1][u.captured >> 1][victim];
        remove(victim);
        halfmove_ = 0;
      }
      int code = board_[from];
      int t = code >> 1;
      if (p_->types[t].resets_clock || k == kPromote) halfmove_ = 0;  // a promotion resets it (FSF)
      remove(from);
      int nt = k == kPromote ? type_of(m) : t;
      put(to, nt * 2 + us);
      hash_ ^= z.psq[us][t][from] ^ z.psq[us][nt][to];
      if (u.captured >= 0 && (petrify_types_ >> t & 1)) [[unlikely]]
        petrify(u, to, nt * 2 + us);
      if (hand_) [[unlikely]]
        hand_make(u, from, to, victim, k == kPromote);
      if (convert_types_ >> nt & 1) [[unlikely]]
        flip_make(nt, to);
      castling_ &= static_cast<uint8_t>(~castle_clear_[from] & ~castle_clear_[to]);
      if (u.captured >= 0 && (blast_types_ >> t & 1)) [[unlikely]]
        u.nremoved = static_cast<uint8_t>(make_explosion(t, to));
      if (k == kDouble) {
        const auto& lames = t_->pieces[t].initial_lame[us][from];
        for (const auto& l : lames)
          if (l.to == to) {
            // En passant onto the square(s) passed over: the last one before the target.
            BB path = l.path;
            if (path) {
              int passed = us == 0 ? msb(path) : lsb(path);
              if (p_->types[t].ep_marks_path && ends_turn) {
                mark_ep_path(passed, to);  // gen_pawns: the field holds it, capture or not
              } else if (ends_turn) {
                set_ep_if_capturable(passed, to);
              } else {
                pending_passed_ = passed;
                pending_victim_ = to;
              }
            }
            break;
          }
      }
    }
    hash_ ^= z.castle[castling_];
    if (continues && pending_passed_ >= 0) {
      // The first step's double step: en passant stays available unless this step took
      // the pawn or stands on the square passed over.
      const int passed = pending_passed_, victim = pending_victim_;
      pending_passed_ = pending_victim_ = -1;
      if (board_[passed] < 0 && board_[victim] >= 0 && (board_[victim] & 1) == us)
        set_ep_if_capturable(passed, victim);
    }
    if (has_wall(m)) [[unlikely]]
      place_wall(u, wall_of(m));
    u.checks_left = checks_left_;
    stack_.push_back(u);
    if (!ends_turn) return;
    if (us == 1 && fullmove_ < INT32_MAX) ++fullmove_;
    side_ ^= 1;
    hash_ ^= z.side;
    if (counting_checks_ && checks_left_[us] > 0 && royals_attacked(side_)) [[unlikely]] {
      hash_ ^= ends::check_key(us, checks_left_[us]) ^ ends::check_key(us, checks_left_[us] - 1);
      --checks_left_[us];
    }
    history_.push_back(hash_);
  }

  // ---- gen_pawns: `promotion-limit N`: a promotion to a type only while the side holds
  // fewer than N of it on the board (Fairy-Stockfish's promotionLimit).
  bool promotable(int us, int pt) const {
    const int lim = p_->types[pt].promotion_limit;
    return !lim || popcount(pieces(us, pt)) < lim;
  }

  // ---- gen_pawns: the en-passant field as a path (`en-passant-field path`) -------------
  // Fairy-Stockfish's custom pawns: after the double step the field holds the square passed
  // and the arrival (`f3g4`, in square order), whether or not a capture is possible; an
  // en-passant capture lands on the square passed and takes the piece on the arrival.
  void mark_ep_path(int passed, int arrival) {
    ep_ = passed;
    ep_victim_ = arrival;
    hash_ ^= zob<N>().ep[ep_];
  }
  bool ep_is_path() const { return ep_victim_ >= 0 && p_->types[board_[ep_victim_] >> 1].ep_marks_path; }
  void write_ep(FenFields& f) const {
    if (!ep_is_path()) {
      f.ep = coord(ep_);
      return;
    }
    f.ep = coord(std::min(ep_, ep_victim_));
    f.ep_more = {coord(std::max(ep_, ep_victim_))};
  }
  // Reads the list form: exactly an empty square passed and the arrival of a double step of
  // the side that just moved by a piece whose field is a path, as make() leaves them.
  void read_ep_path(const FenFields& f, std::string_view text) {
    const size_t col = ep_column(text);
    if (f.ep_more.size() != 1)
      throw PositionError("an en-passant field lists one double step: the square passed and the arrival",
                          col);
    int a = (f.ep->y - 1) * p_->width + f.ep->x, b = (f.ep_more[0].y - 1) * p_->width + f.ep_more[0].x;
    if (board_[a] >= 0) std::swap(a, b);
    const int mover = side_ ^ 1;
    bool ok = board_[a] < 0 && board_[b] >= 0 && (board_[b] & 1) == mover &&
              p_->types[board_[b] >> 1].ep_marks_path;
    if (ok) {
      const std::vector<int> victims = ep_victims_from_text(a);
      ok = std::find(victims.begin(), victims.end(), b) != victims.end();
    }
    if (!ok)
      throw PositionError(
          "the en-passant field's squares are no double step of a piece with `en-passant-field path` "
          "(the square passed, empty, and the arrival)",
          col);
    ep_ = a;  // the hash is computed afterwards (full_hash)
    ep_victim_ = b;
  }
  static size_t ep_column(std::string_view text) {
    size_t col = 0;
    for (int spaces = 0; col < text.size() && spaces < 3; ++col)
      if (text[col] == ' ') ++spaces;
    return col;
  }

  // After a double step by the side that just moved, keeps the en-passant square only when
  // the side now to move (side_ not yet flipped: the capturer is side_ ^ 1) can legally
  // capture there.
  void set_ep_if_capturable(int passed, int victim) {
    const int capturer = side_ ^ 1;
    bool any = false;
    for (int t = 0; t < p_->ntypes && !any; ++t) {
      const PieceTables<BB>& pp = t_->pieces[t];
      for (BB b = pieces(capturer, t); b && !any; clear_lsb(b)) {
        int s = lsb(b);
        if (!test(pp.ep_capture[capturer][s], passed)) continue;
        // Test legality from the capturer's side.
        side_ ^= 1;
        ep_ = passed;
        ep_victim_ = victim;
        any = safe_after(make_move(s, passed, kEnPassant));
        side_ ^= 1;
      }
    }
    if (any) {
      ep_ = passed;
      ep_victim_ = victim;
      hash_ ^= zob<N>().ep[ep_];
    } else {
      ep_ = ep_victim_ = -1;
    }
  }

  void unmake() {
    Undo u = stack_.back();
    stack_.pop_back();
    if (u.ends_turn) {
      history_.pop_back();
      side_ ^= 1;
    }
    const int us = side_;
    const Move m = u.move;
    const int from = from_of(m), to = to_of(m);
    const uint32_t k = kind_of(m);
    if (has_wall(m)) [[unlikely]]
      take_wall(u, wall_of(m));
    if (convert_types_) [[unlikely]]
      flip_unmake(m);
    if (k == kNull) {
    } else if (k == kPlace) {
      remove(to);
      if (from) [[unlikely]]
        promoted_ &= ~bit(to);
      if (!flip_supply_) ++reserve_[us][from ? from - 1 : type_of(m)];
    } else if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, us, kto, rto);
      shift_pair(kto, rto, from, to);
    } else if (sub_of(m)) {
      if (sub_of(m) == kSubRampage) {
        remove(to);
        put(from, u.moved);
      }
      for (int i = 0; i < u.nremoved; ++i) {
        put(removed_.back().first, removed_.back().second);
        removed_.pop_back();
      }
    } else {
      if (u.nremoved) [[unlikely]]
        restore_removed(u.nremoved);  // an explosion's pieces, the capturer first
      if (hand_) [[unlikely]]
        hand_unmake(u, from, to, k);
      if (u.petrified) [[unlikely]]
        unpetrify(to, (k == kPromote ? type_of(m) : u.moved >> 1) * 2 + us);
      remove(to);
      put(from, u.moved);
      if (u.captured >= 0) put(k == kEnPassant ? u.ep_victim : to, u.captured);
    }
    ep_ = u.ep;
    ep_victim_ = u.ep_victim;
    castling_ = u.castling;
    halfmove_ = u.halfmove;
    fullmove_ = u.fullmove;
    hash_ = u.hash;
    pending_passed_ = u.pending_passed;
    pending_victim_ = u.pending_victim;
    checks_left_ = u.checks_left;
  }

  bool insufficient() const {
    if (p_->insufficient_needs_empty_reserves)
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < p_->ntypes; ++t)
          if (reserve_[c][t]) return false;
    int minors = 0, bishops[2] = {0, 0}, knights = 0, royals[2] = {0, 0};
    int bishop_colour[2] = {-1, -1};
    for (int s = 0; s < p_->squares; ++s) {
      int code = board_[s];
      if (code < 0) continue;
      const PieceProgram& pp = p_->types[code >> 1];
      if (pp.royal) {
        ++royals[code & 1];  // the rule is proved for one royal piece a side (compile.cpp)
        continue;
      }
      if (pp.minor_bishop) {
        ++minors;
        ++bishops[code & 1];
        bishop_colour[code & 1] = (s % p_->width + s / p_->width) & 1;
      } else if (pp.minor_knight) {
        ++minors;
        ++knights;
      } else {
        return false;
      }
    }
    if (royals[0] != 1 || royals[1] != 1) return false;
    if (minors <= 1) return true;
    return minors == 2 && knights == 0 && bishops[0] == 1 && bishops[1] == 1 &&
           bishop_colour[0] == bishop_colour[1];
  }

  void load(const FenFields& f, std::string_view text) {
    borrowing_ = p_->borrowing;
    rich_ = p_->chess2_primitives;
    animals_ = false;
    within_types_ = immune_types_ = line_check_types_ = rampage_types_ = whirl_types_ = blast_types_ = 0;
    // The card layer judges a royal capture itself (its board program runs the plain loop).
    royal_ends_ = p_->royal_capture && !p_->cards && p_->royal_type >= 0 && rich_;
    royal_take_ = p_->royal_capture && p_->royal_safe;
    multi_royal_ =
        __builtin_popcount(p_->royal_types) > 1 || p_->royal_count[0] > 1 || p_->royal_count[1] > 1;
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.animal()) animals_ = true;
      if (pp.captured_within > 0) within_types_ |= 1u << t;
      if (pp.immune) immune_types_ |= 1u << t;
      bool lines = !pp.strike.lines[0].empty();
      for (const PieceProgram::Line& l : pp.limited[0]) lines = lines || l.capture;
      if (lines && pp.gives_check) line_check_types_ |= 1u << t;
      if (pp.rampage.reach > 0 && pp.gives_check) rampage_types_ |= 1u << t;
      if (pp.whirlwind() && pp.gives_check && !whirl_covered(t)) whirl_types_ |= 1u << t;
      if (pp.explodes()) blast_types_ |= 1u << t;
      int reach_of = pp.rampage.reach;
      for (const auto* lines : {&pp.strike.lines[0], &pp.limited[0]})
        for (const PieceProgram::Line& l : *lines)
          if (l.capture) reach_of = (l.range == 0 || reach_of < 0) ? -1 : std::max(reach_of, l.range);
      line_reach_[t] = reach_of < 0 ? 0 : reach_of;
    }
    path_types_ = path_check_types_ = 0;
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.paths[0].empty()) continue;
      path_types_ |= 1u << t;
      bool captures = false;
      for (const PieceProgram::Path& w : pp.paths[0]) captures = captures || w.capture;
      if (captures && pp.gives_check) path_check_types_ |= 1u << t;
    }
    animal_attacks_ = (line_check_types_ | rampage_types_ | whirl_types_ | path_check_types_) != 0;
    // The flying general and the ban on giving check judge every action after it is made.
    const bool facing_or_no_check = p_->royals_not_facing || p_->no_check_given;
    plain_king_ = !multi_royal_ && !borrowing_ && !animal_attacks_ && !blast_types_ && !p_->royals_apart &&
                  !facing_or_no_check;
    bool whirls = false;
    target_types_ = path_types_;
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.borrows || pp.teleport_move || pp.teleport_capture || !pp.limited[0].empty() ||
          !pp.limited[1].empty() || !pp.own_leaps[0].empty() || !pp.own_leaps[1].empty() ||
          !pp.region_leaps[0].empty() || !pp.region_leaps[1].empty())
        target_types_ |= 1u << t;
    }
    for (int t = 0; t < p_->ntypes; ++t) whirls = whirls || p_->types[t].whirlwind();
    // Not where captures explode: safe_after_blast judges every action on the board.
    occupancy_tests_ = !rampage_types_ && !p_->royals_apart && !blast_types_ && !facing_or_no_check &&
                       !p_->duple_check && (multi_royal_ || whirls);
    removed_.clear();
    lrem_.assign(N + 1, {});
    board_.fill(-1);
    for (int y = 1; y <= p_->height; ++y)
      for (int x = 0; x < p_->width; ++x) {
        char ch = f.at(Coord{x, y});
        if (!ch || ch == '*') continue;  // a wall square: load_walls
        int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
        int t = static_cast<int>(p_->letters.find(static_cast<char>(std::toupper(ch))));
        const size_t i = static_cast<size_t>((y - 1) * p_->width + x);
        if (i < f.plus.size() && f.plus[i]) {  // `+P`: the type P promotes to
          if (p_->plus_of[t] < 0)
            throw PositionError(std::string("`+") + ch + "`: " + static_cast<char>(std::toupper(ch)) +
                                    " promotes to no piece",
                                0);
          t = p_->plus_of[t];
        }
        put((y - 1) * p_->width + x, t * 2 + c);
      }
    hand_ = p_->capture_to_hand;
    marks_ = p_->hand_marks;
    promoted_ = BB{};
    if (p_->plus_marks)  // every piece of a promoted type stands promoted
      for (int t = 0; t < p_->ntypes; ++t)
        if (p_->plus_base[t] >= 0) promoted_ |= by_type_[t];
    for (size_t i = 0; i < f.promoted.size(); ++i)
      if (f.promoted[i] && f.cells[i]) promoted_ |= bit(static_cast<int>(i));
    if (p_->has_reserve && !f.has_reserve)
      throw PositionError(
          "this variant's position text needs the reserves in brackets after the board, e.g. [QRqr]",
          text.find(' ') == std::string_view::npos ? 0 : text.find(' '));
    if (!p_->has_reserve && f.has_reserve)
      throw PositionError("this variant has no reserves, but the position gives some", text.find('['));
    for (char ch : f.reserve) {
      int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
      int t = static_cast<int>(p_->letters.find(static_cast<char>(std::toupper(ch))));
      if (++reserve_[c][t] > 256)
        throw PositionError("more than 256 pieces of one type in a reserve", text.find('['));
    }
    side_ = f.side == Color::White ? 0 : 1;
    flip_ends_ = p_->flips.ends();
    pass_ = p_->flips.pass;
    flip_drops_ = p_->flips.drop_rules();
    flip_supply_ = p_->flips.supply_unlimited;
    convert_types_ = 0;
    for (int t = 0; t < p_->ntypes; ++t)
      if (p_->types[t].convert.on()) convert_types_ |= 1u << t;
    counted_ends_ = !p_->extinctions.empty() || p_->checks_to_win > 0 || p_->pass || flip_ends_;
    counting_checks_ = p_->checks_to_win > 0;
    ends_any_ = counted_ends_ || p_->must_capture || pass_ || p_->wall_rule != Program::WallRule::None ||
                p_->must_drop || p_->must_drop_type >= 0;
    load_walls(f, text);
    opposite_colours_ = false;
    for (int t = 0; t < p_->ntypes; ++t)
      opposite_colours_ = opposite_colours_ || p_->types[t].drop_opposite_colours;
    dark_ = BB{};
    for (int s = 0; s < p_->squares; ++s)
      if ((s % p_->width + s / p_->width) % 2 == 0) dark_ |= bit(s);
    if (f.checks_remaining && !counting_checks_)
      throw PositionError("this variant counts no checks; the position text has a check counter",
                          text.find('+') == std::string_view::npos ? 0 : text.find('+'));
    checks_left_.fill(static_cast<int8_t>(p_->checks_to_win));
    if (f.checks_remaining)
      for (int c = 0; c < 2; ++c) {
        if ((*f.checks_remaining)[c] > 9)
          throw PositionError("a check counter holds 0..9 checks to give", text.find('+'));
        checks_left_[c] = static_cast<int8_t>((*f.checks_remaining)[c]);
      }
    halfmove_ = f.halfmove;
    fullmove_ = f.fullmove;
    // Validation.
    for (int c = 0; c < 2; ++c) {
      const char* who = c == 0 ? "White" : "Black";
      if (!p_->army[c].empty())
        for (int t = 0; t < p_->ntypes; ++t)
          if (pieces(c, t) && !(p_->army_types[c] >> t & 1)) {
            char l = c == 0 ? p_->letters[t] : static_cast<char>(std::tolower(p_->letters[t]));
            throw PositionError(
                std::string(who) + " plays the army `" + p_->army[c] + "`, which has no " + p_->letters[t],
                text.find(l) == std::string_view::npos ? 0 : text.find(l));
          }
      if (multi_royal_) {
        // Each colour holds its army's royal pieces (Two Kings: two warrior kings).
        const int total = popcount(royals(c));
        // Two Kings may play on with one warrior king (the reference accepts it as well).
        if (total < 1 || total > p_->royal_count[c])
          throw PositionError(
              std::string(who) + " must have " +
                  (p_->royal_count[c] == 1 ? "exactly 1" : "1 to " + std::to_string(p_->royal_count[c])) +
                  " royal piece" + (p_->royal_count[c] == 1 ? "" : "s") + " (found " + std::to_string(total) +
                  ")",
              0);
      } else if (p_->royal_type >= 0) {
        int on_board = popcount(pieces(c, p_->royal_type));
        int total = on_board + reserve_[c][p_->royal_type];
        // A game won by capturing the royal piece may leave the side to move without one
        // (or, where captures explode, the mover, whose own explosion took it).
        if (p_->no_royal[c]) {
          if (total != 0)
            throw PositionError(std::string(who) + " plays without a royal piece (its start has no " +
                                    p_->letters[p_->royal_type] + "); found " + std::to_string(total),
                                0);
        } else if (total != 1 && !(p_->royal_capture && total == 0 && (c == side_ || blast_types_)))
          throw PositionError(std::string(who) + " must have exactly one " + p_->letters[p_->royal_type] +
                                  " (found " + std::to_string(total) + ")",
                              0);
      }
      for (int t = 0; t < p_->ntypes; ++t) {
        if (p_->types[t].must_promote && (pieces(c, t) & t_->pieces[t].promote_zone[c]))
          throw PositionError(std::string(who) + " has a " + p_->letters[t] + " on its promotion rank", 0);
        if (pieces(c, t) & t_->pieces[t].forbidden_zone[c])
          throw PositionError(
              std::string(who) + " has a " + p_->letters[t] + " on a rank where it may not stand", 0);
      }
    }
    // Reserve variants start from a known set: no side may hold more than it, promotions
    // aside (extra pieces of a type a pawn promotes to, paid for by missing pawns).
    if (hand_) {
      // `partner`: the other board's captures fill these hands, whatever their counts.
      if (!p_->hand_to_partner) check_hand_material(text);
    } else if (convert_types_)
      check_converted_material(text);
    else if (p_->has_reserve)
      check_material(text);
    {
      int k = royal_square(side_ ^ 1);
      // Where a royal piece may be captured (a lost turn in check), the side not to move
      // may stand in check.
      // Where captures explode, only the winner of a game ended by removing the royal
      // piece of the side to move may.
      if (k >= 0 && p_->royal_safe && !(p_->royal_capture && (!blast_types_ || royal_lost(side_))) &&
          royals_in_check(side_ ^ 1))
        throw PositionError("the side not to move is in check",
                            text.find(' ') == std::string_view::npos ? 0 : text.find(' ') + 1);
      int k2 = royal_square(side_);
      if (k >= 0 && k2 >= 0 && p_->royals_apart && test(t_->adjacent[k], k2))
        throw PositionError("the royal pieces stand adjacent", 0);
    }
    // Castling.
    castling_ = 0;
    castle_clear_.fill(0);
    castle_royal_ = p_->castling_king >= 0 && (p_->royal_types >> p_->castling_king & 1);
    chess960_ = false;
    if (f.castling != "-" && !f.castling.empty()) {
      if (!p_->castling)
        throw PositionError("this variant has no castling; the castling field must be `-`", 0);
      char royal = p_->letters[p_->castling_king];
      std::vector<CastlingRight> rights;
      try {
        rights = resolve_castling(f, royal, p_->castling_rooks, p_->castling_rank);
      } catch (const PositionError& e) {
        size_t base = 0;
        for (int spaces = 0; base < text.size() && spaces < 2; ++base)
          if (text[base] == ' ') ++spaces;
        throw PositionError(e.what(), base + e.column);
      }
      for (const auto& r : rights) {
        int c = r.color == Color::White ? 0 : 1;
        if (!p_->castles[c])
          throw PositionError(std::string(c == 0 ? "White" : "Black") + "'s army `" + p_->army[c] +
                                  "` does not castle; its castling rights must be absent",
                              0);
        int rank = c == 0 ? p_->castling_rank - 1 : p_->height - p_->castling_rank;
        // The castling king on the home rank (with several royal types, not just any royal
        // piece: coregal's queen does not castle).
        int k = castle_royal_ && !multi_royal_ ? royal_square(c) : -1;
        if (k < 0)
          for (BB b = pieces(c, p_->castling_king); b && k < 0; clear_lsb(b))
            if (lsb(b) / p_->width == rank) k = lsb(b);
        if (k < 0) throw PositionError("a castling right without a castling king on the home rank", 0);
        int side = r.rook_file > k % p_->width ? 0 : 1;
        int idx = c * 2 + side;
        if (castling_ & (1 << idx))
          throw PositionError("two castling rights on the same side of the king", 0);
        castling_ |= static_cast<uint8_t>(1 << idx);
        rook_sq_[idx] = rank * p_->width + r.rook_file;
        castle_from_[idx] = k;
        {
          int kto, rto, rsq = rook_sq_[idx];
          castle_targets(side == 0 ? kCastleK : kCastleQ, c, kto, rto);
          castle_path_[idx] = t_->between(k, kto) | bit(kto);
          castle_need_[idx] = (castle_path_[idx] | t_->between(rsq, rto) | bit(rto)) & ~bit(k) & ~bit(rsq);
        }
        castle_clear_[rook_sq_[idx]] |= static_cast<uint8_t>(1 << idx);
        castle_clear_[k] |= static_cast<uint8_t>(1 << idx);
        if (k % p_->width != p_->width / 2 || (r.rook_file != 0 && r.rook_file != p_->width - 1))
          chess960_ = true;
      }
    }
    // En passant: kept only when a capture there is legal.
    ep_ = ep_victim_ = -1;
    if (f.ep && !f.ep_more.empty()) {
      read_ep_path(f, text);
    } else if (f.ep) {
      const int passed = (f.ep->y - 1) * p_->width + f.ep->x;
      const std::vector<int> victims = ep_victims_from_text(passed);
      // In a game without double steps (makruk's pawns never make one) an en-passant
      // square is not a position of the game: refused, not ignored, since a reader that
      // honours it (Fairy-Stockfish) would play another game. Where double steps exist, a
      // square no step fits is ignored, as the chess references do.
      if (victims.empty() && !has_double_step()) {
        size_t base = 0;
        for (int spaces = 0; base < text.size() && spaces < 3; ++base)
          if (text[base] == ' ') ++spaces;
        throw PositionError("en-passant square " + std::string(1, static_cast<char>('a' + f.ep->x)) +
                                std::to_string(f.ep->y) + ": no piece of this game makes a double step",
                            base);
      }
      for (int victim : victims) {
        side_ ^= 1;  // set_ep_if_capturable looks from the side that just moved
        set_ep_if_capturable(passed, victim);
        side_ ^= 1;
        if (ep_ >= 0) break;
      }
    }
    hash_ = full_hash();
    turn_phase_ = p_->turn.size() == 2 && p_->turn[1].kind == PhaseKind::RoyalMove;
    royal_phase_ = turn_phase_ || p_->king_turn[0] || p_->king_turn[1];
    pending_passed_ = pending_victim_ = -1;
    stack_.clear();
    history_.clear();
    history_.push_back(hash_);
  }

  // The pawns an en-passant square read from a text may take: those that may just have
  // made a double step over `passed` (its last square passed, as make() records it). The
  // double step's geometry decides, not a fixed direction: a Berolina pawn's diagonal
  // double step f7-d5 passes e6 and its victim stands on d5. A step fits when the mover's
  // piece stands on its target, the passed square is empty and so is the origin (Chess 2,
  // RULINGS 4.12: a king-turn may since have occupied it; the right stays). When several
  // fit (d7-f5 and f7-d5 both pass e6) the text cannot tell them apart: the first in board
  // order whose capture is legal is taken.
  bool has_double_step() const {
    for (int t = 0; t < p_->ntypes; ++t)
      for (int c = 0; c < 2; ++c)
        if (!p_->types[t].lame[c].empty()) return true;
    return false;
  }

  std::vector<int> ep_victims_from_text(int passed) const {
    std::vector<int> out;
    if (passed < 0 || passed >= p_->squares || board_[passed] >= 0) return out;
    const int mover = side_ ^ 1;
    for (int origin = 0; origin < p_->squares; ++origin) {
      if (board_[origin] >= 0 && !rich_) continue;
      for (int t = 0; t < p_->ntypes; ++t)
        for (const auto& l : t_->pieces[t].initial_lame[mover][origin]) {
          if (!l.path) continue;
          const int over = mover == 0 ? msb(l.path) : lsb(l.path);
          if (over == passed && board_[l.to] == t * 2 + mover) out.push_back(l.to);
        }
    }
    return out;
  }

  void check_material(std::string_view text) {
    // The start's counts per side and type (board and reserve).
    FenFields start = parse_fen(p_->start_text, p_->width, p_->height, p_->letters + lower_letters());
    int init[2][kMaxTypes] = {};
    auto count_letter = [&](char ch, int(*n)[kMaxTypes]) {
      int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
      size_t t = p_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
      if (t != std::string::npos) ++n[c][t];
    };
    for (char ch : start.cells)
      if (ch) count_letter(ch, init);
    for (char ch : start.reserve) count_letter(ch, init);
    for (int c = 0; c < 2; ++c) {
      int missing_promoters = 0, extra = 0;
      for (int t = 0; t < p_->ntypes; ++t) {
        // A reserve only ever loses pieces: it never holds more than the start gave it.
        if (reserve_[c][t] > init[c][t])
          throw PositionError(std::string(c ? "Black" : "White") + "'s reserve holds more " + p_->letters[t] +
                                  " than a side starts with",
                              text.find('[') == std::string_view::npos ? 0 : text.find('['));
        int have = popcount(pieces(c, t)) + reserve_[c][t];
        if (!p_->types[t].promote_to.empty()) {
          if (have > init[c][t])
            throw PositionError(
                std::string(c ? "Black" : "White") + " has more " + p_->letters[t] + " than its set holds",
                text.find('[') == std::string_view::npos ? 0 : text.find('['));
          missing_promoters += init[c][t] - have;
        } else if (have > init[c][t]) {
          bool promotable = false;
          for (const auto& pp : p_->types)
            if (pp.promote_to.find(static_cast<char>(t)) != std::string::npos) promotable = true;
          if (!promotable)
            throw PositionError(
                std::string(c ? "Black" : "White") + " has more " + p_->letters[t] + " than its set holds",
                text.find('[') == std::string_view::npos ? 0 : text.find('['));
          extra += have - init[c][t];
        }
      }
      if (extra > missing_promoters)
        throw PositionError(std::string(c ? "Black" : "White") +
                                " has more pieces than its set and its promotions can account for",
                            text.find('[') == std::string_view::npos ? 0 : text.find('['));
    }
  }
  // ---- walls (`walls`, `petrify`; walls.hpp) ---------------------------------------------
  // Wall squares stand in walls_, which occupied() includes: they block every move and no
  // piece captures them. With `walls placed RULE` every move has a second part, the wall it
  // places (with_wall: Fairy-Stockfish's `e2e4,e4e5`); generate() reaches generate_walls
  // through generate_ends, so a program without placed walls never runs this code.
  Program::WallRule wall_rule_ = Program::WallRule::None;
  uint32_t petrify_types_ = 0;
  BB wall_zone_[2] = {};  // where each colour may place walls
  BB board_mask_{};       // every square of the board
  BB edge_mask_{};        // the first and last file and rank (`placed edge`)
  std::vector<Move> walls_buf_;

  void load_walls(const FenFields& f, std::string_view text) {
    wall_rule_ = p_->wall_rule;
    petrify_types_ = p_->petrify_types;
    walls_ = board_mask_ = edge_mask_ = BB{};
    for (int y = 1; y <= p_->height; ++y)
      for (int x = 0; x < p_->width; ++x) {
        const int s = (y - 1) * p_->width + x;
        board_mask_ |= bit(s);
        if (x == 0 || y == 1 || x == p_->width - 1 || y == p_->height) edge_mask_ |= bit(s);
        if (f.at(Coord{x, y}) == '*') walls_ |= bit(s);
      }
    for (int c = 0; c < 2; ++c) {
      wall_zone_[c] = board_mask_;
      if (p_->wall_region >= 0) {
        wall_zone_[c] = BB{};
        for (int s = 0; s < p_->squares; ++s)
          if (p_->regions[p_->wall_region][c].test(static_cast<size_t>(s))) wall_zone_[c] |= bit(s);
      }
    }
    if (wall_rule_ == Program::WallRule::Duck && popcount(walls_) > 1)
      throw PositionError("`walls placed duck` moves one wall: the position holds " +
                              std::to_string(popcount(walls_)) + " wall squares",
                          text.find('*'));
  }
  // `petrify`: the capturer on `to` (code) becomes a wall square.
  void petrify(Undo& u, int to, int code) {
    const Zobrist<N>& z = zob<N>();
    remove(to);
    walls_ |= bit(to);
    hash_ ^= z.psq[code & 1][code >> 1][to] ^ z.wall[to];
    u.petrified = true;
  }
  void unpetrify(int to, int code) {
    walls_ &= ~bit(to);
    put(to, code);
  }
  // The move's wall: `duck` first lifts the one wall standing; a wall on the square a double
  // step passed over leaves no en-passant capture (Fairy-Stockfish).
  void place_wall(Undo& u, int q) {
    const Zobrist<N>& z = zob<N>();
    if (wall_rule_ == Program::WallRule::Duck && walls_) {
      u.wall_taken = static_cast<int16_t>(lsb(walls_));
      walls_ = BB{};
      hash_ ^= z.wall[u.wall_taken];
    }
    walls_ |= bit(q);
    hash_ ^= z.wall[q];
    if (ep_ == q) {
      hash_ ^= z.ep[ep_];
      ep_ = ep_victim_ = -1;
    }
  }
  void take_wall(const Undo& u, int q) {
    walls_ &= ~bit(q);
    if (u.wall_taken >= 0) walls_ |= bit(u.wall_taken);
  }
  // The squares where the mover may place the wall after the move m: empty once m is made,
  // in the mover's zone, and as the rule says.
  BB wall_squares(Move m) {
    const int from = from_of(m), to = to_of(m);
    const int moved = board_[from];
    const Light l = light_make(m);
    BB w = board_mask_ & ~occupied() & wall_zone_[side_];
    switch (wall_rule_) {
      case Program::WallRule::Arrow: {  // where the moved piece could move on from its arrival
        const PieceTables<BB>& pt = t_->pieces[moved >> 1];
        BB reach = pt.leap_move[side_][to];
        for (uint8_t dm = pt.ride_move[side_]; dm; dm &= dm - 1)
          reach |= ride(__builtin_ctz(dm), to, occupied());
        w &= reach;
        break;
      }
      case Program::WallRule::Past:
        w &= bit(from);
        break;
      case Program::WallRule::Edge: {  // the edge, or orthogonally beside a wall
        BB near = edge_mask_;
        for (BB b = walls_; b; clear_lsb(b)) {
          const int q = lsb(b), x = q % p_->width, y = q / p_->width;
          if (x > 0) near |= bit(q - 1);
          if (x + 1 < p_->width) near |= bit(q + 1);
          if (y > 0) near |= bit(q - p_->width);
          if (y + 1 < p_->height) near |= bit(q + p_->width);
        }
        w &= near;
        break;
      }
      default:  // duck, static: any empty square of the zone (the duck's own square is occupied)
        break;
    }
    light_unmake(m, l, moved);
    return w;
  }
  // Every legal move with each wall it may place; a move that can place none is no move.
  template <bool Count>
  uint64_t generate_walls(std::vector<Move>* out) {
    walls_buf_.clear();
    const bool any = any_only_;
    any_only_ = false;  // a move without a wall square counts nothing
    generate_moves<false>(&walls_buf_);
    any_only_ = any;
    if (p_->must_capture) ends::keep_captures(walls_buf_, [this](Move m) { return is_capture(m); });
    uint64_t n = 0;
    for (Move m : walls_buf_) {
      const BB w = wall_squares(m);
      if constexpr (Count) {
        n += popcount(w);
      } else {
        for (BB b = w; b; clear_lsb(b)) out->push_back(with_wall(m, lsb(b)));
        n += popcount(w);
      }
    }
    return n;
  }

  // ---- flipping pieces and passes (`converts`, `pass`, `board-full`; gen_flip.hpp) -------
  // The piece of type t the side to move just put on `to` converts the enemy pieces of its
  // pattern; their squares go on flipped_ for unmake.
  [[gnu::noinline]] void flip_make(int t, int to) {
    const Zobrist<N>& z = zob<N>();
    const int us = side_, them = us ^ 1;
    const BB conv = flip::converted(*t_, p_->types[t].convert, to, by_color_[us], by_color_[them]);
    for (BB b = conv; b; clear_lsb(b)) {
      const int q = lsb(b), code = board_[q];
      remove(q);
      put(q, code ^ 1);
      hash_ ^= z.psq[them][code >> 1][q] ^ z.psq[us][code >> 1][q];
    }
    flipped_.push_back(conv);
  }
  // Gives the pieces converted by step m, being undone, back (its piece stands on its
  // destination); the hash comes back from the undo record.
  [[gnu::noinline]] void flip_unmake(Move m) {
    const uint32_t k = kind_of(m);
    if (k == kNull || k == kCastleK || k == kCastleQ || sub_of(m)) return;
    if (!(convert_types_ >> (board_[to_of(m)] >> 1) & 1)) return;
    for (BB b = flipped_.back(); b; clear_lsb(b)) {
      const int q = lsb(b), code = board_[q];
      remove(q);
      put(q, code ^ 1);
    }
    flipped_.pop_back();
  }
  // The end by a full board or by passes in a row (the steps on the stack: a text starts
  // with none, as in Fairy-Stockfish).
  ends::Verdict flip_verdict() const {
    int passes = 0;
    for (auto it = stack_.rbegin(); it != stack_.rend() && kind_of(it->move) == kNull; ++it) ++passes;
    const bool full = !(t_->board_mask & ~occupied());
    return flip::over(*p_, full, passes, popcount(by_color_[0]), popcount(by_color_[1]));
  }
  // `pass when-blocked`: the moves, or when there are none and the side has a piece on the
  // board, the pass.
  template <bool Count>
  uint64_t generate_or_pass(std::vector<Move>* out) {
    const size_t before = out ? out->size() : 0;
    const uint64_t n = generate_moves<Count>(out);
    const bool none = Count ? n == 0 : out->size() == before;
    if (!none || !by_color_[side_]) return n;
    if constexpr (!Count) out->push_back(make_move(0, 0, kNull));
    return 1;
  }
  // A position of a game with conversion: pieces change sides, so only both sides' pieces
  // of a type together are bounded by the start (with `supply unlimited`, nothing is); a
  // reserve never grows.
  void check_converted_material(std::string_view text) {
    if (flip_supply_) return;
    const FenFields start = parse_fen(p_->start_text, p_->width, p_->height, p_->letters + lower_letters());
    int init[2][kMaxTypes] = {}, total[kMaxTypes] = {};
    auto count = [&](char ch, bool reserve) {
      const size_t t = ch ? p_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))))
                          : std::string::npos;
      if (t == std::string::npos) return;
      ++total[t];
      if (reserve) ++init[std::islower(static_cast<unsigned char>(ch)) ? 1 : 0][t];
    };
    for (char ch : start.cells) count(ch, false);
    for (char ch : start.reserve) count(ch, true);
    const size_t at = text.find('[') == std::string_view::npos ? 0 : text.find('[');
    for (int t = 0; t < p_->ntypes; ++t) {
      for (int c = 0; c < 2; ++c)
        if (reserve_[c][t] > init[c][t])
          throw PositionError(std::string(c ? "Black" : "White") + "'s reserve holds more " + p_->letters[t] +
                                  " than a side starts with",
                              at);
      if (popcount(by_type_[t]) + reserve_[0][t] + reserve_[1][t] > total[t])
        throw PositionError(std::string("more ") + p_->letters[t] + " than the set holds", at);
    }
  }

  // ---- hands and drops (`captures-to-hand`, `drop`; drops.hpp) -------------------------
  // After a move's board update: the victim joins the mover's reserve (demoted when it
  // stood promoted), and the promoted mark travels with the mover or is set by a promotion.
  void hand_make(Undo& u, int from, int to, int victim, bool promotes) {
    const Zobrist<N>& z = zob<N>();
    const int us = side_;
    if (u.captured >= 0) {
      const bool was = test(promoted_, victim);
      u.captured_promoted = was;
      if (was) {
        promoted_ &= ~bit(victim);
        hash_ ^= z.promoted[victim];
      }
      const int t = was ? p_->demote[u.captured >> 1] : u.captured >> 1;
      if (!p_->hand_to_partner) {  // `partner`: it leaves for the other board
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
        ++reserve_[us][t];
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
      }
    }
    // A promotion of a piece standing promoted is a demotion (shogi2 `demotes`): unmarked.
    const bool demotes = promotes && test(promoted_, from);
    u.mover_promoted = test(promoted_, from);
    if (u.mover_promoted) {
      promoted_ &= ~bit(from);
      hash_ ^= z.promoted[from];
      promotes = true;
    }
    if (promotes && marks_ && !demotes) {
      promoted_ |= bit(to);
      hash_ ^= z.promoted[to];
    }
  }
  // Its inverse, before the board is restored (the hash comes back from the Undo).
  void hand_unmake(const Undo& u, int from, int to, uint32_t kind) {
    promoted_ &= ~bit(to);
    if (u.mover_promoted) promoted_ |= bit(from);
    if (u.captured >= 0) {
      const int victim = kind == kEnPassant ? u.ep_victim : to;
      if (u.captured_promoted) promoted_ |= bit(victim);
      if (!p_->hand_to_partner)
        --reserve_[side_][u.captured_promoted ? p_->demote[u.captured >> 1] : u.captured >> 1];
    }
  }
  // The squares a drop of type t may go to, beyond the empty squares of the placement
  // region: not on its `forbidden` ranks, nor (`drop unique-on-file`) on a file holding an
  // own piece of its type.
  BB drop_squares(int us, int t, BB zone) const {
    zone &= ~t_->pieces[t].forbidden_zone[us];
    if (p_->types[t].drop_unique_file) {
      const int up = unit_dir(0, 1), down = unit_dir(0, -1);
      for (BB b = pieces(us, t); b; clear_lsb(b)) {
        const int s = lsb(b);
        zone &= ~(t_->ray[up][s] | t_->ray[down][s] | bit(s));
      }
    }
    if (opposite_colours_) [[unlikely]]
      zone = opposite_colour_squares(us, t, zone);
    if (const int limit = p_->types[t].drop_per_file; limit > 0) {
      const int up = unit_dir(0, 1);
      for (int x = 0; x < p_->width; ++x) {
        const BB file = t_->ray[up][x] | bit(x);
        if (popcount(pieces(us, t) & file) >= limit) zone &= ~file;
      }
    }
    return zone;
  }
  // `drop no-mate`: the drop m gives check and leaves the opponent without a legal action.
  bool drop_mates(Move m) {
    make(m);
    bool mate = false;
    if (royals_attacked(side_)) {
      const bool any = any_only_;
      any_only_ = true;
      mate = generate<true>(nullptr) == 0;
      any_only_ = any;
    }
    unmake();
    return mate;
  }
  // Where material changes hands: each type's pieces of both colours, on the board (a
  // promoted one counted as its base type) and in the reserves, are at most the start's;
  // unmarked promotions (`keep-promoted`) may add pieces of the types pawns promote to, no
  // more than the promoting pieces missing.
  void check_hand_material(std::string_view text) {
    // A `+X` in the start (kyoto shogi's) is the base letter X, counted as X.
    FenFields start = parse_fen(p_->start_text, p_->width, p_->height,
                                p_->letters + lower_letters() + (p_->plus_marks ? "+" : "~"));
    int init[kMaxTypes] = {}, have[kMaxTypes] = {};
    auto type_of_letter = [&](char ch) {
      return static_cast<int>(
          p_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch)))));
    };
    for (size_t i = 0; i < start.cells.size(); ++i)
      if (start.cells[i]) {
        const int t = type_of_letter(start.cells[i]);
        ++init[i < start.promoted.size() && start.promoted[i] ? p_->demote[t] : t];
      }
    for (char ch : start.reserve) ++init[type_of_letter(ch)];
    for (int s = 0; s < p_->squares; ++s)
      if (board_[s] >= 0) ++have[test(promoted_, s) ? p_->demote[board_[s] >> 1] : board_[s] >> 1];
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < p_->ntypes; ++t) have[t] += reserve_[c][t];
    int missing = 0, extra = 0;
    uint32_t targets = 0;
    for (int t = 0; t < p_->ntypes; ++t)
      for (char c : p_->types[t].promote_to) targets |= 1u << static_cast<int>(c);
    for (int t = 0; t < p_->ntypes; ++t) {
      if (!p_->types[t].promote_to.empty()) missing += std::max(0, init[t] - have[t]);
      if (have[t] <= init[t]) continue;
      if (marks_ || !(targets >> t & 1))
        throw PositionError(std::string("more ") + p_->letters[t] +
                                " (on the board, promoted ones counted as what they promoted from, and in "
                                "the reserves) than the start holds",
                            text.find('[') == std::string_view::npos ? 0 : text.find('['));
      extra += have[t] - init[t];
    }
    if (extra > missing)
      throw PositionError("more pieces than the start and its promotions can account for",
                          text.find('[') == std::string_view::npos ? 0 : text.find('['));
  }

  std::string lower_letters() const {
    std::string l;
    for (char c : p_->letters) l.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return l;
  }

  // ---- the shogi family (shogi2.hpp) ---------------------------------------------------
  // `must-drop`: the side's reserve holds a piece.
  bool hand_holds(int c) const {
    for (int t = 0; t < p_->ntypes; ++t)
      if (reserve_[c][t] > 0) return true;
    return false;
  }
  // `must-drop`: when a drop is legal, only drops are.
  template <bool Count>
  uint64_t generate_must_drop(std::vector<Move>* out) {
    forced_buf_.clear();
    generate_moves<false>(&forced_buf_);
    const bool any_drop =
        std::any_of(forced_buf_.begin(), forced_buf_.end(), [](Move m) { return kind_of(m) == kPlace; });
    if (any_drop)
      forced_buf_.erase(
          std::remove_if(forced_buf_.begin(), forced_buf_.end(), [](Move m) { return kind_of(m) != kPlace; }),
          forced_buf_.end());
    if constexpr (!Count) out->insert(out->end(), forced_buf_.begin(), forced_buf_.end());
    return forced_buf_.size();
  }
  // `drop opposite-colours`: narrows the drop squares of type t (the restricted type, or
  // another type while the side still holds restricted pieces) so that the side's pieces of
  // each restricted type can stand half on each square colour (Fairy-Stockfish's
  // dropOppositeColoredBishop: the placement region counts as the room left).
  BB opposite_colour_squares(int us, int t, BB zone) const {
    for (int b = 0; b < p_->ntypes; ++b) {
      if (!p_->types[b].drop_opposite_colours) continue;
      const int total = popcount(pieces(us, b)) + reserve_[us][b];
      if (b == t) {
        BB ok{};
        for (BB z = zone; z; clear_lsb(z)) {
          const int s = lsb(z);
          const BB same = test(dark_, s) ? dark_ : ~dark_;
          if (popcount(same & pieces(us, b)) + 1 <= (total + 1) / 2) ok |= bit(s);
        }
        zone = ok;
      } else if (reserve_[us][b] > 0) {
        const BB room = t_->place_zone[us] & ~occupied();
        BB ok{};
        for (BB z = zone; z; clear_lsb(z)) {
          const int s = lsb(z);
          const BB left = pieces(us, b) | (room & ~bit(s));
          if (popcount(dark_ & left) >= total / 2 && popcount(~dark_ & t_->board_mask & left) >= total / 2)
            ok |= bit(s);
        }
        zone = ok;
      }
    }
    return zone;
  }
  // `castling { by-drop }`: after a drop of `placed` on `to` by `us`, the castling rights a
  // king on the middle file of the castling rank gains with the rooks on its corners.
  void castle_rights_by_drop(int us, int placed, int to) {
    const int rank = us == 0 ? p_->castling_rank - 1 : p_->height - p_->castling_rank;
    const int home = rank * p_->width + p_->width / 2;
    const int corners[2] = {rank * p_->width + p_->width - 1, rank * p_->width};  // king side, queen side
    auto is_rook = [&](int s) {
      return board_[s] >= 0 && (board_[s] & 1) == us &&
             std::find(p_->castling_rooks.begin(), p_->castling_rooks.end(), p_->letters[board_[s] >> 1]) !=
                 p_->castling_rooks.end();
    };
    const bool king_home = board_[home] == p_->castling_king * 2 + us;
    if (!king_home) return;
    for (int side = 0; side < 2; ++side) {
      const int rsq = corners[side];
      if (!(to == home || to == rsq) || !is_rook(rsq)) continue;
      if (to == rsq && placed == p_->castling_king) continue;
      const int idx = us * 2 + side;
      castling_ |= static_cast<uint8_t>(1 << idx);
      rook_sq_[idx] = rsq;
      castle_from_[idx] = home;
      int kto, rto;
      castle_targets(side == 0 ? kCastleK : kCastleQ, us, kto, rto);
      castle_path_[idx] = t_->between(home, kto) | bit(kto);
      castle_need_[idx] = (castle_path_[idx] | t_->between(rsq, rto) | bit(rto)) & ~bit(home) & ~bit(rsq);
      castle_clear_[rsq] |= static_cast<uint8_t>(1 << idx);
      castle_clear_[home] |= static_cast<uint8_t>(1 << idx);
    }
  }

  // `region-reached ... safe` (dobutsu's lion): colour c's pieces of the flag types stand in
  // the region as `any` or `all` asks, and no enemy piece attacks one of them there.
  bool flag_safe_reached(int c, BB r) const {
    const BB in = r & t_->flag_zone[c];
    if (!in || (!p_->flag_any && (r & ~t_->flag_zone[c]))) return false;
    const BB occ = occupied();
    for (BB b = in; b; clear_lsb(b))
      if (attacked(lsb(b), c ^ 1, occ)) return false;
    return true;
  }
  // Fairy-Stockfish's order: the side to move has reached it safely (on an earlier turn,
  // and it was not captured since): it wins, or draws when the opponent has too; else the
  // opponent reached it safely: it wins.
  bool flag_safe_ended(bool& draw) const {
    if (invaded(side_)) {
      draw = invaded(side_ ^ 1);
      return true;
    }
    return invaded(side_ ^ 1);
  }

  uint64_t full_hash() const {
    const Zobrist<N>& z = zob<N>();
    uint64_t h = 0;
    for (int s = 0; s < p_->squares; ++s)
      if (board_[s] >= 0) h ^= z.psq[board_[s] & 1][board_[s] >> 1][s];
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < p_->ntypes; ++t) h ^= reserve_key(z, c, t, reserve_[c][t]);
    for (BB b = promoted_; b; clear_lsb(b)) h ^= z.promoted[lsb(b)];
    if (side_) h ^= z.side;
    h ^= z.castle[castling_];
    if (ep_ >= 0) h ^= z.ep[ep_];
    for (BB w = walls_; w; clear_lsb(w)) h ^= z.wall[lsb(w)];
    if (counting_checks_)
      for (int c = 0; c < 2; ++c) h ^= ends::check_key(c, checks_left_[c]);
    return h;
  }
};

}  // namespace

std::unique_ptr<Engine> make_grid_engine(std::shared_ptr<const Program> program);  // grid_generator.cpp

std::unique_ptr<Engine> make_compiled_engine(std::shared_ptr<const Program> program) {
  if (program->cards) return make_card_engine(std::move(program));
  if (program->grid) return make_grid_engine(std::move(program));
  if (const auto* t = program->tables64.get())
    return std::make_unique<Generator<uint64_t>>(std::move(program), t);
  if (const auto* t = program->tables128.get())
    return std::make_unique<Generator<Wide<2>>>(std::move(program), t);
  const auto* t = program->tables256.get();
  return std::make_unique<Generator<Wide<4>>>(std::move(program), t);
}

}  // namespace arb::lang
