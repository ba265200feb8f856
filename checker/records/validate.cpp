// Kinds of fault (GameReport::kind):
//   syntax            the text is not PGN (malformed tag, unclosed comment or variation, ...)
//   unknown-variant   the Variant tag names no bundled ruleset, the Rules file does not load
//   bad-option        an option tag the variant does not take, or a bad value
//   bad-position      the FEN tag is not a position of the variant
//   unreadable        an action text that is no notation of any action
//   ambiguous         SAN that several legal actions match
//   no-piece          no own piece of that type (on that file/rank/square)
//   no-piece-reaches  own pieces of that type exist, no pseudo-legal action of them reaches
//   occupied          the destination holds an own piece / a placement onto a piece
//   king-in-check     a pseudo-legal action (Engine::pseudo_legal_actions) that is not legal:
//                     it leaves (or puts) the own royal piece attacked
//   castling          castling that is not allowed
//   promotion         a promotion missing, not allowed, or to the wrong piece
//   placement-outside-half, not-in-reserve, king-first, kings-adjacent   (placements, from
//                     the squares and pieces the engine places and the ruleset's royals-apart)
//   adjacency         `move-condition non-capture adjacent-to any`: the destination touches
//                     no other piece
//   card              No Stress Chess: the card is not in the hand or does not allow it
//   step              a later step of a multi-step turn (a ChessMe placement, a Chess 2
//                     king-turn) is not legal after the first
//   game-over         an action after the game ended
//   illegal           any other illegal action
//   false-mate        `#` (or a Termination tag naming mate) on a position that is no mate
//   result-mismatch   the Result tag and the movetext's result differ
//   wrong-result      the final position is decided and the result names another outcome
//   unfinished-marked the final position is decided but the result is `*`
//   impossible-draw   a draw claimed that the position does not allow
#include "validate.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <new>
#include <optional>
#include <type_traits>

#include "arbiter/json.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/numbers.hpp"
#include "registry/engines.hpp"
#include "registry/variants.hpp"

namespace arb::records {

namespace fs = std::filesystem;

namespace {

// The facts the explanations read from the ruleset's model.
void take_facts(RecordEngine& r, const lang::Model& m) {
  r.placement_p = m.records.piece_first;
  r.agreement_draws = m.records.agreement_draws;
  r.dice_start = m.setup_kind == lang::SetupKind::Chess960;
  for (const lang::PieceDef& p : m.pieces) {
    r.piece_names[p.letter] = p.name;
    if (p.royal) r.royals.push_back(p.letter);
  }
  r.royals_apart = m.royals_apart;
  r.adjacency_rule = m.adjacency_rule;
}

}  // namespace

std::string RecordEngine::name(char letter) const {
  auto it = piece_names.find(static_cast<char>(std::toupper(static_cast<unsigned char>(letter))));
  return it == piece_names.end() ? std::string("piece ") + letter : it->second;
}

RecordEngine make_record_engine(const std::string& path, const std::map<std::string, std::string>& options) {
  RecordEngine r;
  // The compiled generator, opened as every engine is (registry::open_engine); a ruleset it
  // does not execute (yet) is played by the reference engine of the variant it declares.
  registry::EngineSpec spec;
  spec.rules = path;
  spec.options = options;
  registry::OpenedEngine o;
  try {
    lang::Diagnostics diags;
    o = registry::open_engine(spec, diags);
    if (!o.engine) {
      lang::Diagnostics d2;
      spec.kind = registry::EngineKind::Reference;
      o = registry::open_engine(spec, d2);
      if (!o.engine && !o.compiled.model) {
        r.error = path + ": the ruleset does not load (" + std::to_string(d2.error_count()) + " error(s))";
        return r;
      }
      if (!o.engine) {
        r.error = "variant `" + o.variant + "` neither compiles nor has a reference engine";
        return r;
      }
    }
  } catch (const registry::OpenError& ex) {
    // The kind of fault reads the prefix: "option: " makes a bad-option fault.
    r.error = ex.bad_option ? std::string("option: ") + ex.what() : std::string(ex.what());
    return r;
  } catch (const PositionError& ex) {
    r.error = std::string("start position: ") + ex.what();
    return r;
  } catch (const std::exception& ex) {
    r.error = path + ": " + ex.what();
    return r;
  }
  r.engine = std::move(o.engine);
  r.variant = o.variant;
  if (o.compiled.model) take_facts(r, *o.compiled.model);
  r.start = r.engine->position();
  return r;
}

const RecordEngine& EngineCache::get(const std::string& path,
                                     const std::map<std::string, std::string>& options) {
  std::string key = path;
  for (const auto& [k, v] : options) key += "\n" + k + "=" + v;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it->second;
  auto re = std::make_unique<RecordEngine>(make_record_engine(path, options));
  return *cache_.emplace(key, std::move(re)).first->second;
}

std::string EngineCache::ruleset_named(const std::string& variant_tag) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = named_.find(variant_tag);
  if (it != named_.end()) return it->second;
  auto known = registry::by_record_name(variant_tag, rulesets_);
  return named_[variant_tag] = known ? known->ruleset.string() : "";
}

const std::vector<lang::RecordTagMap>& EngineCache::tag_maps(const std::string& ruleset_path) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = tag_maps_[ruleset_path];
  if (!slot) {
    slot = std::make_unique<std::vector<lang::RecordTagMap>>();
    if (auto facts = registry::facts_of(ruleset_path)) *slot = facts->records.tags;
  }
  return *slot;
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// ---------------------------------------------------------------------------------------
// Action text patterns: what a step written in SAN or the canonical form says.

// What an action's text says (arb::StepPattern, engine/notation.hpp).
using StepPat = StepPattern;

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool action_matches(const std::vector<StepPat>& pats, const ActionInfo& info, size_t steps,
                    bool ignore_card) {
  if (steps > info.steps.size()) return false;
  for (size_t i = 0; i < steps; ++i)
    if (!step_matches(pats[i], info.steps[i], ignore_card)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------
// The board as the position text shows it, for diagnostics.

struct BoardView {
  std::map<Coord, char> sq;
  std::string reserve, castling, whand, bhand;
  std::optional<Coord> ep;
  bool ok = false;
  char at(Coord c) const {
    auto it = sq.find(c);
    return it == sq.end() ? 0 : it->second;
  }
};

BoardView read_board(const std::string& pos) {
  BoardView b;
  std::vector<std::string> f;
  size_t i = 0;
  while (i < pos.size()) {
    size_t j = pos.find_first_of(" \t", i);
    if (j == std::string::npos) j = pos.size();
    if (j > i) f.push_back(pos.substr(i, j - i));
    i = j + 1;
  }
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

bool owned_by(char piece, Color side) {
  return side == Color::White ? is_upper(piece) : is_lower(piece);
}
char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}

std::string side_name(Color c) {
  return c == Color::White ? "White" : "Black";
}

struct Ctx {
  Engine& e;
  const RecordEngine& proto;
  const std::vector<Action>& legal;
  const std::vector<ActionInfo>& infos;
};

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

}  // namespace

// ---------------------------------------------------------------------------------------

void Validator::check(const ParsedGame& g, const std::string& dir, GameReport& r) {
  uint32_t first_line = g.tokens.empty() ? (g.tags.empty() ? 1 : g.tags[0].line) : g.tokens[0].line;
  if (!g.tags.empty()) first_line = std::min(first_line, g.tags[0].line);
  auto add = [&](Severity sev, uint32_t line, uint32_t col, int ply, std::string_view move, std::string code,
                 std::string reason) -> Finding& {
    Finding f;
    f.severity = sev;
    f.line = line;
    f.column = col;
    f.ply = ply;
    f.move = std::string(move);
    f.code = std::move(code);
    f.reason = std::move(reason);
    r.findings.push_back(std::move(f));
    return r.findings.back();
  };
  auto fail_at = [&](uint32_t line, uint32_t col, int ply, std::string_view move, std::string code,
                     std::string reason) -> Finding& {
    return add(Severity::Error, line, col, ply, move, std::move(code), std::move(reason));
  };
  auto warn_at = [&](uint32_t line, uint32_t col, int ply, std::string_view move, std::string code,
                     std::string reason) -> Finding& {
    return add(Severity::Warning, line, col, ply, move, std::move(code), std::move(reason));
  };
  // Tags by name; FEN and SetUp in any spelling of their case (`Fen`, `Setup`, `SETUP`).
  auto tag_at = [&](const char* name) -> const Tag* {
    for (const auto& t : g.tags)
      if (t.name == name) return &t;
    std::string want = lower(name);
    if (want == "fen" || want == "setup")
      for (const auto& t : g.tags)
        if (lower(t.name) == want) return &t;
    return nullptr;
  };
  for (const auto& t : g.tags) r.tags.emplace_back(t.name, t.value);
  // The ruleset and its options.
  const Tag* vtag = tag_at("Variant");
  const Tag* rtag = tag_at("Rules");
  std::string path;
  if (!cache_.forced_rules().empty()) {
    // `arbiter validate --rules FILE`: every record is of that ruleset, whatever it says.
    path = cache_.forced_rules();
    rtag = nullptr;
  } else if (rtag && !trim(rtag->value).empty()) {
    fs::path rp = trim(rtag->value);
    if (rp.is_relative() && !dir.empty()) rp = fs::path(dir) / rp;
    path = rp.string();
  } else {
    // The bundled ruleset whose name or `records { name ... }` the tag gives.
    path = cache_.ruleset_named(vtag ? vtag->value : "");
    if (path.empty()) {
      fail_at(
          vtag->line, vtag->value_column, 0, vtag->value, "unknown-variant",
          "unknown variant `" + vtag->value + "` (no bundled ruleset of that name; use [Rules \"FILE\"])");
      return;
    }
  }
  std::error_code ec;
  if (!rtag || !fs::is_regular_file(path, ec)) {
    if (rtag && !fs::is_regular_file(path, ec)) {
      fail_at(rtag->line, rtag->value_column, 0, rtag->value, "unknown-variant",
              "the ruleset file `" + path + "` does not exist");
      return;
    }
  }
  // The tags the ruleset's `records` block maps to options or to the seeded start.
  const std::vector<lang::RecordTagMap>& tag_maps = cache_.tag_maps(path);
  // Tags neither the PGN standard (its seven-tag roster and section 9) nor Arbiter's record
  // format (Variant, Rules, Options, Start, the ruleset's own) defines: a warning each.
  for (const auto& t : g.tags) {
    static constexpr std::string_view kStandard[] = {
        "Event",      "Site",       "Date",        "Round",        "White",        "Black",       "Result",
        "WhiteTitle", "BlackTitle", "WhiteElo",    "BlackElo",     "WhiteUSCF",    "BlackUSCF",   "WhiteNA",
        "BlackNA",    "WhiteType",  "BlackType",   "EventDate",    "EventSponsor", "Section",     "Stage",
        "Board",      "Opening",    "Variation",   "SubVariation", "ECO",          "NIC",         "Time",
        "UTCTime",    "UTCDate",    "TimeControl", "SetUp",        "FEN",          "Termination", "Annotator",
        "Mode",       "PlyCount",   "Variant",     "Rules",        "Options",      "Start"};
    bool known = std::find(std::begin(kStandard), std::end(kStandard), t.name) != std::end(kStandard);
    for (const auto& m : tag_maps) known = known || m.tag == t.name;
    if (!known)
      warn_at(t.line, t.value_column, 0, t.name, "nonstandard-tag",
              "tag `" + t.name + "` is not a PGN standard tag nor one of the record format");
  }
  std::map<std::string, std::string> opts;
  std::string seed, start_n;
  bool dice_seed = false;
  const Tag* opt_tag = nullptr;
  const Tag* seed_tag = nullptr;
  for (const auto& t : g.tags) {
    std::string v = lower(trim(t.value));
    for (char& ch : v)
      if (ch == ' ') ch = '-';
    const lang::RecordTagMap* map = nullptr;
    for (const auto& m : tag_maps)
      if (m.tag == t.name) map = &m;
    if (map && (map->target == "seed" || map->target == "dice-seed")) {
      seed = trim(t.value);
      dice_seed = map->target == "dice-seed";
      seed_tag = &t;
    } else if (map) {
      for (const auto& [from, to] : map->values)
        if (lower(from) == v) v = to;
      opts[map->target] = v;
      opt_tag = &t;
    } else if (t.name == "Options") {
      opt_tag = &t;
      std::string s = t.value;
      for (char& ch : s)
        if (ch == ';' || ch == ',') ch = ' ';
      size_t i = 0;
      while (i < s.size()) {
        size_t j = s.find(' ', i);
        if (j == std::string::npos) j = s.size();
        std::string kv = s.substr(i, j - i);
        size_t eq = kv.find('=');
        if (eq != std::string::npos && eq > 0) opts[kv.substr(0, eq)] = kv.substr(eq + 1);
        i = j + 1;
      }
    } else if (t.name == "Start") {
      start_n = trim(t.value);
    }
  }
  const RecordEngine& proto = cache_.get(path, opts);
  if (!proto.engine) {
    const Tag* at = opt_tag ? opt_tag : vtag ? vtag : rtag;
    bool option = proto.error.rfind("option", 0) == 0;
    fail_at(at ? at->line : first_line, at ? at->value_column : 1, 0, at ? at->value : "",
            option ? "bad-option" : "unknown-variant", proto.error);
    return;
  }
  r.variant = proto.variant;
  std::string key = path;
  for (const auto& [k, v] : opts) key += "\n" + k + "=" + v;
  Slot& slot = engines_[key];
  if (slot.proto != &proto) {
    slot.engine = proto.engine->clone();
    slot.proto = &proto;
  }
  Engine& e = *slot.engine;
  // The start position.
  const Tag* fen = tag_at("FEN");
  const Tag* setup = tag_at("SetUp");
  std::string start = proto.start;
  const Tag* start_tag = nullptr;
  if (fen && !(setup && trim(setup->value) == "0")) {
    start = trim(fen->value);
    start_tag = fen;
  } else if (!seed.empty() && !dice_seed) {
    start = "start:" + seed;
    start_tag = seed_tag;
  } else if (!seed.empty()) {
    // `tag Seed -> dice-seed`: the back rank the rule text's dice procedure picks.
    // A decimal number in 0..2^64-1, nothing else (`abc` and `-7` were read as some seed).
    auto sv = arb::parse_unsigned(seed, 0, UINT64_MAX);
    if (!sv) {
      fail_at(seed_tag->line, seed_tag->value_column, 0, seed, "bad-position",
              "bad seed `" + seed + "`: expected a number from 0 to 18446744073709551615");
      return;
    }
    start = "start:" + std::to_string(lang::chess960_dice_start(*sv));
    start_tag = seed_tag;
  } else if (!start_n.empty()) {
    start = "start:" + start_n;
    start_tag = tag_at("Start");
  }
  if (start_tag == fen && fen) {
    // Fullmove `0` (mate-in-N problem collections write it): read as 1, with a warning.
    size_t sp = start.find_last_of(' ');
    if (sp != std::string::npos && start.substr(sp + 1) == "0" &&
        std::count(start.begin(), start.end(), ' ') >= 5) {
      warn_at(fen->line, fen->value_column + static_cast<uint32_t>(sp) + 1, 0, fen->value,
              "fen-fullmove-zero", "the FEN's fullmove number is 0 (it counts from 1); read as 1");
      start.back() = '1';
    }
  }
  try {
    e.set_position(start);
  } catch (const PositionError& pe) {
    fail_at(start_tag ? start_tag->line : first_line,
            start_tag ? start_tag->value_column + static_cast<uint32_t>(pe.column) : 1, 0, start,
            "bad-position", std::string("bad start position: ") + pe.what());
    return;
  }
  // The moves, variations included: a variation replaces the move before it. The path from
  // the start is kept so that a null move (played by rewriting the position text, which
  // drops the engine's history) can be taken back by replaying the path.
  ActionPattern pattern;
  const std::vector<StepPat>& pats = pattern.steps;
  const Token* result_tok = nullptr;
  size_t i = 0;
  const auto& toks = g.tokens;
  Ctx ctx{e, proto, legal_, infos_};
  struct Entry {
    bool null = false;
    Action action{};
  };
  std::vector<Entry> played_path;
  size_t undoable = 0;  // entries at the end of the played_path the engine can undo
  const std::string start_text = start;
  // The side to move passes: the position text with the other side to move and no en-passant
  // square (a FEN-like text); "" with an error message when the variant's text has no such field.
  auto null_position = [&](std::string& error) -> std::string {
    std::vector<std::string> f;
    std::string pos = e.position();
    size_t a = 0;
    while (a < pos.size()) {
      size_t b = pos.find(' ', a);
      if (b == std::string::npos) b = pos.size();
      if (b > a) f.push_back(pos.substr(a, b - a));
      a = b + 1;
    }
    if (f.size() < 2 || (f[1] != "w" && f[1] != "b")) {
      error = "a null move cannot be played in " + proto.variant +
              " (its position text has no side-to-move field)";
      return "";
    }
    const bool black = f[1] == "b";
    f[1] = black ? "w" : "b";
    if (f.size() >= 4 && f[3].size() == 2 && is_lower(f[3][0]) && is_digit(f[3][1])) f[3] = "-";
    if (f.size() == 6 && !f[4].empty() && std::all_of(f[4].begin(), f[4].end(), is_digit))
      f[4] = std::to_string(std::stoul(f[4].substr(0, 6)) + 1);
    if (f.size() == 6 && black && !f[5].empty() && std::all_of(f[5].begin(), f[5].end(), is_digit))
      f[5] = std::to_string(std::stoul(f[5].substr(0, 6)) + 1);
    std::string out;
    for (const auto& x : f) out += (out.empty() ? "" : " ") + x;
    return out;
  };
  auto play = [&](const Entry& en) {
    if (en.null) {
      std::string err;
      e.set_position(null_position(err));
      undoable = 0;
    } else {
      e.apply(en.action);
      ++undoable;
    }
    played_path.push_back(en);
  };
  auto take_back = [&] {
    if (undoable > 0) {
      e.undo();
      --undoable;
      played_path.pop_back();
      return;
    }
    played_path.pop_back();
    std::vector<Entry> again;
    again.swap(played_path);
    e.set_position(start_text);
    undoable = 0;
    for (const Entry& en : again) play(en);
  };
  // Past the rest of a variation whose fault is recorded (the main line goes on).
  auto skip_variation = [&] {
    int d = 0;
    while (i < toks.size()) {
      const Token& t = toks[i++];
      if (t.kind == TokKind::Open) ++d;
      if (t.kind == TokKind::Close && d-- == 0) return;
    }
  };
  // Matches an action text against the legal actions: how many match, the first and the rest.
  std::vector<size_t> matches;
  auto match = [&](std::string_view text, size_t& found) -> size_t {
    matches.clear();
    found = SIZE_MAX;
    if (!parse_action_pattern(text, pattern)) return SIZE_MAX;
    size_t count = 0;
    // Later steps, drawn texts and pass labels are not in the brief: check them on the description.
    const bool check_described =
        pats.size() > 1 || pats[0].kind == StepKind::Chance || pats[0].kind == StepKind::Pass;
    const StepPat& p0 = pats[0];
    const size_t nsteps = pats.size();
    // A plain move names its destination: most actions differ there.
    const bool by_to = p0.kind == StepKind::Move && p0.castle == Castle::None && !p0.full;
    for (size_t k = 0, n = legal_.size(); k < n; ++k) {
      const StepBrief& b = briefs_[k];
      if ((by_to && b.to != p0.to) || b.steps != nsteps || !step_matches(p0, b)) continue;
      if (check_described && !action_matches(pats, e.describe(legal_[k]), pats.size(), false)) continue;
      if (count == 0) found = k;
      ++count;
      if (count > 1) matches.push_back(k);
    }
    return count;
  };
  // Returns false when a fault in the main line stops the walk.
  auto walk = [&](auto& self, int ply, int depth, bool variation) -> bool {
    size_t played = 0;
    bool have_last = false;
    Entry last{};
    auto unwind = [&] {
      for (; played > 0; --played) take_back();
    };
    // A fault: in a variation the rest of it is skipped, in the main line the walk stops.
    auto give_up = [&]() -> bool {
      if (!variation) return false;
      skip_variation();
      unwind();
      return true;
    };
    while (i < toks.size()) {
      const Token& t = toks[i];
      if (t.kind == TokKind::Close) {
        ++i;
        if (variation) {
          unwind();
          return true;
        }
        continue;
      }
      if (t.kind == TokKind::Result) {
        if (!variation) result_tok = &t;
        ++i;
        continue;
      }
      if (t.kind == TokKind::Open) {
        if (!have_last) {
          fail_at(t.line, t.column, ply + 1, "(", "syntax", "a variation must follow the move it replaces")
              .in_variation = variation;
          return false;
        }
        if (depth >= 100) {
          fail_at(t.line, t.column, ply, "(", "syntax", "variations nested more than 100 deep");
          return false;
        }
        take_back();
        ++i;
        if (!self(self, ply - 1, depth + 1, true)) return false;
        play(last);
        continue;
      }
      ++i;
      if (t.kind == TokKind::Null) {
        // A null move: the side to move passes (analysis, not play: a warning in the main line).
        std::string why;
        std::string pos = null_position(why);
        if (why.empty() && e.side_in_check()) why = "a null move while in check";
        if (why.empty()) {
          try {
            Entry en;
            en.null = true;
            play(en);
          } catch (const PositionError& pe) {
            why = std::string("the position after the null move is not legal (") + pe.what() + ")";
          }
        }
        if (!why.empty()) {
          fail_at(t.line, t.column, ply + 1, t.text, "null-move", why).in_variation = variation;
          if (give_up()) return true;
          return false;
        }
        if (!variation)
          warn_at(t.line, t.column, ply + 1, t.text, "null-move",
                  "a null move in the main line (the side to move passes)");
        last = played_path.back();
        have_last = true;
        ++played;
        ++ply;
        if (!variation) r.plies = ply;
        continue;
      }
      // A move. The fast played_path: the brief of every legal action, the full description only
      // of those whose first step the text matches (and of all of them to explain a fault).
      legal_.clear();
      e.legal_actions(legal_);
      briefs_.resize(legal_.size());
      static_assert(std::is_trivially_destructible_v<StepBrief>);
      // Built in place (a trivially destructible prvalue): brief() writes straight into the
      // vector, with no copy through a temporary that stalls on store forwarding.
      for (size_t k = 0; k < legal_.size(); ++k) ::new (&briefs_[k]) StepBrief(e.brief(legal_[k]));
      bool described = false;
      auto describe_all = [&] {
        if (described) return;
        infos_.resize(legal_.size());
        for (size_t k = 0; k < legal_.size(); ++k) infos_[k] = e.describe(legal_[k]);
        described = true;
      };
      auto fault = [&](std::string kind, std::string reason) -> Finding& {
        Finding& f = fail_at(t.line, t.column, ply + 1, t.text, std::move(kind), std::move(reason));
        f.in_variation = variation;
        return f;
      };
      size_t found = SIZE_MAX;
      size_t count = match(t.text, found);
      // A piece letter in lower case (`nf3`), read as the capital when that is the only reading.
      if ((count == 0 || count == SIZE_MAX) && !t.text.empty() && is_lower(t.text[0]) &&
          proto.piece_names.count(upper(t.text[0]))) {
        std::string up(t.text);
        up[0] = upper(up[0]);
        size_t f2 = SIZE_MAX;
        if (match(up, f2) == 1) {
          count = 1;
          found = f2;
          warn_at(t.line, t.column, ply + 1, t.text, "lowercase-piece",
                  "piece letter in lower case, read as `" + up + "`")
              .in_variation = variation;
        } else {
          match(t.text, found);  // the pattern of the text as written, for the diagnosis
        }
      }
      if (count == SIZE_MAX) {
        describe_all();
        Finding& f = fault("unreadable",
                           "`" + std::string(t.text) + "` is not an action in SAN or the canonical notation");
        std::vector<size_t> all(legal_.size());
        for (size_t k = 0; k < all.size(); ++k) all[k] = k;
        f.alternatives = nearest(ctx, {}, 0, all);
        if (give_up()) return true;
        return false;
      }
      if (count != 1) describe_all();
      if (count == 0) {
        Finding& f = fault("illegal", "");
        diagnose(ctx, pats, f);
        if (give_up()) return true;
        return false;
      }
      if (count > 1) {
        std::vector<size_t> all_matches = matches;
        all_matches.insert(all_matches.begin(), found);
        Finding& f = fault("ambiguous", "ambiguous: " + std::to_string(count) + " legal actions match `" +
                                            std::string(t.text) + "`");
        for (size_t k = 0; k < all_matches.size() && k < 5; ++k)
          f.alternatives.push_back(uci(infos_[all_matches[k]], e.chess960()));
        if (give_up()) return true;
        return false;
      }
      // The canonical form (`e2e4`, `e7e8q`) writes no marks: none is missing there.
      // (A placement `K@e1` is canonical where the ruleset's SAN writes `pKe1`.)
      const bool marks_expected =
          !(pats[0].kind == StepKind::Move && pats[0].full && !pats[0].piece) &&
          !(pats[0].kind == StepKind::Place && proto.placement_p && t.text.size() > 1 && t.text[1] == '@');
      if (pats[0].kind == StepKind::Move && pats[0].piece == 'P' && !pats[0].full && pats.size() == 1)
        warn_at(t.line, t.column, ply + 1, t.text, "pawn-letter",
                "a pawn move written with `P` (SAN writes none)")
            .in_variation = variation;
      last = Entry{false, legal_[found]};
      have_last = true;
      play(last);
      ++played;
      ++ply;
      if (!variation) r.plies = ply;
      // The marks: `#` claims checkmate, `+` check (a win by another rule, such as a midline
      // invasion, carries no `#`: notation.cpp's san writes the same marks).
      const bool check = e.side_in_check();
      if (t.mate_mark || (check && (marks_expected || t.check_mark))) {
        Status st = e.status();
        const bool mate = st.end == Termination::Checkmate;
        if (t.mate_mark && !mate && st.result == Result::Ongoing) {
          fault("false-mate", "marked `#` but the position after it is not checkmate" +
                                  std::string(st.in_check ? " (only check)" : " (not even check)"))
              .ply = ply;
          if (give_up()) return true;
          return false;
        }
        if (t.mate_mark && !mate)
          warn_at(
              t.line, t.column, ply, t.text, "wrong-mark",
              "marked `#` but the game ends by " + st.reason + ", not checkmate (such a win carries no `#`)")
              .in_variation = variation;
        else if (!t.mate_mark && mate)
          warn_at(t.line, t.column, ply, t.text, "missing-mate-mark",
                  std::string("checkmate written without `#`") + (t.check_mark ? " (with `+`)" : ""))
              .in_variation = variation;
        else if (!t.mate_mark && !t.check_mark && check)
          warn_at(t.line, t.column, ply, t.text, "missing-check-mark", "a check written without `+`")
              .in_variation = variation;
      } else if (t.check_mark) {
        warn_at(t.line, t.column, ply, t.text, "false-check", "marked `+` but it gives no check")
            .in_variation = variation;
      }
    }
    if (variation) unwind();
    return true;
  };
  if (!walk(walk, 0, 0, false)) return;
  if (!g.error.empty()) return;  // the text is cut short: the result cannot be judged
  // The result against the final position.
  const Tag* res_tag = tag_at("Result");
  std::string tag_res = res_tag ? trim(res_tag->value) : "";
  if (tag_res == "1/2" || tag_res == "\xc2\xbd-\xc2\xbd") tag_res = "1/2-1/2";
  if (!is_result(tag_res)) tag_res.clear();
  std::string text_res = result_tok ? std::string(result_tok->text) : "";
  uint32_t rl = result_tok ? result_tok->line : res_tag ? res_tag->line : first_line;
  uint32_t rc = result_tok ? result_tok->column : res_tag ? res_tag->value_column : 1;
  int rply = r.plies + 1;
  if (!tag_res.empty() && !text_res.empty() && tag_res != text_res) {
    fail_at(rl, rc, rply, text_res, "result-mismatch",
            "the Result tag says " + tag_res + " but the movetext ends with " + text_res);
    return;
  }
  std::string claimed = !text_res.empty() ? text_res : !tag_res.empty() ? tag_res : "*";
  Status st = e.status();
  const Tag* term = tag_at("Termination");
  std::string termination = term ? lower(term->value) : "";
  if (st.result != Result::Ongoing) {
    std::string actual = arb::to_string(st.result);
    if (claimed == "*") {
      warn_at(rl, rc, rply, claimed, "unfinished-marked",
              "the game is decided (" + st.reason + ", " + actual + ") but the result is `*`");
    } else if (claimed != actual) {
      fail_at(rl, rc, rply, claimed, "wrong-result",
              "the final position is " + st.reason + ": the result is " + actual + ", not " + claimed);
    }
    return;
  }
  // "mate in 2" (lichess studies, pychess puzzles) states a task, not how the game ended.
  const bool task = termination.find("mate in") != std::string::npos;
  if (!task && termination.find("mate") != std::string::npos &&
      termination.find("stalemate") == std::string::npos) {
    fail_at(term->line, term->value_column, rply, term->value, "false-mate",
            "the Termination tag names mate but the final position is not checkmate");
    return;
  }
  if (claimed == "1/2-1/2") {
    bool rep = termination.find("repetition") != std::string::npos ||
               termination.find("threefold") != std::string::npos;
    bool fifty =
        termination.find("fifty") != std::string::npos || termination.find("50") != std::string::npos;
    if (rep && !st.claim_threefold) {
      fail_at(term->line, term->value_column, rply, claimed, "impossible-draw",
              "a draw by repetition is claimed but the final position has not occurred three times");
    } else if (fifty && !st.claim_fifty) {
      fail_at(term->line, term->value_column, rply, claimed, "impossible-draw",
              "a fifty-move draw is claimed but fifty moves without a capture or pawn move have not passed");
    } else if (!proto.agreement_draws && !st.claim_threefold && !st.claim_fifty) {
      fail_at(rl, rc, rply, claimed, "impossible-draw",
              "a draw is claimed but " + proto.variant +
                  " has no draw by agreement and neither a threefold-repetition nor a fifty-move claim is "
                  "available");
    }
  }
}

void Validator::validate(const ParsedGame& g, const std::string& dir, GameReport& r) {
  uint64_t game = r.game;
  r = GameReport{};
  r.game = game;
  check(g, dir, r);
  // The text's own problems, and the file's form.
  for (const auto& is : g.issues) {
    Finding f;
    f.severity = is.error ? Severity::Error : Severity::Warning;
    f.code = is.code;
    f.line = is.line;
    f.column = is.column;
    f.reason = is.message;
    // The ply it stands at: the main-line actions before it, plus one.
    int depth = 0;
    for (const Token& t : g.tokens) {
      if (t.line > is.line || (t.line == is.line && t.column >= is.column)) break;
      if (t.kind == TokKind::Open) ++depth;
      if (t.kind == TokKind::Close) --depth;
      if (depth == 0 && (t.kind == TokKind::Move || t.kind == TokKind::Null)) ++f.ply;
    }
    ++f.ply;
    r.findings.push_back(std::move(f));
  }
  uint32_t first = g.tags.empty() ? (g.tokens.empty() ? 1 : g.tokens[0].line) : g.tags[0].line;
  if (g.bom)
    r.findings.push_back(
        Finding{Severity::Warning, "bom", 1, 1, 0, "", "a UTF-8 byte-order mark", false, {}});
  if (g.cut_line)
    r.findings.push_back(Finding{Severity::Warning,
                                 "missing-result",
                                 g.cut_line,
                                 1,
                                 r.plies + 1,
                                 "",
                                 "the game has no result (1-0, 0-1, 1/2-1/2, *) before the next game's tags",
                                 false,
                                 {}});
  if (g.crlf)
    r.findings.push_back(
        Finding{Severity::Warning, "crlf", first, 1, 0, "", "CRLF (or CR) line ends", false, {}});
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  const Finding* err = nullptr;
  for (Finding& f : r.findings) {
    if (strict_) f.severity = Severity::Error;
    (f.severity == Severity::Error ? r.errors : r.warnings)++;
    if (!err && f.severity == Severity::Error) err = &f;
  }
  r.valid = err == nullptr;
  if (err) {
    r.line = err->line;
    r.column = err->column;
    r.ply = err->ply;
    r.move = err->move;
    r.kind = err->code;
    r.reason = err->reason;
    r.in_variation = err->in_variation;
    r.alternatives = err->alternatives;
  }
}

namespace {

void finding_json(std::string& o, const Finding& f) {
  o += "{\"severity\":\"";
  o += f.severity == Severity::Error ? "error" : "warning";
  o += "\",\"code\":\"" + json_escape(f.code) + "\",\"line\":" + std::to_string(f.line) +
       ",\"column\":" + std::to_string(f.column) + ",\"ply\":" + std::to_string(f.ply) + ",\"move\":\"" +
       json_escape(f.move) + "\",\"reason\":\"" + json_escape(f.reason) +
       "\",\"in_variation\":" + (f.in_variation ? "true" : "false") + ",\"alternatives\":[";
  for (size_t i = 0; i < f.alternatives.size(); ++i)
    o += (i ? ",\"" : "\"") + json_escape(f.alternatives[i]) + "\"";
  o += "]}";
}

}  // namespace

std::string report_json(const std::string& file, const GameReport& r) {
  if (r.unusable)
    return "{\"file\":\"" + json_escape(file) + "\",\"unusable\":true,\"code\":\"" + json_escape(r.kind) +
           "\",\"reason\":\"" + json_escape(r.reason) + "\"}";
  std::string o = "{\"file\":\"" + json_escape(file) + "\",\"game\":" + std::to_string(r.game) +
                  ",\"valid\":" + (r.valid ? "true" : "false") + ",\"variant\":\"" + json_escape(r.variant) +
                  "\",\"plies\":" + std::to_string(r.plies);
  if (!r.valid) {
    o += ",\"line\":" + std::to_string(r.line) + ",\"column\":" + std::to_string(r.column) +
         ",\"ply\":" + std::to_string(r.ply) + ",\"move\":\"" + json_escape(r.move) + "\",\"kind\":\"" +
         r.kind + "\",\"reason\":\"" + json_escape(r.reason) +
         "\",\"in_variation\":" + (r.in_variation ? "true" : "false") + ",\"alternatives\":[";
    for (size_t i = 0; i < r.alternatives.size(); ++i)
      o += (i ? ",\"" : "\"") + json_escape(r.alternatives[i]) + "\"";
    o += "]";
  }
  o += ",\"errors\":" + std::to_string(r.errors) + ",\"warnings\":" + std::to_string(r.warnings) +
       ",\"tags\":{";
  std::vector<std::string_view> seen;
  for (const auto& [name, value] : r.tags) {
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;  // the first of a repeated tag
    seen.push_back(name);
    o += (seen.size() > 1 ? ",\"" : "\"") + json_escape(name) + "\":\"" + json_escape(value) + "\"";
  }
  o += "},\"findings\":[";
  for (size_t i = 0; i < r.findings.size(); ++i) {
    if (i) o += ",";
    finding_json(o, r.findings[i]);
  }
  return o + "]}";
}

std::string report_text(const std::string& file, const GameReport& r) {
  if (r.unusable) return file + ": unusable: " + r.reason + " [" + r.kind + "]\n";
  std::string o;
  // Every finding, errors and warnings, in text order.
  for (const Finding& f : r.findings) {
    o += file + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) + ": " +
         (f.severity == Severity::Error ? "error" : "warning") + ": game " + std::to_string(r.game) +
         (r.variant.empty() ? "" : " (" + r.variant + ")") + ", ply " + std::to_string(f.ply) +
         (f.in_variation ? " (in a variation)" : "") + (f.move.empty() ? "" : " `" + f.move + "`") + ": " +
         f.reason + " [" + f.code + "]\n";
    if (!f.alternatives.empty()) {
      o += "  nearest legal:";
      for (const auto& a : f.alternatives) o += " " + a;
      o += "\n";
    }
  }
  return o;
}

// The first error alone, as one line (JUnit's failure message).
std::string first_error_text(const std::string& file, const GameReport& r) {
  if (r.valid) return "";
  std::string o = file + ":" + std::to_string(r.line) + ":" + std::to_string(r.column) + ": game " +
                  std::to_string(r.game) + (r.variant.empty() ? "" : " (" + r.variant + ")") + ", ply " +
                  std::to_string(r.ply) + (r.in_variation ? " (in a variation)" : "") +
                  (r.move.empty() ? "" : " `" + r.move + "`") + ": " + r.reason + " [" + r.kind + "]\n";
  if (!r.alternatives.empty()) {
    o += "  nearest legal:";
    for (const auto& a : r.alternatives) o += " " + a;
    o += "\n";
  }
  return o;
}

}  // namespace arb::records
