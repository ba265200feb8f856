// Stage 3: the checked model of a ruleset. The semantic stage (sema.cpp) turns the syntax
// tree of a file, and of the rulesets it extends, into this model, reporting every error
// with its location. The compiler (compile.hpp) turns the model into a program.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/lang/construct.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/syntax.hpp"

namespace arb::lang {

struct Range {
  int lo = 0, hi = 0;
  bool contains(int v) const { return v >= lo && v <= hi; }
};

struct BetzaText {
  std::string text;
  Loc loc;
};

struct PieceDef {
  std::string name;
  char letter = 0;
  Loc loc;
  std::vector<BetzaText> betza;
  bool royal = false;
  std::optional<Range> initial_ranks;    // relative ranks where Betza `i` moves apply
  std::optional<Range> promote_ranks;    // relative ranks; empty = no promotion
  std::optional<Range> forbidden_ranks;  // relative ranks where a position may not hold it
  Loc forbidden_loc;
  std::string promote_to;  // letters
  // `promote ... for white|black`: one colour's own choices (sortofalmost, chigorin);
  // a colour without its own list takes promote_to.
  std::array<std::string, 2> promote_to_colour;
  std::array<bool, 2> promote_colour_set{false, false};
  Loc promote_loc;
  // Every construct stated in the piece's block (betza, royal, ..., strike), typed.
  std::vector<ConstructUse> constructs;
  const ConstructUse* find(ConstructId id) const;
  bool promote_exchange = false;  // on the enemy royal's rank, for a piece the opponent captured
  bool promote_exchange_optional = false;
};

struct Phase {
  std::string name;  // move, place, draw, draw-card, play-card, redraw
  bool optional = false;
  std::string after;  // `draw after place`: only when that phase happened
  Loc loc;
};

struct OptionDef {
  std::string name;
  std::string value;
  std::string doc;
  Loc loc;
  std::vector<std::string> choices;  // `one-of A B C`: the values --set may give (empty: any of its type)
};

enum class SetupKind { Text, Empty, Chess960 };

struct EndRule {
  std::string condition;          // checkmate, stalemate, insufficient-material, no-legal-move, ...
  std::string result;             // loss, win, draw
  std::string reason;             // reported reason (defaults to the condition)
  std::string when;               // extra condition, e.g. reserves-empty
  std::vector<std::string> args;  // the words before `->` (`region-reached royal enemy-half`)
  Loc loc;
};

// `army NAME LETTERS { ... }`: the pieces one side plays with (Chess 2, RULINGS 4.1). Its
// letters stand, position by position, for the letters of the first army declared (the
// pieces of the setup text): `army two-kings W W R B N P` puts W where the setup has K and Q.
struct ArmyDef {
  std::string name;
  std::string letters;     // one per slot, upper case
  std::string promote_to;  // `promote-to`: the promotion choices of every piece of the army
  bool castles = false;    // `castles`: the ruleset's castling applies to this army
  bool king_turn = false;  // `king-turn optional`: an optional royal move after each action
  Loc loc;
};

struct Expectation {
  std::string kind;      // perft, status, legal, illegal
  std::string position;  // empty = the start
  int depth = 0;
  unsigned long long nodes = 0;
  std::string text;  // status reason or action text
  Loc loc;
};

// A `when OPTION = VALUE` (or `!=`) the loader met: the settings worth checking
// (check_every_setting in compile.hpp) come from these.
struct WhenTest {
  std::string option, value;
  bool negate = false;
};

// What a `records { ... }` block states: how game records of the variant are read.
struct RecordTagMap {
  std::string tag;     // the PGN tag name, e.g. WhiteArmy
  std::string target;  // an option name, `seed` (start:N) or `dice-seed` (Chess960 dice start)
  std::vector<std::pair<std::string, std::string>> values;  // tag text -> option value
  Loc loc;
};
struct RecordFacts {
  std::vector<std::string> names;  // [Variant] tag values naming it (compared case-insensitively)
  std::string names_of;            // the ruleset that stated them: names are not inherited
  bool piece_first = false;        // placements written `pKe1` instead of `K@e1`
  bool agreement_draws = true;     // a record may end in an agreed draw
  std::vector<RecordTagMap> tags;
  Loc loc;
};

// `region NAME AREA... [mirrored]`: a named set of squares, as White's rectangles (files
// and ranks 0-based, inclusive); Black's are the same squares, or with `mirrored` the same
// squares seen from Black's side (rank y becomes height - 1 - y).
struct RegionDef {
  std::string name;
  struct Rect {
    int x0, y0, x1, y1;
    Loc loc;
  };
  static constexpr int kAllFiles = 1 << 20;  // x1 of `ranks R`: every file
  std::vector<Rect> rects;
  bool mirrored = false;
  bool rotated = false;  // `rotated`: Black's are White's turned by 180 degrees (legan)
  Loc loc;
};
// The regions every ruleset knows: each side's half (the height / 2 ranks nearest to it).
inline const std::vector<std::string>& builtin_regions() {
  static const std::vector<std::string> names = {"own-half", "enemy-half"};
  return names;
}

struct Model {
  std::string name;
  std::string title;
  std::vector<std::string> lineage;  // the rulesets this one extends, nearest first
  Loc name_loc;

  int width = 8, height = 8;
  bool unbounded = false;
  Loc board_loc;

  std::vector<OptionDef> options;
  std::vector<PieceDef> pieces;

  bool castling = false;
  char castling_rook = 'R';
  std::string castling_rooks = "R";  // every piece that castles with the king (`rook R C`)
  int castling_rank = 1;             // relative rank where castling happens (`rank 2`)
  bool castling_shredder = false;    // `field shredder`: rights written as rook files
  char castling_king = 0;            // `king LETTER` in the castling block; 0: the royal piece
  int ks_king_to = 6, ks_rook_to = 5, qs_king_to = 2, qs_rook_to = 3;
  Loc castling_loc;

  SetupKind setup_kind = SetupKind::Text;
  std::string setup_text;
  Loc setup_loc;        // of the setup statement
  Loc setup_text_loc;   // of its text argument
  std::string reserve;  // initial reserve of each side (upper-case letters)
  Loc reserve_loc;

  bool action_move = true;
  bool action_place = false;
  Loc turn_loc;

  std::optional<Range> place_ranks;  // relative ranks where placements may go
  bool place_first_royal = false;

  // Turn phases, hands and piles, placement next to pawns (ChessMe).
  std::vector<Phase> phases;
  bool adjacency_rule = false;  // a non-capturing move must end next to another piece
  int hand_size = 0, hand_draw = 0;
  Loc hand_loc;
  std::string pile;  // each side's draw pile before shuffling
  bool pile_shuffled = false;
  uint64_t pile_seed = 1;  // the default shuffle of the start (`--seed` overrides)
  Loc pile_loc;
  bool place_pawn_beside = false, place_other_behind = false;
  bool place_no_escape = false, place_no_promotion = false;
  // A shared deck of cards (`deck { card NAME LETTER*COUNT ... }`): piece letters, `A` for
  // an Again card (`Again*COUNT`), in the order the ruleset lists them.
  std::string deck;
  Loc deck_loc;
  // Each `card` statement: its name, letter ('A' for Again), count and the place of its
  // `LETTER*COUNT` argument (the compile step checks the letters against the pieces there).
  struct DeckCard {
    std::string name;
    char letter = 0;
    int count = 0;
    Loc loc;
  };
  std::vector<DeckCard> deck_cards;

  bool royal_safe = false;
  bool royals_apart = false;
  bool royals_not_facing = false;  // the flying general: royals never face on an open line
  bool duple_check = false;        // `duple-check`: several royal pieces are in check only all together
  bool no_check_given = false;     // no action may give check

  std::vector<RegionDef> regions;  // in declaration order (a child's region replaces one of its name)

  std::vector<EndRule> end;
  std::optional<int> claim_repetition;
  std::optional<int> claim_fifty;

  std::vector<Expectation> expects;

  RecordFacts records;

  // `fairy-stockfish NAME`: the Fairy-Stockfish variant equal to this ruleset, as its own
  // file states it (`fsf_variant_of`, the ruleset that said it: a child does not inherit it).
  std::string fsf_variant, fsf_variant_of;
  Loc fsf_loc;

  std::vector<ArmyDef> armies;  // in declaration order (a child's army replaces one of its name)

  // Every construct the ruleset states outside piece blocks, with where it is used, typed
  // (a child's statement replaces its parent's uses of the same top-level statement).
  // With the pieces' constructs, this is what the compiler's gate checks by identity.
  std::vector<ConstructUse> constructs;
  // Every use: the constructs above, then each piece's.
  std::vector<const ConstructUse*> all_constructs() const;
  // Every `when` condition read, in order (the blocks it skipped are not read further).
  std::vector<WhenTest> when_tests;

  const PieceDef* piece(char letter) const;
  const OptionDef* option(const std::string& name) const;
};

// Loads `path`, resolves `extends` (parents are looked up beside the file), applies
// `overrides` (--set NAME=VALUE) to the options, and checks everything. Returns nullptr
// when errors were reported. The sources are kept alive in `sources` for diagnostics.
std::unique_ptr<Model> load_ruleset(const std::string& path,
                                    const std::map<std::string, std::string>& overrides, Diagnostics& diags,
                                    std::vector<std::unique_ptr<Source>>& sources);

}  // namespace arb::lang
