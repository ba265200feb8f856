// Reference engine for standard chess with Chess960 castling, written from the FIDE Laws
// of Chess, RULINGS.md section 0 and engine/README.md alone. It shares no move logic with
// lang/: the differential checker trusts it because it is small and plain.
//
// Board: a 0x88 mailbox (square = rank index * 16 + file index, rank index 0 = rank 1), so
// that `sq & 0x88` tells a step off the board. Legality: pseudo-legal moves are played on
// the board and dropped when they leave the mover's king attacked; castling checks the
// squares the king crosses beforehand.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "reference.hpp"

namespace arb::ref {
namespace {

// ---------------------------------------------------------------------------------------
// Squares, pieces, moves.

constexpr int kWhite = 0;
constexpr int kBlack = 1;

using Square = int;
constexpr Square kNoSquare = -1;
constexpr bool on_board(int sq) {
  return (sq & 0x88) == 0;
}
constexpr Square make_square(int file, int rank_index) {
  return rank_index * 16 + file;
}
constexpr int file_of(Square s) {
  return s & 7;
}
constexpr int rank_of(Square s) {
  return s >> 4;
}  // 0 = rank 1
Coord to_coord(Square s) {
  return Coord{file_of(s), rank_of(s) + 1};
}
// The rank index of a colour's back rank.
constexpr int back_rank(int color) {
  return color == kWhite ? 0 : 7;
}
// The step of a pawn of `color` one square forward.
constexpr int forward(int color) {
  return color == kWhite ? 16 : -16;
}

enum PieceType : uint8_t { kNone = 0, kPawn, kKnight, kBishop, kRook, kQueen, kKing };
// A piece is its type plus 8 for Black; 0 is an empty square.
using Piece = uint8_t;
constexpr Piece kEmpty = 0;
constexpr Piece make_piece(int color, PieceType t) {
  return static_cast<Piece>(t | (color << 3));
}
constexpr PieceType type_of(Piece p) {
  return static_cast<PieceType>(p & 7);
}
constexpr int color_of(Piece p) {
  return p >> 3;
}

constexpr char kTypeLetters[] = " PNBRQK";
char upper_letter(PieceType t) {
  return kTypeLetters[t];
}
char fen_letter(Piece p) {
  char c = kTypeLetters[type_of(p)];
  return color_of(p) == kWhite ? c : static_cast<char>(c - 'A' + 'a');
}
Piece piece_of_letter(char ch) {
  int color = (ch >= 'a' && ch <= 'z') ? kBlack : kWhite;
  char up = color == kBlack ? static_cast<char>(ch - 'a' + 'A') : ch;
  for (int t = kPawn; t <= kKing; ++t)
    if (kTypeLetters[t] == up) return make_piece(color, static_cast<PieceType>(t));
  return kEmpty;
}

constexpr std::array<int, 8> kKnightSteps = {33, 31, 18, 14, -14, -18, -31, -33};
constexpr std::array<int, 8> kKingSteps = {1, 15, 16, 17, -1, -15, -16, -17};
constexpr std::array<int, 4> kRookSteps = {1, 16, -1, -16};
constexpr std::array<int, 4> kBishopSteps = {15, 17, -15, -17};

enum MoveKind : uint8_t { kQuiet, kDoublePush, kEnPassant, kCastle, kPromotion };

// A move. For castling `to` is the castling rook's square (king takes rook); the king's
// destination follows from the side. For promotion `promo` is the new piece type.
// Trivially constructible, so that a MoveList costs nothing to create.
struct Move {
  uint8_t from;
  uint8_t to;
  uint8_t kind;
  uint8_t promo;
};

// Marks actions of this engine in Action::hi, so that a foreign action is caught.
constexpr uint64_t kActionTag = 0x5245464348455353ULL;  // "REFCHESS"

Action encode(const Move& m) {
  Action a;
  a.lo = static_cast<uint64_t>(m.from) | static_cast<uint64_t>(m.to) << 8 |
         static_cast<uint64_t>(m.kind) << 16 | static_cast<uint64_t>(m.promo) << 24;
  a.hi = kActionTag;
  return a;
}

Move decode(const Action& a) {
  if (a.hi != kActionTag || (a.lo >> 32) != 0) throw std::invalid_argument("reference:chess: foreign action");
  Move m;
  m.from = static_cast<uint8_t>(a.lo & 0xff);
  m.to = static_cast<uint8_t>((a.lo >> 8) & 0xff);
  m.kind = static_cast<uint8_t>((a.lo >> 16) & 0xff);
  m.promo = static_cast<uint8_t>((a.lo >> 24) & 0xff);
  if (!on_board(m.from) || !on_board(m.to) || m.kind > kPromotion || m.promo > kKing)
    throw std::invalid_argument("reference:chess: malformed action");
  return m;
}

// Enough for any position: pseudo-legal moves never exceed about 330.
struct MoveList {
  std::array<Move, 512> moves;
  int size = 0;
  void push(uint8_t from, uint8_t to, uint8_t kind, uint8_t promo = kNone) {
    if (size == static_cast<int>(moves.size())) throw std::logic_error("reference:chess: move list overflow");
    moves[size++] = Move{from, to, kind, promo};
  }
};

// ---------------------------------------------------------------------------------------
// Zobrist keys: fixed pseudo-random numbers (splitmix64), the same in every run.

struct Zobrist {
  uint64_t piece[16][128] = {};
  uint64_t castle[2][8] = {};  // colour, castling rook's file
  uint64_t ep_file[8] = {};
  uint64_t black_to_move = 0;
  Zobrist() {
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    auto next = [&state]() {
      uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      return z ^ (z >> 31);
    };
    for (auto& row : piece)
      for (auto& k : row) k = next();
    for (auto& row : castle)
      for (auto& k : row) k = next();
    for (auto& k : ep_file) k = next();
    black_to_move = next();
  }
};
const Zobrist& zobrist() {
  static const Zobrist z;
  return z;
}

// ---------------------------------------------------------------------------------------
// The engine.

// Index of a castling side in ChessEngine::rook_file_.
constexpr int kKingSide = 0;   // rook on the h-side of the king; king ends on g, rook on f
constexpr int kQueenSide = 1;  // rook on the a-side; king ends on c, rook on d

class ChessEngine final : public Engine {
 public:
  ChessEngine() {
    board_.fill(kEmpty);
    for (auto& sides : rook_file_) sides.fill(-1);
  }

  std::string name() const override { return "reference:chess"; }
  // RULINGS 0: threefold repetition and the fifty-move rule (100 halfmoves) are claims.
  GameConfig config() const override {
    return GameConfig{"chess", {{"fifty-move", "100"}, {"repetition", "3"}}};
  }

  void set_position(std::string_view text) override {
    // `start`: the FIDE start (RULINGS 0).
    if (text == "start") text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    ChessEngine fresh;
    fresh.load(text);
    *this = std::move(fresh);
  }

  std::string position() const override {
    FenFields f = fields();
    return format_fen(f);
  }

  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    MoveList ml;
    generate_legal(ml);
    out.reserve(ml.size);
    for (int i = 0; i < ml.size; ++i) out.push_back(encode(ml.moves[i]));
  }

  void apply(const Action& a) override { make(decode(a)); }

  void undo() override {
    if (undo_stack_.empty()) throw std::logic_error("reference:chess: undo with no move applied");
    unmake();
  }

  Status status() override {
    Status st;
    st.in_check = in_check();
    MoveList ml;
    generate_legal(ml);
    if (ml.size == 0) {
      st.result = st.in_check ? (side_ == kWhite ? Result::BlackWins : Result::WhiteWins) : Result::Draw;
      st.end = st.in_check ? Termination::Checkmate : Termination::Stalemate;
      st.reason = st.in_check ? "checkmate" : "stalemate";
    } else if (insufficient_material()) {
      st.result = Result::Draw;
      st.end = Termination::InsufficientMaterial;
      st.reason = "insufficient-material";
    }
    st.claim_fifty = halfmove_ >= 100;
    st.claim_threefold = std::count(hash_history_.begin(), hash_history_.end(), hash_) >= 3;
    return st;
  }

  uint64_t hash() const override { return hash_; }
  Color side_to_move() const override { return side_ == kWhite ? Color::White : Color::Black; }

  ActionInfo describe(const Action& a) const override {
    Move m = decode(a);
    Piece mover = board_[m.from];
    if (mover == kEmpty || color_of(mover) != side_)
      throw std::invalid_argument("reference:chess: action does not move a piece of the side to move");
    Step s;
    s.kind = StepKind::Move;
    s.piece = upper_letter(type_of(mover));
    s.from = to_coord(m.from);
    s.to = to_coord(m.to);
    switch (m.kind) {
      case kCastle: {
        int side = file_of(m.to) > file_of(m.from) ? kKingSide : kQueenSide;
        s.castle = side == kKingSide ? Castle::KingSide : Castle::QueenSide;
        s.king_to = to_coord(castle_king_to(m.from, side));
        break;
      }
      case kEnPassant: {
        Square victim = make_square(file_of(m.to), rank_of(m.from));
        s.removed.push_back({to_coord(victim), fen_letter(board_[victim])});
        break;
      }
      case kPromotion:
        s.promotion = upper_letter(static_cast<PieceType>(m.promo));
        if (board_[m.to] != kEmpty) s.removed.push_back({s.to, fen_letter(board_[m.to])});
        break;
      default:
        if (board_[m.to] != kEmpty) s.removed.push_back({s.to, fen_letter(board_[m.to])});
        break;
    }
    ActionInfo info;
    info.steps.push_back(s);
    return info;
  }

  bool chess960() const override { return chess960_; }

  uint64_t perft(int depth) override {
    if (depth <= 0) return 1;
    return perft_rec(depth);
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<ChessEngine>(*this); }

 private:
  // What make() changed, to restore it exactly.
  struct Undo {
    Move move;
    Piece captured;
    std::array<std::array<int8_t, 2>, 2> rook_file;
    Square ep;
    int halfmove;
    int fullmove;
    uint64_t hash;
  };

  // ----- Setting up from FEN.

  [[noreturn]] static void reject(const std::string& msg) { throw PositionError(msg, 0); }

  void load(std::string_view text) {
    FenFields f = parse_fen(text, 8, 8, "KQRBNPkqrbnp");
    int kings[2] = {0, 0};
    for (int y = 1; y <= 8; ++y) {
      for (int x = 0; x < 8; ++x) {
        char ch = f.at(Coord{x, y});
        if (!ch) continue;
        Piece p = piece_of_letter(ch);
        Square sq = make_square(x, y - 1);
        board_[sq] = p;
        if (type_of(p) == kKing) {
          ++kings[color_of(p)];
          king_sq_[color_of(p)] = sq;
        }
        if (type_of(p) == kPawn && (y == 1 || y == 8))
          reject(std::string("pawn on ") + static_cast<char>('a' + x) + std::to_string(y) +
                 ": pawns may not stand on rank 1 or 8");
      }
    }
    if (kings[kWhite] != 1) reject("White must have exactly one king, has " + std::to_string(kings[kWhite]));
    if (kings[kBlack] != 1) reject("Black must have exactly one king, has " + std::to_string(kings[kBlack]));
    side_ = f.side == Color::White ? kWhite : kBlack;
    if (attacked(king_sq_[1 - side_], side_))
      reject(std::string(side_ == kWhite ? "Black" : "White") + " is in check but " +
             (side_ == kWhite ? "White" : "Black") + " is to move");

    // Castling rights. resolve_castling has checked that the king stands on its back rank
    // and the rook on the named file; a colour may castle at most once to each side.
    std::vector<CastlingRight> rights;
    try {
      rights = resolve_castling(f);
    } catch (const PositionError& e) {
      reject(std::string("castling field: ") + e.what());
    }
    for (const CastlingRight& r : rights) {
      int color = r.color == Color::White ? kWhite : kBlack;
      int king_file = file_of(king_sq_[color]);
      int side = r.rook_file > king_file ? kKingSide : kQueenSide;
      if (rook_file_[color][side] >= 0)
        reject(std::string("castling field: ") + (color == kWhite ? "White" : "Black") +
               " has two castling rights on the " + (side == kKingSide ? "king" : "queen") + " side");
      rook_file_[color][side] = static_cast<int8_t>(r.rook_file);
      if (king_file != 4 || (r.rook_file != 0 && r.rook_file != 7)) chess960_ = true;
    }

    // En passant: kept only when a capture onto the square is legal.
    if (f.ep) {
      Square ep = make_square(f.ep->x, f.ep->y - 1);
      if (ep_is_consistent(ep) && any_legal_ep_capture(ep)) ep_ = ep;
    }
    halfmove_ = f.halfmove;
    fullmove_ = f.fullmove;
    hash_ = compute_hash();
    hash_history_.assign(1, hash_);
  }

  // The en-passant square of the side to move fits a two-square advance just made by the
  // opponent: it is on the skipped rank and empty, the advanced pawn stands in front of it
  // and the square the pawn came from is empty.
  bool ep_is_consistent(Square ep) const {
    int them = 1 - side_;
    if (rank_of(ep) != (side_ == kWhite ? 5 : 2)) return false;
    Square pawn = ep + forward(them);
    Square origin = ep - forward(them);
    return board_[ep] == kEmpty && board_[origin] == kEmpty && board_[pawn] == make_piece(them, kPawn);
  }

  // Whether a pawn of the side to move can legally capture en passant onto `ep`.
  bool any_legal_ep_capture(Square ep) {
    for (int dx : {-1, 1}) {
      Square from = ep - forward(side_) + dx;
      if (!on_board(from) || board_[from] != make_piece(side_, kPawn)) continue;
      if (is_legal(Move{static_cast<uint8_t>(from), static_cast<uint8_t>(ep), kEnPassant, kNone}))
        return true;
    }
    return false;
  }

  // ----- Writing FEN.

  FenFields fields() const {
    FenFields f;
    f.width = 8;
    f.height = 8;
    f.cells.assign(64, 0);
    for (int r = 0; r < 8; ++r)
      for (int x = 0; x < 8; ++x) {
        Piece p = board_[make_square(x, r)];
        if (p != kEmpty) f.at(Coord{x, r + 1}) = fen_letter(p);
      }
    f.side = side_ == kWhite ? Color::White : Color::Black;
    std::vector<CastlingRight> rights;
    for (int color : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide})
        if (rook_file_[color][side] >= 0)
          rights.push_back(
              CastlingRight{color == kWhite ? Color::White : Color::Black, rook_file_[color][side]});
    f.castling = format_castling(f, rights);
    if (ep_ != kNoSquare) f.ep = to_coord(ep_);
    f.halfmove = halfmove_;
    f.fullmove = fullmove_;
    return f;
  }

  uint64_t compute_hash() const {
    const Zobrist& z = zobrist();
    uint64_t h = 0;
    for (Square sq = 0; sq < 128; ++sq)
      if (on_board(sq) && board_[sq] != kEmpty) h ^= z.piece[board_[sq]][sq];
    for (int color : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide})
        if (rook_file_[color][side] >= 0) h ^= z.castle[color][rook_file_[color][side]];
    if (ep_ != kNoSquare) h ^= z.ep_file[file_of(ep_)];
    if (side_ == kBlack) h ^= z.black_to_move;
    return h;
  }

  // ----- Attacks.

  // Whether `sq` is attacked by a piece of colour `by` on the current board.
  bool attacked(Square sq, int by) const {
    // Pawns: a White pawn attacks diagonally upward, so it stands diagonally below `sq`.
    Square pawn_base = sq - forward(by);
    for (int dx : {-1, 1}) {
      Square p = pawn_base + dx;
      if (on_board(p) && board_[p] == make_piece(by, kPawn)) return true;
    }
    for (int d : kKnightSteps) {
      Square s = sq + d;
      if (on_board(s) && board_[s] == make_piece(by, kKnight)) return true;
    }
    for (int d : kKingSteps) {
      Square s = sq + d;
      if (on_board(s) && board_[s] == make_piece(by, kKing)) return true;
    }
    for (int d : kRookSteps) {
      for (Square s = sq + d; on_board(s); s += d) {
        Piece p = board_[s];
        if (p == kEmpty) continue;
        if (color_of(p) == by && (type_of(p) == kRook || type_of(p) == kQueen)) return true;
        break;
      }
    }
    for (int d : kBishopSteps) {
      for (Square s = sq + d; on_board(s); s += d) {
        Piece p = board_[s];
        if (p == kEmpty) continue;
        if (color_of(p) == by && (type_of(p) == kBishop || type_of(p) == kQueen)) return true;
        break;
      }
    }
    return false;
  }

  bool in_check() const { return attacked(king_sq_[side_], 1 - side_); }

  // ----- Castling geometry.

  static Square castle_king_to(Square king, int side) {
    return make_square(side == kKingSide ? 6 : 2, rank_of(king));
  }
  static Square castle_rook_to(Square king, int side) {
    return make_square(side == kKingSide ? 5 : 3, rank_of(king));
  }

  // ----- Moving pieces on the board (no other state): shared by make() and the legality
  // test. Returns the captured piece (the pawn taken en passant included).

  Piece place(const Move& m) {
    Piece mover = board_[m.from];
    int us = color_of(mover);
    switch (m.kind) {
      case kCastle: {
        int side = file_of(m.to) > file_of(m.from) ? kKingSide : kQueenSide;
        Piece rook = board_[m.to];
        // Lift both first: in Chess960 the king may land where the rook stood, or back.
        board_[m.from] = kEmpty;
        board_[m.to] = kEmpty;
        Square king_to = castle_king_to(m.from, side);
        board_[king_to] = mover;
        board_[castle_rook_to(m.from, side)] = rook;
        king_sq_[us] = king_to;
        return kEmpty;
      }
      case kEnPassant: {
        Square victim = make_square(file_of(m.to), rank_of(m.from));
        Piece captured = board_[victim];
        board_[victim] = kEmpty;
        board_[m.to] = mover;
        board_[m.from] = kEmpty;
        return captured;
      }
      default: {
        Piece captured = board_[m.to];
        board_[m.to] = m.kind == kPromotion ? make_piece(us, static_cast<PieceType>(m.promo)) : mover;
        board_[m.from] = kEmpty;
        if (type_of(mover) == kKing) king_sq_[us] = m.to;
        return captured;
      }
    }
  }

  // Undoes place(m); `captured` is what it returned. `us` is the colour that moved.
  void unplace(const Move& m, Piece captured, int us) {
    switch (m.kind) {
      case kCastle: {
        int side = file_of(m.to) > file_of(m.from) ? kKingSide : kQueenSide;
        Square king_to = castle_king_to(m.from, side);
        Square rook_to = castle_rook_to(m.from, side);
        Piece king = board_[king_to];
        Piece rook = board_[rook_to];
        board_[king_to] = kEmpty;
        board_[rook_to] = kEmpty;
        board_[m.from] = king;
        board_[m.to] = rook;
        king_sq_[us] = m.from;
        return;
      }
      case kEnPassant: {
        Square victim = make_square(file_of(m.to), rank_of(m.from));
        board_[m.from] = board_[m.to];
        board_[m.to] = kEmpty;
        board_[victim] = captured;
        return;
      }
      default: {
        Piece moved = m.kind == kPromotion ? make_piece(us, kPawn) : board_[m.to];
        board_[m.from] = moved;
        board_[m.to] = captured;
        if (type_of(moved) == kKing) king_sq_[us] = m.from;
        return;
      }
    }
  }

  // Whether the pseudo-legal move `m` of the side to move leaves its king unattacked.
  bool is_legal(const Move& m) {
    int us = side_;
    Piece captured = place(m);
    bool safe = !attacked(king_sq_[us], 1 - us);
    unplace(m, captured, us);
    return safe;
  }

  // ----- Move generation.

  void add_pawn_move(MoveList& ml, Square from, Square to, int us) const {
    if (rank_of(to) == back_rank(1 - us)) {
      for (PieceType t : {kQueen, kRook, kBishop, kKnight})
        ml.push(static_cast<uint8_t>(from), static_cast<uint8_t>(to), kPromotion, t);
    } else {
      ml.push(static_cast<uint8_t>(from), static_cast<uint8_t>(to), kQuiet);
    }
  }

  void generate_pseudo(MoveList& ml) const {
    int us = side_;
    int them = 1 - us;
    for (Square from = 0; from < 128; ++from) {
      if (!on_board(from)) {
        from += 7;  // skip the off-board half of the 0x88 row
        continue;
      }
      Piece p = board_[from];
      if (p == kEmpty || color_of(p) != us) continue;
      switch (type_of(p)) {
        case kPawn: {
          Square one = from + forward(us);
          if (board_[one] == kEmpty) {
            add_pawn_move(ml, from, one, us);
            Square two = one + forward(us);
            if (rank_of(from) == (us == kWhite ? 1 : 6) && board_[two] == kEmpty)
              ml.push(static_cast<uint8_t>(from), static_cast<uint8_t>(two), kDoublePush);
          }
          for (int dx : {-1, 1}) {
            Square to = one + dx;
            if (!on_board(to)) continue;
            if (board_[to] != kEmpty && color_of(board_[to]) == them)
              add_pawn_move(ml, from, to, us);
            else if (to == ep_)
              ml.push(static_cast<uint8_t>(from), static_cast<uint8_t>(to), kEnPassant);
          }
          break;
        }
        case kKnight:
          add_steps(ml, from, kKnightSteps, us);
          break;
        case kKing:
          add_steps(ml, from, kKingSteps, us);
          break;
        case kBishop:
          add_rays(ml, from, kBishopSteps, us);
          break;
        case kRook:
          add_rays(ml, from, kRookSteps, us);
          break;
        case kQueen:
          add_rays(ml, from, kBishopSteps, us);
          add_rays(ml, from, kRookSteps, us);
          break;
        default:
          break;
      }
    }
  }

  template <size_t N>
  void add_steps(MoveList& ml, Square from, const std::array<int, N>& steps, int us) const {
    for (int d : steps) {
      Square to = from + d;
      if (!on_board(to)) continue;
      if (board_[to] == kEmpty || color_of(board_[to]) != us)
        ml.push(static_cast<uint8_t>(from), static_cast<uint8_t>(to), kQuiet);
    }
  }

  template <size_t N>
  void add_rays(MoveList& ml, Square from, const std::array<int, N>& steps, int us) const {
    for (int d : steps) {
      for (Square to = from + d; on_board(to); to += d) {
        if (board_[to] == kEmpty) {
          ml.push(static_cast<uint8_t>(from), static_cast<uint8_t>(to), kQuiet);
          continue;
        }
        if (color_of(board_[to]) != us) ml.push(static_cast<uint8_t>(from), static_cast<uint8_t>(to), kQuiet);
        break;
      }
    }
  }

  // Castling moves of the side to move that pass every rule: the right is held; every
  // square between the king and its destination and between the rook and its destination
  // (destinations included) is empty but for the king and that rook; the king does not
  // stand on, cross or land on an attacked square.
  void generate_castling(MoveList& ml) {
    int us = side_;
    Square king = king_sq_[us];
    for (int side : {kKingSide, kQueenSide}) {
      int rook_file = rook_file_[us][side];
      if (rook_file < 0) continue;
      Square rook = make_square(rook_file, back_rank(us));
      Square king_to = castle_king_to(king, side);
      Square rook_to = castle_rook_to(king, side);
      auto clear_between = [&](Square a, Square b) {
        for (Square s = std::min(a, b); s <= std::max(a, b); ++s)
          if (s != king && s != rook && board_[s] != kEmpty) return false;
        return true;
      };
      if (!clear_between(king, king_to) || !clear_between(rook, rook_to)) continue;
      // Attacks on the king's squares, judged with the king and the castling rook lifted.
      Piece king_piece = board_[king];
      Piece rook_piece = board_[rook];
      board_[king] = kEmpty;
      board_[rook] = kEmpty;
      bool safe = true;
      for (Square s = std::min(king, king_to); s <= std::max(king, king_to) && safe; ++s)
        if (attacked(s, 1 - us)) safe = false;
      board_[king] = king_piece;
      board_[rook] = rook_piece;
      if (safe) ml.push(static_cast<uint8_t>(king), static_cast<uint8_t>(rook), kCastle);
    }
  }

  void generate_legal(MoveList& ml) {
    ml.size = 0;
    generate_pseudo(ml);
    int kept = 0;
    for (int i = 0; i < ml.size; ++i)
      if (is_legal(ml.moves[i])) ml.moves[kept++] = ml.moves[i];
    ml.size = kept;
    // Castling is generated fully checked, and checked once more by is_legal.
    MoveList castles;
    generate_castling(castles);
    for (int i = 0; i < castles.size; ++i)
      if (is_legal(castles.moves[i])) ml.moves[ml.size++] = castles.moves[i];
  }

  // ----- Making and unmaking moves.

  void make(const Move& m) {
    int us = side_;
    int them = 1 - us;
    Piece mover = board_[m.from];
    Undo u{m, kEmpty, rook_file_, ep_, halfmove_, fullmove_, hash_};
    u.captured = place(m);
    undo_stack_.push_back(u);

    // Castling rights: lost when the king moves, and when anything leaves or lands on the
    // square of a castling rook (the rook moved or was captured).
    if (type_of(mover) == kKing) rook_file_[us] = {-1, -1};
    for (int color : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide}) {
        int f = rook_file_[color][side];
        if (f < 0) continue;
        Square rook = make_square(f, back_rank(color));
        if (m.from == rook || m.to == rook) rook_file_[color][side] = -1;
      }

    bool pawn_move = type_of(mover) == kPawn;
    halfmove_ = (pawn_move || u.captured != kEmpty) ? 0 : std::min(halfmove_, INT32_MAX - 1) + 1;
    if (us == kBlack && fullmove_ < INT32_MAX) ++fullmove_;
    side_ = them;
    ep_ = kNoSquare;
    if (m.kind == kDoublePush) {
      Square skipped = m.from + forward(us);
      if (any_legal_ep_capture(skipped)) ep_ = skipped;
    }
    hash_ = compute_hash();
    hash_history_.push_back(hash_);
  }

  void unmake() {
    Undo u = undo_stack_.back();
    undo_stack_.pop_back();
    hash_history_.pop_back();
    int us = 1 - side_;
    unplace(u.move, u.captured, us);
    side_ = us;
    rook_file_ = u.rook_file;
    ep_ = u.ep;
    halfmove_ = u.halfmove;
    fullmove_ = u.fullmove;
    hash_ = u.hash;
  }

  uint64_t perft_rec(int depth) {
    MoveList ml;
    generate_legal(ml);
    if (depth == 1) return static_cast<uint64_t>(ml.size);
    uint64_t nodes = 0;
    for (int i = 0; i < ml.size; ++i) {
      make(ml.moves[i]);
      nodes += perft_rec(depth - 1);
      unmake();
    }
    return nodes;
  }

  // ----- Draw by insufficient material (engine/README.md): no pawns, rooks or queens, and
  // either at most one knight or bishop in all, or one bishop each and no knight with both
  // bishops on squares of the same colour.

  bool insufficient_material() const {
    int knights = 0;
    int bishops[2] = {0, 0};
    int bishop_square_colour[2] = {0, 0};
    for (Square sq = 0; sq < 128; ++sq) {
      if (!on_board(sq) || board_[sq] == kEmpty) continue;
      Piece p = board_[sq];
      switch (type_of(p)) {
        case kPawn:
        case kRook:
        case kQueen:
          return false;
        case kKnight:
          ++knights;
          break;
        case kBishop:
          ++bishops[color_of(p)];
          bishop_square_colour[color_of(p)] = (file_of(sq) + rank_of(sq)) % 2;
          break;
        default:
          break;
      }
    }
    if (knights + bishops[kWhite] + bishops[kBlack] <= 1) return true;
    return knights == 0 && bishops[kWhite] == 1 && bishops[kBlack] == 1 &&
           bishop_square_colour[kWhite] == bishop_square_colour[kBlack];
  }

  // ----- State.

  std::array<Piece, 128> board_;
  std::array<Square, 2> king_sq_ = {kNoSquare, kNoSquare};
  int side_ = kWhite;
  // Castling rights: [colour][kKingSide / kQueenSide] = file of the castling rook, or -1.
  std::array<std::array<int8_t, 2>, 2> rook_file_;
  // The en-passant square, set only when an en-passant capture onto it is legal.
  Square ep_ = kNoSquare;
  int halfmove_ = 0;
  int fullmove_ = 1;
  bool chess960_ = false;
  uint64_t hash_ = 0;
  std::vector<Undo> undo_stack_;
  // Hashes of every position since set_position, the current one last.
  std::vector<uint64_t> hash_history_;
};

}  // namespace

std::unique_ptr<Engine> make_chess_engine() {
  return std::make_unique<ChessEngine>();
}

}  // namespace arb::ref
