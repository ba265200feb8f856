// The compile step of the card layer: a model with a `deck` becomes Program::cards. The
// layer runs No Stress Chess's turn (RULINGS 3.3-3.5): `phase draw-card`, `phase
// play-card`, optionally `phase redraw`, over a shared deck whose position text is
// arbiter/nostress_text.hpp's; anything else a ruleset states about cards is a located
// error here, never ignored.
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

  // The deck: the card letters must be piece letters of the ruleset, or Again.
  for (char l : m.deck)
    if (l != 'A' && !m.piece(l)) {
      d.error(at, std::string("card letter `") + l + "` names no piece of this ruleset");
      break;
    }
  // The position text is No Stress Chess's: its deck, hands and levels.
  std::string want = nostress_deck(), have = m.deck;
  std::sort(want.begin(), want.end());
  std::sort(have.begin(), have.end());
  if (have != want)
    d.error(at, "the card layer runs the 56-card No Stress Chess deck (P*11 N*8 B*8 R*8 Q*8 K*7 Again*6)",
            "its position text (arbiter/nostress_text.hpp) holds exactly that deck");
  const OptionDef* level = m.option("level");
  std::optional<NoStressLevel> lv = level ? parse_nostress_level(level->value) : std::nullopt;
  if (!lv) {
    d.error(level ? level->loc : at,
            "a card ruleset needs `option level` with a value of 1, 2, 3 or advanced",
            "the position text's `level:` field comes from it");
  } else {
    c->level = level->value;
    if (!m.hand_loc.src)
      d.error(at, "a card ruleset needs `hand size N keep-order`");
    else if (m.hand_size != nostress_hand_size(*lv) || m.hand_draw != m.hand_size)
      d.error(m.hand_loc,
              "level " + level->value + " holds hands of " + std::to_string(nostress_hand_size(*lv)) +
                  " cards, not " + std::to_string(m.hand_size),
              "state the hand per level with `when level = ... { hand size N keep-order }`");
    if (c->redraw && m.hand_size == 0) d.error(ph[2].loc, "`phase redraw` needs a hand (level 1 has none)");
    if (!c->redraw && m.hand_size > 0)
      d.error(m.turn_loc, "hands of cards need `phase redraw optional` (RULINGS 3.4)");
    // Castling and en passant exist only at the advanced level (the text refuses them).
    if (*lv != NoStressLevel::Advanced && m.castling)
      d.error(m.castling_loc, "castling is part of the advanced game only; the position text of level " +
                                  level->value + " has none");
    if ((*lv == NoStressLevel::Advanced) != m.royal_safe)
      d.error(m.name_loc, "the advanced game, and only it, has `legal { royal-safe }` (RULINGS 3.6, 3.7)");
  }
  c->hand_size = m.hand_size;
  bool keep = false, discard = false, reshuffle = false, again = false, redraw_when = false;
  for (const ConstructUse& u : m.constructs) {
    if (u.id == ConstructId::AgainNames) {
      again = true;
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
    d.error(m.hand_loc, "the card layer runs hands that `keep-order` (RULINGS 3.4)");
  if (!discard) d.error(at, "a deck needs `discard own-pile`");
  if (m.deck.find('A') != std::string::npos && !again)
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
