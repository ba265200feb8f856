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
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <stdexcept>

#include "arbiter/notation.hpp"
#include "arbiter/parallel.hpp"
#include "arbiter/text_fields.hpp"

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

using Clock = std::chrono::steady_clock;
struct Stop {};  // the budget or the timeout ended the search

// The position text with the other side to move: the second field swapped (`w`/`b`), the
// en-passant field (the fourth) cleared.
std::string flipped(const std::string& text) {
  std::vector<std::string> f = field_strings(text);
  if (f.size() < 2 || (f[1] != "w" && f[1] != "b"))
    throw std::invalid_argument(
        "this stipulation needs the side to move changed without a move, and the position text has no "
        "`w`/`b` side field to change (FEN-shaped texts only)");
  f[1] = f[1] == "w" ? "b" : "w";
  if (f.size() >= 4) f[3] = "-";
  return join_fields(f);
}

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
  struct Free {
    void operator()(Slot* p) const { std::free(p); }
  };
  static uint64_t load(uint64_t& w) { return std::atomic_ref<uint64_t>(w).load(std::memory_order_relaxed); }
  static bool read(Slot& s, uint64_t key, uint64_t& d) {
    d = load(s.data);
    const uint64_t c = load(s.check);
    return c && (c ^ d) == key;
  }
  void resize(size_t n) {
    std::unique_ptr<Slot[], Free> t(static_cast<Slot*>(std::calloc(n, sizeof(Slot))));
    if (!t) throw std::bad_alloc();
    used_ = 0;
    for (size_t i = 0; table_ && i <= mask_; ++i) {
      const Slot& s = table_[i];
      if (!s.check) continue;
      Slot& d = t[(s.check ^ s.data) & (n - 1)];
      used_ += !d.check;
      d = s;
    }
    table_ = std::move(t);
    mask_ = n - 1;
  }
  std::unique_ptr<Slot[], Free> table_;
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

  void flip() {
    std::string t = flipped(e_->position());
    Color before = e_->side_to_move();
    try {
      e_->set_position(t);
    } catch (const PositionError& x) {
      throw std::invalid_argument(
          "this stipulation changes the side to move without a move (the position text's second field, "
          "FEN-shaped "
          "texts), and the engine refuses the text that makes: " +
          std::string(x.what()));
    }
    if (e_->side_to_move() == before)
      throw std::invalid_argument("the engine kept the side to move of `" + t + "`");
  }

  // ---- keyed play (direct, self, reflex) ----------------------------------------------
  // Whether the move just played (by the attacker) achieves the stipulation within r
  // attacker moves counted from it.
  bool after_attack(int r) {
    switch (o_.stip.play) {
      case Play::Direct:
        return defend(r);
      case Play::Self:
        return self_defend(r);
      case Play::Reflex:
        return reflex_defend(r);
      case Play::Help:
        break;
    }
    return false;
  }

  // ---- help play ---------------------------------------------------------------------
  // Every line of exactly h half-moves from here whose last move reaches the aim against
  // the side that does not make it; appended to `found` (the path so far prefixed).
  bool help(int h) {
    const uint64_t key = mix(e_->hash(), h, 11);
    if (refuted(key)) return false;
    std::vector<Action> ms;
    // One generation for the status (a line ends where the game does) and the moves.
    if (over(status_and_actions(ms))) return false;
    bool any = false;
    for (const Action& m : ms) any |= help_move(m, h);
    if (!any) store(key);
    return any;
  }
  // The lines of help(h) that start with the legal action m (of the side to move).
  bool help_move(const Action& m, int h) {
    const Color x = e_->side_to_move();
    bool any = false;
    if (h == 1) {
      if (!may_reach(m)) return false;
      play(m);
      if (reached(status(), opposite(x))) {
        record();
        any = true;
      }
    } else {
      play(m);
      any = help(h - 1);
    }
    unplay();
    return any;
  }

  // ---- series play -------------------------------------------------------------------
  // The series side to move with h series moves left (then the stipulation's ending).
  bool series(int h) {
    const uint64_t key = mix(e_->hash(), h, 12);
    if (refuted(key)) return false;
    std::vector<Action> ms;
    e_->legal_actions(ms);
    const Color s = e_->side_to_move();
    const std::string here = e_->position();
    bool any = false;
    for (const Action& m : ms) {
      if (h == 1) {
        play(m);
        any |= series_end(s);
        unplay();
        continue;
      }
      play(m);
      Status st = status();
      // No check before the last move, and no end but a stalemate of the side that does
      // not move (series play never asks it to move).
      const bool on = !st.in_check &&
                      (!over(st) || st.end == Termination::Stalemate || st.end == Termination::NoLegalMove);
      if (on) {
        flip();
        any |= series(h - 1);
        e_->set_position(here);  // the flip replaced the engine's history: back by text
      } else {
        e_->undo();
      }
      path_.pop_back();
    }
    if (!any) store(key);
    return any;
  }

  // ---- solution trees (keyed play) ----------------------------------------------------
  // The attacker to move with up to r moves: its fastest moves, the first one with its
  // tree (the others are its duals).
  std::vector<TreeNode> continuations(int r) {
    int k = 0;
    for (int i = 1; i <= r && !k; ++i)
      if (attack(i)) k = i;
    std::vector<TreeNode> out;
    if (!k) return out;
    std::vector<Action> ms;
    e_->legal_actions(ms);
    for (const Action& m : ms) {
      TreeNode n = node(m, k);
      play(m);
      const bool ok = after_attack(k);
      if (ok && out.empty()) n.next = answers(k);
      unplay();
      if (ok) out.push_back(std::move(n));
    }
    if (out.size() > 1)
      for (auto& n : out) n.dual = true;
    return out;
  }
  // After an attacker's move that reaches the aim within r moves counted from it: every
  // defence with its answers (a reflex defender that can reach the aim must: only those).
  std::vector<TreeNode> answers(int r) {
    const Color d = e_->side_to_move();
    if (o_.stip.play == Play::Direct && reached(status(), d)) return {};
    const bool must = o_.stip.play == Play::Reflex && can_reach_now();
    std::vector<Action> ms;
    e_->legal_actions(ms);
    std::vector<TreeNode> out;
    for (const Action& m : ms) {
      TreeNode n = node(m, r - 1);
      play(m);
      Status st = status();
      if (o_.stip.play != Play::Direct && reached(st, opposite(d))) {
        n.moves = 0;
        out.push_back(std::move(n));  // the defender gives the mate
      } else if (!must && r > 1 && !over(st)) {
        n.next = continuations(r - 1);
        out.push_back(std::move(n));
      }
      unplay();
    }
    return out;
  }
  // After an attacker's first move: the defences after which the stipulation fails within
  // r moves counted from that move (up to limit + 1 of them).
  std::vector<Action> refutations(int r, size_t limit) {
    std::vector<Action> out;
    Status st = status();
    const Color d = e_->side_to_move();
    const Play p = o_.stip.play;
    if (p == Play::Direct && reached(st, d)) return out;
    std::vector<Action> ms;
    e_->legal_actions(ms);
    if (over(st) || ms.empty()) return ms;  // everything refutes a move that ends the game
    for (const Action& m : ms) {
      play(m);
      Status s2 = status();
      bool holds;
      if (p == Play::Direct)
        holds = !over(s2) && r > 1 && attack(r - 1);
      else
        holds = reached(s2, opposite(d)) || (r > 1 && !over(s2) && attack(r - 1));
      unplay();
      if (!holds) out.push_back(m);
      if (out.size() > limit) break;
    }
    return out;
  }
  TreeNode node(const Action& m, int moves) {
    TreeNode n;
    n.uci = uci(e_->describe(m), e_->chess960());
    n.san = san(*e_, m);
    n.moves = moves;
    return n;
  }

  std::vector<std::vector<Action>> found;

 private:
  // The status of the side to move; insufficient material does not end a line, but a side
  // left without a legal action there is mated or stalemated as anywhere else.
  Status status() {
    Status st = e_->status();
    if (st.end == Termination::InsufficientMaterial) {
      std::vector<Action> ms;
      e_->legal_actions(ms);
      if (!ms.empty()) return Status{};
      if (st.in_check) {
        st.end = Termination::Checkmate;
        st.result = e_->side_to_move() == Color::White ? arb::Result::BlackWins : arb::Result::WhiteWins;
      } else {
        st.end = Termination::Stalemate;
        st.result = arb::Result::Draw;
      }
    }
    return st;
  }
  // status() and the legal actions at once (one generation where the engine can).
  Status status_and_actions(std::vector<Action>& ms) {
    Status st = e_->status_and_actions(ms);
    if (st.end == Termination::InsufficientMaterial) {
      if (!ms.empty()) return Status{};
      return status();
    }
    return st;
  }
  // Whether the legal action m (of the side to move) can reach the aim: with
  // Options::mate_needs_check, a mate only by a move that gives check.
  bool may_reach(const Action& m) {
    if (!o_.mate_needs_check || o_.stip.aim != Aim::Mate) return true;
    return e_->gives_check(m);
  }
  static bool over(const Status& st) { return st.end != Termination::None; }
  // Whether `st` (of `victim`, the side to move) is the stipulation's aim against victim.
  bool reached(const Status& st, Color victim) const {
    if (o_.stip.aim == Aim::Mate)
      return st.result == (victim == Color::White ? arb::Result::BlackWins : arb::Result::WhiteWins);
    return (st.end == Termination::Stalemate || st.end == Termination::NoLegalMove) && !st.in_check;
  }

 public:
  // Whether the side to move has an action that reaches the aim against its opponent.
  bool can_reach_now() {
    std::vector<Action> ms;
    e_->legal_actions(ms);
    const Color v = opposite(e_->side_to_move());
    for (const Action& m : ms) {
      if (!may_reach(m)) continue;
      play(m);
      bool r = reached(status(), v);
      unplay();
      if (r) return true;
    }
    return false;
  }

 private:
  // The keyed nodes. Each is monotone in r (what holds within r holds within more), so
  // the table keeps per position the smallest r proved true and the largest proved false.
  // The table is probed before the node's moves are generated; the refutation that ended
  // a defender's node last time at this r (and the attacker's move that worked) is tried
  // first.

  // Direct, after the attacker's move, the defender to move: whether the attack succeeds
  // within r attacker moves counted from the move just played.
  bool defend(int r) {
    const uint64_t key = mix(e_->hash(), 0, 1);
    bool v;
    if (probe(key, r, v)) return v;
    if (r == 1) {
      // Only whether the move mated: the status alone (no list of the replies).
      const Status st = status();
      if (reached(st, e_->side_to_move())) return save(key, 1, true);
      return save(key, over(st) ? kMaxMoves : 1, false);
    }
    std::vector<Action> ms;
    const Status st = status_and_actions(ms);
    if (reached(st, e_->side_to_move())) return save(key, 1, true);
    if (over(st)) return save(key, kMaxMoves, false);
    if (r > 2) {
      // Checks first: a defence that checks costs the attacker a move.
      std::stable_partition(ms.begin(), ms.end(), [&](const Action& m) { return e_->gives_check(m); });
    }
    first(ms, refute_[r]);
    for (const Action& m : ms) {
      play(m);
      const bool held = attack(r - 1);
      unplay();
      if (!held) {
        remember(refute_[r], m);
        return save(key, r, false);
      }
    }
    return save(key, r, true);
  }
  bool attack(int r) {  // the attacker to move (direct, self, reflex)
    const uint64_t key = mix(e_->hash(), 0, 2 + static_cast<int>(o_.stip.play));
    bool v;
    if (probe(key, r, v)) return v;
    std::vector<Action> ms;
    if (over(status_and_actions(ms))) return save(key, kMaxMoves, false);
    // Reflex: an attacker that can reach the aim at once must, and reaches nothing else.
    if (o_.stip.play == Play::Reflex && can_reach_now()) return save(key, kMaxMoves, false);
    const bool last = o_.stip.play == Play::Direct && r == 1;
    if (!last) {
      // Checks before quiet moves: they leave the defender fewest replies.
      std::stable_partition(ms.begin(), ms.end(), [&](const Action& m) { return e_->gives_check(m); });
    }
    first(ms, kill_[r]);
    for (const Action& m : ms) {
      if (last && !may_reach(m)) continue;  // a mate in one gives check
      play(m);
      const bool ok = after_attack(r);
      unplay();
      if (ok) {
        remember(kill_[r], m);
        return save(key, r, true);
      }
    }
    return save(key, r, false);
  }
  // Self, after the attacker's move, the defender to move: whether every defence mates
  // the attacker or leaves it a selfmate within r - 1.
  bool self_defend(int r) {
    const uint64_t key = mix(e_->hash(), 0, 7);
    bool v;
    if (probe(key, r, v)) return v;
    std::vector<Action> ms;
    if (over(status_and_actions(ms))) return save(key, kMaxMoves, false);
    const Color a = opposite(e_->side_to_move());
    first(ms, refute_[r]);
    for (const Action& m : ms) {
      if (r == 1 && !may_reach(m)) return save(key, 1, false);  // a defence without check: no mate
      play(m);
      const Status st = status();
      const bool held = reached(st, a) || (r > 1 && !over(st) && attack(r - 1));
      unplay();
      if (!held) {
        remember(refute_[r], m);
        return save(key, r, false);
      }
    }
    return save(key, r, true);
  }
  bool reflex_defend(int r) {
    const uint64_t key = mix(e_->hash(), 0, 8);
    bool v;
    if (probe(key, r, v)) return v;
    std::vector<Action> ms;
    if (over(status_and_actions(ms))) return save(key, kMaxMoves, false);
    if (can_reach_now()) return save(key, 1, true);  // the defender must mate
    if (r == 1) return save(key, 1, false);
    first(ms, refute_[r]);
    for (const Action& m : ms) {
      play(m);
      const bool held = attack(r - 1);
      unplay();
      if (!held) {
        remember(refute_[r], m);
        return save(key, r, false);
      }
    }
    return save(key, r, true);
  }
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

  // The series is played (by `s`); its ending: ser-# and ser-= reach the aim with that
  // move, ser-h the other side reaches it in one, ser-s the other side must reach it.
  bool series_end(Color s) {
    Status st = status();
    switch (o_.stip.play) {
      case Play::Direct:
        if (!reached(st, opposite(s))) return false;
        record();
        return true;
      case Play::Help: {
        if (over(st)) return false;
        std::vector<Action> ms;
        e_->legal_actions(ms);
        bool any = false;
        for (const Action& m : ms) {
          if (!may_reach(m)) continue;
          play(m);
          if (reached(status(), s)) {
            record();
            any = true;
          }
          unplay();
        }
        return any;
      }
      case Play::Self: {
        if (over(st)) return false;
        std::vector<Action> ms;
        e_->legal_actions(ms);
        bool all = !ms.empty();
        for (const Action& m : ms) {
          play(m);
          all = reached(status(), s);
          unplay();
          if (!all) break;
        }
        if (all) record();
        return all;
      }
      case Play::Reflex:
        break;
    }
    return false;
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
  void record() { found.push_back(path_); }
  void tick() {
    uint64_t total = nodes_;
    if (team_) {
      total = team_->nodes.fetch_add(4096, std::memory_order_relaxed) + 4096;
      if (team_->halt.load(std::memory_order_relaxed)) throw Stop{};
    }
    if (o_.max_nodes && total >= o_.max_nodes) {
      why_ = "node budget (" + std::to_string(o_.max_nodes) + " actions) spent";
      throw Stop{};
    }
    double s = seconds();
    if (o_.timeout > 0 && s >= o_.timeout) {
      why_ = "timeout after " + std::to_string(o_.timeout) + " s";
      throw Stop{};
    }
    if (o_.progress && s >= next_progress_) {
      next_progress_ = s + 0.25;
      o_.progress(total, s);
    }
  }

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

 public:
  std::string why_;
  void clear_path() { path_.clear(); }
};

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

// Runs work(search, i) for every i in [0, n): on `main` alone without Options::jobs,
// else on o.jobs searches of their own (each a clone of `start`) that take the next i in
// turn and share one table and the node budget. A Stop in one stops all (its reason in
// main.why_). Returns the nodes the other searches counted.
template <class Work>
uint64_t split(const Options& o, const Engine& start, Search& main, size_t n, Work&& work) {
  if (o.jobs <= 1 || n < 2) {
    for (size_t i = 0; i < n; ++i) work(main, i);
    return 0;
  }
  Table table(o.table_mb, false);
  Shared team;
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> nodes{0};
  std::mutex mu;
  arb::parallel_for(std::min<int>(o.jobs, static_cast<int>(n)), [&](int j, std::stop_token) {
    Options oj = o;
    if (j) oj.progress = nullptr;  // one progress line
    Search w(start, oj, &table, &team);
    try {
      for (size_t i; (i = next.fetch_add(1)) < n;) work(w, i);
    } catch (const Stop&) {
      team.halt = true;
      std::lock_guard<std::mutex> lock(mu);
      if (!w.why_.empty() && main.why_.empty()) main.why_ = w.why_;
      nodes += w.nodes();
      throw;
    }
    nodes += w.nodes();
  });
  return nodes;
}

}  // namespace

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
  Color start = e.side_to_move();
  if (o.start)
    start = *o.start;
  else if (s.play == Play::Help)
    start = (s.series || !s.half) ? Color::Black : Color::White;
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
      extra_nodes = split(o, *start_pos, sr, ms.size(), [&](Search& w, size_t i) {
        w.engine().apply(ms[i]);
        // N first: a move that fails within N fails within fewer (every node is monotone),
        // so only the keys are searched again for their fastest length.
        if (w.after_attack(s.moves)) {
          fastest[i] = s.moves;
          for (int k = o.shorter ? 1 : s.moves; k < s.moves; ++k)
            if (w.after_attack(k)) {
              fastest[i] = k;
              break;
            }
        }
        w.engine().undo();
      });
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
      // Help and series: each length from the shortest up, N last.
      const int full = s.series ? s.moves : 2 * s.moves + (s.half ? 1 : 0);
      const int step = s.series ? 1 : 2;
      std::vector<int> lengths;
      for (int h = o.shorter ? (full % step == 0 ? step : 1) : full; h <= full; h += step)
        lengths.push_back(h);
      int best = -1;
      for (int h : lengths) {
        sr.found.clear();
        sr.clear_path();
        bool any;
        if (s.series || o.jobs <= 1) {
          any = s.series ? sr.series(h) : sr.help(h);
        } else {
          // Help play with --jobs: the first moves split, their lines joined in move order.
          std::vector<Action> ms;
          std::vector<std::vector<std::vector<Action>>> per;
          const Status st = e.status_and_actions(ms);
          if (st.end == Termination::None || (st.end == Termination::InsufficientMaterial && !ms.empty())) {
            per.resize(ms.size());
            extra_nodes += split(o, *start_pos, sr, ms.size(), [&](Search& w, size_t i) {
              w.found.clear();
              w.clear_path();
              w.help_move(ms[i], h);
              per[i] = std::move(w.found);
            });
          }
          for (auto& p : per)
            for (auto& l : p) sr.found.push_back(std::move(l));
          any = !sr.found.empty();
        }
        const int moves = s.series ? h : h / 2;
        for (const auto& line : sr.found) {
          Line l = texts(*start_pos, line, s, moves);
          (h == full ? res.solutions : res.shorter).push_back(l);
        }
        if (any && best < 0) best = moves;
      }
      // The lengths below the shortest solution were all searched (with `shorter`).
      if (!o.shorter)
        res.proved_none_below = 1;  // only N was searched, and lengths are not monotone
      else
        res.proved_none_below = best < 0 ? s.moves + 1 : best;
    }
    res.outcome = res.solutions.empty() && res.shorter.empty() ? Outcome::None : Outcome::Solved;
  } catch (const Stop&) {
    res.outcome = Outcome::Unknown;
    res.why = sr.why_;
    res.solutions.clear();
    res.shorter.clear();
    res.proved_none_below = 1;
  }
  res.nodes = sr.nodes() + extra_nodes;
  res.seconds = sr.seconds();
  return res;
}

}  // namespace arb::stip
