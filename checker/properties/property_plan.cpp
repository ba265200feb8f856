// Deciding the metamorphic properties of a ruleset from its statements (property_plan.hpp).
#include "properties/property_plan.hpp"

#include <filesystem>

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
      return true;
    default:
      return false;
  }
}

// The same for the left-right mirror: everything colour-symmetric that names no file.
// Castling is handled apart (positions lose their rights), Betza by its direction letters.
bool mirror_symmetric(ConstructId id) {
  return colour_symmetric(id);
}

// Betza direction letters that tell left from right (`l`, `r`; `s` and `h` are both sides).
bool betza_sided(const std::string& b) {
  for (char c : b)
    if (c == 'l' || c == 'r') return true;
  return false;
}

}  // namespace

arb::fuzz::PropertyPlan plan_for(const arb::lang::Model& m) {
  arb::fuzz::PropertyPlan p;
  // Cards and piles: the position text hides what is drawn; a flipped or mirrored text has
  // no hidden part to mirror. The grid's text is no FEN: colour flip and mirror are FEN's.
  if (m.unbounded) {
    p.skip(Property::ColourFlip, "board unbounded (" + where(m.board_loc) +
                                     "): the grid's position text is checked by translation instead");
    p.skip(Property::Mirror, "board unbounded (" + where(m.board_loc) +
                                 "): the grid's position text is checked by translation instead");
  } else {
    p.skip(Property::Translation,
           "board " + std::to_string(m.width) + "x" + std::to_string(m.height) + " (" + where(m.board_loc) +
               "): a bounded board's edges and rank-relative rules are not translation-invariant");
  }
  if (!m.deck.empty()) {
    p.skip(Property::ColourFlip,
           "deck (" + where(m.deck_loc) + "): the shared pile and the hands are not mirrored");
    p.skip(Property::Mirror,
           "deck (" + where(m.deck_loc) + "): the shared pile and the hands are not mirrored");
  }
  if (!m.armies.empty()) {
    const std::string w = m.option("white-army") ? m.option("white-army")->value : "";
    const std::string b = m.option("black-army") ? m.option("black-army")->value : "";
    if (w != b) {
      const std::string why = "army statements (" + where(m.armies.front().loc) + "): white-army=" + w +
                              " and black-army=" + b + " differ";
      p.skip(Property::ColourFlip, why);
      p.skip(Property::Mirror, why);
    }
  }
  for (const auto* u : m.all_constructs()) {
    if (!colour_symmetric(u->id))
      p.skip(Property::ColourFlip,
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
  return p;
}

}  // namespace arb::properties
