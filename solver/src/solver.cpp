// The forced-win solver (see arbiter/solver.hpp for what it proves).
//
// A node's value is three-valued: proved (the prover forces the goal within r more moves of
// its own), refuted (it cannot), unknown (the budget ran out, the search was cut because
// another thread already answered, or, with Chance::Known, a draw the position does not
// fix lies on the way). Unknown never enters the table, so every stored value is a proof.
#include "arbiter/solver.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "arbiter/notation.hpp"

namespace arb::solve {
namespace {

using Clock = std::chrono::steady_clock;

enum V : uint8_t { kNo = 0, kYes = 1, kUnk = 2 };

constexpr uint16_t kNoMove = 0xffff;
// Plies of one line: two per prover move, and a draw before any turn.
constexpr int kMaxPly = 4 * kMaxDepth + 16;

// What the table knows of a position: a win within `win` prover moves (0: none known),
// none within `nowin` (0: none known), and the move that proved or refuted it (an index
// into legal_actions, which every engine lists in a fixed order for a position).
struct Entry {
  uint8_t win = 0;
  uint8_t nowin = 0;
  uint16_t best = kNoMove;
};

// Zeroed memory for a table, from the system: pages stay zero and cost nothing until first
// touched. A region of 2 MiB or more is aligned to 2 MiB and asks for transparent huge
// pages: the tables are probed at random, and with 4 KiB pages nearly every probe of a
// large table missed the TLB as well as the cache (a #5 mate search spent a fifth of its
// time on the first load of a probe).
class Region {
 public:
  static constexpr size_t kHuge = size_t{2} << 20;
  Region() = default;
  explicit Region(size_t bytes) {
    len_ = bytes + (bytes >= kHuge ? kHuge : 0);
    void* p = mmap(nullptr, len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    base_ = p;
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (bytes >= kHuge) {
      a = (a + kHuge - 1) & ~(kHuge - 1);
#ifdef MADV_HUGEPAGE
      madvise(reinterpret_cast<void*>(a), bytes, MADV_HUGEPAGE);  // a hint: ignored where off
#endif
    }
    data_ = reinterpret_cast<void*>(a);
  }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  Region(Region&& o) noexcept {
    *this = std::move(o);
  }
  Region& operator=(Region&& o) noexcept {
    std::swap(base_, o.base_);
    std::swap(len_, o.len_);
    std::swap(data_, o.data_);
    return *this;
  }
  ~Region() {
    if (base_) munmap(base_, len_);
  }
  void* data() const {
    return data_;
  }

 private:
  void* base_ = nullptr;
  size_t len_ = 0;
  void* data_ = nullptr;
};

// The number of table slots (a power of two) for `bytes` of memory at `slot` bytes each.
inline size_t slots_for(size_t bytes, size_t slot) {
  size_t n = 1;
  while (n * 2 * slot <= bytes) n *= 2;
  return n;
}

// The tables start small and grow between iterations of the deepening, as the work done so
// far predicts the next iteration's (each extra move has cost 10 to 30 times the one before;
// larger tables measured no faster: zeroing their pages costs time too). A mate in 3 no
// longer pays page faults across 128 MiB it never needs, and a long search gets the whole
// --hash. Growing is single-threaded (no worker is running).
constexpr size_t kStartBytes = size_t{256} << 10;
inline size_t wanted_bytes(uint64_t work, size_t max_bytes) {
  const uint64_t want = std::max<uint64_t>(kStartBytes, work * 64);  // 4 slots of 16 bytes per action so far
  return static_cast<size_t>(std::min<uint64_t>(want, max_bytes));
}

// Shared by the threads without locks: a slot holds (key ^ data, data); a torn write shows
// as a key mismatch and reads as a miss (Hyatt and Mann's lockless hashing).
class Table {
 public:
  explicit Table(size_t mb) : max_bytes_(std::max<size_t>(mb, 1) << 20) { resize(kStartBytes); }
  // Grows to what `work` actions predict (see wanted_bytes), keeping every entry.
  void reserve_for(uint64_t work) {
    size_t n = slots_for(wanted_bytes(work, max_bytes_), sizeof(Slot));
    if (n > mask_ + 1) resize(n * sizeof(Slot));
  }
  bool probe(uint64_t key, Entry& e) const {
    Slot& s = slots_[key & mask_];
    uint64_t d = std::atomic_ref<uint64_t>(s.data).load(std::memory_order_relaxed);
    if ((std::atomic_ref<uint64_t>(s.check).load(std::memory_order_relaxed) ^ d) != key) return false;
    e.win = static_cast<uint8_t>(d);
    e.nowin = static_cast<uint8_t>(d >> 8);
    e.best = static_cast<uint16_t>(d >> 16);
    return true;
  }
  // Merges what is known: the smallest proved depth, the largest refuted one.
  void store(uint64_t key, int win, int nowin, size_t best) {
    Entry e;
    if (probe(key, e)) {
      if (win && (!e.win || win < e.win)) e.win = static_cast<uint8_t>(win);
      if (nowin > e.nowin) e.nowin = static_cast<uint8_t>(nowin);
    } else {
      e.win = static_cast<uint8_t>(win);
      e.nowin = static_cast<uint8_t>(nowin);
    }
    if (best < kNoMove) e.best = static_cast<uint16_t>(best);
    uint64_t d = uint64_t{e.win} | uint64_t{e.nowin} << 8 | uint64_t{e.best} << 16;
    Slot& s = slots_[key & mask_];
    std::atomic_ref<uint64_t>(s.data).store(d, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(s.check).store(key ^ d, std::memory_order_relaxed);
  }

 private:
  // Read and written through std::atomic_ref (several threads share the table).
  struct alignas(16) Slot {
    uint64_t check;
    uint64_t data;
  };
  void resize(size_t bytes) {
    const size_t n = slots_for(bytes, sizeof(Slot));
    Region mem(n * sizeof(Slot));
    Slot* fresh = static_cast<Slot*>(mem.data());
    for (size_t i = 0; slots_ && i <= mask_; ++i) {
      const Slot& s = slots_[i];
      if (s.data) fresh[(s.check ^ s.data) & (n - 1)] = s;  // data 0 says nothing: dropped
    }
    mem_ = std::move(mem);
    slots_ = fresh;
    mask_ = n - 1;
  }
  size_t max_bytes_;
  Region mem_;
  Slot* slots_ = nullptr;
  uint64_t mask_ = 0;
};

// Proof and disproof numbers (df-pn): the smallest number of leaves still to prove (pn) or
// disprove (dn) a node. kInf marks a proved (dn) or disproved (pn) node.
constexpr uint32_t kInf = 1u << 30;
inline uint32_t sat(uint64_t v) {
  return v >= kInf ? kInf : static_cast<uint32_t>(v);
}

// The df-pn working table: unsettled (pn, dn) per (position, remaining prover moves).
// Settled nodes go to the proof Table (win/nowin), which outlives an iteration. Buckets of
// four, a newcomer replaces the entry that cost the least work.
class PnTable {
 public:
  struct Entry {
    uint64_t key = 0;
    uint32_t pn = 0, dn = 0;
    uint32_t work = 0;
    uint8_t r = 0;
    bool used = false;
  };
  explicit PnTable(size_t mb) : max_bytes_(std::max<size_t>(mb, 1) << 20) { resize(kStartBytes); }
  void reserve_for(uint64_t work) {
    size_t n = slots_for(wanted_bytes(work, max_bytes_), sizeof(Entry) * 4);
    if (n > mask_ + 1) resize(n * sizeof(Entry) * 4);
  }
  bool probe(uint64_t key, int r, uint32_t& pn, uint32_t& dn) const {
    const Entry* b = &slots_[(key & mask_) * 4];
    for (int i = 0; i < 4; ++i)
      if (b[i].used && b[i].key == key && b[i].r == r) {
        pn = b[i].pn;
        dn = b[i].dn;
        return true;
      }
    return false;
  }
  void store(uint64_t key, int r, uint32_t pn, uint32_t dn, uint64_t work) {
    Entry* b = &slots_[(key & mask_) * 4];
    Entry* victim = nullptr;
    for (int i = 0; i < 4 && !victim; ++i)
      if (b[i].used && b[i].key == key && b[i].r == r) victim = &b[i];
    for (int i = 0; i < 4 && !victim; ++i)
      if (!b[i].used) victim = &b[i];
    if (!victim) {
      victim = &b[0];
      for (int i = 1; i < 4; ++i)
        if (b[i].work < victim->work) victim = &b[i];
    }
    uint32_t w = static_cast<uint32_t>(std::min<uint64_t>(work, UINT32_MAX));
    if (victim->used && victim->key == key && victim->r == r) w = std::max(w, victim->work);
    *victim = Entry{key, pn, dn, w, static_cast<uint8_t>(r), true};
  }

 private:
  void resize(size_t bytes) {
    const size_t n = slots_for(bytes, sizeof(Entry) * 4);
    Region mem(n * 4 * sizeof(Entry));
    Entry* fresh = static_cast<Entry*>(mem.data());
    for (size_t i = 0; slots_ && i < (mask_ + 1) * 4; ++i) {
      const Entry& e = slots_[i];
      if (!e.used) continue;
      Entry* b = &fresh[(e.key & (n - 1)) * 4];
      for (int j = 0; j < 4; ++j)
        if (!b[j].used) {
          b[j] = e;
          break;
        }
    }
    mem_ = std::move(mem);
    slots_ = fresh;
    mask_ = n - 1;
  }
  size_t max_bytes_;
  Region mem_;
  Entry* slots_ = nullptr;  // zero (unused) until touched
  uint64_t mask_ = 0;
};

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
void defer_draws(Engine& e, bool on) {
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

  V chance_unfixed() {
    if (!sh_.unfixed.exchange(true)) {
      std::lock_guard<std::mutex> lock(sh_.m);
      sh_.why = "the position does not fix the draw (chance node at `" + e_->position() +
                "`; use --chance adversarial or expected)";
    }
    return kUnk;
  }

  // A chance node after the prover's last move: whether the draw itself ends the game in
  // the goal. Decided positions are not chance nodes, so this is a rare case; a draw that
  // leads to another draw counts as not ending the game.
  V horizon_chance() {
    std::vector<ChanceOutcome> outs;
    e_->chance_outcomes(outs);
    size_t met = 0;
    for (const auto& o : outs) {
      apply(o.action);
      if (!e_->chance() && goal_met(e_->status())) ++met;
      e_->undo();
    }
    if (met == outs.size() && met > 0) return kYes;
    if (met == 0 || sh_.opt.chance == Chance::Adversarial) return kNo;
    return chance_unfixed();
  }
  double horizon_expect() {
    std::vector<ChanceOutcome> outs;
    e_->chance_outcomes(outs);
    double p = 0;
    for (const auto& o : outs) {
      apply(o.action);
      if (!e_->chance() && goal_met(e_->status())) p += o.weight;
      e_->undo();
    }
    return p;
  }

  std::vector<Action>& buffer(int ply) {
    if (ply >= kMaxPly)
      throw std::runtime_error("solver: line longer than " + std::to_string(kMaxPly) + " plies");
    return moves_[ply];
  }

  // Can the prover force the goal within r more of its own moves from here?
  V search(int r, int ply) {
    if (halted()) return kUnk;
    if (e_->chance()) {
      if (r == 0) return horizon_chance();
      if (sh_.opt.chance == Chance::Known) return chance_unfixed();
      std::vector<Action>& outs = buffer(ply);
      e_->legal_actions(outs);
      bool unk = false;
      for (size_t i = 0; i < outs.size(); ++i) {
        apply(moves_[ply][i]);
        V v = search(r, ply + 1);
        e_->undo();
        if (v == kNo) return kNo;
        if (v == kUnk) {
          if (halted()) return kUnk;
          unk = true;
        }
      }
      return unk ? kUnk : kYes;
    }
    if (r == 0) {
      Status st = e_->status();
      return st.result != arb::Result::Ongoing && goal_met(st) ? kYes : kNo;
    }
    // The table first (it holds proofs about the position, terminal or not), then the
    // status and the actions in one listing.
    uint64_t key = e_->hash();
    Entry te;
    bool hit = sh_.table.probe(key, te);
    if (hit) {
      if (te.win && te.win <= r) return kYes;
      if (te.nowin >= r) return kNo;
    }
    std::vector<Action>& ms = buffer(ply);
    Status st = e_->status_and_actions(ms);
    if (st.result != arb::Result::Ongoing) return goal_met(st) ? kYes : kNo;
    if (ms.empty()) return kNo;
    size_t tt_best = hit && te.best < ms.size() ? te.best : kNoMove;
    if (e_->side_to_move() == sh_.prover) return prover(r, ply, key, tt_best);
    return defender(r, ply, key, tt_best);
  }

  // The prover's moves in the order to try: at r == 1 the table's move first (every move
  // is one status() call); deeper, a move that wins at once returns at once, a move that
  // ends the game otherwise is dropped, and the rest go checks first, then by the fewest
  // replies left to the defender (ties: generation order).
  // Returns kYes (and sets `win`) when some move reaches the goal at once.
  // The table's move first, then this ply's prover killers (a move that proved against
  // one defence often proves against the next: problem solvers' most useful ordering).
  int first_score(size_t i, size_t tt_best, int ply, int score) const {
    if (i == tt_best) return -3;
    const Action& a = moves_[ply][i];
    if (a == pkillers_[ply].k[0]) return -2;
    if (a == pkillers_[ply].k[1]) return -1;
    return score;
  }

  V order_prover(int r, int ply, size_t tt_best, size_t& win, int& win_in) {
    std::vector<std::pair<int, uint32_t>>& order = order_[ply];
    order.clear();
    size_t n = moves_[ply].size();
    if (r == 1) {
      for (size_t i = 0; i < n; ++i)
        order.push_back({first_score(i, tt_best, ply, 0), static_cast<uint32_t>(i)});
      std::stable_sort(order.begin(), order.end());
      return kNo;
    }
    int check_bonus = sh_.opt.goal == Goal::Draw ? 0 : 1 << 16;
    for (size_t i = 0; i < n; ++i) {
      apply(moves_[ply][i]);
      int score;
      if (e_->chance()) {
        score = check_bonus / 2;
      } else {
        // The table first (an enhanced transposition cutoff: the move is played anyway): a
        // reply position proved within r-1 proves this node; one refuted within r-1 is a
        // move that cannot prove, and needs no ordering.
        Entry te;
        if (sh_.table.probe(e_->hash(), te)) {
          if (te.win && te.win <= r - 1) {
            e_->undo();
            win = i;
            win_in = te.win + 1;
            return kYes;
          }
          if (te.nowin >= r - 1) {
            e_->undo();
            order.push_back({kRefutedScore, static_cast<uint32_t>(i)});
            continue;
          }
        }
        Status st = e_->status_and_actions(scratch_);
        if (st.result != arb::Result::Ongoing) {
          bool met = goal_met(st);
          e_->undo();
          if (met) {
            win = i;
            win_in = 1;
            return kYes;
          }
          continue;
        }
        score = (st.in_check ? 0 : check_bonus) + static_cast<int>(scratch_.size());
      }
      e_->undo();
      order.push_back({first_score(i, tt_best, ply, score), static_cast<uint32_t>(i)});
    }
    std::stable_sort(order.begin(), order.end());
    return kNo;
  }

  V prover(int r, int ply, uint64_t key, size_t tt_best) {
    size_t win = kNoMove;
    int win_in = 1;
    if (order_prover(r, ply, tt_best, win, win_in) == kYes) {
      pkillers_[ply].add(moves_[ply][win]);
      sh_.table.store(key, win_in, 0, win);
      return kYes;
    }
    bool unk = false;
    for (size_t k = 0; k < order_[ply].size(); ++k) {
      uint32_t i = order_[ply][k].second;
      // No checkmate without check: a last move that gives none is not even played (the
      // compiled generator tests the attack on a light copy of the move).
      // The test counts as work for df-pn's budget (total_), not as an action applied: with
      // the budget in actions alone, df-pn ran on past the point where alpha-beta refutes
      // faster (matetrack #5 case 11: 0.8 s -> 8.9 s).
      if (r == 1 && sh_.opt.goal == Goal::Mate) {
        ++total_;
        if (!e_->gives_check(moves_[ply][i])) continue;
      }
      apply(moves_[ply][i]);
      V v;
      if (r == 1) {
        if (e_->chance()) {
          v = horizon_chance();
        } else {
          Status st = e_->status();
          v = goal_met(st) ? kYes : kNo;
        }
      } else {
        v = search(r - 1, ply + 1);
      }
      e_->undo();
      if (v == kYes) {
        pkillers_[ply].add(moves_[ply][i]);
        sh_.table.store(key, r, 0, i);
        return kYes;
      }
      if (v == kUnk) {
        if (halted()) return kUnk;
        unk = true;
      }
    }
    if (unk) return kUnk;
    sh_.table.store(key, 0, r, kNoMove);
    return kNo;
  }

  V defender(int r, int ply, uint64_t key, size_t tt_best) {
    std::vector<Action>& ms = moves_[ply];
    // The table's refutation first. With one prover move left, then the two killers of
    // this ply and generation order: the refutation is a mate-in-1 test, and the reply
    // that refuted a sibling usually refutes this one. With more left, the rest by the
    // prover's moves after them, fewest first (a reply that ends the game short of the
    // goal before all): every prover move after the defence must itself be refuted, so a
    // defence that leaves the prover 5 moves (a check) costs an eighth of one that leaves
    // 40. The mirror of the prover's mobility ordering; on the first 12 matetrack #5 cases
    // 24% fewer actions than the killers with df-pn's mobility disproof numbers (look()).
    size_t front = 0;
    auto bring = [&](size_t i) {
      if (i < ms.size() && i >= front) std::swap(ms[front++], ms[i]);
    };
    bring(tt_best);
    // A reply that refutes: the ply's killer, and the node's refutation in the table.
    auto refuted = [&](const Action& a) {
      killers_[ply].add(a);
      sh_.table.store(key, 0, r, index_of(a, ply));
      return kNo;
    };
    if (r < 2) {
      for (const Action& k : killers_[ply].k)
        for (size_t i = front; i < ms.size(); ++i)
          if (ms[i] == k) {
            bring(i);
            break;
          }
    } else if (front < ms.size()) {
      std::vector<std::pair<int, Action>>& sc = dorder_[ply];
      sc.clear();
      for (size_t i = front; i < ms.size(); ++i) {
        int score = kChanceScore;
        apply(ms[i]);
        if (!e_->chance()) {
          // The table first (an enhanced transposition cutoff): a reply whose position is
          // refuted within r refutes this node at once; one proved within r is tried last.
          Entry te;
          if (sh_.table.probe(e_->hash(), te)) {
            if (te.nowin >= r) {
              e_->undo();
              return refuted(ms[i]);
            }
            if (te.win && te.win <= r) {
              e_->undo();
              sc.push_back({kChanceScore + 1, ms[i]});
              continue;
            }
          }
          Status st = e_->status_and_actions(scratch_);
          if (st.result == arb::Result::Ongoing)
            score = static_cast<int>(std::min<size_t>(scratch_.size(), kChanceScore - 1));
          else
            score = goal_met(st) ? kChanceScore + 1 : -1;
        }
        e_->undo();
        sc.push_back({score, ms[i]});
      }
      std::stable_sort(sc.begin(), sc.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = front; i < ms.size(); ++i) ms[i] = sc[i - front].second;
    }
    bool unk = false;
    for (size_t i = 0; i < ms.size(); ++i) {
      Action a = ms[i];
      apply(a);
      V v = search(r, ply + 1);
      e_->undo();
      if (v == kNo) return refuted(a);
      if (v == kUnk) {
        if (halted()) return kUnk;
        unk = true;
      }
    }
    if (unk) return kUnk;
    sh_.table.store(key, r, 0, kNoMove);
    return kYes;
  }

  // The index of `a` in the engine's own order (moves_[ply] was reordered in place).
  size_t index_of(const Action& a, int ply) {
    e_->legal_actions(scratch_);
    (void)ply;
    for (size_t i = 0; i < scratch_.size(); ++i)
      if (scratch_[i] == a) return i;
    return kNoMove;
  }

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
  void look(int r, Child& c) {
    if (e_->chance()) {
      sh_.fallback = true;
      c.pn = c.dn = 1;
      return;
    }
    // The tables first: a re-expanded parent looks at the same children again.
    uint64_t hash = e_->hash();
    c.key = pn_key(hash, r);
    Entry te;
    if (sh_.table.probe(hash, te)) {
      if (te.win && te.win <= r) {
        c.pn = 0;
        c.dn = kInf;
        return;
      }
      if (te.nowin >= r) {
        c.pn = kInf;
        c.dn = 0;
        return;
      }
    }
    if (r > 0 && sh_.pn->probe(c.key, r, c.pn, c.dn)) return;
    bool mine = e_->side_to_move() == sh_.prover;
    // A defender node counts its replies, a prover node with two moves or more left its
    // moves: listed with the status in one go (a prover node with one left is settled
    // below).
    Status st = (!mine && r > 0) || (mine && r >= 2) ? e_->status_and_actions(scratch_) : e_->status();
    if (st.result != arb::Result::Ongoing) {
      // A terminal: won at every depth, or at none.
      bool met = goal_met(st);
      sh_.table.store(hash, met ? 1 : 0, met ? 0 : kMaxDepth, kNoMove);
      c.pn = met ? 0 : kInf;
      c.dn = met ? kInf : 0;
      return;
    }
    if (r == 0) {
      c.pn = kInf;
      c.dn = 0;
      return;
    }
    if (mine && r == 1) {
      // Settled at once: the alpha-beta search at r == 1 is one status() per move.
      V v = search(1, scratch_ply_);
      if (v == kUnk) {
        c.pn = c.dn = 1;
        return;
      }
      c.pn = v == kYes ? 0 : kInf;
      c.dn = v == kYes ? kInf : 0;
      return;
    }
    if (mine) {
      // Mobility for the disproof: every prover move must be refuted, so dn starts at the
      // number of moves; a defender node (AND, dn the least of its children's) then looks
      // first at the defence that leaves the prover fewest. On the first 12 matetrack
      // cases of each length it cut the actions of 10 of 12 #5 proofs (median time 0.60 ->
      // 0.38 s) and of 11 of 12 #4 proofs.
      c.pn = 1;
      c.dn = static_cast<uint32_t>(std::max<size_t>(scratch_.size(), 1));
    } else {
      uint32_t n = static_cast<uint32_t>(std::max<size_t>(scratch_.size(), 1));
      c.pn = (st.in_check || sh_.opt.goal == Goal::Draw) ? n : 2 * n + 1;
      c.dn = 1;
    }
    sh_.pn->store(c.key, r, c.pn, c.dn, 0);
  }

  // Expands the node (current position, r) until its pn reaches thpn or its dn thdn, or
  // it is settled; returns its (pn, dn). Settled values go to the proof table.
  std::pair<uint32_t, uint32_t> mid(int r, int ply, uint64_t hash, uint32_t thpn, uint32_t thdn) {
    uint64_t key = pn_key(hash, r);
    uint64_t before = total_;
    bool mine = e_->side_to_move() == sh_.prover;
    std::vector<Action>& ms = buffer(ply);
    e_->legal_actions(ms);
    std::vector<Child>& ch = children_[ply];
    ch.clear();
    int cr = mine ? r - 1 : r;
    scratch_ply_ = ply + 1;
    for (size_t i = 0; i < ms.size(); ++i) {
      apply(ms[i]);
      Child c{static_cast<uint32_t>(i), 1, 1, 0};
      look(cr, c);
      e_->undo();
      if (halted()) return {1, 1};
      if (mine && c.pn == 0) {
        pkillers_[ply].add(ms[i]);
        sh_.table.store(hash, r, 0, i);
        return {0, kInf};
      }
      if (!mine && c.dn == 0) {
        sh_.table.store(hash, 0, r, i);
        return {kInf, 0};
      }
      ch.push_back(c);
    }
    if (ch.empty()) {
      sh_.table.store(hash, 0, r, kNoMove);
      return {kInf, 0};
    }
    uint32_t pn = 0, dn = 0;
    for (;;) {
      // The node's numbers and its most proving child (OR: least pn; AND: least dn).
      uint64_t sum = 0;
      uint32_t best = kInf + 1, second = kInf;
      size_t bi = 0;
      for (size_t i = 0; i < ch.size(); ++i) {
        uint32_t sel = mine ? ch[i].pn : ch[i].dn;
        sum += mine ? ch[i].dn : ch[i].pn;
        if (sel < best) {
          second = best;
          best = sel;
          bi = i;
        } else if (sel < second) {
          second = sel;
        }
      }
      second = std::min(second, kInf);
      if (mine) {
        pn = best;
        dn = sat(sum);
      } else {
        pn = sat(sum);
        dn = best;
      }
      if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || halted()) break;
      // Thresholds for the child (with the 1+epsilon trick against thrashing).
      uint32_t eps = sat(uint64_t{second} + second / 4 + 1);
      uint32_t ctp, ctd;
      Child& c = ch[bi];
      if (mine) {
        ctp = std::min(thpn, eps);
        ctd = thdn >= kInf ? kInf : sat(uint64_t{thdn} - dn + c.dn);
      } else {
        ctd = std::min(thdn, eps);
        ctp = thpn >= kInf ? kInf : sat(uint64_t{thpn} - pn + c.pn);
      }
      apply(ms[c.move]);
      auto v = mid(cr, ply + 1, e_->hash(), ctp, ctd);
      e_->undo();
      c.pn = v.first;
      c.dn = v.second;
    }
    if (halted()) return {pn, dn};
    if (pn == 0) {
      size_t win = kNoMove;
      for (const Child& c : ch)
        if (c.pn == 0) win = c.move;
      if (mine && win != kNoMove) pkillers_[ply].add(ms[win]);
      sh_.table.store(hash, r, 0, mine ? win : kNoMove);
    } else if (dn == 0) {
      size_t ref = kNoMove;
      for (const Child& c : ch)
        if (c.dn == 0) ref = c.move;
      sh_.table.store(hash, 0, r, mine ? kNoMove : ref);
    } else {
      sh_.pn->store(key, r, pn, dn, total_ - before);
    }
    return {pn, dn};
  }

  // df-pn from the current position with r prover moves left: kYes, kNo or kUnk.
  V dfpn(int r, int ply) {
    Child c{0, 1, 1, 0};
    scratch_ply_ = ply;
    look(r, c);
    if (halted()) return kUnk;
    while (c.pn != 0 && c.dn != 0) {
      auto v = mid(r, ply, e_->hash(), kInf, kInf);
      c.pn = v.first;
      c.dn = v.second;
      if (halted()) return kUnk;
    }
    return c.pn == 0 ? kYes : kNo;
  }

  // The action expect() chose at the current (non-chance) position with r prover moves
  // left: an index into legal_actions, or kNoMove when it has not valued the position.
  size_t expect_choice(int r) const {
    auto it = choice_.find(e_->hash() * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(r));
    return it == choice_.end() ? kNoMove : it->second;
  }

  // Expectimax (Chance::Expected): the probability of reaching the goal within r prover
  // moves, prover maximising, defender minimising, chance weighted.
  double expect(int r, int ply) {
    if (halted()) return 0;
    if (e_->chance()) {
      if (r == 0) return horizon_expect();
      uint64_t ckey = e_->hash() * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(r) + 0x5bd1e995ULL;
      auto hit = memo_.find(ckey);
      if (hit != memo_.end()) return hit->second;
      std::vector<ChanceOutcome> outs;
      e_->chance_outcomes(outs);
      double p = 0;
      for (const auto& o : outs) {
        apply(o.action);
        p += o.weight * expect(r, ply + 1);
        e_->undo();
      }
      if (!halted()) memo_[ckey] = p;
      return p;
    }
    Status st = e_->status();
    if (st.result != arb::Result::Ongoing) return goal_met(st) ? 1.0 : 0.0;
    if (r == 0) return 0;
    // With one prover move left, a hand drawn now for a later turn is never looked at
    // within the horizon: it may stay hidden (ChanceControl::set_deferred_draws), which spares a
    // chance node over every hand (No Stress Chess: 462 after a redraw) below this node.
    defer_draws(*e_, r == 1);
    uint64_t key = e_->hash() * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(r);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    std::vector<Action> ms;
    e_->legal_actions(ms);
    bool mine = e_->side_to_move() == sh_.prover;
    if (r >= 2 || !mine) {
      // An action that ends the game settles the node before any subtree is searched: the
      // prover's win is worth 1, the defender's escape to a lost or drawn end 0 (a redraw
      // or a pass tried first would otherwise cost a whole chance subtree).
      for (size_t i = 0; i < ms.size(); ++i) {
        apply(ms[i]);
        Status end = e_->chance() ? Status{} : e_->status();
        e_->undo();
        if (end.result == arb::Result::Ongoing || goal_met(end) != mine) continue;
        if (!halted()) {
          memo_[key] = mine ? 1.0 : 0.0;
          choice_[key] = static_cast<uint32_t>(i);
        }
        return mine ? 1.0 : 0.0;
      }
    }
    double best = mine ? 0.0 : 1.0;
    uint32_t pick = 0;
    for (size_t i = 0; i < ms.size(); ++i) {
      apply(ms[i]);
      double p = expect(mine ? r - 1 : r, ply + 1);
      e_->undo();
      if (i == 0 || (mine ? p > best : p < best)) {
        best = p;
        pick = static_cast<uint32_t>(i);
      }
      if (mine ? best >= 1.0 : best <= 0.0) break;
    }
    if (ms.empty()) best = 0;
    if (!halted()) {
      memo_[key] = best;
      choice_[key] = pick;
    }
    return best;
  }

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

std::string text(Engine& e, const Action& a) {
  return uci(e.describe(a), e.chess960());
}

// The main line after a proof in `moves`: the prover's proving moves, the defender's reply
// that holds out longest (with adversarial chance, the draw that does too).
std::vector<std::string> main_line(Worker& w, Color prover, int moves) {
  bool pn = w.pn_mode;
  w.pn_mode = false;  // lines below settled nodes: the table answers most of them
  Engine& e = w.engine();
  std::vector<std::string> line;
  int r = moves, applied = 0;
  while (applied < 4 * kMaxDepth) {
    if (!e.chance() && e.status().result != arb::Result::Ongoing) break;
    if (r <= 0) break;
    std::vector<Action> ms;
    e.legal_actions(ms);
    if (ms.empty()) break;
    size_t pick = kNoMove;
    int next = -1;
    if (!e.chance() && e.side_to_move() == prover) {
      // The table's proving move first: it is proved, the others would each need a search.
      size_t best = w.table_best();
      if (best < ms.size()) {
        e.apply(ms[best]);
        if (w.search(r - 1, 1) == kYes) pick = best;
        e.undo();
      }
      for (size_t i = 0; i < ms.size() && pick == kNoMove; ++i) {
        e.apply(ms[i]);
        if (w.search(r - 1, 1) == kYes) pick = i;
        e.undo();
      }
      next = r - 1;
    } else {
      for (size_t i = 0; i < ms.size(); ++i) {
        e.apply(ms[i]);
        int k = 0;
        while (k <= r && w.search(k, 1) != kYes) ++k;
        e.undo();
        if (k <= r && k > next) {
          next = k;
          pick = i;
        }
      }
    }
    if (pick == kNoMove) break;
    line.push_back(text(e, ms[pick]));
    e.apply(ms[pick]);
    ++applied;
    r = next;
  }
  for (int i = 0; i < applied; ++i) e.undo();
  w.pn_mode = pn;
  return line;
}

// A line of best play in expected mode: the prover's best move, the defender's most
// damaging reply, the most probable draw.
std::vector<std::string> expected_line(Worker& w, Color prover, int moves) {
  Engine& e = w.engine();
  std::vector<std::string> line;
  int r = moves, applied = 0;
  while (applied < 4 * kMaxDepth && r > 0) {
    std::vector<Action> ms;
    size_t pick = kNoMove;
    bool defer = false;
    if (e.chance()) {
      std::vector<ChanceOutcome> outs;
      e.chance_outcomes(outs);
      double best = -1;
      for (size_t i = 0; i < outs.size(); ++i) {
        ms.push_back(outs[i].action);
        if (outs[i].weight > best) {
          best = outs[i].weight;
          pick = i;
        }
      }
    } else {
      if (e.status().result != arb::Result::Ongoing) break;
      e.legal_actions(ms);
      bool mine = e.side_to_move() == prover;
      defer = r == 1;  // actions applied as expect() applied those it valued here
      double best = mine ? -1 : 2;
      size_t chosen = w.expect_choice(r);  // expect() keeps its choice: no search again
      if (chosen < ms.size()) pick = chosen;
      for (size_t i = 0; i < ms.size() && chosen >= ms.size(); ++i) {
        defer_draws(e, defer);
        e.apply(ms[i]);
        double p = w.expect(mine ? r - 1 : r, 1);
        e.undo();
        if (mine ? p > best : p < best) {
          best = p;
          pick = i;
        }
      }
      if (mine) --r;
    }
    if (pick == kNoMove) break;
    line.push_back(text(e, ms[pick]));
    defer_draws(e, defer);
    e.apply(ms[pick]);
    ++applied;
  }
  for (int i = 0; i < applied; ++i) e.undo();
  return line;
}

}  // namespace

Result solve(const Engine& root, const Options& opt) {
  if (opt.depth < 1 || opt.depth > kMaxDepth)
    throw std::invalid_argument("depth must be between 1 and " + std::to_string(kMaxDepth));
  Result res;
  Shared sh(opt, root.side_to_move());
  Worker main(sh, root.clone(), true);
  Engine& e = main.engine();
  auto finish = [&]() {
    main.flush_final();
    res.nodes = sh.nodes.load();
    res.seconds = sh.seconds();
    return res;
  };
  if (!e.chance()) {
    Status st = e.status();
    if (st.result != arb::Result::Ongoing) {
      res.outcome = Outcome::None;
      res.why = "the game is already over (" + st.reason + ")";
      return finish();
    }
  }

  if (opt.chance == Chance::Expected) {
    // Depths 1, 2, ... N: a win within d moves is one within N, so the probability grows
    // with d and a 1 ends the search; a deeper iteration finds the shallower ones' values
    // in the memo, and a budget that ends depth d still leaves depth d-1's probability.
    double p = 0;
    int d = 1;
    for (; d <= opt.depth; ++d) {
      sh.depth = d;
      double q = main.expect(d, 0);
      if (sh.stop) {
        res.outcome = Outcome::Unknown;
        res.why = sh.why;
        if (d > 1) {
          std::ostringstream t;
          t << "; within " << d - 1 << " move" << (d > 2 ? "s" : "") << " the probability is " << p;
          res.why += t.str();
        }
        return finish();
      }
      p = q;
      if (p >= 1.0) break;
    }
    res.outcome = Outcome::Chance;
    res.probability = p;
    res.moves = p > 0 ? std::min(d, opt.depth) : 0;
    sh.unlimited = true;
    const int searched = res.moves > 0 ? res.moves : opt.depth;  // the last depth searched
    res.line = expected_line(main, sh.prover, searched);
    if (opt.all_keys && !e.chance()) {
      std::vector<Action> ms;
      e.legal_actions(ms);
      for (const Action& a : ms) {
        std::string t = text(e, a);
        defer_draws(e, searched == 1);
        e.apply(a);
        double q = main.expect(searched - 1, 1);
        e.undo();
        if (p > 0 && q >= p - 1e-12) res.keys.push_back(t);
      }
    }
    return finish();
  }

  // Root splitting: the root's moves, ordered once (checks, then defender mobility), are
  // shared out between `jobs` workers, each with its own engine and the common table.
  bool split = !e.chance();
  std::vector<Action> root_moves;
  std::vector<size_t> order;
  if (split) {
    e.legal_actions(root_moves);
    std::vector<std::pair<int, size_t>> scored;
    for (size_t i = 0; i < root_moves.size(); ++i) {
      e.apply(root_moves[i]);
      int score = 1 << 15;
      if (!e.chance()) {
        Status st = e.status();
        std::vector<Action> replies;
        e.legal_actions(replies);
        score = (st.in_check && opt.goal != Goal::Draw ? 0 : 1 << 16) + static_cast<int>(replies.size());
      }
      e.undo();
      scored.push_back({score, i});
    }
    std::stable_sort(scored.begin(), scored.end());
    for (const auto& s : scored) order.push_back(s.second);
  }
  int jobs = std::clamp(opt.jobs, 1, 64);
  std::vector<std::unique_ptr<Worker>> helpers;
  for (int j = 1; split && j < jobs && j < static_cast<int>(root_moves.size()); ++j)
    helpers.push_back(std::make_unique<Worker>(sh, root.clone(), false));

  int proved = 0;
  bool unknown = false;
  std::vector<V> results;
  // df-pn with one thread; it hands over to the alpha-beta search (from depth 1 again,
  // the table keeps what was settled) when it meets a chance node.
  main.pn_mode = opt.proof_numbers && jobs == 1 && split;
  if (main.pn_mode) sh.pn = std::make_unique<PnTable>(opt.table_mb);
  for (int d = 1; d <= opt.depth && !proved && !unknown; ++d) {
    sh.depth = d;
    main.flush_final();  // the work so far sizes the tables for this iteration
    sh.table.reserve_for(sh.nodes.load());
    if (sh.pn) sh.pn->reserve_for(sh.nodes.load());
    V v;
    if (split && (opt.all_keys || !main.pn_mode)) {
      results.assign(root_moves.size(), kUnk);
      std::atomic<size_t> next{0};
      auto run = [&](Worker& w) {
        for (;;) {
          size_t k = next.fetch_add(1);
          if (k >= order.size() || w.halted()) break;
          size_t i = order[k];
          w.apply(root_moves[i]);
          V r = w.prove(d - 1, 1);
          w.engine().undo();
          results[i] = r;
          if (r == kYes && !opt.all_keys) sh.answered = true;
        }
        w.flush_final();
      };
      std::vector<std::thread> threads;
      for (auto& h : helpers) threads.emplace_back(run, std::ref(*h));
      run(main);
      for (auto& t : threads) t.join();
      sh.answered = false;
      bool yes = false, unk = false;
      for (V r : results) {
        yes |= r == kYes;
        unk |= r == kUnk;
      }
      v = yes ? kYes : unk ? kUnk : kNo;
    } else {
      v = main.prove(d, 0);
    }
    if (sh.fallback) {
      sh.fallback = false;
      main.pn_mode = false;
      res.proved_none_within = 0;
      d = 0;
      continue;
    }
    if (v == kYes) {
      proved = d;
    } else if (v == kNo) {
      res.proved_none_within = d;
    } else {
      unknown = true;
    }
  }

  if (proved) {
    res.outcome = Outcome::Proved;
    res.moves = proved;
    if (split && opt.all_keys) {
      for (size_t i = 0; i < root_moves.size(); ++i)
        if (results[i] == kYes) res.keys.push_back(text(e, root_moves[i]));
      for (V r : results)
        if (r == kUnk) res.why = "keys incomplete: " + sh.why;
    }
    sh.stop = false;
    sh.unlimited = true;
    res.line = main_line(main, sh.prover, proved);
  } else if (unknown) {
    res.outcome = Outcome::Unknown;
    res.why = sh.why.empty() ? "search interrupted" : sh.why;
  } else {
    res.outcome = Outcome::None;
  }
  return finish();
}

}  // namespace arb::solve
