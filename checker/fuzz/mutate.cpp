#include "fuzz/mutate.hpp"

#include <algorithm>
#include <cctype>
#include <climits>

#include "arbiter/chessme_text.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"
#include "fuzz/mutate_detail.hpp"

namespace arb::fuzz {

namespace detail {

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

}  // namespace detail

using namespace detail;  // NOLINT: the entry points below dispatch to the per-format mutations

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
