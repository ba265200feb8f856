// Composers' stipulations (see arbiter/stipulation.hpp for what each one asks).
//
// Direct, self and reflex play are AND/OR proofs over (position, attacker moves left);
// help and series play are exhaustive cooperative searches that list every line, with a
// table of the (position, half-moves left) nodes proved to hold no solution. Every table
// entry is a proof; a node cut by the budget stores nothing.
#include "arbiter/stipulation.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <stdexcept>

#include "arbiter/notation.hpp"
#include "arbiter/parallel.hpp"
#include "stip_search.hpp"

namespace arb::stip {

std::string Stipulation::text() const {
  std::string s = series ? "ser-" : "";
  if (play == Play::Help) s += "h";
  if (play == Play::Self) s += "s";
  if (play == Play::Reflex) s += "r";
  s += aim == Aim::Mate ? "#" : "=";
  s += std::to_string(moves);
  if (half) s += ".5";
  return s;
}

std::optional<Stipulation> parse_stipulation(std::string_view text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Stipulation s;
  size_t i = 0;
  if (t.rfind("ser-", 0) == 0) {
    s.series = true;
    i = 4;
  }
  if (i < t.size() && (t[i] == 'h' || t[i] == 's' || t[i] == 'r')) {
    s.play = t[i] == 'h' ? Play::Help : t[i] == 's' ? Play::Self : Play::Reflex;
    ++i;
  }
  if (s.series && s.play == Play::Reflex) return std::nullopt;
  if (i >= t.size() || (t[i] != '#' && t[i] != '=')) return std::nullopt;
  s.aim = t[i] == '#' ? Aim::Mate : Aim::Stalemate;
  ++i;
  size_t j = i;
  while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
  if (j == i || j - i > 3) return std::nullopt;
  s.moves = std::stoi(t.substr(i, j - i));
  if (t.substr(j) == ".5") {
    if (s.play != Play::Help || s.series) return std::nullopt;
    s.half = true;
  } else if (j != t.size()) {
    return std::nullopt;
  }
  if (s.moves < (s.half ? 0 : 1) || s.moves > kMaxMoves) return std::nullopt;
  return s;
}

namespace {

using namespace detail;

bool keyed(const Stipulation& s) {
  return !s.series && s.play != Play::Help;
}

// Texts of a line from the (start) position: series moves before the last are each
// followed by a change of the side to move.
Line texts(const Engine& start, const std::vector<Action>& line, const Stipulation& s, int moves) {
  auto e = start.clone();
  Line l;
  l.moves = moves;
  for (size_t i = 0; i < line.size(); ++i) {
    l.uci.push_back(uci(e->describe(line[i]), e->chess960()));
    l.san.push_back(san(*e, line[i]));
    e->apply(line[i]);
    if (s.series && static_cast<int>(i) + 1 < moves) {
      std::string t = flipped(e->position());
      e->set_position(t);
    }
  }
  return l;
}

// The texts of many help lines from one start: the search lists them depth first, so a
// line shares most of its moves with the one before. Those moves' texts are kept (the
// engine undoes back to the shared part and plays on), so a move's SAN, which lists the
// legal moves around it, is made once per distinct prefix, not once per line (an h#4 has
// thousands of lines).
class HelpTexts {
 public:
  explicit HelpTexts(const Engine& start) : e_(start.clone()) {}
  Line operator()(const std::vector<Action>& line, int moves) {
    size_t common = 0;
    while (common < played_.size() && common < line.size() && played_[common] == line[common]) ++common;
    while (played_.size() > common) {
      e_->undo();
      played_.pop_back();
      uci_.pop_back();
      san_.pop_back();
    }
    for (size_t i = common; i < line.size(); ++i) {
      uci_.push_back(uci(e_->describe(line[i]), e_->chess960()));
      san_.push_back(san(*e_, line[i]));
      e_->apply(line[i]);
      played_.push_back(line[i]);
    }
    Line l;
    l.moves = moves;
    l.uci = uci_;
    l.san = san_;
    return l;
  }

 private:
  std::unique_ptr<Engine> e_;
  std::vector<Action> played_;
  std::vector<std::string> uci_, san_;
};

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Runs v = work(search, i) for every i in [0, n): on `main` alone without Options::jobs,
// else on o.jobs searches of their own (each a clone of `start`) that take the next i in
// turn and share one table and the node budget. A Stop in one stops all (its reason in
// main.why_). With `out`, out[i] = v, and a thread left without an i to take helps
// with an i another thread is still searching (the one with the fewest helpers, then the
// earliest): it searches the same first move with the defences in another order, sharing
// the table, and whichever finishes first gives out[i], the other abandons it (the value
// is a proof, the same whoever finds it). Without `out` (help play: lines in move order)
// there is no helping. `res` gets each thread's share; returns the nodes the other
// searches counted.
template <class Work>
uint64_t split(const Options& o, const Engine& start, Search& main, size_t n, Work&& work,
               std::vector<int>* out, Result& res) {
  if (o.jobs <= 1 || n < 2) {
    for (size_t i = 0; i < n; ++i) {
      const int v = work(main, i);
      if (out) (*out)[i] = v;
    }
    return 0;
  }
  Table table(o.table_mb, false);
  Shared team;
  struct Item {
    std::atomic<bool> done{false};
    std::atomic<int> workers{0};
  };
  std::vector<Item> items(n);
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> nodes{0};
  std::mutex mu;
  const int jobs = std::min<int>(o.jobs, static_cast<int>(n));
  std::vector<ThreadWork> share(static_cast<size_t>(jobs));
  const auto t0 = Clock::now();
  // An unsettled i someone is searching, the fewest helpers first; n: none.
  auto to_help = [&]() {
    size_t best = n;
    int fewest = 0;
    for (size_t i = 0; i < n; ++i) {
      const int k = items[i].workers.load();
      if (k > 0 && !items[i].done.load() && (best == n || k < fewest)) best = i, fewest = k;
    }
    return best;
  };
  arb::parallel_for(jobs, [&](int j, std::stop_token) {
    Options oj = o;
    if (j) oj.progress = nullptr;  // one progress line
    Search w(start, oj, &table, &team);
    ThreadWork& me = share[static_cast<size_t>(j)];
    const double c0 = thread_cpu_seconds();
    auto account = [&]() {
      me.nodes = w.nodes();
      me.busy = std::chrono::duration<double>(Clock::now() - t0).count();
      me.cpu = thread_cpu_seconds() - c0;
      nodes += w.nodes();
    };
    try {
      for (;;) {
        size_t i = next.fetch_add(1);
        if (i >= n && (!out || (i = to_help()) == n)) break;
        const int helper = items[i].workers.fetch_add(1);
        if (helper > 0) ++me.helped;
        w.watch(&items[i].done);
        w.help_as(helper);
        const uint64_t before = w.nodes();
        try {
          const int v = work(w, i);
          if (!items[i].done.exchange(true) && out) (*out)[i] = v;
        } catch (const Abandon&) {
          w.unwind();
          ++me.abandoned;
          me.dropped += w.nodes() - before;
        }
      }
    } catch (const Stop&) {
      team.halt = true;
      std::lock_guard<std::mutex> lock(mu);
      if (!w.why_.empty() && main.why_.empty()) main.why_ = w.why_;
      account();
      throw;
    }
    account();
  });
  res.split_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  res.threads.resize(std::max(res.threads.size(), share.size()));
  for (size_t j = 0; j < share.size(); ++j) {
    ThreadWork& t = res.threads[j];
    t.nodes += share[j].nodes;
    t.busy += share[j].busy;
    t.cpu += share[j].cpu;
    t.helped += share[j].helped;
    t.abandoned += share[j].abandoned;
    t.dropped += share[j].dropped;
  }
  return nodes;
}

// Help and series play: each length from the shortest up (with Options::shorter), N last;
// every line counted into res and, unless Options::count_only, spelled and passed to
// Options::on_line or kept in res. Options::max_lines stops the search at the line after
// them (res.more). Returns the nodes the --jobs searches counted.
uint64_t help_lines(const Options& o, Search& sr, const Engine& start, Result& res) {
  const Stipulation& s = o.stip;
  const int full = s.series ? s.moves : 2 * s.moves + (s.half ? 1 : 0);
  const int step = s.series ? 1 : 2;
  std::vector<int> lengths;
  for (int h = o.shorter ? (full % step == 0 ? step : 1) : full; h <= full; h += step) lengths.push_back(h);
  auto moves_of = [&](int h) { return s.series ? h : h / 2; };
  HelpTexts help_texts(start);
  int h = 0, best = -1;
  // One line, in the order lines are listed.
  auto emit = [&](const std::vector<Action>& line) {
    if (o.max_lines && res.solution_count + res.shorter_count >= o.max_lines) {
      res.more = true;
      throw Stop{};
    }
    if (best < 0) best = moves_of(h);
    ++(h == full ? res.solution_count : res.shorter_count);
    if (o.count_only) return;
    Line l = s.series ? texts(start, line, s, moves_of(h)) : help_texts(line, moves_of(h));
    if (o.on_line)
      o.on_line(l, h == full);
    else
      (h == full ? res.solutions : res.shorter).push_back(std::move(l));
  };
  uint64_t extra_nodes = 0;
  try {
    for (int len : lengths) {
      h = len;
      sr.clear_path();
      if (s.series || o.jobs <= 1) {
        sr.sink = emit;
        s.series ? sr.series(h) : sr.help(h);
        continue;
      }
      // Help play with --jobs: the first moves split; each one's lines are held until every
      // earlier first move's are out, then listed in move order (count_only without a
      // limit: only counted). A first move holds at most max_lines + 1 lines: with more, the
      // limit is reached when they are listed.
      std::vector<Action> ms;
      Engine& e = sr.engine();
      const Status st = e.status_and_actions(ms);
      if (st.end != Termination::None && !(st.end == Termination::InsufficientMaterial && !ms.empty()))
        continue;
      struct Done {
        std::vector<std::vector<Action>> lines;
        uint64_t counted = 0;
        bool ready = false;
      };
      std::vector<Done> per(ms.size());
      size_t next_out = 0;
      std::mutex mu;
      const bool just_count = o.count_only && !o.max_lines;
      struct Enough {};
      extra_nodes += split(
          o, start, sr, ms.size(),
          [&](Search& w, size_t i) {
            Done d;
            w.clear_path();
            w.sink = [&](const std::vector<Action>& line) {
              ++d.counted;
              if (just_count) return;
              d.lines.push_back(line);
              if (o.max_lines && d.lines.size() > o.max_lines) throw Enough{};
            };
            try {
              w.help_move(ms[i], h);
            } catch (const Enough&) {
              w.unwind();
            }
            w.sink = nullptr;  // it refers to d
            std::lock_guard<std::mutex> lock(mu);
            per[i] = std::move(d);
            per[i].ready = true;
            for (; next_out < per.size() && per[next_out].ready; ++next_out) {
              Done& x = per[next_out];
              if (just_count) {
                if (x.counted && best < 0) best = moves_of(h);
                (h == full ? res.solution_count : res.shorter_count) += x.counted;
              }
              for (const auto& line : x.lines) emit(line);
              x.lines = {};
              x.counted = 0;
            }
            return 0;
          },
          nullptr, res);
    }
  } catch (const Stop&) {
    sr.sink = nullptr;  // it refers to this frame
    if (!res.more) throw;
    if (best < 0) best = moves_of(h);
  }
  sr.sink = nullptr;
  // The lengths below the shortest solution were all searched (with `shorter`); lengths
  // are not monotone, so with only N searched nothing is proved.
  res.proved_none_below = !o.shorter ? 1 : best < 0 ? s.moves + 1 : best;
  return extra_nodes;
}

}  // namespace

Color starting_side(const Engine& root, const Options& o) {
  if (o.start) return *o.start;
  if (o.stip.play == Play::Help) return (o.stip.series || !o.stip.half) ? Color::Black : Color::White;
  return root.side_to_move();
}

Result solve(const Engine& root, const Options& o) {
  const Stipulation& s = o.stip;
  if (s.moves < (s.half ? 0 : 1) || s.moves > kMaxMoves)
    throw std::invalid_argument("stipulation moves must be 1.." + std::to_string(kMaxMoves));
  if (s.series && s.play == Play::Reflex) throw std::invalid_argument("series reflex play is not supported");
  if (s.half && (s.play != Play::Help || s.series))
    throw std::invalid_argument("N.5 is for help play only (h#N.5, h=N.5)");

  Result res;
  Search sr(root, o);
  Engine& e = sr.engine();
  const Color start = starting_side(root, o);
  if (e.chance())
    throw std::invalid_argument("the position is a chance node: a stipulation needs every draw fixed");
  if (start != e.side_to_move()) sr.flip();
  res.start = start;
  auto start_pos = e.clone();
  uint64_t extra_nodes = 0;  // the --jobs searches'

  try {
    if (keyed(s)) {
      std::vector<Action> ms;
      e.legal_actions(ms);
      // Reflex: an attacker that can mate at once must, and solves nothing.
      std::vector<int> fastest(ms.size(), 0);
      extra_nodes = split(
          o, *start_pos, sr, ms.size(),
          [&](Search& w, size_t i) {
            w.enter(ms[i]);
            // N first: a move that fails within N fails within fewer (every node is
            // monotone), so only the keys are searched again for their fastest length.
            int f = 0;
            if (w.after_attack(s.moves)) {
              f = s.moves;
              for (int k = o.shorter ? 1 : s.moves; k < s.moves; ++k)
                if (w.after_attack(k)) {
                  f = k;
                  break;
                }
            }
            w.unwind();
            return f;
          },
          &fastest, res);
      // Reflex: an attacker that can reach the aim at once must, and solves nothing.
      if (s.play == Play::Reflex && sr.can_reach_now()) std::fill(fastest.begin(), fastest.end(), 0);
      for (size_t i = 0; i < ms.size(); ++i) {
        if (!fastest[i]) continue;
        Line l = texts(*start_pos, {ms[i]}, s, fastest[i]);
        if (o.tree) {
          e.apply(ms[i]);
          l.defences = sr.answers(fastest[i]);
          // The threat: what the key would do if the defender could pass (not after a check).
          if (fastest[i] > 1 && !e.side_in_check()) {
            try {
              auto passed = e.clone();
              passed->set_position(flipped(passed->position()));
              Search t(*passed, o);
              l.threat = t.continuations(fastest[i] - 1);
              for (auto& n : l.threat) n.next.clear();
              l.zugzwang = l.threat.empty();
            } catch (const std::exception&) {
              // a position text that cannot pass: no threat is stated
            }
          }
          e.undo();
        }
        (fastest[i] == s.moves ? res.solutions : res.shorter).push_back(l);
      }
      if (o.tries > 0 && s.play != Play::Reflex) {
        for (size_t i = 0; i < ms.size(); ++i) {
          if (fastest[i]) continue;
          Try t;
          t.uci = uci(e.describe(ms[i]), e.chess960());
          t.san = san(e, ms[i]);
          e.apply(ms[i]);
          std::vector<Action> refs = sr.refutations(s.moves, static_cast<size_t>(o.tries));
          if (!refs.empty() && refs.size() <= static_cast<size_t>(o.tries))
            for (const Action& r : refs) {
              t.refutations_uci.push_back(uci(e.describe(r), e.chess960()));
              t.refutations_san.push_back(san(e, r));
            }
          e.undo();
          if (!t.refutations_uci.empty()) res.tries.push_back(std::move(t));
        }
      }
      int best = 0;
      for (int f : fastest)
        if (f && (!best || f < best)) best = f;
      // Every length below the fastest key was searched (with `shorter`; else only N).
      res.proved_none_below = best ? best : o.shorter ? s.moves + 1 : 1;
      if (!o.shorter && best) res.proved_none_below = 1;  // only N was searched
    } else {
      extra_nodes = help_lines(o, sr, *start_pos, res);
    }
    res.solution_count = std::max<uint64_t>(res.solution_count, res.solutions.size());
    res.shorter_count = std::max<uint64_t>(res.shorter_count, res.shorter.size());
    res.outcome = res.solution_count + res.shorter_count == 0 ? Outcome::None : Outcome::Solved;
  } catch (const Stop&) {
    res.outcome = Outcome::Unknown;
    res.why = sr.why_;
    res.solutions.clear();
    res.shorter.clear();
    res.proved_none_below = 1;
    res.more = false;
  }
  res.nodes = sr.nodes() + extra_nodes;
  res.seconds = sr.seconds();
  return res;
}

}  // namespace arb::stip
