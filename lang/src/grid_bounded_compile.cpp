// Compiles a ruleset for the grid back end on its bounded board (issue 26): each piece's
// Betza moves become move vectors, its rank statements row masks. What the grid back end
// cannot run on a bounded board is refused at the statement that states it, every such
// statement listed, so `--against grid` says which statements block a ruleset.
#include <algorithm>
#include <set>
#include <tuple>

#include "arbiter/lang/betza.hpp"
#include "arbiter/lang/grid_bounded.hpp"
#include "grid_bounded.hpp"

namespace arb::lang {

namespace {

// The constructs the bounded grid engine executes (the rest is refused by name).
bool grid_executes(ConstructId id) {
  switch (id) {
    case ConstructId::Ruleset:
    case ConstructId::Title:
    case ConstructId::BoardRect:
    case ConstructId::Option:
    case ConstructId::Piece:
    case ConstructId::Castling:
    case ConstructId::CastlingNone:
    case ConstructId::CastlingRook:
    case ConstructId::CastlingKingSide:
    case ConstructId::CastlingQueenSide:
    case ConstructId::SetupText:
    case ConstructId::Turn:
    case ConstructId::ActionMove:
    case ConstructId::Legal:
    case ConstructId::RoyalSafe:
    case ConstructId::End:
    case ConstructId::EndCheckmate:
    case ConstructId::EndStalemate:
    case ConstructId::EndInsufficient:
    case ConstructId::EndAgreement:
    case ConstructId::Claim:
    case ConstructId::Betza:
    case ConstructId::Royal:
    case ConstructId::Initial:
    case ConstructId::Forbidden:
    case ConstructId::PromoteOnRank:
    case ConstructId::Expect:
    case ConstructId::ExpectPerft:
    case ConstructId::ExpectStatus:
    case ConstructId::ExpectLegal:
    case ConstructId::ExpectIllegal:
    case ConstructId::Records:
    case ConstructId::RecordName:
    case ConstructId::RecordPlacementNotation:
    case ConstructId::RecordAgreementDraws:
    case ConstructId::RecordTag:
    case ConstructId::FairyStockfish:
      return true;
    default:
      return false;
  }
}

uint64_t rows(int height, int color, const Range& r) {
  uint64_t m = 0;
  for (int rank = std::max(1, r.lo); rank <= std::min(height, r.hi); ++rank)
    m |= uint64_t{1} << (color == 0 ? rank - 1 : height - rank);
  return m;
}

using Shape = std::set<std::tuple<int, int, int, bool, bool>>;
Shape shape_of(const std::vector<BoundedMove>& moves) {
  Shape s;
  for (const BoundedMove& m : moves) {
    if (m.initial || m.lame || m.en_passant) return {};
    s.insert({m.dx, m.dy, m.range, m.can_move, m.can_capture});
  }
  return s;
}
Shape bishop_shape() {
  Shape s;
  for (int dx : {-1, 1})
    for (int dy : {-1, 1}) s.insert({dx, dy, 0, true, true});
  return s;
}
Shape knight_shape() {
  Shape s;
  for (int a : {-1, 1})
    for (int b : {-2, 2}) {
      s.insert({a, b, 1, true, true});
      s.insert({b, a, 1, true, true});
    }
  return s;
}

}  // namespace

std::shared_ptr<const BoundedGridProgram> compile_bounded_grid(const Model& m,
                                                               std::shared_ptr<const Program> program,
                                                               Diagnostics& d) {
  const int before = d.error_count();
  const auto refuse = [&](const Loc& loc, const std::string& what, std::string hint = "") {
    d.error(loc, what + ": not executable by the grid back end on a bounded board", std::move(hint));
  };
  if (m.unbounded) {
    d.error(m.board_loc,
            "`board unbounded`: the grid is this ruleset's only back end; the bounded grid back end "
            "needs `board W x H`");
    return nullptr;
  }
  for (const ConstructUse* u : m.all_constructs())
    if (!grid_executes(u->id)) {
      // A keyword of several forms (`action move` / `action move or place`) says which one.
      const ConstructDef& def = u->def();
      const bool shared = find_constructs(def.scope, def.keyword).size() > 1;
      refuse(u->loc, "`" + def.keyword + "`" + (shared ? " (" + def.doc + ")" : std::string()));
    }
  if (!program) {
    d.error(m.name_loc,
            "the bounded grid back end takes the game's rules from the bitboard compile, "
            "which failed");
    return nullptr;
  }
  auto g = std::make_shared<BoundedGridProgram>();
  g->program = program;
  g->width = m.width;
  g->height = m.height;
  if (m.width > 64 || m.height > 64) refuse(m.board_loc, "a board side over 64 squares");
  g->letters = program->letters;
  if (static_cast<int>(m.pieces.size()) != program->ntypes)
    refuse(m.name_loc, "pieces outside the setup's army");
  for (const PieceDef& def : m.pieces) {
    BoundedPiece bp;
    bp.letter = def.letter;
    bp.royal = def.royal;
    if (def.royal) {
      if (g->royal_type >= 0) refuse(def.loc, "a second royal piece type");
      g->royal_type = static_cast<int>(g->types.size());
    }
    bp.resets_clock = def.name == "pawn" || def.promote_ranks.has_value();
    for (int c = 0; c < 2; ++c) {
      if (def.initial_ranks) bp.initial_rows[c] = rows(m.height, c, *def.initial_ranks);
      if (def.promote_ranks) bp.promote_rows[c] = rows(m.height, c, *def.promote_ranks);
      if (def.forbidden_ranks) bp.forbidden_rows[c] = rows(m.height, c, *def.forbidden_ranks);
    }
    if (def.promote_colour_set[0] || def.promote_colour_set[1])
      refuse(def.promote_loc, "`promote ... for white|black`");
    for (char l : def.promote_to)
      if (program->letters.find(l) != std::string::npos) bp.promote_to.push_back(l);
    for (const BetzaText& bt : def.betza) {
      std::vector<BetzaMove> moves;
      BetzaError err;
      if (!parse_betza(bt.text, moves, err)) continue;  // sema reported it
      for (const BetzaMove& mv : moves) {
        if (mv.hop || !mv.unsupported.empty()) {
          refuse(bt.loc, "Betza `" + bt.text + "`: hoppers and the modifiers " +
                             (mv.unsupported.empty() ? std::string("p, g") : mv.unsupported));
          break;
        }
        const bool straight = mv.dx == 0 || mv.dy == 0 || std::abs(mv.dx) == std::abs(mv.dy);
        if (mv.lame && (mv.range != 1 || !straight)) {
          refuse(bt.loc, "Betza `" + bt.text + "`: `n` on a rider or on a bent leap");
          break;
        }
        if (mv.initial && !def.initial_ranks) {
          refuse(bt.loc, "Betza `" + bt.text + "`: `i` without `initial ranks`");
          break;
        }
        for (int c = 0; c < 2; ++c) {
          BoundedMove bm;
          bm.dx = mv.dx;
          bm.dy = c == 0 ? mv.dy : -mv.dy;
          bm.range = mv.range;
          bm.can_move = mv.can_move;
          bm.can_capture = mv.can_capture;
          bm.initial = mv.initial;
          bm.lame = mv.lame;
          bm.en_passant = mv.en_passant;
          bm.double_step = mv.initial && mv.lame && mv.can_move && !mv.can_capture && mv.range == 1 &&
                           std::max(std::abs(mv.dx), std::abs(mv.dy)) == 2 && straight;
          bp.moves[c].push_back(bm);
        }
      }
    }
    bp.bishop = shape_of(bp.moves[0]) == bishop_shape();
    bp.knight = shape_of(bp.moves[0]) == knight_shape();
    g->types.push_back(bp);
  }
  if (g->royal_type < 0) refuse(m.name_loc, "a ruleset without a royal piece");
  if (!m.royal_safe) refuse(m.name_loc, "a `legal` block without `royal-safe`");
  if (program->castling_shredder) refuse(m.castling_loc, "castling rights written as Shredder-FEN");
  if (program->chess960_setup) refuse(m.name_loc, "a Chess960 setup");
  bool mate = false, stale = false;
  for (const EndRule& r : m.end) {
    if (r.condition == "checkmate" && r.result == "loss") {
      mate = true;
      g->checkmate_reason = r.reason;
    } else if (r.condition == "stalemate" && r.result == "draw" && r.when.empty()) {
      stale = true;
      g->stalemate_reason = r.reason;
    } else if (r.condition == "insufficient-material" && r.result == "draw") {
      g->insufficient_draw = program->insufficient_draw;  // the compiler's proof decides
    } else if (r.condition != "agreement") {
      refuse(r.loc, "end condition `" + r.condition + " -> " + r.result + "`" +
                        (r.when.empty() ? std::string() : " when " + r.when));
    }
  }
  if (!mate || !stale)
    refuse(m.name_loc, "an `end` block without `checkmate -> loss` and `stalemate -> draw`");
  g->claim_repetition = program->claim_repetition;
  g->claim_fifty = program->claim_fifty;
  if (d.error_count() != before) return nullptr;
  return g;
}

}  // namespace arb::lang
