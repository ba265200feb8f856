#include "arbiter/nostress_text.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <vector>

#include "arbiter/random.hpp"
#include "arbiter/text_fields.hpp"
#include "arbiter/wording.hpp"

namespace arb {

namespace {

[[noreturn]] void fail(const std::string& msg, size_t col) {
  throw PositionError(msg, col);
}

using Field = TextField;

// A decimal number of at most `max_digits` digits, the whole field.
uint64_t parse_number(const Field& f, const char* what, size_t max_digits) {
  if (f.text.empty()) fail(std::string("missing ") + what, f.col);
  if (f.text.size() > max_digits) fail(std::string(what) + " is too long", f.col);
  uint64_t v = 0;
  for (size_t i = 0; i < f.text.size(); ++i) {
    char c = f.text[i];
    if (!std::isdigit(static_cast<unsigned char>(c)))
      fail(std::string("bad ") + what + ": expected digits", f.col + i);
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) fail(std::string(what) + " does not fit in 64 bits", f.col);
    v = v * 10 + d;
  }
  return v;
}

// The value after `name:` in field `f`, or throws.
Field value_of(const Field& f, std::string_view name) {
  if (f.text.size() < name.size() + 1 || f.text.substr(0, name.size()) != name || f.text[name.size()] != ':')
    fail("expected '" + std::string(name) + ":' here", f.col);
  return Field{f.text.substr(name.size() + 1), f.col + name.size() + 1};
}

bool has_prefix(const Field& f, std::string_view name) {
  return f.text.size() > name.size() && f.text.substr(0, name.size()) == name && f.text[name.size()] == ':';
}

// CARDS: `-`, letters, letters + `?N`, or `?N`.
NoStressCards parse_cards(const Field& v, const char* what, bool allow_unknown, int deck_size) {
  NoStressCards c;
  if (v.text.empty()) fail(std::string("empty ") + what + ": write '-' for no cards", v.col);
  if (v.text == "-") return c;
  size_t i = 0;
  for (; i < v.text.size() && v.text[i] != '?'; ++i) {
    if (nostress_card_index(v.text[i]) < 0)
      fail(std::string("unknown card letter '") + v.text[i] + "' in the " + what + " (cards are PNBRQKA)",
           v.col + i);
    c.known.push_back(v.text[i]);
  }
  if (i < v.text.size()) {
    if (!allow_unknown) fail(std::string("the ") + what + " is face up: '?' is not allowed", v.col + i);
    Field n{v.text.substr(i + 1), v.col + i + 1};
    uint64_t u = parse_number(n, "unknown card count", 3);
    if (u < 1 || u > static_cast<uint64_t>(deck_size))
      fail("the unknown card count must be between 1 and " + std::to_string(deck_size), n.col);
    c.unknown = static_cast<int>(u);
  }
  return c;
}

std::string format_cards(const NoStressCards& c) {
  if (c.known.empty() && c.unknown == 0) return "-";
  std::string out = c.known;
  if (c.unknown > 0) out += "?" + std::to_string(c.unknown);
  return out;
}

const char* side_name(int c) {
  return c == 0 ? "White" : "Black";
}

}  // namespace

std::string nostress_level_name(NoStressLevel l) {
  switch (l) {
    case NoStressLevel::One:
      return "1";
    case NoStressLevel::Two:
      return "2";
    case NoStressLevel::Three:
      return "3";
    case NoStressLevel::Advanced:
      return "advanced";
  }
  return "3";
}

std::optional<NoStressLevel> parse_nostress_level(std::string_view s) {
  if (s == "1") return NoStressLevel::One;
  if (s == "2") return NoStressLevel::Two;
  if (s == "3") return NoStressLevel::Three;
  if (s == "advanced") return NoStressLevel::Advanced;
  return std::nullopt;
}

int nostress_hand_size(NoStressLevel l) {
  switch (l) {
    case NoStressLevel::One:
      return 0;
    case NoStressLevel::Two:
      return 3;
    default:
      return 5;
  }
}

int nostress_card_index(char c) {
  size_t i = kNoStressCardKinds.find(c);
  return i == std::string_view::npos || c == 0 ? -1 : static_cast<int>(i);
}

bool operator==(const NoStressPosition& a, const NoStressPosition& b) {
  return format_fen(a.board) == format_fen(b.board) && a.level == b.level && a.pile == b.pile &&
         a.discard[0] == b.discard[0] && a.discard[1] == b.discard[1] && a.hand[0] == b.hand[0] &&
         a.hand[1] == b.hand[1] && a.reshuffle_seed == b.reshuffle_seed && a.pending == b.pending;
}

int CardRules::deck_size() const {
  int n = 0;
  for (int c : deck) n += c;
  return n;
}

int CardRules::hand_at(NoStressLevel level) const {
  return hand_size < 0 ? nostress_hand_size(level) : hand_size;
}

void CardRules::validate(NoStressLevel level) const {
  for (size_t k = 0; k < deck.size(); ++k)
    if (deck[k] < 0 || deck[k] > kNoStressMaxKindCount)
      throw std::invalid_argument(std::string("card count of ") + kNoStressCardKinds[k] + " must be 0.." +
                                  std::to_string(kNoStressMaxKindCount) + ", not " + std::to_string(deck[k]));
  if (hand_size < -1 || hand_size > 8)
    throw std::invalid_argument("hand size must be 0..8, not " + std::to_string(hand_size));
  int h = hand_at(level);
  if (deck_size() < 2 * h + 1)
    throw std::invalid_argument("a deck of " + std::to_string(deck_size()) +
                                " cards cannot deal two hands of " + std::to_string(h) + " and a first draw");
}

NoStressPosition parse_nostress(std::string_view text, const CardRules& rules) {
  static const char* kNames[12] = {
      "board",  "side to move", "castling",  "en-passant square", "halfmove", "fullmove",
      "level:", "pile:",        "wdiscard:", "bdiscard:",         "whand:",   "bhand:"};
  std::vector<Field> f = split_fields(text);
  if (f.empty()) fail("empty position text", 0);
  if (f.size() < 12) fail(std::string("missing field: ") + kNames[f.size()], text.size());

  NoStressPosition p;
  // 1-6: the FEN, parsed from the text up to the end of the sixth field (same columns).
  p.board = parse_fen(text.substr(0, f[5].col + f[5].text.size()), 8, 8, "KQRBNPkqrbnp");

  // 7-12.
  Field lv = value_of(f[6], "level");
  auto level = parse_nostress_level(lv.text);
  if (!level) fail("level must be 1, 2, 3 or advanced, not '" + std::string(lv.text) + "'", lv.col);
  p.level = *level;
  try {
    rules.validate(p.level);
  } catch (const std::invalid_argument& e) {
    fail(std::string("card rules: ") + e.what(), lv.col);
  }
  const int deck_size = rules.deck_size();
  Field pile = value_of(f[7], "pile");
  p.pile = parse_cards(pile, "pile", true, deck_size);
  Field disc[2] = {value_of(f[8], "wdiscard"), value_of(f[9], "bdiscard")};
  for (int c = 0; c < 2; ++c)
    p.discard[c] =
        parse_cards(disc[c], c == 0 ? "White discard pile" : "Black discard pile", false, deck_size).known;
  Field hand[2] = {value_of(f[10], "whand"), value_of(f[11], "bhand")};
  for (int c = 0; c < 2; ++c)
    p.hand[c] = parse_cards(hand[c], c == 0 ? "White hand" : "Black hand", true, deck_size);

  // 13-14, optional.
  size_t next = 12;
  if (next < f.size() && has_prefix(f[next], "reshuffle")) {
    p.reshuffle_seed = parse_number(value_of(f[next], "reshuffle"), "reshuffle seed", 20);
    ++next;
  }
  size_t pending_col = 0;
  if (next < f.size() && has_prefix(f[next], "pending")) {
    Field v = value_of(f[next], "pending");
    pending_col = v.col;
    uint64_t n = parse_number(v, "pending count", 2);
    if (n == 0) fail("pending:0 is not written: leave the field out", v.col);
    p.pending = static_cast<int>(n);
    ++next;
  }
  if (next < f.size()) {
    if (has_prefix(f[next], "reshuffle")) fail("reshuffle: must come before pending:", f[next].col);
    fail("unexpected text after the last field", f[next].col);
  }

  const bool advanced = p.level == NoStressLevel::Advanced;
  const int H = rules.hand_at(p.level);
  const std::string hand_origin =
      rules.hand_size < 0 ? " at level " + nostress_level_name(p.level) : std::string(" in this game");
  const int us = p.board.side == Color::White ? 0 : 1;

  // The FEN's castling and en-passant fields.
  size_t castle_col = f[2].col, ep_col = f[3].col;
  if (!advanced) {
    if (p.board.castling != "-")
      fail("levels 1-3 have no castling: the castling field must be '-'", castle_col);
    if (p.board.ep) fail("levels 1-3 have no en passant: the en-passant field must be '-'", ep_col);
  } else {
    const std::string& cs = p.board.castling;
    if (cs != "-") {
      static const std::string kOrder = "KQkq";
      size_t last = 0;
      for (size_t i = 0; i < cs.size(); ++i) {
        size_t k = kOrder.find(cs[i]);
        if (k == std::string::npos)
          fail(std::string("castling field: only K, Q, k and q are used, not '") + cs[i] + "'",
               castle_col + i);
        if (i > 0 && k <= last)
          fail("castling field: write the letters once each, in the order KQkq", castle_col + i);
        last = k;
        int color = k < 2 ? 0 : 1;
        int y = color == 0 ? 1 : 8;
        char king = color == 0 ? 'K' : 'k', rook = color == 0 ? 'R' : 'r';
        int rook_x = (k % 2 == 0) ? 7 : 0;
        if (p.board.at(Coord{4, y}) != king)
          fail(std::string("castling field: ") + side_name(color) + "'s king is not on its start square",
               castle_col + i);
        if (p.board.at(Coord{rook_x, y}) != rook)
          fail(std::string("castling field: ") + side_name(color) + " has no rook on " +
                   static_cast<char>('a' + rook_x) + std::to_string(y),
               castle_col + i);
      }
    }
    if (p.board.ep && p.board.ep->y != (us == 0 ? 6 : 3))
      fail(std::string("the en-passant square must be on rank ") + (us == 0 ? "6" : "3") + " when " +
               side_name(us) + " is to move",
           ep_col);
  }

  // Kings and pawns.
  int kings[2] = {0, 0};
  for (int y = 1; y <= 8; ++y)
    for (int x = 0; x < 8; ++x) {
      char ch = p.board.at(Coord{x, y});
      if (!ch) continue;
      int color = std::isupper(static_cast<unsigned char>(ch)) ? 0 : 1;
      char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (up == 'K') ++kings[color];
      if (up == 'P') {
        std::string sq = std::string(1, static_cast<char>('a' + x)) + std::to_string(y);
        if ((color == 0 && y == 1) || (color == 1 && y == 8))
          fail(std::string(side_name(color)) + " pawn on " + sq + ", its own first rank", f[0].col);
        if (advanced && (y == 1 || y == 8))
          fail("pawn on " + sq + ": at the advanced level a pawn on the last rank is promoted", f[0].col);
      }
    }
  for (int c = 0; c < 2; ++c)
    if (kings[c] > 1) fail(std::string(side_name(c)) + " has more than one king", f[0].col);
  if (kings[1 - us] != 1)
    fail(std::string(side_name(1 - us)) + ", not to move, has no king: the game ended before", f[0].col);

  // Card counts.
  int count[7] = {};
  auto add = [&](const std::string& s, size_t col) {
    for (size_t i = 0; i < s.size(); ++i) {
      int k = nostress_card_index(s[i]);
      if (++count[k] > rules.deck[k])
        fail(std::string("more ") + s[i] + " cards than the deck holds (" + std::to_string(rules.deck[k]) +
                 ")",
             col + i);
    }
  };
  add(p.pile.known, pile.col);
  for (int c = 0; c < 2; ++c) add(p.discard[c], disc[c].col);
  for (int c = 0; c < 2; ++c) add(p.hand[c].known, hand[c].col);
  int total = p.pile.size() + static_cast<int>(p.discard[0].size() + p.discard[1].size()) + p.hand[0].size() +
              p.hand[1].size();
  if (total != deck_size)
    fail("the card zones hold " + plural(total, "card") + "; the deck has " + std::to_string(deck_size),
         f[7].col);

  // Hand sizes and pending draws.
  if (p.hand[1 - us].size() != H)
    fail(std::string(side_name(1 - us)) + ", not to move, must hold " + plural(H, "card") + hand_origin,
         hand[1 - us].col);
  if (p.pending > 0) {
    if (p.pending > H)
      fail("pending draws exceed the hand size " + std::to_string(H) +
               (rules.hand_size < 0 ? " of level " + nostress_level_name(p.level) : std::string()),
           pending_col);
    if (p.hand[us].size() != H - p.pending)
      fail(std::string(side_name(us)) + " must hold " + plural(H - p.pending, "card") + " with " +
               plural(p.pending, "pending draw"),
           hand[us].col);
    if (!p.pile.known.empty() || p.pile.unknown == 0)
      fail("pending draws need a pile whose top is unknown (`?N`): known cards would have been drawn",
           pile.col);
    if (kings[us] != 1) fail(std::string(side_name(us)) + " has no king", f[0].col);
  } else {
    int n = p.hand[us].size();
    if (n != H && n != H + 1)
      fail(std::string(side_name(us)) + ", to move, must hold " + plural(H, "card") +
               " (before the draw) or " + std::to_string(H + 1) + " (after it)",
           hand[us].col);
    if (kings[us] == 0 && n != H)
      fail(std::string(side_name(us)) + " has no king: the game is over, so no card was drawn", hand[us].col);
  }
  return p;
}

std::string format_nostress(const NoStressPosition& p) {
  std::string out = format_fen(p.board);
  out += " level:" + nostress_level_name(p.level);
  out += " pile:" + format_cards(p.pile);
  out += " wdiscard:" + format_cards(NoStressCards{p.discard[0], 0});
  out += " bdiscard:" + format_cards(NoStressCards{p.discard[1], 0});
  out += " whand:" + format_cards(p.hand[0]);
  out += " bhand:" + format_cards(p.hand[1]);
  if (p.reshuffle_seed) out += " reshuffle:" + std::to_string(*p.reshuffle_seed);
  if (p.pending > 0) out += " pending:" + std::to_string(p.pending);
  return out;
}

std::string shuffle_cards(std::string cards, uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = cards.size(); i-- > 1;) {
    size_t j = static_cast<size_t>(splitmix64_next(state) % (i + 1));
    std::swap(cards[i], cards[j]);
  }
  return cards;
}

std::string nostress_deck(const CardRules& rules) {
  std::string deck;
  for (size_t k = 0; k < kNoStressCardKinds.size(); ++k)
    deck.append(static_cast<size_t>(std::max(0, rules.deck[k])), kNoStressCardKinds[k]);
  return deck;
}

NoStressPosition nostress_start_position(NoStressLevel level, bool advanced_pawns, uint64_t seed,
                                         const CardRules& rules) {
  rules.validate(level);
  NoStressPosition p;
  const char* board = advanced_pawns ? "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR"
                                     : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
  std::string fen = std::string(board) + (level == NoStressLevel::Advanced ? " w KQkq - 0 1" : " w - - 0 1");
  p.board = parse_fen(fen, 8, 8, "KQRBNPkqrbnp");
  p.level = level;
  std::string deck = shuffle_cards(nostress_deck(rules), seed);
  size_t dealt = 2 * static_cast<size_t>(rules.hand_at(level));
  for (size_t i = 0; i < dealt; ++i) p.hand[i % 2].known.push_back(deck[i]);
  p.pile.known = deck.substr(dealt);
  p.reshuffle_seed = seed + 1;
  return p;
}

}  // namespace arb
