// The search behind arb::stip::solve (stipulation.cpp): the table of settled nodes, and
// one search over a clone of the position. Keyed play (direct, self, reflex) lives in
// stip_keyed.cpp, its solution trees in stip_tree.cpp, help and series play in
// stip_help.cpp, the shared machinery (status, budget, side flips) in stip_search.cpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "arbiter/stipulation.hpp"
#include "solver_table.hpp"  // Region: zeroed memory, in huge pages from 2 MiB

namespace arb::stip::detail {

using Clock = std::chrono::steady_clock;
struct Stop {};     // the budget or the timeout ended the search
struct Abandon {};  // another thread settled the first move this search was helping with
// The position text with the other side to move: the second field swapped (`w`/`b`), the
// en-passant field (the fourth) cleared.
std::string flipped(const std::string& text);

// The table: a slot per position and node kind (help and series play: and half-moves
// left) holding the smallest r proved true and the largest proved false (0: none); a
// newcomer replaces the slot's entry. Only settled values enter: a lost one is searched
// again. A growing table starts at 16K slots and grows fourfold when half full (a fresh
// page costs more than a node: a small problem touches few); a shared one (--jobs) has its
// full size and is read and written by every thread at once, each slot as two words, the
// key stored XOR the data, so that a torn pair reads as a miss.
class Table {
 public:
  Table(size_t mb, bool grow) : grow_(grow) {
    while (cap_ * 2 * sizeof(Slot) <= std::max<size_t>(mb, 1) << 20) cap_ *= 2;
    resize(grow ? std::min<size_t>(cap_, 1 << 14) : cap_);
  }
  bool probe(uint64_t key, int r, bool& v) const {
    uint64_t d;
    if (!read(table_[key & mask_], key, d)) return false;
    const int lo = static_cast<int>(d & 0xff), hi = static_cast<int>(d >> 8 & 0xff);
    if (lo && r >= lo) {
      v = true;
      return true;
    }
    if (r <= hi) {
      v = false;
      return true;
    }
    return false;
  }
  bool save(uint64_t key, int r, bool v) {
    Slot* s = &table_[key & mask_];
    uint64_t d = 0;
    if (!read(*s, key, d)) {
      d = 0;
      if (grow_ && !load(s->check) && ++used_ > mask_ / 2 && mask_ + 1 < cap_) {
        resize(std::min(cap_, (mask_ + 1) * 4));
        s = &table_[key & mask_];
      }
    }
    uint64_t lo = d & 0xff, hi = d >> 8 & 0xff;
    if (v && (!lo || static_cast<uint64_t>(r) < lo)) lo = static_cast<uint64_t>(r);
    if (!v && static_cast<uint64_t>(r) > hi) hi = static_cast<uint64_t>(r);
    d = lo | hi << 8;
    std::atomic_ref<uint64_t>(s->data).store(d, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(s->check).store(key ^ d, std::memory_order_relaxed);
    return v;
  }

 private:
  struct Slot {
    uint64_t check, data;  // check: the key XOR data (0: empty)
  };
  static uint64_t load(uint64_t& w) { return std::atomic_ref<uint64_t>(w).load(std::memory_order_relaxed); }
  static bool read(Slot& s, uint64_t key, uint64_t& d) {
    d = load(s.data);
    const uint64_t c = load(s.check);
    return c && (c ^ d) == key;
  }
  void resize(size_t n) {
    // Huge pages from 2 MiB (Region): the table is probed at random, and a shared one has
    // its whole size from the start (4 KiB pages: a page fault per fresh page, a TLB miss
    // per probe).
    arb::solve::detail::Region mem(n * sizeof(Slot));
    Slot* t = static_cast<Slot*>(mem.data());
    used_ = 0;
    for (size_t i = 0; table_ && i <= mask_; ++i) {
      const Slot& s = table_[i];
      if (!s.check) continue;
      Slot& d = t[(s.check ^ s.data) & (n - 1)];
      used_ += !d.check;
      d = s;
    }
    mem_ = std::move(mem);
    table_ = t;
    mask_ = n - 1;
  }
  arb::solve::detail::Region mem_;
  Slot* table_ = nullptr;
  size_t cap_ = 1, used_ = 0, mask_ = 0;  // the largest size allowed (slots), the slots in use
  bool grow_;
};

// What the searches of one problem share under --jobs: the node count toward the budget,
// and a stop once one of them has stopped.
struct Shared {
  std::atomic<uint64_t> nodes{0};
  std::atomic<bool> halt{false};
};

class Search {
 public:
  // shared: a table other searches use at once (else one of its own that grows); team:
  // what the searches of one problem share (--jobs).
  Search(const Engine& root, const Options& o, Table* shared = nullptr, Shared* team = nullptr)
      : e_(root.clone()),
        o_(o),
        start_(Clock::now()),
        own_(shared ? nullptr : std::make_unique<Table>(o.table_mb, true)),
        table_(shared ? shared : own_.get()),
        team_(team) {}
  Engine& engine() { return *e_; }
  uint64_t nodes() const { return nodes_; }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // Gives the move to the other side (the position text's side field).
  void flip();

  // ---- keyed play (stip_keyed.cpp) ----
  // Whether the move just played (by the attacker) achieves the stipulation within r
  // attacker moves counted from it.
  bool after_attack(int r);
  // Whether the side to move has an action that reaches the aim against its opponent.
  bool can_reach_now();

  // ---- help and series play (stip_help.cpp) ----
  bool help(int h);
  bool help_move(const Action& m, int h);
  bool series(int h);

  // ---- solution trees and tries (stip_tree.cpp) ----
  std::vector<TreeNode> continuations(int r);
  std::vector<TreeNode> answers(int r);
  std::vector<Action> refutations(int r, size_t limit);

  // Help and series play: each line found (the whole path from the search's start) goes
  // to `sink` when set, else into `found`.
  std::vector<std::vector<Action>> found;
  std::function<void(const std::vector<Action>&)> sink;
  std::string why_;
  void clear_path() { path_.clear(); }

  // ---- --jobs: one first move, searched by one thread or helped by others -------------
  // Plays a first move (undone by unwind(), also after an Abandon or a Stop). unwind()
  // takes back every move of the path, also help play's after an exception left them played.
  void enter(const Action& m) {
    e_->apply(m);
    path_.push_back(m);
  }
  void unwind() {
    while (!path_.empty()) unplay();
  }
  // While `done` is set by another thread, the next tick() throws Abandon.
  void watch(const std::atomic<bool>* done) { done_ = done; }
  // A helper (helper > 0) of a first move someone else is searching tries the defences
  // after it from another place in the list (1: from the middle), so that the two prove
  // different defences and meet in the table; 0: the usual order.
  void help_as(int helper) { helper_ = helper; }

 private:
  TreeNode node(const Action& m, int moves);
  Status status();
  Status status_and_actions(std::vector<Action>& ms);
  bool may_reach(const Action& m);
  // Whether only a checking move can reach the aim (Options::mate_needs_check, a mate).
  bool checks_only() const { return o_.mate_needs_check && o_.stip.aim == Aim::Mate; }
  // The side to move's checking moves into ms (checks_only()); false when none can mate:
  // there is none, or the game is over.
  bool mates_in_one(std::vector<Action>& ms);
  static bool over(const Status& st) { return st.end != Termination::None; }
  bool reached(const Status& st, Color victim) const;

  bool defend(int r);
  bool attack(int r);
  bool self_defend(int r);
  bool reflex_defend(int r);
  bool series_end(Color s);

  // Two moves a depth, the latest first.
  struct Killers {
    Action a[2]{};
  };
  static void remember(Killers& k, const Action& m) {
    if (k.a[0] == m) return;
    k.a[1] = k.a[0];
    k.a[0] = m;
  }
  // Puts the killers (those among ms) first, the latest first.
  static void first(std::vector<Action>& ms, const Killers& k) {
    size_t at = 0;
    for (const Action& x : k.a)
      for (size_t i = at; i < ms.size(); ++i)
        if (ms[i] == x) {
          std::swap(ms[at++], ms[i]);
          break;
        }
  }

  void play(const Action& m) {
    if ((++nodes_ & 4095) == 0) tick();
    e_->apply(m);
    path_.push_back(m);
    if (e_->chance()) {
      // A stipulation is a question about moves: a draw the position does not fix has no
      // answer here (the forced-win solver's --chance modes weigh them).
      why_ = "a draw the position does not fix (a chance node) lies on the way";
      throw Stop{};
    }
  }
  void unplay() {
    e_->undo();
    path_.pop_back();
  }
  void record() {
    if (sink)
      sink(path_);
    else
      found.push_back(path_);
  }
  void tick();

  static uint64_t mix(uint64_t h, int r, int tag) {
    uint64_t x = (static_cast<uint64_t>(r) << 8 | static_cast<uint64_t>(tag)) * 0x9E3779B97F4A7C15ull;
    return h ^ (x ^ (x >> 29));
  }
  bool probe(uint64_t key, int r, bool& v) const { return table_->probe(key, r, v); }
  bool save(uint64_t key, int r, bool v) { return table_->save(key, r, v); }
  bool refuted(uint64_t key) const {
    bool v;
    return probe(key, 1, v) && !v;
  }
  void store(uint64_t key) { save(key, 1, false); }

  std::unique_ptr<Engine> e_;
  const Options& o_;
  Clock::time_point start_;
  uint64_t nodes_ = 0;
  double next_progress_ = 0.25;
  std::unique_ptr<Table> own_;
  Table* table_;
  Shared* team_;
  Killers kill_[kMaxMoves + 2]{}, refute_[kMaxMoves + 2]{};
  std::vector<Action> path_;
  const std::atomic<bool>* done_ = nullptr;
  int helper_ = 0;
  // The defender's moves right after a helped first move, rotated (help_as()).
  void spread(std::vector<Action>& ms) const {
    if (!helper_ || path_.size() != 1 || ms.size() < 2) return;
    const size_t at = ms.size() * static_cast<size_t>(helper_) / static_cast<size_t>(helper_ + 1);
    std::rotate(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(at % ms.size()), ms.end());
  }
};

}  // namespace arb::stip::detail
