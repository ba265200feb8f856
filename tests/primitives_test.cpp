// Issue 24's first catalogue primitives on the bitboard back end: any rider (`NN`, `N2`,
// `AA`), hoppers (`p` the cannon, `g` the grasshopper) and lame leapers other than straight
// ones (`nN` the xiangqi horse, `nA` the elephant), in move generation and in attack
// detection (check, legality, castling paths). Perft is compared with Fairy-Stockfish 11.1
// where it has the piece (its built-in `cannon`, `horse`, `elephant`; 11.1's custom pieces
// crash, `customPiece1 = a:NN` segfaults at the first search); the nightrider and the
// grasshopper are checked on positions counted by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;
namespace fs = std::filesystem;

// Kings, a rook, a pawn and one piece of each primitive, on a chess board.
const std::string kPieces = R"(ruleset prims
board 8 x 8
piece king K { betza "K"; royal }
piece rook R { betza "R" }
piece nightrider A { betza "NN" }
piece short-nightrider L { betza "N2" }
piece alfilrider X { betza "AA" }
piece cannon C { betza "mRcpR" }
piece grasshopper G { betza "gQ" }
piece horse H { betza "nN" }
piece elephant E { betza "nA" }
piece pawn P {
  betza "fmWfceFifmnD"
  initial ranks 2
  forbidden ranks 1
  promote on rank 8 to R
}
setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)";

std::unique_ptr<arb::Engine> at(const std::string& fen) {
  static const auto program = [] {
    arb::lang::Diagnostics diags;
    auto c = compile_text("prims", kPieces, diags);
    EXPECT_FALSE(diags.has_errors()) << diags.render();
    return c.program;
  }();
  if (!program) throw std::runtime_error("the primitives ruleset does not compile");
  auto e = arb::lang::make_compiled_engine(program);
  e->set_position(fen);
  return e;
}

TEST(PrimitivesRider, NightriderAndCountedRidersByHand) {
  // The nightrider on d4, empty board: e6 f8, c6 b8, e2, c2, f5 h6, b5, f3 h2, b3 = 12;
  // the white king on a8: a7 b7 b8 = 3.
  EXPECT_EQ(at("K7/8/8/8/3A4/8/8/7k w - - 0 1")->perft(1), 15u);
  // A black rook on f5 ends the (2,1) line there, taken (h6 not reached): 11 + 3.
  EXPECT_EQ(at("K7/8/8/5r2/3A4/8/8/7k w - - 0 1")->perft(1), 14u);
  // From a1: NN b3 c5 d7, c2 e3 g4 = 6; N2 two leaps of each: 4; AA c3 e5 g7 = 3; the king
  // on h8: g8 g7 h7 = 3.
  EXPECT_EQ(at("7K/8/8/8/8/8/8/A6k w - - 0 1")->perft(1), 9u);
  EXPECT_EQ(at("7K/8/8/8/8/8/8/L6k w - - 0 1")->perft(1), 7u);
  EXPECT_EQ(at("7K/8/8/8/8/8/8/X6k w - - 0 1")->perft(1), 6u);
}

TEST(PrimitivesRider, NightriderChecksFromAfarAndIsBlocked) {
  // b1's nightrider checks h4 through d2 and f3. Black: the king's five steps (none on the
  // lines b1 rides) and Rf3, the one rook move that blocks.
  auto e = at("5r2/8/8/8/7k/8/8/KA6 b - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  EXPECT_EQ(e->perft(1), 6u);
  // With a black pawn on d2: no check, the rook's 14 moves and the king's 5; d2-d1=R
  // would open the line to h4, so it is illegal.
  e = at("5r2/8/8/8/7k/8/3p4/KA6 b - - 0 1");
  EXPECT_FALSE(e->status().in_check);
  EXPECT_EQ(e->perft(1), 14u + 5u);
}

TEST(PrimitivesHopper, CannonMovesAsARookAndCapturesOverOneScreen) {
  // d4: d5, then the screen d6 and the capture on d8 (not d7, not d6); d3 d2 d1; e4..h4;
  // c4 b4 a4: 12. The king on h1: g1 g2 h2 = 3.
  EXPECT_EQ(at("k2r4/8/3p4/8/3C4/8/8/7K w - - 0 1")->perft(1), 15u);
}

TEST(PrimitivesHopper, CannonChecksOverExactlyOneScreen) {
  // e1's cannon checks e8 over e5: the king may go to d8 f8 d7 f7 but not e7 (still
  // beyond the screen), and e5-e4 keeps the screen on the file.
  auto e = at("4k3/8/8/4p3/8/8/8/K3C3 b - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  EXPECT_EQ(e->perft(1), 4u);
  // No screen: no check, the king's five steps and e5-e4.
  e = at("4k3/8/8/8/8/8/8/K3C3 b - - 0 1");
  EXPECT_FALSE(e->status().in_check);
  EXPECT_EQ(e->perft(1), 5u);
  // Two screens: no check; the king's four steps, e7-e6 and e5-e4 (each keeps two screens).
  e = at("4k3/4p3/8/4p3/8/8/8/K3C3 b - - 0 1");
  EXPECT_FALSE(e->status().in_check);
  EXPECT_EQ(e->perft(1), 6u);
}

TEST(PrimitivesHopper, GrasshopperLandsJustBeyondTheFirstPiece) {
  // d4: over d6 to d7, over f6 to g7, over b4 to a4; over its own king on a1 off the board;
  // the other lines have no piece: 3. d6-d7, and the king's a2 b1 b2: 7.
  EXPECT_EQ(at("7k/8/3P1p2/8/1p1G4/8/8/K7 w - - 0 1")->perft(1), 7u);
  // a1's grasshopper checks e5 over d4. Black: the king's seven free steps, and d4-d3
  // (the king itself is then the first piece, the landing square f6).
  auto e = at("8/8/8/4k3/3p4/8/8/G6K b - - 0 1");
  EXPECT_TRUE(e->status().in_check);
  EXPECT_EQ(e->perft(1), 8u);
}

TEST(PrimitivesLame, HorseAndElephantAreBlockedOnTheirLegs) {
  // The horse on d4: d5 blocks e6 c6, e4 blocks f5 f3; e2 c2 b5 b3 = 4; d5-d6; the king's
  // a2 b1 b2: 8.
  EXPECT_EQ(at("7k/8/8/3P4/3Hp3/8/8/K7 w - - 0 1")->perft(1), 8u);
  // The elephant on d4: e5 blocks f6; b2 f2 b6 = 3; e5-e6; the king's 3: 7.
  EXPECT_EQ(at("7k/8/8/4P3/3E4/8/8/K7 w - - 0 1")->perft(1), 7u);
  // The horse's check on e6 runs through d5: blocked by a piece there.
  EXPECT_TRUE(at("8/8/4k3/8/3H4/8/8/K7 b - - 0 1")->status().in_check);
  EXPECT_FALSE(at("8/8/4k3/3p4/3H4/8/8/K7 b - - 0 1")->status().in_check);
}

TEST(PrimitivesErrors, FormsNotExecutableYetAreLocatedErrors) {
  int k = 0;
  for (const char* betza : {"pN", "gR3", "nNN"}) {
    std::string text = kPieces;
    const std::string name = "bad" + std::to_string(k++);
    text.replace(text.find("\"mRcpR\""), 7, std::string("\"") + betza + "\"");
    arb::lang::Diagnostics diags;
    arb::lang::Compiled c = compile_text(name, text, diags);
    EXPECT_EQ(c.program, nullptr) << betza;
    const std::string r = diags.render();
    EXPECT_NE(r.find(name + ".rules:8:"), std::string::npos) << betza << "\n" << r;
    EXPECT_NE(r.find("not executable yet"), std::string::npos) << betza << "\n" << r;
  }
}

struct Count {
  const char* variant;
  const char* fen;  // "" = the start
  int depth;
  uint64_t nodes;
};

// Fairy-Stockfish 11.1 with the ini beside each ruleset, measured 2026-11-27:
//   arbiter perft --engine fairy-stockfish --fsf-variant V
//     --fsf-variant-path corpus/rulesets/V.ini [--position FEN] --depth N
// (that is: `setoption name VariantPath value corpus/rulesets/V.ini`,
// `setoption name UCI_Variant value V`, `position fen FEN`, `go perft N`). The four
// positions of each are random play of 14 plies from the start (seed 24).
const Count kFsf[] = {
    {"cannon-chess", "", 1, 18u},
    {"cannon-chess", "", 2, 322u},
    {"cannon-chess", "", 3, 6778u},
    {"cannon-chess", "", 4, 142674u},
    {"xiangqi-pieces-chess", "", 1, 16u},
    {"xiangqi-pieces-chess", "", 2, 256u},
    {"xiangqi-pieces-chess", "", 3, 4566u},
    {"xiangqi-pieces-chess", "", 4, 81159u},
    {"cannon-chess", "r1bk1bcr/p3qp1p/4p3/1ppp4/1c4C1/B4P2/P1PPP1PP/RC1QKB1R w KQ - 0 8", 1, 29u},
    {"cannon-chess", "r1bk1bcr/p3qp1p/4p3/1ppp4/1c4C1/B4P2/P1PPP1PP/RC1QKB1R w KQ - 0 8", 2, 1034u},
    {"cannon-chess", "r1bk1bcr/p3qp1p/4p3/1ppp4/1c4C1/B4P2/P1PPP1PP/RC1QKB1R w KQ - 0 8", 3, 28767u},
    {"cannon-chess", "r1bk1bcr/p3qp1p/4p3/1ppp4/1c4C1/B4P2/P1PPP1PP/RC1QKB1R w KQ - 0 8", 4, 1052015u},
    {"cannon-chess", "1rb1kbcr/p1p1pp1p/1c6/6p1/3PP1q1/8/P1P2P1P/R1BQKBCR w KQk - 0 8", 1, 33u},
    {"cannon-chess", "1rb1kbcr/p1p1pp1p/1c6/6p1/3PP1q1/8/P1P2P1P/R1BQKBCR w KQk - 0 8", 2, 1579u},
    {"cannon-chess", "1rb1kbcr/p1p1pp1p/1c6/6p1/3PP1q1/8/P1P2P1P/R1BQKBCR w KQk - 0 8", 3, 50216u},
    {"cannon-chess", "1rb1kbcr/p1p1pp1p/1c6/6p1/3PP1q1/8/P1P2P1P/R1BQKBCR w KQk - 0 8", 4, 2336854u},
    {"cannon-chess", "rcb1kb1r/p1ppq1pp/1p2p3/5p2/P4P2/1P6/1CPPP1cP/R1BQKBCR w KQkq - 3 8", 1, 19u},
    {"cannon-chess", "rcb1kb1r/p1ppq1pp/1p2p3/5p2/P4P2/1P6/1CPPP1cP/R1BQKBCR w KQkq - 3 8", 2, 645u},
    {"cannon-chess", "rcb1kb1r/p1ppq1pp/1p2p3/5p2/P4P2/1P6/1CPPP1cP/R1BQKBCR w KQkq - 3 8", 3, 13861u},
    {"cannon-chess", "rcb1kb1r/p1ppq1pp/1p2p3/5p2/P4P2/1P6/1CPPP1cP/R1BQKBCR w KQkq - 3 8", 4, 480101u},
    {"cannon-chess", "rcq1kb1r/1b1pp1pp/5p1B/ppp5/3P4/2P2P2/PP2P1cP/RC1QKBCR w KQkq - 0 8", 1, 29u},
    {"cannon-chess", "rcq1kb1r/1b1pp1pp/5p1B/ppp5/3P4/2P2P2/PP2P1cP/RC1QKBCR w KQkq - 0 8", 2, 896u},
    {"cannon-chess", "rcq1kb1r/1b1pp1pp/5p1B/ppp5/3P4/2P2P2/PP2P1cP/RC1QKBCR w KQkq - 0 8", 3, 27469u},
    {"cannon-chess", "rcq1kb1r/1b1pp1pp/5p1B/ppp5/3P4/2P2P2/PP2P1cP/RC1QKBCR w KQkq - 0 8", 4, 886870u},
    {"xiangqi-pieces-chess", "rhe2ehr/p2k1ppp/1q2p3/1p1p4/1p2P3/P1P2PPE/3P3P/RHEQK1HR w KQ - 0 8", 1, 20u},
    {"xiangqi-pieces-chess", "rhe2ehr/p2k1ppp/1q2p3/1p1p4/1p2P3/P1P2PPE/3P3P/RHEQK1HR w KQ - 0 8", 2, 705u},
    {"xiangqi-pieces-chess", "rhe2ehr/p2k1ppp/1q2p3/1p1p4/1p2P3/P1P2PPE/3P3P/RHEQK1HR w KQ - 0 8", 3, 14424u},
    {"xiangqi-pieces-chess", "rhe2ehr/p2k1ppp/1q2p3/1p1p4/1p2P3/P1P2PPE/3P3P/RHEQK1HR w KQ - 0 8", 4,
     465537u},
    {"xiangqi-pieces-chess", "1h1qkehr/rp3ppp/p1Pp4/4p3/P1e4P/H5P1/2PPPP2/R1EQKEHR w KQk - 0 8", 1, 21u},
    {"xiangqi-pieces-chess", "1h1qkehr/rp3ppp/p1Pp4/4p3/P1e4P/H5P1/2PPPP2/R1EQKEHR w KQk - 0 8", 2, 559u},
    {"xiangqi-pieces-chess", "1h1qkehr/rp3ppp/p1Pp4/4p3/P1e4P/H5P1/2PPPP2/R1EQKEHR w KQk - 0 8", 3, 12450u},
    {"xiangqi-pieces-chess", "1h1qkehr/rp3ppp/p1Pp4/4p3/P1e4P/H5P1/2PPPP2/R1EQKEHR w KQk - 0 8", 4, 331200u},
    {"xiangqi-pieces-chess", "rheq1ehr/p1p1pk1p/1p6/3p1p2/P1P1P3/3P1Q2/1P3P1P/RHE1KEHR w KQ - 1 8", 1, 29u},
    {"xiangqi-pieces-chess", "rheq1ehr/p1p1pk1p/1p6/3p1p2/P1P1P3/3P1Q2/1P3P1P/RHE1KEHR w KQ - 1 8", 2, 748u},
    {"xiangqi-pieces-chess", "rheq1ehr/p1p1pk1p/1p6/3p1p2/P1P1P3/3P1Q2/1P3P1P/RHE1KEHR w KQ - 1 8", 3,
     22067u},
    {"xiangqi-pieces-chess", "rheq1ehr/p1p1pk1p/1p6/3p1p2/P1P1P3/3P1Q2/1P3P1P/RHE1KEHR w KQ - 1 8", 4,
     558057u},
    {"xiangqi-pieces-chess", "rheqkehr/1pp5/p3p1p1/3pH3/8/2P1P1P1/PP1P1P1P/RHE1KE1R w KQ - 0 8", 1, 22u},
    {"xiangqi-pieces-chess", "rheqkehr/1pp5/p3p1p1/3pH3/8/2P1P1P1/PP1P1P1P/RHE1KE1R w KQ - 0 8", 2, 593u},
    {"xiangqi-pieces-chess", "rheqkehr/1pp5/p3p1p1/3pH3/8/2P1P1P1/PP1P1P1P/RHE1KE1R w KQ - 0 8", 3, 12819u},
    {"xiangqi-pieces-chess", "rheqkehr/1pp5/p3p1p1/3pH3/8/2P1P1P1/PP1P1P1P/RHE1KE1R w KQ - 0 8", 4, 362286u},
};

TEST(PrimitivesFairyStockfish, PerftAgreesWithFairyStockfish) {
  for (const Count& c : kFsf) {
    if (fast() && c.nodes > perft_budget(UINT64_MAX)) continue;
    arb::lang::Diagnostics diags;
    arb::lang::Compiled comp = arb::lang::compile_file(
        source_path(std::string("corpus/rulesets/") + c.variant + ".rules"), {}, diags);
    ASSERT_NE(comp.program, nullptr) << diags.render();
    auto e = arb::lang::make_compiled_engine(comp.program);
    if (*c.fen) e->set_position(c.fen);
    EXPECT_EQ(e->perft(c.depth), c.nodes) << c.variant << " " << c.fen << " depth " << c.depth;
  }
}

}  // namespace

// A pinned line jumper (the alfil, Betza A) stays between its king and the pinner: it may
// take the pinner but not leap over it onto the pin's line beyond (found by courier's
// Fairy-Stockfish perft, courier-r6 in corpus/fsf/courier.perft).
TEST(PrimitivesPin, PinnedAlfilDoesNotJumpOverThePinner) {
  const std::string text = R"(ruleset pinned-alfil
board 8 x 8
piece king K { betza "K"; royal }
piece bishop B { betza "B" }
piece alfil E { betza "A" }
setup "7k/8/8/8/8/8/8/K7 w - - 0 1"
turn { action move }
legal { royal-safe }
end { checkmate -> loss; stalemate -> draw }
)";
  arb::lang::Diagnostics diags;
  auto c = compile_text("pinned-alfil", text, diags);
  ASSERT_NE(c.program, nullptr) << diags.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  // The bishop d4 pins c3 to a1: the alfil's e5 lies beyond the pinner, a5 and e1 off the
  // line; the king's a2 b1 b2 remain.
  e->set_position("7k/8/8/8/3b4/2E5/8/K7 w - - 0 1");
  EXPECT_EQ(e->perft(1), 3u);
  // The pinner on e5 two squares away: the alfil takes it (its other leaps leave the line).
  e->set_position("7k/8/8/4b3/8/2E5/8/K7 w - - 0 1");
  EXPECT_EQ(e->perft(1), 4u);
  std::vector<arb::Action> actions;
  e->legal_actions(actions);
  bool takes = false;
  for (const auto& a : actions) takes = takes || canonical(*e, a) == "c3e5";
  EXPECT_TRUE(takes);
}

// `en-passant ranks R` (horde, Fairy-Stockfish's enPassantRegion): a White pawn's double
// step from rank 1 passes a2, which Black may not take en passant (Fairy-Stockfish: b3b2
// and the king's five steps, 6); from rank 2 the square passed is on Black's sixth rank
// and the capture stands. White plays without a royal piece: a K of White's is refused.
TEST(PrimitivesEnPassantRanks, HordeDoubleStepFromRankOneIsNotTakenEnPassant) {
  auto e = compiled_at("fsf/horde", "4k3/8/8/8/8/1p6/8/P7 w - - 0 1");
  e->apply(find_action(*e, "a1a3"));
  EXPECT_EQ(e->perft(1), 6u);
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/Pp6/8/8 b - - 0 1");
  e->set_position("4k3/8/8/8/1p6/8/P7/8 w - - 0 1");
  e->apply(find_action(*e, "a2a4"));
  EXPECT_EQ(e->position(), "4k3/8/8/8/Pp6/8/8/8 b - a3 0 1");
  EXPECT_EQ(e->perft(1), 7u);  // b4b3, b4xa3 en passant, the king's five
  EXPECT_THROW(e->set_position("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), arb::PositionError);
}
