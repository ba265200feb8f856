// The compiled generator's class, Generator<BB> (generator.cpp instantiates it). The class
// body is split by responsibility into the gen_*.hpp fragments included below, in the order
// the members always had; this file keeps the class head, the data members and the small
// inline helpers. Include it only from generator.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <type_traits>

#include "arbiter/fen.hpp"
#include "arbiter/lang/bitboard.hpp"
#include "arbiter/targeted.hpp"
#include "card_board.hpp"
#include "gen_ends.hpp"
#include "gen_flip.hpp"
#include "gen_magic.hpp"
#include "gen_misc.hpp"
#include "gen_move_encoding.hpp"
#include "gen_pass.hpp"
#include "gen_stack.hpp"

namespace arb::lang {

namespace {

// The generator is instantiated once per bitboard type; that makes its functions look
// bigger to the inliner, which then stops inlining the small hot ones (attack tests, board
// updates) into the move loop. They are inlined as they were with one instantiation.
#define ARB_INLINE [[gnu::always_inline]] inline

template <class BB>
class Generator final : public Engine, public CardBoard, public TargetedActions {
  static constexpr int N = bb::kSquares<BB>;
  static BB bit(int s) { return bb::bit<BB>(s); }

 public:
  Generator(std::shared_ptr<const Program> p, const BoardTables<BB>* t) : p_(std::move(p)), t_(t) {
    setup_sliders();
    set_position(p_->start_text);
  }

  std::string name() const override { return "compiled:" + p_->variant; }
  GameConfig config() const override { return GameConfig{p_->variant, p_->options}; }

  // the Engine interface: position text, actions, status, card hook, perft
#include "gen_interface.hpp"
  // the problem solver's queries: checking actions, any legal action
#include "gen_checks.hpp"

 private:
  // set_position()'s scratch generator: the program's slider set-up copied from `like`
  // (setup_sliders() reads only the program's tables; the record validator sets a position
  // per game, and recomputing it was 4% of its time).
  Generator(const Generator& like, int) : p_(like.p_), t_(like.t_) {
    copy_sliders(like);
  }

  // perft over turns
#include "gen_perft.hpp"

  std::shared_ptr<const Program> p_;
  const BoardTables<BB>* t_;  // owned by *p_
  std::array<int8_t, N> board_{};
  BB by_color_[2] = {};
  BB by_type_[kMaxTypes] = {};
  BB walls_{};  // wall squares (`walls`, section "walls")
  int side_ = 0;
  int ep_ = -1, ep_victim_ = -1;
  uint8_t castling_ = 0;
  std::array<int, 4> rook_sq_{};      // right i = colour*2 + (0 king side, 1 queen side)
  std::array<int, 4> castle_from_{};  // the castling king's square of right i
  bool castle_royal_ = true;          // the castling king is royal (its path must not be attacked)
  // Per right: the squares that must be empty, and those the king passes (its destination
  // included) that must not be attacked. Fixed while the right lasts: the king and the rook
  // have not moved.
  std::array<BB, 4> castle_need_{}, castle_path_{};
  std::array<uint8_t, N> castle_clear_{};
  int halfmove_ = 0, fullmove_ = 1;
  int reserve_[2][kMaxTypes] = {};
  // `captures-to-hand`: captures fill the captor's reserve, and promoted_ holds the squares
  // of the pieces standing promoted (they return demoted). Section "hands and drops".
  bool hand_ = false, marks_ = false;  // marks_: promoted pieces are tracked (no `keep-promoted`)
  BB promoted_{};
  uint64_t hash_ = 0;
  bool chess960_ = false;
  GrowStack<Undo> stack_;  // gen_stack.hpp: make/unmake push and pop by an index
  GrowStack<uint64_t> history_;
  std::vector<std::vector<Move>> buffers_;
  std::vector<std::vector<Move>> seconds_;  // perft_turns' king-turn lists
  std::vector<Move> legal_buf_;             // legal_actions' scratch
  // The turn layer: a second, optional phase moving one royal piece (Program::turn), and
  // while generating it, only royal pieces move (no castling, no placement).
  bool royal_phase_ = false;
  bool pseudo_ = false;      // pseudo_legal_actions(): generate without the royal-safety test
  bool turn_phase_ = false;  // the ruleset's own `phase royal-move` (both colours)
  bool royal_only_ = false;
  bool any_only_ = false;  // status(): generate<true> may stop at the first legal action
  int only_to_ = -1;       // legal_actions_to()'s square
  // More than one royal piece per colour or royal type (RULINGS 4.9): every royal piece
  // must stay safe, and every action gets the full legality test.
  bool multi_royal_ = false;
  // Copies of the program's flags the hot loops test (Program::borrowing, chess2_primitives).
  bool borrowing_ = false, rich_ = false;
  // RULINGS 4.10's primitives: some type rampages, strikes, rides a limited line, captures
  // own pieces or is protected from afar. Attacks then include rampage paths and strike
  // lines, and every action gets the full legality test (a strike or a rampage removes
  // pieces without standing in the line it opens).
  bool animals_ = false;
  bool plain_king_ = false;       // one royal piece whose step is judged by attacked() alone (see generate)
  bool animal_attacks_ = false;   // some type attacks by a rampage, a strike line or a whirlwind
  bool occupancy_tests_ = false;  // safe_after's tests without make/unmake apply (see there)
  uint32_t target_types_ = 0;     // types special_targets() adds targets for
  uint32_t within_types_ = 0, immune_types_ = 0, line_check_types_ = 0, rampage_types_ = 0, whirl_types_ = 0;
  // Types whose captures explode (`remove-around ... when capture`), and whether removing
  // the last royal piece of a colour ends the game (`royal-capture -> win`).
  uint32_t blast_types_ = 0;
  bool royal_ends_ = false;
  // `royal-safe` with `royal-capture -> win` (No Stress Chess's advanced game, RULINGS 3.7):
  // a capture of an enemy royal piece wins at once, so it is legal whatever it leaves
  // attacked (a piece pinned to its own royal piece may take it). Explosions decide this in
  // safe_after_blast().
  bool royal_take_ = false;
  bool answering_ = false;  // can_answer()'s generation: the region's end is being decided
  // Types with other riders, hoppers or lame leaps (PieceProgram::paths), and those of them
  // that give check with such a path: attacks then include them, and every action gets the
  // full legality test (a screen arriving or leaving, a horse's leg freed: the pins do not
  // see them).
  uint32_t path_types_ = 0, path_check_types_ = 0;
  std::array<int, kMaxTypes> line_reach_{};  // per type: the longest rampage or strike line (0: unlimited)
  std::vector<std::pair<int16_t, int8_t>> removed_;  // pieces removed by rampages, strikes, explosions
  // light_make's: one entry per square, sized by load() (a whirlwind or an explosion of
  // radius 8 removes up to 80 pieces).
  std::vector<std::pair<int16_t, int8_t>> lrem_;
  int nlrem_ = 0;
  int pending_passed_ = -1, pending_victim_ = -1;  // a first step's double step
  uint32_t move_types_ = CardBoard::kAllTypes;     // the card layer's type mask
  std::vector<Move> card_moves_;                   // its move list, reused
  // Issue 24 (gen_ends.hpp): some counted end condition or `must-capture`; the checks each
  // side has still to give (`checks N -> win`); must-capture's scratch list.
  bool ends_any_ = false, counted_ends_ = false, counting_checks_ = false;
  bool facing_now_ = false;        // `royals-facing`: the royal pieces face each other (generate_with_pass)
  bool opposite_colours_ = false;  // shogi2: a type with `drop opposite-colours`
  BB dark_{};                      // the squares of a1's colour
  std::array<int8_t, 2> checks_left_{};
  std::vector<Move> forced_buf_;
  // Flipping pieces and passes (gen_flip.hpp): the game ends by a full board or passes,
  // a blocked side passes, placements have conditions or no reserve, the types that
  // convert; flipped_ holds each converting step's converted squares, newest last.
  bool flip_ends_ = false, pass_ = false, flip_drops_ = false, flip_supply_ = false;
  uint32_t convert_types_ = 0;
  std::vector<BB> flipped_;
  // The rides by magic bitboards (gen_magic.hpp, gen_sliders.hpp): set when the board is
  // the plain 8x8 board (its rays the geometric ones); null otherwise. Per colour, the
  // types giving check along all four orthogonal (diagonal) directions, the directions
  // (seen from the attacked square) that other rides check along, and the types with
  // leaping checks.
  const magic::Entry* rook_ = nullptr;
  const magic::Entry* bishop_ = nullptr;
  uint32_t orth_check_types_[2] = {}, diag_check_types_[2] = {}, leap_check_types_[2] = {};
  uint8_t other_check_dirs_[2] = {0xFF, 0xFF};
  // Pawns counted in bulk at the leaves (gen_sliders.hpp): per colour, the types whose
  // tables are exactly a pawn's; per type, the squares with a double step and those from
  // which a move reaches the promotion zone (those pawns take the general loop).
  uint32_t pawn_types_[2] = {};
  uint32_t lean_types_[2] = {};  // leapers and riders without promotion, pawn moves or specials
  bool royal_lean_[2] = {};      // the royal type's moves are its leap and ride tables alone
  BB pawn_double_[2][kMaxTypes] = {}, pawn_pre_zone_[2][kMaxTypes] = {};
  // Per colour and square: the squares from which some type of that colour may take en
  // passant onto it (the union of the types' ep_capture tables, inverted).
  std::vector<BB> ep_from_[2];

  Coord coord(int s) const {
    return Coord{s % p_->width, s / p_->width + 1};
  }
  char letter(int code) const {
    char l = p_->letters[code >> 1];
    return (code & 1) ? static_cast<char>(std::tolower(l)) : l;
  }
  // Wall squares (`walls`) are occupied: they block every move, and no piece captures them.
  ARB_INLINE BB occupied() const {
    return by_color_[0] | by_color_[1] | walls_;
  }
  ARB_INLINE BB pieces(int c, int t) const {
    return by_color_[c] & by_type_[t];
  }
  ARB_INLINE BB royals(int c) const {
    if (!multi_royal_) return p_->royal_type >= 0 ? pieces(c, p_->royal_type) : BB{};
    BB b{};
    for (uint32_t m = p_->royal_types; m; m &= m - 1) b |= pieces(c, __builtin_ctz(m));
    return b;
  }
  // The pieces of the types in a mask (both colours).
  BB types_bb(uint32_t mask) const {
    BB b{};
    for (; mask; mask &= mask - 1) b |= by_type_[__builtin_ctz(mask)];
    return b;
  }
  ARB_INLINE int royal_square(int c) const {
    BB b = royals(c);
    return b ? lsb(b) : -1;
  }
  // Whether any royal piece of colour c is attacked.
  bool royals_attacked(int c) const {
    const BB occ = occupied();
    for (BB b = royals(c); b; clear_lsb(b))
      if (blast_types_ ? blast_attacked(lsb(b), c ^ 1, occ) : attacked(lsb(b), c ^ 1, occ)) return true;
    return false;
  }

  // the rides by magic bitboards
#include "gen_sliders.hpp"

  // capture effects and special attacks
#include "gen_effects.hpp"

  // board updates, attacks, legality
#include "gen_legality.hpp"

  // the result of a checkmate by its checkers
#include "gen_mate.hpp"

  // move generation
#include "gen_generate.hpp"

  // make and unmake
#include "gen_make.hpp"

  // reading a position
#include "gen_load.hpp"

  // walls
#include "gen_walls.hpp"

  // flips, hands and drops, the shogi family
#include "gen_hands.hpp"

  uint64_t full_hash() const {
    const Zobrist<N>& z = zob<N>();
    uint64_t h = 0;
    for (int s = 0; s < p_->squares; ++s)
      if (board_[s] >= 0) h ^= z.psq[board_[s] & 1][board_[s] >> 1][s];
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < p_->ntypes; ++t) h ^= reserve_key(z, c, t, reserve_[c][t]);
    for (BB b = promoted_; b; clear_lsb(b)) h ^= z.promoted[lsb(b)];
    if (side_) h ^= z.side;
    h ^= z.castle[castling_];
    if (ep_ >= 0) h ^= z.ep[ep_];
    for (BB w = walls_; w; clear_lsb(w)) h ^= z.wall[lsb(w)];
    if (counting_checks_)
      for (int c = 0; c < 2; ++c) h ^= ends::check_key(c, checks_left_[c]);
    return h;
  }
};

}  // namespace

}  // namespace arb::lang
