// Position mutations of FEN-like texts (mutate_detail.hpp).
#include <algorithm>
#include <cctype>
#include <climits>

#include "arbiter/text_fields.hpp"
#include "fuzz/mutate_detail.hpp"

namespace arb::fuzz::detail {

std::optional<Fen> split_fen(const std::string& text) {
  size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return std::nullopt;
  size_t end = text.find_first_of(" \t[", start);
  if (end == std::string::npos) end = text.size();
  std::string board = text.substr(start, end - start);
  if (board.find('/') == std::string::npos || board.find_first_of(",()") != std::string::npos)
    return std::nullopt;
  Fen f;
  // Promoted-piece markers and the like make it nullopt: not ours to edit.
  auto ranks = board_ranks(board, 64);
  if (!ranks) return std::nullopt;
  f.ranks = std::move(*ranks);
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
  std::string out = board_field(f.ranks);
  if (f.has_reserve) out += "[" + f.reserve + "]";
  for (const auto& field : f.fields) out += " " + field;
  return out;
}

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

}  // namespace arb::fuzz::detail
