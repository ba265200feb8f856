// Popeye's input language, the orthodox subset (see arbiter/popeye_input.hpp).
#include "arbiter/popeye_input.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace arb::stip {
namespace {

struct Token {
  std::string text;
  int line = 0, column = 0;
};

std::vector<Token> tokens(const std::string& text) {
  std::vector<Token> out;
  int line = 1, col = 1;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      col = 1;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++col;
      ++i;
    } else {
      Token t{"", line, col};
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) {
        t.text += text[i++];
        ++col;
      }
      out.push_back(t);
    }
  }
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The keyword of `words` that `t` abbreviates (a prefix of three letters or more, or the
// whole word), or "".
std::string keyword(const std::string& t, const std::vector<std::string>& words) {
  const std::string l = lower(t);
  if (l.size() < 3) return "";
  std::string found;
  for (const auto& w : words)
    if (lower(w).rfind(l, 0) == 0) {
      if (!found.empty()) return "";  // ambiguous
      found = w;
    }
  return found;
}

const std::vector<std::string> kTop = {
    "BeginProblem", "EndProblem",   "NextProblem", "Pieces", "Stipulation", "Option", "Condition",
    "Remark",       "Title",        "Author",      "Origin", "Award",       "Twin",   "Zeroposition",
    "Protocol",     "Sstipulation", "Forsyth",     "LaTeX",  "Input"};
const std::vector<std::string> kSupportedTop = {"BeginProblem", "EndProblem", "NextProblem", "Pieces",
                                                "Stipulation",  "Option",     "Condition",   "Remark",
                                                "Title",        "Author",     "Origin",      "Award"};
const std::vector<std::string> kOptions = {"NoCastling", "EnPassant", "HalfDuplex", "WhiteToPlay",
                                           "NoBoard",    "NoThreat",  "Try",        "NoShortVariations"};

bool square(const std::string& s, size_t at, std::pair<int, int>& sq) {
  if (at + 1 >= s.size()) return false;
  const char f = static_cast<char>(std::tolower(static_cast<unsigned char>(s[at])));
  const char r = s[at + 1];
  if (f < 'a' || f > 'h' || r < '1' || r > '8') return false;
  sq = {f - 'a', r - '1'};
  return true;
}

struct Draft {
  int line = 0;
  std::array<char, 64> board{};
  bool has_pieces = false;
  std::optional<Stipulation> stip;
  std::set<int> no_castling;
  int ep = -1;
  bool half_duplex = false, white_to_play = false, tries = false;
};

PopeyeProblem finish(const Draft& d) {
  if (!d.has_pieces) throw PopeyeError("problem without `Pieces`", d.line, 1);
  if (!d.stip) throw PopeyeError("problem without `Stipulation`", d.line, 1);
  PopeyeProblem p;
  p.line = d.line;
  p.stip = *d.stip;
  p.tries = d.tries;
  Color start = Color::White;
  if (p.stip.play == Play::Help) {
    if (d.white_to_play && !p.stip.half && !p.stip.series) {
      // Popeye: White starts a h#N, which makes it a h#(N-1).5.
      p.stip.moves -= 1;
      p.stip.half = true;
    }
    start = (p.stip.series || !p.stip.half) ? Color::Black : Color::White;
  }
  if (d.half_duplex) start = opposite(start);
  if (p.stip.play == Play::Help) p.start = start;
  std::string fen;
  for (int y = 7; y >= 0; --y) {
    int empty = 0;
    for (int x = 0; x < 8; ++x) {
      const char c = d.board[y * 8 + x];
      if (!c) {
        ++empty;
        continue;
      }
      if (empty) fen += std::to_string(empty);
      empty = 0;
      fen += c;
    }
    if (empty) fen += std::to_string(empty);
    if (y) fen += '/';
  }
  auto at = [&](int x, int y) { return d.board[y * 8 + x]; };
  auto may = [&](int kx, int rx, int y) {
    return !d.no_castling.count(y * 8 + kx) && !d.no_castling.count(y * 8 + rx);
  };
  std::string castle;
  if (at(4, 0) == 'K' && at(7, 0) == 'R' && may(4, 7, 0)) castle += 'K';
  if (at(4, 0) == 'K' && at(0, 0) == 'R' && may(4, 0, 0)) castle += 'Q';
  if (at(4, 7) == 'k' && at(7, 7) == 'r' && may(4, 7, 7)) castle += 'k';
  if (at(4, 7) == 'k' && at(0, 7) == 'r' && may(4, 0, 7)) castle += 'q';
  if (castle.empty()) castle = "-";
  std::string ep = "-";
  if (d.ep >= 0) ep = std::string(1, static_cast<char>('a' + d.ep % 8)) + static_cast<char>('1' + d.ep / 8);
  p.position = fen + (start == Color::White ? " w " : " b ") + castle + " " + ep + " 0 1";
  return p;
}

}  // namespace

std::vector<PopeyeProblem> read_popeye(const std::string& text) {
  const std::vector<Token> ts = tokens(text);
  std::vector<PopeyeProblem> out;
  std::optional<Draft> d;
  auto refuse = [](const Token& t, const std::string& what) { throw PopeyeError(what, t.line, t.column); };
  auto is_top = [&](const Token& t) { return !keyword(t.text, kTop).empty(); };
  size_t i = 0;
  while (i < ts.size()) {
    const Token& t = ts[i];
    const std::string k = keyword(t.text, kTop);
    if (k.empty()) refuse(t, "`" + t.text + "` is no Popeye keyword of the orthodox subset");
    if (std::find(kSupportedTop.begin(), kSupportedTop.end(), k) == kSupportedTop.end())
      refuse(t,
             "`" + k + "` is not supported (orthodox subset: Pieces, Stipulation, Option, Condition none)");
    ++i;
    if (k == "BeginProblem") {
      if (d) refuse(t, "`BeginProblem` inside a problem");
      d = Draft{};
      d->line = t.line;
      continue;
    }
    if (!d) refuse(t, "`" + k + "` before `BeginProblem`");
    if (k == "EndProblem" || k == "NextProblem") {
      out.push_back(finish(*d));
      if (k == "EndProblem") {
        d.reset();
        if (i < ts.size()) refuse(ts[i], "text after `EndProblem`");
      } else {
        d = Draft{};
        d->line = t.line;
      }
      continue;
    }
    if (k == "Remark" || k == "Title" || k == "Author" || k == "Origin" || k == "Award") {
      while (i < ts.size() && ts[i].line == t.line) ++i;  // the rest of the line
      continue;
    }
    if (k == "Stipulation") {
      if (i >= ts.size()) refuse(t, "`Stipulation` without one");
      auto s = parse_stipulation(ts[i].text);
      if (!s)
        refuse(ts[i],
               "stipulation `" + ts[i].text +
                   "` is not supported (#N =N h#N h#N.5 h=N s#N s=N r#N r=N ser-#N ser-h#N ser-s#N ...)");
      d->stip = s;
      ++i;
      continue;
    }
    if (k == "Condition") {
      if (i < ts.size() && !is_top(ts[i]))
        refuse(ts[i], "condition `" + ts[i].text + "` is not supported (orthodox problems only)");
      continue;
    }
    if (k == "Option") {
      while (i < ts.size() && !is_top(ts[i])) {
        const Token& o = ts[i++];
        const std::string ok = keyword(o.text, kOptions);
        if (ok.empty())
          refuse(o, "option `" + o.text +
                        "` is not supported (NoCastling, EnPassant, HalfDuplex, "
                        "WhiteToPlay, Try, NoBoard, NoThreat, NoShortVariations)");
        if (ok == "HalfDuplex") d->half_duplex = true;
        if (ok == "WhiteToPlay") d->white_to_play = true;
        if (ok == "Try") d->tries = true;
        if (ok == "NoCastling" || ok == "EnPassant") {
          std::vector<int> squares;
          while (i < ts.size() && !is_top(ts[i]) && keyword(ts[i].text, kOptions).empty()) {
            const Token& q = ts[i++];
            if (q.text.size() % 2) refuse(q, "`" + q.text + "` is no list of squares");
            for (size_t at = 0; at < q.text.size(); at += 2) {
              std::pair<int, int> sq;
              if (!square(q.text, at, sq)) refuse(q, "`" + q.text + "` is no list of squares");
              squares.push_back(sq.second * 8 + sq.first);
            }
          }
          if (ok == "NoCastling") {
            if (squares.empty()) refuse(o, "`NoCastling` needs squares");
            d->no_castling.insert(squares.begin(), squares.end());
          } else {
            // Popeye: the pawn move just played, departure, passed and arrival squares.
            if (squares.size() != 3)
              refuse(o,
                     "`EnPassant` needs the departure, passed and arrival squares of the double step just "
                     "played "
                     "(e.g. EnPassant d7 d6 d5)");
            d->ep = squares[1];
          }
        }
      }
      continue;
    }
    // Pieces: White|Black, then pieces with their squares.
    d->has_pieces = true;
    int colour = -1;
    while (i < ts.size() && !is_top(ts[i])) {
      const Token& p = ts[i++];
      const std::string c = keyword(p.text, {"White", "Black", "Neutral"});
      if (c == "White" || c == "Black") {
        colour = c == "White" ? 0 : 1;
        continue;
      }
      if (c == "Neutral") refuse(p, "neutral pieces are not supported (orthodox problems only)");
      if (colour < 0) refuse(p, "`" + p.text + "`: a colour (White or Black) comes first");
      const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(p.text[0])));
      static const std::string kLetters = "KQRBSP";
      if (kLetters.find(letter) == std::string::npos || p.text.size() < 3 || (p.text.size() - 1) % 2)
        refuse(p, "`" + p.text + "` is no orthodox piece with squares (K Q R B S P, e.g. Sd4 or Pf2g2h2)");
      for (size_t at = 1; at < p.text.size(); at += 2) {
        std::pair<int, int> sq;
        if (!square(p.text, at, sq)) refuse(p, "`" + p.text + "` is no orthodox piece with squares");
        char c = letter == 'S' ? 'N' : letter;
        if (colour) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        char& cell = d->board[sq.second * 8 + sq.first];
        if (cell) refuse(p, "two pieces on " + p.text.substr(at, 2));
        cell = c;
      }
    }
  }
  if (d) throw PopeyeError("input ends inside a problem (no `EndProblem`)", d->line, 1);
  return out;
}

}  // namespace arb::stip
