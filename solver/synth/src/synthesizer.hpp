// The synthesis of one request (synthesize): the Z3 encoding built from the geometry and the
// encoder, the search for models, and each model checked by the generator. The class's
// members are defined by responsibility in synth_goal.cpp (the goal), synth_cards.cpp (No
// Stress Chess's cards), synth_driver.cpp (the Z3 driver) and synth_output.cpp (the output).
// Private to the synthesis.
#pragma once

#include <z3++.h>

#include <array>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "arbiter/synth/synth.hpp"
#include "encoder.hpp"

namespace arb::synth::detail {

// A position whose game is already over by midline invasion meets no goal (RULINGS 4.12).
bool over_by_invasion(const Program& p, const Status& st);
// No Stress Chess, judged by the card engine: the goal, or (mate-in-1) an action of the
// mover (named `want`, or any) after which the opponent is checkmated (advanced) or has lost
// the king (levels 1-3); `found` receives its text.
bool verify_card_position(const std::shared_ptr<const Program>& p, const std::string& text, Goal goal,
                          const std::string& want, std::string* found);
// The program without its card layer: the board's rules alone, on the bitboard generator
// (No Stress Chess's refinements list every move of the board, whatever the cards).
std::shared_ptr<const Program> board_program(const std::shared_ptr<const Program>& p);

// --timeout passed while the encoding was being built or refined (Synth::checkpoint).
struct TimedOut {};

class Synth {
 public:
  Synth(std::shared_ptr<const Program> p, const Request& r);

  // The encoding evaluated on one position against the generator (bounded boards): the
  // check of the side to move, and the side to move's actions (moves, strikes, whirlwinds,
  // rampages) the encoding calls legal against those the generator lists. Each difference
  // is one line of the result.
  std::vector<std::string> compare(const std::string& position);

  Outcome run();

  // Throws TimedOut once the deadline has passed: called through the building and the
  // refinement of the encoding, so that --timeout holds there as it does in Z3.
  void checkpoint() const;

 private:
  void search();

  void build();

  // No Stress Chess's card zones (RULINGS 3.2, 3.4, 3.5). The side to move has drawn and
  // acts, so it holds H + 1 cards: `--hands` gives them, else Z3 chooses how many of each
  // kind it holds. The discard piles are given (`--discard`), or Z3 chooses each one's top
  // piece card (or an empty pile) when the mover may hold an Again card; they are empty
  // otherwise. The other side's H cards and the pile are unknown (`?N`): they do not change
  // the mover's actions. The mover may move a piece type iff a card of its hand names it: a
  // piece card its type, an Again card the newest piece card of the own discard pile and
  // that of the opponent's (Again cards skipped). Every kind's cards in the known zones stay
  // within the deck's count of that kind.
  void card_hands();

  // Levels 1-3 (RULINGS 3.6): capturing the king wins at once, so "mate in one" is a capture
  // of the enemy king by a piece of a kind the mover's cards name.
  void build_king_capture();

  // Every royal piece of colour c on the enemy half (the generator's invaded()).
  z3::expr invaded(const Board& b, int c);

  z3::expr count_is(const Board& b, int c, int t, int n);
  z3::expr count_pieces(int n);

  // What every position must satisfy: one piece per square, allowed squares, one royal
  // each, the side not to move not in check, royals apart, material within the set.
  void position_constraints(const Board& b, bool with_material);

  // Mate in one: board Q after one action of the side to move (us), tied to P by a one-hot
  // selector over every action of the mover (moves, strikes, whirlwinds, rampages); with a
  // king-turn (RULINGS 4.9, or a ruleset's own royal-move phase) a board M after the normal
  // action, then an optional second selector over the royal pieces' actions from M to Q.
  // Each action leaves the mover's royal pieces safe; Q has them in check.
  void build_mate_in_1();

  // One action of the mover from board A to board B by a piece of a type in `mask`, when
  // `active` holds (else B is A): a one-hot selector over moves (from, to), placements from
  // the mover's hand and Chess 2's actions in place (strikes, whirlwinds, rampages), each
  // tied to the cells it changes; every other cell keeps its piece. The mover's safety is
  // stated on B by the caller.
  void encode_action(const Board& A, const Board& B, uint32_t mask, const z3::expr& active,
                     const std::string& prefix);

  // The royal's conjuncts up front (all of them when eager).
  void seed(int board, const Board& b, int c);

  // "Not this action": kind 0 a move of type t from -> to, 1 a placement of t on to, and
  // Chess 2's actions in place: 2 a strike from -> to, 3 a whirlwind on from, 4 a rampage
  // from `from` along direction `to`.
  bool add_conjunct(int board, const Board& b, int c, int kind, int t, int from, int to);

  // Whether type t's plain movement may take a piece on `to` from `from`.
  bool captures_to(int c, int t, int f, int to) const;

  // The conjuncts of the generator's legal actions in `e`'s position for board `board`.
  bool refine(Engine& e, int board, const Board& b);

  bool on(const z3::model& m, const z3::expr& e) const;

  std::string text_of(const z3::model& m, int& pieces);

  // No Stress Chess's card zones (see card_hands()): the mover's H + 1 cards, the other
  // side's H cards (given or unknown), the discard piles (given, or the top piece card Z3
  // chose), the rest of the deck an unknown pile.
  std::string card_fields(const z3::model& m);

  z3::expr block(const z3::model& m);

  void loop(const std::vector<z3::expr>& assumptions);

  // Verifies the model's position with the generator. Returns true when it satisfies the
  // goal; otherwise either adds the conjuncts of the legal actions it found (refined_) or
  // leaves the model to be blocked.
  bool check_model(const z3::model& m, Found& fd);

  // A text's placement field, without a reserve in brackets.
  static std::string first_field(const std::string& text);

  // The placement field of board b in model m (every cell).
  std::string board_field(const z3::model& m, const Board& b);

  static size_t nth_space(const std::string& s, int n);

  bool verify_cards(const std::string& text, std::string& move);

  bool check_board(const z3::model& m, Found& fd);

  std::shared_ptr<const Program> p_;
  Request r_;
  Geo g_;
  z3::context ctx_;
  z3::solver solver_;
  const lang::CardProgram* cards_ = nullptr;     // No Stress Chess
  bool advanced_ = false;                        // its advanced level (check rules)
  std::vector<z3::expr> card_;                   // [t]: a card of the mover's hand names piece type t
  z3::expr_vector card_vars_{ctx_};              // the card choices Z3 makes (blocked per model)
  std::array<std::vector<z3::expr>, 7> copies_;  // [kind][i]: a chosen hand holds more than i
  std::vector<z3::expr> top_[2];                 // [c][t]: c's newest discarded piece card is t
  std::string disc_[2];                          // the discard piles given
  bool disc_given_[2] = {false, false}, disc_chosen_[2] = {false, false};
  std::string card_hand_[2];  // the hands given (empty: unknown, or chosen by Z3 for the mover)
  std::unique_ptr<Encoder> enc_;
  std::unique_ptr<Engine> engine_;
  Board P_, Q_;
  int us_ = 0;
  int hand_[2][lang::kMaxTypes] = {};
  Board M_;  // mate-in-1 with a king-turn: the board after the normal action
  std::vector<std::tuple<int, int, z3::expr>> moves_;  // the normal action's move selectors
  std::set<std::tuple<int, int, int, int, int, int>> added_;
  bool refined_ = false;
  Outcome out_;
  std::chrono::steady_clock::time_point t0_, deadline_;
};

}  // namespace arb::synth::detail
