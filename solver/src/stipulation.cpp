// Composers' stipulations (see arbiter/stipulation.hpp for what each one asks).
//
// Direct, self and reflex play are AND/OR proofs over (position, attacker moves left);
// help and series play are exhaustive cooperative searches that list every line, with a
// table of the (position, half-moves left) nodes proved to hold no solution. Every table
// entry is a proof; a node cut by the budget stores nothing.
#include "arbiter/stipulation.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <new>
#include <sstream>
#include <stdexcept>

#include "arbiter/notation.hpp"

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
  std::vector<std::string> f;
  std::istringstream in(text);
  for (std::string w; in >> w;) f.push_back(w);
  if (f.size() < 2 || (f[1] != "w" && f[1] != "b"))
    throw std::invalid_argument(
        "this stipulation needs the side to move changed without a move, and the position text has no "
        "`w`/`b` side field to change (FEN-shaped texts only)");
  f[1] = f[1] == "w" ? "b" : "w";
  if (f.size() >= 4) f[3] = "-";
  std::string o;
  for (const auto& w : f) o += (o.empty() ? "" : " ") + w;
  return o;
}

class Search {
 public:
  Search(const Engine& root, const Options& o) : e_(root.clone()), o_(o), start_(Clock::now()) {
    while (cap_ * 2 * sizeof(Slot) <= std::max<size_t>(o.table_mb, 1) << 20) cap_ *= 2;
    resize(std::min<size_t>(cap_, 1 << 14));
  }
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
    const Color x = e_->side_to_move();
    bool any = false;
    for (const Action& m : ms) {
      if (h == 1) {
        if (!may_reach(m)) continue;
        play(m);
        if (reached(status(), opposite(x))) {
          record();
          any = true;
        }
      } else {
        play(m);
        any |= help(h - 1);
      }
      unplay();
    }
    if (!any) store(key);
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
    std::vector<Action> ms;
    const Status st = status_and_actions(ms);
    if (reached(st, e_->side_to_move())) return save(key, 1, true);
    if (over(st)) return save(key, kMaxMoves, false);
    if (r == 1) return save(key, 1, false);
    first(ms, refute_[r]);
    for (const Action& m : ms) {
      play(m);
      const bool held = attack(r - 1);
      unplay();
      if (!held) {
        refute_[r] = m;
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
    first(ms, kill_[r]);
    for (const Action& m : ms) {
      if (last && !may_reach(m)) continue;  // a mate in one gives check
      play(m);
      const bool ok = after_attack(r);
      unplay();
      if (ok) {
        kill_[r] = m;
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
        refute_[r] = m;
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
        refute_[r] = m;
        return save(key, r, false);
      }
    }
    return save(key, r, true);
  }
  // Puts k (when among ms) first.
  static void first(std::vector<Action>& ms, const Action& k) {
    for (size_t i = 1; i < ms.size(); ++i)
      if (ms[i] == k) {
        std::swap(ms[0], ms[i]);
        return;
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
    if (o_.max_nodes && nodes_ >= o_.max_nodes) {
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
      o_.progress(nodes_, s);
    }
  }

  static uint64_t mix(uint64_t h, int r, int tag) {
    uint64_t x = (static_cast<uint64_t>(r) << 8 | static_cast<uint64_t>(tag)) * 0x9E3779B97F4A7C15ull;
    return h ^ (x ^ (x >> 29));
  }
  // The table: a slot per position and node kind (help and series play: and half-moves
  // left), the smallest r proved true and the largest proved false (0: none); a newcomer
  // replaces the slot's entry. Only settled values enter: a lost one is searched again.
  // calloc: the pages stay untouched until used.
  struct Slot {
    uint64_t key;
    uint8_t lo, hi;
  };
  struct Free {
    void operator()(Slot* p) const { std::free(p); }
  };
  bool probe(uint64_t key, int r, bool& v) const {
    const Slot& s = table_[key & mask_];
    if (s.key != key) return false;
    if (s.lo && r >= s.lo) {
      v = true;
      return true;
    }
    if (r <= s.hi) {
      v = false;
      return true;
    }
    return false;
  }
  bool save(uint64_t key, int r, bool v) {
    Slot* s = &table_[key & mask_];
    if (s->key != key) {
      // The table starts small and grows fourfold (up to Options::table_mb) when half
      // full: a small problem touches few pages (a fresh page costs more than a node).
      if (!s->key && ++used_ > mask_ / 2 && mask_ + 1 < cap_) {
        resize(std::min(cap_, (mask_ + 1) * 4));
        s = &table_[key & mask_];
      }
      if (s->key != key) *s = Slot{key, 0, 0};
    }
    return put(*s, r, v);
  }
  static bool put(Slot& s, int r, bool v) {
    if (v && (!s.lo || r < s.lo)) s.lo = static_cast<uint8_t>(r);
    if (!v && r > s.hi) s.hi = static_cast<uint8_t>(r);
    return v;
  }
  bool refuted(uint64_t key) const {
    bool v;
    return probe(key, 1, v) && !v;
  }
  void store(uint64_t key) { save(key, 1, false); }
  void resize(size_t n) {
    std::unique_ptr<Slot[], Free> t(static_cast<Slot*>(std::calloc(n, sizeof(Slot))));
    if (!t) throw std::bad_alloc();
    used_ = 0;
    for (size_t i = 0; table_ && i <= mask_; ++i) {
      const Slot& s = table_[i];
      if (!s.key) continue;
      Slot& d = t[s.key & (n - 1)];
      used_ += !d.key;
      d = s;
    }
    table_ = std::move(t);
    mask_ = n - 1;
  }

  std::unique_ptr<Engine> e_;
  const Options& o_;
  Clock::time_point start_;
  uint64_t nodes_ = 0;
  double next_progress_ = 0.25;
  std::unique_ptr<Slot[], Free> table_;
  size_t cap_ = 1, used_ = 0;  // the largest size allowed (slots), the slots in use
  Action kill_[kMaxMoves + 2]{}, refute_[kMaxMoves + 2]{};
  uint64_t mask_ = 0;
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

  try {
    if (keyed(s)) {
      std::vector<Action> ms;
      e.legal_actions(ms);
      // Reflex: an attacker that can mate at once must, and solves nothing.
      std::vector<int> fastest(ms.size(), 0);
      for (int k = o.shorter ? 1 : s.moves; k <= s.moves; ++k) {
        bool any = false;
        for (size_t i = 0; i < ms.size(); ++i) {
          if (fastest[i]) continue;
          e.apply(ms[i]);
          bool v = sr.after_attack(k);
          e.undo();
          if (v) {
            fastest[i] = k;
            any = true;
          }
        }
        (void)any;
      }
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
        bool any = s.series ? sr.series(h) : sr.help(h);
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
  res.nodes = sr.nodes();
  res.seconds = sr.seconds();
  return res;
}

}  // namespace arb::stip
