// Proof games to a goal: a mate, a stalemate, a draw, a win, no legal move or a status
// reason (see proofgame.hpp).
#include "arbiter/proofgame.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <unordered_set>

#include "arbiter/chessme_text.hpp"
#include "arbiter/notation.hpp"

namespace arb::proofgame {

namespace {

using Clock = std::chrono::steady_clock;

struct Stop {};  // the budget or the timeout ended the search

// The side to move of a position text flipped (the second blank-separated field is `w` or
// `b` in FEN and in the ChessMe text). Empty when the text has no such field.
std::string flipped(const std::string& text) {
  size_t sp = text.find(' ');
  if (sp == std::string::npos || sp + 2 > text.size()) return "";
  std::string t = text;
  char& s = t[sp + 1];
  if (s == 'w')
    s = 'b';
  else if (s == 'b')
    s = 'w';
  else
    return "";
  return t;
}

// Distinct first steps (the move of a turn, without its placement) of the side to move.
size_t distinct_moves(Engine& e, std::vector<Action>& buf) {
  e.legal_actions(buf);
  std::unordered_set<uint64_t> seen;
  for (const Action& a : buf) {
    ActionInfo info = e.describe(a);
    if (info.steps.empty()) continue;
    const Step& s = info.steps[0];
    uint64_t k = (static_cast<uint64_t>(static_cast<uint32_t>(s.from.x)) * 0x9E3779B97F4A7C15ull) ^
                 (static_cast<uint64_t>(static_cast<uint32_t>(s.from.y)) * 0xBF58476D1CE4E5B9ull) ^
                 (static_cast<uint64_t>(static_cast<uint32_t>(s.to.x)) * 0x94D049BB133111EBull) ^
                 (static_cast<uint64_t>(static_cast<uint32_t>(s.to.y)) * 0xD6E8FEB86659FD93ull) ^
                 (static_cast<uint64_t>(static_cast<uint8_t>(s.kind)) << 56) ^
                 static_cast<uint64_t>(static_cast<uint8_t>(s.promotion));
    seen.insert(k);
  }
  return seen.size();
}

// The last-turn filter (`Options::last_turn_filter`, where witness_filters_apply() holds). At a node one turn
// before the leaf, the mover M's turn must leave the other side X without a legal move.
// X's legal moves in the node (its "witnesses") are listed on the position with the side
// flipped; a turn of M (a move f->t, maybe capturing on t, and an optional placement on q)
// changes the board only on f, t and q, so a witness it cannot touch survives it:
//   - X's piece still stands on s (t != s);
//   - a quiet witness's target T stays empty (t, q != T); a capture's victim stays (f != T);
//   - a slider's path stays open (t, q not strictly between s and T);
//   - the adjacency rule (RULINGS 2.5a) still holds: T keeps an occupied neighbour other
//     than s and f (t and q only add neighbours);
//   - king safety: X is not in check at a draw, so a non-king witness can only be lost to a
//     pin, which needs f, t or q on the ray from X's king through s; a king witness only
//     to a new attack on T, which needs f, t or q on a line through T or within two
//     squares of it (ChessMe's leaps, the knight's, king's and pawn's, reach two squares
//     at most).
// These conditions are RULINGS 2's (captures only on the target, no en passant, no
// castling, leaps within two squares, riders along lines, royal safety):
// witness_filters_apply() checks them on the compiled rules, and the filters run only when
// the caller says they hold.
// A witness that survives keeps a legal move for X, so the turn cannot end in a draw and
// is skipped without being applied. Every other turn is applied and judged by status().
struct Witness {
  Coord s, t;
  bool king = false, capture = false;
  std::vector<Coord> path;        // squares strictly between s and t (sliders)
  std::vector<Coord> neighbours;  // occupied neighbours of t other than s (quiet moves)
};

inline bool aligned(Coord a, Coord b) {
  int64_t dx = int64_t{b.x} - a.x, dy = int64_t{b.y} - a.y;
  return dx == 0 || dy == 0 || dx == dy || dx == -dy;
}
inline int64_t chebyshev(Coord a, Coord b) {
  return std::max(std::llabs(int64_t{b.x} - a.x), std::llabs(int64_t{b.y} - a.y));
}
inline int sign(int64_t v) {
  return (v > 0) - (v < 0);
}

// A from-to pair as one key (the same move by two piece kinds counts once).
inline uint64_t move_key(Coord s, Coord t) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(s.x)) * 0x9E3779B97F4A7C15ull) ^
         (static_cast<uint64_t>(static_cast<uint32_t>(s.y)) * 0xBF58476D1CE4E5B9ull) ^
         (static_cast<uint64_t>(static_cast<uint32_t>(t.x)) * 0x94D049BB133111EBull) ^
         (static_cast<uint64_t>(static_cast<uint32_t>(t.y)) * 0xD6E8FEB86659FD93ull);
}
// The squares strictly between s and t on a line, or none (a leap, or a step).
inline std::vector<Coord> squares_between(Coord s, Coord t) {
  std::vector<Coord> path;
  if (aligned(s, t) && chebyshev(s, t) > 1) {
    int dx = sign(int64_t{t.x} - s.x), dy = sign(int64_t{t.y} - s.y);
    for (Coord c{s.x + dx, s.y + dy}; c != t; c = Coord{c.x + dx, c.y + dy}) path.push_back(c);
  }
  return path;
}
// Is p on the ray from k through s (beyond k, any distance)?
inline bool on_ray(Coord k, Coord s, Coord p) {
  if (p == k || !aligned(k, s) || !aligned(k, p)) return false;
  int64_t dx = int64_t{s.x} - k.x, dy = int64_t{s.y} - k.y, px = int64_t{p.x} - k.x, py = int64_t{p.y} - k.y;
  return sign(dx) == sign(px) && sign(dy) == sign(py);
}

struct TurnSquares {
  Coord f, t, q;
  bool place = false;
};

bool survives(const Witness& w, Coord king, const TurnSquares& m) {
  auto touched = [&](Coord c) { return c == m.t || (m.place && c == m.q); };
  if (m.t == w.s) return false;
  if (w.king) {
    for (int i = 0; i < 3; ++i) {
      if (i == 2 && !m.place) break;
      Coord p = i == 0 ? m.f : i == 1 ? m.t : m.q;
      if (aligned(w.t, p) || chebyshev(w.t, p) <= 2) return false;
    }
  } else if (on_ray(king, w.s, m.f) || on_ray(king, w.s, m.t) || (m.place && on_ray(king, w.s, m.q))) {
    return false;
  }
  if (w.capture ? m.f == w.t : touched(w.t)) return false;
  for (Coord c : w.path)
    if (touched(c)) return false;
  if (!w.capture) {
    bool neighbour = false;
    for (Coord c : w.neighbours) neighbour = neighbour || c != m.f;
    if (!neighbour) return false;
  }
  return true;
}

}  // namespace

namespace {

// The goal judged on a position whose status is `st` (legal actions listed only where the
// goal needs them).
bool meets(Engine& e, const Goal& g, const Status& st) {
  if (g.winner) {
    const arb::Result want = *g.winner == Color::White ? arb::Result::WhiteWins : arb::Result::BlackWins;
    if (st.result != want) return false;
  }
  switch (g.kind) {
    case Goal::Kind::Mate:
      return st.end == Termination::Checkmate;
    case Goal::Kind::Draw:
      return st.result == arb::Result::Draw;
    case Goal::Kind::Win:
      return st.result == arb::Result::WhiteWins || st.result == arb::Result::BlackWins;
    case Goal::Kind::Reason:
      return st.result != arb::Result::Ongoing && st.reason == g.reason;
    case Goal::Kind::Stalemate:
      if (st.result == arb::Result::Ongoing || st.in_check) return false;
      [[fallthrough]];
    case Goal::Kind::NoLegalMove: {
      std::vector<Action> acts;
      e.legal_actions(acts);
      return acts.empty();
    }
  }
  return false;
}

}  // namespace

bool reached(Engine& e, const Goal& g) {
  if (e.chance()) return false;
  // A mate needs the side to move in check: the cheaper question first.
  if (g.kind == Goal::Kind::Mate && !e.side_in_check()) return false;
  return meets(e, g, e.status());
}

namespace {

class Searcher {
 public:
  Searcher(const Engine& root, const Options& o)
      : o_(o), e_(root.clone()), root_(root.clone()), t0_(Clock::now()) {
    filter_ = o_.last_turn_filter;
    if (filter_) flip_ = root.clone();
    max_slots_ = slots_for(o_.table_mb * (size_t{1} << 20));
    grow_to(std::min(max_slots_, slots_for(kStartBytes)));
  }

  Result run() {
    Result r;
    start_ = e_->position();
    if (reached(*e_, o_.goal)) {  // the position itself: the goal in 0 plies
      take(r, "proof");
      r.shortest = true;
      r.seconds = elapsed();
      return r;
    }
    try {
      if (o_.beam_width > 0) beam(r);
    } catch (const Stop&) {
      r.why = "the timeout came during the beam phase";
    }
    r.beam_nodes = nodes_;
    int limit = o_.max_plies;
    if (r.found) limit = std::min(limit, r.plies - 1);
    beam_budget_start_ = nodes_;
    uint64_t before = nodes_;
    if (r.why.empty()) {
      try {
        for (int d = 1; d <= limit; ++d) {
          depth_ = d;
          before = nodes_;
          line_.clear();
          if (buffers_.size() < static_cast<size_t>(d) + 1) buffers_.resize(static_cast<size_t>(d) + 1);
          grow_for(nodes_);
          bool hit = dfs(d);
          r.depth_nodes.push_back(nodes_ - before);
          if (hit) {
            take(r, "proof");
            break;
          }
          r.proved_none_within = d;
        }
      } catch (const Stop&) {
        r.why = o_.max_nodes && nodes_ - r.beam_nodes >= o_.max_nodes ? "the node budget ran out"
                                                                      : "the timeout came";
        r.depth_nodes.push_back(nodes_ - before);
      }
    }
    r.proof_nodes = nodes_ - r.beam_nodes;
    r.table_hits = hits_;
    r.table_bytes = table_.size() * sizeof(Entry);
    r.filtered = filtered_;
    r.check_pruned = check_pruned_;
    r.filter = filter_;
    r.shortest = r.found && r.proved_none_within == r.plies - 1;
    r.seconds = elapsed();
    return r;
  }

 private:
  struct Entry {
    uint64_t key = 0;
    int32_t exact = -1;  // no draw exactly this many plies from here (proved)
  };

  // ---- The transposition table: starts small, grows with the work ----------------------
  // A zero-filled table of --hash MiB up front cost a small problem the page faults of all
  // of it (64 GiB asked for meant 64 GiB touched). The table starts at kStartBytes and
  // grows between iterations of the deepening to what the nodes searched so far predict
  // (each ply has cost several times the one before), up to --hash. It is a cache: when
  // the machine cannot give a larger one, the search goes on with the one it has.
  static constexpr size_t kStartBytes = size_t{256} << 10;
  static size_t slots_for(size_t bytes) {
    size_t n = 1;
    while (n * 2 * sizeof(Entry) <= bytes) n *= 2;
    return n;
  }
  void grow_for(uint64_t work) {
    const uint64_t want = std::max<uint64_t>(kStartBytes, work * 4 * sizeof(Entry));  // 4 slots a node
    const size_t n = std::min(
        max_slots_,
        slots_for(static_cast<size_t>(std::min<uint64_t>(want, std::numeric_limits<size_t>::max() / 2))));
    if (n > table_.size()) grow_to(n);
  }
  void grow_to(size_t n) {
    std::vector<Entry> fresh;
    try {
      fresh.assign(n, Entry{});
    } catch (const std::bad_alloc&) {
      if (!table_.empty()) return;  // keep the table there is
      throw;
    }
    for (const Entry& e : table_)
      if (e.exact >= 0) fresh[e.key & (n - 1)] = e;
    table_ = std::move(fresh);
    mask_ = n - 1;
  }

  Options o_;
  std::unique_ptr<Engine> e_, root_;
  Clock::time_point t0_, last_report_{};
  std::string start_;
  std::vector<Entry> table_;
  size_t mask_ = 0, max_slots_ = 1;
  uint64_t nodes_ = 0, hits_ = 0, beam_budget_start_ = 0;
  int depth_ = 0;
  std::vector<Action> line_;
  std::vector<std::vector<Action>> buffers_;
  // The last-turn filter: X's witnesses at the current node, X's king, a flipped engine.
  bool filter_ = false;
  std::unique_ptr<Engine> flip_;
  std::vector<Witness> witnesses_;
  std::vector<Action> flip_buf_;
  Coord king_{};
  uint64_t filtered_ = 0, check_pruned_ = 0;

  // Lists X's witnesses at the current node (M to move). False when the flipped position
  // does not read (then every turn is applied).
  bool witnesses() {
    std::string text = e_->position();
    std::string f = flipped(text);
    if (f.empty()) return false;
    ChessMePosition pos;
    try {
      pos = parse_chessme(text);
      flip_->set_position(f);
    } catch (const PositionError&) {
      return false;
    }
    char king = flip_->side_to_move() == Color::White ? 'K' : 'k';
    bool have_king = false;
    for (const auto& [c, l] : pos.pieces)
      if (l == king) {
        king_ = c;
        have_king = true;
      }
    if (!have_king) return false;
    witnesses_.clear();
    flip_->legal_actions(flip_buf_);
    std::unordered_set<uint64_t> seen;
    for (const Action& a : flip_buf_) {
      ActionInfo info = flip_->describe(a);
      if (info.steps.empty() || info.steps[0].kind != StepKind::Move) return false;
      const Step& st = info.steps[0];
      if (st.promotion) continue;
      Witness w;
      w.s = st.from;
      w.t = st.to;
      w.king = std::toupper(static_cast<unsigned char>(st.piece)) == 'K';
      w.capture = st.capture();
      if (w.capture && !(st.removed.size() == 1 && st.removed[0].at == st.to)) return false;
      if (!seen.insert(move_key(w.s, w.t)).second) continue;
      w.path = squares_between(w.s, w.t);
      if (!w.capture)
        for (const auto& pc : pos.pieces)
          if (pc.first != w.s && chebyshev(pc.first, w.t) == 1) w.neighbours.push_back(pc.first);
      witnesses_.push_back(std::move(w));
    }
    return !witnesses_.empty();
  }

  // The two-turn filter, at a node two turns before a leaf: X (to move) plays x, M plays m,
  // and X must then have no legal move. X's non-king witnesses that survive x (the rules
  // above, with x's squares: the piece not moved, its target not taken, its path not
  // closed, a neighbour left; when x moves the king or vacates a square on the line from
  // the king through s, no piece of M on that ray beyond s) are each killed by m only via:
  //   KT(w), the squares where m's destination t or placement q kills it: s (a capture of
  //          the piece), T (a quiet witness), the path, and the ray from X's king beyond s
  //          when s is on a line with the king (a new pinner);
  //   KF(w), the squares of M's pieces whose leaving kills it: a capture's victim on T, the
  //          only neighbour of T, and M's pieces on that ray beyond s (a discovered pinner).
  // For every possible origin f of m (each square in some KF, or any other), when three of
  // the witnesses that f spares have pairwise disjoint KT, m's two squares t and q cannot
  // kill them all (each square lies in at most one), so X keeps a legal move: x is
  // skipped without being applied.
  struct Own {
    Coord s, t;
    bool capture = false;
    std::vector<Coord> path;
    std::vector<std::pair<Coord, bool>> neighbours;  // occupied neighbours of t but s; true: M's
  };
  std::vector<Own> own_;
  std::vector<Coord> theirs_;  // M's pieces
  Coord own_king_{};

  bool own_witnesses(const std::vector<Action>& acts) {
    ChessMePosition pos;
    try {
      pos = parse_chessme(e_->position());
    } catch (const PositionError&) {
      return false;
    }
    bool white = e_->side_to_move() == Color::White;
    bool have_king = false;
    theirs_.clear();
    for (const auto& [c, l] : pos.pieces) {
      bool mine = (std::isupper(static_cast<unsigned char>(l)) != 0) == white;
      if (!mine) theirs_.push_back(c);
      if (mine && std::toupper(static_cast<unsigned char>(l)) == 'K') {
        own_king_ = c;
        have_king = true;
      }
    }
    if (!have_king) return false;
    own_.clear();
    std::unordered_set<uint64_t> seen;
    for (const Action& a : acts) {
      ActionInfo info = e_->describe(a);
      if (info.steps.empty() || info.steps[0].kind != StepKind::Move) return false;
      const Step& st = info.steps[0];
      if (st.promotion || std::toupper(static_cast<unsigned char>(st.piece)) == 'K') continue;
      Own w;
      w.s = st.from;
      w.t = st.to;
      w.capture = st.capture();
      if (w.capture && !(st.removed.size() == 1 && st.removed[0].at == st.to)) return false;
      if (!seen.insert(move_key(w.s, w.t)).second) continue;
      w.path = squares_between(w.s, w.t);
      if (!w.capture)
        for (const auto& [c, l] : pos.pieces)
          if (c != w.s && chebyshev(c, w.t) == 1)
            w.neighbours.push_back({c, (std::isupper(static_cast<unsigned char>(l)) != 0) != white});
      own_.push_back(std::move(w));
    }
    return own_.size() >= 3;
  }

  struct Kill {
    std::vector<Coord> points;  // KT's finite part
    bool ray = false;           // KT holds the ray from the king through s, beyond s
    Coord s{}, dir{};
    std::vector<Coord> from;  // KF
  };

  bool on_kill_ray(const Kill& k, Coord king, Coord p) const {
    return k.ray && on_ray(king, k.s, p) && chebyshev(king, p) > chebyshev(king, k.s);
  }
  bool disjoint(const Kill& a, const Kill& b, Coord king) const {
    for (Coord p : a.points) {
      for (Coord q : b.points)
        if (p == q) return false;
      if (on_kill_ray(b, king, p)) return false;
    }
    for (Coord q : b.points)
      if (on_kill_ray(a, king, q)) return false;
    return !(a.ray && b.ray && a.dir == b.dir);
  }

  bool cannot_stall_in_two(const Action& x) {
    ActionInfo info = e_->describe(x);
    if (info.steps.empty() || info.steps[0].kind != StepKind::Move) return false;
    Coord f1 = info.steps[0].from, t1 = info.steps[0].to, q1{};
    bool place = false;
    for (size_t i = 1; i < info.steps.size(); ++i) {
      if (info.steps[i].kind != StepKind::Place || place) return false;
      place = true;
      q1 = info.steps[i].to;
    }
    bool king_moved = f1 == own_king_;
    Coord king = king_moved ? t1 : own_king_;
    std::vector<Kill> kills;
    for (const Own& w : own_) {
      if (f1 == w.s) continue;
      if (w.capture ? t1 == w.t : (t1 == w.t || (place && q1 == w.t))) continue;
      bool blocked = false;
      for (Coord c : w.path) blocked = blocked || c == t1 || (place && c == q1);
      if (blocked) continue;
      bool lined = aligned(king, w.s);
      if (lined && (king_moved || on_ray(king, w.s, f1))) {
        // The line through s to the king changed: w may be pinned already, unless no piece
        // of M stands on the ray beyond s.
        bool pinner = false;
        for (Coord c : theirs_)
          pinner = pinner || (c != t1 && on_ray(king, w.s, c) && chebyshev(king, c) > chebyshev(king, w.s));
        if (pinner) continue;
      }
      Kill k;
      if (!w.capture) {
        // T's neighbours after x: f1 left, t1 and q1 (X's) arrived.
        std::vector<std::pair<Coord, bool>> n;
        for (const auto& c : w.neighbours)
          if (c.first != f1) n.push_back({c.first, c.first == t1 ? false : c.second});
        bool t1_new = true, q1_new = place;
        for (const auto& c : n) {
          t1_new = t1_new && c.first != t1;
          q1_new = q1_new && c.first != q1;
        }
        if (t1_new && t1 != w.s && chebyshev(t1, w.t) == 1) n.push_back({t1, false});
        if (q1_new && q1 != w.s && chebyshev(q1, w.t) == 1) n.push_back({q1, false});
        if (n.empty()) continue;
        if (n.size() == 1 && n[0].second) k.from.push_back(n[0].first);
        k.points.push_back(w.t);
      } else {
        k.from.push_back(w.t);
      }
      k.points.push_back(w.s);
      for (Coord c : w.path) k.points.push_back(c);
      if (lined) {
        k.ray = true;
        k.s = w.s;
        k.dir = Coord{sign(int64_t{w.s.x} - king.x), sign(int64_t{w.s.y} - king.y)};
        for (Coord c : theirs_)
          if (c != t1 && on_kill_ray(k, king, c)) k.from.push_back(c);
      }
      kills.push_back(std::move(k));
    }
    if (kills.size() < 3) return false;
    // Every origin of M's move: each square in some KF, and "any other" (spares all).
    std::vector<Coord> origins;
    for (const Kill& k : kills)
      for (Coord c : k.from) origins.push_back(c);
    for (size_t o = 0; o <= origins.size(); ++o) {
      std::vector<const Kill*> chosen;
      for (const Kill& k : kills) {
        if (o < origins.size() && std::find(k.from.begin(), k.from.end(), origins[o]) != k.from.end())
          continue;
        bool apart = true;
        for (const Kill* c : chosen) apart = apart && disjoint(*c, k, king);
        if (apart) chosen.push_back(&k);
        if (chosen.size() >= 3) break;
      }
      if (chosen.size() < 3) return false;
    }
    return true;
  }

  // Does some witness of X survive this turn of M (so that it cannot end in a draw)?
  bool cannot_stall(const Action& a) {
    ActionInfo info = e_->describe(a);
    if (info.steps.empty() || info.steps[0].kind != StepKind::Move) return false;
    TurnSquares m;
    m.f = info.steps[0].from;
    m.t = info.steps[0].to;
    for (size_t i = 1; i < info.steps.size(); ++i) {
      if (info.steps[i].kind != StepKind::Place || m.place) return false;
      m.place = true;
      m.q = info.steps[i].to;
    }
    for (const Witness& w : witnesses_)
      if (survives(w, king_, m)) return true;
    return false;
  }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

  void tick(const char* phase) {
    if ((nodes_ & 4095) != 0) return;
    double s = elapsed();
    if (o_.timeout > 0 && s > o_.timeout) throw Stop{};
    if (std::string(phase) == "proof" && o_.max_nodes && nodes_ - beam_budget_start_ >= o_.max_nodes)
      throw Stop{};
    if (o_.progress && Clock::now() - last_report_ > std::chrono::milliseconds(250)) {
      last_report_ = Clock::now();
      o_.progress(Progress{phase, depth_, nodes_, s});
    }
  }

  // The line played from the start (line_) turned into the result.
  void take(Result& r, const char* by) {
    // Actions are the engine's own encoding of its pieces: replayed on a copy of the root
    // engine (never on one that read the root's text again, whose encoding may differ).
    std::unique_ptr<Engine> e = root_->clone();
    r.line.clear();
    r.san.clear();
    for (const Action& a : line_) {
      r.line.push_back(uci(e->describe(a), e->chess960()));
      r.san.push_back(san(*e, a));
      e->apply(a);
    }
    r.found = true;
    r.plies = static_cast<int>(line_.size());
    r.final_position = e->position();
    r.found_by = by;
  }

  // Is the goal reached in exactly r plies? On true, line_ holds the actions. (The goal in
  // fewer plies from the root was looked for by the earlier iterations.)
  bool dfs(int r) {
    // buffers_ is sized before the iteration: a reference into it stays valid.
    std::vector<Action>& acts = buffers_[line_.size()];
    if (r == 0) return reached(*e_, o_.goal);
    const Entry& slot = table_[e_->hash() & mask_];
    if (slot.key == e_->hash() && slot.exact == r) {
      ++hits_;
      return false;
    }
    if (e_->chance())
      throw std::invalid_argument(
          "the search met a chance node (a draw from a pile or hand whose order the position does not fix): "
          "a "
          "proof game needs every draw fixed");
    e_->legal_actions(acts);
    // A game ending here ends in fewer plies: iteration line_.size() looked at it. A
    // position with legal actions may end the game too (an invasion, a royal capture,
    // insufficient material): no line goes on from it.
    if (acts.empty() || (o_.ends_with_moves && e_->status().result != arb::Result::Ongoing)) return false;
    bool filter1 = r == 1 && filter_ && witnesses();
    bool filter2 = r == 2 && filter_ && own_witnesses(acts);
    // A checkmate has the side to move in check: the last turn must give check.
    const bool need_check = r == 1 && o_.goal.kind == Goal::Kind::Mate;
    for (size_t i = 0; i < acts.size(); ++i) {
      if ((filter1 && cannot_stall(acts[i])) || (filter2 && cannot_stall_in_two(acts[i]))) {
        ++filtered_;
        continue;
      }
      if (need_check && !e_->gives_check(acts[i])) {
        ++check_pruned_;
        continue;
      }
      e_->apply(acts[i]);
      ++nodes_;
      tick("proof");
      line_.push_back(acts[i]);
      if (dfs(r - 1)) return true;
      line_.pop_back();
      e_->undo();
    }
    Entry& again = table_[e_->hash() & mask_];
    again.key = e_->hash();
    again.exact = r;
    return false;
  }

  // Beam search for an upper bound, once with each side as the one to be stuck.
  void beam(Result& r) {
    // Actions are the engine's own encoding of one position's slots, so a line kept across
    // set_position() is kept as text and parsed again from the start.
    struct Node {
      std::vector<std::string> line;
      std::string pos;
      double score;
    };
    std::vector<Action> buf, buf2;
    std::unique_ptr<Engine> b = root_->clone();  // the beam's engine: it reads texts
    std::unique_ptr<Engine> side = root_->clone();
    for (int stuck = 0; stuck < 2; ++stuck) {
      // With a winner asked, only the loser is to be stuck.
      if (o_.goal.winner && (*o_.goal.winner == Color::White) == (stuck == 0)) continue;
      std::vector<Node> cur{{{}, start_, 0}};
      int cap = r.found ? r.plies - 1 : o_.beam_plies;
      for (int ply = 1; ply <= cap && !cur.empty(); ++ply) {
        depth_ = ply;
        std::vector<Node> next;
        std::unordered_set<uint64_t> seen;
        for (const Node& n : cur) {
          b->set_position(n.pos);
          if (b->chance())
            throw std::invalid_argument(
                "the search met a chance node (a draw from a pile or hand whose order the position does not "
                "fix): "
                "a proof game needs every draw fixed");
          b->legal_actions(buf);
          for (const Action& a : buf) {
            std::string text = uci(b->describe(a), b->chess960());
            b->apply(a);
            ++nodes_;
            tick("beam");
            if (seen.insert(b->hash()).second) {
              Status st = b->chance() ? Status{} : b->status();
              if (!b->chance() && meets(*b, o_.goal, st)) {
                // Rebuild the line on a copy of the root engine.
                std::vector<std::string> texts = n.line;
                texts.push_back(text);
                std::unique_ptr<Engine> replay = root_->clone();
                line_.clear();
                for (const std::string& t : texts) {
                  std::optional<Action> x = parse_action(*replay, t);
                  if (!x) throw std::logic_error("the beam's line does not replay at `" + t + "`");
                  line_.push_back(*x);
                  replay->apply(*x);
                }
                take(r, "beam");
                goto next_side;
              }
              if (st.result == arb::Result::Ongoing) {
                bool target_to_move = (b->side_to_move() == Color::White) == (stuck == 0);
                std::string pos = b->position();
                double score = 1e9;
                try {
                  if (target_to_move) {
                    score = static_cast<double>(distinct_moves(*e_, buf2));
                  } else if (std::string f = flipped(pos); !f.empty()) {
                    side->set_position(f);
                    score = static_cast<double>(distinct_moves(*side, buf2));
                  }
                } catch (const PositionError&) {
                }
                // Ties broken by the position's hash: deterministic, and spread.
                score += static_cast<double>(b->hash() % 997) / 2000.0;
                std::vector<std::string> l = n.line;
                l.push_back(text);
                next.push_back({std::move(l), std::move(pos), score});
              }
            }
            b->undo();
          }
        }
        std::sort(next.begin(), next.end(), [](const Node& x, const Node& y) { return x.score < y.score; });
        if (next.size() > static_cast<size_t>(o_.beam_width)) next.resize(static_cast<size_t>(o_.beam_width));
        cur = std::move(next);
      }
    next_side:;
    }
  }
};

}  // namespace

Result search(const Engine& root, const Options& o) {
  if (o.max_plies < 0 || o.max_plies > 200) throw std::invalid_argument("max plies must be 0..200");
  if (o.beam_width < 0) throw std::invalid_argument("beam width must not be negative");
  if (o.table_mb < 1) throw std::invalid_argument("the table needs at least 1 MiB");
  if (o.last_turn_filter && !o.goal.stuck_unchecked() && o.goal.kind != Goal::Kind::Draw)
    throw std::invalid_argument(
        "the last-turn filters hold only for goals met by no-move positions out of check, not `" +
        o.goal.text() + "`");
  if (root.chance() || !root.hidden().empty() || root.position().find('?') != std::string::npos)
    throw std::invalid_argument(
        "the position hides a draw (a pile marked `?`): a proof game needs every pile's order known");
  Searcher s(root, o);
  return s.run();
}

}  // namespace arb::proofgame
