// The Chess 2 conformance suite: every engine that plays Chess 2 (the compiled generator
// running rulesets/chess2.rules with its army options, and the hand-written reference
// engine, checker/reference/chess2) on every special rule on hand-derived positions,
// Classic-vs-Classic perft against the Chess960 suite, perft from the start of every army
// pairing (with the colours swapped), random playouts for apply/undo and position-text
// round trips: one TEST_P per rule (`Conformance/Chess2.TwoKingsWhirlwind/compiled`).
// Fairy-Stockfish has no Chess 2.
//
// Plain TESTs: the agreement of the two engines (perft of every matchup, playouts), the
// mutation suite and the fuzz command (the compiled ruleset's), and the dice procedure
// (each engine's own function, compared with the other's).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/notation.hpp"
#include "arbiter/perft_suite.hpp"
#include "conformance.hpp"
#include "mutate/run_mutants.hpp"
#include "process.hpp"
#include "reference.hpp"
#include "source_dir.hpp"

namespace {

using arb::Action;
using arb::Engine;

const std::vector<std::string> kArmies = {"classic", "nemesis",   "empowered",
                                          "reaper",  "two-kings", "animals"};

// The engine of the running conformance test with the given armies, at `text`.
std::unique_ptr<Engine> make(const std::string& white, const std::string& black,
                             const std::string& text = "start") {
  auto e = conformance::make_engine({{"white-army", white}, {"black-army", black}});
  e->set_position(text);
  return e;
}
// The compiled generator and the reference engine, for the agreement tests.
std::unique_ptr<Engine> compiled(const std::string& white, const std::string& black,
                                 const std::string& text = "start") {
  auto e = conformance::compiled("chess2").make({{"white-army", white}, {"black-army", black}});
  e->set_position(text);
  return e;
}
std::unique_ptr<Engine> reference(const std::string& white, const std::string& black,
                                  const std::string& text = "start") {
  auto e = conformance::reference("chess2").make({{"white-army", white}, {"black-army", black}});
  e->set_position(text);
  return e;
}

class Chess2 : public conformance::Suite {};
INSTANTIATE_TEST_SUITE_P(Conformance, Chess2,
                         ::testing::Values(conformance::compiled("chess2"), conformance::reference("chess2")),
                         conformance::engine_name);

std::string text_of(Engine& e, const Action& a) {
  return arb::uci(e.describe(a), e.chess960());
}

std::vector<std::string> legal_texts(Engine& e) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  std::vector<std::string> out;
  for (const Action& a : actions) out.push_back(text_of(e, a));
  std::sort(out.begin(), out.end());
  return out;
}

using Squares = std::vector<std::string>;

// The legal actions from square `from` (e.g. "d4"), without the square: {"d5", "e4"}.
Squares from_square(Engine& e, const std::string& from) {
  Squares out;
  for (const auto& t : legal_texts(e))
    if (t.compare(0, from.size(), from) == 0) out.push_back(t.substr(from.size()));
  return out;
}

bool has(Engine& e, const std::string& text) {
  auto all = legal_texts(e);
  return std::find(all.begin(), all.end(), text) != all.end();
}

// The legal actions whose text starts with `prefix`, sorted.
std::vector<std::string> starting_with(Engine& e, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& t : legal_texts(e))
    if (t.compare(0, prefix.size(), prefix) == 0) out.push_back(t);
  return out;
}

// The actions without a king-turn.
std::vector<std::string> normal_only(std::vector<std::string> texts) {
  texts.erase(std::remove_if(texts.begin(), texts.end(),
                             [](const std::string& t) { return t.find(',') != std::string::npos; }),
              texts.end());
  return texts;
}

Action find(Engine& e, const std::string& text) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  for (const Action& a : actions)
    if (text_of(e, a) == text) return a;
  ADD_FAILURE() << "no legal action " << text << " in " << e.position();
  throw std::runtime_error("missing action");
}

void play(Engine& e, const std::string& text) {
  e.apply(find(e, text));
}

std::string removed_of(Engine& e, const std::string& text, size_t step = 0) {
  auto info = e.describe(find(e, text));
  std::string out;
  for (const auto& r : info.steps.at(step).removed) out += arb::square_name(r.at) + r.piece + " ";
  return out;
}

// The position seen from the other side: ranks reversed, colours swapped.
std::string flip(const std::string& fen) {
  std::vector<std::string> f;
  size_t i = 0;
  while (i < fen.size()) {
    size_t j = fen.find(' ', i);
    if (j == std::string::npos) j = fen.size();
    f.push_back(fen.substr(i, j - i));
    i = j + 1;
  }
  auto swapcase = [](std::string s) {
    for (char& c : s) c = std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c);
    return s;
  };
  std::vector<std::string> ranks;
  for (size_t a = 0, b; a <= f[0].size(); a = b + 1) {
    b = f[0].find('/', a);
    if (b == std::string::npos) b = f[0].size();
    ranks.push_back(f[0].substr(a, b - a));
  }
  std::string board;
  for (size_t r = ranks.size(); r-- > 0;) board += swapcase(ranks[r]) + (r ? "/" : "");
  std::string castling = f[2] == "-" ? "-" : swapcase(f[2]);
  std::string ep = f[3];
  if (ep != "-") ep = ep.substr(0, 1) + std::to_string(9 - std::stoi(ep.substr(1)));
  return board + " " + (f[1] == "w" ? "b" : "w") + " " + castling + " " + ep + " " + f[4] + " " + f[5];
}

// ---------------------------------------------------------------------------------------
// Options, configuration, position text.

// The reference engine's own option handling (arb::ref::make_chess2_engine): the compiled
// side takes the armies as ruleset overrides, checked by the compiler (lang_test).
TEST(Chess2Reference, ArmiesAndConfig) {
  auto e = reference("two-kings", "animals");
  auto cfg = e->config();
  EXPECT_EQ(cfg.variant, "chess2");
  ASSERT_EQ(cfg.options.size(), 2u);
  EXPECT_EQ(cfg.options[0], (std::pair<std::string, std::string>{"black-army", "animals"}));
  EXPECT_EQ(cfg.options[1], (std::pair<std::string, std::string>{"white-army", "two-kings"}));
  EXPECT_EQ(e->name(), "reference:chess2");
  auto d = arb::ref::make_chess2_engine({});
  EXPECT_EQ(d->config().value("white-army"), "classic");
  EXPECT_EQ(d->config().value("black-army"), "classic");
  EXPECT_THROW(arb::ref::make_chess2_engine({{"white-army", "zombies"}}), std::invalid_argument);
  EXPECT_THROW(arb::ref::make_chess2_engine({{"colour", "red"}}), std::invalid_argument);
  auto r = arb::ref::make_reference_engine("chess2", {{"black-army", "reaper"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->config().value("black-army"), "reaper");
  EXPECT_TRUE(arb::ref::make_reference_engine("chess"));
}

TEST_P(Chess2, PositionStartTexts) {
  EXPECT_EQ(make("classic", "classic")->position(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(make("nemesis", "empowered")->position(),
            "zyxokxyz/pppppppp/8/8/8/8/LLLLLLLL/RNBMKBNR w - - 0 1");
  EXPECT_EQ(make("reaper", "two-kings")->position(), "rnbwwbnr/pppppppp/8/8/8/8/PPPPPPPP/GNBAKBNG w - - 0 1");
  EXPECT_EQ(make("animals", "classic")->position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/EHTJKTHE w kq - 0 1");
  // start:N follows the Chess960 numbering; 518 is the classic start.
  EXPECT_EQ(make("classic", "classic", "start:518")->position(), make("classic", "classic")->position());
  EXPECT_EQ(arb::ref::chess2_back_rank(0), "BBQNNRKR");
  EXPECT_EQ(arb::ref::chess2_back_rank(518), "RNBQKBNR");
  auto e = make("classic", "animals", "start:0");
  EXPECT_EQ(e->position(), "ttjhheke/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQ - 0 1");
  EXPECT_TRUE(e->chess960());
  EXPECT_THROW(make("classic", "classic", "start:960"), arb::PositionError);
  EXPECT_THROW(make("classic", "classic", "start:x"), arb::PositionError);
}

TEST(Chess2Dice, ReferenceProcedure) {
  std::set<int> seen;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    int n = arb::ref::chess2_dice_start(seed);
    ASSERT_GE(n, 0);
    ASSERT_LT(n, 960);
    std::string r = arb::ref::chess2_back_rank(n);
    size_t b1 = r.find('B'), b2 = r.rfind('B');
    EXPECT_NE(b1 % 2, b2 % 2) << r;  // opposite colours
    size_t k = r.find('K');
    EXPECT_LT(r.find('R'), k);
    EXPECT_GT(r.rfind('R'), k);
    seen.insert(n);
  }
  EXPECT_GT(seen.size(), 250u);
  EXPECT_EQ(arb::ref::chess2_dice_start(7), arb::ref::chess2_dice_start(7));
}

TEST_P(Chess2, PositionRejectsForeignPiecesAndBadPositions) {
  auto e = make("classic", "classic");
  try {
    e->set_position("4k3/8/8/8/8/8/8/E3K3 w - - 0 1");
    FAIL() << "accepted an elephant in the Classic army";
  } catch (const arb::PositionError& err) {
    EXPECT_EQ(err.column, 16u) << err.what();
  }
  // The failed text left the engine unchanged.
  EXPECT_EQ(e->position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/4W3 w - - 0 1"), arb::PositionError);
  auto t = make("two-kings", "classic");
  EXPECT_NO_THROW(t->set_position("4k3/8/8/8/8/8/8/3WW3 w - - 0 1"));
  EXPECT_NO_THROW(t->set_position("4k3/8/8/8/8/8/8/4W3 w - - 0 1"));
  EXPECT_THROW(t->set_position("4k3/8/8/8/8/8/8/2WWW3 w - - 0 1"), arb::PositionError);
  EXPECT_THROW(t->set_position("4k3/8/8/8/8/8/8/3WK3 w - - 0 1"), arb::PositionError);
  // Only a Classic side castles.
  auto n = make("nemesis", "classic");
  EXPECT_THROW(n->set_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), arb::PositionError);
  EXPECT_NO_THROW(n->set_position("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1"));
  // The side that just moved may not be in check.
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"), arb::PositionError);
  // Pawns never stand on their last rank; only nemesis pawns on their first.
  EXPECT_THROW(e->set_position("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"), arb::PositionError);
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"), arb::PositionError);
  EXPECT_NO_THROW(make("nemesis", "two-kings", "6w1/8/8/8/8/8/8/L3K2w w - - 0 1"));
}

TEST_P(Chess2, PositionRoundTripsAndXFenCastling) {
  auto e = make("classic", "classic", "start:0");
  std::string once = e->position();
  uint64_t h = e->hash();
  e->set_position(once);
  EXPECT_EQ(e->position(), once);
  EXPECT_EQ(e->hash(), h);
  // Shredder-FEN input, X-FEN output.
  e->set_position("rkr5/8/8/8/8/8/8/RKR5 w CAca - 0 1");
  EXPECT_EQ(e->position(), "rkr5/8/8/8/8/8/8/RKR5 w KQkq - 0 1");
  EXPECT_TRUE(e->chess960());
}

// ---------------------------------------------------------------------------------------
// Special rules, on hand-derived positions.

TEST_P(Chess2, AnimalsRampageThroughBlockersAndBlockedRampages) {
  // Elephant d4: north d5 (enemy pawn), d6 (own pawn), d7: a rampage to d7 removing both.
  // South: d3, then the own king d2 stops it and forbids a rampage. East: e4, f4, then an
  // enemy elephant three squares away, which it may not remove. West: empty to the edge.
  auto e = make("animals", "animals", "7k/8/3P4/3p4/3E2e1/8/3K4/8 w - - 0 1");
  EXPECT_EQ(starting_with(*e, "d4"),
            (std::vector<std::string>{"d4a4", "d4b4", "d4c4", "d4d3", "d4d7", "d4e4", "d4f4"}));
  EXPECT_EQ(removed_of(*e, "d4d7"), "d5p d6P ");
  play(*e, "d4d7");
  EXPECT_EQ(e->position(), "7k/3E4/8/8/6e1/8/3K4/8 b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "7k/8/3P4/3p4/3E2e1/8/3K4/8 w - - 0 1");
  // An enemy elephant two squares away can be trampled.
  e->set_position("7k/8/8/8/3E1e2/8/3K4/8 w - - 0 1");
  EXPECT_TRUE(has(*e, "d4g4"));
  EXPECT_TRUE(has(*e, "d4e4"));
  EXPECT_FALSE(has(*e, "d4f4"));
  EXPECT_EQ(removed_of(*e, "d4g4"), "f4e ");
  // Near the edge the rampage goes to the edge; own elephants at any distance go too.
  e->set_position("7k/8/8/8/8/8/3K4/E1E5 w - - 0 1");
  EXPECT_TRUE(has(*e, "a1d1"));
  EXPECT_EQ(removed_of(*e, "a1d1"), "c1E ");
  // A ghost or a nemesis on the path forbids the rampage.
  auto g = make("animals", "reaper", "7k/8/8/8/3E1g2/8/3K4/8 w - - 0 1");
  EXPECT_FALSE(has(*g, "d4g4"));
  EXPECT_TRUE(has(*g, "d4e4"));
  auto m = make("animals", "nemesis", "7k/8/8/8/3Em3/8/3K4/8 w - - 0 1");
  EXPECT_EQ(starting_with(*m, "d4"),
            (std::vector<std::string>{"d4a4", "d4b4", "d4c4", "d4d3", "d4d5", "d4d6", "d4d7"}));
}

TEST_P(Chess2, AnimalsElephantChecks) {
  // Black king c5 on the path of the elephant a5: the pawn b5 can be trampled, so check.
  auto e = make("animals", "classic", "8/8/8/Epk5/8/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  EXPECT_FALSE(has(*e, "c5d5"));  // still on the path
  EXPECT_TRUE(has(*e, "c5c6"));
  // A nemesis on the path cannot be removed: no rampage, no check.
  auto n = make("animals", "nemesis", "8/8/8/Emk5/8/8/8/4K3 b - - 0 1");
  EXPECT_FALSE(n->status().in_check);
  // An enemy elephant three squares away on the path stops the rampage.
  auto a = make("animals", "animals", "4k3/8/8/e7/8/K7/E7/8 w - - 0 1");
  EXPECT_FALSE(a->status().in_check);
  a->set_position("4k3/8/8/e7/8/K7/8/E7 w - - 0 1");
  EXPECT_TRUE(a->status().in_check);
  // The f1 square lies on a possible rampage through the pawn f2: no castling.
  auto c = make("classic", "animals", "4k3/8/8/8/5e2/8/5P2/4K2R w K - 0 1");
  EXPECT_FALSE(c->status().in_check);
  EXPECT_FALSE(has(*c, "e1g1"));
  c->set_position("4k3/8/8/5e2/8/8/5P2/4K2R w K - 0 1");
  EXPECT_TRUE(has(*c, "e1g1"));
  // The king may not castle through f8, a square a rampage would reach with a king on it.
  EXPECT_FALSE(has(*make("animals", "classic", "4k2r/8/5E2/8/8/8/8/4K3 b k - 0 1"), "e8h8"));
  // Nor step onto e2, on the path of the elephant e3 once the king stands there.
  EXPECT_FALSE(has(*make("classic", "animals", "8/4k3/8/8/8/4e3/8/4K3 w - - 0 1"), "e1e2"));
}

TEST_P(Chess2, AnimalsElephantImmuneFromAfar) {
  auto e = make("classic", "animals", "4k3/8/8/e7/8/8/8/R3K3 w - - 0 1");
  EXPECT_TRUE(has(*e, "a1a4"));
  EXPECT_FALSE(has(*e, "a1a5"));
  e->set_position("4k3/8/8/e7/8/R7/8/4K3 w - - 0 1");
  EXPECT_TRUE(has(*e, "a3a5"));
  // Even the reaper needs to start within two squares.
  auto r = make("reaper", "animals", "4k3/8/8/ep6/8/8/8/4K2A w - - 0 1");
  EXPECT_FALSE(has(*r, "h1a5"));
  EXPECT_TRUE(has(*r, "h1b5"));
  r->set_position("4k3/8/8/ep6/2A5/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(has(*r, "c4a5"));
}

TEST_P(Chess2, AnimalsTigerStrikesWithoutMoving) {
  auto e = make("animals", "classic", "4k3/8/8/8/8/p3n3/3P4/2T1K3 w - - 0 1");
  EXPECT_EQ(starting_with(*e, "c1"), (std::vector<std::string>{"c1^a3", "c1b2"}));
  auto info = e->describe(find(*e, "c1^a3"));
  ASSERT_EQ(info.steps.size(), 1u);
  EXPECT_EQ(info.steps[0].kind, arb::StepKind::Remove);
  EXPECT_NE(info.steps[0].to, info.steps[0].from);  // a strike
  EXPECT_EQ(removed_of(*e, "c1^a3"), "a3p ");
  play(*e, "c1^a3");
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/4n3/3P4/2T1K3 b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/p3n3/3P4/2T1K3 w - - 0 1");
  // A tiger checks along its clear diagonals only.
  auto c = make("animals", "classic", "8/8/8/4k3/8/2T5/8/4K3 b - - 0 1");
  EXPECT_TRUE(c->status().in_check);
  c->set_position("8/8/8/4k3/3p4/2T5/8/4K3 b - - 0 1");
  EXPECT_FALSE(c->status().in_check);
}

TEST_P(Chess2, AnimalsWildHorseAndJungleQueen) {
  auto e = make("animals", "classic", "7k/8/4P3/8/3H4/5K2/8/8 w - - 0 1");
  EXPECT_TRUE(has(*e, "d4e6"));
  EXPECT_EQ(removed_of(*e, "d4e6"), "e6P ");
  EXPECT_FALSE(has(*e, "d4f3"));  // never its own king
  play(*e, "d4e6");
  EXPECT_EQ(e->position(), "7k/8/4H3/8/8/5K2/8/8 b - - 0 1");
  auto j = make("animals", "classic", "7k/8/8/8/3J4/8/8/4K3 w - - 0 1");
  EXPECT_EQ(starting_with(*j, "d4").size(), 14u + 8u);
  EXPECT_FALSE(has(*j, "d4e5"));
}

TEST_P(Chess2, TwoKingsWhirlwind) {
  // The warrior kings c3 and d3 stand side by side: neither may whirlwind.
  auto e = make("two-kings", "classic", "7k/8/8/8/1r6/2WW4/2P5/8 w - - 0 1");
  EXPECT_TRUE(starting_with(*e, "W*").empty());
  EXPECT_TRUE(has(*e, "d3d2"));
  EXPECT_FALSE(has(*e, "d3d2,W*c3"));
  // Apart, c3 may whirlwind in the king-turn: the rook b4 and the own pawn c2 go.
  ASSERT_TRUE(has(*e, "d3e3,W*c3"));
  auto info = e->describe(find(*e, "d3e3,W*c3"));
  ASSERT_EQ(info.steps.size(), 2u);
  EXPECT_EQ(info.steps[1].kind, arb::StepKind::Remove);
  EXPECT_EQ(info.steps[1].to, info.steps[1].from);  // a whirlwind
  EXPECT_EQ(info.steps[1].phase, 1);
  EXPECT_EQ(removed_of(*e, "d3e3,W*c3", 1), "c2P b4r ");
  play(*e, "d3e3,W*c3");
  EXPECT_EQ(e->position(), "7k/8/8/8/8/2W1W3/8/8 b - - 0 1");
  e->undo();
  EXPECT_EQ(e->position(), "7k/8/8/8/1r6/2WW4/2P5/8 w - - 0 1");
  // A whirlwind must remove something, and never removes a ghost.
  auto g = make("two-kings", "reaper", "7k/8/8/8/8/2g5/3W4/7W w - - 0 1");
  EXPECT_FALSE(has(*g, "W*d2"));
  g->set_position("7k/8/8/8/8/2gp4/3W4/7W w - - 0 1");
  EXPECT_EQ(removed_of(*g, "W*d2"), "d3p ");
  // A whirlwind takes a nemesis.
  auto n = make("two-kings", "nemesis", "7k/8/8/8/8/8/3m4/3W3W w - - 0 1");
  EXPECT_EQ(removed_of(*n, "W*d1"), "d2m ");
  // Both colours go, a nemesis too (RULINGS 4.6).
  auto both = make("two-kings", "nemesis", "7k/8/8/8/8/2Pm4/3W4/7W w - - 0 1");
  EXPECT_EQ(removed_of(*both, "W*d2"), "c3P d3m ");
  play(*both, "W*d2");
  EXPECT_EQ(both->position(), "7k/8/8/8/8/8/3W4/7W b - - 0 1");
}

TEST_P(Chess2, TwoKingsEachActionMustBeSafeOnItsOwn) {
  // a6 shields the warrior king a4 from the rook a8; leaving the file is illegal even if
  // the king-turn would then step out of the line.
  auto e = make("two-kings", "classic", "r6k/8/R7/8/W7/8/8/4W3 w - - 0 1");
  EXPECT_TRUE(starting_with(*e, "a6b6").empty());
  EXPECT_TRUE(has(*e, "a6a7"));
  EXPECT_TRUE(has(*e, "a6a7,a4b4"));
  // A king-turn may not step into check either.
  EXPECT_FALSE(has(*e, "a6b6,a4b4"));
  e->set_position("r6k/8/R7/8/W7/8/7r/4W3 w - - 0 1");
  EXPECT_TRUE(has(*e, "a6a7,e1f1"));
  EXPECT_FALSE(has(*e, "a6a7,e1e2"));
}

TEST_P(Chess2, TwoKingsMidlineInvasionAfterKingTurn) {
  auto e = make("two-kings", "classic", "7k/8/8/8/3WW3/8/8/8 w - - 0 1");
  ASSERT_TRUE(has(*e, "d4d5,e4e5"));
  e->apply(find(*e, "d4d5"));
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  e->undo();
  play(*e, "d4d5,e4e5");
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "midline-invasion");
  std::vector<Action> none;
  e->legal_actions(none);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(e->perft(1), 0u);
  // A normal action that already wins ends the turn: no king-turn follows it.
  e->set_position("7k/8/8/3W4/4W3/8/8/8 w - - 0 1");
  EXPECT_TRUE(has(*e, "e4e5"));
  EXPECT_TRUE(starting_with(*e, "e4e5,").empty());
  EXPECT_FALSE(starting_with(*e, "d5c5,").empty());
}

TEST_P(Chess2, MidlineInvasionAndNoLegalMove) {
  auto e = make("classic", "classic", "7k/8/8/8/4K3/8/8/8 w - - 0 1");
  play(*e, "e4e5");
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().reason, "midline-invasion");
  // Not into check.
  e->set_position("7k/8/8/r7/4K3/8/8/8 w - - 0 1");
  EXPECT_FALSE(has(*e, "e4e5"));
  EXPECT_TRUE(has(*e, "e4e3"));
  // Black invades White's half.
  e->set_position("8/8/8/4k3/8/8/8/K7 b - - 0 1");
  play(*e, "e5e4");
  EXPECT_EQ(e->status().result, arb::Result::BlackWins);
  // No legal move and not in check: the side to move loses (no stalemate).
  e->set_position("k7/8/1Q6/8/8/8/8/4K3 b - - 0 1");
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "no-legal-move");
  EXPECT_FALSE(st.in_check);
  e->set_position("R6k/6pp/8/8/8/8/8/4K3 b - - 0 1");
  st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "checkmate");
}

TEST_P(Chess2, ReaperGhostsAndReapers) {
  // The ghost d5 stops the rook and shields the king h5; it cannot be captured.
  auto e = make("classic", "reaper", "8/8/8/R2g3k/4P3/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(has(*e, "a5c5"));
  EXPECT_FALSE(has(*e, "a5d5"));
  EXPECT_FALSE(has(*e, "e4d5"));
  // Knights leap over ghosts.
  e->set_position("7k/8/8/8/8/1gg5/1Ng5/4K3 w - - 0 1");
  EXPECT_TRUE(has(*e, "b2c4"));
  // A ghost moves to any empty square and captures nothing; a reaper captures anywhere
  // but on the enemy back rank, and never a king; neither gives check.
  auto r = make("reaper", "classic", "n3k3/8/8/8/8/8/p7/G3K2A b - - 0 1");
  EXPECT_FALSE(r->status().in_check);
  r->set_position("n3k3/3A4/8/8/8/8/p7/G3K3 b - - 0 1");
  EXPECT_FALSE(r->status().in_check);
  EXPECT_TRUE(has(*r, "e8d7"));  // the king takes the reaper
  r->set_position("n3k3/8/8/8/8/8/p7/G3K2A w - - 0 1");
  EXPECT_TRUE(has(*r, "h1a2"));
  EXPECT_FALSE(has(*r, "h1a8"));
  EXPECT_FALSE(has(*r, "h1b8"));
  EXPECT_FALSE(has(*r, "h1e8"));
  EXPECT_TRUE(has(*r, "a1h8"));  // the ghost goes anywhere empty
  EXPECT_FALSE(has(*r, "a1a2"));
  EXPECT_EQ(starting_with(*r, "h1").size(), 64u - 8u - 4u + 1u);  // rank 8 out, 4 occupied, a2 taken
}

TEST_P(Chess2, NemesisPawnRectangle) {
  auto e = make("nemesis", "classic", "8/6k1/8/8/3L4/8/8/4K3 w - - 0 1");
  EXPECT_EQ(starting_with(*e, "d4"), (std::vector<std::string>{"d4d5", "d4e4", "d4e5"}));
  // Either warrior king spans a rectangle.
  auto t = make("nemesis", "two-kings", "8/1w4w1/8/8/3L4/8/8/4K3 w - - 0 1");
  EXPECT_EQ(starting_with(*t, "d4"), (std::vector<std::string>{"d4c4", "d4c5", "d4d5", "d4e4", "d4e5"}));
  // Backward and sideways toward a king behind the pawn.
  t->set_position("7w/8/8/8/2L5/8/w7/4K3 w - - 0 1");
  EXPECT_EQ(starting_with(*t, "c4"),
            (std::vector<std::string>{"c4b3", "c4b4", "c4c3", "c4c5", "c4d4", "c4d5"}));
  // No double step.
  e->set_position("1k6/8/8/8/8/8/1L6/4K3 w - - 0 1");
  EXPECT_EQ(starting_with(*e, "b2"), (std::vector<std::string>{"b2b3"}));
}

TEST_P(Chess2, NemesisCapturesOnlyKingsAndOnlyKingsCaptureIt) {
  auto e = make("nemesis", "classic", "3k4/8/8/3r4/8/8/8/3MK3 w - - 0 1");
  EXPECT_EQ(starting_with(*e, "d1d"), (std::vector<std::string>{"d1d2", "d1d3", "d1d4"}));
  // It gives check.
  e->set_position("3k4/8/8/8/8/8/8/3MK3 b - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  // Only the king takes it.
  e->set_position("3k4/3M4/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(has(*e, "d8d7"));
  e->set_position("7k/8/8/r2M4/8/8/8/4K3 b - - 0 1");
  EXPECT_EQ(starting_with(*e, "a5"), (std::vector<std::string>{"a5a1", "a5a2", "a5a3", "a5a4", "a5a6", "a5a7",
                                                               "a5a8", "a5b5", "a5c5"}));
}

TEST_P(Chess2, EmpoweredGainsFromOrthogonalNeighbours) {
  // Knight d4 beside rook e4 gains rook moves; rook e4 gains knight and (from f4) bishop
  // moves; bishop f4 gains rook moves. Nothing is passed on.
  auto e = make("empowered", "classic", "7k/8/8/8/3YZX2/8/8/4K3 w - - 0 1");
  auto y = starting_with(*e, "d4");
  EXPECT_TRUE(std::find(y.begin(), y.end(), "d4d8") != y.end());
  EXPECT_TRUE(std::find(y.begin(), y.end(), "d4a4") != y.end());
  EXPECT_TRUE(std::find(y.begin(), y.end(), "d4b5") != y.end());
  EXPECT_FALSE(std::find(y.begin(), y.end(), "d4e5") != y.end());
  EXPECT_EQ(y.size(), 8u + 4u + 3u + 3u);
  EXPECT_TRUE(has(*e, "e4c3"));
  EXPECT_TRUE(has(*e, "e4h7"));
  EXPECT_TRUE(has(*e, "f4f8"));
  EXPECT_FALSE(has(*e, "f4g6"));
  // Diagonal neighbours give nothing.
  e->set_position("7k/8/8/8/3Y4/4Z3/8/4K3 w - - 0 1");
  EXPECT_EQ(starting_with(*e, "d4").size(), 8u);
  // Gained movement checks.
  e->set_position("3k4/8/8/8/3YZ3/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  e->set_position("3k4/8/8/8/3Y4/8/8/4K3 b - - 0 1");
  EXPECT_FALSE(e->status().in_check);
  // The empowered queen moves as a king.
  e->set_position("7k/8/8/8/3O4/8/8/4K3 w - - 0 1");
  EXPECT_EQ(starting_with(*e, "d4").size(), 8u);
}

TEST_P(Chess2, PromotionChoicesPerArmy) {
  const std::map<std::string, std::string> pieces = {{"classic", "qrbn"},   {"nemesis", "mrbn"},
                                                     {"empowered", "ozxy"}, {"reaper", "agbn"},
                                                     {"two-kings", "rbn"},  {"animals", "jeth"}};
  for (const auto& [army, letters] : pieces) {
    char pawn = army == "nemesis" ? 'L' : 'P';
    char king = army == "two-kings" ? 'W' : 'K';
    std::string fen = std::string("k7/4") + pawn + "3/8/8/8/8/8/4" + king + "3 w - - 0 1";
    auto e = make(army, "classic", fen);
    std::vector<std::string> expected;
    for (char c : letters) expected.push_back(std::string("e7e8") + c);
    if (army == "nemesis") {  // nemesis moves toward a8: d8 (promotes) and d7
      for (char c : letters) expected.push_back(std::string("e7d8") + c);
      expected.push_back("e7d7");
    }
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(normal_only(starting_with(*e, "e7")), expected) << army;
    // Black promotes the same way.
    std::string bfen = std::string("4") + static_cast<char>(std::tolower(king)) + "3/8/8/8/8/8/4" +
                       static_cast<char>(std::tolower(pawn)) + "3/K7 b - - 0 1";
    auto b = make("classic", army, bfen);
    std::vector<std::string> bexp;
    for (char c : letters) bexp.push_back(std::string("e2e1") + c);
    if (army == "nemesis") {
      for (char c : letters) bexp.push_back(std::string("e2d1") + c);
      bexp.push_back("e2d2");
    }
    std::sort(bexp.begin(), bexp.end());
    EXPECT_EQ(normal_only(starting_with(*b, "e2")), bexp) << army;
  }
}

TEST_P(Chess2, EnPassantPerArmy) {
  for (const std::string& army : kArmies) {
    // White's army captures a Classic double step.
    char pawn = army == "nemesis" ? 'L' : 'P';
    char king = army == "two-kings" ? 'W' : 'K';
    auto e = make(army, "classic", std::string("7k/3p4/8/4") + pawn + "3/8/8/8/" + king + "7 b - - 0 1");
    play(*e, "d7d5");
    EXPECT_EQ(e->position(), std::string("7k/8/8/3p") + pawn + "3/8/8/8/" + king + "7 w - d6 0 2") << army;
    // A nemesis pawn's capture names its victim (notation.cpp): it may also step to d6.
    const std::string ep = army == "nemesis" ? "e5d6xd5" : "e5d6";
    EXPECT_TRUE(has(*e, ep)) << army;
    EXPECT_EQ(removed_of(*e, ep), "d5p ") << army;
    // White's army double-steps (but nemesis pawns) and Classic captures en passant.
    auto w = make(army, "classic", std::string("7k/8/8/8/3p4/8/4") + pawn + "3/" + king + "7 w - - 0 1");
    if (army == "nemesis") {
      EXPECT_FALSE(has(*w, "e2e4"));
      continue;
    }
    play(*w, "e2e4");
    EXPECT_TRUE(has(*w, "d4e3")) << army;
    EXPECT_EQ(removed_of(*w, "d4e3"), "e4P ") << army;
  }
}

// A nemesis pawn beside a double step, with the skipped square inside its rectangle: the
// en-passant capture and the non-capturing nemesis move onto the same square are two
// different actions; the capture's canonical text names its victim (`e5d6xd5`).
TEST_P(Chess2, NemesisEnPassantAndNemesisMoveToTheSameSquare) {
  auto e = make("nemesis", "classic", "k7/3p4/8/4L3/8/8/8/4K3 b - - 0 1");
  play(*e, "d7d5");
  std::vector<Action> actions;
  e->legal_actions(actions);
  std::vector<std::string> removed;
  for (const Action& a : actions) {
    auto info = e->describe(a);
    if (text_of(*e, a).compare(0, 4, "e5d6") != 0) continue;
    removed.push_back(text_of(*e, a) + " " +
                      (info.steps[0].removed.empty() ? "-" : arb::square_name(info.steps[0].removed[0].at)));
  }
  std::sort(removed.begin(), removed.end());
  EXPECT_EQ(removed, (std::vector<std::string>{"e5d6 -", "e5d6xd5 d5"}));
}

TEST_P(Chess2, TwoKingsEnPassantAfterKingTurn) {
  auto e = make("classic", "two-kings", "w7/3p4/4w3/2P5/8/8/8/4K3 b - - 0 1");
  play(*e, "d7d5,a8b8");
  EXPECT_TRUE(has(*e, "c5d6"));
  EXPECT_EQ(e->position(), "1w6/8/4w3/2Pp4/8/8/8/4K3 w - d6 0 2");
  e->undo();
  play(*e, "d7d5");
  EXPECT_TRUE(has(*e, "c5d6"));
  e->undo();
  // The king-turn's whirlwind removed the pawn: no en passant.
  play(*e, "d7d5,W*e6");
  EXPECT_FALSE(has(*e, "c5d6"));
  EXPECT_EQ(e->position(), "w7/8/4w3/2P5/8/8/8/4K3 w - - 0 2");
}

TEST_P(Chess2, CountersAndClaims) {
  auto e = make("two-kings", "classic", "7k/8/8/8/8/8/8/N2WW3 w - - 7 1");
  play(*e, "a1b3,d1c2");
  EXPECT_EQ(e->position(), "7k/8/8/8/8/1N6/2W5/4W3 b - - 8 1");
  play(*e, "h8g8");
  EXPECT_EQ(e->position(), "6k1/8/8/8/8/1N6/2W5/4W3 w - - 9 2");
  play(*e, "e1e2,W*c2");  // the own knight b3 goes: the counter restarts
  EXPECT_EQ(e->position(), "6k1/8/8/8/8/8/2W1W3/8 b - - 0 2");
}

TEST_P(Chess2, ThreefoldAndFifty) {
  auto e = make("classic", "animals", "7k/8/8/8/8/8/8/N3K3 w - - 99 40");
  EXPECT_FALSE(e->status().claim_fifty);
  play(*e, "a1b3");
  EXPECT_TRUE(e->status().claim_fifty);
  for (const char* m : {"h8g8", "b3a1", "g8h8", "a1b3", "h8g8", "b3a1", "g8h8"}) play(*e, m);
  EXPECT_TRUE(e->status().claim_threefold);
}

// ---------------------------------------------------------------------------------------
// Perft.

// Classic against Classic is chess until a king crosses the midline (or a stalemate, a
// leaf either way): compare with the Chess960 suite where no king can cross in time.
TEST_P(Chess2, PerftClassicMatchesChess960Suite) {
  auto cases = arb::read_perft_suite(std::string(arbiter_source_dir()) + "/corpus/perft/chess960.perft");
  ASSERT_FALSE(cases.empty());
  auto e = make("classic", "classic");
  size_t checked = 0, skipped = 0;
  size_t positions = 0;
  for (size_t i = 0; i < cases.size(); i += 24, ++positions) {
    const auto& c = cases[i];
    e->set_position(c.position);
    std::string fen = e->position();
    bool white_to_move = fen.find(" w ") != std::string::npos;
    int need[2] = {99, 99};  // moves each side needs to reach the enemy half
    int y = 8, x = 0;
    for (char ch : fen.substr(0, fen.find(' '))) {
      if (ch == '/') {
        --y;
        x = 0;
      } else if (std::isdigit(static_cast<unsigned char>(ch))) {
        x += ch - '0';
      } else {
        if (ch == 'K') need[0] = std::max(0, 5 - y);
        if (ch == 'k') need[1] = std::max(0, y - 4);
        ++x;
      }
    }
    for (auto [depth, expected] : c.expected) {
      if (depth > 4 || expected > 300000) continue;
      int mover_moves = depth / 2, other_moves = (depth - 1) / 2;  // moves before the last ply
      int mover = white_to_move ? 0 : 1;
      if (need[mover] <= mover_moves || need[1 - mover] <= other_moves) {
        ++skipped;
        continue;
      }
      ASSERT_EQ(e->perft(depth), expected) << "case " << c.id << " depth " << depth << ": " << c.position;
      ++checked;
    }
  }
  std::printf(
      "chess960 suite: %zu positions, %zu depths checked, %zu skipped (a king could reach the midline)\n",
      positions, checked, skipped);
  EXPECT_GE(checked, 100u);
}

TEST_P(Chess2, PerftClassicStart) {
  auto e = make("classic", "classic");
  EXPECT_EQ(e->perft(1), 20u);
  EXPECT_EQ(e->perft(2), 400u);
  EXPECT_EQ(e->perft(3), 8902u);
  EXPECT_EQ(e->perft(4), 197281u);
  EXPECT_EQ(e->Engine::perft(3), 8902u);
}

// Perft 1-3 from the start of every pairing, and from the colour-swapped pairing seen
// from the other side (the same tree, so the same counts).
// The counts this engine gives (a regression record: no outside source has them).
struct PairingPerft {
  const char* white;
  const char* black;
  uint64_t p1, p2, p3;
};
const PairingPerft kPairings[] = {
    {"classic", "classic", 20, 400, 8902},       {"classic", "nemesis", 20, 380, 8455},
    {"classic", "empowered", 20, 520, 11570},    {"classic", "reaper", 20, 2480, 53613},
    {"classic", "two-kings", 20, 640, 14248},    {"classic", "animals", 20, 540, 12015},
    {"nemesis", "nemesis", 19, 361, 8052},       {"nemesis", "empowered", 19, 494, 11008},
    {"nemesis", "reaper", 19, 2356, 51357},      {"nemesis", "two-kings", 20, 640, 15207},
    {"nemesis", "animals", 19, 513, 11427},      {"empowered", "empowered", 26, 676, 19870},
    {"empowered", "reaper", 26, 3224, 92506},    {"empowered", "two-kings", 26, 828, 24356},
    {"empowered", "animals", 26, 702, 20655},    {"reaper", "reaper", 124, 15263, 1875173},
    {"reaper", "two-kings", 124, 3992, 486466},  {"reaper", "animals", 124, 3264, 404498},
    {"two-kings", "two-kings", 32, 1024, 93974}, {"two-kings", "animals", 32, 864, 78894},
    {"animals", "animals", 27, 729, 21309},
};

TEST_P(Chess2, PerftAllPairings) {
  std::printf("%-10s %-10s %8s %8s %10s\n", "white", "black", "perft1", "perft2", "perft3");
  for (size_t i = 0; i < kArmies.size(); ++i)
    for (size_t j = i; j < kArmies.size(); ++j) {
      auto e = make(kArmies[i], kArmies[j]);
      uint64_t p[4];
      for (int d = 1; d <= 3; ++d) p[d] = e->perft(d);
      std::printf("%-10s %-10s %8llu %8llu %10llu\n", kArmies[i].c_str(), kArmies[j].c_str(),
                  static_cast<unsigned long long>(p[1]), static_cast<unsigned long long>(p[2]),
                  static_cast<unsigned long long>(p[3]));
      bool found = false;
      for (const auto& row : kPairings)
        if (row.white == kArmies[i] && row.black == kArmies[j]) {
          found = true;
          EXPECT_EQ(p[1], row.p1) << kArmies[i] << "/" << kArmies[j];
          EXPECT_EQ(p[2], row.p2) << kArmies[i] << "/" << kArmies[j];
          EXPECT_EQ(p[3], row.p3) << kArmies[i] << "/" << kArmies[j];
        }
      EXPECT_TRUE(found);
      auto s = make(kArmies[j], kArmies[i]);
      s->set_position(flip(e->position()));
      for (int d = 1; d <= 3; ++d)
        EXPECT_EQ(s->perft(d), p[d]) << kArmies[i] << "/" << kArmies[j] << " swapped, depth " << d;
      EXPECT_EQ(e->Engine::perft(2), p[2]);
    }
}

// ---------------------------------------------------------------------------------------
// Random playouts: apply/undo restores text and hash; text round-trips; descriptions.

TEST_P(Chess2, PlayoutsApplyUndoAndRoundTrip) {
  std::mt19937_64 rng(2024);
  size_t plies = 0, games = 0;
  std::map<std::string, int> endings;
  for (size_t i = 0; i < kArmies.size(); ++i)
    for (size_t j = 0; j < kArmies.size(); ++j)
      for (int start : {518, 0, 959, 300}) {
        auto e = make(kArmies[i], kArmies[j], "start:" + std::to_string(start));
        ++games;
        for (int ply = 0; ply < 160; ++ply) {
          std::vector<Action> actions;
          e->legal_actions(actions);
          auto st = e->status();
          if (actions.empty()) {
            EXPECT_NE(st.result, arb::Result::Ongoing) << e->position();
            ++endings[st.reason];
            break;
          }
          EXPECT_EQ(st.result, arb::Result::Ongoing) << e->position();
          std::string before = e->position();
          uint64_t h = e->hash();
          // Round trip of the text.
          auto copy = e->clone();
          copy->set_position(before);
          ASSERT_EQ(copy->position(), before);
          ASSERT_EQ(copy->hash(), h) << before;
          // Every description keeps the invariants of RULINGS 4: one or two steps, the second
          // a warrior king's king-turn; kings and ghosts are never removed; a whirlwind
          // removes something.
          for (const Action& any : actions) {
            auto d = e->describe(any);
            ASSERT_GE(d.steps.size(), 1u);
            ASSERT_LE(d.steps.size(), 2u);
            EXPECT_EQ(d.steps[0].phase, 0);
            if (d.steps.size() == 2) {
              EXPECT_EQ(d.steps[1].phase, 1);
              EXPECT_EQ(d.steps[1].piece, 'W');
            }
            for (const auto& st : d.steps) {
              if (st.kind == arb::StepKind::Remove && st.to == st.from) {
                EXPECT_FALSE(st.removed.empty());
              }
              for (const auto& r : st.removed) {
                char up = static_cast<char>(std::toupper(static_cast<unsigned char>(r.piece)));
                EXPECT_TRUE(up != 'K' && up != 'W' && up != 'G') << e->position() << " " << text_of(*e, any);
              }
            }
          }
          const Action& a = actions[rng() % actions.size()];
          e->apply(a);
          ++plies;
          std::string after = e->position();
          e->undo();
          ASSERT_EQ(e->position(), before);
          ASSERT_EQ(e->hash(), h);
          e->apply(a);
          ASSERT_EQ(e->position(), after);
        }
      }
  std::printf("playouts: %zu games, %zu plies;", games, plies);
  for (const auto& [reason, n] : endings) std::printf(" %s %d", reason.c_str(), n);
  std::printf("\n");
}

// ---------------------------------------------------------------------------------------
// More special rules, on hand-derived positions.

// Midline invasion needs both warrior kings across; a king-turn can complete it, and a
// normal action that completes it ends the game (no king-turn follows).
TEST_P(Chess2, TwoKingsMidlineInvasionInTheKingTurn) {
  const std::string pos = "k7/8/8/4W3/3W4/8/P7/8 w - - 0 1";
  auto e = make("two-kings", "classic", pos);
  EXPECT_TRUE(has(*e, "d4d5"));
  for (const auto& t : legal_texts(*e)) EXPECT_NE(t.rfind("d4d5,", 0), 0u) << t;
  play(*e, "a2a3,d4d5");
  auto st = e->status();
  EXPECT_EQ(st.reason, "midline-invasion");
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  e->set_position(pos);
  play(*e, "a2a3,e5e4");  // one king back: the game goes on
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
}

// RULINGS 4.12: an en-passant right survives a king-turn that occupied the double step's
// origin; the position text keeps it (b2 holds a piece, b3 is still capturable).
TEST_P(Chess2, TwoKingsEnPassantSurvivesAnOccupiedOrigin) {
  const std::string pos = "5k2/8/8/8/pP6/8/1N6/4K3 b - b3 0 1";
  auto c = make("reaper", "empowered", pos);
  EXPECT_EQ(c->position(), pos);
  EXPECT_TRUE(has(*c, "a4b3"));
  // After a king-turn onto the origin: d2d4, then the warrior king c1 to... d2 is the origin.
  auto t = make("two-kings", "classic", "4k3/8/8/8/4p3/8/3P4/2W1W3 w - - 0 1");
  play(*t, "d2d4,e1d2");
  EXPECT_EQ(t->position(), "4k3/8/8/8/3Pp3/8/3W4/2W5 b - d3 0 1");
  EXPECT_TRUE(has(*t, "e4d3"));
}

// RULINGS 4.8: a ghost blocks every piece; a rook stops before it and never takes it.
TEST_P(Chess2, ReaperGhostStopsASlider) {
  auto e = make("classic", "reaper", "7k/8/8/8/g7/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(from_square(*e, "a1"), (Squares{"a2", "a3", "b1", "c1", "d1"}));
  // A knight jumps it.
  auto n = make("classic", "reaper", "7k/8/8/8/8/1g6/8/N3K3 w - - 0 1");
  EXPECT_EQ(from_square(*n, "a1"), (Squares{"c2"}));
}

// RULINGS 4.8: a reaper goes to any empty square and takes any piece but a king, never on
// the enemy back rank, and gives no check; a ghost is never taken, even by a reaper.
TEST_P(Chess2, ReaperTeleportsButNeverOntoTheEnemyBackRankNorAKing) {
  auto e = make("reaper", "classic", "r3k3/8/8/3p4/8/8/8/A3K3 w - - 0 1");
  Squares a = from_square(*e, "a1");
  EXPECT_EQ(a.size(), 53u + 1u);  // the 53 empty squares of ranks 1-7, and the pawn on d5
  EXPECT_TRUE(std::count(a.begin(), a.end(), "d5"));
  EXPECT_FALSE(std::count(a.begin(), a.end(), "a8"));  // the enemy back rank
  EXPECT_FALSE(std::count(a.begin(), a.end(), "b8"));
  // A reaper next to the king gives no check.
  auto c = make("reaper", "classic", "4k3/3A4/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_FALSE(c->status().in_check);
  auto g = make("reaper", "reaper", "4k3/8/8/8/3g4/8/8/A3K3 w - - 0 1");
  Squares ga = from_square(*g, "a1");
  EXPECT_FALSE(std::count(ga.begin(), ga.end(), "d4"));
}

// RULINGS 4.6: a nemesis pawn steps inside the rectangle spanned by it and the enemy king.
TEST_P(Chess2, NemesisPawnRectangleAndNoDoubleStep) {
  auto ne = make("nemesis", "classic", "8/8/5k2/8/3L4/8/8/K7 w - - 0 1");
  EXPECT_EQ(from_square(*ne, "d4"), (Squares{"d5", "e4", "e5"}));
  // Backward and sideways toward a king behind it (on Black's own half: no invasion yet).
  auto sw = make("nemesis", "classic", "8/8/3L4/2k5/8/8/8/7K w - - 0 1");
  EXPECT_EQ(from_square(*sw, "d6"), (Squares{"c6", "d5", "d7"}));
  // No double step from the second rank.
  auto st = make("nemesis", "classic", "4k3/8/8/8/8/8/3L4/K7 w - - 0 1");
  EXPECT_EQ(from_square(*st, "d2"), (Squares{"d3", "e2", "e3"}));
}

// A nemesis pawn's quiet diagonal step and its en-passant capture land on one square; the
// canonical text of the capture names the victim, both read back, and both engines agree.
TEST_P(Chess2, NemesisPawnStepAndEnPassantHaveDistinctTexts) {
  const std::string pos = "7k/8/8/3Lp3/8/8/8/K7 w - e6 0 1";
  auto c = make("nemesis", "classic", pos);
  EXPECT_EQ(from_square(*c, "d5"), (Squares{"d6", "e6", "e6xe5"}));
  for (const std::string text : {"d5e6", "d5e6xe5"}) {
    auto e = make("nemesis", "classic", pos);
    play(*e, text);
    const std::string board = e->position().substr(0, e->position().find(' '));
    EXPECT_EQ(board, text == "d5e6" ? "7k/8/4L3/4p3/8/8/8/K7" : "7k/8/4L3/8/8/8/8/K7");
  }
}

// RULINGS 4.6: the nemesis takes nothing but the king, and only the king takes it; it
// gives check.
TEST_P(Chess2, NemesisCapturesOnlyTheKingBesideIt) {
  auto b = make("nemesis", "classic", "7k/3r4/8/8/3M4/8/8/K7 b - - 0 1");
  EXPECT_TRUE(b->status().in_check);  // the diagonal d4-h8
  Squares r = from_square(*b, "d7");
  EXPECT_FALSE(std::count(r.begin(), r.end(), "d4"));
  auto w = make("nemesis", "classic", "7k/3r4/8/8/8/3M4/8/K7 w - - 0 1");
  Squares m = from_square(*w, "d3");
  EXPECT_FALSE(std::count(m.begin(), m.end(), "d7"));
  EXPECT_TRUE(std::count(m.begin(), m.end(), "d6"));
  // In check from the nemesis beside the king: the rook cannot take it, the king can.
  auto k = make("classic", "nemesis", "7k/8/8/8/8/8/R2m4/3K4 w - - 0 1");
  EXPECT_TRUE(k->status().in_check);
  EXPECT_EQ(legal_texts(*k), (Squares{"d1d2"}));
}

// RULINGS 4.7: an empowered knight beside a friendly rook also moves as a rook; the gain
// is not passed on (the bishop beside the knight gains the knight's move, not the rook's).
TEST_P(Chess2, EmpoweredKnightNextToARook) {
  // The knight d4 stands between a bishop (d5) and a rook (d3): it moves as all three.
  auto e = make("empowered", "classic", "8/8/7k/3X4/3Y4/3Z4/8/K7 w - - 0 1");
  Squares y = from_square(*e, "d4");
  EXPECT_TRUE(std::count(y.begin(), y.end(), "b5"));  // its own knight move
  EXPECT_TRUE(std::count(y.begin(), y.end(), "h4"));  // the rook's
  EXPECT_TRUE(std::count(y.begin(), y.end(), "a7"));  // the bishop's
  Squares x = from_square(*e, "d5");
  EXPECT_TRUE(std::count(x.begin(), x.end(), "f6"));   // the knight's, lent by d4
  EXPECT_FALSE(std::count(x.begin(), x.end(), "e5"));  // the rook's is not passed on through d4
  // Borrowed movement gives check: the knight a1 rides the first rank as the rook a2.
  auto c = make("classic", "empowered", "k7/8/8/8/8/8/8/y5K1 w - - 0 1");
  EXPECT_FALSE(c->status().in_check);
  auto c2 = make("classic", "empowered", "k7/8/8/8/8/8/z7/y5K1 w - - 0 1");
  EXPECT_TRUE(c2->status().in_check);
}

// RULINGS 4.3: a player without a legal move loses; the mover whose king stands on the
// enemy half wins, and the game is over.
TEST_P(Chess2, NoLegalMoveLoses) {
  auto e = make("classic", "classic", "k7/8/1Q6/8/8/8/8/2K5 b - - 0 1");
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "no-legal-move");
  EXPECT_FALSE(st.in_check);
}

TEST_P(Chess2, MidlineInvasionEndsTheGame) {
  auto e = make("classic", "classic", "k7/8/8/8/4K3/8/8/8 w - - 0 1");
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  play(*e, "e4e5");
  auto st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.reason, "midline-invasion");
  EXPECT_TRUE(legal_texts(*e).empty());
  EXPECT_EQ(e->perft(1), 0u);
  e->undo();
  play(*e, "e4d4");  // still on the own half
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
}

// RULINGS 4.1/4.2: each side's pieces come from its army; the start substitutes them.
TEST_P(Chess2, ArmiesOwnTheirPieces) {
  auto e = make("reaper", "nemesis");
  EXPECT_EQ(e->position(), "rnbmkbnr/llllllll/8/8/8/8/PPPPPPPP/GNBAKBNG w - - 0 1");
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), arb::PositionError);  // Q: not White's
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), arb::PositionError);  // no castling
  auto c = make("classic", "empowered", "start:0");
}

// Mandatory promotion to the own army's pieces (RULINGS 4.4, 4.10).
TEST_P(Chess2, PromotionToTheOwnArmy) {
  auto e = make("empowered", "reaper", "7k/P7/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(from_square(*e, "a7"), (Squares{"a8o", "a8x", "a8y", "a8z"}));
  auto n = make("classic", "nemesis", "7k/8/8/8/8/8/1l5K/8 b - - 0 1");
  Squares l = from_square(*n, "b2");
  EXPECT_TRUE(std::count(l.begin(), l.end(), "b1m"));
}

// Classic against Classic is Chess960 where no king can reach the midline: depth 3 from
// suite positions whose kings stand on their first two ranks.
TEST_P(Chess2, PerftClassicIsChess960BelowTheMidline) {
  auto cases = arb::read_perft_suite(testing_helpers::corpus_path("perft/chess960.perft"));
  auto e = make("classic", "classic");
  int checked = 0;
  const int want = testing_helpers::fast() ? 10 : 120;
  for (const auto& c : cases) {
    if (checked >= want) break;
    e->set_position(c.position);
    const std::string board = c.position.substr(0, c.position.find(' '));
    const size_t wk = board.find('K'), bk = board.find('k');
    const int wrank = 8 - static_cast<int>(std::count(board.begin(), board.begin() + wk, '/'));
    const int brank = 1 + static_cast<int>(std::count(board.begin(), board.begin() + bk, '/'));
    if (wrank > 2 || brank > 2) continue;  // three own-king moves at most in depth 3... keep to ranks 1-2
    for (const auto& [depth, nodes] : c.expected) {
      if (depth != 3) continue;
      EXPECT_EQ(e->perft(3), nodes) << c.position;
      ++checked;
    }
  }
  EXPECT_GE(checked, want);
}

// ---------------------------------------------------------------------------------------
// The compiled generator against the reference engine, the mutation suite, the fuzz
// command and the dice procedures: plain TESTs (they need both engines at once, or the
// compiled ruleset itself).

// Hand-derived positions of the rules above on which both engines list the same actions.
TEST(Chess2Agreement, HandDerivedPositions) {
  const std::vector<std::vector<std::string>> cases = {
      {"two-kings", "nemesis", "7k/8/8/8/8/8/3W4/7W b - - 0 1"},
      {"reaper", "empowered", "5k2/8/8/8/pP6/8/1N6/4K3 b - b3 0 1"},
      {"nemesis", "classic", "7k/8/8/3Lp3/8/8/8/K7 w - e6 0 1"},
      {"empowered", "classic", "8/8/7k/3X4/3Y4/3Z4/8/K7 w - - 0 1"},
      {"classic", "empowered", "start:0"},
  };
  for (const auto& c : cases) {
    auto a = compiled(c[0], c[1], c[2]), b = reference(c[0], c[1], c[2]);
    EXPECT_EQ(a->position(), b->position()) << c[0] << "/" << c[1] << " " << c[2];
    EXPECT_EQ(legal_texts(*a), legal_texts(*b)) << c[0] << "/" << c[1] << " " << c[2];
  }
}

TEST(Chess2Agreement, EveryCompiledMatchupAgreesWithTheReference) {
  for (const auto& w : kArmies)
    for (const auto& b : kArmies) {
      auto c = compiled(w, b), r = reference(w, b);
      EXPECT_EQ(c->position(), r->position()) << w << "/" << b;
      EXPECT_EQ(legal_texts(*c), legal_texts(*r)) << w << "/" << b;
      EXPECT_EQ(c->perft(2), r->perft(2)) << w << "/" << b;
    }
}

TEST(Chess2Agreement, DepthThreeFromClassicStartsAndChess960) {
  if (testing_helpers::fast()) GTEST_SKIP() << "depth 3 skipped under ARBITER_FAST";
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"classic", "classic"}, {"nemesis", "empowered"}, {"empowered", "nemesis"},
      {"classic", "reaper"},  {"animals", "reaper"},    {"nemesis", "animals"},
      {"animals", "animals"}, {"two-kings", "animals"}, {"reaper", "two-kings"}};
  for (const auto& [w, b] : pairs)
    for (const std::string start : {"start", "start:0", "start:777"}) {
      auto c = compiled(w, b, start), r = reference(w, b, start);
      EXPECT_EQ(c->perft(3), r->perft(3)) << w << "/" << b << " " << start;
    }
  EXPECT_EQ(compiled("classic", "classic")->perft(3), 8902u);
  // Complete turns (the king-turn included), as the reference counts them.
  EXPECT_EQ(compiled("two-kings", "two-kings")->perft(3), 93974u);
}

// Every matchup with Two Kings or Animals at depth 3 from the start (complete turns).
TEST(Chess2Agreement, DepthThreeForEveryMatchupWithTwoKingsOrAnimals) {
  if (testing_helpers::fast())
    GTEST_SKIP() << "depth 3 skipped under ARBITER_FAST (depth 2 covers every matchup)";
  for (const auto& w : kArmies)
    for (const auto& b : kArmies) {
      const bool new_army = w == "two-kings" || w == "animals" || b == "two-kings" || b == "animals";
      if (!new_army) continue;
      EXPECT_EQ(compiled(w, b)->perft(3), reference(w, b)->perft(3)) << w << "/" << b;
    }
}

// Random games from random Chess960 starts: at every ply the same legal actions, the same
// position text and the same status, and perft 2 on a few of the positions.
TEST(Chess2Agreement, RandomPlayoutsAgreeWithTheReference) {
  std::mt19937_64 rng(20261123);
  const int games = testing_helpers::fast() ? 6 : 48;
  for (int g = 0; g < games; ++g) {
    const std::string& w = kArmies[rng() % kArmies.size()];
    const std::string& b = kArmies[rng() % kArmies.size()];
    const std::string start = "start:" + std::to_string(rng() % 960);
    auto c = compiled(w, b, start), r = reference(w, b, start);
    for (int ply = 0; ply < 80; ++ply) {
      const std::string where = w + "/" + b + " " + c->position();
      ASSERT_EQ(c->position(), r->position()) << where;
      auto lc = legal_texts(*c);
      ASSERT_EQ(lc, legal_texts(*r)) << where;
      auto sc = c->status(), sr = r->status();
      ASSERT_EQ(sc.reason, sr.reason) << where;
      ASSERT_EQ(sc.in_check, sr.in_check) << where;
      if (ply % 20 == 10) {
        ASSERT_EQ(c->perft(2), r->perft(2)) << where;
      }
      if (lc.empty()) break;
      const std::string pick = lc[rng() % lc.size()];
      c->apply(find(*c, pick));
      r->apply(find(*r, pick));
    }
  }
}

// The mutation suite on Chess 2 (arbiter mutate): every mutant of each compiled army's
// special rule is refused, equivalent by construction or killed by the fuzzer, and each
// primitive has a mutant the fuzzer kills.
void expect_mutants_killed(const std::vector<std::pair<std::string, std::string>>& pairs,
                           const std::vector<std::string>& constructs) {
  std::map<std::string, int> killed;
  for (const auto& [w, b] : pairs) {
    arb::mutate::MutateOptions o;
    o.overrides = {{"white-army", w}, {"black-army", b}};
    // Two Kings' turns of two steps make long fuzz games: fewer of them, and its games
    // rarely repeat a position, so a claim mutant may survive there (the other pairs kill
    // those).
    const bool two_kings = w == "two-kings";
    o.fuzz.games = testing_helpers::fast() || two_kings ? 8 : 16;
    arb::mutate::MutateReport r = arb::mutate::run_mutants(testing_helpers::ruleset_path("chess2"), o);
    size_t excused = 0;
    for (const auto& m : r.results) {
      if (m.verdict == "survived" && two_kings && m.mutant.construct == "claim") {
        ++excused;
        continue;
      }
      if (m.verdict == "survived")
        ADD_FAILURE() << m.mutant.line << ":" << m.mutant.col << " " << m.mutant.op << " " << m.mutant.from
                      << " -> " << m.mutant.to;
      if (m.verdict == "killed") ++killed[m.mutant.construct];
      // Dropping the midline invasion leaves the ruleset's own expectation naming a status
      // it can no longer report: the compiler refuses it before the fuzzer sees it.
      if (m.verdict == "refused" && m.mutant.construct == "region-reached" && m.mutant.op == "drop")
        ++killed[m.mutant.construct];
    }
    EXPECT_EQ(r.survived, excused) << w << "/" << b;
  }
  for (const std::string& c : constructs) EXPECT_GT(killed[c], 0) << c;
}

TEST(Chess2Mutants, EachArmysSpecialRuleIsKilled) {
  expect_mutants_killed({{"nemesis", "reaper"}, {"empowered", "classic"}, {"animals", "reaper"}},
                        {"captures", "captured-by", "immune", "teleport", "region-move", "borrows",
                         "region-reached", "promote-to", "castles", "rampage", "strike"});
}

TEST(Chess2Mutants, TwoKingsPrimitivesAreKilled) {
  expect_mutants_killed({{"two-kings", "classic"}}, {"remove-around", "king-turn", "region-reached"});
}

// `arbiter fuzz --matchups N`: random army pairs and Chess960 starts, each compiled pair
// against the reference; the pairs the compiler refuses are counted, not fuzzed.
TEST(Chess2Fuzz, RandomMatchupsAndStarts) {
  auto r = testing_process::run_arbiter({"fuzz", "--variant", "chess2", "--matchups", "8", "--games", "24",
                                         "--seed", "3", "--save-dir", ::testing::TempDir()});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("matchups: 8 random army pairs"), std::string::npos) << r;
  EXPECT_NE(r.out.find("no divergence"), std::string::npos) << r;
  auto bad = testing_process::run_arbiter({"fuzz", "--variant", "chess", "--matchups", "2"});
  EXPECT_EQ(bad.code, 2) << bad;
}

// The rule text's dice procedure (chess2.txt, "Procedure to Determine Starting
// Positions") on the compiled side, lang/src/chess960.cpp. The die faces below are
// splitmix64 from the seed, mapped to faces as README's Chess 2 section states:
//   seed 0: 2 1 2 5 2      dark bishop c1, light b1, queen 2nd of a d e f g h = d, knight 5th
//                          of a e f g h = h, knight 2nd of a e f g = e; R K R on a f g
//   seed 1: 6 2 1 6 4 3    6 rerolled: c1, b1, queen 6th = h, knights 4th of a d e f g = f
//                          and 3rd of a d e g = e; R K R on a d g
//   seed 7: 4 1 1 4 5 4    g1, b1, queen a, knight 4th of c d e f h = f, 5 rerolled, knight
//                          4th of c d e h = h; R K R on c d e
//   seed 10: 5 3 4 5 5 5 4 5 rerolled: e1, light h1, queen 5th of a b c d f g = f, knight 5th
//                          of a b c d g = g, 5 rerolled, knight 4th of a b c d = d; R K R
TEST(Chess2Dice, HandDerivedSeeds) {
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(0)), "RBBQNKRN");
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(1)), "RBBKNNRQ");
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(7)), "QBRKRNBN");
  EXPECT_EQ(arb::lang::chess960_back_rank(arb::lang::chess960_dice_start(10)), "RKRNBQNB");
  EXPECT_EQ(arb::lang::chess960_back_rank(518), "RNBQKBNR");
  EXPECT_EQ(arb::lang::chess960_number("RNBQKBNR"), 518);
  EXPECT_EQ(arb::lang::chess960_number("RNBQRBNK"), -1);  // the king not between the rooks
  EXPECT_EQ(arb::lang::chess960_number("NBNBQRKR"), -1);  // both bishops on light squares
  EXPECT_THROW(arb::lang::chess960_back_rank(960), arb::PositionError);
}

// The compiled and the reference procedures (written apart, the same die) build the same
// start for seeds 0..999, and number the 960 back ranks alike.
TEST(Chess2Dice, AgreesWithTheReference) {
  std::set<int> seen;
  for (int n = 0; n < 960; ++n) {
    ASSERT_EQ(arb::lang::chess960_back_rank(n), arb::ref::chess2_back_rank(n)) << n;
    ASSERT_EQ(arb::lang::chess960_number(arb::lang::chess960_back_rank(n)), n);
  }
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    const int n = arb::lang::chess960_dice_start(seed);
    ASSERT_EQ(n, arb::ref::chess2_dice_start(seed)) << "seed " << seed;
    seen.insert(n);
  }
  EXPECT_EQ(arb::lang::chess960_dice_start(UINT64_MAX), arb::ref::chess2_dice_start(UINT64_MAX));
  EXPECT_GT(seen.size(), 600u);  // 1,000 draws from 960 equally likely starts
}

// `--seed S` on Chess 2 starts both engines from the dice procedure's back rank.
TEST(Chess2Dice, SeedOptionStartsFromTheDicePosition) {
  for (const char* engine : {"compiled", "reference"}) {
    auto r = testing_process::run_arbiter(
        {"moves", "--variant", "chess2", "--engine", engine, "--seed", "10", "--json"});
    EXPECT_EQ(r.code, 0) << r;
    EXPECT_NE(r.out.find("\"position\":\"rkrnbqnb/pppppppp/8/8/8/8/PPPPPPPP/RKRNBQNB w KQkq"),
              std::string::npos)
        << engine << "\n"
        << r;
  }
  auto bad = testing_process::run_arbiter({"perft", "--variant", "chess2", "--seed", "x1", "--depth", "1"});
  EXPECT_EQ(bad.code, 2) << bad;
  EXPECT_NE(bad.err.find("--seed"), std::string::npos) << bad;
}

}  // namespace
