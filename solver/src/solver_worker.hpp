// The forced-win solver's search thread (solver.cpp has the overview): what the threads
// of one search share, and the Worker with its searches, each in a file of its own:
// alpha-beta (solver_alphabeta.cpp), df-pn (solver_dfpn.cpp), expectimax
// (solver_expectimax.cpp); the principal variations (solver_pv.cpp). Internal.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver_table.hpp"

namespace arb::solve::detail {

struct Shared {
  Clock::time_point start = Clock::now();  // first: the tables' set-up is timed too
  const Options& opt;
  Table table;
  std::unique_ptr<PnTable> pn;  // df-pn only
  Color prover;
  std::atomic<uint64_t> nodes{0};
  std::atomic<bool> stop{false};      // budget or timeout: the whole search ends
  std::atomic<bool> answered{false};  // this iteration's answer is known (a key found)
  std::atomic<bool> unfixed{false};   // Chance::Known met a chance node
  std::atomic<bool> fallback{false};  // df-pn met a chance node: alpha-beta instead
  std::atomic<int> depth{0};
  bool unlimited = false;  // main-line extraction after a proof: no budget
  std::mutex m;
  std::string why;
  Shared(const Options& o, Color p) : opt(o), table(o.table_mb), prover(p) {}
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
  void halt(const std::string& reason) {
    std::lock_guard<std::mutex> lock(m);
    if (why.empty()) why = reason;
    stop = true;
  }
};

// Deferred draws where the engine offers them (ChanceControl); an engine without them
// draws every card when it is dealt, which gives the same values at a higher cost.
inline void defer_draws(Engine& e, bool on) {
  if (ChanceControl* c = e.chance_control()) c->set_deferred_draws(on);
}

class Worker {
 public:
  Worker(Shared& sh, std::unique_ptr<Engine> e, bool main) : sh_(sh), e_(std::move(e)), main_(main) {
    last_progress_ = Clock::now();
    if (sh_.opt.chance != Chance::Known)
      if (ChanceControl* c = e_->chance_control()) c->set_merged_chance(true);  // draws met as multisets
    // Fixed sizes: a search holds references into these across its recursion.
    moves_.resize(kMaxPly);
    killers_.resize(kMaxPly);
    pkillers_.resize(kMaxPly);
    order_.resize(kMaxPly);
    dorder_.resize(kMaxPly);
    children_.resize(kMaxPly);
  }
  Engine& engine() { return *e_; }
  // The proof table's move for the current position (kNoMove: none).
  size_t table_best() const {
    Entry te;
    return sh_.table.probe(e_->hash(), te) ? te.best : kNoMove;
  }
  // A proof of r more moves from here. With pn_mode df-pn first, within a budget of as
  // much work as was done before (total_, at least 10,000): it settles most proving
  // iterations at a fraction of the alpha-beta cost, while alpha-beta refutes faster
  // (its killers and table refutations find the defence at once); when df-pn has not
  // settled the node within its budget the alpha-beta search does, with the table both
  // filled. The work is so at most twice the alpha-beta search's.
  V prove(int r, int ply) {
    if (!pn_mode) return search(r, ply);
    pn_end_ = total_ + std::max<uint64_t>(10000, total_);
    V v = dfpn(r, ply);
    pn_end_ = UINT64_MAX;
    if (v != kUnk || sh_.fallback || halted()) return v;
    return search(r, ply);
  }
  bool pn_mode = false;
  uint64_t applied() const { return total_; }

  bool goal_met(const Status& st) const {
    arb::Result mine = sh_.prover == Color::White ? arb::Result::WhiteWins : arb::Result::BlackWins;
    switch (sh_.opt.goal) {
      case Goal::Win:
        return st.result == mine;
      case Goal::Mate:
        return st.result == mine && st.end == Termination::Checkmate;
      case Goal::Draw:
        return st.result == arb::Result::Draw || st.result == mine;
    }
    return false;
  }
  bool halted() const {
    return sh_.stop.load(std::memory_order_relaxed) || sh_.answered.load(std::memory_order_relaxed) ||
           sh_.fallback.load(std::memory_order_relaxed) || total_ > pn_end_;
  }

  void apply(const Action& a) {
    e_->apply(a);
    ++total_;
    if ((++local_ & 1023) == 0) flush();
  }
  void flush() {
    uint64_t n = sh_.nodes.fetch_add(local_, std::memory_order_relaxed) + local_;
    local_ = 0;
    if (sh_.unlimited) return;
    const Options& o = sh_.opt;
    if (o.max_nodes && n >= o.max_nodes)
      sh_.halt("node budget of " + std::to_string(o.max_nodes) + " reached");
    if (o.timeout > 0 || (main_ && o.progress)) {
      auto now = Clock::now();
      double t = std::chrono::duration<double>(now - sh_.start).count();
      if (o.timeout > 0 && t >= o.timeout) {
        std::string s = std::to_string(o.timeout);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        sh_.halt("timeout of " + s + " s reached");
      }
      if (main_ && o.progress && now - last_progress_ > std::chrono::milliseconds(250)) {
        last_progress_ = now;
        o.progress(Progress{sh_.depth.load(), n, t});
      }
    }
  }
  void flush_final() {
    sh_.nodes.fetch_add(local_);
    local_ = 0;
  }

  V chance_unfixed();

  // A chance node after the prover's last move: whether the draw itself ends the game in
  // the goal. Decided positions are not chance nodes, so this is a rare case; a draw that
  // leads to another draw counts as not ending the game.
  V horizon_chance();
  double horizon_expect();

  std::vector<Action>& buffer(int ply) {
    if (ply >= kMaxPly)
      throw std::runtime_error("solver: line longer than " + std::to_string(kMaxPly) + " plies");
    return moves_[ply];
  }

  // Can the prover force the goal within r more of its own moves from here?
  V search(int r, int ply);

  // The prover's moves in the order to try: at r == 1 the table's move first (every move
  // is one status() call); deeper, a move that wins at once returns at once, a move that
  // ends the game otherwise is dropped, and the rest go checks first, then by the fewest
  // replies left to the defender (ties: generation order).
  // Returns kYes (and sets `win`) when some move reaches the goal at once.
  // The table's move first, then this ply's prover killers (a move that proved against
  // one defence often proves against the next: problem solvers' most useful ordering).
  int first_score(size_t i, size_t tt_best, int ply, int score) const;

  V order_prover(int r, int ply, size_t tt_best, size_t& win, int& win_in);

  V prover(int r, int ply, uint64_t key, size_t tt_best);

  V defender(int r, int ply, uint64_t key, size_t tt_best);

  // The index of `a` in the engine's own order (moves_[ply] was reordered in place).
  size_t index_of(const Action& a, int ply);

  // ---- df-pn -------------------------------------------------------------------------
  // A node is (position, r): r the prover's moves left. Prover nodes are OR nodes (pn the
  // minimum over the children, dn the sum), defender nodes AND nodes. Every prover move
  // lowers r, so the (position, r) graph has no cycles and a settled value is a proof.
  // A prover node with r == 1 is settled when first seen (a move that reaches the goal
  // at once or none); a defender node first counts its replies (the mobility heuristic:
  // pn = replies, doubled when the prover's move gave no check), a prover node counts its
  // moves (pn 1, dn = moves: each must be refuted).
  struct Child {
    uint32_t move;
    uint32_t pn, dn;
    uint64_t key;
  };
  static uint64_t pn_key(uint64_t hash, int r) {
    return hash ^ (static_cast<uint64_t>(r) * 0x9E3779B97F4A7C15ULL);
  }

  // The value of the current position as a node with r moves left, without expanding it.
  void look(int r, Child& c);

  // Expands the node (current position, r) until its pn reaches thpn or its dn thdn, or
  // it is settled; returns its (pn, dn). Settled values go to the proof table.
  std::pair<uint32_t, uint32_t> mid(int r, int ply, uint64_t hash, uint32_t thpn, uint32_t thdn);

  // df-pn from the current position with r prover moves left: kYes, kNo or kUnk.
  V dfpn(int r, int ply);

  // The action expect() chose at the current (non-chance) position with r prover moves
  // left: an index into legal_actions, or kNoMove when it has not valued the position.
  size_t expect_choice(int r) const;

  // Expectimax (Chance::Expected): the probability of reaching the goal within r prover
  // moves, prover maximising, defender minimising, chance weighted.
  double expect(int r, int ply);

 private:
  struct Killers {
    Action k[2];
    void add(const Action& a) {
      if (k[0] == a) return;
      k[1] = k[0];
      k[0] = a;
    }
  };
  Shared& sh_;
  std::unique_ptr<Engine> e_;
  bool main_;
  uint64_t local_ = 0;
  uint64_t total_ = 0;  // work: actions applied and last moves tested for check
  Clock::time_point last_progress_;
  std::vector<std::vector<Action>> moves_;
  std::vector<Killers> killers_, pkillers_;
  std::vector<std::vector<std::pair<int, uint32_t>>> order_;
  std::vector<std::vector<std::pair<int, Action>>> dorder_;  // defender(): replies scored
  // A reply that leads to a chance node is scored after every counted one.
  static constexpr int kChanceScore = 1 << 20;
  // order_prover(): a move whose reply position the table refutes goes last.
  static constexpr int kRefutedScore = 1 << 30;
  std::vector<std::vector<Child>> children_;
  int scratch_ply_ = 0;
  uint64_t pn_end_ = UINT64_MAX;  // df-pn's budget: halted past this many actions
  std::vector<Action> scratch_;
  std::unordered_map<uint64_t, double> memo_;
  std::unordered_map<uint64_t, uint32_t> choice_;  // expect(): the action that gave the value
};

// An action's canonical text (solver_pv.cpp).
std::string text(Engine& e, const Action& a);
// The main line after a proof in `moves` (solver_pv.cpp).
std::vector<std::string> main_line(Worker& w, Color prover, int moves);
// The expected line after an expectimax value (solver_pv.cpp).
std::vector<std::string> expected_line(Worker& w, Color prover, int moves);

}  // namespace arb::solve::detail
