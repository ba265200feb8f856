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

// ---------------------------------------------------------------------------------------
// A designer's deck and hand: the options `deck` and `hand-size`.

std::unique_ptr<Engine> engine_with(std::map<std::string, std::string> options) {
  return arb::ref::make_nostress_engine(options);
}

TEST(NoStressCardOptions, ParsedCheckedAndNamedInConfig) {
  auto e = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}});
  std::vector<std::pair<std::string, std::string>> want = {{"deck", "P12N8B8R8Q8K6"},
                                                           {"hand-size", "4"},
                                                           {"level", "3"},
                                                           {"seed", "1"},
                                                           {"setup-advanced-pawns", "true"}};
  EXPECT_EQ(e->config().options, want);
  arb::CardRules plain;
  plain.deck = {12, 8, 8, 8, 8, 6, 0};
  plain.hand_size = 4;
  EXPECT_EQ(e->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1, plain)));
  // Any order of kinds; the config writes P N B R Q K A order, zero counts left out.
  EXPECT_EQ(engine_with({{"deck", "A2K0P30"}})->config().value("deck"), "P30A2");
  // The default deck written out plays exactly as no option.
  auto d = engine_with({{"deck", "P11N8B8R8Q8K7A6"}, {"seed", "3"}});
  EXPECT_EQ(d->position(), engine("3", "3")->position());
  EXPECT_EQ(d->perft(2), engine("3", "3")->perft(2));
  // Bad values are refused with the option's name in the message.
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"deck", ""},
                                                        {"deck", "P11X3"},
                                                        {"deck", "P11P3"},
                                                        {"deck", "P"},
                                                        {"deck", "P100"},
                                                        {"deck", "11P"},
                                                        {"deck", "P0"},
                                                        {"deck", "P10"},  // two hands of 5 and a draw need 11
                                                        {"hand-size", "9"},
                                                        {"hand-size", "-1"},
                                                        {"hand-size", ""},
                                                        {"hand-size", "x"}}) {
    try {
      engine_with({{key, value}});
      ADD_FAILURE() << "accepted " << key << "=" << value;
    } catch (const std::invalid_argument& err) {
      EXPECT_NE(std::string(err.what()).find(key), std::string::npos) << err.what();
    }
  }
  EXPECT_NO_THROW(engine_with({{"deck", "P11"}}));
  EXPECT_EQ(engine_with({{"deck", "P011N08B8R8Q8K7A006"}})->position(), engine("3")->position());
  EXPECT_NO_THROW(engine_with({{"deck", "P3"}, {"hand-size", "1"}}));
  // The text is read against the engine's cards: No Stress Chess's 56-card start is not a
  // position of the 50-card deck.
  EXPECT_THROW(e->set_position(engine("3")->position()), arb::PositionError);
}

// RULINGS 3.4: the hand is the only difference between levels 2 and 3, so level 2 with
// hands of 5 plays as level 3, and level 1's play is a hand of 0 at any level.
TEST(NoStressCardOptions, HandSizeFiveAtLevelTwoIsLevelThree) {
  for (const char* pawns : {"true", "false"})
    for (int seed = 1; seed <= 4; ++seed) {
      auto two = engine_with({{"level", "2"},
                              {"hand-size", "5"},
                              {"seed", std::to_string(seed)},
                              {"setup-advanced-pawns", pawns}});
      auto three =
          engine_with({{"level", "3"}, {"seed", std::to_string(seed)}, {"setup-advanced-pawns", pawns}});
      // The texts differ in the level field only.
      std::string a = two->position(), b = three->position();
      ASSERT_NE(a.find("level:2"), std::string::npos);
      a.replace(a.find("level:2"), 7, "level:3");
      EXPECT_EQ(a, b);
      uint64_t n = three->perft(3);
      EXPECT_EQ(two->perft(3), n) << "seed " << seed << " advanced pawns " << pawns;
      EXPECT_GT(n, 1000u);
      // The option is read: level 2's own hands of 3 give another count.
      auto own =
          engine_with({{"level", "2"}, {"seed", std::to_string(seed)}, {"setup-advanced-pawns", pawns}});
      EXPECT_NE(own->perft(3), n);
    }
}

TEST(NoStressCardOptions, HandSizeZeroIsLevelOnePlay) {
  for (const char* seed : {"1", "2", "3"}) {
    auto one = engine("1", seed);
    auto three = engine_with({{"level", "3"}, {"hand-size", "0"}, {"seed", seed}});
    EXPECT_EQ(three->perft(3), one->perft(3)) << "seed " << seed;
    // Hands of 3 at level 1 allow the redraw: level 2's play.
    auto one3 = engine_with({{"level", "1"}, {"hand-size", "3"}, {"seed", seed}});
    EXPECT_EQ(one3->perft(3), engine("2", seed)->perft(3)) << "seed " << seed;
  }
  // A hand of 0 has no redraw: the turned card only.
  auto e = engine_with({{"level", "2"}, {"hand-size", "0"}});
  for (const std::string& t : legal(*e)) EXPECT_NE(t, "redraw");
  EXPECT_EQ(e->perft(1), 13u);  // seed 1 turns a Pawn, as level 1 does (FromTheStart)
}

// Level 2 with hands of 5 and level 3 along random games, from the start and from a start
// whose pile is hidden (every draw a chance node): the same action texts at every step, the
// same chance weights, and positions equal but for the level field.
TEST(NoStressCardOptions, LevelTwoWithHandsOfFivePlaysAsLevelThree) {
  auto same_text = [](std::string a) {
    size_t at = a.find("level:2");
    if (at != std::string::npos) a.replace(at, 7, "level:3");
    return a;
  };
  int turns = 0, chance = 0, redraws = 0;
  for (uint64_t game = 1; game <= 8; ++game) {
    auto two = engine_with({{"level", "2"}, {"hand-size", "5"}});
    auto three = engine("3");
    if (game % 2 == 0) {
      arb::CardRules five;
      five.hand_size = 5;
      arb::NoStressPosition p = arb::nostress_start_position(arb::NoStressLevel::Two, true, game, five);
      p.pile.unknown = p.pile.size();
      p.pile.known.clear();
      p.reshuffle_seed.reset();
      two->set_position(arb::format_nostress(p));
      three->set_position(same_text(arb::format_nostress(p)));
    } else {
      two->set_position("start:" + std::to_string(game));
      three->set_position("start:" + std::to_string(game));
    }
    std::mt19937_64 rng(game);
    for (int i = 0; i < 300 && three->status().result == arb::Result::Ongoing; ++i, ++turns) {
      ASSERT_EQ(same_text(two->position()), three->position());
      ASSERT_EQ(two->chance(), three->chance());
      std::vector<std::string> l2 = legal(*two), l3 = legal(*three);
      ASSERT_EQ(l2, l3) << three->position();
      ASSERT_FALSE(l3.empty());
      if (three->chance()) {
        ++chance;
        std::vector<arb::ChanceOutcome> o2, o3;
        two->chance_outcomes(o2);
        three->chance_outcomes(o3);
        ASSERT_EQ(o2.size(), o3.size());
        for (size_t k = 0; k < o3.size(); ++k) EXPECT_DOUBLE_EQ(o2[k].weight, o3[k].weight);
      }
      const std::string& pick = l3[rng() % l3.size()];
      if (pick == "redraw") ++redraws;
      play(*two, pick);
      play(*three, pick);
    }
    EXPECT_EQ(two->status().result, three->status().result);
  }
  std::printf("level 2 hand 5 vs level 3: %d turns, %d chance nodes, %d redraws\n", turns, chance, redraws);
  EXPECT_GT(chance, 0);
  EXPECT_GT(redraws, 0);
}

// A designer's deck without Again cards (12 P, 8 N, 8 B, 8 R, 8 Q, 6 K: 50 cards) and hands
// of 4 at level 3, seed 5. The start, by nostress_start_position:
//   rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3
//   pile:RNPBNPQBPKNPQNQKRPBQPRBKPQPPPQNKNRQQKRBBPN wdiscard:- bdiscard:- whand:RPNR
//   bhand:KBRB reshuffle:6
// perft 1. White draws the top R: hand R P N R R.
//   P: a2 b2 c2 f2 g2 h2 step one or two (12), e3-e4 (1), d4 is blocked by d5: 13.
//   N: b1-a3 c3 d2, g1-e2 f3 h3: 6.
//   R: both rooks are shut in: one pass.
//   Three R cards: the redraw (RULINGS 3.9 counts it as one action).
//   13 + 6 + 1 + 1 = 21.
// perft 2. Black holds K B R B.
//   After one of White's 19 moves Black draws N: K B R B N.
//     K: e8-d7 e7 (2). B: c8-d7 (1); f8-e7 d6 c5 b4 a3 (5; a knight on a3 is captured
//     there), but after b2-b4 the pawn on b4 ends the line: 4. R: a pass (1). N: b8-a6 c6
//     d7, g8-e7 f6 h6 (6). No three alike and moves exist: no redraw. 15, or 14 after
//     b2-b4: 18 * 15 + 14 = 284.
//   After White's pass (R played, hand P N R R) Black draws N on the same board: 15.
//   After White's redraw (R P N R R discarded, N P B N drawn) Black draws P: K B R B P.
//     K 2, B 6, R pass 1, P: a7 b7 c7 f7 g7 h7 one or two (12), e6-e5 (1), d5 blocked
//     (13): 22.
//   284 + 15 + 22 = 321.
TEST(NoStressCardOptions, DeckWithoutAgainHandOfFourPerftByHand) {
  auto e = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}, {"seed", "5"}});
  EXPECT_EQ(e->position(),
            "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3 "
            "pile:RNPBNPQBPKNPQNQKRPBQPRBKPQPPPQNKNRQQKRBBPN wdiscard:- bdiscard:- whand:RPNR bhand:KBRB "
            "reshuffle:6");
  std::vector<std::string> want = {"N:b1a3", "N:b1c3", "N:b1d2", "N:g1e2", "N:g1f3", "N:g1h3", "P:a2a3",
                                   "P:a2a4", "P:b2b3", "P:b2b4", "P:c2c3", "P:c2c4", "P:e3e4", "P:f2f3",
                                   "P:f2f4", "P:g2g3", "P:g2g4", "P:h2h3", "P:h2h4", "R:pass", "redraw"};
  EXPECT_EQ(legal(*e), sorted(want));
  EXPECT_EQ(e->perft(1), 21u);
  EXPECT_EQ(e->perft(2), 321u);
  play(*e, "redraw");
  EXPECT_EQ(field(e->position(), "whand"), "NPBN");
  EXPECT_EQ(field(e->position(), "wdiscard"), "RPNRR");
  EXPECT_EQ(e->perft(1), 22u);
  // With No Stress Chess's deck the same seed deals other cards: the option is read.
  EXPECT_NE(engine_with({{"hand-size", "4"}, {"seed", "5"}})->position(), e->position());
  // The unknown pool is the designer's deck: no Again outcome, weights by its counts.
  auto h = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}});
  h->set_position(
      "4k3/8/8/8/8/8/8/4K3 w - - 0 1 level:3 pile:?42 wdiscard:- bdiscard:- whand:PPPP bhand:QQQQ");
  ASSERT_TRUE(h->chance());
  std::vector<arb::ChanceOutcome> out;
  h->chance_outcomes(out);
  std::vector<std::string> kinds;
  for (const auto& o : out) kinds.push_back(h->describe(o.action).steps.at(0).drawn);
  EXPECT_EQ(kinds, (std::vector<std::string>{"P", "N", "B", "R", "Q", "K"}));
  EXPECT_DOUBLE_EQ(out[0].weight, 8.0 / 42);  // 12 P less the 4 in White's hand
  EXPECT_DOUBLE_EQ(out[4].weight, 4.0 / 42);  // 8 Q less Black's 4
  EXPECT_DOUBLE_EQ(out[5].weight, 6.0 / 42);
}

// Random games with the designer's deck reach reshuffles and keep apply/undo and the text
// exact (the playouts above, on other cards).
TEST(NoStressCardOptions, DesignerDeckPlayouts) {
  for (uint64_t s = 1; s <= 4; ++s) {
    auto e = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}, {"seed", std::to_string(s)}});
    std::mt19937_64 rng(s);
    std::vector<std::string> trail;
    int reshuffles = 0;
    for (int i = 0; i < 400 && e->status().result == arb::Result::Ongoing; ++i) {
      std::string pos = e->position();
      auto copy = engine_with({{"deck", "P12N8B8R8Q8K6"}, {"hand-size", "4"}});
      copy->set_position(pos);
      ASSERT_EQ(copy->position(), pos);
      ASSERT_EQ(legal(*copy), legal(*e));
      if (!trail.empty() && field(pos, "reshuffle") != field(trail.back(), "reshuffle")) ++reshuffles;
      std::vector<Action> actions;
      e->legal_actions(actions);
      ASSERT_FALSE(actions.empty());
      ASSERT_FALSE(e->chance());
      for (const Action& a : actions) EXPECT_NE(e->describe(a).steps.at(0).card, 'A');
      trail.push_back(pos);
      e->apply(actions[rng() % actions.size()]);
    }
    EXPECT_GT(reshuffles + (e->status().result != arb::Result::Ongoing), 0);
    for (; !trail.empty(); trail.pop_back()) {
      e->undo();
      ASSERT_EQ(e->position(), trail.back());
    }
  }
}

}  // namespace
