// The table of the language's constructs (construct.hpp) and the schema checker.
#include "arbiter/lang/construct.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

#include "arbiter/lang/betza.hpp"

namespace arb::lang {

std::string backend_name(Backend b) {
  switch (b) {
    case kBitboard:
      return "bitboard";
    case kGrid:
      return "unbounded-grid";
    default:
      return "any";
  }
}

namespace {

using enum ConstructId;
constexpr uint8_t B = kBitboard, G = kGrid, BG = kBothBackends;

ArgSpec flag(std::string key, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Flag, {}, 0, 0, false, std::move(doc)};
}
ArgSpec integer(std::string key, long long lo, long long hi, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Int, {}, lo, hi, required, std::move(doc)};
}
ArgSpec choice(std::string key, std::vector<std::string> choices, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Choice, std::move(choices), 0, 0, required, std::move(doc)};
}
ArgSpec tokens(std::string key, std::vector<std::string> choices, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Tokens, std::move(choices), 0, 0, required, std::move(doc)};
}
ArgSpec letters(std::string key, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Letters, {}, 0, 0, required, std::move(doc)};
}
ArgSpec betza(std::string key, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Betza, {}, 0, 0, required, std::move(doc)};
}
ArgSpec ranks(std::string key, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Ranks, {}, 0, 0, required, std::move(doc)};
}
ArgSpec text(std::string key, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Text, {}, 0, 0, required, std::move(doc)};
}
ArgSpec region(std::string key, bool required, std::string doc) {
  return ArgSpec{std::move(key), ArgType::Region, {}, 0, 0, required, std::move(doc)};
}
ConstructDef custom(ConstructId id, std::string kw, Scope sc, uint8_t be, std::string doc) {
  return ConstructDef{id, std::move(kw), sc, {}, true, be, std::move(doc), ""};
}
ConstructDef schema(ConstructId id, std::string kw, Scope sc, std::vector<ArgSpec> args, uint8_t be,
                    std::string doc, std::string ruling = "") {
  return ConstructDef{id, std::move(kw), sc, std::move(args), false, be, std::move(doc), std::move(ruling)};
}

std::vector<ConstructDef> make_table() {
  using S = Scope;
  std::vector<ConstructDef> t = {
      // ---- top level -------------------------------------------------------------------
      custom(Ruleset, "ruleset", S::Top, BG, "the ruleset's name, and the ruleset it extends"),
      schema(Title, "title", S::Top, {text("", true, "the title")}, BG, "a human-readable title"),
      custom(BoardRect, "board", S::Top, B, "a rectangular board `board W x H`"),
      custom(BoardUnbounded, "board", S::Top, G, "the unbounded grid `board unbounded`"),
      custom(Option, "option", S::Top, BG, "a named option with its default (`--set NAME=VALUE`)"),
      custom(Piece, "piece", S::Top, BG, "a piece type: name, letter and a block of piece constructs"),
      custom(Castling, "castling", S::Top, B, "castling: the rook and where king and rook end"),
      custom(CastlingNone, "castling", S::Top, BG, "`castling none`: no castling"),
      custom(SetupText, "setup", S::Top, BG, "the start as a position text"),
      custom(SetupEmpty, "setup", S::Top, B, "`setup empty`: the start is an empty board"),
      custom(SetupChess960, "setup", S::Top, B, "`setup chess960`: a Chess960 back rank"),
      custom(Reserve, "reserve", S::Top, B, "the pieces each side holds in reserve at the start"),
      custom(Pile, "pile", S::Top, G, "each side's draw pile of tiles, optionally shuffled"),
      schema(Hand, "hand", S::Top,
             {integer("size", 0, 64, true, "the most tiles or cards a hand holds"),
              integer("draw", 0, 64, false, "how many are drawn into it at the start"),
              flag("keep-order", "the hand keeps the order in which cards arrived")},
             BG, "a hand of tiles or cards"),
      custom(Deck, "deck", S::Top, B, "a shared deck of cards"),
      schema(Discard, "discard", S::Top, {choice("", {"own-pile"}, true, "where played cards go")}, B,
             "where played cards go"),
      schema(Reshuffle, "reshuffle", S::Top,
             {choice("", {"discards"}, true, "what is reshuffled"),
              flag("when-empty", "when a card must be drawn from the empty pile")},
             B, "discard piles reshuffled into the draw pile"),
      custom(Turn, "turn", S::Top, BG, "the turn: its actions or phases"),
      custom(Placement, "placement", S::Top, BG, "where placements may go"),
      custom(Legal, "legal", S::Top, BG, "what makes an action illegal"),
      custom(End, "end", S::Top, BG, "how the game ends"),
      custom(Expect, "expect", S::Top, BG, "checks the ruleset states about itself"),
      schema(MoveCondition, "move-condition", S::Top,
             {choice("", {"non-capture"}, true, "which moves the condition applies to"),
              choice("adjacent-to", {"any"}, true, "the destination must touch another piece")},
             G, "a non-capturing move must end next to another piece", "RULINGS 2.5a"),
      custom(Army, "army", S::Top, B, "an army: its pieces, promotions and turn options"),
      custom(When, "when", S::Top, BG,
             "`when OPTION = VALUE { ... }` (or `!=`), at the top level or in any block: its statements hold "
             "only for that option value"),
      schema(RedrawWhen, "redraw-when", S::Top,
             {integer("alike", 2, 64, false, "at least this many identical cards in hand"),
              flag("no-move", "no card in hand allows a move")},
             B, "when the optional redraw phase may be taken", "RULINGS 3.4"),
      // ---- turn ------------------------------------------------------------------------
      custom(ActionMove, "action", S::Turn, B, "a turn is one action; `move` allowed"),
      custom(ActionPlace, "action", S::Turn, B, "a turn is one action; `place` (from the reserve) allowed"),
      custom(PhaseMove, "phase", S::Turn, G, "`phase move`: a move of a piece in play"),
      custom(PhasePlace, "phase", S::Turn, G, "`phase place`: a placement from the hand"),
      custom(PhaseDraw, "phase", S::Turn, G, "`phase draw`: draw from the own pile"),
      custom(PhaseRoyalMove, "phase", S::Turn, B,
             "`phase royal-move optional`: after the normal action, a move of one own royal piece"),
      custom(PhaseDrawCard, "phase", S::Turn, B, "`phase draw-card`: draw a card"),
      custom(PhasePlayCard, "phase", S::Turn, B, "`phase play-card`: play a card and move its type"),
      custom(PhaseRedraw, "phase", S::Turn, B, "`phase redraw`: discard the hand and draw anew"),
      // ---- placement -------------------------------------------------------------------
      schema(PlaceRegion, "region", S::Placement,
             {ranks("ranks", true, "the own ranks (relative: 1 = own first) placements go to")}, B,
             "the own ranks placements go to"),
      schema(PlaceFirstRoyal, "first", S::Placement,
             {choice("", {"royal"}, true, "what the first action places")}, B,
             "each side's first action places its royal piece"),
      schema(PlacePawnBeside, "pawn", S::Placement,
             {choice("beside", {"own-pawn"}, true, "a pawn is placed beside an own pawn")}, G,
             "where a pawn may be placed", "RULINGS 2.6"),
      schema(PlaceOtherBehind, "other", S::Placement,
             {choice("behind", {"own-pawn"}, true, "another piece is placed behind an own pawn")}, G,
             "where a piece other than a pawn may be placed", "RULINGS 2.6"),
      schema(PlaceNoEscape, "no-escape-from-check", S::Placement, {}, G,
             "a placement is never the way out of check", "RULINGS 2.6"),
      schema(PlaceNoPromotion, "no-promotion", S::Placement, {}, G, "a placement never promotes",
             "RULINGS 2.6"),
      // ---- legality --------------------------------------------------------------------
      schema(RoyalSafe, "royal-safe", S::Legal, {}, BG, "no action may leave a royal piece attacked"),
      schema(RoyalsApart, "royals-apart", S::Legal, {}, B, "royal pieces of both sides never stand adjacent"),
      schema(EscapeDuty, "escape-duty", S::Legal, {}, B,
             "in check, a card that allows an escape must be played when the hand holds one", "RULINGS 3.7"),
      // ---- end -------------------------------------------------------------------------
      custom(EndCheckmate, "checkmate", S::End, BG, "in check with no legal action"),
      custom(EndStalemate, "stalemate", S::End, B, "not in check with no legal action"),
      custom(EndInsufficient, "insufficient-material", S::End, B, "neither side can mate"),
      custom(EndNoLegalMove, "no-legal-move", S::End, BG, "no legal action, in check or not"),
      custom(EndRoyalCapture, "royal-capture", S::End, B, "a royal piece was captured"),
      custom(EndRegionReached, "region-reached", S::End, B,
             "`region-reached [any] royal|LETTER REGION [unless-answered|safe] -> win`: the mover's pieces "
             "of that kind in the region (`safe`: not attacked there)"),
      custom(EndAgreement, "agreement", S::End, BG, "a record may end by agreement"),
      custom(Claim, "claim", S::End, B, "a claimable draw: repetition or fifty-move"),
      // ---- piece -----------------------------------------------------------------------
      custom(Betza, "betza", S::Piece, BG, "the piece's moves in Betza notation"),
      custom(Royal, "royal", S::Piece, BG, "leaving it attacked is illegal; attacks on it are check"),
      custom(Initial, "initial", S::Piece, B, "`initial ranks R`: where Betza `i` moves apply"),
      custom(Forbidden, "forbidden", S::Piece, B, "`forbidden ranks R`: where it may never stand"),
      custom(PromoteOnRank, "promote", S::Piece, B, "`promote on rank R to LETTERS`"),
      custom(PromoteByExchange, "promote", S::Piece, G,
             "`promote on enemy-royal-rank by-exchange from captured [optional]`"),
      schema(Captures, "captures", S::Piece,
             {choice("", {"any", "royal", "non-royal", "none"}, true, "which enemy pieces it may capture")},
             B, "restricts what the piece captures", "RULINGS 4.6, 4.8"),
      schema(CapturedBy, "captured-by", S::Piece,
             {choice("", {"any", "royal", "none"}, true, "which enemy pieces may capture it"),
              integer("within", 1, 16, false, "only from at most this many squares away (king distance)")},
             B, "restricts what may capture the piece", "RULINGS 4.6, 4.10"),
      schema(Immune, "immune", S::Piece, {}, B, "never captured, never removed by an effect", "RULINGS 4.8"),
      schema(NoCheck, "no-check", S::Piece, {}, B, "its attacks never give check", "RULINGS 4.5"),
      schema(
          Borrows, "borrows", S::Piece,
          {letters("", true, "the piece types whose basic movement it gains"),
           choice("from", {"orthogonal", "diagonal", "adjacent"}, true, "which friendly neighbours lend it")},
          B, "gains the movement of friendly neighbours of these types, not passed on", "RULINGS 4.7"),
      schema(Teleport, "teleport", S::Piece,
             {flag("move", "to any empty square"), flag("capture", "onto any capturable enemy piece"),
              tokens("except", {"enemy-back-rank", "own-back-rank"}, false, "regions it may not land in")},
             B, "moves anywhere on the board", "RULINGS 4.8"),
      schema(RegionMove, "region-move", S::Piece,
             {betza("", true, "the extra non-capturing moves"),
              choice("inside", {"rectangle-to-enemy-royal"}, true, "where their destination must lie")},
             B, "extra moves allowed only inside a region", "RULINGS 4.6"),
      schema(RemoveAround, "remove-around", S::Piece,
             {integer("radius", 1, 8, true, "king distance of the removed pieces"),
              choice("when", {"action", "capture"}, true,
                     "as an action of its own (the piece stays), or after each capture it makes"),
              integer("at-least", 0, 64, false, "the action must remove this many pieces"),
              letters("spare", false, "piece types never removed (immune pieces never are)"),
              flag("self", "the piece itself is removed too"),
              choice("not-beside", {"own-royal"}, false, "illegal when such a piece is adjacent")},
             B, "removes every piece around it: a whirlwind, an explosion", "RULINGS 4.9"),
      schema(Rampage, "rampage", S::Piece,
             {integer("range", 1, 16, true, "how far it runs (to the edge when nearer)"),
              tokens("blocked-by", {"own-royal", "immune"}, false,
                     "pieces it may not remove (a letter: that type, either side)"),
              integer("enemy-self-beyond", 0, 16, false,
                      "an enemy of its own type farther than this from the start blocks it")},
             B, "moves the full range when any piece is in reach, removing everything on its path",
             "RULINGS 4.10"),
      schema(Strike, "strike", S::Piece, {betza("", true, "where it captures without moving")}, B,
             "captures without moving (a rifle capture)", "RULINGS 4.10"),
      // ---- army ------------------------------------------------------------------------
      schema(ArmyPromoteTo, "promote-to", S::Army, {letters("", true, "the army's promotion choices")}, B,
             "the army's promotion choices", "RULINGS 4.10"),
      schema(ArmyCastles, "castles", S::Army, {}, B, "the army castles", "RULINGS 4.4"),
      schema(ArmyKingTurn, "king-turn", S::Army, {choice("", {"optional"}, true, "whether it must be taken")},
             B, "a king-turn after every normal action", "RULINGS 4.9"),
      // ---- deck ------------------------------------------------------------------------
      custom(Card, "card", S::Deck, B, "`card NAME LETTER*COUNT`: cards in the deck"),
      schema(AgainNames, "again", S::Deck,
             {flag("own-pile", "the newest piece card of the player's own discard pile"),
              flag("opponent-pile", "the newest piece card of the opponent's discard pile")},
             B, "the piece types an Again card lets the player move", "RULINGS 3.5"),
      // ---- castling block --------------------------------------------------------------
      custom(CastlingRook, "rook", S::Castling, B, "`rook LETTER...`: the pieces that castle with the king"),
      schema(CastlingRank, "rank", S::Castling,
             {integer("", 1, 16, true, "relative rank: 1 = the own back rank")}, B,
             "`rank N`: the rank where king and rook stand and castle (Shako, Omicron: 2)"),
      schema(CastlingField, "field", S::Castling,
             {choice("", {"x-fen", "shredder"}, true, "how the position text writes castling rights")}, B,
             "`field shredder`: castling rights written as rook files (HAha), as Fairy-Stockfish writes "
             "Chess960"),
      custom(CastlingKingSide, "king-side", S::Castling, B, "`king-side king-to FILE rook-to FILE`"),
      custom(CastlingQueenSide, "queen-side", S::Castling, B, "`queen-side king-to FILE rook-to FILE`"),
      // ---- expectations ----------------------------------------------------------------
      custom(ExpectPerft, "perft", S::Expect, BG, "`perft [\"POSITION\"] DEPTH = NODES`"),
      custom(ExpectStatus, "status", S::Expect, BG, "`status [\"POSITION\"] = REASON`"),
      custom(ExpectLegal, "legal", S::Expect, BG, "`legal [\"POSITION\"] ACTION`"),
      custom(ExpectIllegal, "illegal", S::Expect, BG, "`illegal [\"POSITION\"] ACTION`"),
      custom(Records, "records", S::Top, BG,
             "facts about the variant's game records (names, notation, tags)"),
      // ---- records block (read by the record validator, no move changes) --------------
      custom(RecordName, "name", S::Records, BG,
             "`name \"TEXT\"...`: the names a record's [Variant] tag uses"),
      schema(
          RecordPlacementNotation, "placement-notation", S::Records,
          {choice("", {"at-sign", "piece-first"}, true, "`K@e1` (default) or the piece-first form `pKe1`")},
          BG, "how a record writes a placement"),
      schema(RecordAgreementDraws, "agreement-draws", S::Records,
             {choice("", {"yes", "no"}, true, "whether a record may end in an agreed draw")}, BG,
             "whether a draw by agreement exists"),
      custom(RecordTag, "tag", S::Records, BG,
             "`tag NAME -> OPTION|seed|dice-seed [\"TEXT\" = VALUE]...`: what a record tag sets"),
      // ---- metadata ----------------------------------------------------------------------
      custom(FairyStockfish, "fairy-stockfish", S::Top, BG,
             "`fairy-stockfish NAME`: the Fairy-Stockfish variant (UCI_Variant) that plays exactly this "
             "ruleset; `--against fairy-stockfish` uses it (not inherited)"),
      // ---- hands filled by captures, drops (issue 24) --------------------------------
      schema(
          CapturesToHand, "captures-to-hand", S::Top,
          {flag("keep-promoted", "a promoted piece joins the hand as it stands, unmarked (loop chess)"),
           flag("plus-marks", "promoted types are written `+` and their base's letter (shogi's `+P`)"),
           flag("partner",
                "the captured piece goes to the partner's hand on the other board (bughouse): this board's "
                "hands hold what the position gives, any counts")},
          B,
          "a captured piece joins the captor's reserve, a promoted one as the type it promoted from "
          "(FEN marks promoted pieces `Q~`)"),
      schema(Drop, "drop", S::Piece,
             {flag("unique-on-file", "never dropped on a file holding an own piece of its type (nifu)"),
              flag("no-mate", "a drop of it may not checkmate (uchifuzume)"),
              integer(
                  "per-file", 1, 16, false,
                  "never dropped on a file already holding this many own pieces of its type (tori shogi: 2)"),
              flag("promoted",
                   "it may also be dropped as the type it promotes to, standing promoted (kyoto shogi)"),
              flag("opposite-colours",
                   "a side's pieces of its type, dropped, stand on squares of both colours, and other drops "
                   "leave "
                   "room for that (placement chess's bishops)")},
             B, "restrictions on dropping the piece from the reserve (its `forbidden` ranks too)"),
      // ---- issue 24: end conditions, counters, forced capture (gen_ends.hpp) -------------
      schema(MustCapture, "must-capture", S::Legal, {}, B,
             "when a capture is legal, only captures are legal (antichess, losers)"),
      schema(EndExtinction, "extinction", S::End,
             {tokens("", {"all"}, true, "the piece types counted (`all`: every piece together)"),
              integer("at-most", 0, 64, false, "extinct with at most this many of a type (default 0)"),
              integer("opponent-at-least", 0, 64, false,
                      "only while the other side holds at least this many of it (default 0)"),
              flag("claim", "the side to move needs one more opposing piece (it may bare back)"),
              choice("->", {"win", "loss", "draw"}, true, "the result for the extinct side")},
             B, "a side left without pieces of the listed types has won, lost or drawn"),
      schema(EndChecks, "checks", S::End,
             {integer("", 1, 9, true, "the number of checks"),
              choice("->", {"win"}, true, "the result for the side giving them")},
             B, "the side that has given this many checks wins (the FEN counts the checks left, `3+3`)"),
      schema(EndCheckmateBy, "checkmate-by", S::End,
             {letters("", true, "the checking piece types"),
              flag("only", "every piece giving the mating check is of these types"),
              flag("in-series",
                   "a check of the mating side's series of checks (each of its turns since the "
                   "series began gave check, the mate last) came from one of these types"),
              flag("dropped",
                   "the mating turn dropped a piece from the hand, capturing nothing, and every "
                   "piece giving the check is of these types (uchifuzume)"),
              choice("->", {"win", "loss", "draw"}, true, "the result for the mated side")},
             B,
             "the result of a checkmate by these pieces (a checker of the mate is one; `only`: all are; "
             "`in-series`: one gave a check of the series); the first rule that holds applies, else "
             "`checkmate -> RESULT`"),
      custom(CastlingKing, "king", S::Castling, B,
             "`king LETTER`: the piece that castles with the rook, royal or not (default: the royal piece)"),
      // ---- regions (issue 24) ----------------------------------------------------------
      custom(RegionDecl, "region", S::Top, B,
             "`region NAME AREA... [mirrored]`: a named set of squares (squares `e4`, rectangles `d1-f3`, "
             "`ranks 1..5`), the same for both sides or mirrored for Black"),
      schema(Confined, "confined", S::Piece, {region("", true, "the squares it may stand on")}, B,
             "the piece's moves end only inside the region (the xiangqi palace, the elephant's own half)"),
      schema(RegionBetza, "region-betza", S::Piece,
             {betza("", true, "the moves it gains"), region("from", true, "where it must stand"),
              region("to", false, "where those moves end (every square on their way too)")},
             B,
             "extra Betza moves of the piece while it stands in the region (the xiangqi soldier across the "
             "river)"),
      schema(RoyalsNotFacing, "royals-not-facing", S::Legal, {}, B,
             "royal pieces of both sides never see each other along an open file or rank (the flying "
             "general)"),
      schema(NoCheckGiven, "no-check-given", S::Legal, {}, B,
             "no action may leave an enemy royal piece attacked (racing kings)"),
      // ---- shogi-style promotion (issue 24, gen_promote.cpp) -----------------------------
      schema(PromoteZone, "promotes-to", S::Piece,
             {letters("", true, "the type it promotes to (or the types to choose from)"),
              region("in", true, "the zone: a move starting or ending in it may promote"),
              flag("optional", "the unpromoted move stays, except to a square where the piece has no move"),
              flag("capturing", "only its captures promote (micro shogi)")},
             B,
             "promotion on a move that starts or ends in the region (mandatory, or `optional` as in shogi)"),
      schema(
          EnPassantRanks, "en-passant", S::Piece,
          {ranks("ranks", true, "the own ranks (relative: 1 = own first) its en-passant captures land on")},
          B, "its en-passant captures land only on these ranks (Fairy-Stockfish's enPassantRegion, horde)"),
      // ---- janggi's primitives (issue 24, gen_pass.hpp), each general -------------------
      schema(HopsNotOver, "hops-not-over", S::Piece,
             {letters("", true, "the types that are never its screen")}, B,
             "its hops (Betza `p`, `g`) never jump a piece of these types, own or enemy (the janggi cannon)"),
      schema(NeverCaptures, "never-captures", S::Piece, {letters("", true, "the types it never captures")}, B,
             "it never captures a piece of these types (the janggi cannon takes no cannon)"),
      schema(Points, "points", S::Piece, {integer("", 0, 999, true, "its value")}, B,
             "the piece's value when `counting` decides a game (janggi's material count)"),
      schema(TurnPass, "pass", S::Turn,
             {choice("", {"when-blocked"}, false,
                     "`when-blocked`: only a side with a piece on the board and no other legal action "
                     "passes, written `pass` (ataxx, Reversi)")},
             B,
             "the side to move may pass instead of acting, not while in check (janggi; written as the "
             "royal piece's square twice, `e2e2`, as Fairy-Stockfish writes it)"),
      schema(EndDoublePass, "double-pass", S::End,
             {choice("->", {"draw", "counting"}, true, "the result: a draw, or by `counting`")}, B,
             "two passes in a row end the game"),
      schema(EndRoyalsFacing, "royals-facing", S::End,
             {choice("->", {"draw", "counting"}, true, "the result: a draw, or by `counting`")}, B,
             "royal pieces facing each other on an open file or rank (bikjang): the side to move must "
             "break the facing or pass (a pass is legal then even in check), and a pass ends the game"),
      schema(EndCounting, "counting", S::End,
             {integer("white-needs", 1, 999, true,
                      "White wins a counted end when its `points` exceed Black's by at least this many")},
             B, "how an end `-> counting` is decided: by the pieces' `points`, else Black wins"),
      // ---- wall squares (issue 24, gen_walls.hpp) -----------------------------------------
      schema(
          Walls, "walls", S::Top,
          {choice("placed", {"arrow", "duck", "past", "static", "edge"}, false,
                  "each move then places a wall: `arrow` where the moved piece could move from its "
                  "arrival, `duck` the one wall moved to another empty square, `past` on the square left, "
                  "`static` on any empty square, `edge` on an empty square on the board's edge or beside a "
                  "wall"),
           region("in", false, "where placed walls may stand (default: anywhere)")},
          B,
          "the position may hold wall squares (`*`): no piece stands on, passes or captures them; with "
          "`placed`, every move is followed by placing one (Fairy-Stockfish's wallingRule)"),
      schema(Petrify, "petrify", S::Piece, {}, B,
             "after each capture it makes, the piece turns into a wall square on its destination "
             "(Fairy-Stockfish's petrifyOnCaptureTypes)"),
      // ---- the shogi family (issue 24, gen_shogi2.cpp) -----------------------------------
      schema(Orientation, "orientation", S::Top,
             {choice("", {"mirrored", "rotated"}, true,
                     "Black's moves: White's mirrored across the middle rank (default) or turned through "
                     "180 degrees (left and right swap too)")},
             B,
             "how Black's pieces move: as White's mirrored (chess) or rotated (Fairy-Stockfish; tori "
             "shogi's quails)"),
      schema(Demotes, "demotes", S::Piece,
             {region("in", true, "the zone: a move starting or ending in it turns the piece back"),
              flag("capturing", "only its captures turn it back (micro shogi)")},
             B,
             "a promoted type's moves turn it back into the type that promotes to it, always (kyoto "
             "shogi's pieces flip at every move, micro shogi's at every capture)"),
      schema(MustDrop, "must-drop", S::Legal,
             {letters("", false, "the one type that must be dropped (default: any type in hand)")}, B,
             "while the side holds pieces in reserve and a drop is legal, only drops are (placement chess, "
             "Fairy-Stockfish's mustDrop); with a letter, while it holds that type, drops of other types are "
             "illegal and so is every move when a drop of it is legal (koedem's king, mustDropType)"),
      schema(CastlingByDrop, "by-drop", S::Castling, {}, B,
             "a castling king dropped on the middle file of its castling rank gains the rights of the "
             "castling rooks on the corners of that rank, a rook dropped on a corner the right beside such "
             "a king (Fairy-Stockfish's castlingDroppedPiece)"),
      // ---- odd rules of the catalogue (issue 24, gen_misc.hpp) ---------------------------
      schema(EndDrawOdds, "draw-odds", S::End,
             {choice("", {"white", "black"}, true, "the colour a drawn game scores as a win")}, B,
             "every drawn verdict (a stalemate or dead position stated a draw) is a win for this colour "
             "(armageddon)"),
      schema(RoyalInCheck, "royal-stays-in-check", S::Legal, {}, B,
             "a royal piece in check may not move, except to capture a single checker (makpong)"),
      // ---- pawns, promotion and royals (issue 24, gen_pawns.cpp) -------------------------
      schema(EnPassantField, "en-passant-field", S::Piece,
             {choice("", {"path"}, true,
                     "`path`: every square its double step passed and its arrival, whether or not a capture "
                     "is possible")},
             B,
             "how its double step stands in the position text's en-passant field (Fairy-Stockfish's custom "
             "pawns write `f3g4`: berolina, pawnback, pawnsideways)"),
      schema(ResetsClock, "resets-clock", S::Piece,
             {choice("", {"never", "irreversible"}, true,
                     "`never`: none of its moves (pawnback's pawn; Fairy-Stockfish's nMoveRuleTypes "
                     "without it); `irreversible`: only a move it cannot step straight back from (a leap "
                     "of its own leads from the arrival back to the origin: pawnsideways' sideways step "
                     "does not reset it; Fairy-Stockfish's nMoveRuleTypes)")},
             B,
             "which of its moves reset the fifty-move count, which a pawn's moves and a promoting piece's "
             "otherwise all do; a capture, a drop and an irreversible promotion still reset it"),
      schema(PromotionSquares, "promotion-squares", S::Piece,
             {region("", true, "the squares (per colour) where its promotion applies")}, B,
             "narrows the piece's `promote on rank` zone to the region's squares (Fairy-Stockfish's "
             "promotionRegion: legan)"),
      schema(BlackMoves, "black-moves", S::Piece,
             {choice("", {"rotated", "mirrored"}, true,
                     "`rotated`: turned by 180 degrees, as Fairy-Stockfish turns Black's pieces; `mirrored` "
                     "(default): mirrored across the middle rank")},
             B, "how Black's moves follow from the Betza text, which states White's (legan's pawn)"),
      schema(PromotionOptional, "promotion", S::Piece,
             {choice("", {"optional"}, true,
                     "`optional`: the plain move stays, except onto a square where the piece would have no "
                     "move")},
             B,
             "its `promote on rank` promotion may be declined (Fairy-Stockfish's mandatoryPawnPromotion "
             "false with immobilityIllegal: grand, opulent)"),
      schema(
          PromotionLimit, "promotion-limit", S::Piece,
          {integer("", 1, 64, true,
                   "the number of pieces of this type a side may hold for a promotion to it")},
          B,
          "a promotion to this piece only while its side holds fewer of it on the board (Fairy-Stockfish's "
          "promotionLimit: grand, opulent)"),
      schema(DupleCheck, "duple-check", S::Legal, {}, B,
             "a colour holding several royal pieces is in check only when all of them are attacked, and an "
             "action may leave some of them attacked (then capturable); with one left, as usual (spartan)"),
      // ---- flipping pieces and passes (issue 24, gen_flip.hpp) ---------------------------
      schema(
          Converts, "converts", S::Piece,
          {choice("", {"adjacent", "enclosed"}, true,
                  "the enemy pieces next to where it lands, or those enclosed in a line between that "
                  "square and an own piece")},
          B,
          "after each move or drop of the piece, enemy pieces in the pattern change colour (ataxx, Reversi)"),
      schema(PlaceAdjacentOwn, "adjacent-to", S::Placement,
             {choice("", {"own"}, true, "a placement must touch an own piece")}, B,
             "a placement goes only next to an own piece (ataxx's clone)"),
      schema(PlaceEncloses, "encloses", S::Placement,
             {region("opening", false,
                     "while a square of this region is empty, placements go there only, enclosing nothing")},
             B, "a placement must enclose a line of enemy pieces between it and an own piece (Reversi)"),
      schema(PlaceSupply, "supply", S::Placement,
             {choice("", {"unlimited"}, true, "placements come from an endless supply")}, B,
             "each side places any of its piece types without a reserve (none is counted or written)"),
      schema(EndBoardFull, "board-full", S::End,
             {choice("->", {"most-pieces"}, true,
                     "the side with more pieces on the board wins, equal is a draw")},
             B, "the game ends when every square is occupied"),
      schema(EndPasses, "passes", S::End,
             {integer("", 1, 8, true, "how many passes in a row end the game"),
              choice("->", {"most-pieces"}, true,
                     "the side with more pieces on the board wins, equal is a draw")},
             B, "the game ends after this many passes in a row"),
      schema(Immobile, "immobile", S::Piece, {}, B,
             "the piece never moves once placed (it has no `betza`: a Reversi disc)"),
  };
  for (size_t i = 0; i < t.size(); ++i)
    if (static_cast<size_t>(t[i].id) != i)
      throw std::logic_error("construct table out of order: " + t[i].keyword);
  return t;
}

std::string type_form(const ArgSpec& a) {
  switch (a.type) {
    case ArgType::Flag:
      return "";
    case ArgType::Int:
      return std::to_string(a.lo) + ".." + std::to_string(a.hi);
    case ArgType::Letters:
      return "LETTERS";
    case ArgType::Choice: {
      std::string s;
      for (const auto& c : a.choices) s += (s.empty() ? "" : "|") + c;
      return s;
    }
    case ArgType::Tokens: {
      std::string s;
      for (const auto& c : a.choices) s += (s.empty() ? "" : "|") + c;
      return "(" + s + (s.empty() ? "" : "|") + "LETTER)...";
    }
    case ArgType::Betza:
      return "\"BETZA\"";
    case ArgType::Ranks:
      return "RANKS";
    case ArgType::Text:
      return "\"TEXT\"";
    case ArgType::Region:
      return "REGION";
  }
  return "";
}

bool is_letter(const Value& v) {
  return v.kind == ValueKind::Word && v.text.size() == 1 &&
         std::isupper(static_cast<unsigned char>(v.text[0]));
}

}  // namespace

const std::vector<ConstructDef>& constructs() {
  static const std::vector<ConstructDef> table = make_table();
  return table;
}

const ConstructDef& construct_def(ConstructId id) {
  return constructs().at(static_cast<size_t>(id));
}

const ConstructDef& ConstructUse::def() const {
  return construct_def(id);
}

const ArgValue& ConstructUse::arg(std::string_view key) const {
  const ConstructDef& d = def();
  for (size_t i = 0; i < d.args.size(); ++i)
    if (d.args[i].key == key) return args.at(i);
  throw std::logic_error("construct `" + d.keyword + "` has no argument `" + std::string(key) + "`");
}

std::vector<const ConstructDef*> find_constructs(Scope scope, std::string_view keyword) {
  std::vector<const ConstructDef*> out;
  for (const ConstructDef& d : constructs())
    if (d.scope == scope && d.keyword == keyword) out.push_back(&d);
  return out;
}

std::vector<std::string> keywords(Scope scope) {
  std::vector<std::string> out;
  for (const ConstructDef& d : constructs())
    if (d.scope == scope && std::find(out.begin(), out.end(), d.keyword) == out.end())
      out.push_back(d.keyword);
  return out;
}

std::string construct_form(const ConstructDef& def) {
  std::string s = def.keyword;
  for (const ArgSpec& a : def.args) {
    std::string part = a.key;
    std::string tf = type_form(a);
    if (!tf.empty()) part += (part.empty() ? "" : " ") + tf;
    s += " " + (a.required ? part : "[" + part + "]");
  }
  return s;
}

std::optional<ConstructUse> check_construct(const ConstructDef& def, const Stmt& s, Diagnostics& d,
                                            const Resolver& resolve) {
  ConstructUse use;
  use.id = def.id;
  use.loc = s.loc;
  use.args.resize(def.args.size());
  const std::string form = "write it as `" + construct_form(def) + "`";
  int errors = d.error_count();
  if (s.has_block) d.error(s.loc, "`" + def.keyword + "` takes no block", form);
  std::vector<std::string> keys;
  int positional = -1;
  for (size_t i = 0; i < def.args.size(); ++i) {
    if (def.args[i].key.empty())
      positional = static_cast<int>(i);
    else
      keys.push_back(def.args[i].key);
  }
  auto key_index = [&](const Value& v) -> int {
    if (v.kind != ValueKind::Word && v.kind != ValueKind::Symbol) return -1;
    for (size_t i = 0; i < def.args.size(); ++i)
      if (!def.args[i].key.empty() && def.args[i].key == v.text) return static_cast<int>(i);
    return -1;
  };
  size_t i = 0;
  while (i < s.args.size()) {
    const Value& head = s.args[i];
    int ai = key_index(head);
    size_t start = i;
    if (ai >= 0) {
      ++i;  // past the key
    } else if (positional >= 0 && !use.args[positional].present) {
      ai = positional;
    } else {
      std::string hint = keys.empty() ? form : did_you_mean(head.text, keys);
      d.error(head.loc, "unexpected `" + head.text + "` in `" + def.keyword + "`",
              hint.empty() ? form : hint);
      ++i;
      continue;
    }
    const ArgSpec& spec = def.args[ai];
    ArgValue& out = use.args[ai];
    const std::string what = spec.key.empty() ? "`" + def.keyword + "`" : "`" + spec.key + "`";
    if (out.present) {
      d.error(head.loc, what + " given twice", form);
      continue;
    }
    out.present = true;
    out.loc = head.loc;
    if (spec.type == ArgType::Flag) continue;
    if (i >= s.args.size() || (ai != positional && key_index(s.args[i]) >= 0)) {
      d.error(i < s.args.size() ? s.args[i].loc : s.args[start].loc,
              what + " needs " + (type_form(spec).empty() ? "a value" : "`" + type_form(spec) + "`"), form);
      continue;
    }
    Value v = resolve(s.args[i]);
    out.loc = v.loc;
    switch (spec.type) {
      case ArgType::Flag:
        break;
      case ArgType::Int:
        ++i;
        if (v.kind != ValueKind::Number) {
          d.error(v.loc, what + " takes a whole number, found `" + v.text + "`", form);
        } else if (v.num < spec.lo || v.num > spec.hi) {
          d.error(v.loc,
                  what + " must be between " + std::to_string(spec.lo) + " and " + std::to_string(spec.hi) +
                      ", found " + v.text,
                  form);
        } else {
          out.num = v.num;
        }
        break;
      case ArgType::Choice:
        ++i;
        if (std::find(spec.choices.begin(), spec.choices.end(), v.text) == spec.choices.end() ||
            (v.kind != ValueKind::Word && v.kind != ValueKind::Symbol)) {
          std::string hint = did_you_mean(v.text, spec.choices);
          d.error(v.loc, what + " takes " + type_form(spec) + ", found `" + v.text + "`",
                  hint.empty() ? form : hint);
        } else {
          out.text = v.text;
        }
        break;
      case ArgType::Letters:
      case ArgType::Tokens: {
        // Words up to the next key.
        while (i < s.args.size() && key_index(s.args[i]) < 0) {
          Value w = resolve(s.args[i]);
          bool ok = is_letter(w) ||
                    (spec.type == ArgType::Tokens &&
                     std::find(spec.choices.begin(), spec.choices.end(), w.text) != spec.choices.end());
          if (!ok) {
            std::string hint = spec.type == ArgType::Tokens ? did_you_mean(w.text, spec.choices) : "";
            d.error(w.loc,
                    what + " takes " + (spec.type == ArgType::Letters ? "piece letters" : type_form(spec)) +
                        ", found `" + w.text + "`",
                    hint.empty() ? form : hint);
          } else if (std::find(out.words.begin(), out.words.end(), w.text) != out.words.end()) {
            d.error(w.loc, "`" + w.text + "` listed twice in " + what);
          } else {
            out.words.push_back(w.text);
          }
          ++i;
          if (spec.key.empty() && spec.type == ArgType::Letters && !is_letter(w)) break;
        }
        break;
      }
      case ArgType::Betza: {
        ++i;
        if (v.kind != ValueKind::String) {
          d.error(v.loc, what + " takes a Betza string in quotes, found `" + v.text + "`", form);
          break;
        }
        std::vector<BetzaMove> moves;
        BetzaError err;
        if (!parse_betza(v.text, moves, err)) {
          Loc l = v.loc;
          l.col += 1 + static_cast<int>(err.offset);
          l.len = 1;
          d.error(l, err.message);
        } else {
          out.text = v.text;
        }
        break;
      }
      case ArgType::Ranks:
        ++i;
        if (v.kind == ValueKind::Number && v.num >= 1 && v.num <= 99) {
          out.lo = out.hi = static_cast<int>(v.num);
        } else if (v.kind == ValueKind::Range && v.lo >= 1 && v.lo <= v.hi && v.hi <= 99) {
          out.lo = static_cast<int>(v.lo);
          out.hi = static_cast<int>(v.hi);
        } else {
          d.error(v.loc, what + " takes a rank (1..99) or a range such as `1..4`, found `" + v.text + "`",
                  form);
        }
        break;
      case ArgType::Text:
        ++i;
        if (v.kind != ValueKind::String)
          d.error(v.loc, what + " takes a quoted text, found `" + v.text + "`", form);
        else
          out.text = v.text;
        break;
      case ArgType::Region:
        // A name; sema checks that the region exists (a `region` statement or a built-in one).
        ++i;
        if (v.kind != ValueKind::Word)
          d.error(v.loc, what + " takes a region's name, found `" + v.text + "`", form);
        else
          out.text = v.text;
        break;
    }
  }
  for (size_t k = 0; k < def.args.size(); ++k)
    if (def.args[k].required && !use.args[k].present) {
      std::string name = def.args[k].key.empty() ? type_form(def.args[k]) : "`" + def.args[k].key + "`";
      d.error(s.loc, "`" + def.keyword + "` needs " + name, form);
    }
  if (d.error_count() != errors) return std::nullopt;
  return use;
}

}  // namespace arb::lang
