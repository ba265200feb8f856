// Issue 24's regions on the bitboard back end: `region` (named sets of squares, mirrored
// for Black), `confined` (the xiangqi palace, the elephant's own half), `region-betza`
// (the soldier's sideways steps across the river), `royals-not-facing` (the flying
// general), `no-check-given` (racing kings) and `region-reached` on any region, with
// `unless-answered` (racing kings' draw when Black answers White's reaching the 8th rank).
// Each count is by hand; each was also counted by current Fairy-Stockfish (npm
// fairy-stockfish-nnue.wasm 1.1.12) in the variant named beside it, which agrees. The
// catalogue suites (corpus/fsf/*.perft, fsf_catalogue_test) check the same rulesets from
// the start and random positions.
#include <gtest/gtest.h>

#include <string>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;

const std::string kHead = R"(ruleset r
board 9 x 10
region palace d1-f3 mirrored
piece king K { betza "W"; royal; confined palace }
)";
const std::string kTail = R"(setup "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; no-legal-move -> loss }
)";

TEST(RegionsConfined, PalaceAndOwnHalf) {
  // The general on d2 (palace d1-f3): d1 d3, not c2 (off the palace) nor e2 (facing the
  // black general e9). xiangqi: 2.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/9/9/9/9/3K5/9 w - - 0 1")->perft(1), 2u);
  // On d1, a corner: d2 and e1 (e1 faces e9: the flying general). xiangqi: 1.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/9/9/9/9/9/3K5 w - - 0 1")->perft(1), 1u);
  // An advisor on d1: only e2 (c2 off the palace); the general f1: f2 (e1 faces e9, g1
  // is off the palace): 1 + 1. xiangqi: 2.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/9/9/9/9/9/3A1K3 w - - 0 1")->perft(1), 2u);
  // An elephant on c5 (White's side of the river: ranks 1-5): a3 e3, not a7 e7; the
  // general e2: f2 e1 e3, not d2 (facing the black general d9). xiangqi: 5.
  EXPECT_EQ(catalogue_at("xiangqi", "9/3k5/9/9/9/2B6/9/9/4K4/9 w - - 0 1")->perft(1), 5u);
  // Standing across the river (c6), it may only return: a4 e4. xiangqi: 5.
  EXPECT_EQ(catalogue_at("xiangqi", "9/3k5/9/9/2B6/9/9/9/4K4/9 w - - 0 1")->perft(1), 5u);
  // Black's palace and half are mirrored: the black elephant on c6 reaches a8 e8 only; the
  // black general e9: e8 e10 f9, not d9 (facing the white general d2). xiangqi: 5.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/2b6/9/9/9/3K5/9 b - - 0 1")->perft(1), 5u);
}

TEST(RegionsConfined, RefusedOnRidersAndUnknownRegions) {
  std::string e = ruleset_errors(kHead + "piece rook R { betza \"R\"; confined palace }\n" + kTail);
  EXPECT_NE(e.find("r.rules:5:"), std::string::npos) << e;
  EXPECT_NE(e.find("`confined` runs on pieces that leap"), std::string::npos) << e;
  e = ruleset_errors(kHead + "piece advisor A { betza \"F\"; confined palce }\n" + kTail);
  EXPECT_NE(e.find("r.rules:5:39: error: unknown region `palce`"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean `palace`"), std::string::npos) << e;
  // A region off the board, at its rectangle.
  e = ruleset_errors("ruleset r\nboard 9 x 10\nregion palace d1-k3\n" +
                     std::string(R"(piece king K { betza "W"; royal }
)") + kTail);
  EXPECT_NE(e.find("r.rules:3:15: error: region `palace`: off the 9 x 10 board"), std::string::npos)
      << "[" << e << "]";
  // A word that is no area, and a built-in name.
  e = ruleset_errors("ruleset r\nboard 9 x 10\nregion palace d1-f3 sideways\nregion own-half a1\n" +
                     std::string(R"(piece king K { betza "W"; royal }
)") + kTail);
  EXPECT_NE(e.find("r.rules:3:21: error: unexpected `sideways` in `region`"), std::string::npos) << e;
  EXPECT_NE(e.find("r.rules:4:8: error: `own-half` is a built-in region"), std::string::npos) << e;
}

TEST(RegionsBetza, SoldierAcrossTheRiver) {
  // A white soldier on e5 (own side): e6 only; the general e2: d2 f2 e1 e3. xiangqi: 5.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/9/4P4/9/9/4K4/9 w - - 0 1")->perft(1), 5u);
  // On e6 (across): e7 d6 f6; the soldier leaving the e-file would let the generals face
  // (e2, e9): only e7, and the general's d2 f2 e1 e3. xiangqi: 5.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/4P4/9/9/9/4K4/9 w - - 0 1")->perft(1), 5u);
  // On c6, off the generals' file: c7 b6 d6, and the general d2: d1 d3 e2 (c2 off the
  // palace; e2 faces e9? the soldier is on c6: yes, illegal): 3 + 2.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/2P6/9/9/9/3K5/9 w - - 0 1")->perft(1), 5u);
  // A black soldier on e5 (across for Black): e4 d5 f5; black general f9: f8 f10 e9 (e9
  // faces nothing: the white general is on d2): 3 + 3.
  EXPECT_EQ(catalogue_at("xiangqi", "9/5k3/9/9/9/4p4/9/9/3K5/9 b - - 0 1")->perft(1), 6u);
  // Its sideways step attacks: a white soldier on e9 (across) checks the general on f9;
  // one on e5 (own side) does not attack f5.
  EXPECT_TRUE(catalogue_at("xiangqi", "9/4Pk3/9/9/9/9/9/9/3K5/9 b - - 0 1")->status().in_check);
  // region-betza runs plain leaps, unlimited riders and hoppers (janggi_test.cpp), not lame leaps.
  std::string e = ruleset_errors(
      kHead + "piece soldier P { betza \"fW\"; region-betza \"nN\" from enemy-half }\n" + kTail);
  EXPECT_NE(e.find("r.rules:5:44: error: `region-betza` runs plain leaps"), std::string::npos) << e;
}

TEST(RegionsLegality, FlyingGeneral) {
  // A horse on e6 between the generals e2 and e9 may not move (every move leaves the
  // file); the general: d2 f2 e1 e3. xiangqi: 4 (12 without the rule).
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/4N4/9/9/9/4K4/9 w - - 0 1")->perft(1), 4u);
  // The general d2 may not step to e2 (open file to e9): d1 d3. xiangqi: 2.
  EXPECT_EQ(catalogue_at("xiangqi", "9/4k4/9/9/9/9/9/9/3K5/9 w - - 0 1")->perft(1), 2u);
}

TEST(RegionsLegality, NoCheckGiven) {
  // Racing kings: the rook b2 may not check the king h7 (b7, h2): 14 - 2 rook moves, and
  // the king a1's a2 b1. racingkings: 14.
  EXPECT_EQ(catalogue_at("racingkings", "8/7k/8/8/8/8/1R6/K7 w - - 0 1")->perft(1), 14u);
  // The rule is a compile-time choice: without it, 16.
  std::string text = read_text(source_path("rulesets/fsf/racingkings.rules"));
  text.replace(text.find("no-check-given"), 14, "");
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/fsf");
  std::filesystem::copy_file(source_path("rulesets/chess.rules"), dir.path() + "/chess.rules");
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(dir.write("fsf/rk.rules", text), {}, diags);
  ASSERT_TRUE(c.program) << diags.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position("8/7k/8/8/8/8/1R6/K7 w - - 0 1");
  EXPECT_EQ(e->perft(1), 16u);
}

TEST(RegionsReached, KingOfTheHill) {
  // White Ke3, black Ka8: 8 king moves, two of them (d4 e4) onto the hill end the game;
  // Black answers each other one with a7 b7 b8: 6 * 3. kingofthehill: 18.
  auto e = catalogue_at("kingofthehill", "k7/8/8/8/8/4K3/8/8 w - - 0 1");
  EXPECT_EQ(e->perft(2), 18u);
  ASSERT_TRUE(play(*e, "e3e4"));
  const arb::Status st = e->status();
  EXPECT_EQ(st.result, arb::Result::WhiteWins);
  EXPECT_EQ(st.end, arb::Termination::RegionReached);
  EXPECT_EQ(st.reason, "king-of-the-hill");
  EXPECT_EQ(e->perft(1), 0u);
}

TEST(RegionsReached, RacingKingsAnswer) {
  // White's king reached g8; Black's b7 may answer onto a8 b8 c8: all 8 of its moves are
  // played, then the game is over. racingkings: 8, then 0.
  auto e = catalogue_at("racingkings", "6K1/1k6/8/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(e->perft(1), 8u);
  EXPECT_EQ(e->perft(2), 0u);
  EXPECT_EQ(e->status().result, arb::Result::Ongoing);
  ASSERT_TRUE(play(*e, "b7b8"));
  EXPECT_EQ(e->status().result, arb::Result::Draw);
  EXPECT_EQ(e->status().end, arb::Termination::RegionReached);
  e->undo();
  ASSERT_TRUE(play(*e, "b7b6"));
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  // Black's king b5 cannot answer: White has won. racingkings: 0.
  auto f = catalogue_at("racingkings", "6K1/8/8/1k6/8/8/8/8 b - - 0 1");
  EXPECT_EQ(f->perft(1), 0u);
  EXPECT_EQ(f->status().result, arb::Result::WhiteWins);
  // Black reached b8 first: White gets no answer. racingkings: 0.
  auto g = catalogue_at("racingkings", "1k6/8/6K1/8/8/8/8/8 w - - 0 1");
  EXPECT_EQ(g->perft(1), 0u);
  EXPECT_EQ(g->status().result, arb::Result::BlackWins);
}

TEST(RegionsReached, AnyPieceOfTheType) {
  // Breakthrough: one piece on the far rank wins (`any`). White's a7 steps to a8 or b8,
  // ending the game; a2 to a3 or b3, each answered by h3's h2 and g2. breakthrough: 4, 4.
  auto e = catalogue_at("breakthrough", "8/P7/8/8/8/7p/P7/8 w - - 0 1");
  EXPECT_EQ(e->perft(1), 4u);
  EXPECT_EQ(e->perft(2), 4u);
  ASSERT_TRUE(play(*e, "a7b8"));
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().reason, "breakthrough");
}

TEST(RegionsReached, GrammarErrorsAreLocated) {
  const std::string head = R"(ruleset r
board 8 x 8
region hill d4-e5
piece king K { betza "K"; royal }
setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
turn { action move }
legal { royal-safe }
)";
  std::string e = ruleset_errors(
      head + "end { checkmate -> loss; stalemate -> draw; region-reached royal hil -> win }\n");
  EXPECT_NE(e.find("r.rules:8:66: error: unknown region `hil`"), std::string::npos) << e;
  e = ruleset_errors(head + "end { checkmate -> loss; stalemate -> draw; region-reached Z hill -> win }\n");
  EXPECT_NE(e.find("r.rules:8:45: error: `region-reached Z`: no piece `Z`"), std::string::npos) << e;
  e = ruleset_errors(head +
                     "end { checkmate -> loss; stalemate -> draw; region-reached royal hill soon -> win }\n");
  EXPECT_NE(e.find("r.rules:8:71: error: `region-reached` takes"), std::string::npos) << e;
  // The letter form: a queen on the hill wins too.
  EXPECT_EQ(
      ruleset_errors(head + "end { checkmate -> loss; stalemate -> draw; region-reached K hill -> win }\n"),
      "");
}

}  // namespace
