// Help and series play: exhaustive cooperative searches that list every line, with a
// table of the (position, half-moves left) nodes proved to hold no solution.
#include "stip_search.hpp"

namespace arb::stip::detail {

// ---- help play ---------------------------------------------------------------------
// Every line of exactly h half-moves from here whose last move reaches the aim against
// the side that does not make it; appended to `found` (the path so far prefixed).
bool Search::help(int h) {
  const uint64_t key = mix(e_->hash(), h, 11);
  if (refuted(key)) return false;
  std::vector<Action> ms;
  if (h == 1 && checks_only()) {
    // The last move of a mate: the checking moves alone, each one's mate read by the
    // cheap status (in check, any legal reply).
    if (!mates_in_one(ms)) return false;
    const Color x = e_->side_to_move();
    bool mated = false;
    for (const Action& m : ms) {
      play(m);
      if (reached(status(), opposite(x))) {
        record();
        mated = true;
      }
      unplay();
    }
    if (!mated) store(key);
    return mated;
  }
  // One generation for the status (a line ends where the game does) and the moves.
  if (over(status_and_actions(ms))) return false;
  bool any = false;
  for (const Action& m : ms) any |= help_move(m, h);
  if (!any) store(key);
  return any;
}
// The lines of help(h) that start with the legal action m (of the side to move).
bool Search::help_move(const Action& m, int h) {
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
bool Search::series(int h) {
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
    const bool on =
        !st.in_check && (!over(st) || st.end == Termination::Stalemate || st.end == Termination::NoLegalMove);
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

// The series is played (by `s`); its ending: ser-# and ser-= reach the aim with that
// move, ser-h the other side reaches it in one, ser-s the other side must reach it.
bool Search::series_end(Color s) {
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

}  // namespace arb::stip::detail
