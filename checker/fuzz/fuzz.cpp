#include "fuzz/fuzz.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <set>

#include "arbiter/fen.hpp"
#include "arbiter/notation.hpp"

namespace arb::fuzz {

namespace {

std::vector<std::string> action_texts(Engine& e, std::vector<Action>& acts) {
  e.legal_actions(acts);
  std::vector<std::string> t;
  t.reserve(acts.size());
  for (const Action& a : acts) t.push_back(uci(e.describe(a), true));
  return t;
}

}  // namespace

std::string status_text(const Status& s) {
  std::string t = to_string(s.result) + " " + (s.reason.empty() ? "ongoing" : s.reason);
  if (s.in_check) t += " check";
  if (s.claim_threefold) t += " claim-threefold";
  if (s.claim_fifty) t += " claim-fifty";
  return t;
}

namespace {
std::string json_str(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

}  // namespace

std::optional<Divergence> reproduce(Engine& a, Engine& b, const std::string& position, const std::string& action) {
  try {
    a.set_position(position);
    b.set_position(position);
  } catch (const PositionError&) {
    return std::nullopt;
  }
  if (!action.empty()) {
    std::vector<Action> acts;
    bool played[2] = {false, false};
    Engine* es[2] = {&a, &b};
    for (int k = 0; k < 2; ++k) {
      es[k]->legal_actions(acts);
      for (const Action& x : acts)
        if (uci(es[k]->describe(x), true) == action) {
          es[k]->apply(x);
          played[k] = true;
          break;
        }
    }
    if (!played[0] || !played[1]) return std::nullopt;  // the action itself diverges: seen at the parent
  }
  return compare_node(a, b);
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
    d.left = std::to_string(as.size()) + " actions";
    d.right = std::to_string(bs.size()) + " actions";
    std::vector<std::string> only_a, only_b;
    std::set_difference(as.begin(), as.end(), bs.begin(), bs.end(), std::back_inserter(only_a));
    std::set_difference(bs.begin(), bs.end(), as.begin(), as.end(), std::back_inserter(only_b));
    for (const auto& s : only_a) d.diff += (d.diff.empty() ? "" : " ") + ("+" + s);
    for (const auto& s : only_b) d.diff += (d.diff.empty() ? "" : " ") + ("-" + s);
    return d;
  }
  std::string sa = status_text(a.status()), sb = status_text(b.status());
  if (sa != sb) {
    Divergence d;
    d.position = a.position();
    d.what = "status";
    d.left = sa;
    d.right = sb;
    return d;
  }
  std::string pa = a.position(), pb = b.position();
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

Report run(const EngineFactory& left, const EngineFactory& right, const std::string& start, const Options& o) {
  Report r;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::mt19937_64 rng(o.seed);
  auto a = left(), b = right();
  std::vector<Action> acts, bacts;
  for (uint64_t g = 0;; ++g) {
    if (o.seconds > 0 ? elapsed() >= o.seconds : g >= o.games) break;
    a->set_position(start);
    b->set_position(start);
    std::string parent, last_action;
    for (int ply = 0; ply <= o.max_plies; ++ply) {
      ++r.positions;
      if (auto d = compare_node(*a, *b)) {
        d->plies = ply;
        // The smallest reproducer: the node's own text (either engine's), else the parent
        // position and the action that led here.
        auto fa = left(), fb = right();
        std::optional<Divergence> rep;
        for (const std::string& text : {a->position(), b->position()})
          if (!rep && (rep = reproduce(*fa, *fb, text, ""))) rep->position = text;
        if (!rep && !parent.empty()) {
          rep = reproduce(*fa, *fb, parent, last_action);
          if (rep) {
            rep->position = parent;
            rep->action = last_action;
          }
        }
        if (rep) {
          rep->plies = ply;
          d = rep;
        }
        r.games = g + 1;
        r.divergence = shrink(left, right, *d);
        r.seconds = elapsed();
        return r;
      }
      a->legal_actions(acts);
      if (acts.empty() || a->status().result != Result::Ongoing) break;
      const Action& pick = acts[rng() % acts.size()];
      std::string text = uci(a->describe(pick), true);
      b->legal_actions(bacts);
      const Action* match = nullptr;
      for (const Action& x : bacts)
        if (uci(b->describe(x), true) == text) match = &x;
      parent = a->position();
      last_action = text;
      a->apply(pick);
      b->apply(*match);
    }
    r.games = g + 1;
    if (o.progress && (g % 20 == 0))
      std::cerr << "\rfuzz: " << r.games << " games, " << r.positions << " positions compared, "
                << static_cast<uint64_t>(r.positions / std::max(elapsed(), 1e-9)) << "/s" << std::flush;
  }
  if (o.progress) std::cerr << "\n";
  r.seconds = elapsed();
  return r;
}

Divergence shrink(const EngineFactory& left, const EngineFactory& right, Divergence d) {
  // Only FEN-like texts (a board field of ranks separated by '/') are shrunk here.
  if (d.position.find('/') == std::string::npos || d.position.find('(') != std::string::npos) return d;
  auto a = left(), b = right();
  bool progress = true;
  while (progress) {
    progress = false;
    size_t board_end = d.position.find_first_of(" [");
    std::string board = d.position.substr(0, board_end), rest = d.position.substr(board_end);
    // Expand the board into single characters per square.
    std::string cells;
    for (char c : board) {
      if (std::isdigit(static_cast<unsigned char>(c))) cells.append(static_cast<size_t>(c - '0'), '.');
      else cells.push_back(c);
    }
    for (size_t i = 0; i < cells.size(); ++i) {
      if (cells[i] == '.' || cells[i] == '/' || cells[i] == 'K' || cells[i] == 'k') continue;
      std::string trial = cells;
      trial[i] = '.';
      std::string packed;
      int run = 0;
      for (char c : trial) {
        if (c == '.') {
          ++run;
          continue;
        }
        if (run) packed += std::to_string(run);
        run = 0;
        packed.push_back(c);
      }
      if (run) packed += std::to_string(run);
      std::string candidate = packed + rest;
      if (auto nd = reproduce(*a, *b, candidate, d.action)) {
        nd->plies = d.plies;
        nd->position = candidate;
        nd->action = d.action;
        d = *nd;
        progress = true;
        break;
      }
    }
  }
  return d;
}

std::string to_json(const Divergence& d) {
  return "{\"position\":" + json_str(d.position) + ",\"action\":" + json_str(d.action) + ",\"what\":" + json_str(d.what) + ",\"left\":" + json_str(d.left) +
         ",\"right\":" + json_str(d.right) + ",\"diff\":" + json_str(d.diff) + ",\"plies\":" + std::to_string(d.plies) +
         "}";
}

}  // namespace arb::fuzz
