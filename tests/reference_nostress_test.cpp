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

// A position text. `pile` may end in `*`: the rest of the deck as unknown cards (`?N`).
std::string text(const std::string& fen, const std::string& level, std::string pile, const std::string& wd,
                 const std::string& bd, const std::string& wh, const std::string& bh,
                 const std::string& extra = "") {
  if (!pile.empty() && pile.back() == '*') {
    pile.pop_back();
    int known = 0;
    for (const std::string* z : std::vector<const std::string*>{&pile, &wd, &bd, &wh, &bh}) {
      for (size_t i = 0; i < z->size(); ++i) {
        if ((*z)[i] == '?') {
          known += std::stoi(z->substr(i + 1));
          break;
        }
        if ((*z)[i] != '-') ++known;
      }
    }
    pile += "?" + std::to_string(56 - known);
  }
  std::string out = fen + " level:" + level + " pile:" + (pile.empty() ? "-" : pile) +
                    " wdiscard:" + (wd.empty() ? "-" : wd) + " bdiscard:" + (bd.empty() ? "-" : bd) +
                    " whand:" + (wh.empty() ? "-" : wh) + " bhand:" + (bh.empty() ? "-" : bh);
  if (!extra.empty()) out += " " + extra;
  return out;
}

std::unique_ptr<Engine> at(const std::string& level, const std::string& position) {
  auto e = engine(level);
  e->set_position(position);
  return e;
}

std::string canonical(const Engine& e, const Action& a) {
  return arb::uci(e.describe(a), true);
}

std::vector<std::string> legal(Engine& e) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  std::vector<std::string> out;
  for (const Action& a : actions) out.push_back(canonical(e, a));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

Action find(Engine& e, const std::string& t) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  for (const Action& a : actions)
    if (canonical(e, a) == t) return a;
  ADD_FAILURE() << "no legal action " << t << " in " << e.position();
  throw std::runtime_error("no such action");
}

void play(Engine& e, const std::string& t) {
  e.apply(find(e, t));
}

// The value of field `name:` of a position text, or the FEN field at index `name` ("0".."5").
std::string field(const std::string& position, const std::string& name) {
  std::istringstream in(position);
  std::vector<std::string> f;
  for (std::string w; in >> w;) f.push_back(w);
  if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0]))) return f[std::stoi(name)];
  for (const std::string& w : f)
    if (w.rfind(name + ":", 0) == 0) return w.substr(name.size() + 1);
  return "";
}

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
// Level 1 (RULINGS 3.3, 3.5).

TEST(NoStressRules, LevelOneTurnsTheTopCard) {
  // The top card is a Knight: the actions are the knight's moves, nothing else.
  auto e = at("1", text("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "1", "NQ*", "", "", "", ""));
  EXPECT_EQ(legal(*e), sorted({"N:b1a3", "N:b1c3", "N:b1d2"}));
  EXPECT_FALSE(e->chance());
  play(*e, "N:b1c3");
  EXPECT_EQ(field(e->position(), "wdiscard"), "N");
  EXPECT_EQ(field(e->position(), "pile"), "Q?54");
  EXPECT_EQ(field(e->position(), "1"), "b");
  // Black has no queen: the only action is the lost turn.
  EXPECT_EQ(legal(*e), std::vector<std::string>{"Q:pass"});
  play(*e, "Q:pass");
  EXPECT_EQ(field(e->position(), "bdiscard"), "Q");
  EXPECT_EQ(field(e->position(), "4"), "2");  // two turns without pawn move or capture
  EXPECT_EQ(field(e->position(), "5"), "2");
  // The pile's top is unknown now: White's turn starts with a chance draw.
  EXPECT_TRUE(e->chance());
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
}

TEST(NoStressRules, AgainNamesTwoKinds) {
  const std::string board = "4k3/8/8/8/8/8/8/R3K2B w - - 0 1";
  // Own pile R then A (A on top: skipped, names R); opponent's pile: B. Rook a1: 7 up + 3
  // along the rank; bishop h1: 7 squares to a8. All played with card A.
  auto e = at("1", text(board, "1", "A*", "RA", "B", "", ""));
  std::vector<std::string> got = legal(*e);
  EXPECT_EQ(got.size(), 17u);
  for (const std::string& t : got) EXPECT_EQ(t.substr(0, 2), "A:");
  EXPECT_TRUE(std::count(got.begin(), got.end(), "A:a1a8"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "A:h1a8"));
  play(*e, "A:h1d5");
  EXPECT_EQ(field(e->position(), "wdiscard"), "RAA");
  // Both piles name the rook: each move once.
  e = at("1", text(board, "1", "A*", "R", "R", "", ""));
  EXPECT_EQ(legal(*e).size(), 10u);
  // The own pile holds only Again cards: it names nothing; the opponent's names the king.
  e = at("1", text(board, "1", "A*", "A", "K", "", ""));
  EXPECT_EQ(legal(*e), sorted({"A:e1d1", "A:e1d2", "A:e1e2", "A:e1f2", "A:e1f1"}));
  // Nothing named at all: a lost turn.
  e = at("1", text(board, "1", "A*", "", "A", "", ""));
  EXPECT_EQ(legal(*e), std::vector<std::string>{"A:pass"});
}

// ---------------------------------------------------------------------------------------
// Levels 2 and 3 (RULINGS 3.4).

TEST(NoStressRules, LevelTwoChoicesPassesAndRedraw) {
  const std::string board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  // Hand PPB, draws P: three Pawn cards allow a redraw beside the moves; the Bishop card
  // allows no move: a deliberate lost turn is one action.
  auto e = at("2", text(board, "2", "P*", "", "", "PPB", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"P:e2e3", "P:e2e4", "B:pass", "redraw"}));
  // Hand PBQ, draws N: no three alike and the pawn can move: no redraw.
  e = at("2", text(board, "2", "N*", "", "", "PBQ", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"P:e2e3", "P:e2e4", "B:pass", "Q:pass", "N:pass"}));
  // Hand RRQ, draws N: no card allows a move: passes (one per kind) or the redraw.
  e = at("2", text(board, "2", "N*", "", "", "RRQ", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"R:pass", "Q:pass", "N:pass", "redraw"}));
  // Three identical Again cards count as three identical cards.
  e = at("2", text(board, "2", "A*", "P", "", "AAN", "QQQ"));
  EXPECT_EQ(legal(*e), sorted({"A:e2e3", "A:e2e4", "N:pass", "redraw"}));
}

TEST(NoStressRules, HandOrderAndFirstCopy) {
  // Level 3, hand N B N R Q, draws P: playing N plays the first N; the drawn card is newest.
  auto e = at("3", text("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "3", "PK*", "", "", "NBNRQ", "QQQQQ"));
  play(*e, "N:b1c3");
  EXPECT_EQ(field(e->position(), "whand"), "BNRQP");
  EXPECT_EQ(field(e->position(), "wdiscard"), "N");
  EXPECT_EQ(field(e->position(), "pile"), "K?44");
  // Black draws K: its hand is QQQQQK; five queens and no queen on the board: redraw is
  // offered (and the K can move).
  std::vector<std::string> b = legal(*e);
  EXPECT_TRUE(std::count(b.begin(), b.end(), "redraw"));
  EXPECT_TRUE(std::count(b.begin(), b.end(), "Q:pass"));
  EXPECT_TRUE(std::count(b.begin(), b.end(), "K:e8d8"));
}

TEST(NoStressRules, RedrawDiscardsInHandOrder) {
  auto e = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "PNQRBK*", "B", "", "PPB", "QQQ"));
  play(*e, "redraw");
  std::string p = e->position();
  EXPECT_EQ(field(p, "wdiscard"), "BPPBP");  // the old B, then the hand P P B and the drawn P on top
  EXPECT_EQ(field(p, "whand"), "NQR");
  EXPECT_EQ(field(p, "pile"), "BK?43");
  EXPECT_EQ(field(p, "1"), "b");
  EXPECT_EQ(field(p, "4"), "1");
  e->undo();
  EXPECT_EQ(field(e->position(), "whand"), "PPB");
}

TEST(NoStressRules, ReshuffleWithSeedMidRedraw) {
  // The pile holds one card; White draws it and redraws: its hand goes onto its discard
  // pile, then the empty pile is refilled from White's then Black's discard pile, shuffled
  // by seed 7; the seed becomes 8.
  const std::string wd = "PPPPPPPPNNNNNBBBBBBB", bd = "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA";
  auto e = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P", wd, bd, "PPB", "NNN", "reshuffle:7"));
  play(*e, "redraw");
  std::string shuffled = arb::shuffle_cards(wd + "PPBP" + bd, 7);
  std::string p = e->position();
  EXPECT_EQ(field(p, "whand"), shuffled.substr(0, 3));
  EXPECT_EQ(field(p, "pile"), shuffled.substr(3));
  EXPECT_EQ(field(p, "wdiscard"), "-");
  EXPECT_EQ(field(p, "bdiscard"), "-");
  EXPECT_EQ(field(p, "reshuffle"), "8");
  EXPECT_EQ(field(p, "1"), "b");
}

TEST(NoStressRules, ReshuffleAtTheTurnDrawEmptiesTheDiscards) {
  // Level 1, empty pile, seed 11: the turned card is the top of the reshuffled pile, and an
  // Again card would find both discard piles empty.
  const std::string wd = "PPPPPPPPPPPNNNNNNNNBBBBBBBB", bd = "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA";
  auto e = at("1", text("4k3/8/8/8/8/8/8/RNBQK3 w - - 0 1", "1", "", wd, bd, "", "", "reshuffle:11"));
  std::string shuffled = arb::shuffle_cards(wd + bd, 11);
  EXPECT_FALSE(e->chance());
  std::vector<Action> actions;
  e->legal_actions(actions);
  ASSERT_FALSE(actions.empty());
  char card = shuffled[0];
  for (const Action& a : actions) EXPECT_EQ(e->describe(a).steps[0].card, card);
  if (card == 'A') {
    EXPECT_EQ(legal(*e), std::vector<std::string>{"A:pass"});
  }
  e->apply(actions[0]);
  std::string p = e->position();
  EXPECT_EQ(field(p, "wdiscard"), std::string(1, card));
  EXPECT_EQ(field(p, "bdiscard"), "-");
  EXPECT_EQ(field(p, "pile"), shuffled.substr(1));
  EXPECT_EQ(field(p, "reshuffle"), "12");
}

// ---------------------------------------------------------------------------------------
// Chance and hidden information (RULINGS 3.8).

double weight_sum(Engine& e) {
  std::vector<arb::ChanceOutcome> out;
  e.chance_outcomes(out);
  double s = 0;
  for (const auto& o : out) s += o.weight;
  return s;
}

TEST(NoStressChance, ReshuffleWithoutSeedIsAChanceNode) {
  // All 56 cards on the discard piles, no seed: the turn's draw is a chance event over the
  // gathered cards: P 11/56, N 8/56, ..., A 6/56.
  const std::string wd = "PPPPPPPPPPPNNNNNNNNBBBBBBBB", bd = "RRRRRRRRQQQQQQQQKKKKKKKAAAAAA";
  auto e = at("1", text("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "1", "", wd, bd, "", ""));
  ASSERT_TRUE(e->chance());
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
  EXPECT_THROW(e->perft(1), arb::ChanceError);
  std::vector<arb::ChanceOutcome> out;
  e->chance_outcomes(out);
  ASSERT_EQ(out.size(), 7u);
  const double want[7] = {11, 8, 8, 8, 8, 7, 6};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_DOUBLE_EQ(out[i].weight, want[i] / 56);
    EXPECT_EQ(canonical(*e, out[i].action), std::string("draw:") + arb::kNoStressCardKinds[i]);
  }
  EXPECT_NEAR(weight_sum(*e), 1.0, 1e-12);
  play(*e, "draw:Q");
  std::string p = e->position();
  EXPECT_EQ(field(p, "pile"), "?55");
  EXPECT_EQ(field(p, "wdiscard"), "-");
  EXPECT_EQ(field(p, "bdiscard"), "-");
  EXPECT_EQ(field(p, "whand"), "Q");  // level 1: the turned card, about to be played
  EXPECT_EQ(e->hidden(), std::vector<std::string>{"draw-pile"});
  EXPECT_FALSE(e->chance());
  EXPECT_EQ(legal(*e).size(), 17u);  // queen d1: a1-c1 (3), d2-d8 (7), c2-a4 (3), e2-h5 (4)
  play(*e, "Q:d1d8");
  EXPECT_EQ(field(e->position(), "wdiscard"), "Q");
  EXPECT_EQ(field(e->position(), "whand"), "-");
  e->undo();
  e->undo();
  EXPECT_EQ(e->position(), text("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "1", "", wd, bd, "", ""));
}

TEST(NoStressChance, RedrawFromAnUnknownPileLeavesPendingDraws) {
  // White draws the known P, redraws; the pile is unknown below: three pending draws, each
  // a chance node; White stays the side to move until the last.
  auto e = at("2", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "2", "P*", "", "", "PPB", "QQQ"));
  play(*e, "redraw");
  std::string p = e->position();
  EXPECT_EQ(field(p, "pending"), "3");
  EXPECT_EQ(field(p, "whand"), "-");
  EXPECT_EQ(field(p, "wdiscard"), "PPBP");
  EXPECT_TRUE(e->chance());
  EXPECT_EQ(e->side_to_move(), arb::Color::White);
  EXPECT_EQ(at("2", p)->position(), p);
  // Pool: deck minus P P B P Q Q Q: P 8, N 8, B 7, R 8, Q 5, K 7, A 6 = 49.
  std::vector<arb::ChanceOutcome> out;
  e->chance_outcomes(out);
  ASSERT_EQ(out.size(), 7u);
  EXPECT_DOUBLE_EQ(out[0].weight, 8.0 / 49);
  EXPECT_DOUBLE_EQ(out[4].weight, 5.0 / 49);
  EXPECT_NEAR(weight_sum(*e), 1.0, 1e-12);
  play(*e, "draw:R");
  EXPECT_EQ(field(e->position(), "pending"), "2");
  play(*e, "draw:R");
  play(*e, "draw:A");
  p = e->position();
  EXPECT_EQ(field(p, "pending"), "");
  EXPECT_EQ(field(p, "whand"), "RRA");
  EXPECT_EQ(field(p, "1"), "b");
  EXPECT_EQ(field(p, "4"), "1");
  EXPECT_EQ(e->side_to_move(), arb::Color::Black);
  EXPECT_TRUE(e->chance());  // Black's draw from the unknown pile
}

TEST(NoStressChance, UnknownHandIsRevealedBeforeItsOwnerActs) {
  auto e = at("2", text("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "2", "N*", "", "", "NBB", "?3"));
  EXPECT_EQ(sorted(e->hidden()), sorted({"draw-pile", "black-hand"}));
  EXPECT_FALSE(e->chance());
  play(*e, "N:b1c3");
  // Black's hand is unknown: reveal its three cards (oldest first), then its draw.
  for (const char* c : {"K", "K", "P"}) {
    ASSERT_TRUE(e->chance());
    EXPECT_NEAR(weight_sum(*e), 1.0, 1e-12);
    play(*e, std::string("draw:") + c);
  }
  EXPECT_EQ(field(e->position(), "bhand"), "KKP");
  EXPECT_EQ(e->hidden(), std::vector<std::string>{"draw-pile"});
  ASSERT_TRUE(e->chance());
  play(*e, "draw:K");
  EXPECT_FALSE(e->chance());
  std::vector<std::string> got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "redraw"));  // K K P K: three Kings
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e8d7"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "P:pass"));
}

// ---------------------------------------------------------------------------------------
// Levels 1-3: no check, castling, en passant or promotion (RULINGS 3.6).

TEST(NoStressRules, KingCaptureWinsAtOnce) {
  auto e = at("3", text("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "3", "Q*", "", "", "RPPNN", "QQBBN"));
  Action a = find(*e, "R:e1e8");
  arb::ActionInfo info = e->describe(a);
  ASSERT_EQ(info.steps[0].removed.size(), 1u);
  EXPECT_EQ(info.steps[0].removed[0].piece, 'k');
  e->apply(a);
  arb::Status s = e->status();
  EXPECT_EQ(s.result, arb::Result::WhiteWins);
  EXPECT_EQ(s.reason, "royal-capture");
  EXPECT_FALSE(e->chance());  // decided before Black's (unknown) draw
  EXPECT_TRUE(legal(*e).empty());
  EXPECT_EQ(at("3", e->position())->status().reason, "royal-capture");
}

TEST(NoStressRules, LevelsOneToThreeHaveNoChessExtras) {
  // Kings may step onto attacked squares and next to the enemy king; no castling.
  auto e = at("3", text("8/8/8/8/8/3k4/r7/R3K2R w - - 0 1", "3", "Q*", "", "", "KPPNN", "QQBBN"));
  std::vector<std::string> got = legal(*e);
  for (const char* m : {"K:e1d2", "K:e1e2", "K:e1f2", "K:e1d1", "K:e1f1"})
    EXPECT_TRUE(std::count(got.begin(), got.end(), m)) << m;
  EXPECT_FALSE(std::count(got.begin(), got.end(), "K:e1h1"));
  EXPECT_FALSE(std::count(got.begin(), got.end(), "K:e1g1"));
  // No en passant, no promotion; a pawn on the far rank stays and cannot move.
  e = at("3", text("4k3/P7/8/3pP3/8/8/8/4K3 w - - 0 1", "3", "Q*", "", "", "PRRNN", "QQBBN"));
  EXPECT_EQ(legal(*e), sorted({"P:a7a8", "P:e5e6", "R:pass", "N:pass", "Q:pass"}));
  play(*e, "P:a7a8");
  EXPECT_EQ(field(e->position(), "0"), "P3k3/8/8/3pP3/8/8/8/4K3");
  e = at("3", text("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "3", "Q*", "", "", "PRRNN", "QQBBN"));
  EXPECT_EQ(legal(*e), sorted({"P:pass", "R:pass", "N:pass", "Q:pass", "redraw"}));
  // The double step is from the second rank only.
  e = at("3", text("4k3/8/8/8/8/2P5/1P6/4K3 w - - 0 1", "3", "Q*", "", "", "PRRNN", "QQBBN"));
  EXPECT_EQ(legal(*e), sorted({"P:b2b3", "P:b2b4", "P:c3c4", "R:pass", "N:pass", "Q:pass"}));
}

// ---------------------------------------------------------------------------------------
// The advanced game (RULINGS 3.7).

TEST(NoStressAdvanced, CheckDutyAndLostTurnInCheck) {
  // The black rook on a1 checks the white king on e1; the knight on c3 can block on b1 or
  // d1, the king can step to d2, e2, f2.
  const std::string board = "4k3/8/8/8/8/2N5/8/r3K3 w - - 0 1";
  auto e = at("advanced", text(board, "advanced", "KR*", "", "", "NPPBB", "QQRRB"));
  EXPECT_TRUE(e->status().in_check);
  // Hand N P P B B + drawn K: only escaping card+move actions.
  EXPECT_EQ(legal(*e), sorted({"N:c3b1", "N:c3d1", "K:e1d2", "K:e1e2", "K:e1f2"}));
  // No card allows an escape: a pass with any card, or the redraw.
  e = at("advanced", text(board, "advanced", "RR*", "", "", "QQPBB", "QQRRB"));
  EXPECT_EQ(legal(*e), sorted({"Q:pass", "P:pass", "B:pass", "R:pass", "redraw"}));
  play(*e, "Q:pass");
  // Black draws R and captures the king.
  play(*e, "R:a1e1");
  EXPECT_EQ(e->status().result, arb::Result::BlackWins);
  EXPECT_EQ(e->status().reason, "royal-capture");
}

TEST(NoStressAdvanced, MovesMayNotLeaveTheKingInCheck) {
  // The white knight on e2 is pinned by the rook on e8 (the black king stands on h8).
  auto e =
      at("advanced", text("r6k/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "advanced", "N*", "", "", "NPPBB", "QQRRB"));
  EXPECT_EQ(legal(*e), sorted({"P:pass", "B:pass", "N:pass", "redraw"}));
}

TEST(NoStressAdvanced, CheckmateAndStalemateBeforeTheDraw) {
  // Back-rank mate; White's draw would be unknown, but the game is decided first.
  auto e =
      at("advanced", text("k7/8/8/8/8/8/5PPP/1r4K1 w - - 0 1", "advanced", "*", "", "", "KQRBN", "KQRBN"));
  EXPECT_FALSE(e->chance());
  arb::Status s = e->status();
  EXPECT_EQ(s.result, arb::Result::BlackWins);
  EXPECT_EQ(s.reason, "checkmate");
  EXPECT_TRUE(legal(*e).empty());
  // Stalemate: the king on a1 has no move, whatever cards White holds.
  e = at("advanced", text("8/8/8/8/8/1qk5/8/K7 w - - 0 1", "advanced", "P*", "", "", "KKKQR", "KQRBN"));
  s = e->status();
  EXPECT_EQ(s.result, arb::Result::Draw);
  EXPECT_EQ(s.reason, "stalemate");
  // Not mated when only a card is missing: a king move exists, the hand has no King card.
  e = at("advanced", text("k7/8/8/8/8/8/6PP/1r4K1 w - - 0 1", "advanced", "Q*", "", "", "QQRBN", "KQRBN"));
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  EXPECT_TRUE(e->status().in_check);
}

TEST(NoStressAdvanced, CastlingIsAKingCardMove) {
  const std::string board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  auto e = at("advanced", text(board, "advanced", "N*", "", "", "KPPPP", "QQQQQ"));
  std::vector<std::string> got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e1h1"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e1a1"));
  std::vector<Action> actions;
  e->legal_actions(actions);
  bool found = false;
  for (const Action& a : actions)
    if (arb::uci(e->describe(a)) == "K:e1g1") found = true;
  EXPECT_TRUE(found);
  // Another card never castles.
  e = at("advanced", text(board, "advanced", "N*", "", "", "RPPPP", "QQQQQ"));
  got = legal(*e);
  EXPECT_FALSE(std::count(got.begin(), got.end(), "R:e1h1"));
  e = at("advanced", text(board, "advanced", "N*", "", "", "KPPPP", "QQQQQ"));
  play(*e, "K:e1h1");
  EXPECT_EQ(field(e->position(), "0"), "r3k2r/8/8/8/8/8/8/R4RK1");
  EXPECT_EQ(field(e->position(), "2"), "kq");
  // Through an attacked square: no castling on that side.
  e = at("advanced",
         text("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "advanced", "N*", "", "", "KPPPP", "QQQQQ"));
  got = legal(*e);
  EXPECT_FALSE(std::count(got.begin(), got.end(), "K:e1h1"));
  EXPECT_TRUE(std::count(got.begin(), got.end(), "K:e1a1"));
}

// A castling right goes with its king or rook: when the piece moves or is captured on its
// square (a king captured on e1/e8 after a lost turn in check, RULINGS 3.7). Every printed
// text must read back, and the text refuses rights for a king or rook that is not there.
TEST(NoStressAdvanced, CastlingRightsGoWithCapturedKingOrRook) {
  // The rook on e2 checks the black king on e8; Black draws N and holds no King, Rook,
  // Queen card, so no card allows an escape: Black passes and White captures the king.
  auto e = at("advanced",
              text("r3k2r/8/8/8/8/8/4R3/R3K2R b KQkq - 0 1", "advanced", "NR*", "", "", "QQPPN", "PPBBN"));
  EXPECT_TRUE(e->status().in_check);
  EXPECT_EQ(legal(*e), sorted({"P:pass", "B:pass", "N:pass", "redraw"}));
  play(*e, "P:pass");
  EXPECT_EQ(field(e->position(), "2"), "KQkq");  // a pass keeps every right
  play(*e, "R:e2e8");
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().reason, "royal-capture");
  std::string printed = e->position();
  EXPECT_EQ(field(printed, "0"), "r3R2r/8/8/8/8/8/8/R3K2R");
  EXPECT_EQ(field(printed, "2"), "KQ");  // both black rights gone, White's kept
  auto back = at("advanced", printed);
  EXPECT_EQ(back->position(), printed);
  EXPECT_EQ(back->status().reason, "royal-capture");

  // The same for White: the rook on e7 checks the white king on e1.
  e = at("advanced",
         text("r3k2r/4r3/8/8/8/8/8/R3K2R w KQkq - 0 1", "advanced", "NR*", "", "", "PPBBN", "QQPPN"));
  play(*e, "N:pass");
  play(*e, "R:e7e1");
  printed = e->position();
  EXPECT_EQ(e->status().result, arb::Result::BlackWins);
  EXPECT_EQ(field(printed, "2"), "kq");
  EXPECT_EQ(at("advanced", printed)->position(), printed);

  // A rook captured on its corner takes that side's right; the capturing rook leaving its
  // own corner takes its owner's right on that side too.
  e = at("advanced",
         text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "advanced", "N*", "", "", "RPPBB", "QQPPN"));
  play(*e, "R:h1h8");
  printed = e->position();
  EXPECT_EQ(field(printed, "2"), "Qq");
  EXPECT_EQ(at("advanced", printed)->position(), printed);
  // A king step (not castling) takes both of its side's rights.
  e = at("advanced",
         text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "advanced", "N*", "", "", "KPPBB", "QQPPN"));
  play(*e, "K:e1e2");
  printed = e->position();
  EXPECT_EQ(field(printed, "2"), "kq");
  EXPECT_EQ(at("advanced", printed)->position(), printed);
}

TEST(NoStressAdvanced, EnPassantAndPromotion) {
  auto e =
      at("advanced", text("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "advanced", "NN*", "", "", "PRRRR", "PRRRR"));
  play(*e, "P:d7d5");
  EXPECT_EQ(field(e->position(), "3"), "d6");
  std::vector<std::string> got = legal(*e);
  EXPECT_TRUE(std::count(got.begin(), got.end(), "P:e5d6"));
  arb::ActionInfo info = e->describe(find(*e, "P:e5d6"));
  ASSERT_EQ(info.steps[0].removed.size(), 1u);
  EXPECT_EQ(info.steps[0].removed[0].at, (arb::Coord{3, 5}));
  play(*e, "P:e5d6");
  EXPECT_EQ(field(e->position(), "0"), "4k3/8/3P4/8/8/8/8/4K3");
  // Promotion to Q, R, B or N (four Rook cards also allow the redraw).
  e = at("advanced", text("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "advanced", "N*", "", "", "PRRRR", "QQQQQ"));
  EXPECT_EQ(legal(*e), sorted({"P:a7a8q", "P:a7a8r", "P:a7a8b", "P:a7a8n", "R:pass", "N:pass", "redraw"}));
}

TEST(NoStressAdvanced, ClaimsCountTurnsAndIgnoreCards) {
  // Kings only; nobody holds a King card: every turn is a pass. After W, B, W, B passes the
  // board repeats for the third time: a threefold claim (cards differ, but are ignored).
  auto e =
      at("advanced", text("4k3/8/8/8/8/8/8/4K3 w - - 96 1", "advanced", "QQQQQ*", "", "", "RRRRN", "RRRRN"));
  for (int i = 0; i < 4; ++i) {
    EXPECT_FALSE(e->status().claim_threefold) << i;
    play(*e, "R:pass");
  }
  arb::Status s = e->status();
  EXPECT_TRUE(s.claim_threefold);
  EXPECT_TRUE(s.claim_fifty);  // 96 + 4 turns = 100 halfmoves
  EXPECT_EQ(s.result, arb::Result::Ongoing);
  EXPECT_EQ(field(e->position(), "4"), "100");
  EXPECT_EQ(field(e->position(), "5"), "3");
  // No claims below the advanced level.
  auto l3 = at("3", text("4k3/8/8/8/8/8/8/4K3 w - - 120 1", "3", "QQQQQ*", "", "", "RRRRN", "RRRRN"));
  EXPECT_FALSE(l3->status().claim_fifty);
}

// ---------------------------------------------------------------------------------------
// perft from the start (RULINGS 3.9).

TEST(NoStressPerft, FromTheStart) {
  // Level 1, seed 1: the pile begins P Q ... White turns a Pawn: a2 b2 c2 f2 g2 h2 step one
  // or two (12), e3-e4 (1), d4 is blocked: 13. Black turns a Queen: d8 to d7 d6 e7 f6 g5 h4
  // (6) after every White pawn move: 78.
  EXPECT_EQ(engine("1", "1")->perft(1), 13u);
  EXPECT_EQ(engine("1", "1")->perft(2), 78u);
  // Level 1, seed 2: the pile begins B P ... White's bishops: c1-d2 and f1-e2 d3 c4 b5 a6:
  // 6. Black's pawns then have 13 moves (12 steps, e6-e5; d5 is blocked), except: after
  // Bc4 also d5xc4 (14); after Bb5 b7-b5 is blocked (12); after Ba6 a7-a6 and a7-a5 are
  // blocked but b7xa6 is added (12): 13*3 + 14 + 12 + 12 = 77.
  EXPECT_EQ(engine("1", "2")->perft(1), 6u);
  EXPECT_EQ(engine("1", "2")->perft(2), 77u);
  // Level 2, seed 1: White's hand P Q K plus the drawn N: pawns 13, queen d1 to d2 d3 e2 f3
  // g4 h5 (6), king e2 d2 (2), knights b1-a3 c3 d2 and g1-e2 f3 h3 (6): 27.
  EXPECT_EQ(engine("2", "1")->perft(1), 27u);
  // Level 2, seed 2: hand B P Q plus the drawn P: bishops 6, pawns 13, queen 6: 25.
  EXPECT_EQ(engine("2", "2")->perft(1), 25u);
  // Level 3, seed 1: hand P Q K N R plus the drawn N: 27 moves and R:pass (no rook can
  // move; no three alike, so no redraw): 28. The advanced game agrees (no check yet).
  EXPECT_EQ(engine("3", "1")->perft(1), 28u);
  EXPECT_EQ(engine("advanced", "1")->perft(1), 28u);
  // Level 3, seed 2: hand B P Q P Q plus the drawn B: 6 + 13 + 6 = 25.
  EXPECT_EQ(engine("3", "2")->perft(1), 25u);
  EXPECT_EQ(engine("advanced", "2")->perft(1), 25u);
  // Depth 2 figures of the card levels (regression values of this engine).
  EXPECT_EQ(engine("2", "1")->perft(2), 729u);
  EXPECT_EQ(engine("2", "2")->perft(2), 500u);
  EXPECT_EQ(engine("3", "1")->perft(2), 756u);
  EXPECT_EQ(engine("3", "2")->perft(2), 674u);
  EXPECT_EQ(engine("advanced", "1")->perft(2), 754u);
  EXPECT_EQ(engine("advanced", "2")->perft(2), 649u);
  // Depth 3, printed for the record.
  for (const char* level : {"1", "2", "3", "advanced"})
    for (const char* seed : {"1", "2"}) {
      auto e = engine(level, seed);
      std::printf("perft level %s seed %s: depth 3 = %llu\n", level, seed,
                  static_cast<unsigned long long>(e->perft(3)));
    }
}

// ---------------------------------------------------------------------------------------
// Random playouts: apply/undo restore position and hash; every position text reloads to the
// same position, hash and actions; chance weights sum to 1.

// What the playouts met, to show that they reach reshuffles, pending draws and the end.
struct Seen {
  int reshuffles = 0, pending = 0, chance = 0, decided = 0;
};
Seen seen;

void playout(const std::string& level, const std::string& start, uint64_t seed, int turns) {
  auto e = engine(level);
  e->set_position(start);
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, uint64_t>> trail;
  for (int i = 0; i < turns; ++i) {
    if (e->status().result != arb::Result::Ongoing) {
      ++seen.decided;
      break;
    }
    std::string pos = e->position();
    if (!trail.empty() && field(pos, "reshuffle") != field(trail.back().first, "reshuffle"))
      ++seen.reshuffles;
    if (!trail.empty() && field(pos, "pile").find('?') != std::string::npos &&
        field(trail.back().first, "pile").find('?') == std::string::npos)
      ++seen.reshuffles;
    if (!field(pos, "pending").empty()) ++seen.pending;
    if (e->chance()) ++seen.chance;
    uint64_t h = e->hash();
    auto copy = engine(level);
    copy->set_position(pos);
    ASSERT_EQ(copy->position(), pos);
    ASSERT_EQ(copy->hash(), h);
    ASSERT_EQ(copy->chance(), e->chance());
    ASSERT_EQ(legal(*copy), legal(*e)) << pos;
    std::vector<Action> actions;
    e->legal_actions(actions);
    ASSERT_FALSE(actions.empty()) << pos;
    Action pick = actions[rng() % actions.size()];
    if (e->chance()) {
      std::vector<arb::ChanceOutcome> out;
      e->chance_outcomes(out);
      ASSERT_EQ(out.size(), actions.size());
      double sum = 0;
      for (const auto& o : out) {
        EXPECT_GT(o.weight, 0);
        sum += o.weight;
      }
      ASSERT_NEAR(sum, 1.0, 1e-9) << pos;
      std::vector<double> w;
      for (const auto& o : out) w.push_back(o.weight);
      std::discrete_distribution<size_t> d(w.begin(), w.end());
      pick = out[d(rng)].action;
    }
    trail.push_back({pos, h});
    e->apply(pick);
  }
  while (!trail.empty()) {
    e->undo();
    ASSERT_EQ(e->position(), trail.back().first);
    ASSERT_EQ(e->hash(), trail.back().second);
    trail.pop_back();
  }
}

// The start with the pile's order unknown (no reshuffle seed): every draw is a chance node.
std::string hidden_start(const std::string& level, uint64_t seed) {
  auto lv = *arb::parse_nostress_level(level);
  arb::NoStressPosition p = arb::nostress_start_position(lv, true, seed);
  p.pile.unknown = p.pile.size();
  p.pile.known.clear();
  p.reshuffle_seed.reset();
  return arb::format_nostress(p);
}

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
