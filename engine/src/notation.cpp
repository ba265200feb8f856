#include "arbiter/notation.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <type_traits>

#include "arbiter/action_index.hpp"

namespace arb {

std::string square_name(Coord c) {
  if (c.x >= 0 && c.x <= 25 && c.y >= 1)
    return std::string(1, static_cast<char>('a' + c.x)) + std::to_string(c.y);
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}

namespace {
std::optional<int32_t> parse_signed(std::string_view s, size_t& pos) {
  size_t p = pos;
  bool neg = false;
  if (p < s.size() && (s[p] == '-' || s[p] == '+')) neg = s[p++] == '-';
  if (p >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p]))) return std::nullopt;
  // Every int32 coordinate: the engines move pieces anywhere in that range, so every
  // square they print reads back. The magnitude saturates instead of wrapping.
  int64_t v = 0;
  while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) {
    v = std::min<int64_t>(v * 10 + (s[p++] - '0'), int64_t{1} << 32);
  }
  v = neg ? -v : v;
  if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
  pos = p;
  return static_cast<int32_t>(v);
}
}  // namespace

std::optional<Coord> parse_square(std::string_view s, size_t& pos) {
  size_t p = pos;
  if (p < s.size() && s[p] == '(') {
    ++p;
    auto x = parse_signed(s, p);
    if (!x || p >= s.size() || s[p] != ',') return std::nullopt;
    ++p;
    auto y = parse_signed(s, p);
    if (!y || p >= s.size() || s[p] != ')') return std::nullopt;
    pos = p + 1;
    return Coord{*x, *y};
  }
  if (p < s.size() && s[p] >= 'a' && s[p] <= 'z') {
    int32_t x = s[p] - 'a';
    ++p;
    if (p >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p])) || s[p] == '0') return std::nullopt;
    auto y = parse_signed(s, p);
    if (!y) return std::nullopt;
    pos = p;
    return Coord{x, *y};
  }
  return std::nullopt;
}

namespace {

// A removal aimed at another square (a strike), written like a move with `^`; a removal
// around the acting piece itself (a whirlwind) is written `W*d4`.
bool aimed_removal(const Step& s) {
  return s.kind == StepKind::Remove && s.to != s.from;
}

std::string card_prefix(const Step& s) {
  return s.card ? std::string(1, s.card) + ":" : std::string();
}

// The text of a step that is not a move, the same in every notation (placements in the
// `P@e1` form unless `placement_p`), or "" for a move.
std::string non_move_text(const Step& s, bool placement_p) {
  switch (s.kind) {
    case StepKind::Pass:
      return card_prefix(s) + (s.label.empty() ? std::string("pass") : s.label);
    case StepKind::Remove:
      if (s.to != s.from) break;  // aimed at one square: written as a move (`c1^a3`)
      return card_prefix(s) + std::string(1, s.piece ? s.piece : 'W') + "*" + square_name(s.from);
    case StepKind::Place:
      return card_prefix(s) + (placement_p ? "p" + std::string(1, s.piece) + square_name(s.to)
                                           : std::string(1, s.piece) + "@" + square_name(s.to));
    case StepKind::Chance:
      return "draw:" + s.drawn;
    case StepKind::Wall:  // as Fairy-Stockfish writes it, in every notation
      return square_name(s.from) + square_name(s.to);
    case StepKind::Move:
      break;
  }
  return "";
}

std::string step_uci(const Step& s, bool chess960) {
  if (aimed_removal(s)) return card_prefix(s) + square_name(s.from) + "^" + square_name(s.to);
  if (s.kind != StepKind::Move) return non_move_text(s, false);
  std::string out = card_prefix(s) + square_name(s.from);
  if (s.castle != Castle::None && !chess960)
    out += square_name(s.king_to);
  else
    out += square_name(s.to);
  if (s.promotion) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s.promotion))));
  // An en-passant capture by a piece other than the pawn P names its victim (`d5e6xe5`):
  // a Chess 2 nemesis pawn may also step quietly onto the same square (RULINGS 4.6).
  if (s.piece != 'P' && s.castle == Castle::None && s.removed.size() == 1 && s.removed[0].at != s.to &&
      s.removed[0].at.x == s.to.x && s.removed[0].at.y == s.from.y)
    out += "x" + square_name(s.removed[0].at);
  return out;
}

// SAN of one step without check marks. `others` are the same step of the other legal
// actions that agree with this one on every step before it, for disambiguation.
std::string step_san(const Step& s, const std::vector<const Step*>* others, bool placement_p) {
  if (s.kind != StepKind::Move && !aimed_removal(s)) return non_move_text(s, placement_p);
  const std::string card = card_prefix(s);
  if (s.castle == Castle::KingSide) return card + "O-O";
  if (s.castle == Castle::QueenSide) return card + "O-O-O";
  std::string out = card;
  // Disambiguation, for every piece, pawns included (a pawn that moves diagonally, as a
  // Berolina pawn does, can share a target with another): the file, else the rank, else
  // the whole square of the origin, when another action of the same piece letter (and card)
  // reaches the same square. A pawn's capture always names its file, as SAN does.
  bool ambiguous = false, same_file = false, same_rank = false;
  if (others)
    for (const Step* o : *others) {
      const Step& t = *o;
      if (t.kind != s.kind || t.castle != Castle::None || t.piece != s.piece || t.to != s.to ||
          t.from == s.from || t.card != s.card)
        continue;
      ambiguous = true;
      if (t.from.x == s.from.x) same_file = true;
      if (t.from.y == s.from.y) same_rank = true;
    }
  const std::string from = square_name(s.from);
  const bool algebraic = from[0] != '(';
  const bool pawn = s.piece == 'P';
  if (!pawn) out.push_back(s.piece);
  if (pawn && s.capture() && s.kind == StepKind::Move) {
    out += !algebraic || (ambiguous && same_file) ? from : from.substr(0, 1);
  } else if (ambiguous) {
    if (!algebraic)
      out += from;
    else if (!same_file)
      out += from.substr(0, 1);
    else if (!same_rank)
      out += from.substr(1);
    else
      out += from;
  }
  if (aimed_removal(s))
    out += "^";
  else if (s.capture())
    out += "x";
  out += square_name(s.to);
  if (s.promotion) out += std::string("=") + s.promotion;
  return out;
}

bool same_step(const Step& a, const Step& b) {
  return a.kind == b.kind && a.piece == b.piece && a.from == b.from && a.to == b.to &&
         a.promotion == b.promotion && a.castle == b.castle && a.card == b.card && a.drawn == b.drawn &&
         a.label == b.label && a.phase == b.phase;
}

// SAN of an action: every step disambiguated against the other legal actions that share
// the steps before it (Chess 2: two warrior kings that could both make the king-turn).
std::string san_core(const ActionInfo& info, const std::vector<ActionInfo>& others, bool placement_p) {
  std::string out;
  std::vector<const ActionInfo*> prefix;  // the actions agreeing on steps [0, i)
  prefix.reserve(others.size());
  for (const ActionInfo& o : others) prefix.push_back(&o);
  std::vector<const Step*> alts;
  for (size_t i = 0; i < info.steps.size(); ++i) {
    if (i) {
      out += ",";
      size_t kept = 0;
      for (const ActionInfo* o : prefix)
        if (o->steps.size() > i && same_step(o->steps[i - 1], info.steps[i - 1])) prefix[kept++] = o;
      prefix.resize(kept);
    }
    alts.clear();
    for (const ActionInfo* o : prefix)
      if (o->steps.size() > i) alts.push_back(&o->steps[i]);
    out += step_san(info.steps[i], &alts, placement_p);
  }
  return out;
}

std::vector<ActionInfo> infos_of(Engine& e, const std::vector<Action>& actions) {
  std::vector<ActionInfo> infos;
  infos.reserve(actions.size());
  for (const Action& a : actions) infos.push_back(e.describe(a));
  return infos;
}

}  // namespace

std::string uci(const ActionInfo& info, bool chess960) {
  std::string out;
  for (size_t i = 0; i < info.steps.size(); ++i) {
    if (i) out += ",";
    out += step_uci(info.steps[i], chess960);
  }
  return out;
}

std::string san(Engine& e, const Action& a, bool placement_p) {
  std::vector<Action> legal;
  e.legal_actions(legal);
  return san(e, a, infos_of(e, legal), placement_p);
}

std::string san(Engine& e, const Action& a, const std::vector<ActionInfo>& others, bool placement_p) {
  std::string out = san_core(e.describe(a), others, placement_p);
  e.apply(a);
  Status st = e.status();
  e.undo();
  // `#` marks checkmate alone, as PGN readers take it; a win by another rule (midline
  // invasion, a captured king, the opponent left without a move) carries no `#`, and `+`
  // marks a check. The record validator reads the marks the same way.
  if (st.end == Termination::Checkmate)
    out += "#";
  else if (st.in_check)
    out += "+";
  return out;
}

std::string action_text(Engine& e, const Action& a, Notation n) {
  if (n == Notation::San) return san(e, a);
  return uci(e.describe(a), e.chess960());
}

std::optional<Action> parse_action(Engine& e, std::string_view text) {
  std::vector<Action> legal;
  e.legal_actions(legal);
  return parse_action(e, text, legal, infos_of(e, legal));
}

namespace {

// The text without its check marks and annotations, as the canonical forms are compared.
std::string_view unmarked(std::string_view text) {
  return text.substr(0, text.find_last_not_of("+#!? ") + 1);
}

// parse_action after the engine's own canonical form found no action: the other form of a
// castling step, then every step as SAN or long algebraic says it.
std::optional<Action> parse_other_forms(Engine& e, std::string_view text, const std::vector<Action>& legal,
                                        const std::vector<ActionInfo>& infos) {
  // Only a castling step is written differently in the other form (step_uci): this pass
  // writes those alone (a text is read against thousands of actions in amazons).
  const std::string_view want = unmarked(text);
  for (size_t i = 0; i < legal.size(); ++i)
    if (std::any_of(infos[i].steps.begin(), infos[i].steps.end(),
                    [](const Step& st) { return st.castle != Castle::None; }) &&
        uci(infos[i], !e.chess960()) == want)
      return legal[i];
  // Then every step as SAN or long algebraic says it: exactly one legal action must match.
  ActionPattern pat;
  if (!parse_action_pattern(text, pat)) return std::nullopt;
  std::optional<Action> found;
  for (size_t i = 0; i < legal.size(); ++i) {
    const auto& st = infos[i].steps;
    if (st.size() != pat.steps.size()) continue;
    bool ok = true;
    for (size_t k = 0; k < st.size() && ok; ++k) ok = step_matches(pat.steps[k], st[k]);
    // `e.p.` names an en-passant capture: a move that removes a piece off its destination.
    if (ok && pat.en_passant)
      ok = st[0].kind == StepKind::Move && st[0].removed.size() == 1 && st[0].removed[0].at != st[0].to;
    if (!ok) continue;
    if (found) return std::nullopt;  // ambiguous
    found = legal[i];
  }
  return found;
}

}  // namespace

std::optional<Action> parse_action(Engine& e, std::string_view text, const std::vector<Action>& legal,
                                   const std::vector<ActionInfo>& infos) {
  // Exact canonical forms first. The engine's own form first: in Chess960 the standard
  // form of a castling move can be the text of an ordinary king move (king b1, rook a1:
  // `b1c1`).
  const std::string_view want = unmarked(text);
  for (size_t i = 0; i < legal.size(); ++i)
    if (uci(infos[i], e.chess960()) == want) return legal[i];
  return parse_other_forms(e, text, legal, infos);
}

ActionTextIndex::ActionTextIndex(const Engine& e, const std::vector<ActionInfo>& infos) {
  sorted_.reserve(infos.size());
  for (size_t i = 0; i < infos.size(); ++i) sorted_.emplace_back(uci(infos[i], e.chess960()), i);
  std::sort(sorted_.begin(), sorted_.end());
}

std::optional<size_t> ActionTextIndex::find(std::string_view text) const {
  auto it = std::lower_bound(
      sorted_.begin(), sorted_.end(), text,
      [](const std::pair<std::string, size_t>& x, std::string_view t) { return x.first < t; });
  if (it == sorted_.end() || it->first != text) return std::nullopt;
  return it->second;  // the first of equal texts: the smallest index
}

std::optional<Action> parse_action(Engine& e, std::string_view text, const std::vector<Action>& legal,
                                   const std::vector<ActionInfo>& infos, const ActionTextIndex& index) {
  if (auto i = index.find(unmarked(text))) return legal[*i];
  return parse_other_forms(e, text, legal, infos);
}

// ---------------------------------------------------------------------------------------
// Patterns: what an action's text says.

namespace {
bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
}  // namespace

bool parse_step_pattern(std::string_view s, StepPattern& p) {
  p = StepPattern{};
  if (s.size() >= 2 && is_upper(s[0]) && s[1] == ':') {
    p.card = s[0];
    s.remove_prefix(2);
  }
  if (s.empty()) return false;
  if (s.substr(0, 5) == "draw:") {
    p.kind = StepKind::Chance;
    p.drawn = std::string(s.substr(5));
    return true;
  }
  if (s == "O-O" || s == "0-0") return p.castle = Castle::KingSide, true;
  if (s == "O-O-O" || s == "0-0-0") return p.castle = Castle::QueenSide, true;
  auto square_to_end = [&](size_t pos, Coord& out) {
    auto c = parse_square(s, pos);
    if (!c || pos != s.size()) return false;
    out = *c;
    return true;
  };
  if (s.size() >= 3 && s[0] == 'p' && is_upper(s[1])) {
    p.kind = StepKind::Place;
    p.piece = s[1];
    return square_to_end(2, p.to);
  }
  if (s.size() >= 3 && is_upper(s[0]) && (s[1] == '@' || s[1] == '*')) {
    p.kind = s[1] == '@' ? StepKind::Place : StepKind::Remove;
    p.piece = s[0];
    return square_to_end(2, p.to);
  }
  // A pass: `pass` (a lost turn), or the name of the turn phase that left the board as it
  // was, from the language's phase words (lang/README.md, "Turn structure": `redraw`, the hand
  // exchanged). Any other word is no step: a record's stray word stays unreadable.
  if (s == "pass" || s == "redraw") {
    p.kind = StepKind::Pass;
    p.label = s == "pass" ? std::string() : std::string(s);
    return true;
  }
  size_t pos = 0;
  if (is_upper(s[0])) {
    p.piece = s[0];
    pos = 1;
  }
  Coord squares[2];  // at most from and to: no allocation per action
  size_t nsq = 0;
  while (pos < s.size()) {
    char c = s[pos];
    if (c == '(' || is_lower(c)) {
      size_t q = pos;
      if (auto sq = parse_square(s, q)) {
        if (nsq == 2) return false;
        squares[nsq++] = *sq;
        pos = q;
        continue;
      }
      // The canonical form's victim of an en-passant capture by a piece other than P
      // (`d5e6xe5`, step_uci): `x` and a square after the destination.
      if (c == 'x' && nsq == 2 && !p.victim) {
        size_t v = pos + 1;
        if (auto sq = parse_square(s, v)) {
          p.victim = *sq;
          p.capture = true;
          pos = v;
          continue;
        }
      }
      if (c == '(') return false;
      if (c == 'x') {
        p.capture = true;
        ++pos;
      } else if (nsq != 0 && pos + 1 == s.size()) {
        p.promo = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ++pos;
      } else {
        if (nsq != 0 || p.fx != INT32_MIN) return false;
        p.fx = c - 'a';
        ++pos;
      }
    } else if (is_digit(c)) {
      if (nsq != 0 || p.fy != INT32_MIN) return false;
      int32_t v = 0;
      while (pos < s.size() && is_digit(s[pos]) && v < 100000) v = v * 10 + (s[pos++] - '0');
      p.fy = v;
    } else if (c == ':' || c == '-') {
      if (c == ':') p.capture = true;
      ++pos;
    } else if (c == '^') {
      p.kind = StepKind::Remove;
      p.aimed = true;
      ++pos;
    } else if (c == '=') {
      if (pos + 1 >= s.size() || !is_upper(s[pos + 1]) || nsq == 0) return false;
      p.promo = s[pos + 1];
      pos += 2;
    } else if (is_upper(c) && nsq != 0 && pos + 1 == s.size()) {
      p.promo = c;
      ++pos;
    } else {
      return false;
    }
  }
  if (nsq == 1) {
    p.to = squares[0];
  } else if (nsq == 2) {
    if (p.fx != INT32_MIN || p.fy != INT32_MIN) return false;
    p.full = true;
    p.fx = squares[0].x;
    p.fy = squares[0].y;
    p.to = squares[1];
  } else {
    return false;
  }
  if (p.promo && p.aimed) return false;
  return true;
}

bool parse_action_pattern(std::string_view t, ActionPattern& out) {
  out.steps.clear();
  out.en_passant = false;
  // Marks and annotations at the end, in any order, with or without a blank before them;
  // an `e.p.` (or `ep`) suffix among them.
  for (;;) {
    while (!t.empty() &&
           (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?' || t.back() == ' '))
      t.remove_suffix(1);
    if (t.size() > 4 && t.substr(t.size() - 4) == "e.p.") {
      t.remove_suffix(4);
    } else if (t.size() > 3 && t.substr(t.size() - 3) == " ep") {
      t.remove_suffix(3);
    } else if (t.size() > 2 && t.substr(t.size() - 2) == "ep" && is_digit(t[t.size() - 3])) {
      t.remove_suffix(2);
    } else {
      break;
    }
    out.en_passant = true;
  }
  if (t.empty()) return false;
  size_t start = 0;
  int paren = 0;
  for (size_t i = 0; i <= t.size(); ++i) {
    if (i < t.size() && t[i] == '(') ++paren;
    if (i < t.size() && t[i] == ')') --paren;
    if (i == t.size() || (t[i] == ',' && paren == 0)) {
      out.steps.emplace_back();
      if (!parse_step_pattern(t.substr(start, i - start), out.steps.back())) return false;
      start = i + 1;
    }
  }
  return !out.steps.empty();
}

namespace {
template <class S>
bool step_matches_t(const StepPattern& p, const S& st, bool ignore_card) {
  if (p.card && !ignore_card && st.card != p.card) return false;
  // A placed wall is written as a move from the mover's square (`e4e5`): nothing else.
  if (st.kind == StepKind::Wall)
    return p.kind == StepKind::Move && p.full && !p.piece && !p.promo && p.castle == Castle::None &&
           st.from.x == p.fx && st.from.y == p.fy && st.to == p.to;
  switch (p.kind) {
    case StepKind::Wall:  // no text reads as a wall pattern: a wall is written as a move
      return false;
    case StepKind::Pass:
      if constexpr (std::is_same_v<S, Step>)
        return st.kind == StepKind::Pass && st.label == p.label;
      else
        return st.kind == StepKind::Pass;
    case StepKind::Chance:
      if constexpr (std::is_same_v<S, Step>)
        return st.kind == StepKind::Chance && st.drawn == p.drawn;
      else
        return st.kind == StepKind::Chance;
    case StepKind::Place:
      return st.kind == StepKind::Place && st.piece == p.piece && st.to == p.to;
    case StepKind::Remove:
      if (p.aimed) break;
      return st.kind == StepKind::Remove && st.from == st.to && st.from == p.to &&
             (st.piece == p.piece || st.piece == 0);
    case StepKind::Move:
      break;
  }
  if (p.castle != Castle::None) return st.kind == StepKind::Move && st.castle == p.castle;
  if (st.kind != p.kind || (p.aimed && st.from == st.to)) return false;
  if (st.castle != Castle::None)
    return p.full && !p.promo && st.from.x == p.fx && st.from.y == p.fy &&
           (p.to == st.king_to || p.to == st.to) && (!p.piece || p.piece == st.piece);
  if (p.piece) {
    if (st.piece != p.piece) return false;
  } else if (!p.full && st.piece != 'P') {
    return false;
  }
  if (p.fx != INT32_MIN && st.from.x != p.fx) return false;
  if (p.fy != INT32_MIN && st.from.y != p.fy) return false;
  if (p.victim) {
    // A brief does not list what a step removes: describe() settles it (only a capture
    // can have a victim).
    if constexpr (std::is_same_v<S, Step>) {
      if (st.removed.size() != 1 || st.removed[0].at != *p.victim) return false;
    } else if (!st.capture) {
      return false;
    }
  }
  return st.to == p.to && st.promotion == p.promo;
}
}  // namespace

bool step_matches(const StepPattern& p, const Step& s, bool ignore_card) {
  return step_matches_t(p, s, ignore_card);
}
bool step_matches(const StepPattern& p, const StepBrief& s, bool ignore_card) {
  return step_matches_t(p, s, ignore_card);
}

}  // namespace arb
