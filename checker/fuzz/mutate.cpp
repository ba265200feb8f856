#include "fuzz/mutate.hpp"

#include <algorithm>
#include <cctype>
#include <climits>

#include "arbiter/chessme_text.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"

namespace arb::fuzz {

namespace {

char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}
char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}
bool is_upper(char c) {
  return std::isupper(static_cast<unsigned char>(c)) != 0;
}

// ---- FEN ------------------------------------------------------------------------------

// A FEN-like text split into a grid of cells ('.' empty), the bracketed reserve and the
// remaining fields, as written.
struct Fen {
  std::vector<std::string> ranks;  // top rank first
  bool has_reserve = false;
  std::string reserve;              // letters only
  std::vector<std::string> fields;  // side, castling, en passant, halfmove, fullmove (as present)
};

std::optional<Fen> split_fen(const std::string& text) {
  size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return std::nullopt;
  size_t end = text.find_first_of(" \t[", start);
  if (end == std::string::npos) end = text.size();
  std::string board = text.substr(start, end - start);
  if (board.find('/') == std::string::npos || board.find_first_of(",()") != std::string::npos)
    return std::nullopt;
  Fen f;
  f.ranks.emplace_back();
  for (size_t i = 0; i < board.size(); ++i) {
    char c = board[i];
    if (c == '/') {
      f.ranks.emplace_back();
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t n = 0;
      while (i < board.size() && std::isdigit(static_cast<unsigned char>(board[i]))) {
        n = n * 10 + static_cast<size_t>(board[i] - '0');
        if (n > 64) return std::nullopt;
        ++i;
      }
      --i;
      f.ranks.back().append(n, '.');
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      f.ranks.back().push_back(c);
    } else {
      return std::nullopt;  // promoted-piece markers and the like: not ours to edit
    }
  }
  for (const auto& r : f.ranks)
    if (r.size() != f.ranks[0].size() || r.empty()) return std::nullopt;
  size_t pos = end;
  if (pos < text.size() && text[pos] == '[') {
    size_t close = text.find(']', pos);
    if (close == std::string::npos) return std::nullopt;
    f.has_reserve = true;
    for (size_t i = pos + 1; i < close; ++i)
      if (std::isalpha(static_cast<unsigned char>(text[i]))) f.reserve.push_back(text[i]);
    pos = close + 1;
  }
  while (pos < text.size()) {
    size_t b = text.find_first_not_of(" \t", pos);
    if (b == std::string::npos) break;
    size_t e = text.find_first_of(" \t", b);
    if (e == std::string::npos) e = text.size();
    f.fields.push_back(text.substr(b, e - b));
    pos = e;
  }
  if (f.fields.empty()) return std::nullopt;
  return f;
}

std::string join_fen(const Fen& f) {
  std::string out;
  for (size_t r = 0; r < f.ranks.size(); ++r) {
    if (r) out += '/';
    int run = 0;
    for (char c : f.ranks[r]) {
      if (c == '.') {
        ++run;
        continue;
      }
      if (run) out += std::to_string(run);
      run = 0;
      out += c;
    }
    if (run) out += std::to_string(run);
  }
  if (f.has_reserve) out += "[" + f.reserve + "]";
  for (const auto& field : f.fields) out += " " + field;
  return out;
}

struct Cell {
  size_t r, x;
};

std::vector<Cell> cells_where(const Fen& f, bool occupied) {
  std::vector<Cell> out;
  for (size_t r = 0; r < f.ranks.size(); ++r)
    for (size_t x = 0; x < f.ranks[r].size(); ++x)
      if ((f.ranks[r][x] != '.') == occupied) out.push_back({r, x});
  return out;
}

// Inserts a reserve letter beside its kind, keeping White's letters before Black's.
void reserve_add(std::string& reserve, char piece) {
  size_t same = reserve.rfind(piece);
  if (same != std::string::npos) {
    reserve.insert(same + 1, 1, piece);
    return;
  }
  if (is_upper(piece)) {
    size_t first_black = 0;
    while (first_black < reserve.size() && is_upper(reserve[first_black])) ++first_black;
    reserve.insert(first_black, 1, piece);
  } else {
    reserve.push_back(piece);
  }
}

char random_piece(const std::string& alphabet, const Choose& choose) {
  char p = alphabet[choose(alphabet.size())];
  return choose(2) ? lower(p) : upper(p);
}

// ---- Situations the rules speak of (FEN) -------------------------------------------------
// Random games seldom reach them: a bare-king or one-minor ending, castling rights (in a
// variant without castling too: an engine must refuse them or ignore them alike), an
// en-passant field, a pawn one step from promotion, a clock near the fifty-move limit.
// The letters are the standard ones (kRoyal, kPawn, kRook, kMinors); a variant naming its
// pieces otherwise gets the generic mutations only.
constexpr char kRoyal = 'K', kPawn = 'P', kRook = 'R';
constexpr const char* kMinors = "BN";

bool has_letter(const std::string& alphabet, char c) {
  return alphabet.find(upper(c)) != std::string::npos;
}

// The cell of the first piece `piece` (exact case), if any.
std::optional<Cell> find_piece(const Fen& f, char piece) {
  for (size_t r = 0; r < f.ranks.size(); ++r)
    for (size_t x = 0; x < f.ranks[r].size(); ++x)
      if (f.ranks[r][x] == piece) return Cell{r, x};
  return std::nullopt;
}

// Takes `piece` out of the reserve when it holds one (so that totals stay possible).
void reserve_take(Fen& f, char piece) {
  if (size_t i = f.reserve.find(piece); i != std::string::npos) f.reserve.erase(i, 1);
}

std::optional<std::string> ending_fen(Fen f, const std::string& alphabet, const Choose& choose,
                                      std::string& desc) {
  // Both royals stay (or are placed from the reserve); everything else goes.
  std::optional<Cell> kings[2] = {find_piece(f, kRoyal), find_piece(f, lower(kRoyal))};
  for (auto& rank : f.ranks) std::fill(rank.begin(), rank.end(), '.');
  for (int c = 0; c < 2; ++c) {
    char k = c == 0 ? kRoyal : lower(kRoyal);
    if (!kings[c]) {
      std::vector<Cell> empty = cells_where(f, false);
      if (empty.empty()) return std::nullopt;
      kings[c] = empty[choose(empty.size())];
      reserve_take(f, k);
    }
    f.ranks[kings[c]->r][kings[c]->x] = k;
  }
  desc = "ending K v K";
  // Then 0, 1 or 2 more: mostly minor pieces (the insufficient-material cases), else any.
  uint64_t extra = choose(3);
  std::string minors;
  for (const char* m = kMinors; *m; ++m)
    if (has_letter(alphabet, *m)) minors.push_back(*m);
  for (uint64_t i = 0; i < extra; ++i) {
    std::vector<Cell> empty = cells_where(f, false);
    if (empty.empty()) break;
    char p =
        !minors.empty() && choose(4) != 0 ? minors[choose(minors.size())] : alphabet[choose(alphabet.size())];
    if (upper(p) == kRoyal) continue;
    p = choose(2) ? lower(p) : upper(p);
    Cell at = empty[choose(empty.size())];
    f.ranks[at.r][at.x] = p;
    desc += std::string(" +") + p;
  }
  if (f.has_reserve && choose(2)) {
    f.reserve.clear();
    desc += ", reserves emptied";
  }
  if (f.fields.size() >= 2) f.fields[1] = "-";
  if (f.fields.size() >= 3) f.fields[2] = "-";
  return join_fen(f);
}

std::optional<std::string> castling_fen(Fen f, const std::string& alphabet, const Choose& choose,
                                        std::string& desc) {
  if (f.fields.size() < 2) return std::nullopt;
  size_t h = f.ranks.size(), w = f.ranks[0].size();
  std::string rights;
  if (choose(3) != 0) {
    // Royals home on the middle file, rooks in the corners, each side's back rank
    // between them emptied (or not), and the rights for what stands there.
    for (int c = 0; c < 2; ++c) {
      size_t r = c == 0 ? h - 1 : 0;
      char k = c == 0 ? kRoyal : lower(kRoyal), rook = c == 0 ? kRook : lower(kRook);
      if (auto old = find_piece(f, k)) f.ranks[old->r][old->x] = '.';
      reserve_take(f, k);
      if (choose(2)) {
        for (size_t x = 0; x < w; ++x) f.ranks[r][x] = '.';
      }
      f.ranks[r][w / 2] = k;
      if (has_letter(alphabet, kRook)) {
        f.ranks[r][0] = rook;
        f.ranks[r][w - 1] = rook;
      }
    }
    desc = "castling position";
  } else {
    desc = "castling rights";
  }
  for (char c : std::string("KQkq"))
    if (choose(4) != 0) rights.push_back(c);
  f.fields[1] = rights.empty() ? "-" : rights;
  desc += " " + f.fields[1];
  return join_fen(f);
}

std::optional<std::string> en_passant_fen(Fen f, const Choose& choose, std::string& desc) {
  if (f.fields.size() < 3 || (f.fields[0] != "w" && f.fields[0] != "b")) return std::nullopt;
  size_t h = f.ranks.size(), w = f.ranks[0].size();
  if (h < 5) return std::nullopt;
  // The side that just moved double-stepped a pawn: it stands on its fourth rank with the
  // two squares behind it empty; sometimes an enemy pawn beside it can take it.
  bool white_moved = f.fields[0] == "b";
  size_t row4 = white_moved ? h - 4 : 3, row3 = white_moved ? h - 3 : 2, row2 = white_moved ? h - 2 : 1;
  char pawn = white_moved ? kPawn : lower(kPawn), enemy = white_moved ? lower(kPawn) : kPawn;
  size_t x = choose(w);
  size_t side = x == 0 ? 1 : x + 1 >= w ? x - 1 : (choose(2) ? x - 1 : x + 1);
  for (size_t r : {row4, row3, row2})
    if (upper(f.ranks[r][x]) == kRoyal) return std::nullopt;
  if (upper(f.ranks[row4][side]) == kRoyal) return std::nullopt;
  f.ranks[row4][x] = pawn;
  f.ranks[row3][x] = '.';
  f.ranks[row2][x] = '.';
  if (choose(3) != 0) f.ranks[row4][side] = enemy;
  f.fields[2] = std::string(1, static_cast<char>('a' + x)) + std::to_string(h - row3);
  desc = "en-passant " + f.fields[2];
  return join_fen(f);
}

std::optional<std::string> promotion_fen(Fen f, const Choose& choose, std::string& desc) {
  size_t h = f.ranks.size(), w = f.ranks[0].size();
  if (h < 3) return std::nullopt;
  int color = static_cast<int>(choose(2));
  size_t row = color == 0 ? 1 : h - 2, front = color == 0 ? 0 : h - 1;
  char pawn = color == 0 ? kPawn : lower(kPawn);
  size_t x = choose(w);
  if (upper(f.ranks[front][x]) == kRoyal || upper(f.ranks[row][x]) == kRoyal) return std::nullopt;
  f.ranks[row][x] = pawn;
  if (choose(2)) f.ranks[front][x] = '.';
  if (f.fields.size() >= 1 && choose(3) != 0) f.fields[0] = color == 0 ? "w" : "b";
  if (f.fields.size() >= 3) f.fields[2] = "-";
  desc = std::string("promotion ") + pawn + "@" + static_cast<char>('a' + x) + std::to_string(h - row);
  return join_fen(f);
}

std::optional<std::string> targeted_fen(Fen f, const std::string& alphabet, const Choose& choose,
                                        std::string* what) {
  std::string desc;
  std::optional<std::string> out;
  switch (choose(5)) {
    case 0:
      out = ending_fen(f, alphabet, choose, desc);
      break;
    case 1:
      out = castling_fen(f, alphabet, choose, desc);
      break;
    case 2:
      out = en_passant_fen(f, choose, desc);
      break;
    case 3:
      out = promotion_fen(f, choose, desc);
      break;
    default:
      if (f.fields.size() < 4) return std::nullopt;
      f.fields[3] = std::to_string(94 + choose(12));
      desc = "halfmove " + f.fields[3];
      out = join_fen(f);
      break;
  }
  if (out && what) *what = desc;
  return out;
}

std::optional<std::string> mutate_fen(Fen f, const std::string& alphabet, const Choose& choose,
                                      std::string* what) {
  std::vector<Cell> full = cells_where(f, true), empty = cells_where(f, false);
  auto name = [&](Cell c) {
    return std::string(1, static_cast<char>('a' + c.x)) + std::to_string(f.ranks.size() - c.r);
  };
  std::string desc;
  // Kinds: 0-1 move, 2 add, 3 remove, 4 reserve add, 5 reserve remove, 6 side, 7 clock.
  switch (choose(8)) {
    case 0:
    case 1: {
      if (full.empty() || empty.empty()) return std::nullopt;
      Cell from = full[choose(full.size())], to = empty[choose(empty.size())];
      desc = "move " + name(from) + name(to);
      std::swap(f.ranks[from.r][from.x], f.ranks[to.r][to.x]);
      break;
    }
    case 2: {
      if (empty.empty() || alphabet.empty()) return std::nullopt;
      Cell to = empty[choose(empty.size())];
      char p = random_piece(alphabet, choose);
      f.ranks[to.r][to.x] = p;
      desc = std::string("add ") + p + "@" + name(to);
      break;
    }
    case 3: {
      if (full.empty()) return std::nullopt;
      Cell at = full[choose(full.size())];
      desc = std::string("remove ") + f.ranks[at.r][at.x] + name(at);
      f.ranks[at.r][at.x] = '.';
      break;
    }
    case 4: {
      if (!f.has_reserve || alphabet.empty()) return std::nullopt;
      char p = random_piece(alphabet, choose);
      reserve_add(f.reserve, p);
      desc = std::string("reserve +") + p;
      break;
    }
    case 5: {
      if (!f.has_reserve || f.reserve.empty()) return std::nullopt;
      size_t i = choose(f.reserve.size());
      desc = std::string("reserve -") + f.reserve[i];
      f.reserve.erase(i, 1);
      break;
    }
    case 6: {
      std::string& side = f.fields[0];
      if (side != "w" && side != "b") return std::nullopt;
      side = side == "w" ? "b" : "w";
      // The en-passant square belongs to the other side's move: drop it.
      if (f.fields.size() >= 3) f.fields[2] = "-";
      desc = "side " + side;
      break;
    }
    default: {
      if (f.fields.size() < 4) return std::nullopt;
      f.fields[3] = std::to_string(94 + choose(12));
      desc = "halfmove " + f.fields[3];
      break;
    }
  }
  if (what) *what = desc;
  return join_fen(f);
}

// ---- No Stress Chess's card zones -------------------------------------------------------

std::optional<NoStressPosition> parse_ns(const std::string& text) {
  if (text.find("level:") == std::string::npos) return std::nullopt;
  try {
    return parse_nostress(text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// A change of the cards toward what random games seldom reach (RULINGS 3.3-3.8): the
// pile's order hidden, the pile emptied onto the discard piles (a reshuffle at the next
// draw, with or without a seed), three alike in the hand of the side to move (the redraw),
// the opponent's hand hidden, two pile cards swapped. The deck stays whole.
std::optional<std::string> mutate_cards(NoStressPosition p, const Choose& choose, std::string* what) {
  const int us = p.board.side == Color::White ? 0 : 1;
  std::string desc;
  switch (choose(5)) {
    case 0:
      if (p.pile.known.empty()) return std::nullopt;
      p.pile.unknown += static_cast<int>(p.pile.known.size());
      p.pile.known.clear();
      if (choose(2)) p.reshuffle_seed.reset();
      desc = "cards: pile hidden";
      break;
    case 1: {
      if (p.pile.unknown > 0 || p.pile.known.empty() || p.pending) return std::nullopt;
      for (size_t i = 0; i < p.pile.known.size(); ++i) p.discard[choose(2)].push_back(p.pile.known[i]);
      p.pile.known.clear();
      if (choose(2))
        p.reshuffle_seed = choose(1000);
      else
        p.reshuffle_seed.reset();
      desc = "cards: pile emptied onto the discard piles";
      break;
    }
    case 2: {
      // Exchange pile cards with the hand so that its first card has two more alike.
      std::string& hand = p.hand[us].known;
      if (hand.size() < 3) return std::nullopt;
      const char want = hand[0];
      int placed = 1;
      for (size_t i = 1; i < hand.size() && placed < 3; ++i) {
        if (hand[i] == want) {
          ++placed;
          continue;
        }
        size_t at = p.pile.known.find(want);
        if (at == std::string::npos) return std::nullopt;
        std::swap(hand[i], p.pile.known[at]);
        ++placed;
      }
      desc = std::string("cards: three ") + want + " in hand";
      break;
    }
    case 3: {
      NoStressCards& h = p.hand[us ^ 1];
      if (h.known.empty()) return std::nullopt;
      h.unknown += static_cast<int>(h.known.size());
      h.known.clear();
      desc = "cards: opponent's hand hidden";
      break;
    }
    default: {
      if (p.pile.known.size() < 2) return std::nullopt;
      size_t a = choose(p.pile.known.size()), b = choose(p.pile.known.size());
      std::swap(p.pile.known[a], p.pile.known[b]);
      desc = "cards: pile cards swapped";
      break;
    }
  }
  if (what) *what = desc;
  return format_nostress(p);
}

// ---- ChessMe ---------------------------------------------------------------------------

std::optional<ChessMePosition> parse_me(const std::string& text) {
  try {
    return parse_chessme(text);
  } catch (const PositionError&) {
    return std::nullopt;
  }
}

struct Box {
  int x0 = 0, y0 = 1, x1 = 0, y1 = 1;
};

Box box_of(const ChessMePosition& p) {
  Box b{INT_MAX, INT_MAX, INT_MIN, INT_MIN};
  if (p.pieces.empty()) return Box{};
  for (const auto& [c, pc] : p.pieces) {
    b.x0 = std::min(b.x0, c.x);
    b.y0 = std::min(b.y0, c.y);
    b.x1 = std::max(b.x1, c.x);
    b.y1 = std::max(b.y1, c.y);
  }
  return b;
}

bool occupied(const ChessMePosition& p, Coord c) {
  for (const auto& [sq, pc] : p.pieces)
    if (sq == c) return true;
  return false;
}

// An empty square in the pieces' bounding box grown by two.
std::optional<Coord> empty_square(const ChessMePosition& p, const Choose& choose) {
  Box b = box_of(p);
  int64_t w = static_cast<int64_t>(b.x1) - b.x0 + 5, h = static_cast<int64_t>(b.y1) - b.y0 + 5;
  if (w <= 0 || h <= 0 || w > 1000 || h > 1000) return std::nullopt;
  for (int attempt = 0; attempt < 8; ++attempt) {
    Coord c{static_cast<int32_t>(b.x0 - 2 + static_cast<int64_t>(choose(static_cast<uint64_t>(w)))),
            static_cast<int32_t>(b.y0 - 2 + static_cast<int64_t>(choose(static_cast<uint64_t>(h))))};
    if (!occupied(p, c)) return c;
  }
  return std::nullopt;
}

char colored(char p, int color) {
  return color == 0 ? upper(p) : lower(p);
}

// ---- Situations the rules speak of (ChessMe) ---------------------------------------------
// Full and empty hands and piles, a lone king with little to stand next to, a pawn one
// rank short of the enemy royal's rank with pieces to exchange for.
constexpr size_t kHandSize = 3;

std::optional<std::string> targeted_chessme(ChessMePosition p, const std::string& alphabet,
                                            const Choose& choose, std::string* what) {
  std::string desc;
  std::string pieces;
  for (char c : alphabet)
    if (c != kRoyal) pieces.push_back(c);
  if (pieces.empty()) return std::nullopt;
  int color = static_cast<int>(choose(2));
  switch (choose(5)) {
    case 0: {  // a full hand, from the own pile's top while it lasts
      std::string& hand = p.hand[color];
      while (hand.size() < kHandSize) {
        std::string& pile = p.pile[color];
        if (p.pile_known[color] && !pile.empty()) {
          hand.push_back(pile[0]);
          pile.erase(0, 1);
        } else {
          hand.push_back(colored(pieces[choose(pieces.size())], color));
        }
      }
      desc = "hand full";
      break;
    }
    case 1:  // an empty hand (no placement), the pile empty too half the time
      p.hand[color].clear();
      desc = "hand empty";
      if (choose(2)) {
        p.pile[color].clear();
        p.pile_known[color] = true;
        desc += ", pile empty";
      }
      break;
    case 2:  // both piles empty and known: no draw after a placement
      for (int c = 0; c < 2; ++c) {
        p.pile[c].clear();
        p.pile_known[c] = true;
      }
      desc = "piles empty";
      break;
    case 3: {  // an ending: the royals and at most two more pieces, hands emptied or not
      std::vector<std::pair<Coord, char>> kept;
      for (const auto& pc : p.pieces)
        if (upper(pc.second) == kRoyal) kept.push_back(pc);
      std::vector<std::pair<Coord, char>> others;
      for (const auto& pc : p.pieces)
        if (upper(pc.second) != kRoyal) others.push_back(pc);
      uint64_t extra = choose(3);
      for (uint64_t i = 0; i < extra && !others.empty(); ++i) {
        size_t k = choose(others.size());
        kept.push_back(others[k]);
        others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
      }
      p.pieces = kept;
      if (choose(2)) {
        p.hand[0].clear();
        p.hand[1].clear();
      }
      desc = "ending with " + std::to_string(kept.size()) + " pieces";
      break;
    }
    default: {  // a pawn one rank short of the enemy royal's rank, with a captured piece
      char king = color == 0 ? lower(kRoyal) : kRoyal, pawn = colored(kPawn, color);
      std::optional<Coord> enemy;
      for (const auto& pc : p.pieces)
        if (pc.second == king) enemy = pc.first;
      if (!enemy) return std::nullopt;
      int64_t y = static_cast<int64_t>(enemy->y) + (color == 0 ? -1 : 1);
      int64_t x = static_cast<int64_t>(enemy->x) + static_cast<int64_t>(choose(7)) - 3;
      if (y > INT32_MAX || y < INT32_MIN || x > INT32_MAX || x < INT32_MIN) return std::nullopt;
      Coord at{static_cast<int32_t>(x), static_cast<int32_t>(y)};
      if (occupied(p, at)) return std::nullopt;
      p.pieces.push_back({at, pawn});
      if (size_t i = p.hand[color].find(pawn); i != std::string::npos) p.hand[color].erase(i, 1);
      // An own piece the opponent has captured (the exchange's choice).
      std::string non_pawns;
      for (char c : pieces)
        if (c != kPawn) non_pawns.push_back(c);
      if (!non_pawns.empty())
        p.captured[1 - color].push_back(colored(non_pawns[choose(non_pawns.size())], color));
      if (choose(3) != 0) p.side = color == 0 ? Color::White : Color::Black;
      desc = std::string("promotion ") + pawn + "@" + square_name(at);
      break;
    }
  }
  if (what) *what = desc;
  return format_chessme(p);
}

std::optional<std::string> mutate_chessme(ChessMePosition p, const std::string& alphabet,
                                          const Choose& choose, std::string* what) {
  std::string desc;
  // Kinds: 0-1 move, 2 add, 3 remove, 4 hand +, 5 hand -, 6 pile, 7 capture pile, 8 side.
  switch (choose(9)) {
    case 0:
    case 1: {
      if (p.pieces.empty()) return std::nullopt;
      size_t i = choose(p.pieces.size());
      auto to = empty_square(p, choose);
      if (!to) return std::nullopt;
      desc = std::string("move ") + p.pieces[i].second + square_name(p.pieces[i].first) + square_name(*to);
      p.pieces[i].first = *to;
      break;
    }
    case 2: {
      if (alphabet.empty()) return std::nullopt;
      auto to = empty_square(p, choose);
      if (!to) return std::nullopt;
      int color = static_cast<int>(choose(2));
      char piece = colored(alphabet[choose(alphabet.size())], color);
      // Taken from the own hand when it holds one, so that the tile totals stay possible.
      size_t in_hand = p.hand[color].find(piece);
      if (in_hand != std::string::npos) p.hand[color].erase(in_hand, 1);
      p.pieces.push_back({*to, piece});
      desc = std::string("add ") + piece + "@" + square_name(*to);
      break;
    }
    case 3: {
      if (p.pieces.empty()) return std::nullopt;
      size_t i = choose(p.pieces.size());
      char piece = p.pieces[i].second;
      int color = is_upper(piece) ? 0 : 1;
      desc = std::string("remove ") + piece + square_name(p.pieces[i].first);
      p.pieces.erase(p.pieces.begin() + static_cast<std::ptrdiff_t>(i));
      if (choose(2) && p.hand[color].size() < 3) {
        p.hand[color].push_back(piece);
        desc += " to hand";
      }
      break;
    }
    case 4: {
      int color = static_cast<int>(choose(2));
      char piece = 0;
      // From the top of the own pile when it is known and not empty, else any letter.
      if (p.pile_known[color] && !p.pile[color].empty() && choose(2)) {
        piece = p.pile[color][0];
        p.pile[color].erase(0, 1);
      } else if (!alphabet.empty()) {
        piece = colored(alphabet[choose(alphabet.size())], color);
      } else {
        return std::nullopt;
      }
      p.hand[color].push_back(piece);
      desc = std::string("hand +") + piece;
      break;
    }
    case 5: {
      int color = static_cast<int>(choose(2));
      if (p.hand[color].empty()) return std::nullopt;
      size_t i = choose(p.hand[color].size());
      char piece = p.hand[color][i];
      p.hand[color].erase(i, 1);
      desc = std::string("hand -") + piece;
      if (p.pile_known[color] && choose(2)) {
        p.pile[color].insert(0, 1, piece);
        desc += " to pile";
      }
      break;
    }
    case 6: {
      int color = static_cast<int>(choose(2));
      std::string& pile = p.pile[color];
      switch (choose(5)) {
        case 0:
          if (!p.pile_known[color] || pile.empty()) return std::nullopt;
          desc = std::string("pile -") + pile[0];
          pile.erase(0, 1);
          break;
        case 1:
          if (!p.pile_known[color] || alphabet.empty()) return std::nullopt;
          pile.insert(0, 1, colored(alphabet[choose(alphabet.size())], color));
          desc = std::string("pile +") + pile[0];
          break;
        case 2:
          if (!p.pile_known[color] || pile.size() < 2) return std::nullopt;
          std::swap(pile[choose(pile.size())], pile[choose(pile.size())]);
          desc = "pile swap";
          break;
        case 3:
          if (!p.pile_known[color]) return std::nullopt;
          pile.clear();
          desc = "pile empty";
          break;
        default:
          p.pile_known[color] = !p.pile_known[color];
          if (p.pile_known[color]) pile.clear();
          desc = p.pile_known[color] ? "pile known" : "pile unknown";
          break;
      }
      break;
    }
    case 7: {
      int color = static_cast<int>(choose(2));
      std::string& cap = p.captured[color];
      if (!cap.empty() && choose(2)) {
        size_t i = choose(cap.size());
        desc = std::string("captured -") + cap[i];
        cap.erase(i, 1);
      } else {
        if (alphabet.empty()) return std::nullopt;
        cap.push_back(colored(alphabet[choose(alphabet.size())], 1 - color));
        desc = std::string("captured +") + cap.back();
      }
      break;
    }
    default:
      p.side = opposite(p.side);
      desc = p.side == Color::White ? "side w" : "side b";
      break;
  }
  if (what) *what = desc;
  return format_chessme(p);
}

}  // namespace

TextFormat detect_format(const std::string& text) {
  if (split_fen(text)) return TextFormat::Fen;
  if (parse_me(text)) return TextFormat::ChessMe;
  return TextFormat::Other;
}

std::string piece_alphabet(const std::string& text) {
  std::string letters;
  auto add = [&](char c) {
    if (std::isalpha(static_cast<unsigned char>(c)) && letters.find(upper(c)) == std::string::npos)
      letters.push_back(upper(c));
  };
  if (auto f = split_fen(text)) {
    for (const auto& r : f->ranks)
      for (char c : r)
        if (c != '.') add(c);
    for (char c : f->reserve) add(c);
  } else if (auto p = parse_me(text)) {
    for (const auto& [sq, pc] : p->pieces) add(pc);
    for (int c = 0; c < 2; ++c) {
      for (char ch : p->hand[c]) add(ch);
      for (char ch : p->pile[c]) add(ch);
      for (char ch : p->captured[c]) add(ch);
    }
  }
  return letters;
}

std::optional<std::string> mutate_position(const std::string& text, const std::string& alphabet,
                                           const Choose& choose, std::string* what, bool targeted) {
  std::string letters = alphabet.empty() ? piece_alphabet(text) : alphabet;
  if (targeted && choose(4) == 0) return targeted_position(text, letters, choose, what);
  if (auto ns = parse_ns(text); ns && choose(2) == 0) return mutate_cards(*ns, choose, what);
  if (auto f = split_fen(text)) return mutate_fen(*f, letters, choose, what);
  if (auto p = parse_me(text)) return mutate_chessme(*p, letters, choose, what);
  return std::nullopt;
}

std::optional<std::string> targeted_position(const std::string& text, const std::string& alphabet,
                                             const Choose& choose, std::string* what) {
  std::string letters = alphabet.empty() ? piece_alphabet(text) : alphabet;
  if (letters.empty()) return std::nullopt;
  if (auto f = split_fen(text)) return targeted_fen(*f, letters, choose, what);
  if (auto p = parse_me(text)) return targeted_chessme(*p, letters, choose, what);
  return std::nullopt;
}

std::string material(const std::string& text) {
  std::string pieces;
  if (auto f = split_fen(text)) {
    for (const auto& r : f->ranks)
      for (char c : r)
        if (c != '.') pieces.push_back(c);
    pieces += f->reserve;  // pieces in reserve may still come into play
  } else if (auto p = parse_me(text)) {
    for (const auto& [sq, pc] : p->pieces) pieces.push_back(pc);
    pieces += p->hand[0] + p->hand[1];
  } else {
    return "";
  }
  std::string rest;
  for (char c : pieces)
    if (upper(c) != kRoyal) rest.push_back(upper(c));
  if (rest.empty()) return "bare kings";
  if (rest.size() == 1)
    return std::string(kMinors).find(rest[0]) != std::string::npos ? "one minor" : "one piece";
  if (rest.size() == 2 && std::string(kMinors).find(rest[0]) != std::string::npos &&
      std::string(kMinors).find(rest[1]) != std::string::npos)
    return "two minors";
  return "";
}

std::vector<std::string> position_features(const std::string& text) {
  std::vector<std::string> out;
  std::string m = material(text);
  if (!m.empty()) out.push_back("material: " + m);
  if (auto f = split_fen(text)) {
    if (f->has_reserve) out.push_back(f->reserve.empty() ? "reserves: empty" : "reserves: not empty");
    if (f->fields.size() >= 2 && f->fields[1] != "-") out.push_back("field: castling rights");
    if (f->fields.size() >= 3 && f->fields[2] != "-") out.push_back("field: en passant");
    if (f->fields.size() >= 4 && f->fields[3].size() >= 2 && f->fields[3] >= "90" && f->fields[3].size() == 2)
      out.push_back("field: halfmove clock 90-99");
    if (f->fields.size() >= 4 && f->fields[3].size() >= 3) out.push_back("field: halfmove clock 100+");
  } else if (auto p = parse_me(text)) {
    for (int c = 0; c < 2; ++c) {
      if (p->hand[c].size() >= kHandSize) out.push_back("hand: full");
      if (p->hand[c].empty()) out.push_back("hand: empty");
      if (p->pile_known[c] && p->pile[c].empty()) out.push_back("pile: empty");
      if (!p->captured[c].empty()) out.push_back("captured: not empty");
    }
  }
  return out;
}

std::optional<std::string> reversed_move(const std::string& action) {
  size_t pos = 0;
  auto from = parse_square(action, pos);
  if (!from) return std::nullopt;
  size_t mid = pos;
  auto to = parse_square(action, pos);
  if (!to || pos != action.size()) return std::nullopt;
  return action.substr(mid) + action.substr(0, mid);
}

std::vector<std::string> removal_candidates(const std::string& text) {
  std::vector<std::string> out;
  if (auto f = split_fen(text)) {
    for (Cell c : cells_where(*f, true)) {
      Fen g = *f;
      g.ranks[c.r][c.x] = '.';
      out.push_back(join_fen(g));
    }
    for (size_t i = 0; i < f->reserve.size(); ++i) {
      if (i > 0 && f->reserve[i] == f->reserve[i - 1]) continue;  // one candidate per letter run
      Fen g = *f;
      g.reserve.erase(i, 1);
      out.push_back(join_fen(g));
    }
    // Castling rights one at a time (a right names a piece that may be removed next), then
    // the move counters back to their start values.
    if (f->fields.size() >= 2 && f->fields[1] != "-")
      for (size_t i = 0; i < f->fields[1].size(); ++i) {
        Fen g = *f;
        g.fields[1].erase(i, 1);
        if (g.fields[1].empty()) g.fields[1] = "-";
        out.push_back(join_fen(g));
      }
    const char* start_values[] = {"0", "1"};
    for (size_t k = 3; k < 5 && k < f->fields.size(); ++k)
      if (f->fields[k] != start_values[k - 3]) {
        Fen g = *f;
        g.fields[k] = start_values[k - 3];
        out.push_back(join_fen(g));
      }
  } else if (auto p = parse_me(text)) {
    for (size_t i = 0; i < p->pieces.size(); ++i) {
      ChessMePosition q = *p;
      q.pieces.erase(q.pieces.begin() + static_cast<std::ptrdiff_t>(i));
      out.push_back(format_chessme(q));
    }
    for (int c = 0; c < 2; ++c) {
      for (int which = 0; which < 3; ++which) {
        const std::string& s = which == 0 ? p->hand[c] : which == 1 ? p->pile[c] : p->captured[c];
        for (size_t i = 0; i < s.size(); ++i) {
          if (which != 1 && i > 0 && s[i] == s[i - 1]) continue;
          ChessMePosition q = *p;
          std::string& t = which == 0 ? q.hand[c] : which == 1 ? q.pile[c] : q.captured[c];
          t.erase(i, 1);
          out.push_back(format_chessme(q));
        }
      }
    }
  }
  return out;
}

std::optional<std::pair<int, int>> origin_offset(const std::string& text) {
  auto p = parse_me(text);
  if (!p || p->pieces.empty()) return std::nullopt;
  Box b = box_of(*p);
  int64_t dx = 0 - static_cast<int64_t>(b.x0), dy = 1 - static_cast<int64_t>(b.y0);
  if ((dx == 0 && dy == 0) || dx > INT_MAX / 2 || dx < INT_MIN / 2 || dy > INT_MAX / 2 || dy < INT_MIN / 2)
    return std::nullopt;
  return std::pair<int, int>{static_cast<int>(dx), static_cast<int>(dy)};
}

std::optional<std::string> translate_position(const std::string& text, int dx, int dy) {
  auto p = parse_me(text);
  if (!p) return std::nullopt;
  for (auto& [sq, pc] : p->pieces) {
    int64_t x = static_cast<int64_t>(sq.x) + dx, y = static_cast<int64_t>(sq.y) + dy;
    if (x > INT32_MAX || x < INT32_MIN || y > INT32_MAX || y < INT32_MIN) return std::nullopt;
    sq = Coord{static_cast<int32_t>(x), static_cast<int32_t>(y)};
  }
  return format_chessme(*p);
}

std::string translate_actions(const std::string& actions, int dx, int dy) {
  std::string out;
  size_t i = 0;
  while (i < actions.size()) {
    size_t pos = i;
    // A square starts with '(' or a file letter; the letter must not continue a word
    // (`pass`, a promotion letter before ',').
    bool may_start = actions[i] == '(' || i == 0 || !std::isalpha(static_cast<unsigned char>(actions[i - 1]));
    if (may_start) {
      if (auto sq = parse_square(actions, pos)) {
        out += square_name(Coord{sq->x + dx, sq->y + dy});
        i = pos;
        continue;
      }
    }
    out += actions[i++];
  }
  return out;
}

}  // namespace arb::fuzz
