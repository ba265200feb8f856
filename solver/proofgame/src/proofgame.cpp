// Proof games to a no-legal-move draw (see proofgame.hpp).
#include "arbiter/proofgame.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <unordered_set>

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

class Searcher {
 public:
  Searcher(const Engine& root, const Options& o) : o_(o), e_(root.clone()), t0_(Clock::now()) {
    size_t n = 1;
    while (n * 2 * sizeof(Entry) <= o_.table_mb * (size_t{1} << 20)) n *= 2;
    table_.assign(n, Entry{});
    mask_ = n - 1;
  }

  Result run() {
    Result r;
    start_ = e_->position();
    try {
      if (o_.beam_width > 0) beam(r);
    } catch (const Stop&) {
      r.why = "the timeout came during the beam phase";
    }
    r.beam_nodes = nodes_;
    int limit = o_.max_plies;
    if (r.found) limit = std::min(limit, r.plies - 1);
    beam_budget_start_ = nodes_;
    if (r.why.empty()) {
      try {
        for (int d = 1; d <= limit; ++d) {
          depth_ = d;
          uint64_t before = nodes_;
          line_.clear();
          if (buffers_.size() < static_cast<size_t>(d) + 1) buffers_.resize(static_cast<size_t>(d) + 1);
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
        r.depth_nodes.push_back(nodes_ - r.beam_nodes);
      }
    }
    r.proof_nodes = nodes_ - r.beam_nodes;
    r.table_hits = hits_;
    r.shortest = r.found && r.proved_none_within == r.plies - 1;
    r.seconds = elapsed();
    return r;
  }

 private:
  struct Entry {
    uint64_t key = 0;
    int32_t within = -1;  // no draw within this many plies (proved)
  };

  Options o_;
  std::unique_ptr<Engine> e_;
  Clock::time_point t0_, last_report_{};
  std::string start_;
  std::vector<Entry> table_;
  size_t mask_ = 0;
  uint64_t nodes_ = 0, hits_ = 0, beam_budget_start_ = 0;
  int depth_ = 0;
  std::vector<Action> line_;
  std::vector<std::vector<Action>> buffers_;

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
    std::unique_ptr<Engine> e = e_->clone();
    e->set_position(start_);
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

  // Is a no-move draw reachable within r plies? On true, line_ holds the actions.
  bool dfs(int r) {
    // buffers_ is sized before the iteration: a reference into it stays valid.
    std::vector<Action>& acts = buffers_[line_.size()];
    if (r == 0) {
      Status st = e_->status();
      return st.result == arb::Result::Draw && !st.in_check && no_move_draw(*e_);
    }
    // A position in the table is no draw itself (only refuted positions are stored).
    const Entry& slot = table_[e_->hash() & mask_];
    if (slot.key == e_->hash() && slot.within >= r) {
      ++hits_;
      return false;
    }
    if (e_->chance())
      throw std::invalid_argument("the search met a chance node: a pile's order is not known");
    e_->legal_actions(acts);
    if (acts.empty()) return !e_->status().in_check;
    for (size_t i = 0; i < acts.size(); ++i) {
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
    again.within = r;
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
    std::unique_ptr<Engine> side = e_->clone();
    for (int stuck = 0; stuck < 2; ++stuck) {
      std::vector<Node> cur{{{}, start_, 0}};
      int cap = r.found ? r.plies - 1 : o_.beam_plies;
      for (int ply = 1; ply <= cap && !cur.empty(); ++ply) {
        depth_ = ply;
        std::vector<Node> next;
        std::unordered_set<uint64_t> seen;
        for (const Node& n : cur) {
          e_->set_position(n.pos);
          e_->legal_actions(buf);
          for (const Action& a : buf) {
            std::string text = uci(e_->describe(a), e_->chess960());
            e_->apply(a);
            ++nodes_;
            tick("beam");
            if (seen.insert(e_->hash()).second) {
              Status st = e_->status();
              if (st.result == arb::Result::Draw && !st.in_check && no_move_draw(*e_)) {
                // Rebuild the line from the start on the search engine.
                std::vector<std::string> texts = n.line;
                texts.push_back(text);
                e_->set_position(start_);
                line_.clear();
                for (const std::string& t : texts) {
                  std::optional<Action> b = parse_action(*e_, t);
                  if (!b) throw std::logic_error("the beam's line does not replay at `" + t + "`");
                  line_.push_back(*b);
                  e_->apply(*b);
                }
                e_->set_position(start_);
                take(r, "beam");
                goto next_side;
              }
              if (st.result == arb::Result::Ongoing) {
                bool target_to_move = (e_->side_to_move() == Color::White) == (stuck == 0);
                std::string pos = e_->position();
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
                score += static_cast<double>(e_->hash() % 997) / 2000.0;
                std::vector<std::string> l = n.line;
                l.push_back(text);
                next.push_back({std::move(l), std::move(pos), score});
              }
            }
            e_->undo();
          }
        }
        std::sort(next.begin(), next.end(), [](const Node& x, const Node& y) { return x.score < y.score; });
        if (next.size() > static_cast<size_t>(o_.beam_width)) next.resize(static_cast<size_t>(o_.beam_width));
        cur = std::move(next);
      }
    next_side:;
    }
    e_->set_position(start_);
  }
};

}  // namespace

bool no_move_draw(Engine& e) {
  if (e.chance()) return false;
  std::vector<Action> acts;
  e.legal_actions(acts);
  return acts.empty() && !e.status().in_check;
}

Result search(const Engine& root, const Options& o) {
  if (o.max_plies < 0 || o.max_plies > 200) throw std::invalid_argument("max plies must be 0..200");
  if (o.beam_width < 0) throw std::invalid_argument("beam width must not be negative");
  if (o.table_mb < 1) throw std::invalid_argument("the table needs at least 1 MiB");
  if (root.chance() || !root.hidden().empty() || root.position().find('?') != std::string::npos)
    throw std::invalid_argument(
        "the position hides a draw (a pile marked `?`): a proof game needs every pile's order known");
  Searcher s(root, o);
  return s.run();
}

std::string replay(Engine& e, const std::string& start, const std::vector<std::string>& line) {
  try {
    e.set_position(start);
  } catch (const PositionError& err) {
    return std::string("the start does not read: ") + err.what();
  }
  for (size_t i = 0; i < line.size(); ++i) {
    if (no_move_draw(e)) return "ply " + std::to_string(i) + " is already a no-move draw";
    std::optional<Action> a = parse_action(e, line[i]);
    if (!a) return "ply " + std::to_string(i + 1) + " `" + line[i] + "` is not legal on " + e.name();
    e.apply(*a);
  }
  if (!no_move_draw(e)) return "the last position is not a no-move draw on " + e.name();
  return "";
}

}  // namespace arb::proofgame
