// Tests of the No Stress Chess position text (engine/include/arbiter/nostress_text.hpp) and
// of the hand-written reference engine (checker/reference/nostress): one hand-derived
// position per ruling of RULINGS.md section 3, text round trips, perft from the start of
// each level, and random playouts through apply/undo.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"
#include "reference.hpp"

namespace {

using arb::Action;
using arb::Engine;

std::unique_ptr<Engine> engine(const std::string& level, const std::string& seed = "1") {
  return arb::ref::make_nostress_engine({{"level", level}, {"seed", seed}});
}

#define NOSTRESS_PREFIX NoStress
#include "nostress_rulings.inc"

size_t error_column(const std::string& t) {
  try {
    arb::parse_nostress(t);
  } catch (const arb::PositionError& e) {
    return e.column;
  }
  ADD_FAILURE() << "accepted: " << t;
  return static_cast<size_t>(-1);
}

// ---------------------------------------------------------------------------------------
// The position text.

TEST(NoStressText, ShuffleIsASeededPermutation) {
  std::string deck = arb::nostress_deck();
  ASSERT_EQ(deck.size(), 56u);
  EXPECT_EQ(deck.substr(0, 12), "PPPPPPPPPPPN");
  std::string a = arb::shuffle_cards(deck, 1), b = arb::shuffle_cards(deck, 1),
              c = arb::shuffle_cards(deck, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::string sa = a, sd = deck;
  std::sort(sa.begin(), sa.end());
  std::sort(sd.begin(), sd.end());
  EXPECT_EQ(sa, sd);
  // The spec's Fisher-Yates, step by step, for a short sequence: state = 5, i = 2 then 1.
  uint64_t state = 5;
  auto next = [&state]() {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  std::string s = "PNB";
  std::swap(s[2], s[next() % 3]);
  std::swap(s[1], s[next() % 2]);
  EXPECT_EQ(arb::shuffle_cards("PNB", 5), s);
}

TEST(NoStressText, StartDealsAlternatelyWhiteFirst) {
  std::string deck = arb::shuffle_cards(arb::nostress_deck(), 1);
  arb::NoStressPosition p = arb::nostress_start_position(arb::NoStressLevel::Three, true, 1);
  std::string white_cards = {deck[0], deck[2], deck[4], deck[6], deck[8]};
  std::string black_cards = {deck[1], deck[3], deck[5], deck[7], deck[9]};
  EXPECT_EQ(p.hand[0].known, white_cards);
  EXPECT_EQ(p.hand[1].known, black_cards);
  EXPECT_EQ(p.pile.known, deck.substr(10));
  EXPECT_EQ(p.reshuffle_seed, 2u);
  EXPECT_EQ(arb::format_nostress(p),
            "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3 pile:" + deck.substr(10) +
                " wdiscard:- bdiscard:- whand:PQKNR bhand:QBPKK reshuffle:2");
  arb::NoStressPosition p1 = arb::nostress_start_position(arb::NoStressLevel::One, false, 1);
  EXPECT_EQ(arb::format_nostress(p1), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 level:1 pile:" +
                                          deck + " wdiscard:- bdiscard:- whand:- bhand:- reshuffle:2");
  arb::NoStressPosition pa = arb::nostress_start_position(arb::NoStressLevel::Advanced, true, 1);
  EXPECT_EQ(pa.board.castling, "KQkq");
}

TEST(NoStressText, RoundTrips) {
  std::vector<std::string> texts;
  for (auto level : {arb::NoStressLevel::One, arb::NoStressLevel::Two, arb::NoStressLevel::Three,
                     arb::NoStressLevel::Advanced})
    for (uint64_t seed : {1u, 2u, 99u})
      for (bool adv : {true, false})
        texts.push_back(arb::format_nostress(arb::nostress_start_position(level, adv, seed)));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 w - - 3 7", "2", "PN*", "RA", "B", "QQK", "?3"));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 b - - 0 1", "3", "*", "", "", "PN?3", "RRQQR",
                       "reshuffle:18446744073709551615"));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "*", "PPP", "", "N", "BBB", "pending:2"));
  texts.push_back(text("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "advanced", "*", "", "", "KQRBN", "KQRBN"));
  texts.push_back(text("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "advanced", "*", "", "", "PQRBN", "KQRBN"));
  texts.push_back(text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "1", "", "PPPPPPPPPPPNNNNNNNNBBBBBBBB",
                       "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA", "", ""));
  texts.push_back(text("4k3/8/8/8/8/8/8/8 w - - 0 1", "1", "*", "Q", "", "", ""));  // royal capture done
  for (const std::string& t : texts) {
    arb::NoStressPosition p = arb::parse_nostress(t);
    EXPECT_EQ(arb::format_nostress(p), t);
    EXPECT_TRUE(arb::parse_nostress(arb::format_nostress(p)) == p) << t;
  }
  // Blanks between and around fields are free; the output is canonical.
  std::string t = texts[0];
  std::string spaced = "  " + t + "\t ";
  spaced.insert(spaced.find(" level"), "\t ");
  EXPECT_EQ(arb::format_nostress(arb::parse_nostress(spaced)), t);
}

// A deck and hand other than No Stress Chess's: totals, kind counts and hand sizes follow
// the CardRules, the grammar stays.
TEST(NoStressText, CardRulesDriveDeckAndHands) {
  arb::CardRules plain;
  plain.deck = {12, 8, 8, 8, 8, 6, 0};  // 50 cards, no Again
  plain.hand_size = 4;
  EXPECT_EQ(plain.deck_size(), 50);
  EXPECT_EQ(arb::nostress_deck(plain), std::string(12, 'P') + std::string(8, 'N') + std::string(8, 'B') +
                                           std::string(8, 'R') + std::string(8, 'Q') + std::string(6, 'K'));
  std::string deck = arb::shuffle_cards(arb::nostress_deck(plain), 5);
  arb::NoStressPosition p = arb::nostress_start_position(arb::NoStressLevel::Three, true, 5, plain);
  EXPECT_EQ(p.hand[0].known, (std::string{deck[0], deck[2], deck[4], deck[6]}));
  EXPECT_EQ(p.hand[1].known, (std::string{deck[1], deck[3], deck[5], deck[7]}));
  EXPECT_EQ(p.pile.known, deck.substr(8));
  std::string t = arb::format_nostress(p);
  EXPECT_TRUE(arb::parse_nostress(t, plain) == p);
  EXPECT_EQ(arb::format_nostress(arb::parse_nostress(t, plain)), t);
  // Against the default rules the same text is 50 cards and hands of 4: refused.
  EXPECT_THROW(arb::parse_nostress(t), arb::PositionError);
  // An Again card is not in this deck; an unknown pool of 50 is.
  const std::string board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_THROW(
      arb::parse_nostress(board + " level:3 pile:A?41 wdiscard:- bdiscard:- whand:PPPP bhand:PPPP", plain),
      arb::PositionError);
  EXPECT_NO_THROW(
      arb::parse_nostress(board + " level:3 pile:?42 wdiscard:- bdiscard:- whand:PPPP bhand:?4", plain));
  // hand size 5 at level 2 reads as level 3 does.
  arb::CardRules five;
  five.hand_size = 5;
  EXPECT_EQ(
      arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Two, true, 3, five))
          .substr(0, 60),
      arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 3)).substr(0, 60));
  EXPECT_EQ(arb::nostress_start_position(arb::NoStressLevel::Two, true, 3, five).hand[0],
            arb::nostress_start_position(arb::NoStressLevel::Three, true, 3).hand[0]);
  // Hand 0 (turn the top card) at level 3.
  arb::CardRules turn;
  turn.hand_size = 0;
  EXPECT_NO_THROW(
      arb::parse_nostress(board + " level:3 pile:?55 wdiscard:- bdiscard:- whand:P bhand:-", turn));
  EXPECT_THROW(arb::parse_nostress(board + " level:3 pile:?55 wdiscard:- bdiscard:- whand:P bhand:-"),
               arb::PositionError);
  // Bounds are checked.
  arb::CardRules bad;
  bad.hand_size = 9;
  EXPECT_THROW(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1, bad), std::invalid_argument);
  bad.hand_size = 5;
  bad.deck = {5, 0, 0, 0, 0, 0, 0};
  EXPECT_THROW(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1, bad), std::invalid_argument);
  try {
    arb::parse_nostress(board + " level:3 pile:?5 wdiscard:- bdiscard:- whand:- bhand:-", bad);
    ADD_FAILURE() << "accepted a deck too small for its hands";
  } catch (const arb::PositionError& e) {
    EXPECT_EQ(e.column, board.size() + 7);  // the level's value
  }
}

TEST(NoStressText, RejectsWithColumns) {
  const std::string board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const size_t after = board.size() + 1;  // column of "level:"
  // Unknown letter in the pile: the column of the letter.
  std::string t = text(board, "2", "PX*", "", "", "QQQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("PX") + 1);
  // Seven Again cards: the column of the seventh.
  t = text(board, "2", "AAAAAAA*", "", "", "QQQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("pile:") + 5 + 6);
  // 55 cards in all.
  t = board + " level:2 pile:?49 wdiscard:- bdiscard:- whand:QQQ bhand:RRR";
  EXPECT_EQ(error_column(t), t.find("pile:"));
  // A hand too large for level 2 (the side not to move must hold exactly 3).
  t = text(board, "2", "*", "", "", "QQQ", "RRRR");
  EXPECT_EQ(error_column(t), t.find("bhand:") + 6);
  // The side to move may hold 3 or 4 at level 2, not 2.
  t = text(board, "2", "*", "", "", "QQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("whand:") + 6);
  // Discard piles are face up.
  t = text(board, "2", "*", "?3", "", "QQQ", "RRR");
  EXPECT_EQ(error_column(t), t.find("wdiscard:") + 9);
  // Castling does not exist at level 3.
  t = text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "3", "*", "", "", "QQQQQ", "RRRRR");
  EXPECT_EQ(error_column(t), t.find("KQkq"));
  // Pending draws with a known top card.
  t = text(board, "2", "P*", "", "", "Q", "RRR", "pending:2");
  EXPECT_EQ(error_column(t), t.find("pile:") + 5);
  // Pending larger than the hand.
  t = text(board, "2", "*", "", "", "-", "RRR", "pending:4");
  EXPECT_EQ(error_column(t), t.find("pending:") + 8);
  // Bad level, missing field, field order, trailing text.
  t = board + " level:4 pile:?50 wdiscard:- bdiscard:- whand:QQQ bhand:RRR";
  EXPECT_EQ(error_column(t), after + 6);
  t = board + " level:2 pile:?50 wdiscard:- bdiscard:- whand:QQQ";
  EXPECT_EQ(error_column(t), t.size());
  t = text(board, "2", "*", "", "", "QQQ", "RRR", "pending:1 reshuffle:3");
  EXPECT_EQ(error_column(t), t.find("reshuffle"));
  t = text(board, "2", "*", "", "", "QQQ", "RRR", "x");
  EXPECT_EQ(error_column(t), t.size() - 1);
  // The side not to move has no king.
  t = text("8/8/8/8/8/8/8/4K3 w - - 0 1", "1", "*", "", "", "", "");
  EXPECT_EQ(error_column(t), 0u);
  // A White pawn on rank 1; a pawn on rank 8 at the advanced level.
  t = text("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "1", "*", "", "", "", "");
  EXPECT_EQ(error_column(t), 0u);
  t = text("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "advanced", "*", "", "", "QQQQQ", "RRRRR");
  EXPECT_EQ(error_column(t), 0u);
  // A bad FEN keeps parse_fen's column.
  t = text("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "1", "*", "", "", "", "");
  EXPECT_EQ(error_column(t), 20u);
}

// ---------------------------------------------------------------------------------------
// Options and configuration.

TEST(NoStressEngine, OptionsAndConfig) {
  auto e = arb::ref::make_reference_engine("nostress");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->name(), "reference:nostress");
  arb::GameConfig c = e->config();
  EXPECT_EQ(c.variant, "nostress");
  std::vector<std::pair<std::string, std::string>> want = {
      {"level", "3"}, {"seed", "1"}, {"setup-advanced-pawns", "true"}};
  EXPECT_EQ(c.options, want);
  EXPECT_EQ(e->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1)));
  auto f = arb::ref::make_reference_engine(
      "nostress", {{"level", "advanced"}, {"setup-advanced-pawns", "false"}, {"seed", "7"}});
  EXPECT_EQ(f->config().value("level"), "advanced");
  EXPECT_EQ(f->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Advanced, false, 7)));
  f->set_position("start:9");
  EXPECT_EQ(f->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Advanced, false, 9)));
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"level", "4"}}), std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"seed", "-1"}}), std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"setup-advanced-pawns", "yes"}}),
               std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("nostress", {{"hand", "5"}}), std::invalid_argument);
  EXPECT_THROW(arb::ref::make_reference_engine("chess", {{"level", "1"}}), std::invalid_argument);
  EXPECT_NE(arb::ref::make_reference_engine("chess"), nullptr);
  EXPECT_EQ(arb::ref::make_reference_engine("nosuch"), nullptr);
  // A text of another level is refused.
  auto g = engine("2");
  EXPECT_THROW(
      g->set_position(arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1))),
      arb::PositionError);
  EXPECT_THROW(g->set_position("start:x"), arb::PositionError);
}

// ---------------------------------------------------------------------------------------
// Random playouts: apply/undo restore position and hash; every position text reloads to the
// same position, hash and actions; chance weights sum to 1.

// What the playouts met, to show that they reach reshuffles, pending draws and the end.

TEST(NoStressPlayout, ApplyUndoRestores) {
  for (const char* level : {"1", "2", "3", "advanced"}) {
    for (uint64_t s = 1; s <= 6; ++s) {
      playout(level, "start:" + std::to_string(s), s, 400);
      playout(level, hidden_start(level, s), s * 31, 400);
    }
  }
  std::printf("playouts met %d reshuffles, %d pending draws, %d chance nodes, %d decided games\n",
              seen.reshuffles, seen.pending, seen.chance, seen.decided);
  EXPECT_GT(seen.reshuffles, 0);
  EXPECT_GT(seen.pending, 0);
  EXPECT_GT(seen.decided, 0);
}

TEST(NoStressPlayout, HashSeparatesCardStates) {
  // Same board and side, different hands: different hashes.
  auto a = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PPB", "QQQ"));
  auto b = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PBP", "QQQ"));
  auto c = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PPB", "QQQ", "reshuffle:1"));
  EXPECT_NE(a->hash(), b->hash());
  EXPECT_NE(a->hash(), c->hash());
}

}  // namespace
