#include "arbiter/notation.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

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

std::string card_prefix(const Step& s) {
  return s.card ? std::string(1, s.card) + ":" : std::string();
}

// The text of a step that is not a move, the same in every notation (placements in the
// `P@e1` form unless `placement_p`), or "" for a move.
std::string non_move_text(const Step& s, bool placement_p) {
  switch (s.kind) {
    case StepKind::Pass:
      return card_prefix(s) + "pass";
    case StepKind::Redraw:
      return "redraw";
    case StepKind::Whirlwind:
      return card_prefix(s) + std::string(1, s.piece ? s.piece : 'W') + "*" + square_name(s.from);
    case StepKind::Place:
      return card_prefix(s) + (placement_p ? "p" + std::string(1, s.piece) + square_name(s.to)
                                           : std::string(1, s.piece) + "@" + square_name(s.to));
    case StepKind::Draw:
      return "draw:" + s.drawn;
    case StepKind::Strike:
    case StepKind::Move:
      break;
  }
  return "";
}

std::string step_uci(const Step& s, bool chess960) {
  if (s.kind == StepKind::Strike) return card_prefix(s) + square_name(s.from) + "^" + square_name(s.to);
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

// SAN of one step without check marks. `others` are the other legal actions' infos,
// for disambiguation (only consulted for single-step actions).
std::string step_san(const Step& s, const std::vector<ActionInfo>* others, bool placement_p) {
  if (s.kind != StepKind::Move && s.kind != StepKind::Strike) return non_move_text(s, placement_p);
  const std::string card = card_prefix(s);
  if (s.castle == Castle::KingSide) return card + "O-O";
  if (s.castle == Castle::QueenSide) return card + "O-O-O";
  std::string out = card;
  if (s.piece == 'P') {
    if (s.capture())
      out += square_name(s.from).substr(
                 0, s.from.x >= 0 && s.from.x <= 25 && s.from.y >= 1 ? 1 : std::string::npos) +
             "x";
  } else {
    out.push_back(s.piece);
    if (others) {
      bool ambiguous = false, same_file = false, same_rank = false;
      for (const ActionInfo& o : *others) {
        if (o.steps.empty()) continue;
        const Step& t = o.steps[0];
        if (t.kind != s.kind || t.castle != Castle::None || t.piece != s.piece || t.to != s.to ||
            t.from == s.from || t.card != s.card)
          continue;
        ambiguous = true;
        if (t.from.x == s.from.x) same_file = true;
        if (t.from.y == s.from.y) same_rank = true;
      }
      if (ambiguous) {
        std::string from = square_name(s.from);
        bool algebraic = from[0] != '(';
        if (!algebraic)
          out += from;
        else if (!same_file)
          out += from.substr(0, 1);
        else if (!same_rank)
          out += from.substr(1);
        else
          out += from;
      }
    }
    if (s.kind == StepKind::Strike)
      out += "^";
    else if (s.capture())
      out += "x";
  }
  out += square_name(s.to);
  if (s.promotion) out += std::string("=") + s.promotion;
  return out;
}

std::string san_core(const ActionInfo& info, const std::vector<ActionInfo>* others, bool placement_p) {
  std::string out;
  for (size_t i = 0; i < info.steps.size(); ++i) {
    if (i) out += ",";
    out += step_san(info.steps[i], i == 0 ? others : nullptr, placement_p);
  }
  return out;
}

std::vector<ActionInfo> infos_of(Engine& e, const std::vector<Action>& actions) {
  std::vector<ActionInfo> infos;
  infos.reserve(actions.size());
  for (const Action& a : actions) infos.push_back(e.describe(a));
  return infos;
}

std::string strip_marks(std::string_view t) {
  std::string s(t);
  while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?'))
    s.pop_back();
  if (s == "0-0") s = "O-O";
  if (s == "0-0-0") s = "O-O-O";
  return s;
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
  std::vector<ActionInfo> others = infos_of(e, legal);
  std::string out = san_core(e.describe(a), &others, placement_p);
  const Color mover = e.side_to_move();
  e.apply(a);
  Status st = e.status();
  e.undo();
  // `#` marks an action that wins the game, by checkmate or by any other win condition
  // (midline invasion, a captured king, the opponent left without a move); `+` a check.
  const Result win = mover == Color::White ? Result::WhiteWins : Result::BlackWins;
  if (st.result == win)
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
  std::string want = strip_marks(text);
  if (want.empty()) return std::nullopt;
  std::vector<Action> legal;
  e.legal_actions(legal);
  std::vector<ActionInfo> infos = infos_of(e, legal);
  // Exact canonical forms first, then SAN.
  // The engine's own form first: in Chess960 the standard form of a castling move can be
  // the text of an ordinary king move (king b1, rook a1: `b1c1`).
  for (size_t i = 0; i < legal.size(); ++i)
    if (uci(infos[i], e.chess960()) == want) return legal[i];
  for (size_t i = 0; i < legal.size(); ++i)
    if (uci(infos[i], true) == want || uci(infos[i], false) == want) return legal[i];
  for (size_t i = 0; i < legal.size(); ++i) {
    if (san_core(infos[i], &infos, false) == want || san_core(infos[i], &infos, true) == want)
      return legal[i];
  }
  // SAN written with more disambiguation than needed (e.g. Ngf3 where Nf3 suffices).
  for (size_t i = 0; i < legal.size(); ++i) {
    const auto& st = infos[i].steps;
    if (st.size() != 1 || st[0].kind != StepKind::Move || st[0].piece == 'P') continue;
    std::string full = std::string(1, st[0].piece) + square_name(st[0].from) + (st[0].capture() ? "x" : "") +
                       square_name(st[0].to) + (st[0].promotion ? std::string("=") + st[0].promotion : "");
    std::string file_only = std::string(1, st[0].piece) + square_name(st[0].from).substr(0, 1) +
                            (st[0].capture() ? "x" : "") + square_name(st[0].to);
    std::string rank_only = std::string(1, st[0].piece) + square_name(st[0].from).substr(1) +
                            (st[0].capture() ? "x" : "") + square_name(st[0].to);
    if (want == full || want == file_only || want == rank_only) return legal[i];
  }
  return std::nullopt;
}

}  // namespace arb
