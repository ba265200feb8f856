// ChessMe: the compiled generator (rulesets/chessme.rules run by lang/'s unbounded-grid
// backend), checked against hand-derived answers and against the independent reference
// engine (checker/reference/chessme):
//   1. hand-derived rule cases on BOTH engines (the rules one by one are the conformance
//      suite, tests/conformance_chessme_test.cpp), also
//      translated far away / to negative coordinates and with the colours mirrored;
//   2. perft 1..3 of seeded starts on both engines, with the published figures;
//   3. random games compared node by node (arb::fuzz::compare_node), from seeded starts
//      and from the same starts translated by (+/-10^6, +/-10^6), counting that the games
//      reach exchange promotions, placements, captures, checkmates and ChessMe draws;
//   4. apply/undo, set_position(position()) and hash round trips, UCI and SAN round trips
//      of every legal action;
//   5. a RapidCheck property: perft(2) does not depend on the order of the root list, and
//      no legal action leaves the mover's king attacked (the reference accepts the text).
//
// ARBITER_FAST (set under the sanitizers) shrinks the random parts. Coordinates in the
// comments are (x,y) with a = 0 and y the rank number; White moves toward +y, Black toward
// -y.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "arbiter/chessme_text.hpp"
#include "arbiter/notation.hpp"
#include "chessme_scatter.hpp"
#include "fuzz/fuzz.hpp"
#include "helpers.hpp"
#include "reference.hpp"
#include "registry/variants.hpp"

namespace {

using arb::Action;
using arb::ActionInfo;
using arb::ChessMePosition;
using arb::Coord;
using arb::Engine;
using arb::Result;
using arb::Status;
using Strings = std::vector<std::string>;

bool fast() {
  const char* v = std::getenv("ARBITER_FAST");
  return v != nullptr && *v != '\0';
}

std::unique_ptr<Engine> compiled() {
  return testing_helpers::compiled_engine("chessme");
}
std::unique_ptr<Engine> reference() {
  return arb::ref::make_reference_engine("chessme");
}

std::unique_ptr<Engine> compiled_at(const std::string& text) {
  auto e = compiled();
  e->set_position(text);
  return e;
}
std::unique_ptr<Engine> reference_at(const std::string& text) {
  auto e = reference();
  e->set_position(text);
  return e;
}

// Both engines at `text`, compiled first.
std::vector<std::unique_ptr<Engine>> both_at(const std::string& text) {
  std::vector<std::unique_ptr<Engine>> v;
  v.push_back(compiled_at(text));
  v.push_back(reference_at(text));
  return v;
}

Strings sorted(Strings v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Sorted canonical texts uci(describe(a), true).
Strings texts_of(Engine& e) {
  return testing_helpers::legal_texts(e);
}

std::string joined(const Strings& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

// The six-field text of `start`, `start:N` or any text (canonical).
std::string six_field(const std::string& text) {
  if (text.rfind("start:", 0) == 0) return arb::chessme_start(std::stoull(text.substr(6)));
  return arb::format_chessme(arb::parse_chessme(text));
}

// --- Position transforms -------------------------------------------------------------

std::string shifted(const std::string& text, int64_t dx, int64_t dy) {
  ChessMePosition p = arb::parse_chessme(six_field(text));
  for (auto& [sq, pc] : p.pieces)
    sq = Coord{static_cast<int32_t>(sq.x + dx), static_cast<int32_t>(sq.y + dy)};
  return arb::format_chessme(p);
}

// Whether every piece of `text` stays within the writable range (|coordinate| <= 10^9
// minus a margin for the squares next to it) when shifted.
bool shift_fits(const std::string& text, int64_t dx, int64_t dy) {
  const int64_t limit = 1000000000 - 16;
  for (const auto& [sq, pc] : arb::parse_chessme(six_field(text)).pieces)
    if (std::llabs(sq.x + dx) > limit || std::llabs(sq.y + dy) > limit) return false;
  return true;
}

// Colours exchanged and ranks reflected, y -> 7 - y (the start maps to itself up to the
// hands and piles, which change sides).
std::string mirrored(const std::string& text) {
  ChessMePosition p = arb::parse_chessme(six_field(text));
  ChessMePosition m = p;
  for (auto& [sq, pc] : m.pieces) {
    sq.y = 7 - sq.y;
    pc = testing_helpers::swap_case(std::string(1, pc))[0];
  }
  m.side = arb::opposite(p.side);
  for (int c = 0; c < 2; ++c) {
    m.hand[c] = testing_helpers::swap_case(p.hand[1 - c]);
    m.pile[c] = testing_helpers::swap_case(p.pile[1 - c]);
    m.pile_known[c] = p.pile_known[1 - c];
    m.captured[c] = testing_helpers::swap_case(p.captured[1 - c]);
  }
  return arb::format_chessme(m);
}

// Canonical texts of the engine's actions with every square passed through `f`, sorted.
template <class F>
Strings mapped_texts(Engine& e, F f) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  Strings out;
  for (const Action& a : actions) {
    ActionInfo info = e.describe(a);
    for (arb::Step& s : info.steps) {
      s.from = f(s.from);
      s.to = f(s.to);
      for (arb::PieceAt& r : s.removed) r.at = f(r.at);  // the victims move with the board
    }
    out.push_back(arb::uci(info, true));
  }
  return sorted(out);
}

// Every complete turn made of `move` alone and of `move` followed by each placement.
Strings turns(const std::string& move, const Strings& placements) {
  Strings out = {move};
  for (const std::string& p : placements) out.push_back(move + "," + p);
  return out;
}
Strings concat(std::initializer_list<Strings> parts) {
  Strings out;
  for (const Strings& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// --- 1. The hand-derived rule cases, on both engines ------------------------------------

struct RuleCase {
  const char* rule;      // what the case pins (RULINGS 2.x)
  std::string position;  // position text
  Strings expected;      // hand-derived canonical texts (any order)
  Result result;
  std::string reason;  // status reason
  bool in_check;
  RuleCase(const char* rule_, std::string position_, Strings expected_, Result result_ = Result::Ongoing,
           std::string reason_ = "", bool in_check_ = false)
      : rule(rule_),
        position(std::move(position_)),
        expected(std::move(expected_)),
        result(result_),
        reason(std::move(reason_)),
        in_check(in_check_) {}
};

const std::vector<RuleCase>& rule_cases() {
  static const std::vector<RuleCase> cases = {
      // Seed 1, White: hand B N P. Moves: a2-d2 one step (each lands next to another pawn),
      // the king c1 to b1 (next to a2) or d1 (next to c2, d2); b2, c2, d2 are occupied; the
      // king never steps back. Six moves. Placements after each (B and N behind an own pawn,
      // the P tile beside one; c1 holds the king unless it moved):
      //   a2a3: pawns a3 b2 c2 d2. P on (-1,3), b3, a2 (vacated), e2; B/N on a2, b1, d1. 11.
      //   b2b3: pawns a2 b3 c2 d2. P on (-1,2), b2, a3, c3, e2; B/N on a1, b2, d1. 12.
      //   c2c3: pawns a2 b2 c3 d2. P on (-1,2), c2, b3, d3, e2; B/N on a1, b1, c2, d1. 14.
      //   d2d3: pawns a2 b2 c2 d3. P on (-1,2), d2, c3, e3; B/N on a1, b1, d2. 11.
      //   c1b1: pawns a2-d2. P on (-1,2), e2; B/N on a1, c1 (vacated), d1. 9.
      //   c1d1: P on (-1,2), e2; B/N on a1, b1, c1. 9.
      // 11 + 12 + 14 + 11 + 9 + 9 = 66 (the published perft 1 of seed 1).
      {"2.4/2.5/2.6 the seed-1 start", "start:1",
       concat({turns("a2a3",
                     {"P@(-1,3)", "P@b3", "P@a2", "P@e2", "B@a2", "B@b1", "B@d1", "N@a2", "N@b1", "N@d1"}),
               turns("b2b3", {"P@(-1,2)", "P@b2", "P@a3", "P@c3", "P@e2", "B@a1", "B@b2", "B@d1", "N@a1",
                              "N@b2", "N@d1"}),
               turns("c2c3", {"P@(-1,2)", "P@c2", "P@b3", "P@d3", "P@e2", "B@a1", "B@b1", "B@c2", "B@d1",
                              "N@a1", "N@b1", "N@c2", "N@d1"}),
               turns("d2d3",
                     {"P@(-1,2)", "P@d2", "P@c3", "P@e3", "B@a1", "B@b1", "B@d2", "N@a1", "N@b1", "N@d2"}),
               turns("c1b1", {"P@(-1,2)", "P@e2", "B@a1", "B@c1", "B@d1", "N@a1", "N@c1", "N@d1"}),
               turns("c1d1", {"P@(-1,2)", "P@e2", "B@a1", "B@b1", "B@c1", "N@a1", "N@b1", "N@c1"})})},
      // Rook d4 (3,4), White king a1 (0,1), Black king e6 (4,6).
      // Up the d-file: d5, d6, d7 touch e6; d8 does not (e6 is two ranks below) and nothing
      // farther up does. Down, left and right: no square touches a piece other than the rook
      // itself (d3 touches only the vacated d4). The king a1: b1, a2, b2 touch only its own
      // origin; (-1,1), (-1,2) nothing. So exactly three actions.
      {"2.5a adjacency: rook", "ke6,Rd4,Ka1 w -/- -/- -/- 1", {"d4d5", "d4d6", "d4d7"}},
      // Knight d4: of its eight jumps only e6 (4,6) touches the Black king f7 (5,7).
      {"2.5a adjacency: knight", "kf7,Nd4,Ka1 w -/- -/- -/- 1", {"d4e6"}},
      // A capture needs no neighbour: the rook takes the lone knight far down the file, or
      // stops on (3,-499) next to it; no square between touches anything.
      {"2.5b captures are exempt",
       "ke6,Rd4,Ka1,n(3,-500) w -/- -/- -/- 1",
       {"d4d5", "d4d6", "d4d7", "d4(3,-499)", "d4(3,-500)"}},
      // White king d4 (3,4), Black knight c3 (2,3), Black king h8.
      // Non-captures allowed: c4, e4 (sideways), c5, d5, e5 (forward); each must touch a
      // piece other than the king: only c4 (next to c3). d3 also touches c3 but is backward,
      // so it is not allowed; e3 is backward too. Capturing backward onto c3 is allowed.
      // The knight attacks d5, e4, e2, d1, b1, a2, a4, b5: c4 and c3 are safe.
      {"2.5c king: no backward step, backward capture", "kh8,Kd4,nc3 w -/- -/- -/- 1", {"d4c3", "d4c4"}},
      // Black's king moves forward toward lower ranks: Black king e5 (4,5), White knight f6
      // (5,6) behind it on the right, White king a1. Non-captures d5, f5, d4, e4, f4: only f5
      // (5,5) touches f6. The knight attacks d5, d7, e4, e8, g4, g8, h5, h7: f5 is safe. e6
      // touches f6 but is backward for Black; the capture on f6 is allowed.
      {"2.5c Black king forward is down", "Nf6,ke5,Ka1 b -/- -/- -/- 1", {"e5f5", "e5f6"}},
      // White king d6 (3,6), Black king f5 (5,5). White's non-captures: c6, e6, c7, d7, e7.
      // Only e6 touches another piece (f5), and e6 is attacked by the Black king (it is
      // behind that king, a square it could not step to without capturing, but it attacks
      // it). No legal move, not in check: a ChessMe draw.
      {"2.5e king attacks all 8 neighbours (draw)",
       "kf5,Kd6 w -/- -/- -/- 1",
       {},
       Result::Draw,
       "chessme-draw"},
      // Black to move in the same place: e5 touches d6 but is attacked; f4, e4, g4, g5 touch
      // nothing. A draw too.
      {"2.5e the same, Black to move (draw)", "kf5,Kd6 b -/- -/- -/- 1", {}, Result::Draw, "chessme-draw"},
      // White pawn b2, king c1; Black pawn c4 (2,4), Black king h8.
      // b2b3: b3 touches c4. b2b4 (two squares) never. a3/c3 are empty: no pawn capture.
      // King c1: b1 (touches b2), c2 (touches b2), d1 and d2 touch nothing but the origin;
      // b1 and c2 are not attacked (c4 attacks b3 and d3).
      {"2.5d pawn single step", "kh8,pc4,Pb2,Kc1 w -/- -/- -/- 1", {"b2b3", "c1b1", "c1c2"}},
      // A pawn does not step onto or capture straight ahead: Black pawn b3 in front of b2.
      // King c1: b1 (touches b2), c2 is attacked by b3, d1 and d2 touch nothing but c1.
      {"2.5d pawn blocked ahead", "kh8,pb3,Pb2,Kc1 w -/- -/- -/- 1", {"c1b1"}},
      // Diagonal capture forward only: White pawn d4 with Black pawns c5 and e3. d4xc5 is
      // forward; e3 is behind it. d4d5 touches c5. King k1 (10,1) is alone.
      {"2.5d pawn captures diagonally forward", "kh8,pc5,Pd4,pe3,Kk1 w -/- -/- -/- 1", {"d4c5", "d4d5"}},
      // White pawns b2 (1,2) and d2 (3,2), White king k10 (10,10), Black knight m12 (12,12),
      // Black pawn d1 (3,1), Black king z26. Hand N P P.
      // Moves: the pawns' steps b3 and d3 touch nothing but their origins; the king's only
      // square next to another piece is l11 (11,11), which the knight (attacking (10,11),
      // (11,10), ...) does not attack. So the one move is k10l11.
      // Placements after it: a pawn tile beside b2 or d2: a2, c2 (named twice, one choice),
      // e2; the knight behind b2 or d2: b1 (d1 is occupied). The two P tiles are one choice.
      {"2.6 pawn beside, other behind",
       "kz26,nm12,Kk10,Pb2,Pd2,pd1 w NPP/- -/- -/- 1",
       {"k10l11", "k10l11,P@a2", "k10l11,P@c2", "k10l11,P@e2", "k10l11,N@b1"}},
      // Placement is judged after the move: White pawns b2, d2, Black pawn a4 (0,4), kings far
      // apart. Only b2b3 (touching a4). Then the pawns are b3 and d2: a pawn tile on a3, c3,
      // c2, e2; a knight behind them on b2 (just vacated) or d1.
      {"2.6 placement after the move",
       "kt20,pa4,Pb2,Pd2,Kk10 w NP/- Q/- -/- 1",
       {"b2b3", "b2b3,P@a3", "b2b3,P@c3", "b2b3,P@c2", "b2b3,P@e2", "b2b3,N@b2", "b2b3,N@d1"}},
      // Black places behind toward higher ranks: Black pawn e5 (4,5) steps to e4 (4,4), next
      // to the White pawn d3; its diagonals d4, f4 are empty. The Black king a8 and the White
      // king k1 touch nothing. After e5e4 a knight tile goes behind e4 on e5 (just vacated), a
      // pawn tile beside it on d4 or f4.
      {"2.6 Black places behind = higher rank",
       "ka8,pe5,Pd3,Kk1 b -/np -/- -/- 1",
       {"e5e4", "e5e4,N@e5", "e5e4,P@d4", "e5e4,P@f4"}},
      // No own pawn in play: no placement at all. The rook d4 reaches d5, d6, d7 (next to e6).
      {"2.6 no own pawn, no placement", "ke6,Rd4,Ka1 w QN/- -/- -/- 1", {"d4d5", "d4d6", "d4d7"}},
      // Black king h5 (7,5): rank 5 is the promotion rank for White. Black's capture pile
      // holds White Q, N, N, P. White pawn b4 steps to b5 (touches c5) or captures c5; both
      // end on rank 5, so each may be exchanged for Q or N (N once, P never), or not: 6
      // actions. Pawn d3 steps to d4 (touches c5), rank 4: no exchange. King k1 alone: no move.
      {"2.7 exchange: one choice per captured type, optional",
       "kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/QNNP 1",
       {"b4b5", "b4b5q", "b4b5n", "b4c5", "b4c5q", "b4c5n", "d3d4"}},
      // Nothing but pawns captured by the opponent: no exchange.
      {"2.7 no captured piece, no exchange",
       "kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/PP 1",
       {"b4b5", "b4c5", "d3d4"}},
      // Black's pawns promote on the White king's rank: White king k3 (10,3). Black pawn c4
      // (2,4) steps to c3 (2,3), touching the White pawn d2 (3,2), and may take back the rook
      // White captured; b3 and d3 are empty, so no capture. Kings a8 and k3 touch nothing.
      {"2.7 Black exchanges on the White king's rank", "ka8,pc4,Pd2,Kk3 b -/- -/- r/- 1", {"c4c3", "c4c3r"}},
      // Placements never promote (the same position, hand P, Black holds a White Q and P):
      //   b4b5: own pawns b5, d3; P beside b5 on a5 (c5 is Black's; a5 is on the Black king's
      //         rank and stays a pawn), beside d3 on c3, e3. 1 + 3.
      //   b4b5q: b5 is a queen, no longer an anchor: P on c3, e3. 1 + 2.
      //   b4c5: own pawns c5, d3: P on b5, d5, c3, e3. 1 + 4.
      //   b4c5q: P on c3, e3. 1 + 2.
      //   d3d4 (touches c5, rank 4, no exchange): own pawns b4, d4: P on a4, c4 (once), e4. 1 + 3.
      // The queen on c5 checks h5 along rank 5: legal. 19 actions.
      {"2.6/2.7 placements never promote", "kh5,pc5,Pb4,Pd3,Kk1 w P/- -/- -/QP 1",
       concat({turns("b4b5", {"P@a5", "P@c3", "P@e3"}), turns("b4b5q", {"P@c3", "P@e3"}),
               turns("b4c5", {"P@b5", "P@d5", "P@c3", "P@e3"}), turns("b4c5q", {"P@c3", "P@e3"}),
               turns("d3d4", {"P@a4", "P@c4", "P@e4"})})},
      // White king a1 in check from the rook a8. Pawn b4 can step to b5 (touches c6), and a
      // pawn tile beside b5 on a5 would block the file, but the move must be legal by itself:
      // b4b5 leaves the king in check, so it is no action at all. The king's squares b1, a2,
      // b2, (-1,1), (-1,2) touch nothing but a1. Checkmate.
      {"2.6 no escape from check by placement (checkmate)",
       "ra8,kh8,pc6,Pb4,Ka1 w P/- -/- -/- 1",
       {},
       Result::BlackWins,
       "checkmate",
       true},
      // Without the check (rook off the a-file) the same move and both placements are legal.
      {"2.6 the same without the check",
       "r(-5,8),kh8,pc6,Pb4,Ka1 w P/- -/- -/- 1",
       {"b4b5", "b4b5,P@a5", "b4b5,P@c5"}},
      // Rook a8 checks the king a1. The rook b3 can reach a3 but a3 touches nothing other than
      // the rook's own origin; it cannot reach the a8 rook. The king: b2 touches b3 and is not
      // attacked; a2 is attacked; b1, (-1,1), (-1,2) touch nothing. One answer.
      {"2.8 check must be answered", "ra8,kh8,Rb3,Ka1 w -/- -/- -/- 1", {"a1b2"}, Result::Ongoing, "", true},
      // A Black checkmate: Black king a8 (0,8) checked by the rook a1 along the file; its
      // squares (-1,8), b8, (-1,7), a7, b7 (forward is down) touch only a8 or are attacked.
      {"2.8 Black checkmated", "ka8,Ra1,Kh1 b -/- -/- -/- 3", {}, Result::WhiteWins, "checkmate", true},
      // Rook d4, kings a1 and h8: the rook's rays meet no square next to another piece, the
      // king's squares touch only a1. Not in check: a ChessMe draw.
      {"2.8 ChessMe draw", "kh8,Rd4,Ka1 w -/- -/- -/- 1", {}, Result::Draw, "chessme-draw"},
      // Rook (-10^9,1) and a Black knight (10^9,1) on the same rank, 2*10^9 squares apart; the
      // kings c5 and (10^9,8) touch nothing. The rook may capture the knight or stop next to it
      // on (10^9-1,1); no other square of any ray touches a piece.
      {"2.1 long rays",
       "k(1000000000,8),Kc5,R(-1000000000,1),n(1000000000,1) w -/- -/- -/- 1",
       {"(-1000000000,1)(999999999,1)", "(-1000000000,1)(1000000000,1)"}},
  };
  return cases;
}

void expect_case(Engine& e, const RuleCase& c, const Strings& got, const std::string& where) {
  SCOPED_TRACE(e.name() + " " + c.rule + ": " + where);
  EXPECT_EQ(got, sorted(c.expected));
  // No action is listed twice.
  EXPECT_EQ(std::set<std::string>(got.begin(), got.end()).size(), got.size());
  Status s = e.status();
  EXPECT_EQ(s.result, c.result);
  EXPECT_EQ(s.reason, c.reason);
  EXPECT_EQ(s.in_check, c.in_check);
  EXPECT_FALSE(s.claim_fifty);
  EXPECT_FALSE(s.claim_threefold);
  EXPECT_EQ(e.perft(1), c.expected.size());
}

TEST(ChessMeAgreement, NameAndStartShorthands) {
  auto e = compiled();
  EXPECT_EQ(e->name(), "compiled:chessme");
  for (uint64_t seed : {1ull, 2ull, 3ull, 7ull, 12345678901234ull}) {
    const std::string text = "start:" + std::to_string(seed);
    for (auto& x : both_at(text)) EXPECT_EQ(x->position(), arb::chessme_start(seed)) << x->name();
    for (auto& x : both_at(arb::chessme_start(seed)))
      EXPECT_EQ(x->position(), arb::chessme_start(seed)) << x->name();
  }
  for (auto make : {compiled, reference}) {
    auto x = make();
    SCOPED_TRACE(x->name());
    EXPECT_THROW(x->set_position("start:x"), arb::PositionError);
    EXPECT_THROW(x->set_position("kc6,Kc1 w -/- -/- -/-"), arb::PositionError);
    // The side that just moved may not be in check: Black's king on c6 is attacked by Rc1.
    EXPECT_THROW(x->set_position("kc6,Rc1,Ka1 w -/- -/- -/- 1"), arb::PositionError);
    // A rejected text leaves the engine where it was.
    x->set_position("start:2");
    EXPECT_THROW(x->set_position("kc6 w -/- -/- -/- 1"), arb::PositionError);
    EXPECT_EQ(x->position(), arb::chessme_start(2));
  }
}

// The shorthands mean the same on both engines: `start` is the ruleset's default seed
// (chessme.rules `option seed = 1`); a malformed seed is rejected by both. (Until c64fa56 the
// reference read `start` as seed 0 and the compiled engine accepted `start:`.)
TEST(ChessMeAgreement, StartShorthandsMeanTheSameOnBothEngines) {
  auto c = compiled_at("start");
  auto r = reference_at("start");
  EXPECT_EQ(c->position(), r->position())
      << "compiled reads `start` as " << c->position() << ", the reference as " << r->position();
  EXPECT_EQ(c->position(), arb::chessme_start(1));
  for (const std::string text :
       {"start:", "start:x", "start:1x", "start:-1", "start:+1", "start:18446744073709551615", "start:0",
        "start:00000000000000000001", "start:000000000000000000001", "Start:1", "start:1,2"}) {
    std::string ce = "accepted", re = "accepted";
    try {
      compiled_at(text);
    } catch (const arb::PositionError& e) {
      ce = std::string("rejected: ") + e.what();
    }
    try {
      reference_at(text);
    } catch (const arb::PositionError& e) {
      re = std::string("rejected: ") + e.what();
    }
    EXPECT_EQ(ce == "accepted", re == "accepted")
        << "`" << text << "` compiled: " << ce << "; reference: " << re;
    if (ce == "accepted" && re == "accepted") {
      EXPECT_EQ(compiled_at(text)->position(), reference_at(text)->position()) << "`" << text << "`";
    }
  }
}

// Regression (found by this test, fixed in lang/): the engines accepted different shorthand texts.
//   1. A seed past 2^64 - 1: the compiled engine wrapped it silently (`start:18446744073709551616`
//      loads chessme_start(0)), the reference rejects it ("start seed out of range").
//   2. Blanks around the shorthand: the compiled engine trimmed them (` start:1`, `start:1 `,
//      `start ` loaded the start), the reference rejects them (it trims six-field text only,
//      through parse_chessme, which then fails: "missing field: side to move").
// Both are "accepts" divergences in the fuzzer's terms.
TEST(ChessMeAgreement, ShorthandAcceptanceAgrees) {
  for (const std::string text : {"start:18446744073709551616", "start:99999999999999999999", " start:1",
                                 "start:1 ", "start ", "\tstart:2"}) {
    std::string ce = "accepted", re = "accepted";
    try {
      compiled_at(text);
    } catch (const arb::PositionError& e) {
      ce = std::string("rejected: ") + e.what();
    }
    try {
      reference_at(text);
    } catch (const arb::PositionError& e) {
      re = std::string("rejected: ") + e.what();
    }
    EXPECT_EQ(ce == "accepted", re == "accepted")
        << "`" << text << "` compiled: " << ce
        << (ce == "accepted" ? " as " + compiled_at(text)->position() : "") << "; reference: " << re;
  }
}

TEST(ChessMeAgreement, HandDerivedRuleCasesOnBothEngines) {
  for (const RuleCase& c : rule_cases()) {
    auto engines = both_at(c.position);
    for (auto& e : engines) expect_case(*e, c, texts_of(*e), c.position);
    // And the fuzzer's own node comparison agrees (actions, status, text).
    auto d = arb::fuzz::compare_node(*engines[0], *engines[1]);
    EXPECT_FALSE(d) << c.rule << ": " << arb::fuzz::to_json(*d);
  }
}

TEST(ChessMeAgreement, RuleCasesTranslatedFarAndNegative) {
  const std::vector<std::pair<int64_t, int64_t>> shifts = {{-1000000, 5},           {-1000000, -5},
                                                           {1000000, 1000000},      {-3, -7},
                                                           {999999000, -999999000}, {-999999000, 999999000}};
  int checked = 0;
  for (const RuleCase& c : rule_cases()) {
    for (const auto& shift : shifts) {
      const auto dx = shift.first, dy = shift.second;  // no structured binding: lambdas capture them
      if (!shift_fits(c.position, dx, dy)) continue;
      const std::string far = shifted(c.position, dx, dy);
      for (auto& e : both_at(far)) {
        Strings back = mapped_texts(*e, [=](Coord q) {
          return Coord{static_cast<int32_t>(q.x - dx), static_cast<int32_t>(q.y - dy)};
        });
        expect_case(*e, c, back, far);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(ChessMeAgreement, RuleCasesWithColoursMirrored) {
  for (const RuleCase& c : rule_cases()) {
    const std::string m = mirrored(c.position);
    for (auto& e : both_at(m)) {
      Strings back = mapped_texts(*e, [](Coord q) { return Coord{q.x, 7 - q.y}; });
      RuleCase flipped = c;
      if (c.result == Result::WhiteWins)
        flipped.result = Result::BlackWins;
      else if (c.result == Result::BlackWins)
        flipped.result = Result::WhiteWins;
      expect_case(*e, flipped, back, m);
    }
  }
}

// What applying an action does to the text (hand-derived), then undo restores it.
struct ApplyCase {
  const char* rule;
  std::string position, action, after;
  bool check_after = false;
};

TEST(ChessMeAgreement, ApplyWritesTheHandDerivedPositionAndUndoRestores) {
  const std::vector<ApplyCase> cases = {
      // A move without placement draws nothing.
      {"2.4 no placement, no draw", "kt20,pa4,Pb2,Pd2,Kk10 w NP/- Q/- -/- 1", "b2b3",
       "kt20,Kk10,pa4,Pb3,Pd2 b NP/- Q/- -/- 1"},
      // A placement then draws the top tile.
      {"2.4 a placement draws the top tile", "kt20,pa4,Pb2,Pd2,Kk10 w NP/- Q/- -/- 1", "b2b3,N@b2",
       "kt20,Kk10,pa4,Pb3,Nb2,Pd2 b QP/- -/- -/- 1"},
      // An unknown pile: no draw is modelled and the pile stays unknown.
      {"2.3 unknown pile", "kt20,pa4,Pb2,Pd2,Kk10 w NP/- ?/- -/- 1", "b2b3,P@c3",
       "kt20,Kk10,pa4,Pb3,Pc3,Pd2 b N/- ?/- -/- 1"},
      // Black's pile, top first; the fullmove number grows after Black's turn.
      {"2.4 Black draws, fullmove grows", "ka8,pe5,Pd3,Kk1 b -/np -/rbq -/- 7", "e5e4,P@d4",
       "ka8,pd4,pe4,Pd3,Kk1 w -/rn -/bq -/- 8"},
      // The exchange: the pawn goes to Black's pile and the queen comes out of it; the
      // captured Black pawn goes to White's pile. The queen then checks along rank 5 (and
      // mates: the king h5's squares g5, i5, g4, h4, i4 touch no other piece).
      {"2.7 exchange moves the tiles", "kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/QNNP 1", "b4c5q",
       "Qc5,kh5,Pd3,Kk1 b -/- -/- p/NNPP 1", true},
      // Placements never promote: the pawn tile on a5 (the Black king's rank) stays a pawn.
      {"2.6 a placed pawn stays a pawn", "kh5,pc5,Pb4,Pd3,Kk1 w P/- -/- -/QP 1", "b4b5,P@a5",
       "Pa5,Pb5,pc5,kh5,Pd3,Kk1 b -/- -/- -/QP 1"},
      // A capture 2*10^9 squares away moves the knight to White's capture pile; the rook, now
      // on the file x = 10^9, checks the Black king (10^9,8) along it.
      {"2.1 long capture", "k(1000000000,8),Kc5,R(-1000000000,1),n(1000000000,1) w -/- -/- -/- 1",
       "(-1000000000,1)(1000000000,1)", "k(1000000000,8),Kc5,R(1000000000,1) b -/- -/- n/- 1", true},
  };
  for (const ApplyCase& c : cases) {
    for (auto& e : both_at(c.position)) {
      SCOPED_TRACE(e->name() + " " + c.rule);
      const std::string before = e->position();
      const uint64_t h = e->hash();
      EXPECT_EQ(before, six_field(c.position));
      e->apply(testing_helpers::find_action(*e, c.action));
      EXPECT_EQ(e->position(), c.after);
      EXPECT_EQ(e->status().in_check, c.check_after);
      EXPECT_EQ(e->side_to_move(), arb::parse_chessme(c.after).side);
      e->undo();
      EXPECT_EQ(e->position(), before);
      EXPECT_EQ(e->hash(), h);
    }
  }
}

// --- 2. Perft of the seeded starts --------------------------------------------------------

TEST(ChessMeAgreement, PerftAgreesWithTheReferenceAndThePublishedFigures) {
  const std::map<uint64_t, std::vector<uint64_t>> published = {{1, {66, 2904, 279825}},
                                                               {2, {47, 2209, 176539}}};
  // Depth 3 of every seed is about 2 * 10^5 leaves per engine; the sanitizer build's node
  // budget (ARBITER_PERFT_BUDGET) keeps depth 3 for the published seeds only.
  const bool small_budget = testing_helpers::perft_budget(1000000000) < 200000;
  for (uint64_t seed : {1ull, 2ull, 3ull, 7ull}) {
    const std::string text = "start:" + std::to_string(seed);
    auto c = compiled_at(text);
    auto r = reference_at(text);
    const int max_depth = small_budget && !published.count(seed) ? 2 : 3;
    for (int d = 1; d <= max_depth; ++d) {
      auto t0 = std::chrono::steady_clock::now();
      const uint64_t nc = c->perft(d);
      auto t1 = std::chrono::steady_clock::now();
      const uint64_t nr = r->perft(d);
      auto t2 = std::chrono::steady_clock::now();
      std::printf("chessme seed %llu perft %d: compiled %llu (%.3f s), reference %llu (%.3f s)\n",
                  static_cast<unsigned long long>(seed), d, static_cast<unsigned long long>(nc),
                  std::chrono::duration<double>(t1 - t0).count(), static_cast<unsigned long long>(nr),
                  std::chrono::duration<double>(t2 - t1).count());
      EXPECT_EQ(nc, nr) << text << " depth " << d;
      if (published.count(seed)) {
        EXPECT_EQ(nc, published.at(seed)[d - 1]) << text << " depth " << d;
      }
    }
    EXPECT_EQ(c->position(), arb::chessme_start(seed));
    EXPECT_EQ(r->position(), arb::chessme_start(seed));
  }
  // The same starts far away and at negative coordinates count the same.
  for (uint64_t seed : {1ull, 2ull}) {
    const std::string text = "start:" + std::to_string(seed);
    for (auto [dx, dy] : std::vector<std::pair<int64_t, int64_t>>{
             {-1000000, 5}, {1000000, -1000000}, {123456789, -987654321}}) {
      const std::string far = shifted(text, dx, dy);
      EXPECT_EQ(compiled_at(far)->perft(2), published.at(seed)[1]) << far;
      EXPECT_EQ(reference_at(far)->perft(2), published.at(seed)[1]) << far;
    }
  }
}

// --- 3. Random play on both engines -------------------------------------------------------

struct Tally {
  uint64_t games = 0, nodes = 0, exchanges = 0, placements = 0, captures = 0, checks = 0, mates = 0,
           draws = 0;
  uint64_t invariance_checks = 0;
};

void count_action(const ActionInfo& info, Tally& t) {
  for (const arb::Step& s : info.steps) {
    if (s.kind == arb::StepKind::Move && s.promotion != 0) ++t.exchanges;
    if (s.kind == arb::StepKind::Place) ++t.placements;
    if (s.capture()) ++t.captures;
  }
}

std::string reproducer(const std::string& start, const Strings& played, const arb::fuzz::Divergence& d) {
  std::ostringstream o;
  o << "divergence (" << d.what << ")\n  start: " << start << "\n  moves: " << joined(played)
    << "\n  node: " << d.position << "\n  compiled: " << d.left << "\n  reference: " << d.right
    << (d.diff.empty() ? "" : "\n  diff (+ compiled only, - reference only): " + d.diff);
  return o.str();
}

// Plays one random game on both engines from `start`, comparing every node. Every
// `invariance_every` nodes (0: never) the compiled engine also lists the actions of the
// node translated by (dx, dy) and they must map back to the same list. Returns false after
// reporting a divergence.
bool play_game(const std::string& start, uint64_t seed, int max_turns, Tally& t, int invariance_every) {
  auto c = compiled_at(start);
  auto r = reference_at(start);
  std::mt19937_64 rng(seed);
  Strings played;
  std::vector<Action> acts;
  ++t.games;
  for (int ply = 0;; ++ply) {
    ++t.nodes;
    if (auto d = arb::fuzz::compare_node(*c, *r)) {
      ADD_FAILURE() << reproducer(start, played, *d);
      return false;
    }
    const Status s = c->status();
    if (s.in_check) ++t.checks;
    c->legal_actions(acts);
    if (acts.empty()) {
      EXPECT_NE(s.result, Result::Ongoing) << c->position();
      if (s.reason == "checkmate") ++t.mates;
      if (s.reason == "chessme-draw") ++t.draws;
      return true;
    }
    EXPECT_EQ(s.result, Result::Ongoing) << c->position();
    if (invariance_every > 0 && ply % invariance_every == 0) {
      const int64_t dx = (rng() & 1) ? 1000003 : -1000003, dy = (rng() & 1) ? 999983 : -999983;
      const std::string here = c->position();
      if (shift_fits(here, dx, dy)) {
        auto far = compiled_at(shifted(here, dx, dy));
        Strings back = mapped_texts(*far, [=](Coord q) {
          return Coord{static_cast<int32_t>(q.x - dx), static_cast<int32_t>(q.y - dy)};
        });
        EXPECT_EQ(back, texts_of(*c))
            << "translation changes the actions of " << here << " by (" << dx << "," << dy << ")";
        if (back != texts_of(*c)) return false;
        ++t.invariance_checks;
      }
    }
    if (ply >= max_turns) return true;
    const Action a = acts[rng() % acts.size()];
    const ActionInfo info = c->describe(a);
    count_action(info, t);
    const std::string text = arb::uci(info, true);
    played.push_back(text);
    r->apply(testing_helpers::find_action(*r, text));
    c->apply(a);
  }
}

TEST(ChessMeAgreement, RandomGamesAgreeWithTheReference) {
  const int games = fast() ? 20 : 100;
  const int turns = 80;
  Tally t;
  std::mt19937_64 pick(20261122);
  auto t0 = std::chrono::steady_clock::now();
  bool ok = true;
  for (int g = 0; g < games && ok; ++g) {
    // Varied starts: small seeds, then arbitrary 64-bit ones.
    const uint64_t start_seed = g < 16 ? static_cast<uint64_t>(g + 1) : pick();
    const std::string start = "start:" + std::to_string(start_seed);
    ok = play_game(start, 1000 + g, turns, t, 4);
    // The same start translated far away (every sign combination in turn).
    const int64_t dx = (g & 1) ? 1000000 : -1000000, dy = (g & 2) ? 1000000 : -1000000;
    if (ok) ok = play_game(shifted(start, dx, dy), 5000 + g, turns, t, 0);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "random play: %llu games, %llu nodes, %llu exchanges, %llu placements, %llu captures, %llu checks, "
      "%llu checkmates, %llu ChessMe draws, %llu translation checks (%.2f s)\n",
      (unsigned long long)t.games, (unsigned long long)t.nodes, (unsigned long long)t.exchanges,
      (unsigned long long)t.placements, (unsigned long long)t.captures, (unsigned long long)t.checks,
      (unsigned long long)t.mates, (unsigned long long)t.draws, (unsigned long long)t.invariance_checks, s);
  ASSERT_TRUE(ok);
  EXPECT_GE(t.exchanges, 1u);
  EXPECT_GE(t.placements, 1u);
  EXPECT_GE(t.captures, 1u);
  EXPECT_GE(t.checks, 1u);
  EXPECT_GE(t.mates, 1u);
  EXPECT_GT(t.invariance_checks, 0u);
  EXPECT_GT(t.nodes, static_cast<uint64_t>(games) * 40);
}

// Random positions (a 9x9 window, a few pieces up to 30 squares away, random hands, piles
// and capture piles, then a random translation), compared on both engines and played on
// for a few turns: the dedicated search for checkmates and ChessMe draw positions, which
// random play from the start reaches only now and then.
TEST(ChessMeAgreement, ScatteredPositionsAgreeAndReachMatesAndDraws) {
  std::mt19937_64 rng(7);
  const int wanted = fast() ? 150 : 600;
  int accepted = 0, rejected = 0;
  Tally t;
  for (int iter = 0; iter < 20 * wanted && accepted < wanted; ++iter) {
    ChessMePosition p = chessme_scatter::scattered_position(rng, {4, true, true});
    std::string text = arb::format_chessme(p);
    if (rng() % 2)
      text = shifted(text, static_cast<int64_t>(rng() % 2000001) - 1000000,
                     static_cast<int64_t>(rng() % 2000001) - 1000000);
    std::string ec, er;
    auto c = compiled();
    auto r = reference();
    try {
      c->set_position(text);
    } catch (const arb::PositionError& e) {
      ec = e.what();
    }
    try {
      r->set_position(text);
    } catch (const arb::PositionError& e) {
      er = e.what();
    }
    ASSERT_EQ(ec.empty(), er.empty())
        << "acceptance differs on " << text << "\n  compiled: " << (ec.empty() ? "accepted" : ec)
        << "\n  reference: " << (er.empty() ? "accepted" : er);
    if (!ec.empty()) {
      ++rejected;
      continue;
    }
    ++accepted;
    ASSERT_TRUE(play_game(text, iter, 12, t, 3));
  }
  std::printf(
      "scattered: %d accepted, %d rejected, %llu nodes, %llu checkmates, %llu ChessMe draws, %llu "
      "exchanges\n",
      accepted, rejected, (unsigned long long)t.nodes, (unsigned long long)t.mates,
      (unsigned long long)t.draws, (unsigned long long)t.exchanges);
  EXPECT_EQ(accepted, wanted);
  EXPECT_GE(t.mates, 1u);
  EXPECT_GE(t.draws, 1u);
  EXPECT_GE(t.exchanges, 1u);
  EXPECT_GE(t.placements, 1u);
}

// --- 4. Apply/undo, text and hash round trips, notation round trips ---------------------

// Problems of one kind: how many, and the first few as examples.
struct Problems {
  uint64_t count = 0;
  Strings examples;
  void add(const std::string& what) {
    if (examples.size() < 3) examples.push_back(what);
    ++count;
  }
  std::string text() const {
    std::string out = std::to_string(count) + ", e.g.";
    for (const std::string& x : examples) out += "\n  " + x;
    return out;
  }
};

TEST(ChessMeAgreement, ApplyUndoTextHashAndNotationRoundTrips) {
  // Every legal action of every node gets SAN and two parses, each O(actions): the walks are
  // kept short.
  const int walks = fast() ? 3 : 8;
  const int plies = fast() ? 10 : 30;
  std::mt19937_64 rng(99);
  uint64_t nodes = 0, actions_checked = 0;
  Problems reload_hash, apply_hash, uci_dup, uci_parse, san_dup, san_parse;
  for (int w = 0; w < walks; ++w) {
    std::string start = "start:" + std::to_string(w + 1);
    if (w % 2) start = shifted(start, (w & 2) ? 1000000 : -1000000, (w & 4) ? -1000000 : 1000000);
    auto e = compiled_at(start);
    auto fresh = compiled();  // texts are loaded afresh here
    std::vector<std::pair<std::string, uint64_t>> trail;
    for (int ply = 0; ply < plies; ++ply) {
      const std::string pos = e->position();
      const uint64_t h = e->hash();
      SCOPED_TRACE(pos);
      ++nodes;
      // The text reloads to the same text and hash (counted, reported below).
      fresh->set_position(pos);
      ASSERT_EQ(fresh->position(), pos);
      if (fresh->hash() != h) reload_hash.add(pos);
      std::vector<Action> actions;
      e->legal_actions(actions);
      if (actions.empty()) break;
      std::set<std::string> ucis, sans;
      for (const Action& a : actions) {
        const std::string u = arb::uci(e->describe(a), true);
        if (!ucis.insert(u).second) uci_dup.add(pos + ": " + u);
        auto pu = arb::parse_action(*e, u);
        if (!pu || !(*pu == a)) uci_parse.add(pos + ": " + u);
        // SAN: any ambiguity is reported, never weakened.
        const std::string s = arb::san(*e, a);
        if (!sans.insert(s).second) san_dup.add(pos + ": " + s + " (" + u + ")");
        auto ps = arb::parse_action(*e, s);
        if (!ps || !(*ps == a))
          san_parse.add(pos + ": SAN " + s + " of " + u + " parses to " +
                        (ps ? arb::uci(e->describe(*ps), true) : std::string("nothing")));
        ++actions_checked;
        // Apply: the text reloads to the same hash; undo restores text and hash exactly.
        e->apply(a);
        const std::string after = e->position();
        fresh->set_position(after);
        EXPECT_EQ(fresh->position(), after);
        if (fresh->hash() != e->hash()) apply_hash.add(pos + " then " + u);
        e->undo();
        ASSERT_EQ(e->position(), pos) << "undo of " << u;
        ASSERT_EQ(e->hash(), h) << "undo of " << u;
      }
      trail.push_back({pos, h});
      e->apply(actions[rng() % actions.size()]);
    }
    // Undo the whole walk: every step back restores the text and the hash.
    while (!trail.empty()) {
      e->undo();
      ASSERT_EQ(e->position(), trail.back().first);
      ASSERT_EQ(e->hash(), trail.back().second);
      trail.pop_back();
    }
    auto cl = e->clone();
    EXPECT_EQ(cl->position(), e->position());
    EXPECT_EQ(cl->hash(), e->hash());
    // set_position(position()) on the engine itself, at the start of the walk.
    const uint64_t h0 = e->hash();
    const std::string p0 = e->position();
    e->set_position(p0);
    EXPECT_EQ(e->position(), p0);
    EXPECT_EQ(e->hash(), h0);
  }
  std::printf("round trips: %llu nodes, %llu actions\n", (unsigned long long)nodes,
              (unsigned long long)actions_checked);
  EXPECT_EQ(uci_dup.count, 0u) << "UCI texts listed twice: " << uci_dup.text();
  EXPECT_EQ(uci_parse.count, 0u) << "UCI texts that do not parse back: " << uci_parse.text();
  EXPECT_EQ(san_dup.count, 0u) << "SAN texts shared by two actions: " << san_dup.text();
  EXPECT_EQ(san_parse.count, 0u) << "SAN texts that do not parse back: " << san_parse.text();
  // See HashOfAReloadedTextAfterADraw.
  EXPECT_EQ(reload_hash.count, 0u) << "nodes whose text reloads to another hash: " << reload_hash.text();
  EXPECT_EQ(apply_hash.count, 0u) << "actions whose result reloads to another hash: " << apply_hash.text();
  EXPECT_GT(actions_checked, fast() ? 500u : 5000u);
}

// The hash is a function of the position, not of the text it was loaded from: after a
// placement has drawn a tile, the same text loaded afresh (a shorter pile) hashes the same.
// (Until c64fa56 the compiled engine folded the loaded pile into the hash once and toggled a
// draw-cursor key, so set_position(position()) changed the hash after any draw.)
TEST(ChessMeAgreement, HashOfAReloadedTextAfterADraw) {
  for (auto& e : both_at("kt20,pa4,Pb2,Pd2,Kk10 w NP/- Q/- -/- 1")) {
    SCOPED_TRACE(e->name());
    e->apply(testing_helpers::find_action(*e, "b2b3,N@b2"));
    const std::string after = e->position();
    ASSERT_EQ(after, "kt20,Kk10,pa4,Pb3,Nb2,Pd2 b QP/- -/- -/- 1");
    auto fresh = e->clone();
    fresh->set_position(after);
    EXPECT_EQ(fresh->position(), after);
    EXPECT_EQ(fresh->hash(), e->hash())
        << "the same text hashes differently after apply and after set_position";
    // A move without placement draws nothing and round-trips.
    e->undo();
    e->apply(testing_helpers::find_action(*e, "b2b3"));
    fresh->set_position(e->position());
    EXPECT_EQ(fresh->hash(), e->hash());
  }
}

// SAN on the hand-derived positions: placements, exchanges, captures far away.
TEST(ChessMeAgreement, SanOfTheRuleCasesRoundTrips) {
  for (const RuleCase& c : rule_cases()) {
    for (auto [dx, dy] : std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {-1000000, -1000000}}) {
      if (!shift_fits(c.position, dx, dy)) continue;
      auto e = compiled_at(dx == 0 ? c.position : shifted(c.position, dx, dy));
      std::vector<Action> actions;
      e->legal_actions(actions);
      for (const Action& a : actions) {
        const std::string s = arb::san(*e, a);
        auto p = arb::parse_action(*e, s);
        EXPECT_TRUE(p && *p == a) << e->position() << ": SAN " << s << " of "
                                  << arb::uci(e->describe(a), true);
      }
    }
  }
  // A few SAN forms by hand.
  auto e = compiled_at("kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/QNNP 1");
  EXPECT_EQ(arb::san(*e, testing_helpers::find_action(*e, "b4c5q")), "bxc5=Q#");
  EXPECT_EQ(arb::san(*e, testing_helpers::find_action(*e, "b4b5n")), "b5=N");
  auto f = compiled_at("start:1");
  EXPECT_EQ(arb::san(*f, testing_helpers::find_action(*f, "c2c3,N@b1")), "c3,N@b1");
  EXPECT_EQ(arb::san(*f, testing_helpers::find_action(*f, "c1b1,P@(-1,2)")), "Kb1,P@(-1,2)");
}

}  // namespace

// --- 5. Properties (RapidCheck) ---------------------------------------------------------

// A generated case: a start seed, an optional translation, a walk seed and length. At the
// node reached: perft(2) equals the sum of perft(1) over the root list in a shuffled order,
// and after every legal action the position text is one the reference accepts (it rejects a
// position whose side not to move is in check: no action leaves the mover's king attacked).
RC_GTEST_PROP(CompiledChessMeProperties, PerftIsOrderIndependentAndNoActionExposesTheKing, ()) {
  const uint64_t start_seed = *rc::gen::inRange<uint64_t>(0, 100000);
  const uint64_t walk_seed = *rc::gen::arbitrary<uint64_t>();
  const int plies = *rc::gen::inRange(0, fast() ? 25 : 50);
  const int shift_kind = *rc::gen::inRange(0, 3);
  std::string start = arb::chessme_start(start_seed);
  if (shift_kind == 1) start = shifted(start, -1000000, 1000000);
  if (shift_kind == 2) start = shifted(start, 999999000, -999999000);
  auto e = compiled_at(start);
  std::mt19937_64 rng(walk_seed);
  std::vector<Action> actions;
  for (int i = 0; i < plies; ++i) {
    e->legal_actions(actions);
    if (actions.empty()) break;
    e->apply(actions[rng() % actions.size()]);
  }
  const std::string pos = e->position();
  RC_LOG() << pos << "\n";
  e->legal_actions(actions);
  std::shuffle(actions.begin(), actions.end(), rng);
  uint64_t sum = 0;
  auto ref = reference();
  for (const Action& a : actions) {
    const std::string u = arb::uci(e->describe(a), true);
    e->apply(a);
    sum += e->perft(1);
    const std::string after = e->position();
    std::string error;
    try {
      ref->set_position(after);
    } catch (const arb::PositionError& err) {
      error = err.what();
    }
    if (!error.empty()) RC_FAIL(pos + ": " + u + " leaves the mover's king attacked (" + error + ")");
    e->undo();
  }
  RC_ASSERT(e->position() == pos);
  RC_ASSERT(e->perft(2) == sum);
  std::mt19937_64 order(walk_seed ^ 0x5555);
  RC_ASSERT(testing_helpers::shuffled_perft(*e, 2, order) == sum);
  // And the reference agrees on the node itself.
  auto r = reference_at(pos);
  if (auto d = arb::fuzz::compare_node(*e, *r)) RC_FAIL(arb::fuzz::to_json(*d));
}

// ---- A designer's hand: corpus/rulesets/chessme-hand4.rules ------------------------------

namespace {

std::shared_ptr<const arb::lang::Program> hand4_program() {
  static std::shared_ptr<const arb::lang::Program> p = [] {
    arb::lang::Diagnostics diags;
    auto c = arb::lang::compile_file(testing_helpers::source_path("corpus/rulesets/chessme-hand4.rules"), {},
                                     diags);
    EXPECT_FALSE(diags.has_errors()) << diags.render();
    return c.program;
  }();
  return p;
}

std::unique_ptr<Engine> hand4(const std::string& text = "start") {
  auto p = hand4_program();
  if (!p) throw std::runtime_error("chessme-hand4.rules does not compile");
  auto e = arb::lang::make_compiled_engine(p);
  e->set_position(text);
  return e;
}

// The diagnostics of a ruleset that extends the bundled chessme with `extra` lines.
std::string chessme_child_errors(const std::string& extra) {
  testing_helpers::TempDir dir;
  std::string path =
      dir.write("child.rules", "ruleset child extends \"" + testing_helpers::source_path("rulesets/chessme") +
                                   "\"\n" + extra);
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(path, {}, diags);
  EXPECT_EQ(c.program, nullptr) << extra;
  return diags.render();
}

}  // namespace

TEST(CompiledChessMeDesigner, HandsOfFourAreDealtDrawnAndWritten) {
  auto p = hand4_program();
  ASSERT_NE(p, nullptr);
  auto e = arb::lang::make_compiled_engine(p);
  // Seed 1 shuffles White's tiles to B N P R Q R N P B P P (ChessMe's hand of three is the
  // first three, B N P): a hand of four adds the R.
  EXPECT_EQ(e->position(), "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w RBNP/rbbp QRNPBPP/ppnpqrn -/- 1");
  // Perft 1 by hand. Six moves: the pawns a3 b3 c3 d3 and the king b1 d1 (RULINGS 2.5c: it
  // steps sideways without capturing; every target has a neighbour, 2.5a). Each may be
  // followed by a placement (2.6): a tile other than a pawn behind an own pawn, a pawn
  // beside one. Squares behind an own pawn after each move: a3: a2 b1 d1; b3: a1 b2 d1;
  // c3: a1 b1 c2 d1; d3: a1 b1 d2; Kb1: a1 c1 d1; Kd1: a1 b1 c1 (19 in all). Squares beside
  // an own pawn: a3: (-1,3) b3 a2 e2; b3: (-1,2) b2 a3 c3 e2; c3: (-1,2) c2 b3 d3 e2;
  // d3: (-1,2) d2 c3 e3; Kb1: (-1,2) e2; Kd1: (-1,2) e2 (22). With R, B and N in hand:
  // 6 + 3 x 19 + 22 = 85 (ChessMe's hand of three, B N P: 6 + 2 x 19 + 22 = 66).
  EXPECT_EQ(e->perft(1), 85u);
  EXPECT_EQ(testing_helpers::compiled_engine("chessme")->perft(1), 66u);
  // After a placement the hand draws one: four again (the pile's top, Q).
  ASSERT_TRUE(testing_helpers::play(*e, "a2a3,R@a2"));
  EXPECT_EQ(e->position(), "kc6,pa5,pb5,pc5,pd5,Pa3,Ra2,Pb2,Pc2,Pd2,Kc1 b QBNP/rbbp RNPBPP/ppnpqrn -/- 1");
  // The text reads back on this ruleset; a fifth tile in a hand is refused, and ChessMe's
  // own text refuses a fourth.
  auto again = arb::lang::make_compiled_engine(p);
  again->set_position(e->position());
  EXPECT_EQ(again->position(), e->position());
  EXPECT_THROW(again->set_position("kc6,Kc1 w QRBNP/- -/- -/- 1"), arb::PositionError);
  EXPECT_THROW(testing_helpers::compiled_engine("chessme")->set_position(e->position()), arb::PositionError);
  // A first deal larger than the hand is refused at the statement.
  testing_helpers::TempDir dir;
  arb::lang::Diagnostics d;
  auto bad = arb::lang::compile_file(
      dir.write("deal.rules", "ruleset deal extends chessme\nhand size 4 draw 5\n"), {}, d);
  EXPECT_EQ(bad.program, nullptr);
  EXPECT_NE(d.render().find("deal.rules:2:"), std::string::npos) << d.render();
  EXPECT_NE(d.render().find("draws 5 tiles at the start but holds at most 4"), std::string::npos)
      << d.render();
}

TEST(CompiledChessMeHand4, StartHoldsFourTilesAndReadsBack) {
  // Seed 1 shuffles White's pile to R Q R N P B P P after the hand B N P of ChessMe
  // (chessme_start(1)); a start draw of four takes the R too. Black: r b b, then p.
  auto e = hand4("start:1");
  const std::string start = "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w RBNP/rbbp QRNPBPP/ppnpqrn -/- 1";
  EXPECT_EQ(e->position(), start);
  EXPECT_EQ(e->position(), arb::chessme_start(1, hand4_program()->grid->tile_rules()));
  auto back = hand4(start);
  EXPECT_EQ(back->position(), start);
  EXPECT_EQ(back->hash(), e->hash());
  // ChessMe's own rules refuse the fourth tile; the hand of four reads it.
  EXPECT_THROW(compiled()->set_position(start), arb::PositionError);
  EXPECT_THROW(hand4("kc6,Kc1 w QRBNP/- -/- -/- 1"), arb::PositionError);
  // A placement draws one tile: the hand refills to four from the pile's top (Q).
  e->apply(testing_helpers::find_action(*e, "c2c3,R@c2"));
  EXPECT_EQ(e->position(), "kc6,pa5,pb5,pc5,pd5,Pc3,Pa2,Pb2,Rc2,Pd2,Kc1 b QBNP/rbbp RNPBPP/ppnpqrn -/- 1");
  e->undo();
  EXPECT_EQ(e->position(), start);
}

TEST(CompiledChessMeHand4, PerftOneOfSeedOneByHand) {
  // Seed 1, White's hand R B N P: three non-pawn tile types and the pawn tile. The six
  // moves are ChessMe's (StartPositionActions of conformance_chessme_test.cpp): a2a3 b2b3
  // c2c3 d2d3 c1b1 c1d1. After each, the pawn tile goes beside an own pawn, R B N behind
  // one (Black is far away: no placement or move is in check):
  //   a2a3: pawns a3 b2 c2 d2. Beside (-1,3) b3 a2 e2 = 4; behind a2 b1 d1 (c1 king) = 3.
  //         1 + 4 + 3*3 = 14.
  //   b2b3: pawns a2 b3 c2 d2. Beside (-1,2) b2 a3 c3 e2 = 5; behind a1 b2 d1 = 3. 1+5+9 = 15.
  //   c2c3: pawns a2 b2 c3 d2. Beside (-1,2) c2 b3 d3 e2 = 5; behind a1 b1 c2 d1 = 4.
  //         1 + 5 + 12 = 18.
  //   d2d3: pawns a2 b2 c2 d3. Beside (-1,2) d2 c3 e3 = 4; behind a1 b1 d2 = 3. 1+4+9 = 14.
  //   c1b1: beside (-1,2) e2 = 2; behind a1 c1 d1 (b1 king) = 3. 1 + 2 + 9 = 12.
  //   c1d1: beside (-1,2) e2 = 2; behind a1 b1 c1 (d1 king) = 3. 1 + 2 + 9 = 12.
  // 14 + 15 + 18 + 14 + 12 + 12 = 85 (ChessMe's hand B N P: 66).
  auto e = hand4("start:1");
  EXPECT_EQ(e->perft(1), 85u);
  std::map<std::string, int> per_move;
  for (const std::string& s : texts_of(*e)) ++per_move[s.substr(0, s.find(','))];
  EXPECT_EQ(per_move,
            (std::map<std::string, int>{
                {"a2a3", 14}, {"b2b3", 15}, {"c2c3", 18}, {"d2d3", 14}, {"c1b1", 12}, {"c1d1", 12}}));
  Strings c2c3;
  for (const std::string& s : texts_of(*e))
    if (s.rfind("c2c3,", 0) == 0 && s.find("@c2") != std::string::npos) c2c3.push_back(s);
  EXPECT_EQ(c2c3, Strings({"c2c3,B@c2", "c2c3,N@c2", "c2c3,P@c2", "c2c3,R@c2"}));
}

TEST(CompiledChessMeHand4, RegistryTellsTheReferenceTheHand) {
  // The reference of a ruleset is the nearest variant of its lineage that has one, told the
  // hand and pile where they differ from ChessMe's.
  arb::lang::Diagnostics diags;
  auto c =
      arb::lang::compile_file(testing_helpers::source_path("corpus/rulesets/chessme-hand4.rules"), {}, diags);
  ASSERT_NE(c.model, nullptr);
  EXPECT_EQ(arb::registry::reference_options(*c.model),
            (std::map<std::string, std::string>{{"draw", "4"}, {"hand-size", "4"}}));
  EXPECT_EQ(arb::registry::reference_variant(*c.model), "chessme");
  auto base = arb::lang::compile_file(testing_helpers::ruleset_path("chessme"), {}, diags);
  ASSERT_NE(base.model, nullptr);
  EXPECT_TRUE(arb::registry::reference_options(*base.model).empty());
  EXPECT_EQ(arb::registry::reference_variant(*base.model), "chessme");
  // A bounded child is another game: atomic chess extends chess and has no reference.
  auto atomic =
      arb::lang::compile_file(testing_helpers::source_path("corpus/rulesets/atomic.rules"), {}, diags);
  ASSERT_NE(atomic.model, nullptr);
  EXPECT_EQ(arb::registry::reference_variant(*atomic.model), "");
}

TEST(CompiledChessMeHand4, UnsupportedHandsAndPilesAreLocatedErrors) {
  std::string m = chessme_child_errors("hand size 3 draw 4\n");
  EXPECT_NE(m.find("child.rules:2:1"), std::string::npos) << m;
  EXPECT_NE(m.find("draws 4 tiles at the start but holds at most 3"), std::string::npos) << m;
  m = chessme_child_errors("pile Q X*2 shuffled seed $seed\n");
  EXPECT_NE(m.find("child.rules:2:1"), std::string::npos) << m;
  EXPECT_NE(m.find("`X`, which is no piece"), std::string::npos) << m;
  m = chessme_child_errors("pile K Q shuffled seed $seed\n");
  EXPECT_NE(m.find("royal piece `K`"), std::string::npos) << m;
  // The board back end's placement words are refused at their location on the grid.
  m = chessme_child_errors("placement {\n  pawn beside own-pawn\n  region ranks 1..4\n}\n");
  EXPECT_NE(m.find("child.rules:4:3"), std::string::npos) << m;
  EXPECT_NE(m.find("region"), std::string::npos) << m;
}

TEST(CompiledChessMeHand4, AnyPileAndAHandOfTwo) {
  // A hand larger than its first deal would never fill (one tile is drawn per tile placed):
  // refused at the statement.
  const std::string m = chessme_child_errors("hand size 3 draw 2\n");
  EXPECT_NE(m.find("child.rules:2:1"), std::string::npos) << m;
  EXPECT_NE(m.find("never holds more than 2"), std::string::npos) << m;
  // A pile of one queen and two pawns, a hand of 2: seed 1 deals the top two, the third
  // stays in the pile and a placement draws it.
  testing_helpers::TempDir dir;
  std::string path =
      dir.write("small.rules", "ruleset small extends \"" + testing_helpers::source_path("rulesets/chessme") +
                                   "\"\npile Q P*2 shuffled seed $seed\nhand size 2 draw 2\n");
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(path, {}, diags);
  ASSERT_NE(c.program, nullptr) << diags.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position("start:1");
  ChessMePosition p = arb::parse_chessme(e->position(), c.program->grid->tile_rules());
  EXPECT_EQ(p.hand[0].size(), 2u);
  EXPECT_EQ(p.pile[0].size(), 1u);
  std::string all = p.hand[0] + p.pile[0];
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, "PPQ");
  // Place a hand tile after a2a3 (a pawn beside on b3, or any other behind on a2), then
  // the hand holds 2 again and the pile is empty.
  const std::string tile(1, p.hand[0][0]);
  e->apply(testing_helpers::find_action(*e, tile == "P" ? "a2a3,P@b3" : "a2a3," + tile + "@a2"));
  ChessMePosition q = arb::parse_chessme(e->position(), c.program->grid->tile_rules());
  EXPECT_EQ(q.hand[0].size(), 2u);
  EXPECT_TRUE(q.pile[0].empty());
  // The tile-count check uses the ruleset's set: no rook exists.
  EXPECT_THROW(e->set_position("kc6,Rc3,Kc1 w -/- -/- -/- 1"), arb::PositionError);
}
