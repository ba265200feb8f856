// Z3 position synthesis: the encoding generated from a compiled Program (see synth.hpp).
#include "arbiter/synth/synth.hpp"

#include <z3++.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "arbiter/chessme_text.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"
#include "synthesizer.hpp"

namespace arb::synth {

Goal parse_goal(const std::string& t) {
  if (t == "checkmated" || t == "checkmate" || t == "mate") return Goal::Checkmated;
  if (t == "stalemated" || t == "stalemate" || t == "no-move-draw" || t == "chessme-draw")
    return Goal::Stalemated;
  if (t == "in-check" || t == "check") return Goal::InCheck;
  if (t == "mate-in-1" || t == "mate1") return Goal::MateIn1;
  if (t == "no-legal-move") return Goal::NoLegalMove;
  throw std::invalid_argument("unknown goal `" + t +
                              "` (checkmated, stalemated, in-check, mate-in-1, no-legal-move)");
}

std::string to_string(Goal g) {
  switch (g) {
    case Goal::Checkmated:
      return "checkmated";
    case Goal::Stalemated:
      return "stalemated";
    case Goal::InCheck:
      return "in-check";
    case Goal::MateIn1:
      return "mate-in-1";
    case Goal::NoLegalMove:
      return "no-legal-move";
  }
  return "?";
}

void parse_discard(const std::string& text, Request& request) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || text.find('/', slash + 1) != std::string::npos)
    throw std::invalid_argument(
        "--discard must read WHITE/BLACK, each side `-` (empty), `?` (chosen) or its "
        "cards bottom to top (PNBRQKA), e.g. RA/- or ?/Q; got `" +
        text + "`");
  for (int c = 0; c < 2; ++c) {
    const std::string side = c == 0 ? text.substr(0, slash) : text.substr(slash + 1);
    const std::string who = c == 0 ? "White's" : "Black's";
    if (side.empty())
      throw std::invalid_argument(
          "--discard: " + who + " pile is missing (write `-` for an empty pile, `?` " + "to let Z3 choose)");
    if (side == "?") {
      request.discard[c].reset();
      continue;
    }
    std::string cards;
    if (side != "-")
      for (char ch : side) {
        const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        if (nostress_card_index(up) < 0)
          throw std::invalid_argument("--discard: `" + std::string(1, ch) + "` in " + who +
                                      " pile is no card (P N B R Q K A; `-` alone for an empty pile, `?` " +
                                      "alone for a chosen one)");
        cards.push_back(up);
      }
    request.discard[c] = cards;
  }
}

namespace detail {

// A position whose game is already over by midline invasion meets no goal (RULINGS 4.12).
bool over_by_invasion(const Program& p, const Status& st) {
  return p.invasion && st.end == Termination::RegionReached;
}

// The program without its card layer: the board's rules alone, on the bitboard generator
// (No Stress Chess's refinements list every move of the board, whatever the cards).
std::shared_ptr<const Program> board_program(const std::shared_ptr<const Program>& p) {
  if (!p->cards) return p;
  auto q = std::make_shared<Program>(*p);
  q->cards.reset();
  q->turn = {lang::PhaseProgram{lang::PhaseKind::Action, false, -1}};  // as the card engine's board
  q->action_move = true;
  q->action_place = false;
  q->start_text = p->cards->board;
  return q;
}

}  // namespace detail

using detail::over_by_invasion;
using detail::Synth;
using detail::TimedOut;
using detail::verify_card_position;

Outcome synthesize(std::shared_ptr<const lang::Program> program, const Request& request) {
  if (!program) throw std::invalid_argument("no program");
  if (request.count < 1) throw std::invalid_argument("--count must be at least 1");
  const auto t0 = std::chrono::steady_clock::now();
  try {
    Synth s(std::move(program), request);
    return s.run();
  } catch (const TimedOut&) {
    // --timeout passed while the encoding was being built: nothing was searched.
    Outcome o;
    o.timed_out = true;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return o;
  }
}

std::vector<std::string> compare_encoding(std::shared_ptr<const lang::Program> program,
                                          const std::vector<std::string>& positions) {
  if (!program || program->grid || program->cards)
    throw std::invalid_argument("compare_encoding: a bounded board without cards");
  Request r;
  r.goal = Goal::InCheck;
  Synth s(std::move(program), r);
  std::vector<std::string> out;
  for (const std::string& pos : positions)
    for (const std::string& d : s.compare(pos)) out.push_back(pos + ": " + d);
  return out;
}

bool verify(const std::shared_ptr<const lang::Program>& program, const std::string& position, Goal goal,
            const std::string& move) {
  if (program->cards) {
    lang::make_compiled_engine(program)->set_position(position);  // PositionError for bad text
    return verify_card_position(program, position, goal, move, nullptr);
  }
  auto e = lang::make_compiled_engine(program);
  e->set_position(position);
  std::vector<Action> acts;
  e->legal_actions(acts);
  Status st = e->status();
  if (over_by_invasion(*program, st)) return false;
  switch (goal) {
    case Goal::InCheck:
      return st.in_check;
    case Goal::Checkmated:
      return acts.empty() && st.in_check;
    case Goal::Stalemated:
      return acts.empty() && !st.in_check;
    case Goal::NoLegalMove:
      return acts.empty();
    case Goal::MateIn1:
      for (const Action& a : acts) {
        std::string text = uci(e->describe(a), e->chess960());
        if (!move.empty() && text != move) continue;
        e->apply(a);
        std::vector<Action> replies;
        e->legal_actions(replies);
        Status after = e->status();
        bool mate = replies.empty() && after.in_check && !over_by_invasion(*program, after);
        e->undo();
        if (mate) return true;
      }
      return false;
  }
  return false;
}

}  // namespace arb::synth
