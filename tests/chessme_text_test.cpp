// The shared ChessMe position text (engine/include/arbiter/chessme_text.hpp): round trips,
// rejections with their columns, and the seeded start positions.
#include "arbiter/chessme_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace {

using arb::ChessMePosition;
using arb::Coord;
using arb::format_chessme;
using arb::parse_chessme;
using arb::PositionError;

// The column of the PositionError that `text` raises (or -1 when it parses).
long error_column(const std::string& text, std::string* message = nullptr) {
  try {
    parse_chessme(text);
  } catch (const PositionError& e) {
    if (message) *message = e.what();
    return static_cast<long>(e.column);
  }
  return -1;
}

TEST(ChessMeText, RoundTripsCanonicalText) {
  const char* texts[] = {
      "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w BNP/rbb RQRNPBPP/pppnpqrn -/- 1",
      "Kc1,k(-1000000,-5) b -/- ?/- -/- 12",
      "k(30,40),Q(-3,0),K(0,0) w -/- -/? -/- 7",
      "kz9,Ka1 w Q/- ?/rr p/RN 40",
      "K(-1,1),Pa1,Pz1,k(26,1) b P/ppp PPP/- -/QRRBBNN 999999999",
      "k(-1000000000,1000000000),K(1000000000,-1000000000) w -/- -/- -/- 3",
      "Kc1,k(-1000000,-5) w RBN/qrn -/- pp/- 2",
  };
  for (const char* t : texts) {
    SCOPED_TRACE(t);
    EXPECT_EQ(format_chessme(parse_chessme(t)), t);
  }
}

TEST(ChessMeText, ParsesFarAndNegativeSquares) {
  ChessMePosition p = parse_chessme("Kc1,k(-1000000,-5) b -/- ?/- -/- 12");
  ASSERT_EQ(p.pieces.size(), 2u);
  EXPECT_EQ(p.pieces[0].first, (Coord{2, 1}));
  EXPECT_EQ(p.pieces[0].second, 'K');
  EXPECT_EQ(p.pieces[1].first, (Coord{-1000000, -5}));
  EXPECT_EQ(p.pieces[1].second, 'k');
  EXPECT_EQ(p.side, arb::Color::Black);
  EXPECT_FALSE(p.pile_known[0]);
  EXPECT_TRUE(p.pile_known[1]);
  EXPECT_EQ(p.fullmove, 12);
}

TEST(ChessMeText, CanonicalisesMultisetFields) {
  // Pieces, hands and capture piles in any order; the general form of an algebraic square;
  // extra blanks between fields. The draw pile keeps its order.
  EXPECT_EQ(format_chessme(parse_chessme("  K(2,1),kc6,Pb2,Pa2  w\tPNQ/pn  BP/bp np/NR 5 ")),
            "kc6,Pa2,Pb2,Kc1 w QNP/np BP/bp np/RN 5");
  ChessMePosition p = parse_chessme("kc6,Kc1 w -/- RBP/- -/- 1");
  EXPECT_EQ(p.pile[0], "RBP");
}

TEST(ChessMeText, StartPositionsAreSeededAndDeterministic) {
  // Fisher-Yates over QRRBBNNPPPP with splitmix64 (see the header); the values were
  // cross-checked against an independent script of the documented algorithm.
  EXPECT_EQ(arb::chessme_start(1),
            "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w BNP/rbb RQRNPBPP/pppnpqrn -/- 1");
  EXPECT_EQ(arb::chessme_start(2),
            "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w RPP/npp NRPBBQPN/pqnrpbrb -/- 1");
  EXPECT_EQ(arb::chessme_start(1), arb::chessme_start(1));
  EXPECT_NE(arb::chessme_start(1), arb::chessme_start(2));
  for (uint64_t seed : {0ull, 1ull, 2ull, 3ull, 12345ull, ~0ull}) {
    std::string t = arb::chessme_start(seed);
    SCOPED_TRACE(t);
    ChessMePosition p = parse_chessme(t);
    EXPECT_EQ(format_chessme(p), t);
    // Each side holds its whole 16-tile set: board + hand + pile.
    for (int c = 0; c < 2; ++c) {
      std::map<char, int> n;
      for (const auto& [sq, pc] : p.pieces)
        if ((std::isupper(static_cast<unsigned char>(pc)) != 0) == (c == 0))
          ++n[static_cast<char>(std::toupper(pc))];
      for (char ch : p.hand[c] + p.pile[c]) ++n[static_cast<char>(std::toupper(ch))];
      EXPECT_EQ(n, (std::map<char, int>{{'K', 1}, {'Q', 1}, {'R', 2}, {'B', 2}, {'N', 2}, {'P', 8}}));
      EXPECT_EQ(p.hand[c].size(), 3u);
      EXPECT_EQ(p.pile[c].size(), 8u);
    }
  }
}

TEST(ChessMeText, RejectsMalformedTextWithColumns) {
  struct Case {
    std::string text;
    long column;
  };
  const std::string tail = " w -/- -/- -/- 1";
  std::vector<Case> cases = {
      {"", 0},
      {"   ", 0},
      // Missing fields: the column is the end of the text.
      {"kc6,Kc1 w -/- -/-", 17},
      {"kc6,Kc1", 7},
      // Unknown letters, in the pieces and in the hands.
      {"kc6,Xc1" + tail, 4},
      {"kc6,Kc1 w QX/- -/- -/- 1", 11},
      // Wrong case in a one-colour field.
      {"kc6,Kc1 w Qq/- -/- -/- 1", 11},
      {"kc6,Kc1 w -/Q -/- -/- 1", 12},
      {"kc6,Kc1 w -/- r/- -/- 1", 14},
      {"kc6,Kc1 w -/- -/- Q/- 1", 18},
      {"kc6,Kc1 w -/- -/- -/q 1", 20},
      // Duplicate squares, also through the general form.
      {"kc6,Kc1,Pc1" + tail, 8},
      {"kc6,Kc1,Pa1,P(0,1)" + tail, 12},
      // Bad squares and separators.
      {"kc6,Ka0" + tail, 5},
      {"kc6,K(1,2" + tail, 5},
      {"kc6,,Kc1" + tail, 4},
      {"kc6;Kc1" + tail, 3},
      {"kc6,Kc1," + tail, 8},
      // Side to move.
      {"kc6,Kc1 W -/- -/- -/- 1", 8},
      // Pair fields.
      {"kc6,Kc1 w - -/- -/- 1", 10},
      {"kc6,Kc1 w -/-/- -/- -/- 1", 13},
      {"kc6,Kc1 w /- -/- -/- 1", 10},
      {"kc6,Kc1 w ?/- -/- -/- 1", 10},
      {"kc6,Kc1 w -/- -/- ?/- 1", 18},
      // Bad numbers.
      {"kc6,Kc1 w -/- -/- -/- 0", 22},
      {"kc6,Kc1 w -/- -/- -/- -3", 22},
      {"kc6,Kc1 w -/- -/- -/- 1a", 23},
      {"kc6,Kc1 w -/- -/- -/- 12345678901", 22},
      // A hand over 3 tiles: the fourth tile.
      {"kc6,Kc1 w QRBN/- -/- -/- 1", 13},
      // Kings on the board.
      {"kc6" + tail, 0},
      {"kc6,Pc2" + tail, 0},
      {"kc6,kd6,Kc1" + tail, 4},
      {"kc6,Kc1 w K/- -/- -/- 1", 10},
      // More tiles than the set holds: the tile that exceeds it.
      {"kc6,Qa1,Kc1 w Q/- -/- -/- 1", 14},
      {"kc6,Kc1 w -/- -/- -/QQ 1", 21},
      {"kc6,Kc1 w R/- R/- -/R 1", 20},
      {"kc6,Pa2,Pb2,Pc2,Pd2,Pe2,Pf2,Pg2,Ph2,Kc1 w P/- -/- -/- 1", 42},
      {"kc6,Kc1 w -/nn -/n -/- 1", 17},
      // Text after the last field.
      {"kc6,Kc1 w -/- -/- -/- 1 x", 24},
      {"kc6,Kc1 w -/- -/- -/- 1 2", 24},
  };
  for (const Case& c : cases) {
    std::string message;
    long col = error_column(c.text, &message);
    EXPECT_EQ(col, c.column) << "text '" << c.text << "' message: " << message;
  }
}

TEST(ChessMeText, ErrorMessagesNameTheFault) {
  std::string m;
  error_column("kc6,Kc1 w -/- -/- -/- 1 x", &m);
  EXPECT_NE(m.find("after"), std::string::npos) << m;
  error_column("kc6,Kc1,Pc1 w -/- -/- -/- 1", &m);
  EXPECT_NE(m.find("c1"), std::string::npos) << m;
  error_column("kc6,Kc1 w Qq/- -/- -/- 1", &m);
  EXPECT_NE(m.find("case"), std::string::npos) << m;
  error_column("kc6,Kc1 w QRBN/- -/- -/- 1", &m);
  EXPECT_NE(m.find("at most 3"), std::string::npos) << m;
}

// TileRules: the hand size, the start draw and the set come from the rules; the default
// rules are ChessMe's exactly.
TEST(ChessMeText, TileRulesGeneraliseHandsAndSets) {
  arb::TileRules four;
  four.hand_size = 4;
  four.draw = 4;
  // A hand of four: refused by the default rules at the fourth tile, read with a hand of 4.
  const std::string text = "kc6,Kc1 w QRBN/- -/- -/- 1";
  EXPECT_EQ(error_column(text), 13);
  EXPECT_EQ(format_chessme(parse_chessme(text, four)), text);
  try {
    parse_chessme("kc6,Kc1 w QRBNP/- -/- -/- 1", four);
    ADD_FAILURE() << "a fifth tile was accepted";
  } catch (const PositionError& e) {
    EXPECT_EQ(e.column, 14u);
    EXPECT_NE(std::string(e.what()).find("at most 4"), std::string::npos) << e.what();
  }
  // The start deals `draw` tiles from the shuffled pile: the same shuffle as ChessMe's,
  // one more tile in each hand.
  ChessMePosition p3 = arb::chessme_start_position(1);
  ChessMePosition p4 = arb::chessme_start_position(1, four);
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(p4.hand[c].size(), 4u);
    EXPECT_EQ(p4.pile[c].size(), 7u);
    EXPECT_EQ(p4.pile[c], p3.pile[c].substr(1));
    std::string h = p4.hand[c];
    std::string expect = p3.hand[c] + p3.pile[c][0];
    std::sort(h.begin(), h.end());
    std::sort(expect.begin(), expect.end());
    EXPECT_EQ(h, expect);
  }
  EXPECT_EQ(arb::chessme_start(7, arb::TileRules{}), arb::chessme_start(7));
  // A smaller start draw than the hand size: fewer tiles dealt.
  arb::TileRules two;
  two.draw = 2;
  EXPECT_EQ(arb::chessme_start_position(3, two).hand[0].size(), 2u);
  // A start draw larger than the hand is refused.
  arb::TileRules bad;
  bad.draw = 4;
  EXPECT_THROW(arb::chessme_start_position(1, bad), PositionError);
  // The set: the rules' tiles plus the setup's pieces. With a pile of one queen and two
  // pawns, a rook is outside the set, and the pawns count the setup's four.
  arb::TileRules small;
  small.tiles = "QPP";
  EXPECT_NO_THROW(parse_chessme("kc6,Kc1 w QPP/- -/- -/- 1", small));
  try {
    parse_chessme("kc6,Kc1 w R/- -/- -/- 1", small);
    ADD_FAILURE() << "a rook outside the set was accepted";
  } catch (const PositionError& e) {
    EXPECT_EQ(e.column, 10u);
    EXPECT_NE(std::string(e.what()).find("a set holds 0"), std::string::npos) << e.what();
  }
  // Six pawns in play: the setup's four and the two pile pawns; a seventh is too many.
  EXPECT_NO_THROW(parse_chessme("kc6,Pa2,Pb2,Pc2,Pd2,Pe2,Pf2,Kc1 w -/- -/- -/- 1", small));
  // The whole pile of three is dealt: both hands hold it and both piles are empty.
  EXPECT_EQ(arb::chessme_start(1, small), "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w QPP/qpp -/- -/- 1");
  try {
    parse_chessme("kc6,Pa2,Pb2,Pc2,Pd2,Pe2,Pf2,Kc1 w P/- -/- -/- 1", small);
    ADD_FAILURE() << "a seventh pawn was accepted";
  } catch (const PositionError& e) {
    EXPECT_EQ(e.column, 34u);
  }
  // A letter that only the rules' tiles name (an archbishop A) is known and sorts after P.
  arb::TileRules arch;
  arch.tiles = "AQRRBBNNPPPP";
  EXPECT_EQ(format_chessme(parse_chessme("kc6,Kc1 w AQ/- -/- -/- 1", arch)), "kc6,Kc1 w QA/- -/- -/- 1");
  EXPECT_EQ(error_column("kc6,Kc1 w AQ/- -/- -/- 1"), 10);
}

}  // namespace
