// The forced-win solver's tables (solver.cpp has the overview): the proof table (Table,
// in a Region of memory that grows as it is used) and df-pn's proof and disproof numbers
// (PnTable). Internal to solver/src.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>

#include "arbiter/solver.hpp"

namespace arb::solve::detail {

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

}  // namespace arb::solve::detail
