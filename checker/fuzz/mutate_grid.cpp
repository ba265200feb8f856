// Position mutations of the unbounded grid's text (mutate_detail.hpp).
#include <algorithm>
#include <climits>

#include "arbiter/notation.hpp"
#include "fuzz/mutate_detail.hpp"

namespace arb::fuzz::detail {

// ---- ChessMe ---------------------------------------------------------------------------

std::optional<ChessMePosition> parse_me(const std::string& text) {
  try {
    return parse_chessme(text);
  } catch (const PositionError&) {
    return std::nullopt;
  }
}

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

// The text of a mutated position, or nothing when the parser refuses it (a hand over the
// hand size, more tiles of a type than a set holds): `fuzz` would print a position that
// `moves` and the engines then refuse, so such a mutation is dropped.
std::optional<std::string> accepted(const ChessMePosition& p) {
  std::string text = format_chessme(p);
  if (!parse_me(text)) return std::nullopt;
  return text;
}

// ---- Situations the rules speak of (ChessMe) ---------------------------------------------
// Full and empty hands and piles, a lone king with little to stand next to, a pawn one
// rank short of the enemy royal's rank with pieces to exchange for.

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
  auto text = accepted(p);
  if (text && what) *what = desc;
  return text;
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
      if (p.hand[color].size() >= kHandSize) return std::nullopt;  // a hand holds kHandSize tiles
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
  auto text = accepted(p);
  if (text && what) *what = desc;
  return text;
}

}  // namespace arb::fuzz::detail
