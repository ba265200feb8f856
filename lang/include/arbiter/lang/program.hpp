// The compiled program: the whole contract between the compiler (compile.hpp, compile.cpp)
// and the back ends that run it (the bitboard generator, the unbounded grid, the card
// layer; the Z3 synthesis reads it too). A Program is flat data: per piece type, leaps,
// rides, paths, zones and effects; per game, the turn, the end rules and the position
// text's conventions. It holds nothing of the rules text, the model or the diagnostics,
// so a back end needs this header and the engine interface alone. The bitboard back end's
// per-square tables (bitboard.hpp) hang off it, built by the compiler.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/chessme_text.hpp"
#include "arbiter/engine.hpp"
#include "arbiter/nostress_text.hpp"

namespace arb::lang {

constexpr int kMaxTypes = 16;
constexpr int kMaxFiles = 16, kMaxRanks = 16;  // the bitboard back end: up to 16 x 16

// The bitboard back end's types (bitboard.hpp): a Program points to the tables of its board.
template <int W>
struct Wide;
template <class BB>
struct BoardTables;

// The 8 unit directions, board view: N NE E SE S SW W NW. Ride masks use these bits.
constexpr int kDirDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDirDy[8] = {1, 1, 0, -1, -1, -1, 0, 1};
// Directions whose square index grows along the ray (N, NE, E, NW): the nearest square of
// a ray is its lowest bit there, its highest bit in the others.
constexpr unsigned kDirUp = 0x87;
// The index of unit direction (dx, dy), or -1.
constexpr int unit_dir(int dx, int dy) {
  for (int d = 0; d < 8; ++d)
    if (kDirDx[d] == dx && kDirDy[d] == dy) return d;
  return -1;
}

// Absolute ranks as a set: bit y is rank y + 1. Zones (promotion, placement, forbidden
// ranks) are whole ranks, so a program keeps them in this form, independent of the
// bitboard width, and the tables (bitboard.hpp) turn them into bitboards.
using RankSet = uint32_t;
// A set of squares (bit y * width + x), independent of the bitboard width: a region
// (`region NAME ...`), per colour in Program::regions.
using SquareSet = std::bitset<256>;

// One piece type, compiled: how it moves, for each colour, as leaps and ride directions.
// The per-square bitboards derived from this are in PieceTables (bitboard.hpp).
struct PieceProgram {
  char letter = 0;
  bool royal = false;
  bool minor_bishop = false;  // moves exactly as a bishop (insufficient material)
  bool minor_knight = false;  // moves exactly as a knight
  struct Leap {
    int dx, dy;  // board view
    bool move, capture, en_passant;
    int from_region = -1;  // `region-betza`: only from the squares of this region (Program::regions)
    int to_region = -1;    // `region-betza ... to`: only to the squares of this region
  };
  std::array<std::vector<Leap>, 2> leaps;
  // Lame initial leaps (the pawn's double step), move only, from the given ranks.
  struct LameLeap {
    int dx, dy;
    RankSet from;
    bool jumps = false;  // `imA` without `n`: nothing between need be empty (spartan's hoplite)
  };
  std::array<std::vector<LameLeap>, 2> lame;
  // Unlimited riders along the 8 unit directions (bit d of the mask, board view).
  std::array<uint8_t, 2> ride_move{};
  std::array<uint8_t, 2> ride_capture{};
  RankSet promote_zone[2] = {0, 0};
  RankSet forbidden_zone[2] = {0, 0};  // where a position may not hold it
  // `en-passant ranks R`: where its en-passant captures may land (all ranks without it).
  RankSet ep_zone[2] = {~RankSet{0}, ~RankSet{0}};
  // `en-passant-field path` (gen_pawns.cpp): after its double step the en-passant field
  // holds the square passed and the arrival, written whether or not a capture is possible.
  bool ep_marks_path = false;
  // `promotion-squares REGION` (gen_pawns.cpp): the promotion zone is narrowed to the
  // region's squares (a region index; -1: the ranks alone).
  int promote_within = -1;
  // `promotion-limit N` (gen_pawns.cpp): a promotion to this type only while the side holds
  // fewer than N of it on the board (0: no limit).
  int promotion_limit = 0;
  std::string promote_to;  // type indices, as chars 0..15
  // The choices the generator offers, per colour: promote_to, or the colour's army's
  // `promote-to` when the ruleset has armies (RULINGS 4.4).
  std::array<std::string, 2> promote_choices;
  bool must_promote = true;
  // `promotes-to LETTER in REGION [optional]` (shogi; gen_promote section of compile.cpp
  // and generator.cpp): the zone is the region's squares, a move leaving it may promote too,
  // and with `optional` the unpromoted move stays unless the piece would stand immobile.
  int promote_region = -1;
  bool promote_leaving = false, promote_optional = false;
  // `promotes-to ... capturing`, `demotes ... capturing`: only captures promote (micro
  // shogi). `demotes`: a promoted type whose moves in its zone turn it back into the type
  // promoting to it (promote_to holds that type; the generator drops the promoted mark).
  bool promote_capturing = false, demotes = false;
  // `drop promoted`: dropped as its promoted type too, standing promoted (kyoto shogi).
  bool drop_promoted = false;
  // `drop opposite-colours`: a side's pieces of this type stand on both square colours.
  bool drop_opposite_colours = false;
  bool resets_clock = false;  // its moves reset the fifty-move counter (the pawn)
  // `resets-clock irreversible`: only those after which no quiet leap of its own leads from
  // the arrival back to the origin (gen_make.hpp).
  bool clock_irreversible = false;
  // `drop unique-on-file no-mate` (shogi's nifu and uchifuzume): never dropped on a file
  // holding an own piece of its type; a drop of it may not checkmate.
  bool drop_unique_file = false, drop_no_mate = false;
  int drop_per_file = 0;  // `drop per-file N`: at most N own pieces of its type on a file (0: no limit)

  // Capture rules (`captures`, `captured-by`, `immune`, `no-check`; RULINGS 4.5, 4.6, 4.8).
  enum class Targets : uint8_t { Any, Royal, NonRoyal, None };
  Targets captures = Targets::Any;     // which enemy pieces its captures may take
  Targets captured_by = Targets::Any;  // Any, Royal (only royal pieces take it) or None
  bool immune = false;                 // never captured, never removed
  // Janggi's primitives (gen_pass.hpp): type masks of `hops-not-over` (never its screen) and
  // `never-captures`; `points` (its value for `counting`).
  uint32_t screen_not = 0, capture_not = 0;
  int points = 0;
  bool gives_check = true;  // its capturing moves attack a royal piece
  // `teleport`: to any empty square / onto any capturable enemy piece, outside `except`.
  bool teleport_move = false, teleport_capture = false;
  RankSet teleport_except[2] = {0, 0};
  // `region-move`: extra non-capturing leaps whose destination lies inside the rectangle
  // spanned by the piece and an enemy royal piece (RULINGS 4.6).
  std::array<std::vector<Leap>, 2> region_leaps;
  // `borrows LETTERS from DIRS`: the basic movement of the friendly pieces of these types
  // (bit per type) standing next to it in these unit directions (bit per direction,
  // kDirDx/kDirDy), not passed on (RULINGS 4.7).
  uint32_t borrows = 0;
  uint8_t borrow_dirs = 0;
  // RULINGS 4.10's primitives.
  // Betza `d`: leaps onto an own piece, which they remove (never an own royal or immune one).
  std::array<std::vector<Leap>, 2> own_leaps;
  // A ray along one unit direction (board view) of at most `range` squares (0: unlimited),
  // blocked by the first piece: limited riders (Betza `W3`, `mF2`) and `strike` lines.
  struct Line {
    int d, range;
    bool move, capture;
  };
  std::array<std::vector<Line>, 2> limited;
  // Every other rider, hopper and lame leap (issue 24): the leap (dx, dy, board view)
  // repeated up to `range` times (0: to the edge; 1: a single leap), with its modalities.
  // `hop` 'p': it must jump exactly one piece (the screen) first, then moves as the rider
  // (the cannon); 'g': it lands on the square just beyond the first piece (the
  // grasshopper). `lame`: a single leap blocked by the squares it passes (Betza `n`: those
  // on its line, or N's orthogonal first step, the xiangqi horse).
  struct Path {
    int dx, dy, range;
    bool move, capture;
    char hop;
    bool lame;
    // `region-betza ... from R to S`: only from R; the walk stops at its first square outside S.
    int from_region = -1, to_region = -1;
  };
  std::array<std::vector<Path>, 2> paths;
  // `confined REGION`: its leaps and lame leaps end only inside the region (an index into
  // Program::regions, -1: anywhere). Compiled into the tables: the generator never tests it.
  int confine = -1;
  // `captured-by ... within D`: only a piece starting within D squares (king distance) may
  // capture it (0: any distance).
  int captured_within = 0;
  // One removal effect (issue 24): a way of taking pieces off the board other than by
  // landing on them. RULINGS 4.9's whirlwind, atomic chess's explosion and RULINGS 4.10's
  // strike and rampage are each a value of it: when it fires (`trigger`), which squares
  // lose their pieces (`victims`), which pieces stay (`kept`), whether the piece goes too
  // (`self`), how many it must take (`at_least`) and what forbids it. The generator, the
  // Z3 synthesis and the mutation fingerprint all read these values; no back end reads a
  // construct's words.
  struct Removal {
    enum class Trigger : uint8_t {
      None,
      Action,   // an action of its own, the piece stays (a whirlwind, a strike)
      Capture,  // after each capture the piece makes (an explosion)
      Move,     // the piece's own move along the path (a rampage)
      Land,     // after each move or drop that puts the piece on a square (ataxx, Reversi)
    };
    enum class Victims : uint8_t {
      None,
      Around,    // every piece within `reach` (king distance) of the piece, or of the captured square
      Line,      // the first piece along one of `lines`, the way clear (a strike)
      Path,      // every piece on the `reach` squares along a direction of `dirs` (a rampage)
      Enclosed,  // every enemy piece on a line of enemy pieces closed by an own piece (Reversi)
    };
    Trigger trigger = Trigger::None;
    Victims victims = Victims::None;
    int reach = 0;
    std::array<std::vector<Line>, 2> lines;  // Line, per colour
    std::array<uint8_t, 2> dirs{};           // Path, per colour
    uint32_t kept = 0;                       // types never removed (immune types never are)
    bool self = false;                       // the piece itself goes too
    int at_least = 0;                        // the action must remove this many
    // What forbids it: another own royal piece adjacent (Around); on the path, an own
    // royal piece, an immune piece, a piece of `blocked_types` of either side, or an enemy
    // of the piece's own type farther than `self_beyond` from its start (Path).
    bool not_beside_own_royal = false;
    bool blocked_own_royal = false, blocked_immune = false;
    uint32_t blocked_types = 0;
    int self_beyond = -1;
    // The victims change colour instead of leaving the board (`converts`: enemy pieces only).
    bool convert = false;
    bool on() const { return trigger != Trigger::None; }
  };
  // `remove-around radius R when action|capture [at-least N] [spare LETTERS] [self]
  // [not-beside own-royal]`: Around victims, triggered as an action (a whirlwind) or by a
  // capture (an explosion).
  Removal around;
  // `strike BETZA`: Line victims, as an action.
  Removal strike;
  // `rampage range R [blocked-by ...] [enemy-self-beyond D]`: Path victims along the
  // directions of its limited moves, on its move; when a piece stands within R squares it
  // runs the full R squares (to the edge when nearer).
  Removal rampage;
  // `converts adjacent|enclosed` (gen_flip.hpp): Land trigger, Around (reach 1) or Enclosed
  // victims, `convert`: the enemy pieces next to its square, or enclosed between its square
  // and an own piece, become the mover's.
  Removal convert;
  bool whirlwind() const { return around.trigger == Removal::Trigger::Action; }
  bool explodes() const { return around.trigger == Removal::Trigger::Capture; }
  bool animal() const {
    return !own_leaps[0].empty() || !limited[0].empty() || strike.on() || rampage.on() ||
           captured_within > 0 || whirlwind();
  }
  bool special() const {
    return teleport_move || teleport_capture || !region_leaps[0].empty() || borrows || animal() ||
           !paths[0].empty();
  }
};

// The unbounded grid (ChessMe): pieces as move vectors instead of per-square tables.
struct GridMove {
  int dx = 0, dy = 0;  // board view for the colour it belongs to
  bool rider = false;  // unit direction, unlimited
  bool can_move = true, can_capture = true;
};
struct GridPiece {
  char letter = 0;
  bool royal = false;
  bool is_pawn = false;  // the piece placements are measured from (`own-pawn`)
  bool promote_exchange = false;
  std::array<std::vector<GridMove>, 2> moves;
  // Attack detection: capturing leaps within 3 squares, and capturing ride directions.
  std::array<std::array<std::array<bool, 7>, 7>, 2> leap_capture{};  // [c][dx+3][dy+3]
  std::array<uint8_t, 2> ride_capture{};  // bit d: direction (kDx[d], kDy[d]) of the board
};
struct GridProgram {
  std::vector<GridPiece> types;
  int royal_type = -1;
  int pawn_type = -1;
  bool adjacency_rule = true;
  int hand_size = 3, hand_draw = 3;
  std::string pile;  // each side's pile before shuffling (upper case)
  bool pile_shuffled = true;
  uint64_t seed = 1;
  std::string setup_pieces;  // the pieces field of the start
  bool place = false;        // an optional placement phase follows the move
  bool place_pawn_beside = false, place_other_behind = false;
  bool draw_after_place = false;
  std::string no_move_reason = "no-legal-move";        // status reason when not in check and no move
  Termination no_move_end = Termination::NoLegalMove;  // and its end condition
  // The position text's rules (arbiter/chessme_text.hpp): this pile, hand and setup.
  TileRules tile_rules() const {
    TileRules r;
    r.tiles = pile;
    r.hand_size = hand_size;
    r.draw = hand_draw;
    r.setup = setup_pieces;
    return r;
  }
};

// The turn, the layer both back ends share (RULINGS 2.4, 3.4, 4.9): a sequence of phases,
// each mandatory or optional, one taken only after another (`after`). A complete turn is
// one action; perft, moves, notation and the checker count complete turns.
enum class PhaseKind : uint8_t {
  Action,     // the normal action: a move or a placement (`turn { action move or place }`)
  Move,       // a move of a piece in play (`phase move`)
  Place,      // a placement from the hand (`phase place`)
  Draw,       // draw from the own pile (`phase draw`)
  RoyalMove,  // a move of one own royal piece after the normal action (`phase royal-move`)
  DrawCard,   // No Stress Chess's phases (the card layer, card_generator.cpp)
  PlayCard,
  Redraw,
};
struct PhaseProgram {
  PhaseKind kind = PhaseKind::Action;
  bool optional = false;
  int after = -1;  // index of the phase that must have been taken, or -1
};

// The card layer (card_generator.cpp): a shared deck, one discard pile per player, hands
// kept in arrival order, reshuffles of the discards; each turn draws a card, then plays one
// and moves a piece of its type (or loses the turn), or redraws. The position text is No
// Stress Chess's (arbiter/nostress_text.hpp).
struct CardProgram {
  std::string deck;     // the cards in kind order P N B R Q K A (nostress_deck(rules)); 'A' is Again
  int hand_size = 0;    // cards in hand between turns (0: the drawn card is played at once)
  bool redraw = false;  // the optional redraw phase
  // The deck's counts per kind and the hand size, as the position text checks them.
  CardRules rules;
  // The position text's `level:` field, derived from the rules (no option is read):
  // "advanced" when the game has check (`royal-safe`) or castling, else "1" for a hand of 0,
  // "2" for a hand of 3 and "3" for any other hand.
  std::string level;
  uint64_t seed = 1;  // the `seed` option: the default deal
  std::string board;  // the start's FEN
  // RULINGS 3.5: the piles an Again card looks down for the piece type it names.
  bool again_own = true, again_opponent = true;
  // RULINGS 3.4: the redraw is allowed when this many cards are alike (0: never for that
  // reason) or when no card allows a move.
  int redraw_alike = 3;
  bool redraw_no_move = true;
  // RULINGS 3.7: in check, a card that allows an escape must be played if the hand has one.
  bool escape_duty = false;
};

struct Program {
  std::string variant;
  std::vector<PhaseProgram> turn;
  // Every option's value as compiled (defaults and --set), sorted by name: the engine's config().
  std::vector<std::pair<std::string, std::string>> options;
  std::string title;
  std::string source;  // path of the ruleset file
  int width = 8, height = 8;
  int squares = 64;
  int ntypes = 0;
  std::vector<PieceProgram> types;
  int royal_type = -1;       // the first royal type (castling's king, the FEN's castling letter)
  uint32_t royal_types = 0;  // every royal type (bit per type; RULINGS 4.9: K and W)
  // How many royal pieces each colour has: 1, or its army's count (Two Kings: 2).
  std::array<int, 2> royal_count{1, 1};
  // A colour whose start holds no royal piece plays without one (Horde's White): its
  // positions hold none, it is never in check, and it loses by its end rules only.
  std::array<bool, 2> no_royal{false, false};
  // `king-turn optional` in a colour's army: an optional move of one own royal piece after
  // every normal action of that colour (RULINGS 4.9).
  std::array<bool, 2> king_turn{false, false};
  std::string letters;  // letter of each type

  bool castling = false;
  int castling_rook = -1;
  std::string castling_rooks = "R";  // letters of the pieces that castle with the king
  int castling_rank = 1;             // relative rank of castling (1: each side's back rank)
  bool castling_shredder = false;    // the position text writes rights as rook files (HAha)
  int castling_king = -1;            // the type that castles: the royal type, or the castling block's `king`
  int ks_king_to = 6, ks_rook_to = 5, qs_king_to = 2, qs_rook_to = 3;

  bool has_reserve = false;
  // `captures-to-hand` (crazyhouse, shogi): a captured piece joins the captor's reserve;
  // a piece standing promoted (FEN `Q~`) joins it as demote[type], the type that promotes
  // to it. The generator then tracks which pieces stand promoted.
  // `keep-promoted` (loop chess): no demotion, no marks (demote is the identity).
  bool capture_to_hand = false, hand_marks = false;
  // `captures-to-hand partner` (bughouse): a captured piece leaves this board for the
  // partner's hand; promoted pieces are still marked, the hands hold what a text gives.
  bool hand_to_partner = false;
  std::array<int8_t, kMaxTypes> demote{};
  // `captures-to-hand plus-marks` (shogi's FEN): a type some type promotes to is written
  // `+` and the letter of that base type; plus_of[base] is it, plus_base[type] its base
  // (-1 for types not written so).
  bool plus_marks = false;
  std::array<int8_t, kMaxTypes> plus_of{}, plus_base{};
  std::string start_text;  // the start position text
  bool action_move = true;
  bool action_place = false;
  RankSet place_zone[2] = {0, 0};
  bool place_first_royal = false;
  bool royal_safe = true;
  bool royals_apart = false;
  bool royals_not_facing = false;  // the flying general: no action leaves royals facing on an open line
  // `duple-check` (gen_pawns): a colour with several royal pieces is in check only when all
  // are attacked; every action of such a program is tested in full.
  bool duple_check = false;
  bool no_check_given = false;  // no action may leave an enemy royal piece attacked
  // Regions (`region`, and the built-in `own-half` 0 and `enemy-half` 1): per colour.
  std::vector<std::array<SquareSet, 2>> regions;
  // `royal-capture -> win`: removing an enemy royal piece (a capture, an explosion) wins at
  // once; such an action is legal even when it leaves an own royal piece attacked.
  bool royal_capture = false;

  // Armies (`army`, selected by the options `white-army` and `black-army`): which types each
  // colour may hold, whether it castles, and how the setup's letters become its pieces.
  std::array<std::string, 2> army;  // names, empty without armies
  std::array<uint32_t, 2> army_types{~0u, ~0u};
  std::array<bool, 2> castles{true, true};
  std::string army_base;                  // the first army's letters (the setup's pieces)
  std::array<std::string, 2> army_slots;  // each colour's letters for them
  bool chess960_setup = false;            // `setup chess960`: `start:N` takes Chess960 start N

  Result on_checkmate = Result::Ongoing;  // relative: WhiteWins means "the mover wins"
  bool checkmate_loses = true;
  bool stalemate_draw = true;
  bool no_move_loses = false;  // `no-legal-move -> loss`: no stalemate (RULINGS 4.3)
  // Issue 24 (gen_ends.hpp). The result, for the side to move, of a position without a
  // legal action, in check and not: -1 loss, 0 draw, +1 win (`checkmate -> win`: misere,
  // losers; `stalemate -> win|loss`: antichess, shatranj).
  int8_t checkmate_value = -1, stalemate_value = 0;
  // `stalemate -> RESULT when fewer-pieces`: the stalemated side has RESULT when it holds
  // fewer pieces than the other, the opposite when more, a draw when as many (suicide).
  bool stalemate_by_count = false;
  // `extinction TYPES|all [at-most N] [opponent-at-least M] [claim] -> RESULT`: a side
  // holding at most N pieces of a listed type (`all`: pieces of any type together), while
  // the other holds at least M of it (M + 1 against the side to move with `claim`), has
  // RESULT (its value for that side); the side that just moved is judged first. The game is
  // then over: the position has no action.
  struct Extinction {
    uint32_t types = 0;  // bit per type
    bool all = false;
    int at_most = 0, opponent_at_least = 0;
    bool claim = false;
    int8_t value = -1;
  };
  std::vector<Extinction> extinctions;
  // `checkmate-by LETTERS [only|in-series] -> RESULT` (issue 26; Generator::mate_rule_value):
  // the mated side's result when a piece of these types gives the mating check (`only`: every
  // checker is of them; `in-series`: one of them gave a check of the mating side's series of
  // checks, its turns back from the mate each leaving the mated side in check, as far as the
  // game's history goes). The first rule that holds applies; none: checkmate_value. Leaps
  // and rides only (the compile step refuses pieces with other moves). `dropped`: the mating
  // turn, made in this game, placed a piece from the hand and captured nothing, and every
  // checker is of these types (Fairy-Stockfish's shogiPawnDropMateIllegal, uchifuzume).
  struct MateRule {
    uint32_t types = 0;  // bit per type
    bool only = false, series = false, dropped = false;
    int8_t value = -1;  // -1 loss, 0 draw, +1 win
  };
  std::vector<MateRule> mate_rules;
  // `checks N -> win`: the side that has given N checks wins; the position counts the
  // checks each side has still to give (the FEN's `W+B`).
  int checks_to_win = 0;
  // Janggi's primitives (gen_pass.hpp): `pass` in the turn; `double-pass` and
  // `royals-facing` ends (kNoEnd, or the result: 0 a draw, kCounted by `counting`);
  // `counting white-needs N` (0: none).
  static constexpr int kNoEnd = -2, kCounted = 2;
  bool pass = false;
  int double_pass = kNoEnd, royals_facing = kNoEnd;
  int counting_needs = 0;
  // `draw-odds white|black` (armageddon): every drawn verdict is this colour's win (0
  // White, 1 Black; -1 none). `legal { royal-stays-in-check }` (makpong): a royal piece in
  // check moves only to take its single checker. gen_misc.hpp.
  int draw_odds = -1;
  bool royal_stays_in_check = false;
  // `legal { must-drop LETTER }` (koedem): while this type (-1: none) is in hand, only
  // drops of it are legal, moves only when none is. (`must-drop` alone: must_drop above.)
  int must_drop_type = -1;
  // `legal { must-capture }`: when a capture is legal, only captures are.
  bool must_capture = false;
  // Wall squares (issue 24; `walls`, walls_compile.cpp, the generator's section "walls"):
  // `walls` lets the position hold wall squares (`*`), which block every move and are never
  // captured; `placed RULE` makes every move place one (the move's second part, FSF's
  // `e2e4,e4e5`), within wall_region (-1: anywhere). petrify_types: the types a capture
  // turns into a wall square on their destination (`petrify`).
  enum class WallRule : uint8_t { None, Arrow, Duck, Past, Static, Edge };
  bool walls = false;
  WallRule wall_rule = WallRule::None;
  int wall_region = -1;
  uint32_t petrify_types = 0;
  // `legal { must-drop }`: while the side's reserve holds pieces and a drop is legal, only
  // drops are. `castling { by-drop }`: drops on the home squares gain castling rights.
  bool must_drop = false, castle_by_drop = false;
  // Flipping pieces and passes (issue 24: ataxx, Reversi; compiled by flip_compile.cpp, run
  // by gen_flip.hpp). A placement must touch an own piece (`adjacent-to own`) or enclose
  // enemy pieces (`encloses`; while a square of `opening_region` is empty, placements go
  // there only); `supply unlimited`: placements need no reserve; `pass when-blocked`: a side
  // with a piece on the board and no other legal action passes; the game ends when the
  // board is full (`board-full`) or after `end_passes` passes in a row, the side with more
  // pieces on the board winning.
  struct Flips {
    bool place_adjacent_own = false, place_encloses = false;
    int opening_region = -1;
    bool supply_unlimited = false;
    bool pass = false;
    bool end_board_full = false;
    int end_passes = 0;
    bool converts = false;  // some type's `converts`
    bool drop_rules() const { return place_adjacent_own || place_encloses || opening_region >= 0; }
    bool ends() const { return end_board_full || end_passes > 0; }
    bool any() const { return drop_rules() || supply_unlimited || pass || ends() || converts; }
  } flips;
  // `region-reached royal enemy-half -> win`: the side that just moved wins when all its
  // royal pieces stand on the opponent's half (RULINGS 4.3).
  bool invasion = false;
  std::string invasion_reason;
  // `region-reached [any] royal|LETTER REGION`: the types that must all (`any`: one) stand in the region (bit
  // per type), the region (Program::regions), and `unless-answered`: after the first
  // player (White) reaches it, the second may answer by reaching it too (a draw).
  uint32_t flag_types = 0;
  int flag_region = -1;
  bool flag_answer = false;
  bool flag_any = false;  // `any`: one piece of the flag types in the region suffices
  // `safe` (dobutsu's lion, Fairy-Stockfish's flagPieceSafe): a colour has reached the region
  // only while no enemy piece attacks its pieces there; judged for both colours in every
  // position (the side to move first; both: a draw).
  bool flag_safe = false;
  // `held`: reaching the region does not end the game; the side to move wins when its
  // flag piece still stands there at its turn (Fairy-Stockfish's flagMove for a non-king).
  bool flag_held = false;
  bool insufficient_draw = false;
  bool insufficient_needs_empty_reserves = false;
  int claim_repetition = 0;
  int claim_fifty = 0;

  // Generic lines (pins) are valid only for unit-direction riders; set when every rider is.
  bool lines_are_rays = true;
  // Some piece restricts what it captures or what captures it: the generator then computes
  // each type's capture targets per position.
  bool capture_rules = false;
  // Some piece borrows movement: attacks depend on neighbours, so every action gets the
  // full legality test (no pin shortcut).
  bool borrowing = false;
  // Any of Chess 2's primitives (capture rules, teleports, region moves, borrowing, midline
  // invasion): the generator runs its general loop; without them, a copy without their tests.
  bool chess2_primitives = false;
  // The per-square tables of a bounded board: exactly one is set, the narrowest bitboard
  // type that holds width x height squares.
  std::shared_ptr<const BoardTables<uint64_t>> tables64;
  std::shared_ptr<const BoardTables<Wide<2>>> tables128;
  std::shared_ptr<const BoardTables<Wide<4>>> tables256;

  // Set for unbounded boards; the bounded tables above are then unused.
  std::shared_ptr<const GridProgram> grid;

  // Set for card-driven turns: make_compiled_engine runs the card layer over the bitboard
  // generator of this program (whose own turn is then one move).
  std::shared_ptr<const CardProgram> cards;
};

// The start of a program: its start text for n < 0, else Chess960 start n (0..959, 518 the
// classic RNBQKBNR) with the armies' substitutions and Shredder castling rights for the
// castling armies. Throws PositionError for an n out of range (chess960.cpp).
std::string program_start(const Program& p, int n);

// The back rank of Chess960 start n (0..959, 518 = "RNBQKBNR"), classic letters; throws
// PositionError for another n. chess960_number is its inverse (-1 for no Chess960 rank).
std::string chess960_back_rank(int n);
int chess960_number(const std::string& rank);

// Chess 2's dice procedure (chess2.txt, "Procedure to Determine Starting Positions") with a
// six-sided die driven by splitmix64 from `seed` as README's Chess 2 section states (the
// contract the reference engine's procedure follows too); returns the Chess960 number N of
// the back rank it builds, for `start:N` (chess960.cpp).
int chess960_dice_start(uint64_t seed);

}  // namespace arb::lang
