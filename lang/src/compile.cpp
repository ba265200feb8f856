#include "arbiter/lang/compile.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "arbiter/chessme_text.hpp"
#include "arbiter/lang/betza.hpp"
#include "arbiter/lang/bitboard.hpp"
#include "card_board.hpp"
#include "card_compile.hpp"
#include "drops.hpp"
#include "flip.hpp"
#include "pass_compile.hpp"
#include "shogi2.hpp"
#include "walls.hpp"

namespace arb::lang {

namespace {

// The moves a piece's Betza texts make, in a canonical order (empty when one does not
// parse: sema reported it): two pieces move alike when these are equal, however spelled.
std::vector<std::tuple<int, int, int, bool, bool, bool, bool, bool, char, std::string>> movement(
    const std::vector<std::string>& texts) {
  std::vector<std::tuple<int, int, int, bool, bool, bool, bool, bool, char, std::string>> out;
  for (const std::string& t : texts) {
    std::vector<BetzaMove> moves;
    BetzaError err;
    if (!parse_betza(t, moves, err)) return {};
    for (const BetzaMove& m : moves)
      out.emplace_back(m.dx, m.dy, m.range, m.can_move, m.can_capture, m.en_passant, m.initial, m.lame, m.hop,
                       m.unsupported);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool same_movement(const PieceDef& def, const std::string& betza) {
  std::vector<std::string> texts;
  for (const BetzaText& bt : def.betza) texts.push_back(bt.text);
  auto mine = movement(texts);
  return !mine.empty() && mine == movement({betza});
}

// A piece stated by its Betza texts alone (and `royal`): no capture rule, effect,
// promotion or other construct that could change what it attacks.
bool plain_piece(const PieceDef& def) {
  for (const ConstructUse& u : def.constructs)
    if (u.id != ConstructId::Betza && u.id != ConstructId::Royal && u.id != ConstructId::Forbidden)
      return false;
  return !def.promote_ranks && !def.promote_exchange;
}

class Compiler {
 public:
  Compiler(const Model& m, Diagnostics& d) : m_(m), d_(d) {}

  std::shared_ptr<Program> run() {
    auto p = std::make_shared<Program>();
    p->variant = m_.name;
    for (const OptionDef& o : m_.options) p->options.emplace_back(o.name, o.value);
    std::sort(p->options.begin(), p->options.end());
    p->title = m_.title;
    if (m_.name_loc.src) p->source = m_.name_loc.src->path;
    // The gate, by identity: every construct the ruleset states must be one the chosen back
    // end executes (construct.cpp lists which back ends run each).
    const Backend backend = m_.unbounded ? kGrid : kBitboard;
    select_armies();
    bool first = true;
    for (const ConstructUse* u : used_constructs()) {
      const ConstructDef& def = u->def();
      if (def.backends & backend) continue;
      std::string where =
          def.backends ? "the " + backend_name(backend) + " back end" : "the compiled generator";
      d_.error(u->loc, "construct `" + def.keyword + "` (" + def.doc + ") is not executable yet by " + where,
               first ? "the ruleset parses and checks; running it needs generator support for this construct"
                     : "");
      first = false;
    }
    turn(*p);
    if (m_.unbounded) {
      grid(*p);
      if (d_.has_errors()) return nullptr;
      return p;
    }
    if (m_.width > kMaxFiles || m_.height > kMaxRanks) {
      d_.error(m_.board_loc,
               "boards wider or taller than 16 squares are not executable by the compiled generator",
               "the bitboard back end runs boards up to 16 x 16");
      return nullptr;
    }
    p->width = m_.width;
    p->height = m_.height;
    p->squares = m_.width * m_.height;
    if (used_.size() > kMaxTypes) {
      d_.error(m_.pieces[used_[kMaxTypes]].loc, "more than 16 piece types are not executable yet");
      return nullptr;
    }
    p->ntypes = static_cast<int>(used_.size());
    p->types.resize(p->ntypes);
    for (int t = 0; t < p->ntypes; ++t) p->letters.push_back(m_.pieces[used_[t]].letter);
    regions(*p);
    black_rotated_ = black_rotated(m_);  // shogi2.hpp: `orientation rotated`
    for (int t = 0; t < p->ntypes; ++t) piece(*p, t);
    armies(*p);
    for (int t = 0; t < p->ntypes; ++t)
      for (int u = 0; u < p->ntypes; ++u)
        if ((p->types[t].borrows >> u & 1) && !p->types[u].paths[0].empty())
          d_.error(m_.pieces[used_[t]].loc,
                   std::string("`borrows` from `") + p->letters[u] +
                       "`, a hopper, lame leaper or rider other than W and F, is not executable yet");
    normalize_rampages(*p);
    rules(*p);
    compile_hands(m_, used_, *p, d_);       // drops_compile.cpp
    compile_pass_rules(m_, used_, *p, d_);  // pass_compile.cpp
    compile_walls(m_, used_, *p, d_,
                  [this](const std::string& r) { return region_of(r); });  // walls_compile.cpp
    compile_flips(m_, used_, *p, d_);                                      // shogi2_compile.cpp
    compile_drop_rules(m_, *p, d_);
    compile_flipping(m_, used_, *p, d_);  // flip_compile.cpp
    if (m_.deck_loc.src)
      compile_cards(m_, *p, d_);  // card_compile.cpp
    else
      bitboard_turn(*p);
    royal_counts(*p);
    // Explosions and the end by royal removal run in the general loop too.
    p->chess2_primitives = p->capture_rules || p->borrowing || p->invasion ||
                           (p->royal_capture && !p->cards) || p->royals_not_facing || p->no_check_given ||
                           p->duple_check;
    for (const PieceProgram& pp : p->types)
      p->chess2_primitives = p->chess2_primitives || pp.special() || pp.explodes() || pp.capture_not;
    if (d_.has_errors()) return nullptr;
    if (p->squares <= 64)
      p->tables64 = tables<uint64_t>(*p);
    else if (p->squares <= 128)
      p->tables128 = tables<Wide<2>>(*p);
    else
      p->tables256 = tables<Wide<4>>(*p);
    return p;
  }

 private:
  const Model& m_;
  Diagnostics& d_;
  bool black_rotated_ = false;  // `orientation rotated`: Black's dx is negated too
  // Black's file step of White's dx: mirrored keeps it, rotated turns it round.
  int black_dx(int c, int dx) const { return c == 1 && black_rotated_ ? -dx : dx; }

  int sq(const Program& p, int x, int y) const { return y * p.width + x; }  // y 0-based

  // royal counts, regions, promotion zones and region constructs.
#include "compile_regions.hpp"

  // armies, the turn, counted ends, the bitboard back end's turn and Betza gate.
#include "compile_turn.hpp"

  // the bitboard tables (BoardTables<BB>), rank sets, the dead-position rule's gate.
#include "compile_tables.hpp"

  // one piece type's program and its capture rules.
#include "compile_piece.hpp"

  // the grid back end's program, and the game's rules.
#include "compile_grid.hpp"
};

}  // namespace

std::shared_ptr<const Program> compile(const Model& m, Diagnostics& diags) {
  Compiler c(m, diags);
  return c.run();
}

}  // namespace arb::lang
