// Flipping pieces and passes (issue 24; lang/src/gen_flip.hpp, flip_compile.cpp) on
// positions counted by hand: `converts adjacent` (ataxx) and `converts enclosed` (Reversi),
// the placement conditions `adjacent-to own`, `encloses [opening REGION]` and `supply
// unlimited`, `pass when-blocked`, and the ends `board-full` and `passes N` with the pieces
// counted. Each count here was also asked of Fairy-Stockfish (npm 1.1.12, `go perft`), which
// agrees; the catalogue suites (corpus/fsf/{ataxx,flipello,flipello10,flipersi}.perft) are
// fsf_catalogue_test's.
#include <gtest/gtest.h>

#include <string>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;

std::unique_ptr<arb::Engine> fsf_at(const std::string& variant, const std::string& fen) {
  return compiled_at("fsf/" + variant, fen);
}

std::string hand(int white, int black) {
  return "[" + std::string(static_cast<size_t>(white), 'P') + std::string(static_cast<size_t>(black), 'p') +
         "]";
}

TEST(FlipAtaxx, StartClonesAndJumps) {
  // Each corner stone: 3 clones onto its empty neighbours (one drop per square) and 5 jumps
  // to the squares at king distance 2: 2 x 8 = 16.
  auto e = compiled_engine("fsf/ataxx");
  EXPECT_EQ(e->perft(1), 16u);
  const auto moves = legal_texts(*e);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "P@f2"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "g1e3"), moves.end());
  EXPECT_EQ(e->position(), "P5p/7/7/7/7/7/p5P w - - 0 1");  // no hand: the supply is endless
}

TEST(FlipAtaxx, AdjacentEnemyStonesTurn) {
  // White a1, Black b2: clones a2 b1, jumps a3 b3 c3 c2 c1 (7); every one lands next to b2,
  // which turns, and Black, without a stone, has no move: perft 2 = 0.
  auto e = fsf_at("ataxx", "7/7/7/7/7/1p5/P6 w - - 0 1");
  EXPECT_EQ(e->perft(1), 7u);
  EXPECT_EQ(e->perft(2), 0u);
  ASSERT_TRUE(play(*e, "P@a2"));
  EXPECT_EQ(e->position(), "7/7/7/7/7/PP5/P6 b - - 0 1");
  const arb::Status st = e->status();
  EXPECT_EQ(st.end, arb::Termination::Stalemate);  // a side without stones: fewer pieces, lost
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  e->undo();
  EXPECT_EQ(e->position(), "7/7/7/7/7/1p5/P6 w - - 0 1");  // the stone turns back
  ASSERT_TRUE(play(*e, "a1c3"));                           // a jump leaves its square; c3 touches b2
  EXPECT_EQ(e->position(), "7/7/7/7/2P4/1P5/7 b - - 1 1");
}

TEST(FlipAtaxx, ABlockedSidePasses) {
  // White a1 walled in by Black a2 a3 b1 b2 b3 c1 c2 c3: no clone, no jump, so White
  // passes (perft 1 = 1). Black then has 7 clones (a4 b4 c4 d4 d1 d2 d3) and 48 jumps
  // (a2 3, a3 4, b1 3, b2 7, b3 8, c1 4, c2 8, c3 11): 55.
  auto e = fsf_at("ataxx", "7/7/7/7/ppp4/ppp4/Ppp4 w - - 0 1");
  EXPECT_EQ(legal_texts(*e), std::vector<std::string>{"pass"});
  EXPECT_EQ(e->perft(2), 55u);
  ASSERT_TRUE(play(*e, "pass"));
  EXPECT_EQ(e->position(), "7/7/7/7/ppp4/ppp4/Ppp4 b - - 1 1");
  EXPECT_EQ(e->status().end, arb::Termination::None);  // one pass does not end the game
}

TEST(FlipAtaxx, AFullBoardEndsTheGameCounted) {
  // 25 White stones, 24 Black: the game is over, White has more.
  auto e = fsf_at("ataxx", "PPPPPPP/PPPPPPP/PPPPPPP/PPPPppp/ppppppp/ppppppp/ppppppp b - - 0 1");
  EXPECT_EQ(e->perft(1), 0u);
  const arb::Status st = e->status();
  EXPECT_EQ(st.end, arb::Termination::BoardFull);
  EXPECT_EQ(st.reason, "board-full");
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
}

TEST(FlipReversi, OpeningSquaresFirst) {
  // Flipersi starts empty: the first four discs go on d4 e4 d5 e5, enclosing nothing:
  // 4, 4 x 3, 4 x 3 x 2, then the fourth disc fills the centre: 24.
  auto e = compiled_engine("fsf/flipersi");
  EXPECT_EQ(e->perft(1), 4u);
  EXPECT_EQ(e->perft(2), 12u);
  EXPECT_EQ(e->perft(3), 24u);
  EXPECT_EQ(e->perft(4), 24u);
  // Flipello's Othello start: White encloses one disc in each of four ways.
  auto f = compiled_engine("fsf/flipello");
  EXPECT_EQ(legal_texts(*f), (std::vector<std::string>{"P@c5", "P@d6", "P@e3", "P@f4"}));
}

TEST(FlipReversi, EnclosedLinesTurn) {
  // White a1 c3, Black d4 e4 d5 e5: the only enclosing drop is f6 (f6-e5-d4-c3 turns e5 and
  // d4); Black's only one is b2 (b2-c3-d4 turns c3).
  const std::string h = hand(58, 59);
  auto w = fsf_at("flipello", "8/8/8/3pp3/3pp3/2P5/8/P7" + h + " w - - 0 1");
  EXPECT_EQ(legal_texts(*w), std::vector<std::string>{"P@f6"});
  EXPECT_EQ(w->perft(2), 4u);
  ASSERT_TRUE(play(*w, "P@f6"));
  EXPECT_EQ(w->position(), "8/8/5P2/3pP3/3Pp3/2P5/8/P7" + hand(57, 59) + " b - - 0 1");
  auto b = fsf_at("flipello", "8/8/8/3pp3/3pp3/2P5/8/P7" + h + " b - - 0 1");
  EXPECT_EQ(legal_texts(*b), std::vector<std::string>{"P@b2"});
  ASSERT_TRUE(play(*b, "P@b2"));
  EXPECT_EQ(b->position(), "8/8/8/3pp3/3pp3/2p5/1p6/P7" + hand(58, 58) + " w - - 0 2");
}

TEST(FlipReversi, TwoPassesEndTheGame) {
  // White's centre, Black a8: neither encloses anything. White passes, Black passes, and
  // the game is over after the second pass: perft 1, 1, 0; White has 4 discs, Black 1.
  auto e = fsf_at("flipello", "p7/8/8/3PP3/3PP3/8/8/8" + hand(58, 59) + " w - - 0 1");
  EXPECT_EQ(e->perft(1), 1u);
  EXPECT_EQ(e->perft(2), 1u);
  EXPECT_EQ(e->perft(3), 0u);
  ASSERT_TRUE(play(*e, "pass"));
  EXPECT_EQ(e->status().end, arb::Termination::None);
  ASSERT_TRUE(play(*e, "pass"));
  const arb::Status st = e->status();
  EXPECT_EQ(st.end, arb::Termination::Passes);
  EXPECT_EQ(st.reason, "passes");
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
}

TEST(FlipReversi, WithoutPassesABlockedSideIsStalemated) {
  // Flipersi does not pass: the same blocked White is stalemated, and wins on the board
  // count (4 discs to 1; the hands do not count).
  auto e = fsf_at("flipersi", "p7/8/8/3PP3/3PP3/8/8/8" + hand(28, 31) + " w - - 0 1");
  EXPECT_EQ(e->perft(1), 0u);
  const arb::Status st = e->status();
  EXPECT_EQ(st.end, arb::Termination::Stalemate);
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
}

TEST(FlipReversi, PositionsCountBothColoursTogether) {
  // Discs change sides: White may hold more than it started with, but not more discs than
  // the set has, nor a hand larger than the start's.
  // White 24 discs on the board and 16 in hand (40, more than its 32), Black 20 in hand:
  // 60 of the set's 64.
  const std::string board = "PPPPPPPP/PPPPPPPP/PPPPPPPP/8/8/8/8/8";
  EXPECT_NO_THROW(fsf_at("flipersi", board + hand(16, 20) + " b - - 0 1"));
  EXPECT_THROW(fsf_at("flipersi", board + hand(16, 33) + " b - - 0 1"), arb::PositionError);  // hand > 32
  EXPECT_THROW(fsf_at("flipersi", board + hand(16, 30) + " b - - 0 1"), arb::PositionError);  // 70 discs
}

TEST(FlipErrors, MisuseIsLocated) {
  const std::string base =
      "ruleset bad\nboard 8 x 8\ncastling none\nsetup \"8/8/8/3pP3/3Pp3/8/8/8[PPPPpppp] w - - 0 1\"\n"
      "reserve P*4\nlegal { }\n";
  struct Case {
    std::string name, text, where, what;
  };
  const std::vector<Case> cases = {
      {"flipbad1",
       "piece disc P { immobile; converts enclosed }\npiece king K { betza \"K\"; royal }\n"
       "turn { action place }\nend { stalemate -> draw; checkmate -> loss }\n",
       "flipbad1.rules:7:", "`converts` with a royal piece"},
      {"flipbad2",
       "piece disc P { immobile; converts enclosed }\nturn { action place }\n"
       "end { stalemate -> draw; passes 2 -> most-pieces }\n",
       "flipbad2.rules:9:", "`passes` counts passes, but the turn has none"},
      {"flipbad3",
       "piece disc P { betza \"W\"; immobile }\nturn { action place }\nend { stalemate -> draw }\n",
       "flipbad3.rules:7:", "is `immobile` but has `betza` moves"},
      {"flipbad4",
       "piece disc P { immobile }\nturn { action place }\nplacement { supply unlimited }\n"
       "end { stalemate -> draw }\n",
       "flipbad4.rules:9:", "`supply unlimited` with a `reserve`"},
      {"flipbad5",
       "piece disc P { betza \"W\" }\nturn { action move }\nplacement { encloses }\nend { stalemate -> draw "
       "}\n",
       "flipbad5.rules:9:", "`encloses` restricts placements, but the turn has none"},
      {"flipbad6",
       "piece disc P { immobile; converts sideways }\nturn { action place }\nend { stalemate -> draw }\n",
       "flipbad6.rules:7:", "adjacent|enclosed"},
      {"flipbad7",
       "piece disc P { betza \"W\"; converts adjacent; remove-around radius 1 when capture }\n"
       "turn { action move }\nend { stalemate -> draw }\n",
       "flipbad7.rules:7:", "`converts` with a removing effect"},
  };
  for (const Case& c : cases) {
    arb::lang::Diagnostics d;
    auto compiled = compile_text(c.name, base + c.text, d);
    EXPECT_TRUE(d.has_errors()) << c.name;
    EXPECT_NE(d.render().find(c.where), std::string::npos) << c.name << ":\n" << d.render();
    EXPECT_NE(d.render().find(c.what), std::string::npos) << c.name << ":\n" << d.render();
  }
}

}  // namespace
