// Metamorphic properties of one engine (properties.hpp).
#include "fuzz/properties.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

#include "arbiter/action_index.hpp"
#include "arbiter/json.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/progress.hpp"
#include "fuzz/mutate_detail.hpp"
#include "fuzz/property_texts.hpp"

namespace arb::fuzz {

namespace {

using detail::Fen;

constexpr const char* kNames[kProperties] = {"apply-undo", "perft-copy",  "readback",      "colour-flip",
                                             "mirror",     "translation", "transposition", "colour-rotation"};

std::string canon(const Engine& e, const Action& a) {
  return uci(e.describe(a), true);
}

std::vector<std::string> action_texts(Engine& e) {
  std::vector<Action> as;
  e.legal_actions(as);
  std::vector<std::string> out;
  out.reserve(as.size());
  for (const Action& a : as) out.push_back(canon(e, a));
  std::sort(out.begin(), out.end());
  return out;
}

// `+X` only in `want`, `-Y` only in `got`.
std::string set_diff(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  std::vector<std::string> plus, minus;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(plus));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(minus));
  std::string s;
  for (const auto& x : plus) s += (s.empty() ? "+" : " +") + x;
  for (const auto& x : minus) s += (s.empty() ? "-" : " -") + x;
  return s;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// The status without what depends on the game's history (a repetition claim).
Status without_history(Status s) {
  s.claim_threefold = false;
  return s;
}

Result swap_result(Result r) {
  if (r == Result::WhiteWins) return Result::BlackWins;
  if (r == Result::BlackWins) return Result::WhiteWins;
  return r;
}

bool same_status(const Status& a, const Status& b) {
  return a.result == b.result && a.end == b.end && a.reason == b.reason && a.in_check == b.in_check &&
         a.claim_threefold == b.claim_threefold && a.claim_fifty == b.claim_fifty;
}

using detail::swap_case;

// A coordinate map applied to every square an action names.
template <class F>
ActionInfo map_info(ActionInfo info, F f, bool swap_colour) {
  for (Step& s : info.steps) {
    s.from = f(s.from);
    s.to = f(s.to);
    if (s.castle != Castle::None) s.king_to = f(s.king_to);
    for (PieceAt& p : s.removed) {
      p.at = f(p.at);
      if (swap_colour) p.piece = swap_case(std::string(1, p.piece))[0];
    }
  }
  return info;
}

std::unique_ptr<Engine> load(const EngineFactory& make, const std::string& text) {
  auto e = make();
  try {
    e->set_position(text);
  } catch (const std::exception&) {
    return nullptr;
  }
  return e;
}

Violation violation(Property p, const std::string& position, std::string left, std::string right,
                    std::string diff = "") {
  Violation v;
  v.property = kNames[static_cast<int>(p)];
  v.position = position;
  v.original = position;
  v.left = std::move(left);
  v.right = std::move(right);
  v.diff = std::move(diff);
  return v;
}

// The indices of the actions a per-action check takes out of n: every one, or (n > sample > 0)
// `sample` of them drawn at random by `seed`, in their order.
std::vector<size_t> sampled(size_t n, int sample, uint64_t seed) {
  std::vector<size_t> idx(n);
  for (size_t i = 0; i < n; ++i) idx[i] = i;
  if (sample <= 0 || n <= static_cast<size_t>(sample)) return idx;
  std::mt19937_64 rng(seed ^ 0x5851f42d4c957f2dULL);
  for (size_t i = 0; i < static_cast<size_t>(sample); ++i) std::swap(idx[i], idx[i + rng() % (n - i)]);
  idx.resize(static_cast<size_t>(sample));
  std::sort(idx.begin(), idx.end());
  return idx;
}

// ---- the properties, each at the engine's position, leaving it as it was -----------------

std::optional<Violation> apply_undo(Engine& e, int sample, uint64_t seed) {
  const std::string text = e.position();
  const uint64_t h = e.hash();
  const Status st = e.status();
  std::vector<Action> as;
  e.legal_actions(as);
  for (size_t i : sampled(as.size(), sample, seed)) {
    const Action& a = as[i];
    e.apply(a);
    e.undo();
    if (e.position() != text || e.hash() != h || !same_status(e.status(), st)) {
      Violation v =
          violation(Property::ApplyUndo, text, text + " hash " + std::to_string(h) + " " + status_text(st),
                    e.position() + " hash " + std::to_string(e.hash()) + " " + status_text(e.status()));
      e.set_position(text);
      v.after = canon(e, a) + " then undo";
      return v;
    }
  }
  return std::nullopt;
}

uint64_t walk_undo(Engine& e, int depth) {
  if (depth == 0) return 1;
  std::vector<Action> as;
  e.legal_actions(as);
  if (e.chance()) throw ChanceError("chance node");
  uint64_t n = 0;
  for (const Action& a : as) {
    e.apply(a);
    n += walk_undo(e, depth - 1);
    e.undo();
  }
  return n;
}

uint64_t walk_copy(const Engine& e, int depth) {
  if (depth == 0) return 1;
  auto self = e.clone();
  std::vector<Action> as;
  self->legal_actions(as);
  if (self->chance()) throw ChanceError("chance node");
  uint64_t n = 0;
  for (const Action& a : as) {
    auto child = e.clone();
    child->apply(a);
    n += walk_copy(*child, depth - 1);
  }
  return n;
}

// Perft three ways. At a node with more than `sample` actions, over `sample` of the root's
// subtrees: each child's perft (depth - 1) by the engine, by apply and undo from the root and
// by copy, summed (a count over every subtree of amazons' 2,000 actions is 4 million leaves).
std::optional<Violation> perft_copy(Engine& e, int depth, int sample, uint64_t seed) {
  try {
    uint64_t own = 0, undo = 0, copy = 0;
    std::vector<Action> as;
    e.legal_actions(as);
    std::string part;
    if (sample > 0 && as.size() > static_cast<size_t>(sample) && !e.chance()) {
      for (size_t i : sampled(as.size(), sample, seed)) {
        e.apply(as[i]);
        own += e.perft(depth - 1);
        undo += walk_undo(e, depth - 1);
        e.undo();
        auto child = e.clone();
        child->apply(as[i]);
        copy += walk_copy(*child, depth - 1);
      }
      part = " over " + std::to_string(sample) + " of the " + std::to_string(as.size()) + " subtrees";
    } else {
      own = e.perft(depth), undo = walk_undo(e, depth), copy = walk_copy(e, depth);
    }
    if (own != copy || undo != copy) {
      auto v = violation(
          Property::PerftCopy, e.position(),
          "perft " + std::to_string(depth) + part + " by copy " + std::to_string(copy),
          "the engine's perft " + std::to_string(own) + ", by apply and undo " + std::to_string(undo));
      return v;
    }
  } catch (const ChanceError&) {
    // A count needs every draw fixed: nothing to compare at a chance node.
  }
  return std::nullopt;
}

std::optional<Violation> readback(Engine& e, const EngineFactory& make, int sample, uint64_t seed) {
  const std::string text = e.position();
  auto f = load(make, text);
  if (!f) return violation(Property::Readback, text, "the printed position reads back", "refused");
  if (f->position() != text) return violation(Property::Readback, text, text, f->position());
  if (f->hash() != e.hash())
    return violation(Property::Readback, text, "hash " + std::to_string(e.hash()),
                     "hash " + std::to_string(f->hash()) + " after reading the text back");
  // A verdict the last plies gave (passes in a row: janggi's `double-pass`, flipello's and
  // ataxx's `passes N`; a pass while the royal pieces face
  // each other) is history, as a repetition is: the text does not hold it (Fairy-Stockfish's
  // FEN neither), so the text read back is the game before that verdict.
  // So is a mate judged by the drop that gave it (`checkmate-by ... dropped`).
  const Status played = e.status();
  const Termination end = played.end;
  if (end == Termination::DoublePass || end == Termination::RoyalsFacing || end == Termination::Passes)
    return std::nullopt;
  if (end == Termination::Checkmate && played.reason == "checkmate-by-drop") return std::nullopt;
  const Status s1 = without_history(e.status()), s2 = without_history(f->status());
  if (!same_status(s1, s2)) return violation(Property::Readback, text, status_text(s1), status_text(s2));
  const auto want = action_texts(e), got = action_texts(*f);
  if (want != got) return violation(Property::Readback, text, join(want), join(got), set_diff(want, got));
  if (e.chance()) return std::nullopt;  // outcomes have no UCI or SAN of their own
  std::vector<Action> as;
  e.legal_actions(as);
  std::vector<ActionInfo> infos;  // described once for every text read in this position
  infos.reserve(as.size());
  for (const Action& a : as) infos.push_back(e.describe(a));
  const ActionTextIndex index(e, infos);  // the canonical texts written once, not per text read
  for (size_t i : sampled(as.size(), sample, seed)) {
    const Action& a = as[i];
    const std::string c = canon(e, a);
    for (Notation n : {Notation::Uci, Notation::San}) {
      const std::string t = n == Notation::San ? san(e, a, infos) : action_text(e, a, n);
      auto back = parse_action(e, t, as, infos, index);
      if (!back || canon(e, *back) != c)
        return violation(Property::Readback, text,
                         (n == Notation::San ? "SAN " : "UCI ") + t + " reads as " + c,
                         back ? "reads as " + canon(e, *back) : "unreadable or ambiguous");
    }
  }
  return std::nullopt;
}

// A transformed position must have the transformed actions and the matching status.
std::optional<Violation> compare_transformed(Property p, Engine& e, const EngineFactory& make,
                                             const std::string& source, const std::string& target,
                                             const std::function<Coord(Coord)>& f, bool swap_colour) {
  auto a = load(make, source);
  if (!a || a->chance()) return std::nullopt;  // the engine refuses the source (a stripped right)
  auto b = load(make, target);
  if (!b) return violation(p, e.position(), "the transformed position " + target + " is accepted", "refused");
  std::vector<Action> as;
  a->legal_actions(as);
  std::vector<std::string> want;
  for (const Action& x : as) want.push_back(uci(map_info(a->describe(x), f, swap_colour), true));
  std::sort(want.begin(), want.end());
  const auto got = action_texts(*b);
  auto v = [&](std::string l, std::string r, std::string d = "") {
    Violation out = violation(p, source, std::move(l), std::move(r), std::move(d));
    out.after = "transformed: " + target;
    return out;
  };
  if (want != got) return v(join(want), join(got), set_diff(want, got));
  Status sa = without_history(a->status()), sb = without_history(b->status());
  if (swap_colour) sa.result = swap_result(sa.result);
  if (!same_status(sa, sb)) return v(status_text(sa), status_text(sb));
  return std::nullopt;
}

// Plays the legal action whose canonical text is `text`; false when there is none.
bool play_text(Engine& e, const std::string& text) {
  std::vector<Action> as;
  e.legal_actions(as);
  for (const Action& a : as)
    if (canon(e, a) == text) {
      e.apply(a);
      return true;
    }
  return false;
}

std::optional<Violation> transposition(Engine& e, uint64_t seed, std::map<std::string, uint64_t>* checks) {
  std::mt19937_64 rng(seed);
  std::vector<Action> as;
  e.legal_actions(as);
  if (as.size() < 2 || e.chance()) return std::nullopt;
  auto play = [](Engine& g, const std::vector<std::string>& seq) {
    for (const auto& t : seq) {
      std::vector<Action> xs;
      g.legal_actions(xs);
      if (g.chance()) return false;
      bool found = false;
      for (const Action& x : xs)
        if (canon(g, x) == t) {
          g.apply(x);
          found = true;
          break;
        }
      if (!found) return false;
    }
    return true;
  };
  const std::string a = canon(e, as[rng() % as.size()]);
  std::string c = canon(e, as[rng() % as.size()]);
  if (a == c) return std::nullopt;
  auto g1 = e.clone();
  if (!play(*g1, {a})) return std::nullopt;
  std::vector<Action> replies;
  g1->legal_actions(replies);
  if (replies.empty() || g1->chance()) return std::nullopt;
  const std::string b = canon(*g1, replies[rng() % replies.size()]);
  if (!play(*g1, {b, c})) return std::nullopt;
  auto g2 = e.clone();
  if (!play(*g2, {c, b, a})) return std::nullopt;
  if (g1->position() != g2->position()) return std::nullopt;  // not a transposition
  if (checks) ++(*checks)["transpositions reached"];
  auto v = [&](std::string l, std::string r, std::string d = "") {
    Violation out =
        violation(Property::Transposition, e.position(), std::move(l), std::move(r), std::move(d));
    out.after = a + " " + b + " " + c + " / " + c + " " + b + " " + a;
    return out;
  };
  if (g1->hash() != g2->hash())
    return v("hash " + std::to_string(g1->hash()), "hash " + std::to_string(g2->hash()));
  const Status s1 = without_history(g1->status()), s2 = without_history(g2->status());
  if (!same_status(s1, s2)) return v(status_text(s1), status_text(s2));
  const auto w1 = action_texts(*g1), w2 = action_texts(*g2);
  if (w1 != w2) return v(join(w1), join(w2), set_diff(w1, w2));
  return std::nullopt;
}

}  // namespace

const char* to_string(Property p) {
  return kNames[static_cast<int>(p)];
}

std::optional<Property> property_named(const std::string& name) {
  for (int i = 0; i < kProperties; ++i)
    if (name == kNames[i]) return static_cast<Property>(i);
  return std::nullopt;
}

std::optional<Violation> check_node(Engine& e, const EngineFactory& make, const PropertyPlan& plan,
                                    uint64_t seed, bool with_perft, std::optional<Property> only,
                                    std::map<std::string, uint64_t>* checks, const NodeOptions& node) {
  // The time each property took, kept from one lap to the next (nothing when not asked).
  auto last = std::chrono::steady_clock::now();
  auto lap = [&](Property p) {
    if (!node.seconds) return;
    const auto now = std::chrono::steady_clock::now();
    if (plan.enabled(p) && (!only || *only == p))
      (*node.seconds)[kNames[static_cast<int>(p)]] += std::chrono::duration<double>(now - last).count();
    last = now;
  };
  const int sample = node.action_sample;
  if (sample > 0 && checks) {
    std::vector<Action> as;
    e.legal_actions(as);
    if (as.size() > static_cast<size_t>(sample)) ++(*checks)["action-sampled nodes"];
    last = std::chrono::steady_clock::now();
  }
  auto wanted = [&](Property p) {
    if (only && *only != p) return false;
    if (!plan.enabled(p)) return false;
    // A transformation is counted where its text applies (transform below).
    if (checks && p != Property::ColourFlip && p != Property::Mirror && p != Property::Translation &&
        p != Property::ColourRotation)
      ++(*checks)[kNames[static_cast<int>(p)]];
    return true;
  };
  std::optional<Violation> v;
  if (wanted(Property::ApplyUndo) && (v = apply_undo(e, sample, seed))) return v;
  lap(Property::ApplyUndo);
  if (with_perft && wanted(Property::PerftCopy) && (v = perft_copy(e, 2, sample, seed + 1))) return v;
  lap(Property::PerftCopy);
  if (wanted(Property::Readback) && (v = readback(e, make, sample, seed + 2))) return v;
  lap(Property::Readback);
  const std::string text = e.position();
  auto transform = [&](Property p, const std::string& source, const std::optional<std::string>& target,
                       const std::function<Coord(Coord)>& f, bool swap_colour) -> std::optional<Violation> {
    if (!target) return std::nullopt;
    if (checks) ++(*checks)[kNames[static_cast<int>(p)]];
    return compare_transformed(p, e, make, source, *target, f, swap_colour);
  };
  const bool grid = detect_format(text) == TextFormat::ChessMe;
  if (auto size = grid ? std::nullopt : detail::fen_size(text)) {
    const int w = size->first, h = size->second;
    if (wanted(Property::ColourFlip) && (v = transform(
                                             Property::ColourFlip, text, flip_position(text),
                                             [h](Coord c) {
                                               return Coord{c.x, h + 1 - c.y};
                                             },
                                             true)))
      return v;
    lap(Property::ColourFlip);
    if (wanted(Property::ColourRotation)) {
      // Compared without castling rights, as the mirror: castling goes to fixed files.
      auto source = mirror_position(text, true);
      source = source ? mirror_position(*source, false) : std::nullopt;
      if (source && (v = transform(
                         Property::ColourRotation, *source, rotate_position(*source, false),
                         [w, h](Coord c) {
                           return Coord{w - 1 - c.x, h + 1 - c.y};
                         },
                         true)))
        return v;
    }
    lap(Property::ColourRotation);
    if (wanted(Property::Mirror)) {
      // The source loses its castling rights as the target does: both sides compared
      // without them (a ruleset with castling is mirrored on positions without rights).
      auto source = mirror_position(text, plan.mirror_strips_castling);
      auto back = source ? mirror_position(*source, false) : std::nullopt;
      if (back && (v = transform(
                       Property::Mirror, *back, source,
                       [w](Coord c) {
                         return Coord{w - 1 - c.x, c.y};
                       },
                       false)))
        return v;
    }
    lap(Property::Mirror);
  }
  if (grid) {
    // The grid: ranks flipped around 0 (y to -y) with the colours, hands, piles and capture
    // piles swapped; files mirrored around 0 (x to -x); every piece moved by (dx, dy).
    if (wanted(Property::ColourFlip) && (v = transform(
                                             Property::ColourFlip, text, flip_grid_position(text),
                                             [](Coord c) {
                                               return Coord{c.x, -c.y};
                                             },
                                             true)))
      return v;
    lap(Property::ColourFlip);
    if (wanted(Property::Mirror) && (v = transform(
                                         Property::Mirror, text, mirror_grid_position(text),
                                         [](Coord c) {
                                           return Coord{-c.x, c.y};
                                         },
                                         false)))
      return v;
    lap(Property::Mirror);
    if (wanted(Property::Translation)) {
      std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
      const int dx = static_cast<int>(rng() % 9) - 4, dy = static_cast<int>(rng() % 9) - 4;
      if ((v = transform(
               Property::Translation, text, translate_position(text, dx, dy),
               [dx, dy](Coord c) {
                 return Coord{c.x + dx, c.y + dy};
               },
               false)))
        return v;
    }
    lap(Property::Translation);
  }
  if (wanted(Property::Transposition)) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 2; ++i)
      if ((v = transposition(e, rng(), checks))) return v;
  }
  lap(Property::Transposition);
  return std::nullopt;
}

Violation shrink(const EngineFactory& make, const PropertyPlan& plan, Violation v, int action_sample) {
  auto p = property_named(v.property);
  if (!p) return v;
  const std::string original = v.original;
  const std::string played = v.played;
  auto fails = [&](const std::string& text) -> std::optional<Violation> {
    auto e = load(make, text);
    if (!e) return std::nullopt;
    if (!played.empty() && !play_text(*e, played)) return std::nullopt;
    // The same seeds as the games use for one node: a transposition is retried a few ways.
    for (uint64_t s = 0; s < (*p == Property::Transposition ? 16u : 1u); ++s)
      if (auto w = check_node(*e, make, plan, s + 1, true, p, nullptr, {action_sample})) {
        w->position = text;
        w->played = played;
        return w;
      }
    return std::nullopt;
  };
  for (int round = 0; round < 200; ++round) {
    bool smaller = false;
    std::vector<std::string> cands = removal_candidates(v.position);
    if (auto off = origin_offset(v.position))
      if (auto t = translate_position(v.position, off->first, off->second)) cands.insert(cands.begin(), *t);
    for (const auto& c : cands) {
      if (auto w = fails(c)) {
        w->plies = v.plies;
        v = *w;
        smaller = true;
        break;
      }
    }
    if (!smaller) break;
  }
  v.original = original;
  return v;
}

PropertyReport check_properties(const EngineFactory& make, const std::string& start, const PropertyPlan& plan,
                                const PropertyOptions& o) {
  PropertyReport r;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (!load(make, start)) throw std::runtime_error("the engine refuses the start " + start);
  const std::string alphabet = piece_alphabet(start);
  std::mt19937_64 rng(o.seed);
  Choose choose = [&](uint64_t n) { return n <= 1 ? 0 : rng() % n; };
  uint64_t node = 0;
  for (uint64_t g = 0;; ++g) {
    if (o.seconds > 0 ? elapsed() >= o.seconds : g >= o.games) break;
    if (o.stop && o.stop->load()) break;
    ++r.games;
    auto e = load(make, start);
    std::vector<Action> as;
    std::string prev, last;  // the position before the last action played, and that action
    for (int ply = 0; ply <= o.max_plies; ++ply) {
      // The time is up within a game too: a node of amazons takes a second or more.
      if (ply > 0 && o.seconds > 0 && elapsed() >= o.seconds) break;
      const bool perft = o.perft_every > 0 && node % static_cast<uint64_t>(o.perft_every) == 0;
      ++node;
      ++r.positions;
      const uint64_t node_seed = rng();
      const NodeOptions node_opts{o.action_sample, &r.seconds_by_property};
      if (auto v = check_node(*e, make, plan, node_seed, perft, std::nullopt, &r.checks, node_opts)) {
        v->plies = ply;
        // A failure the position's text alone does not show is kept with the action that
        // reached it, from the position before.
        auto fresh = load(make, v->position);
        if (!prev.empty() &&
            (!fresh || !check_node(*fresh, make, plan, node_seed, perft, property_named(v->property), nullptr,
                                   {o.action_sample}))) {
          v->position = prev;
          v->played = last;
        }
        v->original = v->position;
        r.violation = shrink(make, plan, *v, o.action_sample);
        r.seconds = elapsed();
        return r;
      }
      if (o.mutate_percent > 0 && static_cast<int>(rng() % 100) < o.mutate_percent) {
        if (auto t = mutate_position(e->position(), alphabet, choose))
          if (auto m = load(make, *t)) {
            e = std::move(m);
            prev.clear();
            continue;
          }
      }
      e->legal_actions(as);
      if (as.empty()) break;
      const Action& a = as[rng() % as.size()];
      prev = e->position();
      last = canon(*e, a);
      e->apply(a);
    }
    if (o.progress) {
      const double s = elapsed();
      fprintf(stderr, "\r%s\033[K",
              progress_text("properties", "games", r.games, o.seconds > 0 ? 0 : o.games, s,
                            std::to_string(r.positions) + " positions",
                            o.seconds > 0 ? std::min(1.0, s / o.seconds) : -1)
                  .c_str());
    }
  }
  if (o.progress) fprintf(stderr, "\r\033[K");
  r.seconds = elapsed();
  return r;
}

arb::Json to_json(const Violation& v) {
  return {{"property", v.property}, {"position", v.position}, {"original", v.original},
          {"played", v.played},     {"after", v.after},       {"expected", v.left},
          {"found", v.right},       {"diff", v.diff},         {"plies", v.plies}};
}

arb::Json plan_json(const PropertyPlan& p) {
  arb::Json checked = arb::Json::array(), skipped = arb::Json::array();
  for (int i = 0; i < kProperties; ++i) {
    if (p.on[i])
      checked.push_back(kNames[i]);
    else
      skipped.push_back({{"property", kNames[i]}, {"reason", p.reason[i]}});
  }
  arb::Json out = {{"checked", checked}, {"skipped", skipped}};
  if (p.on[static_cast<int>(Property::ColourRotation)] && !p.rotation_chosen.empty())
    out["colour_rotation_chosen"] = p.rotation_chosen;
  return out;
}

std::string plan_text(const PropertyPlan& p) {
  std::string s;
  for (int i = 0; i < kProperties; ++i) {
    s += "  " + std::string(kNames[i]) + ": ";
    if (p.on[i]) {
      s += "checked";
      if (i == static_cast<int>(Property::Mirror) && p.mirror_strips_castling)
        s += " (on positions without castling rights: castling is not mirror-symmetric)";
      if (i == static_cast<int>(Property::ColourRotation) && !p.rotation_chosen.empty())
        s += " (" + p.rotation_chosen + ")";
      if (i == static_cast<int>(Property::ColourFlip) && p.flip_keeps_pile)
        s += " (hands and discard piles swapped; with a fixed reshuffle only while the pile holds the turn's "
             "draws: a reshuffle stacks White's discards under Black's)";
    } else {
      s += "skipped: " + p.reason[i];
    }
    s += "\n";
  }
  return s;
}

}  // namespace arb::fuzz
