// Deciding the metamorphic properties of a ruleset from its statements (property_plan.hpp).
#include "properties/property_plan.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <set>
#include <vector>

namespace arb::properties {

namespace {

using arb::fuzz::Property;
using arb::lang::ConstructId;

std::string where(const arb::lang::Loc& l) {
  std::string file = l.src ? std::filesystem::path(l.src->path).filename().string() : std::string("ruleset");
  return file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

// Constructs whose rules are stated relative to the side that plays them (forward,
// relative ranks, the own or enemy royal): a colour flip keeps them. A construct not
// listed here (a new one) is not vouched for: the colour flip is then skipped, naming it.
bool colour_symmetric(ConstructId id) {
  switch (id) {
    case ConstructId::Ruleset:
    case ConstructId::Title:
    case ConstructId::BoardRect:
    case ConstructId::Option:
    case ConstructId::Piece:
    case ConstructId::Castling:
    case ConstructId::CastlingNone:
    case ConstructId::SetupText:
    case ConstructId::SetupEmpty:
    case ConstructId::SetupChess960:
    case ConstructId::Reserve:
    case ConstructId::Turn:
    case ConstructId::Placement:
    case ConstructId::Legal:
    case ConstructId::End:
    case ConstructId::Expect:
    case ConstructId::MoveCondition:
    case ConstructId::Army:
    case ConstructId::When:
    case ConstructId::ActionMove:
    case ConstructId::ActionPlace:
    case ConstructId::PhaseMove:
    case ConstructId::PhasePlace:
    case ConstructId::PhaseRoyalMove:
    case ConstructId::PlaceRegion:
    case ConstructId::PlaceFirstRoyal:
    case ConstructId::PlacePawnBeside:
    case ConstructId::PlaceOtherBehind:
    case ConstructId::PlaceNoEscape:
    case ConstructId::PlaceNoPromotion:
    case ConstructId::RoyalSafe:
    case ConstructId::RoyalsApart:
    case ConstructId::EscapeDuty:
    case ConstructId::EndCheckmate:
    case ConstructId::EndStalemate:
    case ConstructId::EndInsufficient:
    case ConstructId::EndNoLegalMove:
    case ConstructId::EndRoyalCapture:
    case ConstructId::EndRegionReached:
    case ConstructId::EndAgreement:
    case ConstructId::Claim:
    case ConstructId::Betza:
    case ConstructId::Royal:
    case ConstructId::Initial:
    case ConstructId::Forbidden:
    case ConstructId::EnPassantRanks:
    case ConstructId::EnPassantField:
    case ConstructId::BlackMoves:
    case ConstructId::PromotionOptional:
    case ConstructId::PromotionLimit:
    case ConstructId::DupleCheck:
    case ConstructId::PromoteOnRank:
    case ConstructId::PromoteByExchange:
    case ConstructId::Captures:
    case ConstructId::CapturedBy:
    case ConstructId::Immune:
    case ConstructId::NoCheck:
    case ConstructId::Borrows:
    case ConstructId::Teleport:
    case ConstructId::RegionMove:
    case ConstructId::RemoveAround:
    case ConstructId::Rampage:
    case ConstructId::Strike:
    case ConstructId::ArmyPromoteTo:
    case ConstructId::ArmyCastles:
    case ConstructId::ArmyKingTurn:
    case ConstructId::CastlingRook:
    case ConstructId::CastlingKingSide:
    case ConstructId::CastlingQueenSide:
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
    // Hands filled by captures, and drops (relative ranks): each side's own.
    case ConstructId::CapturesToHand:
    case ConstructId::Drop:
    // Forced capture, extinction of a kind, the castling piece: the same rule for each side.
    // (Check counters are not listed: the position text's counters would need swapping.)
    case ConstructId::MustCapture:
    case ConstructId::EndExtinction:
    case ConstructId::CastlingKing:
    // A mate's result by the types of its checkers (`checkmate-by`): no colour, no file. Its
    // history conditions (`in-series`, `dropped`) see no history in either loaded text.
    case ConstructId::EndCheckmateBy:
    // The castling block's rank (relative: 1 = the own back rank) and rights field (HAha
    // swaps case with the colours), a dropped king or rook gaining its right on its own home.
    case ConstructId::CastlingRank:
    case ConstructId::CastlingField:
    case ConstructId::CastlingByDrop:
    // `checks N -> win`: the flip swaps the position text's counters (W+B becomes B+W).
    case ConstructId::EndChecks:
    // Regions: the statement is vouched for by its squares (region_decisions below); what
    // uses a region reads the acting colour's squares of it.
    case ConstructId::RegionDecl:
    case ConstructId::Confined:
    case ConstructId::RegionBetza:
    case ConstructId::PromoteZone:
    case ConstructId::PromotionSquares:
    case ConstructId::Demotes:
    // The same rule for each side, naming no colour and no file.
    case ConstructId::RoyalsNotFacing:
    case ConstructId::NoCheckGiven:
    case ConstructId::HopsNotOver:
    case ConstructId::NeverCaptures:
    case ConstructId::Points:
    case ConstructId::TurnPass:
    case ConstructId::EndDoublePass:
    case ConstructId::EndRoyalsFacing:
    case ConstructId::MustDrop:
    case ConstructId::RoyalInCheck:
    case ConstructId::Converts:
    case ConstructId::PlaceAdjacentOwn:
    case ConstructId::PlaceEncloses:
    case ConstructId::PlaceSupply:
    case ConstructId::EndBoardFull:
    case ConstructId::EndPasses:
    case ConstructId::Immobile:
    // Which of a piece's moves reset the clock: `never`, or `irreversible` by the piece's own
    // moves (Black's are White's flipped, mirrored as its Betza), naming no colour or file.
    case ConstructId::ResetsClock:
    // Wall squares are position state (`*` in the text): the flip and the mirror carry
    // them; where placed walls may stand is a region (vouched for by its squares).
    case ConstructId::Walls:
    case ConstructId::Petrify:
    // How Black's moves follow White's: `mirrored` is the flip itself; `rotated` is decided
    // with the pieces' Betza (argument_decisions below).
    case ConstructId::Orientation:
    // The grid: each side's own pile and hand (the flip swaps them), a draw phase.
    case ConstructId::BoardUnbounded:
    case ConstructId::Pile:
    case ConstructId::Hand:
    case ConstructId::PhaseDraw:
    // A shared deck's statements: cards name types, not squares; the hands and discard
    // piles swap with the colours (plan_for: flip_keeps_pile, for the reshuffle's order).
    case ConstructId::Deck:
    case ConstructId::Card:
    case ConstructId::AgainNames:
    case ConstructId::Discard:
    case ConstructId::Reshuffle:
    case ConstructId::RedrawWhen:
    case ConstructId::PhaseDrawCard:
    case ConstructId::PhasePlayCard:
    case ConstructId::PhaseRedraw:
      return true;
    default:
      return false;
  }
}

// The same for the left-right mirror: everything colour-symmetric that names no file.
// Castling is handled apart (positions lose their rights), Betza by its direction letters.
// A rule that favours one colour (a draw scored as Black's win, White's counting margin)
// names no file: it keeps the mirror, not the flip (argument_decisions says why).
bool mirror_symmetric(ConstructId id) {
  switch (id) {
    case ConstructId::EndDrawOdds:
    case ConstructId::EndCounting:
      return true;
    default:
      return colour_symmetric(id);
  }
}

// Betza direction letters that tell left from right (`l`, `r`; `s` and `h` are both sides).
bool betza_sided(const std::string& b) {
  for (char c : b)
    if (c == 'l' || c == 'r') return true;
  return false;
}

// A statement that favours one colour breaks the flip and the rotation alike: both swap the
// colours.
void skip_colour(arb::fuzz::PropertyPlan& p, const std::string& why) {
  p.skip(Property::ColourFlip, why);
  p.skip(Property::ColourRotation, why);
}

std::string square_text(int x, int y) {
  return std::string(1, static_cast<char>('a' + x)) + std::to_string(y + 1);
}

// A region's squares per colour as its statement gives them (RegionDef: White's rectangles;
// Black's the same squares, mirrored across the middle rank, or turned through 180 degrees).
// Read from the statement, not from the compiled program: the program's sets are what the
// colour flip then tests.
std::array<std::set<std::pair<int, int>>, 2> region_squares(const arb::lang::RegionDef& r, int w, int h) {
  std::array<std::set<std::pair<int, int>>, 2> sets;
  for (const auto& rc : r.rects) {
    const int x1 = std::min(rc.x1 == arb::lang::RegionDef::kAllFiles ? w - 1 : rc.x1, w - 1);
    for (int y = rc.y0; y <= std::min(rc.y1, h - 1); ++y)
      for (int x = rc.x0; x <= x1; ++x) {
        sets[0].insert({x, y});
        if (r.rotated)
          sets[1].insert({w - 1 - x, h - 1 - y});
        else
          sets[1].insert({x, r.mirrored ? h - 1 - y : y});
      }
  }
  return sets;
}

// Regions, decided by their squares: colour-symmetric when White's squares flipped (rank y
// to h - 1 - y) are exactly Black's, as for a `mirrored` zone (shogi's camp) or an absolute
// set that maps onto itself (kingofthehill's centre, janggi's palace lines); mirror-symmetric
// when each colour's set is left-right symmetric. The reason names a square that breaks it.
void region_decisions(const arb::lang::Model& m, arb::fuzz::PropertyPlan& p,
                      std::vector<std::string>& chosen) {
  const int w = m.width, h = m.height;
  for (const auto& r : m.regions) {
    const auto sets = region_squares(r, w, h);
    const std::string head = "region `" + r.name + "` (" + where(r.loc) + "): ";
    const std::string how = r.rotated    ? "Black's are White's turned through 180 degrees"
                            : r.mirrored ? "Black's are White's mirrored"
                                         : "the same squares for both sides";
    std::string colour;
    for (const auto& [x, y] : sets[0])
      if (!sets[1].count({x, h - 1 - y})) {
        colour = head + "White's " + square_text(x, y) + " flipped is " + square_text(x, h - 1 - y) +
                 ", not one of Black's (" + how + "): not colour-symmetric";
        break;
      }
    if (colour.empty() && sets[0].size() != sets[1].size())
      colour = head + "White's and Black's squares differ in number: not colour-symmetric";
    if (!colour.empty()) p.skip(Property::ColourFlip, colour);
    // The rotation: White's squares turned through 180 degrees are exactly Black's (legan's
    // `rotated` zone; isolation's open squares, which leave out c1 and d8).
    std::string turned;
    for (const auto& [x, y] : sets[0])
      if (!sets[1].count({w - 1 - x, h - 1 - y})) {
        turned = head + "White's " + square_text(x, y) + " turned through 180 degrees is " +
                 square_text(w - 1 - x, h - 1 - y) + ", not one of Black's (" + how +
                 "): not rotation-symmetric";
        break;
      }
    if (turned.empty() && sets[0].size() != sets[1].size())
      turned = head + "White's and Black's squares differ in number: not rotation-symmetric";
    if (!turned.empty())
      p.skip(Property::ColourRotation, turned);
    else if (!colour.empty())
      chosen.push_back("region `" + r.name + "` (" + where(r.loc) +
                       "): White's squares turned through 180 degrees are Black's (" + how + ")");
    for (int c = 0; c < 2; ++c)
      for (const auto& [x, y] : sets[c])
        if (!sets[c].count({w - 1 - x, y})) {
          p.skip(Property::Mirror, head + std::string(c ? "Black's " : "White's ") + square_text(x, y) +
                                       " is in it, its mirror " + square_text(w - 1 - x, y) +
                                       " is not: not mirror-symmetric");
          c = 2;
          break;
        }
  }
}

// Statements whose symmetry depends on their arguments.
void argument_decisions(const arb::lang::Model& m, arb::fuzz::PropertyPlan& p,
                        std::vector<std::string>& chosen) {
  // Black's moves turned through 180 degrees (`orientation rotated`, a piece's `black-moves
  // rotated`) are the flip's only when the piece's moves are left-right symmetric: a Betza
  // with `l` or `r` (tori shogi's quails) makes Black's left White's right.
  const arb::lang::ConstructUse* rotated_all = nullptr;
  for (const auto& u : m.constructs)
    if (u.id == ConstructId::Orientation && u.arg("").text == "rotated") rotated_all = &u;
  for (const auto& piece : m.pieces) {
    const arb::lang::ConstructUse* rot = rotated_all;
    if (const auto* bm = piece.find(ConstructId::BlackMoves))
      rot = bm->arg("").text == "rotated" ? bm : nullptr;
    std::vector<std::pair<std::string, arb::lang::Loc>> texts;
    for (const auto& b : piece.betza) texts.push_back({b.text, b.loc});
    for (const auto& u : piece.constructs)
      if (u.id == ConstructId::RegionBetza) texts.push_back({u.arg("").text, u.arg("").loc});
    // The rotation carries White's moves onto Black's when Black's are White's turned, or
    // when they are left-right symmetric (then turned and mirrored are the same moves).
    for (const auto& [text, loc] : texts)
      if (betza_sided(text)) {
        if (rot)
          chosen.push_back("`" + rot->def().keyword + " rotated` (" + where(rot->loc) + ") turns piece " +
                           piece.name + "'s betza \"" + text + "\"");
        else
          p.skip(Property::ColourRotation,
                 "piece " + piece.name + "'s betza \"" + text + "\" (" + where(loc) +
                     ") tells left from right and Black's moves are White's mirrored, "
                     "not turned: the rotation does not carry White's moves onto Black's");
        break;
      }
    if (!rot) continue;
    for (const auto& [text, loc] : texts)
      if (betza_sided(text)) {
        p.skip(Property::ColourFlip,
               "`" + rot->def().keyword + " rotated` (" + where(rot->loc) +
                   "): Black's moves are White's turned through 180 degrees, and piece " + piece.name +
                   "'s betza \"" + text + "\" (" + where(loc) +
                   ") tells left from right: the flip does not carry White's moves onto "
                   "Black's");
        break;
      }
  }
  // `promote ... for white|black` (chigorin, sortofalmost): each colour its own choices.
  for (const auto& piece : m.pieces) {
    auto choices = [&](int c) {
      std::string s = piece.promote_colour_set[c] ? piece.promote_to_colour[c] : piece.promote_to;
      std::sort(s.begin(), s.end());
      return s;
    };
    if (choices(0) != choices(1))
      skip_colour(p, "piece " + piece.name + " promotes to " + choices(0) + " for White and " + choices(1) +
                         " for Black (" + where(piece.promote_loc) + "): not colour-symmetric");
  }
  for (const auto* u : m.all_constructs()) {
    if (u->id == ConstructId::EndDrawOdds)
      skip_colour(p, "`draw-odds " + u->arg("").text + "` (" + where(u->loc) + "): every draw is " +
                         u->arg("").text +
                         "'s win, so the flipped position's draw scores for the other colour: "
                         "not colour-symmetric by nature");
    if (u->id == ConstructId::EndCounting)
      skip_colour(p, "`counting white-needs " + std::to_string(u->arg("white-needs").num) + "` (" +
                         where(u->loc) +
                         "): a counted end asks a margin of White only: not colour-symmetric");
  }
}

// The colour rotation (the board turned through 180 degrees, the colours swapped) is the
// flip followed by the mirror: checked only where it says more than they do, when one of
// them is skipped and every statement keeps the rotation. `chosen` names the statements
// that call for it (a region whose squares turn onto Black's, a turned piece).
void rotation_decision(const arb::lang::Model& m, arb::fuzz::PropertyPlan& p,
                       const std::vector<std::string>& chosen) {
  if (!p.enabled(Property::ColourRotation)) return;
  if (m.unbounded) {
    p.skip(Property::ColourRotation,
           "board unbounded (" + where(m.board_loc) + "): the grid's flip and mirror are checked instead");
    return;
  }
  if (p.enabled(Property::ColourFlip) && p.enabled(Property::Mirror)) {
    p.skip(Property::ColourRotation,
           "implied: colour-flip and mirror are checked, and the rotation is the one after the other");
    return;
  }
  std::string why;
  for (const auto& c : chosen) why += (why.empty() ? "" : "; ") + c;
  p.rotation_chosen = "chosen for the colour symmetry the flip cannot check: " +
                      (why.empty() ? std::string("every statement keeps the rotation") : why);
}

}  // namespace

arb::fuzz::PropertyPlan plan_for(const arb::lang::Model& m) {
  arb::fuzz::PropertyPlan p;
  // The grid's text has no rank 1 and no edge: the flip turns ranks around 0 and the mirror
  // files around 0 (properties.hpp, flip_grid_position), and translation holds as well.
  if (!m.unbounded)
    p.skip(Property::Translation,
           "board " + std::to_string(m.width) + "x" + std::to_string(m.height) + " (" + where(m.board_loc) +
               "): a bounded board's edges and rank-relative rules are not translation-invariant");
  // A shared deck (No Stress Chess): the flipped position (hands and discard piles swapped,
  // the shared pile kept) is a valid position of the same game, and the game's rules are
  // the same for each colour but one: a reshuffle of fixed order stacks White's discard pile
  // under Black's. The flip then runs on texts whose pile holds the turn's draws
  // (flip_position). The cards name piece types, no squares: the mirror keeps them.
  if (!m.deck.empty()) p.flip_keeps_pile = true;
  if (!m.armies.empty()) {
    const std::string w = m.option("white-army") ? m.option("white-army")->value : "";
    const std::string b = m.option("black-army") ? m.option("black-army")->value : "";
    if (w != b) {
      const std::string why = "army statements (" + where(m.armies.front().loc) + "): white-army=" + w +
                              " and black-army=" + b + " differ";
      skip_colour(p, why);
      p.skip(Property::Mirror, why);
    }
  }
  // A start that gives one colour no royal piece (horde): the compiled game then holds that
  // colour to none and the other to one (compile_grid.hpp, no_royal), which the flip swaps.
  if (m.setup_kind == arb::lang::SetupKind::Text && m.armies.empty()) {
    const std::string placement = m.setup_text.substr(0, m.setup_text.find(' '));
    bool has[2] = {false, false};
    for (const auto& piece : m.pieces)
      if (piece.royal && piece.letter) {
        has[0] = has[0] || placement.find(piece.letter) != std::string::npos;
        has[1] = has[1] || placement.find(static_cast<char>(std::tolower(piece.letter))) != std::string::npos;
      }
    if (has[0] != has[1])
      skip_colour(p, "setup (" + where(m.setup_loc) + "): " + (has[0] ? "Black" : "White") +
                         " starts without a royal piece and " + (has[0] ? "White" : "Black") +
                         " with one, so a valid position holds none for the one and one for the "
                         "other: not colour-symmetric");
  }
  std::vector<std::string> chosen;  // the statements that call for the rotation
  region_decisions(m, p, chosen);
  argument_decisions(m, p, chosen);
  for (const auto* u : m.all_constructs()) {
    if (u->id == ConstructId::RegionBetza && betza_sided(u->arg("").text))
      p.skip(Property::Mirror,
             "`region-betza \"" + u->arg("").text + "\"` (" + where(u->loc) + ") moves to one side (l, r)");
    if (!colour_symmetric(u->id))
      skip_colour(p,
                  "`" + u->def().keyword + "` (" + where(u->loc) + ") is not known to be colour-symmetric");
    if (!mirror_symmetric(u->id))
      p.skip(Property::Mirror,
             "`" + u->def().keyword + "` (" + where(u->loc) + ") is not known to be mirror-symmetric");
  }
  for (const auto& piece : m.pieces)
    for (const auto& b : piece.betza)
      if (betza_sided(b.text))
        p.skip(Property::Mirror, "piece " + piece.name + " betza \"" + b.text + "\" (" + where(b.loc) +
                                     ") moves to one side (l, r)");
  if (m.castling) p.mirror_strips_castling = true;
  rotation_decision(m, p, chosen);
  return p;
}

}  // namespace arb::properties
