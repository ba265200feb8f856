// The compiled generator's undo and history stacks: a vector that only grows, with its own
// index. make() and unmake() run once per node of a perft or a search; std::vector's
// push_back there compiled to a call (its reallocation path is out of line, and the
// capacity test and the end pointer's store sat on every make), and pop_back plus a copy of
// the frame on every unmake. Here a push is a compare and a store, the growth is a cold
// call, a pop is a decrement, and back() stays valid after pop_back() until the next push
// (unmake() reads the frame in place).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <new>
#include <vector>

namespace arb::lang {

template <class T>
class GrowStack {
 public:
  GrowStack() = default;
  // A copy holds the entries alone; an assignment keeps the room the target had
  // (set_position() assigns a fresh generator: the stack's room stays).
  GrowStack(const GrowStack& o)
      : v_(o.v_.begin(), o.v_.begin() + static_cast<std::ptrdiff_t>(o.n_)), n_(o.n_) {}
  GrowStack& operator=(const GrowStack& o) {
    if (this == &o) return *this;
    if (v_.size() < o.n_) v_.resize(o.n_);
    std::copy_n(o.v_.begin(), o.n_, v_.begin());
    n_ = o.n_;
    return *this;
  }

  [[gnu::always_inline]] inline void push_back(const T& x) {
    if (n_ == v_.size()) [[unlikely]]
      grow();
    v_[n_++] = x;
  }
  // The next entry, pushed: the caller fills it in place (make() builds its frame there,
  // with no copy of a frame built on the stack).
  [[gnu::always_inline]] inline T& push_slot() {
    if (n_ == v_.size()) [[unlikely]]
      grow();
    return v_[n_++];
  }
  void pop_back() { --n_; }
  T& back() { return v_[n_ - 1]; }
  const T& back() const { return v_[n_ - 1]; }
  T& operator[](size_t i) { return v_[i]; }
  const T& operator[](size_t i) const { return v_[i]; }
  bool empty() const { return n_ == 0; }
  size_t size() const { return n_; }
  void clear() { n_ = 0; }
  const T* begin() const { return v_.data(); }
  const T* end() const { return v_.data() + n_; }
  T* begin() { return v_.data(); }
  T* end() { return v_.data() + n_; }
  std::reverse_iterator<T*> rbegin() { return std::reverse_iterator<T*>(end()); }
  std::reverse_iterator<T*> rend() { return std::reverse_iterator<T*>(begin()); }
  std::reverse_iterator<const T*> rbegin() const { return std::reverse_iterator<const T*>(end()); }
  std::reverse_iterator<const T*> rend() const { return std::reverse_iterator<const T*>(begin()); }

 private:
  [[gnu::noinline, gnu::cold]] void grow() { v_.resize(std::max<size_t>(64, v_.size() * 2)); }
  std::vector<T> v_;  // v_.size() is the capacity; the first n_ entries are the stack
  size_t n_ = 0;
};

}  // namespace arb::lang
