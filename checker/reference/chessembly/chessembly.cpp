// Hand-written reference engine for Chessembly, written from ../shared/rules/chessembly.md
// and RULINGS.md (introduction, sections 0 and 1) alone. It shares no move logic with the
// compiled generator of lang/; only the engine interface and the text formats of engine/.
//
// Correctness and clarity come before speed: every action is checked for legality by
// building the board it leaves and asking whether the mover's king is attacked there, and
// undo restores a saved copy of the whole position.
//
// The rules as RULINGS.md section 1 reads them:
//  - 8x8 board, empty at the start; each side holds K Q R R B B N N and 8 P in reserve.
//  - A turn is one action: place one own reserve piece on an empty square of the own half
//    (White ranks 1-4, Black ranks 5-8; pawns on the first rank too), or move a piece by
//    chess rules. While a side's king is in its reserve, its only actions are king
//    placements.
//  - A pawn on its own first or second rank may advance one or two squares (both empty),
//    moved before or not; en passant follows every two-square advance, on the next action.
//  - No castling; promotion to Q, R, B or N on the last rank.
//  - An action is illegal when it leaves the mover's king attacked (placements included, so
//    a king may not be placed next to the enemy king nor onto an attacked square).
//  - Checkmate wins, stalemate draws, insufficient material only with both reserves empty;
//    a placement resets the fifty-move counter.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/fen.hpp"
#include "reference.hpp"

namespace arb::ref {

namespace {

// ---------------------------------------------------------------------------------------
// Pieces and squares

// Piece types in the order the reserve is written (K Q R B N P).
enum Type : int8_t { King = 0, Queen, Rook, Bishop, Knight, Pawn, kTypeCount, NoType = -1 };

constexpr char kLetter[kTypeCount] = {'K', 'Q', 'R', 'B', 'N', 'P'};
// Each side's 16 pieces.
constexpr int kInitial[kTypeCount] = {1, 1, 2, 2, 2, 8};

Type type_of_letter(char upper) {
  for (int t = 0; t < kTypeCount; ++t)
    if (kLetter[t] == upper) return static_cast<Type>(t);
  return NoType;
}

int color_index(Color c) {
  return c == Color::White ? 0 : 1;
}

struct Piece {
  Type type = NoType;
  Color color = Color::White;
  bool empty() const { return type == NoType; }
  bool is(Color c, Type t) const { return type == t && color == c; }
  char letter() const {
    char up = kLetter[type];
    return color == Color::White ? up : static_cast<char>(up - 'A' + 'a');
  }
  friend bool operator==(const Piece& a, const Piece& b) {
    return a.type == b.type && (a.type == NoType || a.color == b.color);
  }
};

// Square index: file x (a = 0) and rank y (1..8) as sq = (y - 1) * 8 + x.
constexpr int kSize = 8;
int square(int x, int y) {
  return (y - 1) * kSize + x;
}
int file_of(int sq) {
  return sq % kSize;
}
int rank_of(int sq) {
  return sq / kSize + 1;
}
bool on_board(int x, int y) {
  return x >= 0 && x < kSize && y >= 1 && y <= kSize;
}

// The direction a side's pawns advance in.
int forward(Color c) {
  return c == Color::White ? 1 : -1;
}
// Rank counted from the side's own edge: White's rank 1 and Black's rank 8 are both 1.
int relative_rank(Color c, int y) {
  return c == Color::White ? y : kSize + 1 - y;
}
// White's half is ranks 1-4, Black's half ranks 5-8.
bool in_own_half(Color c, int y) {
  return relative_rank(c, y) <= kSize / 2;
}
int last_rank(Color c) {
  return c == Color::White ? kSize : 1;
}

using Board = std::array<Piece, kSize * kSize>;

constexpr int kKnightSteps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int kKingSteps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// True when a piece of colour `by` could capture a piece standing on `sq` of board `b`.
bool attacked(const Board& b, int sq, Color by) {
  int x = file_of(sq), y = rank_of(sq);
  // A pawn attacks the two squares diagonally in front of it, so an attacking pawn stands
  // one rank behind `sq` as seen from its own side.
  int py = y - forward(by);
  for (int dx : {-1, 1})
    if (on_board(x + dx, py) && b[square(x + dx, py)].is(by, Pawn)) return true;
  for (const auto& s : kKnightSteps)
    if (on_board(x + s[0], y + s[1]) && b[square(x + s[0], y + s[1])].is(by, Knight)) return true;
  for (const auto& s : kKingSteps)
    if (on_board(x + s[0], y + s[1]) && b[square(x + s[0], y + s[1])].is(by, King)) return true;
  // Sliders: walk each line to the first piece.
  auto slides_to = [&](const int(&dirs)[4][2], Type slider) {
    for (const auto& d : dirs) {
      int cx = x + d[0], cy = y + d[1];
      while (on_board(cx, cy)) {
        const Piece& p = b[square(cx, cy)];
        if (!p.empty()) {
          if (p.color == by && (p.type == slider || p.type == Queen)) return true;
          break;
        }
        cx += d[0];
        cy += d[1];
      }
    }
    return false;
  };
  return slides_to(kRookDirs, Rook) || slides_to(kBishopDirs, Bishop);
}

// The square of colour c's king on the board, or -1 when it is not on the board.
int king_square(const Board& b, Color c) {
  for (int sq = 0; sq < kSize * kSize; ++sq)
    if (b[sq].is(c, King)) return sq;
  return -1;
}

// ---------------------------------------------------------------------------------------
// Position and actions

struct Pos {
  Board board{};
  std::array<std::array<int, kTypeCount>, 2> reserve{};  // [colour][type] pieces in hand
  Color side = Color::White;
  int ep = -1;  // the square skipped by the last action's two-square advance, else -1
  int halfmove = 0;
  int fullmove = 1;

  int& held(Color c, Type t) { return reserve[color_index(c)][t]; }
  int held(Color c, Type t) const { return reserve[color_index(c)][t]; }
  bool reserve_empty(Color c) const {
    for (int n : reserve[color_index(c)])
      if (n) return false;
    return true;
  }
};

struct Move {
  bool place = false;  // a placement from the reserve (else a move on the board)
  int from = -1;       // moves only
  int to = -1;
  Type piece = NoType;  // the placed or moving piece's type
  Type promotion = NoType;
  bool capture = false;
  bool en_passant = false;
  bool double_step = false;
};

// Actions are tagged so that an action of another engine is refused rather than misread.
constexpr uint64_t kActionTag = 0xC4E55E3B1ULL;

Action encode(const Move& m) {
  Action a;
  a.lo = static_cast<uint64_t>(m.place) | static_cast<uint64_t>(m.from + 1) << 8 |
         static_cast<uint64_t>(m.to) << 16 | static_cast<uint64_t>(m.piece + 1) << 24 |
         static_cast<uint64_t>(m.promotion + 1) << 32 | static_cast<uint64_t>(m.capture) << 40 |
         static_cast<uint64_t>(m.en_passant) << 41 | static_cast<uint64_t>(m.double_step) << 42;
  a.hi = kActionTag;
  return a;
}

Move decode(const Action& a) {
  if (a.hi != kActionTag) throw std::invalid_argument("reference:chessembly: not an action of this engine");
  Move m;
  m.place = a.lo & 1;
  m.from = static_cast<int>((a.lo >> 8) & 0xff) - 1;
  m.to = static_cast<int>((a.lo >> 16) & 0xff);
  m.piece = static_cast<Type>(static_cast<int>((a.lo >> 24) & 0xff) - 1);
  m.promotion = static_cast<Type>(static_cast<int>((a.lo >> 32) & 0xff) - 1);
  m.capture = (a.lo >> 40) & 1;
  m.en_passant = (a.lo >> 41) & 1;
  m.double_step = (a.lo >> 42) & 1;
  return m;
}

// The board after `m` (which must be an action of the side to move in `p`).
Board board_after(const Pos& p, const Move& m) {
  Board b = p.board;
  if (m.place) {
    b[m.to] = Piece{m.piece, p.side};
    return b;
  }
  Piece mover = b[m.from];
  b[m.from] = Piece{};
  if (m.en_passant) {
    // The captured pawn stands beside the capturing pawn: the landing square's file, the
    // capturing pawn's rank.
    b[square(file_of(m.to), rank_of(m.from))] = Piece{};
  }
  b[m.to] = m.promotion != NoType ? Piece{m.promotion, p.side} : mover;
  return b;
}

// Every action of the side to move that obeys the movement rules, before the check test.
void pseudo_actions(const Pos& p, std::vector<Move>& out) {
  const Color us = p.side;
  const Color them = opposite(us);
  const Board& b = p.board;

  auto add_placements = [&](Type t) {
    for (int sq = 0; sq < kSize * kSize; ++sq)
      if (b[sq].empty() && in_own_half(us, rank_of(sq))) {
        Move m;
        m.place = true;
        m.to = sq;
        m.piece = t;
        out.push_back(m);
      }
  };

  // The first action places the king: while it is in the reserve nothing else is allowed.
  if (p.held(us, King) > 0) {
    add_placements(King);
    return;
  }
  for (int t = Queen; t < kTypeCount; ++t)
    if (p.held(us, static_cast<Type>(t)) > 0) add_placements(static_cast<Type>(t));

  auto add_move = [&](int from, int to, Type piece) {
    Move m;
    m.from = from;
    m.to = to;
    m.piece = piece;
    m.capture = !b[to].empty();
    out.push_back(m);
  };
  auto add_pawn_move = [&](int from, int to, bool capture) {
    Move m;
    m.from = from;
    m.to = to;
    m.piece = Pawn;
    m.capture = capture;
    if (rank_of(to) == last_rank(us)) {
      for (Type t : {Queen, Rook, Bishop, Knight}) {
        m.promotion = t;
        out.push_back(m);
      }
    } else {
      out.push_back(m);
    }
  };

  for (int from = 0; from < kSize * kSize; ++from) {
    const Piece& pc = b[from];
    if (pc.empty() || pc.color != us) continue;
    const int x = file_of(from), y = rank_of(from);
    switch (pc.type) {
      case Pawn: {
        const int f = forward(us);
        if (!on_board(x, y + f)) break;  // cannot happen in a valid position
        // Advances: one square, or two from the own first or second rank.
        if (b[square(x, y + f)].empty()) {
          add_pawn_move(from, square(x, y + f), false);
          if (relative_rank(us, y) <= 2 && b[square(x, y + 2 * f)].empty()) {
            Move m;
            m.from = from;
            m.to = square(x, y + 2 * f);
            m.piece = Pawn;
            m.double_step = true;
            out.push_back(m);
          }
        }
        // Captures, en passant included.
        for (int dx : {-1, 1}) {
          if (!on_board(x + dx, y + f)) continue;
          int to = square(x + dx, y + f);
          if (!b[to].empty()) {
            if (b[to].color == them) add_pawn_move(from, to, true);
          } else if (to == p.ep && b[square(x + dx, y)].is(them, Pawn)) {
            Move m;
            m.from = from;
            m.to = to;
            m.piece = Pawn;
            m.capture = true;
            m.en_passant = true;
            out.push_back(m);
          }
        }
        break;
      }
      case Knight:
      case King: {
        const auto& steps = pc.type == Knight ? kKnightSteps : kKingSteps;
        for (const auto& s : steps) {
          if (!on_board(x + s[0], y + s[1])) continue;
          int to = square(x + s[0], y + s[1]);
          if (b[to].empty() || b[to].color == them) add_move(from, to, pc.type);
        }
        break;
      }
      case Queen:
      case Rook:
      case Bishop: {
        for (int i = 0; i < 8; ++i) {
          // Directions 0-3 are orthogonal, 4-7 diagonal.
          const int* d = i < 4 ? kRookDirs[i] : kBishopDirs[i - 4];
          if ((i < 4 && pc.type == Bishop) || (i >= 4 && pc.type == Rook)) continue;
          int cx = x + d[0], cy = y + d[1];
          while (on_board(cx, cy)) {
            int to = square(cx, cy);
            if (!b[to].empty()) {
              if (b[to].color == them) add_move(from, to, pc.type);
              break;
            }
            add_move(from, to, pc.type);
            cx += d[0];
            cy += d[1];
          }
        }
        break;
      }
      default:
        break;
    }
  }
}

// An action is legal when it leaves the mover's king (if on the board) unattacked.
bool leaves_king_safe(const Pos& p, const Move& m) {
  Board b = board_after(p, m);
  int k = king_square(b, p.side);
  return k < 0 || !attacked(b, k, opposite(p.side));
}

void legal_moves(const Pos& p, std::vector<Move>& out) {
  std::vector<Move> pseudo;
  pseudo_actions(p, pseudo);
  out.clear();
  for (const Move& m : pseudo)
    if (leaves_king_safe(p, m)) out.push_back(m);
}

bool in_check(const Pos& p) {
  int k = king_square(p.board, p.side);
  return k >= 0 && attacked(p.board, k, opposite(p.side));
}

// The en-passant square as the position text and the hash see it: the skipped square only
// when a legal en-passant capture onto it exists, else -1.
int effective_ep(const Pos& p) {
  if (p.ep < 0) return -1;
  std::vector<Move> pseudo;
  pseudo_actions(p, pseudo);
  for (const Move& m : pseudo)
    if (m.en_passant && leaves_king_safe(p, m)) return p.ep;
  return -1;
}

// Plays `m` (legal for the side to move) on `p`.
void play(Pos& p, const Move& m) {
  const Color us = p.side;
  const bool resets_clock = m.place || m.capture || (!m.place && p.board[m.from].type == Pawn);
  p.board = board_after(p, m);
  if (m.place) --p.held(us, m.piece);
  p.halfmove = resets_clock ? 0 : std::min(p.halfmove, INT32_MAX - 1) + 1;
  p.ep = m.double_step ? (m.from + m.to) / 2 : -1;
  if (us == Color::Black && p.fullmove < INT32_MAX) ++p.fullmove;
  p.side = opposite(us);
}

// Insufficient material (engine/README.md): no pawns, rooks or queens on the board, and at
// most one knight or bishop in all, or exactly one bishop each (no knights) on squares of
// the same colour. Chessembly applies it only when both reserves are empty.
bool insufficient_material(const Pos& p) {
  if (!p.reserve_empty(Color::White) || !p.reserve_empty(Color::Black)) return false;
  int minors = 0, knights = 0;
  std::vector<std::pair<Color, int>> bishops;  // colour of the bishop, colour of its square
  for (int sq = 0; sq < kSize * kSize; ++sq) {
    const Piece& pc = p.board[sq];
    if (pc.empty() || pc.type == King) continue;
    if (pc.type == Pawn || pc.type == Rook || pc.type == Queen) return false;
    ++minors;
    if (pc.type == Knight) ++knights;
    if (pc.type == Bishop) bishops.push_back({pc.color, (file_of(sq) + rank_of(sq)) % 2});
  }
  if (minors <= 1) return true;
  return minors == 2 && knights == 0 && bishops[0].first != bishops[1].first &&
         bishops[0].second == bishops[1].second;
}

// Same position for repetition: pieces, reserves, side to move and en-passant possibility.
bool same_position(const Pos& a, const Pos& b) {
  return a.side == b.side && a.board == b.board && a.reserve == b.reserve &&
         effective_ep(a) == effective_ep(b);
}

// ---------------------------------------------------------------------------------------
// Zobrist keys

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Zobrist {
  uint64_t piece[2][kTypeCount][kSize * kSize];
  uint64_t held[2][kTypeCount][kInitial[Pawn] + 1];  // by count in the reserve
  uint64_t black_to_move;
  uint64_t ep_file[kSize];
  Zobrist() {
    uint64_t s = 0x43686573736D626CULL;  // "Chessmbl"
    for (auto& c : piece)
      for (auto& t : c)
        for (auto& k : t) k = splitmix64(s);
    for (auto& c : held)
      for (auto& t : c)
        for (auto& k : t) k = splitmix64(s);
    black_to_move = splitmix64(s);
    for (auto& k : ep_file) k = splitmix64(s);
  }
};

const Zobrist& zobrist() {
  static const Zobrist z;
  return z;
}

uint64_t hash_of(const Pos& p) {
  const Zobrist& z = zobrist();
  uint64_t h = 0;
  for (int sq = 0; sq < kSize * kSize; ++sq) {
    const Piece& pc = p.board[sq];
    if (!pc.empty()) h ^= z.piece[color_index(pc.color)][pc.type][sq];
  }
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < kTypeCount; ++t) h ^= z.held[c][t][p.reserve[c][t]];
  if (p.side == Color::Black) h ^= z.black_to_move;
  int ep = effective_ep(p);
  if (ep >= 0) h ^= z.ep_file[file_of(ep)];
  return h;
}

// ---------------------------------------------------------------------------------------
// Position text

// The 0-based column where the n-th whitespace-separated field of `text` starts (the board
// and reserve are field 0), or the text's length when there are fewer fields.
size_t field_column(std::string_view text, int n) {
  size_t pos = 0;
  for (int i = 0;; ++i) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
    if (i == n || pos >= text.size()) return pos;
    while (pos < text.size() && text[pos] != ' ' && text[pos] != '\t') ++pos;
  }
}

// The column of the letter standing on `sq` in the board field of `text` (0 if not found).
size_t square_column(std::string_view text, int sq) {
  size_t pos = field_column(text, 0);
  int x = 0, y = kSize;
  while (pos < text.size() && text[pos] != ' ' && text[pos] != '[') {
    char ch = text[pos];
    if (ch == '/') {
      --y;
      x = 0;
      ++pos;
    } else if (ch >= '0' && ch <= '9') {
      int n = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') n = n * 10 + (text[pos++] - '0');
      x += n;
    } else {
      if (on_board(x, y) && square(x, y) == sq) return pos;
      ++x;
      ++pos;
    }
  }
  return 0;
}

std::string color_name(Color c) {
  return c == Color::White ? "White" : "Black";
}

std::string square_text(int sq) {
  return std::string(1, static_cast<char>('a' + file_of(sq))) + std::to_string(rank_of(sq));
}

Pos parse_position(std::string_view text) {
  FenFields f = parse_fen(text, kSize, kSize, "KQRBNPkqrbnp");
  const size_t board_col = field_column(text, 0);
  const size_t reserve_col =
      text.find('[') == std::string_view::npos ? field_column(text, 1) : text.find('[');
  if (!f.has_reserve)
    throw PositionError(
        "missing reserve: a Chessembly position writes both reserves in brackets after the board "
        "(`[]` when both are empty)",
        reserve_col);
  if (f.castling != "-")
    throw PositionError("Chessembly has no castling: the castling field must be '-'", field_column(text, 2));

  Pos p;
  for (int sq = 0; sq < kSize * kSize; ++sq) {
    char ch = f.cells[sq];
    if (!ch) continue;
    bool white = ch >= 'A' && ch <= 'Z';
    p.board[sq] = Piece{type_of_letter(white ? ch : static_cast<char>(ch - 'a' + 'A')),
                        white ? Color::White : Color::Black};
  }
  for (char ch : f.reserve) {
    bool white = ch >= 'A' && ch <= 'Z';
    Type t = type_of_letter(white ? ch : static_cast<char>(ch - 'a' + 'A'));
    ++p.held(white ? Color::White : Color::Black, t);
  }
  p.side = f.side;
  p.halfmove = f.halfmove;
  p.fullmove = f.fullmove;

  for (Color c : {Color::White, Color::Black}) {
    // Exactly one king, on the board or in the reserve.
    int kings = p.held(c, King);
    for (const Piece& pc : p.board)
      if (pc.is(c, King)) ++kings;
    if (kings != 1)
      throw PositionError(color_name(c) +
                              " must have exactly one king (on the board or in the reserve), found " +
                              std::to_string(kings),
                          board_col);
    // The reserve holds only pieces of the initial set (promoted pieces never go there).
    for (int t = 0; t < kTypeCount; ++t)
      if (p.held(c, static_cast<Type>(t)) > kInitial[t])
        throw PositionError(color_name(c) + "'s reserve holds " +
                                std::to_string(p.held(c, static_cast<Type>(t))) + " of '" + kLetter[t] +
                                "', more than the " + std::to_string(kInitial[t]) + " a side starts with",
                            reserve_col);
    // Material: at most 16 pieces, at most 8 pawns, and every piece beyond the initial
    // count of its type is a promoted pawn.
    std::array<int, kTypeCount> total{};
    for (int t = 0; t < kTypeCount; ++t) total[t] = p.held(c, static_cast<Type>(t));
    for (const Piece& pc : p.board)
      if (!pc.empty() && pc.color == c) ++total[pc.type];
    int promoted = 0;
    for (int t = Queen; t < Pawn; ++t) promoted += std::max(0, total[t] - kInitial[t]);
    if (total[Pawn] + promoted > kInitial[Pawn])
      throw PositionError(color_name(c) + " has " + std::to_string(total[Pawn]) + " pawns and " +
                              std::to_string(promoted) +
                              " pieces beyond the initial set, more than its 8 pawns can account for",
                          board_col);
  }
  // Pawns never stand on their own last rank (they promote there).
  for (int sq = 0; sq < kSize * kSize; ++sq) {
    const Piece& pc = p.board[sq];
    if (pc.type == Pawn && rank_of(sq) == last_rank(pc.color))
      throw PositionError(color_name(pc.color) + " pawn on " + square_text(sq) + ", its last rank",
                          square_column(text, sq));
  }
  // Kings never stand adjacent, and the side not to move is not in check.
  int wk = king_square(p.board, Color::White), bk = king_square(p.board, Color::Black);
  if (wk >= 0 && bk >= 0 && std::abs(file_of(wk) - file_of(bk)) <= 1 &&
      std::abs(rank_of(wk) - rank_of(bk)) <= 1)
    throw PositionError("the kings stand adjacent on " + square_text(wk) + " and " + square_text(bk),
                        board_col);
  const Color waiting = opposite(p.side);
  int wait_king = king_square(p.board, waiting);
  if (wait_king >= 0 && attacked(p.board, wait_king, p.side))
    throw PositionError(
        color_name(waiting) + " is not to move but its king on " + square_text(wait_king) + " is in check",
        field_column(text, 1));
  // En passant: the square a pawn of the side not to move just skipped with a two-square
  // advance from its own first or second rank.
  if (f.ep) {
    const size_t col = field_column(text, 3);
    const int x = f.ep->x, y = f.ep->y;
    const int back = forward(waiting);  // the way the skipping pawn went
    bool ok = relative_rank(waiting, y) == 2 || relative_rank(waiting, y) == 3;
    ok = ok && p.board[square(x, y)].empty() && on_board(x, y + back) &&
         p.board[square(x, y + back)].is(waiting, Pawn) && on_board(x, y - back) &&
         p.board[square(x, y - back)].empty();
    if (!ok)
      throw PositionError("en-passant square " + square_text(square(x, y)) + " was not skipped by a " +
                              color_name(waiting) + " pawn's two-square advance",
                          col);
    p.ep = square(x, y);
  }
  return p;
}

std::string format_position(const Pos& p) {
  FenFields f;
  f.width = kSize;
  f.height = kSize;
  f.cells.assign(kSize * kSize, 0);
  for (int sq = 0; sq < kSize * kSize; ++sq)
    if (!p.board[sq].empty()) f.cells[sq] = p.board[sq].letter();
  f.has_reserve = true;
  for (Color c : {Color::White, Color::Black})
    for (int t = 0; t < kTypeCount; ++t)
      f.reserve.append(static_cast<size_t>(p.held(c, static_cast<Type>(t))),
                       Piece{static_cast<Type>(t), c}.letter());
  f.side = p.side;
  f.castling = "-";
  int ep = effective_ep(p);
  if (ep >= 0) f.ep = Coord{file_of(ep), rank_of(ep)};
  f.halfmove = p.halfmove;
  f.fullmove = p.fullmove;
  return format_fen(f);
}

// ---------------------------------------------------------------------------------------
// The engine

constexpr std::string_view kStart = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1";

class ChessemblyEngine final : public Engine {
 public:
  ChessemblyEngine() { set_position(kStart); }

  std::string name() const override { return "reference:chessembly"; }
  GameConfig config() const override {
    return GameConfig{"chessembly", {{"fifty-move", "100"}, {"repetition", "3"}}};
  }

  void set_position(std::string_view text) override {
    // `start`: the empty board, each side's 16 pieces in reserve (RULINGS 1.1).
    if (text == "start") text = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1";
    pos_ = parse_position(text);
    history_.clear();
  }

  std::string position() const override { return format_position(pos_); }

  void legal_actions(std::vector<Action>& out) override {
    std::vector<Move> moves;
    legal_moves(pos_, moves);
    out.clear();
    for (const Move& m : moves) out.push_back(encode(m));
  }

  void apply(const Action& a) override {
    Move m = decode(a);
    check_plausible(m);
    history_.push_back(pos_);
    play(pos_, m);
  }

  void undo() override {
    if (history_.empty()) throw std::logic_error("reference:chessembly: undo with no action applied");
    pos_ = history_.back();
    history_.pop_back();
  }

  Status status() override {
    Status st;
    st.in_check = in_check(pos_);
    std::vector<Move> moves;
    legal_moves(pos_, moves);
    if (moves.empty()) {
      if (st.in_check) {
        st.result = pos_.side == Color::White ? Result::BlackWins : Result::WhiteWins;
        st.end = Termination::Checkmate;
        st.reason = "checkmate";
      } else {
        st.result = Result::Draw;
        st.end = Termination::Stalemate;
        st.reason = "stalemate";
      }
    } else if (insufficient_material(pos_)) {
      st.result = Result::Draw;
      st.end = Termination::InsufficientMaterial;
      st.reason = "insufficient-material";
    }
    st.claim_fifty = pos_.halfmove >= 100;
    int occurrences = 1;
    for (const Pos& earlier : history_)
      if (same_position(earlier, pos_)) ++occurrences;
    st.claim_threefold = occurrences >= 3;
    return st;
  }

  uint64_t hash() const override { return hash_of(pos_); }
  Color side_to_move() const override { return pos_.side; }

  ActionInfo describe(const Action& a) const override {
    Move m = decode(a);
    Step s;
    s.kind = m.place ? StepKind::Place : StepKind::Move;
    s.piece = kLetter[m.piece];
    if (!m.place) s.from = Coord{file_of(m.from), rank_of(m.from)};
    s.to = Coord{file_of(m.to), rank_of(m.to)};
    if (m.promotion != NoType) s.promotion = kLetter[m.promotion];
    if (m.capture) {
      int victim = m.en_passant ? square(file_of(m.to), rank_of(m.from)) : m.to;
      s.removed.push_back({Coord{file_of(victim), rank_of(victim)}, pos_.board[victim].letter()});
    }
    return ActionInfo{{s}};
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<ChessemblyEngine>(*this); }

 private:
  // A cheap guard against actions that do not belong to this position; legality proper is
  // the caller's promise (the action came from legal_actions here).
  void check_plausible(const Move& m) const {
    bool ok = m.to >= 0 && m.to < kSize * kSize && m.piece != NoType;
    if (ok && m.place)
      ok = pos_.held(pos_.side, m.piece) > 0 && pos_.board[m.to].empty() &&
           in_own_half(pos_.side, rank_of(m.to));
    else if (ok)
      ok = m.from >= 0 && m.from < kSize * kSize && pos_.board[m.from].is(pos_.side, m.piece) &&
           (pos_.board[m.to].empty() || pos_.board[m.to].color != pos_.side);
    if (!ok) throw std::invalid_argument("reference:chessembly: action does not fit the current position");
  }

  Pos pos_;
  std::vector<Pos> history_;  // the positions before each applied action, oldest first
};

}  // namespace

std::unique_ptr<Engine> make_chessembly_engine() {
  return std::make_unique<ChessemblyEngine>();
}

}  // namespace arb::ref
