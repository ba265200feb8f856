// program_fingerprint: the text a mutant's equivalence is judged by. Two programs with equal
// fingerprints run the same in every back end, so the fingerprint must hold every field the
// back ends read. It once listed fields by hand and missed those added later (regions,
// hoppers' paths, `royals-not-facing`, the drop restrictions), so `mutate` called mutants of
// those constructs equivalent when they were not. Now every struct the program is made of is
// written field by field below, and a field count per struct stops the build when a field is
// added without being written here.
#include <bitset>
#include <cstring>
#include <type_traits>
#include <utility>

#include "arbiter/lang/bitboard.hpp"
#include "mutate/rule_mutants.hpp"

namespace arb::mutate {

using arb::lang::CardProgram;
using arb::lang::GridMove;
using arb::lang::GridPiece;
using arb::lang::GridProgram;
using arb::lang::PhaseProgram;
using arb::lang::PieceProgram;
using arb::lang::Program;

// A guard: the number of initialisers each struct takes (its fields, a C array counting
// one per element) is fixed here, so a field added to any of them stops the build until it
// is written in that struct's function below and the count is updated.
namespace {
struct AnyValue {
  template <class U>
  constexpr operator U() const noexcept;
};
template <class T, size_t... I>
constexpr auto init_with(std::index_sequence<I...>) -> decltype(T{(void(I), AnyValue{})...}, true) {
  return true;
}
template <class T, size_t N = 0>
constexpr size_t field_count() {
  if constexpr (!requires { init_with<T>(std::make_index_sequence<N + 1>{}); })
    return N;
  else
    return field_count<T, N + 1>();
}
}  // namespace
#define ARB_FIELDS(T, N, F) \
  static_assert(field_count<T>() == N, #T " has a new field: write it in " F " below and update the count")
ARB_FIELDS(Program, 99, "program_fingerprint()");
ARB_FIELDS(PieceProgram, 55, "put(const PieceProgram&)");
ARB_FIELDS(PieceProgram::Removal, 14, "put(const Removal&)");
ARB_FIELDS(PieceProgram::Leap, 7, "put(const Leap&)");
ARB_FIELDS(PieceProgram::LameLeap, 4, "put(const LameLeap&)");
ARB_FIELDS(PieceProgram::Line, 4, "put(const Line&)");
ARB_FIELDS(PieceProgram::Path, 9, "put(const Path&)");
ARB_FIELDS(Program::Extinction, 6, "put(const Extinction&)");
ARB_FIELDS(Program::MateRule, 5, "put(const MateRule&)");
ARB_FIELDS(Program::Flips, 8, "put(const Flips&)");
ARB_FIELDS(PhaseProgram, 3, "put(const PhaseProgram&)");
ARB_FIELDS(GridProgram, 16, "put(const GridProgram&)");
ARB_FIELDS(GridPiece, 7, "put(const GridPiece&)");
ARB_FIELDS(GridMove, 5, "put(const GridMove&)");
ARB_FIELDS(CardProgram, 12, "put(const CardProgram&)");
#undef ARB_FIELDS

namespace {

class Fp {
 public:
  std::string take() { return std::move(out_); }

  template <class T>
  std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>> put(const T& x) {
    char b[sizeof(T)];
    std::memcpy(b, &x, sizeof(T));
    out_.append(b, sizeof(T));
  }
  void put(const std::string& s) {
    put(s.size());
    out_ += s;
  }
  template <size_t N>
  void put(const std::bitset<N>& b) {
    out_ += b.to_string();
  }
  template <class T, size_t N>
  void put(const std::array<T, N>& a) {
    for (const T& x : a) put(x);
  }
  template <class T, size_t N>
  void put(const T (&a)[N]) {
    for (const T& x : a) put(x);
  }
  template <class T>
  void put(const std::vector<T>& v) {
    put(v.size());
    for (const T& x : v) put(x);
  }
  void mark(char c) { out_ += c; }

  void put(const PieceProgram::Leap& l) {
    put(l.dx), put(l.dy), put(l.move), put(l.capture), put(l.en_passant), put(l.from_region),
        put(l.to_region);
  }
  void put(const PieceProgram::LameLeap& l) { put(l.dx), put(l.dy), put(l.from), put(l.jumps); }
  void put(const PieceProgram::Line& l) { put(l.d), put(l.range), put(l.move), put(l.capture); }
  void put(const PieceProgram::Path& p) {
    put(p.dx), put(p.dy), put(p.range), put(p.move), put(p.capture), put(p.hop), put(p.lame);
    put(p.from_region), put(p.to_region);
  }
  void put(const PieceProgram::Removal& r) {
    put(r.trigger), put(r.victims), put(r.reach), put(r.lines), put(r.dirs), put(r.kept), put(r.self);
    put(r.at_least), put(r.not_beside_own_royal), put(r.blocked_own_royal), put(r.blocked_immune);
    put(r.blocked_types), put(r.self_beyond), put(r.convert);
  }
  void put(const PieceProgram& t) {
    mark('T');
    put(t.letter), put(t.royal), put(t.minor_bishop), put(t.minor_knight), put(t.leaps), put(t.lame);
    put(t.ride_move), put(t.ride_capture), put(t.promote_zone), put(t.forbidden_zone), put(t.ep_zone);
    put(t.promote_to), put(t.promote_choices), put(t.must_promote), put(t.promote_region);
    put(t.promote_leaving), put(t.promote_optional), put(t.resets_clock), put(t.clock_irreversible),
        put(t.drop_unique_file);
    put(t.drop_no_mate), put(t.drop_per_file), put(t.captures), put(t.captured_by), put(t.immune);
    put(t.gives_check), put(t.teleport_move), put(t.teleport_capture), put(t.teleport_except);
    put(t.region_leaps), put(t.borrows), put(t.borrow_dirs), put(t.own_leaps), put(t.limited), put(t.paths);
    put(t.confine), put(t.captured_within), put(t.around), put(t.strike), put(t.rampage);
    put(t.promote_capturing), put(t.demotes), put(t.drop_promoted), put(t.drop_opposite_colours),
        put(t.screen_not);
    put(t.capture_not), put(t.points);
    put(t.ep_marks_path), put(t.promote_within), put(t.promotion_limit);  // gen_pawns
    put(t.convert);
  }
  void put(const Program::Flips& f) {
    put(f.place_adjacent_own), put(f.place_encloses), put(f.opening_region), put(f.supply_unlimited);
    put(f.pass), put(f.end_board_full), put(f.end_passes), put(f.converts);
  }
  void put(const Program::Extinction& e) {
    put(e.types), put(e.all), put(e.at_most), put(e.opponent_at_least), put(e.claim), put(e.value);
  }
  void put(const Program::MateRule& r) {
    put(r.types), put(r.only), put(r.series), put(r.dropped), put(r.value);
  }
  void put(const PhaseProgram& p) { put(p.kind), put(p.optional), put(p.after); }
  void put(const GridMove& m) { put(m.dx), put(m.dy), put(m.rider), put(m.can_move), put(m.can_capture); }
  void put(const GridPiece& t) {
    put(t.letter), put(t.royal), put(t.is_pawn), put(t.promote_exchange), put(t.moves), put(t.leap_capture);
    put(t.ride_capture);
  }
  void put(const GridProgram& g) {
    mark('G');
    put(g.types), put(g.royal_type), put(g.pawn_type), put(g.adjacency_rule), put(g.hand_size);
    put(g.hand_draw), put(g.pile), put(g.pile_shuffled), put(g.seed), put(g.setup_pieces), put(g.place);
    put(g.place_pawn_beside), put(g.place_other_behind), put(g.draw_after_place), put(g.no_move_reason);
    put(g.no_move_end);
  }
  void put(const CardProgram& c) {
    mark('C');
    put(c.deck), put(c.hand_size), put(c.redraw), put(c.rules.deck), put(c.rules.hand_size), put(c.level);
    put(c.seed), put(c.board), put(c.again_own), put(c.again_opponent), put(c.redraw_alike);
    put(c.redraw_no_move), put(c.escape_duty);
  }

  // The tables are derived from the fields above; they are written too, so that a compile
  // step that stores a rule only in them is still seen.
  template <class BB>
  void put(const BB& b, std::true_type /*bitboard*/) {
    char raw[sizeof(BB)];
    std::memcpy(raw, &b, sizeof(BB));
    out_.append(raw, sizeof(BB));
  }
  template <class BB>
  void tables(const arb::lang::BoardTables<BB>& t) {
    mark('B');
    put(t.board_mask, std::true_type{});
    for (const BB& b : t.place_zone) put(b, std::true_type{});
    for (const BB& b : t.enemy_half) put(b, std::true_type{});
    for (const BB& b : t.flag_zone) put(b, std::true_type{});
    for (const BB& b : t.opening) put(b, std::true_type{});
    for (const auto& p : t.pieces) {
      for (const auto* a : {&p.leap_move, &p.leap_capture, &p.leap_capture_from, &p.ep_capture, &p.check_from,
                            &p.region_move, &p.own_capture, &p.walk_from})
        for (const auto& side : *a)
          for (const BB& b : side) put(b, std::true_type{});
      for (const auto& side : p.initial_lame)
        for (const auto& sq : side) {
          put(sq.size());
          for (const auto& l : sq) put(l.to), put(l.path, std::true_type{});
        }
      for (const auto& side : p.walks)
        for (const auto& sq : side) {
          put(sq.size());
          for (const auto& w : sq) {
            put(w.first), put(w.len), put(w.block, std::true_type{}), put(w.move), put(w.capture), put(w.hop);
          }
        }
      put(p.walk_sq);
      put(p.ride_move), put(p.ride_capture), put(p.ride_check), put(p.special), put(p.line_jumps);
      for (const auto* a : {&p.near, &p.rampage_near, &p.around, &p.lenders})
        for (const BB& b : *a) put(b, std::true_type{});
      for (const auto* a : {&p.teleport_to, &p.promote_zone, &p.forbidden_zone, &p.immobile})
        for (const BB& b : *a) put(b, std::true_type{});
    }
  }

 private:
  std::string out_;
};

}  // namespace

std::string program_fingerprint(const Program& p) {
  Fp f;
  // Not written: title and source (the path), which change no move; nor the option list: option values reach
  // the generator only through the fields that use them (claim_repetition, the grid's seed, ...), which are
  // written.
  f.put(p.variant), f.put(p.turn), f.put(p.width), f.put(p.height), f.put(p.squares), f.put(p.ntypes);
  f.put(p.types), f.put(p.royal_type), f.put(p.royal_types), f.put(p.royal_count), f.put(p.no_royal);
  f.put(p.king_turn), f.put(p.letters), f.put(p.castling), f.put(p.castling_rook), f.put(p.castling_rooks);
  f.put(p.castling_rank), f.put(p.castling_shredder), f.put(p.castling_king), f.put(p.ks_king_to);
  f.put(p.ks_rook_to), f.put(p.qs_king_to), f.put(p.qs_rook_to), f.put(p.has_reserve);
  f.put(p.capture_to_hand), f.put(p.hand_marks), f.put(p.demote), f.put(p.plus_marks), f.put(p.plus_of);
  f.put(p.plus_base), f.put(p.start_text), f.put(p.action_move), f.put(p.action_place), f.put(p.place_zone);
  f.put(p.place_first_royal), f.put(p.royal_safe), f.put(p.royals_apart), f.put(p.royals_not_facing);
  f.put(p.duple_check);
  f.put(p.no_check_given), f.put(p.regions), f.put(p.royal_capture), f.put(p.army), f.put(p.army_types);
  f.put(p.castles), f.put(p.army_base), f.put(p.army_slots), f.put(p.chess960_setup), f.put(p.on_checkmate);
  f.put(p.checkmate_loses), f.put(p.stalemate_draw), f.put(p.no_move_loses), f.put(p.checkmate_value);
  f.put(p.stalemate_value), f.put(p.stalemate_by_count), f.put(p.extinctions), f.put(p.checks_to_win);
  f.put(p.mate_rules);
  f.put(p.must_capture), f.put(p.walls), f.put(p.wall_rule), f.put(p.wall_region), f.put(p.petrify_types);
  f.put(p.hand_to_partner), f.put(p.pass), f.put(p.double_pass), f.put(p.royals_facing),
      f.put(p.counting_needs);
  f.put(p.draw_odds), f.put(p.royal_stays_in_check), f.put(p.must_drop_type), f.put(p.must_drop);
  f.put(p.castle_by_drop), f.put(p.flag_safe), f.put(p.flag_held);
  f.put(p.invasion), f.put(p.invasion_reason), f.put(p.flag_types);
  f.put(p.flips);
  f.put(p.flag_region), f.put(p.flag_answer), f.put(p.flag_any), f.put(p.insufficient_draw);
  f.put(p.insufficient_needs_empty_reserves), f.put(p.claim_repetition), f.put(p.claim_fifty);
  f.put(p.lines_are_rays), f.put(p.capture_rules), f.put(p.borrowing), f.put(p.chess2_primitives);
  if (p.tables64) f.tables(*p.tables64);
  if (p.tables128) f.tables(*p.tables128);
  if (p.tables256) f.tables(*p.tables256);
  if (p.grid) f.put(*p.grid);
  if (p.cards) f.put(*p.cards);
  return f.take();
}

}  // namespace arb::mutate
