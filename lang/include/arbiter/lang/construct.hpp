// The constructs of the ruleset language, each defined once: its keyword and where it may
// stand, a typed argument schema that the semantic stage checks, the typed payload it
// leaves in the model (a ConstructUse), and the back ends that execute it.
//
// The compiler's gate works on this table by identity: a use whose construct the chosen
// back end does not execute is a compile error at the use's file:line:col, naming the
// construct. Nothing a ruleset states is silently ignored.
//
// Adding a construct: one entry in `constructs()` (construct.cpp), one compile step that
// reads its ConstructUse, one generator module that runs it (lang/README.md, "Adding a
// construct", shows a worked example).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/syntax.hpp"

namespace arb::lang {

// Where a construct may stand: at the top of a file, or in the block of one of these.
enum class Scope : uint8_t { Top, Piece, Turn, Placement, Legal, End, Army, Deck, Expect, Castling, Records };

// The compiler's back ends, as a bit set.
enum Backend : uint8_t {
  kNoBackend = 0,
  kBitboard = 1,  // bounded boards: per-square tables on bitboards (generator.cpp)
  kGrid = 2,      // the unbounded grid: move vectors on a slot list (grid_generator.cpp)
  kBothBackends = kBitboard | kGrid,
};
std::string backend_name(Backend b);

enum class ArgType : uint8_t {
  Flag,     // a bare word (the key itself): present or not
  Int,      // a whole number within [lo, hi]
  Letters,  // one or more upper-case piece letters
  Choice,   // one word of `choices`
  Tokens,   // one or more words, each of `choices` or an upper-case piece letter
  Betza,    // a Betza string (checked by the Betza parser)
  Ranks,    // a rank `2` or a range `1..4`
  Text,     // a quoted string
  Region,   // a region's name: a `region` statement's or a built-in one (`own-half`, `enemy-half`)
};

// One argument of a construct. A keyed argument is written `KEY VALUE...` (a flag is its
// key alone); the positional argument (empty key) is written on its own. Arguments may
// come in any order.
struct ArgSpec {
  std::string key;  // "" for the positional argument
  ArgType type = ArgType::Flag;
  std::vector<std::string> choices;  // Choice and Tokens
  long long lo = 0, hi = 0;          // Int
  bool required = false;
  std::string doc;
};

enum class ConstructId : uint16_t {
  // Top level.
  Ruleset,
  Title,
  BoardRect,
  BoardUnbounded,
  Option,
  Piece,
  Castling,
  CastlingNone,
  SetupText,
  SetupEmpty,
  SetupChess960,
  Reserve,
  Pile,
  Hand,
  Deck,
  Discard,
  Reshuffle,
  Turn,
  Placement,
  Legal,
  End,
  Expect,
  MoveCondition,
  Army,
  When,
  RedrawWhen,
  // Turn.
  ActionMove,
  ActionPlace,
  PhaseMove,
  PhasePlace,
  PhaseDraw,
  PhaseRoyalMove,
  PhaseDrawCard,
  PhasePlayCard,
  PhaseRedraw,
  // Placement.
  PlaceRegion,
  PlaceFirstRoyal,
  PlacePawnBeside,
  PlaceOtherBehind,
  PlaceNoEscape,
  PlaceNoPromotion,
  // Legality.
  RoyalSafe,
  RoyalsApart,
  EscapeDuty,
  // End.
  EndCheckmate,
  EndStalemate,
  EndInsufficient,
  EndNoLegalMove,
  EndRoyalCapture,
  EndRegionReached,
  EndAgreement,
  Claim,
  // Piece.
  Betza,
  Royal,
  Initial,
  Forbidden,
  PromoteOnRank,
  PromoteByExchange,
  Captures,
  CapturedBy,
  Immune,
  NoCheck,
  Borrows,
  Teleport,
  RegionMove,
  RemoveAround,
  Rampage,
  Strike,
  // Army.
  ArmyPromoteTo,
  ArmyCastles,
  ArmyKingTurn,
  // Deck.
  Card,
  AgainNames,
  // Castling block.
  CastlingRook,
  CastlingRank,
  CastlingField,
  CastlingKingSide,
  CastlingQueenSide,
  // Expectations.
  ExpectPerft,
  ExpectStatus,
  ExpectLegal,
  ExpectIllegal,
  // Records block: facts about the variant's game records (read by the record validator).
  Records,
  RecordName,
  RecordPlacementNotation,
  RecordAgreementDraws,
  RecordTag,
  // Top level, metadata: the Fairy-Stockfish variant that plays this ruleset.
  FairyStockfish,
  // Hands filled by captures and drops (issue 24: crazyhouse, shogi).
  CapturesToHand,
  Drop,
  // Issue 24's end conditions, counters and forced capture (lang/src/gen_ends.hpp).
  MustCapture,
  EndExtinction,
  EndChecks,
  EndCheckmateBy,  // `checkmate-by LETTERS [only|in-series] -> RESULT` (issue 26: shatar)
  CastlingKing,
  // Regions as sets of squares (issue 24): the statement, and what uses a region.
  RegionDecl,       // top level: `region NAME AREA... [mirrored]`
  Confined,         // piece: `confined REGION`
  RegionBetza,      // piece: `region-betza "BETZA" from REGION`
  RoyalsNotFacing,  // legal: the flying general
  NoCheckGiven,     // legal: no action may give check (racing kings)
  // Shogi-style promotion (issue 24, lang/src/gen_promote.cpp).
  PromoteZone,     // piece: `promotes-to LETTER in REGION [optional]`
  EnPassantRanks,  // piece: `en-passant ranks R`, where its en-passant captures may land
  // Janggi's primitives (issue 24, lang/src/gen_pass.hpp), each general.
  HopsNotOver,      // piece: `hops-not-over LETTERS`, types that are never its screen
  NeverCaptures,    // piece: `never-captures LETTERS`
  Points,           // piece: `points N`, its value when a game is decided by counting
  TurnPass,         // turn: `pass [when-blocked]`, the side to move may pass (janggi; ataxx, Reversi)
  EndDoublePass,    // end: `double-pass -> draw|counting`
  EndRoyalsFacing,  // end: `royals-facing -> draw|counting` (bikjang)
  EndCounting,      // end: `counting white-needs N`, how a counted end is decided
  // Wall squares (issue 24, lang/src/gen_walls.hpp, walls_compile.cpp).
  Walls,    // top level: `walls [placed arrow|duck|past|static|edge] [in REGION]`
  Petrify,  // piece: `petrify`, a capture turns the capturer into a wall square
  // The shogi family (issue 24, lang/src/gen_shogi2.cpp).
  Orientation,     // top level: `orientation rotated|mirrored`, how Black's moves follow White's
  Demotes,         // piece: `demotes in REGION [capturing]`, a promoted type's moves turn it back (kyoto)
  MustDrop,        // legal: `must-drop [LETTER]`, a drop is mandatory while the hand holds pieces (placement;
                   // koedem)
  CastlingByDrop,  // castling: `by-drop`, a king or rook dropped on its home square gains the right
  // Odd rules of the catalogue (issue 24, lang/src/gen_misc.hpp).
  EndDrawOdds,   // end: `draw-odds white|black`, every draw is that colour's win (armageddon)
  RoyalInCheck,  // legal: `royal-stays-in-check`, a checked royal piece moves only to take its checker
  // Pawns, promotion and royals (issue 24, lang/src/gen_pawns.cpp).
  EnPassantField,     // piece: `en-passant-field path`, its double step marks its path and arrival
  ResetsClock,        // piece: `resets-clock never|irreversible`, which of its moves reset the clock
  PromotionSquares,   // piece: `promotion-squares REGION`, its promotion zone narrowed to a region
  BlackMoves,         // piece: `black-moves rotated|mirrored`, how Black's Betza follows White's
  PromotionOptional,  // piece: `promotion optional`, its `promote on rank` may be declined
  PromotionLimit,     // piece: `promotion-limit N`, promoted to only while its side holds fewer
  DupleCheck,         // legal: `duple-check`, several royal pieces are in check only all together
  // Flipping pieces and passes (issue 24: ataxx, Reversi; lang/src/gen_flip.hpp).
  Converts,          // piece: `converts adjacent|enclosed`, enemy pieces change colour
  PlaceAdjacentOwn,  // placement: `adjacent-to own`
  PlaceEncloses,     // placement: `encloses [opening REGION]`
  PlaceSupply,       // placement: `supply unlimited`
  EndBoardFull,      // end: `board-full -> most-pieces`
  EndPasses,         // end: `passes N -> most-pieces`
  Immobile,          // piece: `immobile`, it never moves (placed only: a Reversi disc)
};

struct ConstructDef {
  ConstructId id;
  std::string keyword;  // as written; constructs sharing a keyword differ by their form
  Scope scope;
  // The schema. Empty with `custom` set: the statement has a grammar of its own, checked
  // by a dedicated routine in sema.cpp (the payload then lives in the model's fields).
  std::vector<ArgSpec> args;
  bool custom = false;
  uint8_t backends = kNoBackend;  // which back ends execute it
  std::string doc;                // one line: what it states
  std::string ruling;             // the RULINGS section it implements in a bundled ruleset, if any
};

// A typed argument value: one per ArgSpec of the construct, in schema order.
struct ArgValue {
  bool present = false;
  long long num = 0;               // Int
  std::string text;                // Choice, Betza, Text
  std::vector<std::string> words;  // Letters and Tokens
  int lo = 0, hi = 0;              // Ranks
  Loc loc;
};

// One use of a construct in a ruleset: the checked, typed payload the compiler reads.
struct ConstructUse {
  ConstructId id{};
  Loc loc;                     // of the keyword
  std::vector<ArgValue> args;  // schema order (empty for custom constructs)
  // The top-level statement it belongs to (`legal`, `army two-kings`, ...): a child
  // ruleset's statement replaces the parent's uses of the same group.
  std::string group;

  const ConstructDef& def() const;
  // The value of the argument with this key ("" for the positional one). Throws
  // std::logic_error when the construct has no such argument: a compiler bug.
  const ArgValue& arg(std::string_view key) const;
  bool has(std::string_view key) const { return arg(key).present; }
};

// Every construct of the language.
const std::vector<ConstructDef>& constructs();
const ConstructDef& construct_def(ConstructId id);
// The constructs with this keyword in this scope (several when forms differ).
std::vector<const ConstructDef*> find_constructs(Scope scope, std::string_view keyword);
// The keywords allowed in a scope, for "did you mean" hints.
std::vector<std::string> keywords(Scope scope);

// Resolves `$option` references in arguments (identity when there is none).
using Resolver = std::function<Value(const Value&)>;

// Checks statement `s` against the schema of `def` (which must not be custom): every
// argument's type and range, required ones present, no unknown or repeated argument, no
// block. Reports each error at its place with a hint; returns the use when all is well.
std::optional<ConstructUse> check_construct(const ConstructDef& def, const Stmt& s, Diagnostics& d,
                                            const Resolver& resolve);

// `keyword ARGS` as the schema writes it, for hints: `rampage range INT [blocked-by ...]`.
std::string construct_form(const ConstructDef& def);

}  // namespace arb::lang
