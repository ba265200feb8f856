// Proved puzzles (see arbiter/puzzles.hpp).
#include "arbiter/puzzles.hpp"

#include <chrono>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include "arbiter/json.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/synth/diagram.hpp"
#include "arbiter/wording.hpp"

namespace arb::puzzles {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

std::string join(const std::vector<std::string>& v) {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : " ") + s;
  return o;
}

std::string text(Engine& e, const Action& a) {
  return uci(e.describe(a), e.chess960());
}

bool goal_met(const Status& st, Color prover, solve::Goal goal) {
  Result mine = prover == Color::White ? Result::WhiteWins : Result::BlackWins;
  switch (goal) {
    case solve::Goal::Win:
      return st.result == mine;
    case solve::Goal::Mate:
      return st.result == mine && st.end == Termination::Checkmate;
    case solve::Goal::Draw:
      return st.result == Result::Draw || st.result == mine;
  }
  return false;
}

}  // namespace

// puzzles_stip.cpp: a stipulation puzzle re-solved (sound, the same line and tree); the
// position text with the given side to move.
std::string verify_stipulation(Engine& e, const Puzzle& p);
std::string with_side(const std::string& position, Color side);
bool set_without(Engine& e, const std::string& position, size_t index);

solve::Goal goal_of(const std::string& goal) {
  if (goal == "mate") return solve::Goal::Mate;
  if (goal == "win") return solve::Goal::Win;
  if (goal == "draw") return solve::Goal::Draw;
  throw std::invalid_argument("goal must be mate, win or draw, not `" + goal + "`");
}

std::string options_text(const GameConfig& config) {
  std::string o;
  for (const auto& [name, value] : config.options) o += (o.empty() ? "" : " ") + name + "=" + value;
  return o;
}

std::string to_csv(const std::vector<Puzzle>& puzzles) {
  bool trees = false;
  for (const Puzzle& p : puzzles) trees = trees || !p.tree.empty() || is_stipulation(p.goal);
  std::string o = trees ? "position,goal,depth,solution,variant,options,tree\n"
                        : "position,goal,depth,solution,variant,options\n";
  for (const Puzzle& p : puzzles)
    o += csv_field(p.position) + "," + csv_field(p.goal) + "," + std::to_string(p.depth) + "," +
         csv_field(join(p.solution)) + "," + csv_field(p.variant) + "," + csv_field(p.options) +
         (trees ? "," + csv_field(p.tree) : std::string()) + "\n";
  return o;
}

std::vector<Puzzle> from_csv(const std::string& text) {
  std::vector<synth::PuzzleRow> rows = synth::read_puzzle_csv(text);
  std::vector<Puzzle> out;
  int line = 1;
  for (const auto& r : rows) {
    ++line;
    Puzzle p;
    p.position = r.position;
    p.goal = r.goal;
    p.tree = r.tree;
    if (!is_stipulation(p.goal)) goal_of(p.goal);  // throws for an unknown goal
    try {
      size_t used = 0;
      p.depth = std::stoi(r.depth, &used);
      if (used != r.depth.size() || p.depth < 1 || p.depth > solve::kMaxDepth) throw std::out_of_range("");
    } catch (const std::exception&) {
      throw std::invalid_argument("record " + std::to_string(line) + ": depth `" + r.depth +
                                  "` is not a number from 1 to " + std::to_string(solve::kMaxDepth));
    }
    std::istringstream in(r.solution);
    std::string tok;
    while (in >> tok) p.solution.push_back(tok);
    if (p.solution.empty())
      throw std::invalid_argument("record " + std::to_string(line) + ": empty solution");
    p.variant = r.variant;
    p.options = r.options;
    if (is_stipulation(p.goal) && stip::parse_stipulation(p.goal)->moves != p.depth)
      throw std::invalid_argument("record " + std::to_string(line) + ": depth " + r.depth +
                                  " is not the N of " + p.goal);
    out.push_back(std::move(p));
  }
  return out;
}

std::string verify(Engine& e, const Puzzle& p, size_t table_mb) {
  if (is_stipulation(p.goal)) return verify_stipulation(e, p);
  solve::Goal goal;
  try {
    goal = goal_of(p.goal);
    e.set_position(p.position);
  } catch (const std::exception& ex) {
    return ex.what();
  }
  if (p.solution.empty()) return "empty solution";
  solve::Options o;
  o.goal = goal;
  o.depth = p.depth;
  o.all_keys = true;
  o.table_mb = table_mb;
  o.max_nodes = 20'000'000;  // a puzzle of the corpus takes thousands; never hang
  solve::Result r = solve::solve(e, o);
  if (r.outcome != solve::Outcome::Proved)
    return "the solver does not prove it: " +
           std::string(r.outcome == solve::Outcome::None ? "none" : "unknown") +
           (r.why.empty() ? "" : " (" + r.why + ")");
  if (r.moves != p.depth)
    return "the solver proves it in " + std::to_string(r.moves) + ", not " + std::to_string(p.depth);
  if (!r.why.empty()) return "keys incomplete: " + r.why;
  if (r.keys.size() != 1) return "not a unique key: " + join(r.keys);
  if (r.keys[0] != p.solution[0]) return "the key is " + r.keys[0] + ", not " + p.solution[0];
  if (goal == solve::Goal::Draw) {
    o.goal = solve::Goal::Win;
    o.all_keys = false;
    solve::Result w = solve::solve(e, o);
    if (w.outcome != solve::Outcome::None) return "a draw puzzle whose side to move wins (or may)";
  }
  // The solution replays legally and ends in the goal after `depth` moves of the prover.
  Color prover = e.side_to_move();
  int mine = 0;
  size_t applied = 0;
  std::string why;
  for (const std::string& tok : p.solution) {
    if (e.status().result != Result::Ongoing) {
      why = "the game is over before `" + tok + "`";
      break;
    }
    std::vector<Action> ms;
    e.legal_actions(ms);
    int hits = 0;
    Action found;
    for (const Action& a : ms)
      if (text(e, a) == tok) {
        ++hits;
        found = a;
      }
    if (hits != 1) {
      why = "`" + tok + "` is " + (hits ? "ambiguous" : "not legal") + " after " + plural(applied, "action") +
            " of the solution";
      break;
    }
    if (e.side_to_move() == prover) ++mine;
    e.apply(found);
    ++applied;
  }
  if (why.empty()) {
    if (!goal_met(e.status(), prover, goal))
      why = "the solution does not end in the goal";
    else if (mine != p.depth)
      why = "the solution takes " + plural(mine, "move") + " of the solving side, not " +
            std::to_string(p.depth);
  }
  for (size_t i = 0; i < applied; ++i) e.undo();
  return why;
}

// The puzzle at the engine's position, when it is one (solved with --all-keys under the
// budget, then verified on `check`).
// A stipulation puzzle at the engine's position: sound under the budget, a quiet key when
// asked, and with --economy its idle pieces taken off (each removal that leaves the same
// solution tree is kept), then every piece left proved needed (economy()).
std::optional<Puzzle> candidate_stip(Engine& e, Engine& check, const Options& opt, const GameConfig& config,
                                     Stats& stats) {
  const stip::Stipulation s = *stip::parse_stipulation(opt.stipulation);
  std::string pos = e.position();
  stip::Result r;
  try {
    r = solve_stipulation(e, s, opt.max_nodes, opt.mate_needs_check);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // a position text the stipulation cannot take (series play)
  }
  if (r.outcome == stip::Outcome::Unknown) ++stats.unknown;
  if (!sound(r)) return std::nullopt;
  auto quiet = [&](const std::string& position, const stip::Result& x) {
    if (!opt.quiet_key) return true;
    check.set_position(with_side(position, x.start));
    return check.side_to_move() == x.start && quiet_first_move(check, x.solutions[0].uci[0]);
  };
  if (!quiet(pos, r)) return std::nullopt;
  std::string tree = tree_json(r);
  if (opt.economy) {
    for (bool removed = true; removed;) {
      removed = false;
      for (const BoardPiece& bp : pieces_of(pos)) {
        if (!set_without(check, pos, bp.index)) continue;
        stip::Result x;
        try {
          x = solve_stipulation(check, s, opt.max_nodes, opt.mate_needs_check);
        } catch (const std::invalid_argument&) {
          continue;
        }
        if (sound(x) && tree_json(x) == tree) {
          pos = check.position();
          removed = true;
          break;
        }
      }
    }
  }
  Puzzle p{pos, s.text(), s.moves, r.solutions[0].uci, config.variant, options_text(config), tree};
  if (opt.economy) {
    std::vector<Removal> rs;
    try {
      rs = economy(check, p, opt.max_nodes, opt.mate_needs_check);
    } catch (const std::invalid_argument&) {
      return std::nullopt;  // not a FEN-shaped board
    }
    for (const Removal& x : rs)
      if (x.change == "unchanged" || x.change == "unknown") return std::nullopt;
  }
  if (!verify(check, p, 8).empty()) return std::nullopt;
  return p;
}

// A stipulation that reads, and the qualities only stipulation puzzles take.
void check_options(const Options& opt) {
  if (!opt.stipulation.empty()) {
    auto s = stip::parse_stipulation(opt.stipulation);
    if (!s || s->moves < 1 || s->moves > stip::kMaxMoves)
      throw std::invalid_argument("not a stipulation (#N, h#N, s#N, =N, r#N, ser-...): `" + opt.stipulation +
                                  "`");
  } else if (opt.quiet_key || opt.economy) {
    throw std::invalid_argument(
        "quiet keys and economy are qualities of stipulation puzzles (--stipulation)");
  }
}

// Whether `p` is a position not yet in `out` (economy's reductions of two games may meet).
bool fresh(const std::vector<Puzzle>& out, const Puzzle& p) {
  for (const Puzzle& q : out)
    if (q.position == p.position) return false;
  return true;
}

namespace {

std::optional<Puzzle> candidate(Engine& e, Engine& check, const Options& opt, solve::Goal goal,
                                const GameConfig& config, Stats& stats) {
  ++stats.positions;
  if (!opt.stipulation.empty()) return candidate_stip(e, check, opt, config, stats);
  solve::Options so;
  so.goal = goal;
  so.depth = opt.depth;
  so.all_keys = true;
  so.max_nodes = opt.max_nodes;
  so.table_mb = opt.depth <= 2 ? 1 : 8;
  solve::Result r = solve::solve(e, so);
  if (r.outcome == solve::Outcome::Unknown) ++stats.unknown;
  if (r.outcome != solve::Outcome::Proved || r.moves != opt.depth || r.keys.size() != 1 || !r.why.empty() ||
      r.line.empty() || r.line[0] != r.keys[0])
    return std::nullopt;
  std::string pos = e.position();
  Puzzle p{pos, opt.goal, opt.depth, r.line, config.variant, options_text(config), ""};
  check.set_position(pos);
  if (!verify(check, p, 8).empty()) return std::nullopt;
  return p;
}

}  // namespace

std::vector<Puzzle> select(const Engine& engine, const std::vector<std::string>& positions,
                           const Options& opt, Stats& stats) {
  check_options(opt);
  solve::Goal goal = opt.stipulation.empty() ? goal_of(opt.goal) : solve::Goal::Mate;
  auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<Engine> e = engine.clone(), check = engine.clone();
  GameConfig config = engine.config();
  std::vector<Puzzle> out;
  std::set<std::string> seen;
  for (const std::string& text : positions) {
    if (out.size() >= static_cast<size_t>(std::max(opt.count, 0))) break;
    e->set_position(text);
    if (e->chance() || e->status().result != Result::Ongoing || !seen.insert(e->position()).second) continue;
    if (auto p = candidate(*e, *check, opt, goal, config, stats); p && fresh(out, *p)) {
      out.push_back(*p);
      if (opt.found) opt.found(*p);
    }
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (opt.progress) opt.progress(stats, out.size());
  }
  return out;
}

std::vector<Puzzle> generate(const Engine& start, const Options& opt, Stats& stats) {
  check_options(opt);
  solve::Goal goal = opt.stipulation.empty() ? goal_of(opt.goal) : solve::Goal::Mate;
  if (opt.stipulation.empty() && (opt.depth < 1 || opt.depth > solve::kMaxDepth))
    throw std::invalid_argument("depth must be between 1 and " + std::to_string(solve::kMaxDepth));
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::unique_ptr<Engine> e = start.clone();
  std::unique_ptr<Engine> check = start.clone();
  std::string first = e->position();
  // An engine that takes `start:N` gets a new start per game: ChessMe's and No Stress
  // Chess's shuffles take any seed (N below a million here), Chess 2's Chess960 starts
  // N in 0..959.
  bool shuffle = opt.shuffle_starts;
  uint64_t starts = 0;
  if (shuffle) {
    for (uint64_t n : {uint64_t{1000000}, uint64_t{960}}) {
      try {
        check->set_position("start:" + std::to_string(n - 1));
        starts = n;
        break;
      } catch (const std::exception&) {
      }
    }
    shuffle = starts != 0;
  }
  GameConfig config = start.config();
  std::mt19937_64 rng(opt.seed);
  std::vector<Puzzle> out;
  std::set<std::string> seen;
  std::vector<Action> ms, caps;
  while (out.size() < static_cast<size_t>(std::max(opt.count, 0)) && stats.games < opt.max_games) {
    if (opt.timeout > 0 && elapsed() >= opt.timeout) break;
    if (shuffle)
      e->set_position("start:" + std::to_string(rng() % starts));
    else
      e->set_position(first);
    ++stats.games;
    for (int ply = 0; ply < opt.max_plies && out.size() < static_cast<size_t>(opt.count); ++ply) {
      if (opt.timeout > 0 && elapsed() >= opt.timeout) break;
      if (e->chance()) break;  // a draw the position does not fix: this game ends here
      if (e->status().result != Result::Ongoing) break;
      std::string pos = e->position();
      if (ply >= 8 && !seen.count(pos)) {
        seen.insert(pos);
        if (auto p = candidate(*e, *check, opt, goal, config, stats); p && fresh(out, *p)) {
          out.push_back(*p);
          if (opt.found) opt.found(*p);
          if (opt.progress) opt.progress(stats, out.size());
          break;  // one puzzle per game: the next positions of a game are mostly the same puzzle
        }
      }
      // The next move: a capture half of the time when there is one, else any move.
      e->legal_actions(ms);
      if (ms.empty()) break;
      caps.clear();
      for (const Action& a : ms) {
        ActionInfo info = e->describe(a);
        for (const Step& s : info.steps)
          if (s.capture()) {
            caps.push_back(a);
            break;
          }
      }
      const std::vector<Action>& pool = !caps.empty() && rng() % 2 == 0 ? caps : ms;
      e->apply(pool[rng() % pool.size()]);
    }
    stats.seconds = elapsed();
    if (opt.progress) opt.progress(stats, out.size());
  }
  stats.seconds = elapsed();
  return out;
}

}  // namespace arb::puzzles
