#include "fuzz/fuzz.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "arbiter/json.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/parallel.hpp"
#include "arbiter/progress.hpp"
#include "arbiter/wording.hpp"

namespace arb::fuzz {

namespace {

std::vector<std::string> action_texts(Engine& e, std::vector<Action>& acts) {
  e.legal_actions(acts);
  std::vector<std::string> t;
  t.reserve(acts.size());
  for (const Action& a : acts) t.push_back(uci(e.describe(a), true));
  return t;
}

// Loads `text`; false (with the message) when the engine rejects it.
bool accepts(Engine& e, const std::string& text, std::string& error) {
  try {
    e.set_position(text);
    return true;
  } catch (const PositionError& pe) {
    error = pe.what();
    return false;
  }
}

// Plays the action written `text` (canonical form); false when it is not legal.
bool play(Engine& e, const std::string& text, std::vector<Action>& acts) {
  e.legal_actions(acts);
  for (const Action& x : acts)
    if (uci(e.describe(x), true) == text) {
      e.apply(x);
      return true;
    }
  return false;
}

std::string join(const std::vector<std::string>& v, size_t from) {
  std::string out;
  for (size_t i = from; i < v.size(); ++i) out += (out.empty() ? "" : " ") + v[i];
  return out;
}

}  // namespace

std::string status_text(const Status& s) {
  // The end condition, then the ruleset's label where it names the end otherwise: engines
  // agree when both match (a reference may not know a ruleset's labels: see fuzz.hpp).
  std::string t = to_string(s.result) + " " + (s.end == Termination::None ? "ongoing" : to_string(s.end));
  if (!s.reason.empty() && s.reason != to_string(s.end)) t += " \"" + s.reason + "\"";
  if (s.in_check) t += " check";
  if (s.claim_threefold) t += " claim-threefold";
  if (s.claim_fifty) t += " claim-fifty";
  return t;
}

std::optional<Divergence> reproduce(Engine& a, Engine& b, const std::string& position,
                                    const std::string& actions) {
  std::string ea, eb;
  bool ka = accepts(a, position, ea), kb = accepts(b, position, eb);
  if (!ka && !kb) return std::nullopt;
  if (ka != kb) {
    Divergence d;
    d.position = position;
    d.action = actions;
    d.what = "accepts";
    d.left = ka ? "accepted" : "rejected: " + ea;
    d.right = kb ? "accepted" : "rejected: " + eb;
    return d;
  }
  std::istringstream in(actions);
  std::string act;
  std::vector<Action> acts;
  while (in >> act)
    if (!play(a, act, acts) || !play(b, act, acts)) return std::nullopt;  // diverges earlier
  auto d = compare_node(a, b);
  if (d) {
    d->position = position;
    d->action = actions;
  }
  return d;
}

namespace {

// The shape of an action, without its squares: the piece, capture, promotion, placement
// and the step's extent. Tells apart kinds of differences (en passant lost, castling
// gained) from the same kind seen on other squares.
std::string shape(const ActionInfo& info) {
  std::string out;
  for (const Step& st : info.steps) {
    if (!out.empty()) out += ",";
    out += st.piece ? st.piece : '?';
    switch (st.kind) {
      case StepKind::Place:
        out += "@";
        continue;
      case StepKind::Pass:
        out += st.label.empty() ? "pass" : st.label;
        continue;
      case StepKind::Remove:
        if (st.to == st.from) {
          out += "*" + std::to_string(st.removed.size());
          continue;
        }
        out += "^";
        break;
      case StepKind::Chance:
        out += "draw";
        continue;
      case StepKind::Wall:
        out += "wall";
        continue;
      case StepKind::Move:
        break;
    }
    out += st.capture() ? "x" : "-";
    if (st.castle != Castle::None)
      out += st.castle == Castle::KingSide ? "O-O" : "O-O-O";
    else
      out +=
          std::to_string(std::abs(st.to.x - st.from.x)) + ":" + std::to_string(std::abs(st.to.y - st.from.y));
    if (st.promotion) out += std::string("=") + st.promotion;
  }
  return out;
}

// Where the side to move's legal en-passant captures land: a step that removes a piece from
// another square than the one it lands on.
std::vector<Coord> ep_landings(Engine& e, const std::vector<Action>& acts) {
  std::vector<Coord> out;
  for (const Action& x : acts)
    for (const Step& st : e.describe(x).steps)
      if (st.kind == StepKind::Move && !st.removed.empty() && !(st.removed.front().at == st.to))
        out.push_back(st.to);
  return out;
}

}  // namespace

std::string ended_position_text(const std::string& text, const std::vector<Coord>& ep_landings) {
  // The fourth field's bounds (fields separated by single spaces, as engines write them).
  size_t begin = 0;
  for (int field = 0; field < 3; ++field) {
    begin = text.find(' ', begin);
    if (begin == std::string::npos) return text;
    ++begin;
  }
  const size_t end = std::min(text.find(' ', begin), text.size());
  const std::string field = text.substr(begin, end - begin);
  // One square: a file letter and a rank number.
  if (field.size() < 2 || field.size() > 4 || field[0] < 'a' || field[0] > 'z' ||
      field.find_first_not_of("0123456789", 1) != std::string::npos)
    return text;
  const Coord sq{field[0] - 'a', std::stoi(field.substr(1))};
  if (std::find(ep_landings.begin(), ep_landings.end(), sq) != ep_landings.end()) return text;
  return text.substr(0, begin) + "-" + text.substr(end);
}

std::string hand_sorted_text(const std::string& text) {
  const size_t field_end = std::min(text.find(' '), text.size());
  if (field_end == 0 || text[field_end - 1] != ']') return text;
  const size_t open = text.rfind('[', field_end - 1);
  if (open == std::string::npos) return text;
  std::vector<std::string> entries;
  for (size_t i = open + 1; i + 1 < field_end;) {
    std::string e;
    while (i + 1 < field_end && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '+'))
      e += text[i++];
    if (i + 1 < field_end) e += text[i++];
    while (i + 1 < field_end && text[i] == '~') e += text[i++];
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end());
  std::string out = text.substr(0, open + 1);
  for (const auto& e : entries) out += e;
  return out + text.substr(field_end - 1);
}

std::optional<Divergence> compare_node(Engine& a, Engine& b) {
  std::vector<Action> aa, ba;
  std::vector<std::string> at = action_texts(a, aa), bt = action_texts(b, ba);
  std::vector<std::string> as = at, bs = bt;
  std::sort(as.begin(), as.end());
  std::sort(bs.begin(), bs.end());
  if (as != bs) {
    Divergence d;
    d.position = a.position();
    d.what = "actions";
    d.left = arb::plural(as.size(), "action");
    d.right = arb::plural(bs.size(), "action");
    std::vector<std::string> only_a, only_b;
    std::set_difference(as.begin(), as.end(), bs.begin(), bs.end(), std::back_inserter(only_a));
    std::set_difference(bs.begin(), bs.end(), as.begin(), as.end(), std::back_inserter(only_b));
    std::set<std::string> shapes;
    for (const auto& s : only_a) {
      d.diff += (d.diff.empty() ? "" : " ") + ("+" + s);
      shapes.insert("+" + shape(a.describe(aa[std::find(at.begin(), at.end(), s) - at.begin()])));
    }
    for (const auto& s : only_b) {
      d.diff += (d.diff.empty() ? "" : " ") + ("-" + s);
      shapes.insert("-" + shape(b.describe(ba[std::find(bt.begin(), bt.end(), s) - bt.begin()])));
    }
    for (const auto& s : shapes) d.shape += (d.shape.empty() ? "" : " ") + s;
    return d;
  }
  // An engine that reports a verdict (won, lost, drawn) but not which end condition decided
  // it (Fairy-Stockfish's UCI): against it, the end condition and its label are not compared.
  const bool verdict_only = !a.names_end_condition() || !b.names_end_condition();
  Status sta = a.status(), stb = b.status();
  if (verdict_only && sta.result == stb.result && sta.result != Result::Ongoing) {
    stb.end = sta.end;
    stb.reason = sta.reason;
  }
  std::string sa = status_text(sta), sb = status_text(stb);
  if (sa != sb) {
    Divergence d;
    d.position = a.position();
    d.what = "status";
    d.left = sa;
    d.right = sb;
    return d;
  }
  std::string pa = hand_sorted_text(a.position()), pb = hand_sorted_text(b.position());
  if (sta.result != Result::Ongoing) {
    pa = ended_position_text(pa, ep_landings(a, aa));
    pb = ended_position_text(pb, ep_landings(b, ba));
  }
  if (pa != pb) {
    Divergence d;
    d.position = pa;
    d.what = "position";
    d.left = pa;
    d.right = pb;
    return d;
  }
  return std::nullopt;
}

std::string divergence_key(const Divergence& d) {
  if (d.what == "actions") return d.what + " " + (d.shape.empty() ? d.diff : d.shape);
  if (d.what == "status") return d.what + " " + d.left + " / " + d.right;
  return d.what;
}

namespace {

std::set<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::set<std::string> out;
  std::string w;
  while (in >> w) out.insert(w);
  return out;
}

// Whether `c` is still the divergence `d` (for the shrinker): the same kind, and for
// actions no shape that `d` did not have.
bool same_kind(const Divergence& d, const Divergence& c) {
  if (c.what != d.what) return false;
  if (d.what == "status") return c.left == d.left && c.right == d.right;
  if (d.what == "actions") {
    auto ds = words(d.shape), cs = words(c.shape);
    return std::includes(ds.begin(), ds.end(), cs.begin(), cs.end());
  }
  return true;
}

// The fewest plies that still show the divergence found at the end of `played`: the node's
// own text, else the latest earlier text in `texts` (texts[i] is the position before
// played[i]) with the actions from there.
Divergence fewest_plies(const EngineFactory& left, const EngineFactory& right,
                        const std::vector<std::string>& texts, const std::vector<std::string>& played,
                        Engine& a, Engine& b, const Divergence& found) {
  auto fa = left(), fb = right();
  for (const std::string& own : {a.position(), b.position()})
    if (auto rep = reproduce(*fa, *fb, own, ""); rep && same_kind(found, *rep)) return *rep;
  for (size_t i = played.size(); i-- > 0;) {
    auto rep = reproduce(*fa, *fb, texts[i], join(played, i));
    if (rep && same_kind(found, *rep)) return *rep;
  }
  return found;  // does not reproduce from a text: keep what was seen
}

}  // namespace

Divergence shrink(const EngineFactory& left, const EngineFactory& right, Divergence d) {
  auto a = left(), b = right();
  int plies = d.plies;
  auto keeps = [&](const std::string& position, const std::string& actions) {
    auto nd = reproduce(*a, *b, position, actions);
    if (!nd || !same_kind(d, *nd)) return false;
    d = *nd;
    return true;
  };
  if (!reproduce(*a, *b, d.position, d.action)) return d;
  for (int round = 0; round < 1000; ++round) {
    bool progress = false;
    for (const std::string& candidate : removal_candidates(d.position))
      if ((progress = keeps(candidate, d.action))) break;
    if (progress) continue;
    // ChessMe text: nearer the origin, whole, then along one axis, then half way.
    if (auto off = origin_offset(d.position)) {
      auto [dx, dy] = *off;
      const std::pair<int, int> tries[] = {{dx, dy}, {dx, 0}, {0, dy}, {dx / 2, dy / 2}};
      for (auto [tx, ty] : tries) {
        if (tx == 0 && ty == 0) continue;
        auto moved = translate_position(d.position, tx, ty);
        if (moved && (progress = keeps(*moved, translate_actions(d.action, tx, ty)))) break;
      }
    }
    if (!progress) break;
  }
  d.plies = plies;
  return d;
}

void merge(Report& into, const Report& from, size_t max_divergences, size_t max_examples) {
  into.games += from.games;
  into.positions += from.positions;
  into.mutations += from.mutations;
  into.mutations_rejected += from.mutations_rejected;
  into.acceptance_differences += from.acceptance_differences;
  for (const auto& [k, v] : from.coverage.games) into.coverage.games[k] += v;
  for (const auto& [k, v] : from.coverage.events) into.coverage.events[k] += v;
  into.seconds = std::max(into.seconds, from.seconds);
  for (const auto& e : from.acceptance_examples)
    if (into.acceptance_examples.size() < max_examples) into.acceptance_examples.push_back(e);
  std::set<std::string> seen;
  for (const auto& d : into.divergences) seen.insert(divergence_key(d));
  for (const auto& d : from.divergences)
    if (into.divergences.size() < max_divergences && seen.insert(divergence_key(d)).second)
      into.divergences.push_back(d);
  if (!into.divergence && !into.divergences.empty()) into.divergence = into.divergences.front();
}

Report run(const EngineFactory& left, const EngineFactory& right, const std::string& start,
           const Options& o) {
  Report r;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::mt19937_64 rng(o.seed);
  Choose choose = [&rng](uint64_t n) -> uint64_t { return n <= 1 ? 0 : rng() % n; };
  auto a = left(), b = right();
  auto pa = left(), pb = right();  // probes: a mutated text is tried on these first
  // The time (--seconds, positions/s) is the comparing's: starting an engine process
  // (Fairy-Stockfish's wasm build compiles its module) took longer than a 20 s budget on
  // a loaded machine, so a run compared nothing.
  t0 = std::chrono::steady_clock::now();
  std::vector<Action> acts, bacts;
  std::set<std::string> seen, seen_raw;
  std::string alphabet;
  double last_progress = 0;
  uint64_t reported_positions = 0, reported_games = 0, reported_mutations = 0, reported_acceptance = 0;
  auto publish = [&] {
    if (!o.shared) return;
    o.shared->positions += r.positions - reported_positions;
    o.shared->games += r.games - reported_games;
    o.shared->mutations += r.mutations - reported_mutations;
    o.shared->acceptance += r.acceptance_differences - reported_acceptance;
    reported_positions = r.positions;
    reported_games = r.games;
    reported_mutations = r.mutations;
    reported_acceptance = r.acceptance_differences;
  };
  auto show_progress = [&](bool force) {
    double now = elapsed();
    if (!o.progress || (!force && now - last_progress < 0.25)) return;
    last_progress = now;
    uint64_t games = o.shared ? o.shared->games.load() : r.games;
    uint64_t positions = o.shared ? o.shared->positions.load() : r.positions;
    uint64_t mutations = o.shared ? o.shared->mutations.load() : r.mutations;
    uint64_t acceptance = o.shared ? o.shared->acceptance.load() : r.acceptance_differences;
    // The shared line (arbiter/progress.hpp): games of the run's total, or of its time.
    const uint64_t total = o.seconds > 0 ? 0 : o.shared ? o.shared->total_games : o.games;
    const std::string extra = arb::plural(positions, "position") + " compared (" +
                              std::to_string(static_cast<uint64_t>(positions / std::max(now, 1e-9))) +
                              "/s), " + arb::plural(mutations, "mutation") + ", " +
                              arb::plural(acceptance, "acceptance difference");
    std::cerr << "\r"
              << progress_text("fuzz", "games", games, total, now, extra,
                               o.seconds > 0 ? std::min(1.0, now / o.seconds) : -1)
              << "\033[K" << std::flush;
  };
  auto record = [&](Divergence d) {
    if (!seen.insert(divergence_key(d)).second) return;
    r.divergences.push_back(d);
    if (!r.divergence) r.divergence = d;
  };
  auto finished = [&] { return r.divergences.size() >= o.max_divergences || (o.stop && o.stop->load()); };

  // Coverage: the events of the current game, added to the report when it ends.
  std::set<std::string> game_events;
  auto note = [&](const std::string& e) {
    game_events.insert(e);
    ++r.coverage.events[e];
  };
  auto note_action = [&](const char* prefix, const ActionInfo& info) {
    for (const Step& st : info.steps) {
      if (st.castle != Castle::None) note(std::string(prefix) + "castling");
      if (st.promotion) note(std::string(prefix) + "promotion");
      if (st.kind == StepKind::Place) note(std::string(prefix) + "placement");
      if (st.kind == StepKind::Move && st.capture() && st.removed[0].at != st.to)
        note(std::string(prefix) + "en passant");
      if (*prefix == 'p' && st.capture()) note("played: capture");
    }
  };
  auto observe = [&](Engine& e) {
    Status st = e.status();
    if (st.result != Result::Ongoing) note("end: " + st.reason);
    if (st.in_check) note("check");
    if (st.claim_threefold) note("claim: threefold");
    if (st.claim_fifty) note("claim: fifty-move");
    std::set<std::string> features;
    for (const auto& f : position_features(e.position())) features.insert(f);
    for (const auto& f : features) note(f);
    e.legal_actions(acts);
    std::set<std::string> offered;
    for (const Action& x : acts) {
      ActionInfo info = e.describe(x);
      for (const Step& step : info.steps) {
        if (step.castle != Castle::None) offered.insert("offered: castling");
        if (step.promotion) offered.insert("offered: promotion");
        if (step.kind == StepKind::Place) offered.insert("offered: placement");
        if (step.kind == StepKind::Move && step.capture() && step.removed[0].at != step.to)
          offered.insert("offered: en passant");
      }
    }
    for (const auto& x : offered) note(x);
  };

  for (uint64_t g = 0; !finished(); ++g) {
    if (o.seconds > 0 ? elapsed() >= o.seconds : g >= o.games) break;
    r.games = g + 1;
    if (o.coverage) {
      for (const auto& e : game_events) ++r.coverage.games[e];
      game_events.clear();
    }
    // A stretch of back-and-forth moves in some games, from a random ply on.
    int shuffle_from = -1, shuffle_to = -1;
    if (o.bias && o.shuffle_percent > 0 && choose(100) < static_cast<uint64_t>(o.shuffle_percent)) {
      shuffle_from = static_cast<int>(choose(static_cast<uint64_t>(std::max(1, o.max_plies / 2))));
      shuffle_to = shuffle_from + 12;
    }
    std::string ea, eb;
    bool ka = accepts(*a, start, ea), kb = accepts(*b, start, eb);
    if (!ka && !kb) throw std::runtime_error("neither engine accepts the start position: " + ea);
    if (ka != kb) {
      auto d = reproduce(*pa, *pb, start, "");
      record(*d);
      break;
    }
    if (alphabet.empty()) alphabet = piece_alphabet(a->position());
    // texts[i] is the position before played[i]; texts[0] is the text the game started from.
    std::vector<std::string> texts{start}, played;
    // A mated node one ply away is compared too, off the game's path: random games seldom
    // end by checkmate (Chess 2's midline invasion ends them first), and a ruleset's
    // checkmate result shows only at a mated node. Only the left engine's checking moves
    // are tried (a gives_check per action, a status per check); the game goes on as it
    // would, its random choices untouched. True when the mated node diverges (recorded).
    auto probe_mate = [&](int ply) {
      if (a->chance()) return false;
      for (const Action& x : acts) {
        if (!a->gives_check(x)) continue;
        a->apply(x);
        const bool mate = a->status().end == Termination::Checkmate;
        a->undo();
        if (!mate) continue;
        const std::string text = uci(a->describe(x), true);
        b->legal_actions(bacts);
        const Action* match = nullptr;
        for (const Action& y : bacts)
          if (uci(b->describe(y), true) == text) match = &y;
        if (!match) return false;  // compare_node saw the same actions: not reached
        if (!played.empty()) texts.push_back(a->position());
        played.push_back(text);
        a->apply(x);
        b->apply(*match);
        ++r.positions;
        if (o.coverage) note("probed: mate in one");
        if (auto d = compare_node(*a, *b)) {
          d->plies = ply + 1;
          if (!seen_raw.insert(divergence_key(*d)).second) return true;
          Divergence rep = fewest_plies(left, right, texts, played, *a, *b, *d);
          rep.plies = ply + 1;
          record(shrink(left, right, rep));
          return true;
        }
        a->undo();
        b->undo();
        played.pop_back();
        if (!played.empty()) texts.pop_back();
        return false;
      }
      return false;
    };
    for (int ply = 0; ply <= o.max_plies; ++ply) {
      ++r.positions;
      if (auto d = compare_node(*a, *b)) {
        d->plies = ply;
        if (!seen_raw.insert(divergence_key(*d)).second) break;  // this kind is known: next game
        Divergence rep = fewest_plies(left, right, texts, played, *a, *b, *d);
        rep.plies = ply;
        record(shrink(left, right, rep));
        break;
      }
      if (o.coverage) observe(*a);
      if (ply == o.max_plies) break;
      if (o.mutate_percent > 0 && choose(100) < static_cast<uint64_t>(o.mutate_percent)) {
        std::string what;
        if (auto m = mutate_position(a->position(), alphabet, choose, &what, o.bias)) {
          std::string ma, mb;
          bool ya = accepts(*pa, *m, ma), yb = accepts(*pb, *m, mb);
          if (ya && yb) {
            a->set_position(*m);
            b->set_position(*m);
            texts = {*m};
            played.clear();
            ++r.mutations;
            if (o.coverage) note("mutation: " + what.substr(0, what.find(' ')));
            continue;  // the mutated node is compared as the next ply
          }
          if (ya != yb) {
            ++r.acceptance_differences;
            if (r.acceptance_examples.size() < o.max_examples)
              r.acceptance_examples.push_back({*m, ya ? "left" : "right", ya ? mb : ma});
            if (o.strict_acceptance) {
              Divergence d;
              d.position = *m;
              d.what = "accepts";
              d.left = ya ? "accepted" : "rejected: " + ma;
              d.right = yb ? "accepted" : "rejected: " + mb;
              d.plies = ply;
              record(shrink(left, right, d));
              break;
            }
          } else {
            ++r.mutations_rejected;
          }
        }
      }
      a->legal_actions(acts);
      if (acts.empty() || a->status().result != Result::Ongoing) break;
      if (o.bias && probe_mate(ply)) break;
      const Action* chosen = &acts[rng() % acts.size()];
      if (ply >= shuffle_from && ply < shuffle_to) {
        // The move of four plies ago (the cycle again), else the own last move taken back.
        std::vector<std::string> wants;
        if (played.size() >= 4) wants.push_back(played[played.size() - 4]);
        if (played.size() >= 2)
          if (auto back = reversed_move(played[played.size() - 2])) wants.push_back(*back);
        bool found = false;
        for (const auto& want : wants) {
          for (const Action& x : acts)
            if (uci(a->describe(x), true) == want) {
              chosen = &x;
              found = true;
              break;
            }
          if (found) break;
        }
        if (o.coverage && found && ply == shuffle_from + 4) note("shuffle");
      }
      const Action& pick = *chosen;
      std::string text = uci(a->describe(pick), true);
      if (o.coverage) note_action("played: ", a->describe(pick));
      b->legal_actions(bacts);
      const Action* match = nullptr;
      for (const Action& x : bacts)
        if (uci(b->describe(x), true) == text) match = &x;
      if (!played.empty()) texts.push_back(a->position());
      played.push_back(text);
      a->apply(pick);
      b->apply(*match);
    }
    publish();
    show_progress(false);
  }
  if (o.coverage) {
    for (const auto& e : game_events) ++r.coverage.games[e];
    game_events.clear();
  }
  publish();
  show_progress(true);
  if (o.progress) std::cerr << "\r\033[K" << std::flush;
  r.seconds = elapsed();
  return r;
}

Report run_parallel(const EngineFactory& left, const EngineFactory& right, const std::string& start,
                    const Options& o, int jobs) {
  if (jobs <= 1) return run(left, right, start, o);
  std::vector<Report> reports(static_cast<size_t>(jobs));
  std::atomic<bool> stop{false};
  Progress shared;
  shared.total_games = o.seconds > 0 ? 0 : o.games;
  parallel_for(jobs, [&](int j, std::stop_token) {
    Options oj = o;
    oj.seed = o.seed + static_cast<uint64_t>(j);
    oj.games = o.games / static_cast<uint64_t>(jobs) + (static_cast<uint64_t>(j) < o.games % jobs ? 1 : 0);
    oj.progress = o.progress && j == 0;
    oj.shared = &shared;
    if (o.seconds > 0) oj.stop = &stop;
    try {
      reports[static_cast<size_t>(j)] = run(left, right, start, oj);
    } catch (...) {
      stop = true;  // the other jobs end their games (parallel_for passes the error on)
      throw;
    }
    if (!reports[static_cast<size_t>(j)].divergences.empty()) stop = true;
  });
  Report r;
  for (const auto& rj : reports) merge(r, rj, o.max_divergences, o.max_examples);
  return r;
}

arb::Json to_json(const Divergence& d) {
  return {{"position", d.position}, {"action", d.action}, {"what", d.what},  {"left", d.left},
          {"right", d.right},       {"diff", d.diff},     {"plies", d.plies}};
}

std::string coverage_text(const Report& r) {
  std::string out;
  double per = r.games ? 1000.0 / static_cast<double>(r.games) : 0;
  char line[256];
  std::snprintf(line, sizeof line, "  %-28s %14s %16s\n", "event", "games/1000", "events/1000");
  out += line;
  for (const auto& [k, events] : r.coverage.events) {
    auto it = r.coverage.games.find(k);
    uint64_t games = it == r.coverage.games.end() ? 0 : it->second;
    std::snprintf(line, sizeof line, "  %-28s %14.1f %16.1f\n", k.c_str(), static_cast<double>(games) * per,
                  static_cast<double>(events) * per);
    out += line;
  }
  return out;
}

arb::Json coverage_json(const Report& r) {
  double per = r.games ? 1000.0 / static_cast<double>(r.games) : 0;
  auto tenths = [](double x) { return std::round(x * 10) / 10; };  // one decimal, as the table
  arb::Json out = arb::Json::object();
  for (const auto& [k, events] : r.coverage.events) {
    auto it = r.coverage.games.find(k);
    uint64_t games = it == r.coverage.games.end() ? 0 : it->second;
    out[k] = {{"games_per_1000", tenths(static_cast<double>(games) * per)},
              {"events_per_1000", tenths(static_cast<double>(events) * per)}};
  }
  return out;
}

arb::Json to_json(const AcceptanceDifference& a) {
  return {{"position", a.position}, {"accepted_by", a.accepted_by}, {"error", a.error}};
}

}  // namespace arb::fuzz
