// No Stress Chess's card zones in the encoding, in a model's position text, and in the
// check of a found position by the card engine.
#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "arbiter/chessme_text.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"
#include "synthesizer.hpp"

namespace arb::synth::detail {

// No Stress Chess, judged by the card engine: the goal, or (mate-in-1) an action of the
// mover (named `want`, or any) after which the opponent is checkmated (advanced) or has lost
// the king (levels 1-3); `found` receives its text.
bool verify_card_position(const std::shared_ptr<const Program>& p, const std::string& text, Goal goal,
                          const std::string& want, std::string* found) {
  auto e = lang::make_compiled_engine(p);
  try {
    e->set_position(text);
  } catch (const PositionError&) {
    return false;
  }
  Status st = e->status();
  switch (goal) {
    case Goal::InCheck:
      return st.in_check;
    case Goal::Checkmated:
      return st.end == Termination::Checkmate;
    case Goal::Stalemated:
      return st.end == Termination::Stalemate;
    case Goal::NoLegalMove:
      return st.end == Termination::Checkmate || st.end == Termination::Stalemate;
    case Goal::MateIn1: {
      std::vector<Action> acts;
      e->legal_actions(acts);
      const Result win = e->side_to_move() == Color::White ? Result::WhiteWins : Result::BlackWins;
      const bool advanced = p->cards->level == "advanced";
      for (const Action& a : acts) {
        std::string t = uci(e->describe(a), e->chess960());
        if (!want.empty() && t != want) continue;
        e->apply(a);
        Status after = e->status();
        e->undo();
        if (after.result == win &&
            after.end == (advanced ? Termination::Checkmate : Termination::RoyalCapture)) {
          if (found) *found = t;
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

void Synth::card_hands() {
  const int H = cards_->hand_size, them = us_ ^ 1;
  constexpr int kAgain = 6;  // index of 'A' in PNBRQKA
  std::array<int, 7> deck{};
  for (char ch : cards_->deck)
    if (int k = nostress_card_index(ch); k >= 0) ++deck[k];
  std::string given[2];
  for (char ch : r_.hands) {
    if (ch == '-' || ch == '/' || ch == ' ') continue;
    char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (nostress_card_index(up) < 0)
      throw std::invalid_argument(std::string("--hands: no card `") + ch + "` (P N B R Q K A)");
    given[std::islower(static_cast<unsigned char>(ch)) ? 1 : 0].push_back(up);
  }
  if (!given[them].empty() && static_cast<int>(given[them].size()) != H)
    throw std::invalid_argument("--hands: the side not to move holds exactly " + std::to_string(H) +
                                " cards at level " + cards_->level);
  if (!given[us_].empty() && static_cast<int>(given[us_].size()) != H + 1)
    throw std::invalid_argument("--hands: the side to move has drawn and holds exactly " +
                                std::to_string(H + 1) + " cards at level " + cards_->level);
  card_hand_[them] = given[them];
  card_hand_[us_] = given[us_];
  std::array<int, 7> known{};
  for (int c = 0; c < 2; ++c) {
    for (char ch : given[c]) ++known[nostress_card_index(ch)];
    if (!r_.discard[c]) continue;
    for (char ch : *r_.discard[c]) {
      int k = nostress_card_index(ch);
      if (k < 0) throw std::invalid_argument(std::string("--discard: no card `") + ch + "` (P N B R Q K A)");
      ++known[k];
    }
    disc_[c] = *r_.discard[c];
    disc_given_[c] = true;
  }
  for (int k = 0; k < 7; ++k)
    if (known[k] > deck[k])
      throw std::invalid_argument(std::string("--hands and --discard hold ") + std::to_string(known[k]) +
                                  " " + kNoStressCardKinds[k] + " cards; the deck has " +
                                  std::to_string(deck[k]) + " (RULINGS 3.2)");
  // The mover's hand: copies_[k][i] holds when it has more than i cards of kind k.
  std::array<z3::expr, 7> holds{ctx_.bool_val(false), ctx_.bool_val(false), ctx_.bool_val(false),
                                ctx_.bool_val(false), ctx_.bool_val(false), ctx_.bool_val(false),
                                ctx_.bool_val(false)};
  std::vector<z3::expr_vector> per_kind;  // [k]: the known-zone cards of kind k Z3 chooses
  for (int k = 0; k < 7; ++k) per_kind.emplace_back(ctx_);
  if (!given[us_].empty()) {
    for (int k = 0; k < 7; ++k)
      holds[k] = ctx_.bool_val(given[us_].find(kNoStressCardKinds[k]) != std::string::npos);
  } else {
    z3::expr_vector all(ctx_);
    for (int k = 0; k < 7; ++k) {
      for (int i = 0; i <= H; ++i) {
        z3::expr v =
            ctx_.bool_const(("hand_" + std::string(1, kNoStressCardKinds[k]) + std::to_string(i)).c_str());
        if (i > 0) solver_.add(z3::implies(v, copies_[k].back()));
        copies_[k].push_back(v);
        all.push_back(v);
        per_kind[k].push_back(v);
      }
      holds[k] = copies_[k][0];
      card_vars_.push_back(holds[k]);
    }
    solver_.add(z3::atleast(all, H + 1));
    solver_.add(z3::atmost(all, H + 1));
  }
  // The discard piles' newest piece cards: top_[c][t] names piece type t.
  // (Only a mate-in-1 reads the mover's cards: checkmate and stalemate are judged whatever
  // the cards, RULINGS 3.7.)
  const bool may_again =
      r_.goal == Goal::MateIn1 &&
      (given[us_].empty() ? deck[kAgain] - known[kAgain] > 0 : given[us_].find('A') != std::string::npos);
  for (int c = 0; c < 2; ++c) {
    char newest = 0;
    for (size_t i = disc_[c].size(); i-- > 0;)
      if (disc_[c][i] != 'A') {
        newest = disc_[c][i];
        break;
      }
    z3::expr_vector chosen(ctx_);
    for (int t = 0; t < g_.nt; ++t) {
      int k = nostress_card_index(g_.letters[t]);
      const bool read = c == us_ ? cards_->again_own : cards_->again_opponent;
      if (disc_given_[c] || !may_again || !read || k < 0 || k == kAgain) {
        top_[c].push_back(ctx_.bool_val(disc_given_[c] && k >= 0 && newest == g_.letters[t]));
        continue;
      }
      z3::expr v = ctx_.bool_const(((c ? "btop_" : "wtop_") + std::string(1, g_.letters[t])).c_str());
      top_[c].push_back(v);
      chosen.push_back(v);
      card_vars_.push_back(v);
      per_kind[k].push_back(v);
      // A chosen pile is empty unless an Again card in hand reads it.
      solver_.add(z3::implies(v, holds[kAgain]));
    }
    if (!chosen.empty()) {
      solver_.add(z3::atmost(chosen, 1));
      disc_chosen_[c] = true;
    }
  }
  for (int k = 0; k < 7; ++k)
    if (!per_kind[k].empty()) solver_.add(z3::atmost(per_kind[k], deck[k] - known[k]));
  for (int t = 0; t < g_.nt; ++t) {
    int k = nostress_card_index(g_.letters[t]);
    std::vector<z3::expr> named;
    if (k >= 0 && k != kAgain) named.push_back(holds[k]);
    std::vector<z3::expr> piles;
    if (cards_->again_own) piles.push_back(top_[us_][t]);
    if (cards_->again_opponent) piles.push_back(top_[them][t]);
    named.push_back(enc_->L.all({holds[kAgain], enc_->L.any(piles)}));
    card_.push_back(enc_->L.any(named));
  }
  // What an unsat answer quantified over.
  std::vector<std::string> scope;
  if (given[us_].empty() && r_.goal == Goal::MateIn1)
    scope.push_back("every " + std::to_string(H + 1) + "-card hand of " + (us_ ? "Black" : "White"));
  if (disc_chosen_[0] || disc_chosen_[1]) {
    std::string who = disc_chosen_[0] && disc_chosen_[1] ? "White and Black"
                      : disc_chosen_[0]                  ? "White"
                                                         : "Black";
    scope.push_back("every discard pile of " + who + " (an Again card reads only the newest piece card)");
  }
  for (size_t i = 0; i < scope.size(); ++i) out_.scope += (i ? ", " : "") + scope[i];
}

std::string Synth::card_fields(const z3::model& m) {
  const int H = cards_->hand_size, them = us_ ^ 1;
  std::string hand[2], disc[2];
  hand[them] = card_hand_[them];
  hand[us_] = card_hand_[us_];
  if (hand[us_].empty())
    for (int k = 0; k < 7; ++k)
      for (const z3::expr& v : copies_[k])
        if (on(m, v)) hand[us_].push_back(kNoStressCardKinds[k]);
  for (int c = 0; c < 2; ++c) {
    disc[c] = disc_[c];
    if (disc_chosen_[c])
      for (int t = 0; t < g_.nt; ++t)
        if (on(m, top_[c][t])) disc[c].push_back(g_.letters[t]);
  }
  int known = static_cast<int>(hand[0].size() + hand[1].size() + disc[0].size() + disc[1].size());
  int pile = static_cast<int>(cards_->deck.size()) - known - (hand[them].empty() ? H : 0);
  auto zone = [](const std::string& known_cards, int unknown) {
    std::string z = known_cards;
    if (unknown > 0) z += "?" + std::to_string(unknown);
    return z.empty() ? std::string("-") : z;
  };
  return " level:" + cards_->level + " pile:" + zone("", pile) + " wdiscard:" + zone(disc[0], 0) +
         " bdiscard:" + zone(disc[1], 0) + " whand:" + zone(hand[0], hand[0].empty() && them == 0 ? H : 0) +
         " bhand:" + zone(hand[1], hand[1].empty() && them == 1 ? H : 0);
}

bool Synth::verify_cards(const std::string& text, std::string& move) {
  return verify_card_position(p_, text, r_.goal, "", &move);
}

}  // namespace arb::synth::detail
