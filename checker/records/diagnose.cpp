// Why an action of a record is not legal, from the engine alone: the pseudo-legal actions
// (royal safety not tested), the pieces of the written type, the squares and pieces the
// engine places, the cards; and the legal actions nearest to it.
#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <new>
#include <optional>
#include <type_traits>

#include "arbiter/json.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/numbers.hpp"
#include "arbiter/text_fields.hpp"
#include "validate.hpp"
#include "validate_detail.hpp"

namespace arb::records::detail {

BoardView read_board(const std::string& pos) {
  BoardView b;
  const std::vector<std::string> f = field_strings(pos);
  if (f.empty()) return b;
  for (const auto& x : f) {
    if (x.rfind("whand:", 0) == 0) b.whand = x.substr(6);
    if (x.rfind("bhand:", 0) == 0) b.bhand = x.substr(6);
  }
  // A board without ranks (no `/`): a list of pieces on squares, `Ke1,Pa2,...` (the
  // unbounded grid's text).
  if (f[0].find('/') == std::string::npos) {
    std::string_view l = f[0];
    size_t p = 0;
    while (p < l.size()) {
      char c = l[p++];
      auto s = parse_square(l, p);
      if (!s) return b;
      b.sq[*s] = c;
      if (p < l.size() && l[p] == ',') ++p;
    }
    b.ok = true;
    return b;
  }
  std::string board = f[0];
  size_t br = board.find('[');
  if (br != std::string::npos) {
    size_t close = board.find(']', br);
    b.reserve = board.substr(br + 1, close == std::string::npos ? std::string::npos : close - br - 1);
    board = board.substr(0, br);
  }
  std::vector<std::string> ranks;
  size_t s = 0;
  for (size_t k = 0; k <= board.size(); ++k)
    if (k == board.size() || board[k] == '/') {
      ranks.push_back(board.substr(s, k - s));
      s = k + 1;
    }
  int h = static_cast<int>(ranks.size());
  for (int r = 0; r < h; ++r) {
    int x = 0, y = h - r;
    const std::string& row = ranks[r];
    for (size_t k = 0; k < row.size(); ++k) {
      if (is_digit(row[k])) {
        int n = 0;
        while (k < row.size() && is_digit(row[k])) n = n * 10 + (row[k++] - '0');
        --k;
        x += n;
      } else {
        b.sq[Coord{x, y}] = row[k];
        ++x;
      }
    }
  }
  if (f.size() > 2) b.castling = f[2];
  if (f.size() > 3 && f[3] != "-") {
    size_t p = 0;
    if (auto c = parse_square(f[3], p)) b.ep = *c;
  }
  b.ok = true;
  return b;
}

std::string action_san(Ctx& c, size_t i) {
  return san(c.e, c.legal[i], c.infos, c.proto.placement_p);
}

// The legal actions nearest to a pattern: the same piece type to the same square first,
// then the same destination, then the same piece type; at most five, as SAN.
std::vector<std::string> nearest(Ctx& c, const std::vector<StepPat>& pats, size_t first_bad,
                                 const std::vector<size_t>& candidates) {
  std::vector<std::pair<int, size_t>> scored;
  const StepPat* p = pats.empty() ? nullptr : &pats[std::min(first_bad, pats.size() - 1)];
  for (size_t i : candidates) {
    const auto& st = c.infos[i].steps;
    if (!p || first_bad >= st.size()) {
      scored.push_back({1000, i});
      continue;
    }
    const Step& s = st[first_bad];
    char want_piece = p->piece ? p->piece : (p->kind == StepKind::Move && !p->full ? 'P' : 0);
    bool same_piece = want_piece && s.piece == want_piece;
    bool same_to = (p->kind == StepKind::Move || p->kind == StepKind::Place || p->aimed) && s.to == p->to &&
                   p->castle == Castle::None;
    bool same_from = p->fx != INT32_MIN && p->fy != INT32_MIN && s.from.x == p->fx && s.from.y == p->fy;
    bool same_kind = s.kind == p->kind;
    int score = (same_to ? 0 : 4) + (same_piece || same_from ? 0 : 2) + (same_kind ? 0 : 1);
    if (score >= 6 && candidates.size() > 5) continue;
    int dist = std::max(std::abs(s.to.x - p->to.x), std::abs(s.to.y - p->to.y));
    scored.push_back({score * 1000 + std::min(dist, 999), i});
  }
  std::stable_sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t k = 0; k < scored.size() && out.size() < 5; ++k) out.push_back(action_san(c, scored[k].second));
  return out;
}

// Why no legal action matches: sets r.code, r.reason and r.alternatives.
void diagnose(Ctx& c, const std::vector<StepPat>& pats, Finding& r) {
  Engine& e = c.e;
  Color side = e.side_to_move();
  std::vector<size_t> all(c.legal.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (c.legal.empty()) {
    Status st = e.status();
    r.code = "game-over";
    r.reason = "the game is already over" + (st.reason.empty() ? std::string() : " (" + st.reason + ")");
    return;
  }
  // The first step that no legal action continues.
  size_t bad = 0;
  std::vector<size_t> prefix = all;
  for (size_t k = 0; k < pats.size(); ++k) {
    std::vector<size_t> next;
    for (size_t i : prefix)
      if (action_matches(pats, c.infos[i], k + 1, false)) next.push_back(i);
    if (next.empty()) {
      bad = k;
      break;
    }
    prefix.swap(next);
    bad = k + 1;
  }
  if (bad >= pats.size()) {  // every step continues some action: the turn stops early or goes on
    r.code = "step";
    r.reason = "the turn is incomplete or too long: no legal action has exactly these " +
               std::to_string(pats.size()) + " step(s)";
    r.alternatives = nearest(c, pats, 0, prefix);
    return;
  }
  if (bad > 0) {
    r.code = "step";
    r.reason = "step " + std::to_string(bad + 1) + " of the turn is not legal after the step(s) before it";
    r.alternatives = nearest(c, pats, bad, prefix);
    return;
  }
  const StepPat& p = pats[0];
  r.alternatives = nearest(c, pats, 0, all);
  BoardView b = read_board(e.position());
  // Cards (No Stress Chess).
  if (p.card) {
    bool any_with_card = false;
    for (const auto& info : c.infos)
      if (!info.steps.empty() && info.steps[0].card == p.card) any_with_card = true;
    std::vector<size_t> other;
    for (size_t i : all)
      if (action_matches(pats, c.infos[i], 1, true)) other.push_back(i);
    const std::string& hand = side == Color::White ? b.whand : b.bhand;
    if (!any_with_card && hand.find(p.card) == std::string::npos) {
      r.code = "card";
      r.reason = std::string("there is no ") + p.card + " card in " + side_name(side) + "'s hand" +
                 (hand.empty() ? "" : " (" + hand + ")");
      return;
    }
    if (!other.empty()) {
      r.code = "card";
      r.reason = std::string("the card ") + p.card + " does not allow it; it needs the card " +
                 std::string(1, c.infos[other[0]].steps[0].card);
      return;
    }
    if (!any_with_card) {
      r.code = "card";
      r.reason = std::string("the card ") + p.card + " allows no action here (it cannot be played)";
      return;
    }
    // The card's legal actions move other piece types than the one written.
    if (p.kind == StepKind::Move && p.castle == Castle::None) {
      const char mover = p.piece ? p.piece : p.full ? 0 : 'P';
      bool moves_it = false;
      std::string moved;
      for (const auto& info : c.infos) {
        if (info.steps.empty() || info.steps[0].card != p.card || info.steps[0].kind != StepKind::Move)
          continue;
        const char pc = info.steps[0].piece;
        if (!mover || pc == mover) moves_it = true;
        if (moved.find(pc) == std::string::npos) moved.push_back(pc);
      }
      if (!moves_it && !moved.empty()) {
        std::string names;
        for (char pc : moved) names += (names.empty() ? "" : ", ") + c.proto.name(pc);
        r.code = "card";
        r.reason = std::string("the card ") + p.card + " does not move a " + c.proto.name(mover) +
                   " (here it moves: " + names + ")";
        return;
      }
    }
  }
  const Status now = e.status();
  const RecordEngine& re = c.proto;
  // The engine's pseudo-legal actions: the movement rules obeyed, royal safety not tested.
  // What one of them allows and no legal action does leaves the royal piece attacked.
  std::vector<Action> pseudo;
  e.pseudo_legal_actions(pseudo);
  std::vector<ActionInfo> pinfo(pseudo.size());
  for (size_t i = 0; i < pseudo.size(); ++i) pinfo[i] = e.describe(pseudo[i]);
  auto is_royal = [&](char letter) { return re.royals.find(upper(letter)) != std::string::npos; };
  // Explains a pseudo-legal action that is not legal.
  auto attacked = [&](const ActionInfo& a) {
    const Step& s = a.steps[0];
    if (re.royals_apart && is_royal(s.piece)) {
      for (const auto& [sq, pc] : b.sq)
        if (is_royal(pc) && !owned_by(pc, side) &&
            std::max(std::abs(sq.x - s.to.x), std::abs(sq.y - s.to.y)) <= 1) {
          r.code = "kings-adjacent";
          r.reason = "the royal pieces may not stand adjacent (" + re.name(s.piece) + " on " +
                     square_name(s.to) + ", the enemy's on " + square_name(sq) + ")";
          return;
        }
    }
    r.code = "king-in-check";
    std::string why;
    if (now.in_check)
      why = (re.royals.empty() ? std::string("the royal piece") : "the " + re.name(re.royals[0])) +
            " is in check and this does not parry it";
    else if (s.kind == StepKind::Move && is_royal(s.piece))
      why = "the " + re.name(s.piece) + " would stand attacked on " + square_name(s.to);
    else if (s.kind == StepKind::Move)
      why = "the " + re.name(s.piece) + " on " + square_name(s.from) + " is pinned";
    r.reason = "it leaves the royal piece attacked" + (why.empty() ? "" : " (" + why + ")");
  };
  auto pseudo_match = [&]() -> const ActionInfo* {
    for (const ActionInfo& a : pinfo)
      if (a.steps.size() == pats.size() && action_matches(pats, a, pats.size(), false)) return &a;
    return nullptr;
  };
  switch (p.kind) {
    case StepKind::Place: {
      char own = side == Color::White ? p.piece : static_cast<char>(std::tolower(p.piece));
      if (b.ok && b.at(p.to)) {
        r.code = "occupied";
        r.reason = "placement onto " + square_name(p.to) + ", which is occupied";
        return;
      }
      if (b.ok && !b.reserve.empty() && b.reserve.find(own) == std::string::npos) {
        r.code = "not-in-reserve";
        r.reason = "no " + re.name(p.piece) + " left in " + side_name(side) + "'s reserve";
        return;
      }
      if (const ActionInfo* a = pseudo_match()) {
        attacked(*a);
        return;
      }
      // Where the engine places this piece, and which pieces it places at all.
      int lo = INT32_MAX, hi = INT32_MIN;
      std::string placed;
      for (const ActionInfo& a : pinfo) {
        if (a.steps.empty() || a.steps[0].kind != StepKind::Place) continue;
        const Step& st = a.steps[0];
        if (placed.find(st.piece) == std::string::npos) placed.push_back(st.piece);
        if (st.piece != p.piece) continue;
        lo = std::min(lo, st.to.y);
        hi = std::max(hi, st.to.y);
      }
      if (lo <= hi) {
        r.code = "placement-outside-half";
        r.reason = "a " + re.name(p.piece) + " may not be placed on " + square_name(p.to) + " (" +
                   side_name(side) + " places it on ranks " + std::to_string(lo) + "-" + std::to_string(hi) +
                   ")";
        return;
      }
      if (!placed.empty() && std::all_of(placed.begin(), placed.end(), is_royal)) {
        r.code = "king-first";
        r.reason = "the " + re.name(placed[0]) + " must be placed first";
        return;
      }
      r.code = "illegal";
      r.reason = "no placement of a " + re.name(p.piece) + " is allowed now";
      return;
    }
    case StepKind::Move:
      break;
    default:
      if (const ActionInfo* a = pseudo_match()) {
        attacked(*a);
        return;
      }
      r.code = "illegal";
      r.reason = "this action is not legal here";
      return;
  }
  if (p.castle != Castle::None) {
    bool ks = p.castle == Castle::KingSide;
    std::string rights = b.castling;
    bool has = false;
    for (char ch : rights) {
      if (ch == '-') continue;
      if (owned_by(ch, side)) {
        char u = upper(ch);
        if (u == (ks ? 'K' : 'Q') || (u >= 'A' && u <= 'H') || (u >= 'I' && u <= 'P')) has = true;
      }
    }
    r.code = "castling";
    if (!b.ok || rights.empty() || !has)
      r.reason = std::string(ks ? "O-O" : "O-O-O") + ": " + side_name(side) + " has no castling right for it";
    else if (now.in_check)
      r.reason = "castling out of check is not allowed";
    else
      r.reason =
          "castling is not allowed: the path is blocked or the king passes or lands on an attacked square";
    return;
  }
  if (!b.ok) {
    r.code = "illegal";
    r.reason = "no legal action matches";
    return;
  }
  char piece = p.piece ? p.piece : 'P';
  std::string name = re.name(piece);
  // Own pieces of that type that the text allows as the mover.
  std::vector<Coord> cands;
  bool any_of_type = false;
  for (const auto& [sq, pc] : b.sq) {
    if (!owned_by(pc, side)) continue;
    if (p.full) {
      if (sq.x == p.fx && sq.y == p.fy && (!p.piece || upper(pc) == p.piece)) cands.push_back(sq);
      if (upper(pc) == piece) any_of_type = true;
      continue;
    }
    if (upper(pc) != piece) continue;
    any_of_type = true;
    if (p.fx != INT32_MIN && sq.x != p.fx) continue;
    if (p.fy != INT32_MIN && sq.y != p.fy) continue;
    cands.push_back(sq);
  }
  if (cands.empty()) {
    r.code = "no-piece";
    if (p.full) {
      Coord f{p.fx, p.fy};
      char there = b.at(f);
      r.reason = there == 0 ? "there is no piece on " + square_name(f)
                 : owned_by(there, side)
                     ? square_name(f) + " holds a " + re.name(there) + ", not a " + name
                     : "the piece on " + square_name(f) + " is not " + side_name(side) + "'s";
    } else if (!any_of_type) {
      r.reason = side_name(side) + " has no " + name + " on the board";
    } else {
      std::string where =
          p.fx != INT32_MIN ? std::string("on the ") + static_cast<char>('a' + p.fx) + "-file" : "";
      if (p.fy != INT32_MIN) where += (where.empty() ? "on rank " : " and rank ") + std::to_string(p.fy);
      r.reason = side_name(side) + " has no " + name + " " + where;
    }
    return;
  }
  if (p.full && !p.piece) name = re.name(b.at(cands[0]));
  char target = b.at(p.to);
  if (target && owned_by(target, side)) {
    r.code = "occupied";
    r.reason = square_name(p.to) + " is occupied by an own piece";
    return;
  }
  // A legal action moving one of these pieces to that square, with another promotion.
  for (size_t i : all) {
    const auto& st = c.infos[i].steps;
    if (st.empty() || st[0].kind != StepKind::Move || st[0].to != p.to || st[0].castle != Castle::None)
      continue;
    if (std::find(cands.begin(), cands.end(), st[0].from) != cands.end() && st[0].promotion != p.promo) {
      r.code = "promotion";
      r.reason = p.promo == 0 ? "the pawn must promote: name the piece (=Q, =R, ...)"
                 : st[0].promotion == 0
                     ? std::string("no promotion on ") + square_name(p.to)
                     : std::string("a pawn cannot promote to ") + re.name(p.promo) + " here";
      return;
    }
  }
  // The movement allows it, royal safety does not.
  if (const ActionInfo* a = pseudo_match()) {
    attacked(*a);
    return;
  }
  for (const ActionInfo& a : pinfo) {
    if (a.steps.empty()) continue;
    const Step& st = a.steps[0];
    if (st.kind == StepKind::Move && st.castle == Castle::None && st.to == p.to &&
        std::find(cands.begin(), cands.end(), st.from) != cands.end()) {
      attacked(a);
      return;
    }
  }
  // `move-condition non-capture adjacent-to any`: the rule the destination breaks.
  if (re.adjacency_rule && !target) {
    bool adjacent = false;
    for (const auto& [sq, pc] : b.sq) {
      if (cands.size() == 1 && sq == cands[0]) continue;
      if (sq != p.to && std::max(std::abs(sq.x - p.to.x), std::abs(sq.y - p.to.y)) == 1) adjacent = true;
    }
    if (!adjacent) {
      r.code = "adjacency";
      r.reason = "a non-capturing move must end next to another piece";
      return;
    }
  }
  r.code = "no-piece-reaches";
  if (p.full)
    r.reason = "the " + name + " on " + square_name(cands[0]) + " cannot reach " + square_name(p.to);
  else
    r.reason = "no " + name + (cands.size() > 1 ? "" : " (" + square_name(cands[0]) + ")") + " can reach " +
               square_name(p.to);
}

}  // namespace arb::records::detail
