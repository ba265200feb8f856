// The compile step of the card layer: a model with a `deck` becomes Program::cards. The
// layer runs a card turn (RULINGS 3.3-3.5): `phase draw-card`, `phase play-card`,
// optionally `phase redraw`, over the deck, hand, Again piles and redraw conditions the
// ruleset states; the position text is arbiter/nostress_text.hpp's, checked against that
// deck and hand (CardRules). Anything else a ruleset states about cards is a located
// error here, never ignored.
#include "card_compile.hpp"

#include <algorithm>

#include "arbiter/nostress_text.hpp"
#include "arbiter/numbers.hpp"
#include "card_board.hpp"

namespace arb::lang {

void compile_cards(const Model& m, Program& p, Diagnostics& d) {
  auto c = std::make_shared<CardProgram>();
  c->deck = m.deck;
  const Loc at = m.deck_loc;

  // The turn: draw-card, play-card (both mandatory), then an optional redraw.
  const auto& ph = m.phases;
  bool shape = (m.action_move || m.action_place) ? false : (ph.size() == 2 || ph.size() == 3);
  if (shape) {
    shape = ph[0].name == "draw-card" && !ph[0].optional && ph[0].after.empty() &&
            ph[1].name == "play-card" && !ph[1].optional && ph[1].after.empty();
    if (ph.size() == 3) shape = shape && ph[2].name == "redraw" && ph[2].optional && ph[2].after.empty();
  }
  if (!shape)
    d.error(m.turn_loc.src ? m.turn_loc : at,
            "with a deck, the executable turn is `phase draw-card mandatory`, `phase play-card mandatory`, "
            "then optionally `phase redraw optional`");
  c->redraw = ph.size() == 3;

  // The deck: each card kind a piece letter of the ruleset that the position text can
  // write (P N B R Q K), or Again; the counts come from the ruleset.
  c->rules.deck.fill(0);
  for (const Model::DeckCard& k : m.deck_cards) {
    const int i = nostress_card_index(k.letter);
    const PieceDef* piece = k.letter == 'A' ? nullptr : m.piece(k.letter);
    if (k.letter != 'A' && !piece) {
      {
        std::string pieces = "cards name a piece letter of the ruleset (";
        for (const PieceDef& pd : m.pieces) pieces += pd.letter;
        d.error(k.loc, std::string("card letter `") + k.letter + "` names no piece of this ruleset",
                pieces + ") or are `Again`");
      }
    } else if (i < 0) {
      d.error(k.loc,
              std::string("card letter `") + k.letter +
                  "`: the position text holds the cards P N B R Q K and Again",
              "arbiter/nostress_text.hpp writes a card by its kind letter");
    } else if (piece && piece->name != k.name) {
      d.error(k.loc, "card `" + k.name + "` moves the piece `" + piece->name + "` (" + k.letter + ")",
              "name the card after its piece: `card " + piece->name + " " + k.letter + "*" +
                  std::to_string(k.count) + "`");
    } else if (!piece && k.name != "again") {
      d.error(k.loc, "the Again cards are named `again`",
              "write `card again Again*" + std::to_string(k.count) + "`");
    } else {
      c->rules.deck[static_cast<size_t>(i)] = k.count;
    }
  }
  if (m.deck_cards.empty())
    d.error(at, "a deck needs at least one `card`", "write `card NAME LETTER*COUNT` in the deck's block");
  if (c->rules.deck_size() > kMaxCardDeck)
    d.error(at, "a deck of " + std::to_string(c->rules.deck_size()) +
                    " cards: the card layer holds at most " + std::to_string(kMaxCardDeck));
  c->deck = nostress_deck(c->rules);

  // The hand: `hand size N keep-order`, 0..8 cards (0: the drawn card is played at once).
  if (!m.hand_loc.src) {
    d.error(at, "a card ruleset needs `hand size N keep-order` (0 plays the drawn card at once)");
  } else {
    if (m.hand_size > kMaxCardHand)
      d.error(m.hand_loc, "the card layer holds hands of 0.." + std::to_string(kMaxCardHand) +
                              " cards, not " + std::to_string(m.hand_size));
    if (m.hand_draw != m.hand_size)
      d.error(m.hand_loc, "a card hand is refilled by the turn's draw: leave out `draw`");
    if (m.deck.size() < static_cast<size_t>(2 * m.hand_size + 1))
      d.error(m.hand_loc,
              "the deck of " + std::to_string(m.deck.size()) + " cards cannot deal two hands of " +
                  std::to_string(m.hand_size) + " and a first draw",
              "add cards to the deck or make the hand smaller");
  }
  c->rules.hand_size = std::clamp(m.hand_size, 0, kMaxCardHand);
  if (c->redraw && m.hand_size == 0)
    d.error(ph[2].loc, "`phase redraw` needs a hand (`hand size 0` has none)");
  // The position text's level field: what it names follows from the rules stated (the
  // text allows castling and en passant at `advanced` only).
  const bool advanced = m.royal_safe || m.castling;
  c->level = advanced ? "advanced" : m.hand_size == 0 ? "1" : m.hand_size == 3 ? "2" : "3";
  if (const PieceDef* pawn = m.piece('P')) {
    if (advanced && !pawn->promote_ranks)
      d.error(pawn->loc,
              "with check or castling the position text is the advanced game's, whose pawns never stand on "
              "the last rank: give the pawn `promote on rank 8 to ...`",
              "without `royal-safe` and castling a pawn may stay on the last rank (RULINGS 3.6)");
    if (!advanced)
      for (const BetzaText& b : pawn->betza)
        if (b.text.find('e') != std::string::npos)
          d.error(b.loc, "en passant needs the advanced game's position text (`royal-safe` or castling)",
                  "the text of a game without check has no en-passant square (RULINGS 3.6)");
  }
  c->hand_size = m.hand_size;
  Loc again_loc = at;
  bool keep = false, discard = false, reshuffle = false, again = false, redraw_when = false;
  for (const ConstructUse& u : m.constructs) {
    if (u.id == ConstructId::AgainNames) {
      again = true;
      again_loc = u.loc;
      c->again_own = u.has("own-pile");
      c->again_opponent = u.has("opponent-pile");
    }
    if (u.id == ConstructId::RedrawWhen) {
      redraw_when = true;
      c->redraw_alike = u.has("alike") ? static_cast<int>(u.arg("alike").num) : 0;
      c->redraw_no_move = u.has("no-move");
      if (!c->redraw)
        d.error(u.loc, "`redraw-when` needs `phase redraw optional` in the turn");
      else if (!c->redraw_alike && !c->redraw_no_move)
        d.error(u.loc, "`redraw-when` needs `alike N`, `no-move` or both");
    }
    if (u.id == ConstructId::EscapeDuty) {
      c->escape_duty = true;
      if (!m.royal_safe)
        d.error(u.loc, "`escape-duty` needs `royal-safe` (without check there is nothing to escape)");
    }
    if (u.id == ConstructId::Hand) keep = u.has("keep-order");
    if (u.id == ConstructId::Discard) discard = true;
    if (u.id == ConstructId::Reshuffle) reshuffle = u.has("when-empty");
  }
  if (m.hand_loc.src && !keep)
    d.error(m.hand_loc, "the card layer runs hands that `keep-order` (RULINGS 3.4)",
            "write `hand size " + std::to_string(m.hand_size) + " keep-order`");
  if (!discard) d.error(at, "a deck needs `discard own-pile`");
  if (c->rules.deck[kAgainKind] == 0 && again)
    d.error(again_loc, "`again` says what an Again card names, but the deck has no Again cards",
            "add `card again Again*N` or leave `again` out");
  if (c->rules.deck[kAgainKind] > 0 && again && !c->again_own && !c->again_opponent)
    d.error(again_loc, "`again` needs `own-pile`, `opponent-pile` or both");
  if (c->rules.deck[kAgainKind] > 0 && !again)
    d.error(at, "Again cards need `again own-pile`, `again opponent-pile` or both in the deck (RULINGS 3.5)");
  if (c->redraw && !redraw_when)
    d.error(m.turn_loc,
            "`phase redraw` needs `redraw-when alike N` and/or `redraw-when no-move` (RULINGS 3.4)");
  if (!reshuffle) d.error(at, "a deck needs `reshuffle discards when-empty` (RULINGS 3.3)");
  if (p.royal_type < 0) d.error(at, "a card ruleset needs a royal piece");
  if (const OptionDef* seed = m.option("seed")) {
    auto n = parse_integer(seed->value, 0, INT64_MAX);
    if (!n)
      d.error(seed->loc, "option `seed` must be a whole number");
    else
      c->seed = static_cast<uint64_t>(*n);
  }
  c->board = p.start_text;
  p.cards = c;
}

}  // namespace arb::lang
