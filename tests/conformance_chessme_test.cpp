// The ChessMe conformance suite: every engine that plays ChessMe (the compiled generator
// running rulesets/chessme.rules and the hand-written reference engine,
// checker/reference/chessme) on each rule of RULINGS.md section 2 pinned by a tiny position
// whose action list is derived by hand in the comments, translation and colour-mirror
// invariance (far and negative coordinates), apply/undo on random walks, a brute-force
// cross-check of whole action lists, and perft of the seeded starts: one TEST_P per rule
// (`Conformance/ChessMe.StartPositionActions/compiled`). Fairy-Stockfish has no ChessMe.
// The two engines compared with each other: tests/chessme_agreement_test.cpp.
//
// Coordinates in the comments are (x,y) with a = 0 and y the rank number; White moves
// toward +y, Black toward -y.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "arbiter/chessme_text.hpp"
#include "arbiter/notation.hpp"
#include "chessme_scatter.hpp"
#include "conformance.hpp"
#include "reference.hpp"

namespace {

using arb::Action;
using arb::ActionInfo;
using arb::ChessMePosition;
using arb::Color;
using arb::Coord;
using arb::Engine;
using arb::Result;
using arb::Status;
using Strings = std::vector<std::string>;

class ChessMe : public conformance::Suite {};
INSTANTIATE_TEST_SUITE_P(Conformance, ChessMe,
                         ::testing::Values(conformance::compiled("chessme"),
                                           conformance::reference("chessme")),
                         conformance::engine_name);

std::unique_ptr<Engine> engine_at(const std::string& text) {
  auto e = conformance::make_engine();
  e->set_position(text);
  return e;
}

Strings action_texts(Engine& e) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  Strings out;
  for (const Action& a : actions) out.push_back(arb::uci(e.describe(a)));
  std::sort(out.begin(), out.end());
  return out;
}

Strings actions_of(const std::string& text) {
  auto e = engine_at(text);
  return action_texts(*e);
}

Strings sorted(Strings v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::optional<Action> find_action(Engine& e, const std::string& text) {
  std::vector<Action> actions;
  e.legal_actions(actions);
  for (const Action& a : actions)
    if (arb::uci(e.describe(a)) == text) return a;
  return std::nullopt;
}

// --- Position transforms -------------------------------------------------------------

std::string shifted(const std::string& text, int dx, int dy) {
  ChessMePosition p = arb::parse_chessme(text);
  for (auto& [sq, pc] : p.pieces) sq = Coord{sq.x + dx, sq.y + dy};
  return arb::format_chessme(p);
}

char swap_case(char c) {
  return std::isupper(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c))
                                                     : static_cast<char>(std::toupper(c));
}
std::string swap_case(std::string s) {
  for (char& c : s) c = swap_case(c);
  return s;
}

// Colours exchanged and ranks reflected, y -> 7 - y (the start position maps to itself).
std::string mirrored(const std::string& text) {
  ChessMePosition p = arb::parse_chessme(text);
  ChessMePosition m = p;
  for (auto& [sq, pc] : m.pieces) {
    sq.y = 7 - sq.y;
    pc = swap_case(pc);
  }
  m.side = arb::opposite(p.side);
  for (int c = 0; c < 2; ++c) {
    m.hand[c] = swap_case(p.hand[1 - c]);
    m.pile[c] = swap_case(p.pile[1 - c]);
    m.pile_known[c] = p.pile_known[1 - c];
    m.captured[c] = swap_case(p.captured[1 - c]);
  }
  return arb::format_chessme(m);
}

// The canonical text of an action with every square passed through `f`.
template <class F>
std::string mapped_uci(ActionInfo info, F f) {
  for (arb::Step& s : info.steps) {
    s.from = f(s.from);
    s.to = f(s.to);
    for (arb::PieceAt& r : s.removed) r.at = f(r.at);  // the victims move with the board
  }
  return arb::uci(info);
}

// Action texts of the position, with squares mapped back through `back`.
template <class F>
Strings mapped_actions(const std::string& text, F back) {
  auto e = engine_at(text);
  std::vector<Action> actions;
  e->legal_actions(actions);
  Strings out;
  for (const Action& a : actions) out.push_back(mapped_uci(e->describe(a), back));
  return sorted(out);
}

// --- An independent brute-force generator for the cross-check -------------------------
// Written straight from the rules, square by square, with no cleverness: every square of
// the bounding box of the pieces grown by 2 is tried as a destination (a legal non-capture
// lands next to a piece, a capture on a piece, so nothing outside can be legal).

struct Brute {
  std::map<Coord, char> board;
  Color side = Color::White;
  ChessMePosition pos;

  explicit Brute(const std::string& text, const arb::TileRules& rules = {})
      : pos(arb::parse_chessme(text, rules)) {
    for (const auto& [sq, pc] : pos.pieces) board[sq] = pc;
    side = pos.side;
  }

  static Color color(char pc) {
    return std::isupper(static_cast<unsigned char>(pc)) ? Color::White : Color::Black;
  }
  static char type(char pc) { return static_cast<char>(std::toupper(static_cast<unsigned char>(pc))); }
  static int fwd(Color c) { return c == Color::White ? 1 : -1; }
  char at(const std::map<Coord, char>& b, Coord c) const {
    auto it = b.find(c);
    return it == b.end() ? 0 : it->second;
  }

  // Path strictly between a and b (aligned) free of pieces, walking one square at a time.
  bool clear(const std::map<Coord, char>& b, Coord a, Coord t) const {
    int sx = (t.x > a.x) - (t.x < a.x), sy = (t.y > a.y) - (t.y < a.y);
    for (Coord c{a.x + sx, a.y + sy}; c != t; c = Coord{c.x + sx, c.y + sy})
      if (at(b, c)) return false;
    return true;
  }

  // Could `pc` on `a` capture on `t` (t != a), ignoring what stands on t?
  bool attacks(const std::map<Coord, char>& b, Coord a, char pc, Coord t) const {
    int dx = t.x - a.x, dy = t.y - a.y, ax = std::abs(dx), ay = std::abs(dy);
    switch (type(pc)) {
      case 'P':
        return ax == 1 && dy == fwd(color(pc));
      case 'N':
        return (ax == 1 && ay == 2) || (ax == 2 && ay == 1);
      case 'K':
        return std::max(ax, ay) == 1;
      case 'R':
        return (dx == 0 || dy == 0) && clear(b, a, t);
      case 'B':
        return ax == ay && clear(b, a, t);
      case 'Q':
        return (dx == 0 || dy == 0 || ax == ay) && clear(b, a, t);
    }
    return false;
  }

  bool in_check(const std::map<Coord, char>& b, Color c) const {
    Coord king{};
    for (const auto& [sq, pc] : b)
      if (type(pc) == 'K' && color(pc) == c) king = sq;
    for (const auto& [sq, pc] : b)
      if (color(pc) != c && attacks(b, sq, pc, king)) return true;
    return false;
  }

  // Could `pc` on `a` move to the empty square t, ignoring the adjacency rule?
  bool steps_to(const std::map<Coord, char>& b, Coord a, char pc, Coord t) const {
    int dx = t.x - a.x, dy = t.y - a.y;
    switch (type(pc)) {
      case 'P':
        return dx == 0 && dy == fwd(color(pc));
      case 'K':
        return std::max(std::abs(dx), std::abs(dy)) == 1 && dy != -fwd(color(pc));
      default:
        return attacks(b, a, pc, t);
    }
  }

  Strings actions() const {
    Strings out;
    int x0 = INT32_MAX, x1 = INT32_MIN, y0 = INT32_MAX, y1 = INT32_MIN;
    for (const auto& [sq, pc] : board) {
      x0 = std::min(x0, sq.x), x1 = std::max(x1, sq.x), y0 = std::min(y0, sq.y), y1 = std::max(y1, sq.y);
    }
    Coord enemy_king{};
    for (const auto& [sq, pc] : board)
      if (type(pc) == 'K' && color(pc) != side) enemy_king = sq;
    const std::string& opp_captures = pos.captured[side == Color::White ? 1 : 0];
    const std::string& hand = pos.hand[side == Color::White ? 0 : 1];
    for (const auto& [from, pc] : board) {
      if (color(pc) != side) continue;
      for (int y = y0 - 2; y <= y1 + 2; ++y) {
        for (int x = x0 - 2; x <= x1 + 2; ++x) {
          Coord to{x, y};
          if (to == from) continue;
          char target = at(board, to);
          bool ok;
          if (target) {
            ok = color(target) != side && type(target) != 'K' && attacks(board, from, pc, to);
          } else {
            bool next_to_other = false;
            for (int ny = -1; ny <= 1; ++ny)
              for (int nx = -1; nx <= 1; ++nx) {
                Coord n{x + nx, y + ny};
                if ((nx || ny) && n != from && at(board, n)) next_to_other = true;
              }
            ok = next_to_other && steps_to(board, from, pc, to);
          }
          if (!ok) continue;
          std::string exchanges = "-";  // '-' = no exchange
          if (type(pc) == 'P' && y == enemy_king.y)
            for (char t : std::string("QRBN"))
              if (opp_captures.find(side == Color::White ? t : static_cast<char>(std::tolower(t))) !=
                  std::string::npos)
                exchanges.push_back(t);
          for (char ex : exchanges) {
            std::map<Coord, char> after = board;
            after.erase(from);
            after[to] = ex == '-' ? pc : (side == Color::White ? ex : static_cast<char>(std::tolower(ex)));
            if (in_check(after, side)) continue;
            std::string move = arb::square_name(from) + arb::square_name(to);
            if (ex != '-') move.push_back(static_cast<char>(std::tolower(ex)));
            out.push_back(move);
            // Placements on the position after the move.
            std::set<std::pair<char, Coord>> places;
            for (char tile : hand) {
              char t = type(tile);
              for (const auto& [sq, q] : after) {
                if (type(q) != 'P' || color(q) != side) continue;
                std::vector<Coord> cand;
                if (t == 'P')
                  cand = {Coord{sq.x - 1, sq.y}, Coord{sq.x + 1, sq.y}};
                else
                  cand = {Coord{sq.x, sq.y - fwd(side)}};
                for (Coord c : cand)
                  if (!at(after, c)) places.insert({t, c});
              }
            }
            for (const auto& [t, c] : places) {
              std::map<Coord, char> placed = after;
              placed[c] = side == Color::White ? t : static_cast<char>(std::tolower(t));
              if (in_check(placed, side)) continue;
              out.push_back(move + "," + std::string(1, t) + "@" + arb::square_name(c));
            }
          }
        }
      }
    }
    return sorted(out);
  }
};

// --- Rules, one position each -----------------------------------------------------------

TEST_P(ChessMe, NameAndStartShorthands) {
  auto e = conformance::make_engine();
  EXPECT_EQ(e->name(), GetParam().name + ":chessme");
  e->set_position("start:1");
  EXPECT_EQ(e->position(), arb::chessme_start(1));
  e->set_position("start");
  EXPECT_EQ(e->position(), arb::chessme_start(arb::kChessMeDefaultSeed));
  e->set_position(arb::chessme_start(2));
  EXPECT_EQ(e->position(), arb::chessme_start(2));
  EXPECT_THROW(e->set_position("start:x"), arb::PositionError);
  EXPECT_THROW(e->set_position("kc6,Kc1 w -/- -/- -/-"), arb::PositionError);
  // The side that just moved may not be in check: Black's king on c6 is attacked by Rc1.
  EXPECT_THROW(e->set_position("kc6,Rc1,Ka1 w -/- -/- -/- 1"), arb::PositionError);
}

TEST_P(ChessMe, StartPositionActions) {
  // Seed 1, White: hand B N P. Moves: a2-d2 one step (each lands next to another pawn),
  // the king c1 to b1 (next to a2) or d1 (next to c2, d2); b2, c2, d2 are occupied.
  // Six moves. After a2a3 the own pawns are a3 b2 c2 d2: a pawn tile beside them on
  // (-1,3), b3, a2 (vacated), e2 (4); B or N behind them on a2, b1, d1 (c1 is the king):
  // 3 each. 1 + 4 + 3 + 3 = 11 actions start with a2a3.
  Strings all = actions_of("start:1");
  Strings a2a3;
  for (const std::string& s : all)
    if (s.rfind("a2a3", 0) == 0) a2a3.push_back(s);
  EXPECT_EQ(a2a3, sorted({"a2a3", "a2a3,P@(-1,3)", "a2a3,P@b3", "a2a3,P@a2", "a2a3,P@e2", "a2a3,B@a2",
                          "a2a3,B@b1", "a2a3,B@d1", "a2a3,N@a2", "a2a3,N@b1", "a2a3,N@d1"}));
  Strings moves;
  for (const std::string& s : all)
    if (s.find(',') == std::string::npos) moves.push_back(s);
  EXPECT_EQ(moves, sorted({"a2a3", "b2b3", "c2c3", "d2d3", "c1b1", "c1d1"}));
  EXPECT_EQ(all.size(), 66u);
}

TEST_P(ChessMe, NonCaptureMustEndNextToAnotherPiece) {
  // Rook d4 (3,4), White king a1 (0,1), Black king e6 (4,6).
  // Up the d-file: d5, d6, d7 touch e6; d8 does not (e6 is two ranks below) and nothing
  // farther up does. Down, left and right: no square touches a piece other than the rook
  // itself (d3 touches only the vacated d4). The king a1: b1, a2, b2 touch only its own
  // origin; (-1,1), (-1,2) nothing. So exactly three actions.
  EXPECT_EQ(actions_of("ke6,Rd4,Ka1 w -/- -/- -/- 1"), sorted({"d4d5", "d4d6", "d4d7"}));
  // Knight d4: of its eight jumps only e6 (4,6) touches the Black king f7 (5,7).
  EXPECT_EQ(actions_of("kf7,Nd4,Ka1 w -/- -/- -/- 1"), Strings{"d4e6"});
  // A capture needs no neighbour: the rook takes the lone knight far down the file, or stops
  // on (3,-499) next to it; no square between touches anything.
  EXPECT_EQ(actions_of("ke6,Rd4,Ka1,n(3,-500) w -/- -/- -/- 1"),
            sorted({"d4d5", "d4d6", "d4d7", "d4(3,-499)", "d4(3,-500)"}));
}

TEST_P(ChessMe, KingMovesBackwardOnlyToCapture) {
  // White king d4 (3,4), Black knight c3 (2,3), Black king h8.
  // Non-captures allowed: c4, e4 (sideways), c5, d5, e5 (forward); each must touch a piece
  // other than the king: only c4 (next to c3). d3 also touches c3 but is backward, so it
  // is not allowed; e3 is backward too. Capturing backward onto c3 is allowed.
  // The knight attacks d5, e4, e2, d1, b1, a2, a4, b5: c4 and c3 are safe.
  EXPECT_EQ(actions_of("kh8,Kd4,nc3 w -/- -/- -/- 1"), sorted({"d4c3", "d4c4"}));
  // Black's king moves forward toward lower ranks: Black king e5 (4,5), White knight f6
  // (5,6) behind it on the right, White king a1. Non-captures d5, f5, d4, e4, f4: only f5
  // (5,5) touches f6. The knight attacks d5, d7, e4, e8, g4, g8, h5, h7: f5 is safe. e6
  // touches f6 but is backward for Black; the capture on f6 is allowed.
  EXPECT_EQ(actions_of("Nf6,ke5,Ka1 b -/- -/- -/- 1"), sorted({"e5f5", "e5f6"}));
}

TEST_P(ChessMe, KingAttacksAllEightNeighbours) {
  // White king d6 (3,6), Black king f5 (5,5). White's non-captures: c6, e6, c7, d7, e7.
  // Only e6 touches another piece (f5), and e6 is attacked by the Black king (it is behind
  // that king, a square it could not step to without capturing, but it attacks it).
  // No legal move, not in check: a ChessMe draw.
  auto e = engine_at("kf5,Kd6 w -/- -/- -/- 1");
  EXPECT_TRUE(action_texts(*e).empty());
  Status s = e->status();
  EXPECT_EQ(s.result, Result::Draw);
  EXPECT_EQ(s.reason, "chessme-draw");
  EXPECT_FALSE(s.in_check);
  // Black to move in the same place: e5 touches d6 but is attacked; f4, e4, g4, g5 touch
  // nothing. A draw too.
  EXPECT_TRUE(actions_of("kf5,Kd6 b -/- -/- -/- 1").empty());
}

TEST_P(ChessMe, PawnsStepOnceAndCaptureDiagonally) {
  // White pawn b2, king c1; Black pawn c4 (2,4), Black king h8.
  // b2b3: b3 touches c4. b2b4 (two squares) never. a3/c3 are empty: no pawn capture.
  // King c1: b1 (touches b2), c2 (touches b2), d1 and d2 touch nothing but the origin;
  // b1 and c2 are not attacked (c4 attacks b3 and d3).
  EXPECT_EQ(actions_of("kh8,pc4,Pb2,Kc1 w -/- -/- -/- 1"), sorted({"b2b3", "c1b1", "c1c2"}));
  // A pawn does not step onto or capture straight ahead: Black pawn b3 in front of b2.
  // King c1: b1 (touches b2), c2 is attacked by b3, d1 and d2 touch nothing but c1.
  EXPECT_EQ(actions_of("kh8,pb3,Pb2,Kc1 w -/- -/- -/- 1"), Strings{"c1b1"});
  // Diagonal capture forward only: White pawn d4 with Black pawns c5 and e3. d4xc5 is
  // forward; e3 is behind it. d4d5 touches c5. King k1 (10,1) is alone.
  EXPECT_EQ(actions_of("kh8,pc5,Pd4,pe3,Kk1 w -/- -/- -/- 1"), sorted({"d4c5", "d4d5"}));
}

TEST_P(ChessMe, PlacementSquaresDifferForPawnsAndOtherTiles) {
  // White pawns b2 (1,2) and d2 (3,2), White king k10 (10,10), Black knight m12 (12,12),
  // Black pawn d1 (3,1), Black king z26. Hand N P P.
  // Moves: the pawns' steps b3 and d3 touch nothing but their origins; the king's only
  // square next to another piece is l11 (11,11), which the knight (attacking (10,11),
  // (11,10), ...) does not attack. So the one move is k10l11.
  // Placements after it: a pawn tile beside b2 or d2: a2, c2 (named twice, one choice), e2;
  // the knight behind b2 or d2: b1 (d1 is occupied). The two P tiles are one choice.
  EXPECT_EQ(actions_of("kz26,nm12,Kk10,Pb2,Pd2,pd1 w NPP/- -/- -/- 1"),
            sorted({"k10l11", "k10l11,P@a2", "k10l11,P@c2", "k10l11,P@e2", "k10l11,N@b1"}));
  // Placement is judged after the move: White pawns b2, d2, Black pawn a4 (0,4), kings far
  // apart. Only b2b3 (touching a4). Then the pawns are b3 and d2: a pawn tile on a3, c3,
  // c2, e2; a knight behind them on b2 (just vacated) or d1.
  EXPECT_EQ(actions_of("kt20,pa4,Pb2,Pd2,Kk10 w NP/- Q/- -/- 1"),
            sorted({"b2b3", "b2b3,P@a3", "b2b3,P@c3", "b2b3,P@c2", "b2b3,P@e2", "b2b3,N@b2", "b2b3,N@d1"}));
  // Black places behind toward higher ranks: Black pawn e5 (4,5) steps to e4 (4,4), next
  // to the White pawn d3; its diagonals d4, f4 are empty. The Black king a8 and the White
  // king k1 touch nothing. After e5e4 a knight tile goes behind e4 on e5 (just vacated), a
  // pawn tile beside it on d4 or f4.
  EXPECT_EQ(actions_of("ka8,pe5,Pd3,Kk1 b -/np -/- -/- 1"),
            sorted({"e5e4", "e5e4,N@e5", "e5e4,P@d4", "e5e4,P@f4"}));
  // No own pawn in play: no placement at all. The rook d4 reaches d5, d6, d7 (next to e6).
  EXPECT_EQ(actions_of("ke6,Rd4,Ka1 w QN/- -/- -/- 1"), sorted({"d4d5", "d4d6", "d4d7"}));
}

TEST_P(ChessMe, PlacementDrawsFromTheOwnPile) {
  auto e = engine_at("kt20,pa4,Pb2,Pd2,Kk10 w NP/- Q/- -/- 1");
  const std::string before = e->position();
  const uint64_t h = e->hash();
  // A move without placement draws nothing.
  e->apply(*find_action(*e, "b2b3"));
  EXPECT_EQ(e->position(), "kt20,Kk10,pa4,Pb3,Pd2 b NP/- Q/- -/- 1");
  e->undo();
  // A placement then draws the top tile.
  e->apply(*find_action(*e, "b2b3,N@b2"));
  EXPECT_EQ(e->position(), "kt20,Kk10,pa4,Pb3,Nb2,Pd2 b QP/- -/- -/- 1");
  e->undo();
  EXPECT_EQ(e->position(), before);
  EXPECT_EQ(e->hash(), h);
  // An unknown pile: no draw is modelled and the pile stays unknown.
  auto u = engine_at("kt20,pa4,Pb2,Pd2,Kk10 w NP/- ?/- -/- 1");
  u->apply(*find_action(*u, "b2b3,P@c3"));
  EXPECT_EQ(u->position(), "kt20,Kk10,pa4,Pb3,Pc3,Pd2 b N/- ?/- -/- 1");
  // Black's pile, top first; the fullmove number grows after Black's turn.
  auto b = engine_at("ka8,pe5,Pd3,Kk1 b -/np -/rbq -/- 7");
  b->apply(*find_action(*b, "e5e4,P@d4"));
  EXPECT_EQ(b->position(), "ka8,pd4,pe4,Pd3,Kk1 w -/rn -/bq -/- 8");
}

TEST_P(ChessMe, PromotionByExchange) {
  // Black king h5 (7,5): rank 5 is the promotion rank for White. Black's capture pile holds
  // White Q, N, N, P. White pawn b4 steps to b5 (touches c5) or captures c5; both end on
  // rank 5, so each may be exchanged for Q or N (N once, P never), or not: 6 actions.
  // Pawn d3 steps to d4 (touches c5), rank 4: no exchange. King k1 alone: no move.
  EXPECT_EQ(actions_of("kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/QNNP 1"),
            sorted({"b4b5", "b4b5q", "b4b5n", "b4c5", "b4c5q", "b4c5n", "d3d4"}));
  // Nothing captured by the opponent: no exchange.
  EXPECT_EQ(actions_of("kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/PP 1"), sorted({"b4b5", "b4c5", "d3d4"}));
  // The exchange: the pawn goes to Black's pile and the queen comes out of it; the captured
  // Black pawn goes to White's pile. The queen then checks along rank 5.
  auto e = engine_at("kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/QNNP 1");
  const uint64_t h = e->hash();
  e->apply(*find_action(*e, "b4c5q"));
  EXPECT_EQ(e->position(), "Qc5,kh5,Pd3,Kk1 b -/- -/- p/NNPP 1");
  EXPECT_TRUE(e->status().in_check);
  e->undo();
  EXPECT_EQ(e->position(), "pc5,kh5,Pb4,Pd3,Kk1 w -/- -/- -/QNNP 1");
  EXPECT_EQ(e->hash(), h);
  // Black's pawns promote on the White king's rank: White king k3 (10,3). Black pawn c4
  // (2,4) steps to c3 (2,3), touching the White pawn d2 (3,2), and may take back the rook
  // White captured; b3 and d3 are empty, so no capture. Kings a8 and k3 touch nothing.
  EXPECT_EQ(actions_of("ka8,pc4,Pd2,Kk3 b -/- -/- r/- 1"), sorted({"c4c3", "c4c3r"}));
  // Placements never promote: after b4b5 the pawn tile beside b5 lands on a5, on the Black
  // king's rank, and stays a pawn (the pile is empty, so nothing is drawn). After b4b5q the
  // b5 piece is a queen and no longer an anchor: pawn tiles go beside d3 only.
  auto pl = engine_at("kh5,pc5,Pb4,Pd3,Kk1 w P/- -/- -/QP 1");
  Strings a = action_texts(*pl);
  EXPECT_NE(std::find(a.begin(), a.end(), "b4b5,P@a5"), a.end());
  EXPECT_EQ(std::find(a.begin(), a.end(), "b4b5q,P@a5"), a.end());
  EXPECT_NE(std::find(a.begin(), a.end(), "b4b5q,P@c3"), a.end());
  EXPECT_NE(std::find(a.begin(), a.end(), "b4b5q,P@e3"), a.end());
  pl->apply(*find_action(*pl, "b4b5,P@a5"));
  EXPECT_EQ(pl->position(), "Pa5,Pb5,pc5,kh5,Pd3,Kk1 b -/- -/- -/QP 1");
}

TEST_P(ChessMe, NoEscapeFromCheckByPlacement) {
  // White king a1 in check from the rook a8. Pawn b4 can step to b5 (touches c6), and a
  // pawn tile beside b5 on a5 would block the file, but the move must be legal by itself:
  // b4b5 leaves the king in check, so it is no action at all. The king's squares b1, a2,
  // b2, (-1,1), (-1,2) touch nothing but a1. Checkmate.
  auto e = engine_at("ra8,kh8,pc6,Pb4,Ka1 w P/- -/- -/- 1");
  EXPECT_TRUE(action_texts(*e).empty());
  Status s = e->status();
  EXPECT_EQ(s.result, Result::BlackWins);
  EXPECT_EQ(s.reason, "checkmate");
  EXPECT_TRUE(s.in_check);
  // Without the check (rook off the a-file) the same move and both placements are legal.
  EXPECT_EQ(actions_of("r(-5,8),kh8,pc6,Pb4,Ka1 w P/- -/- -/- 1"),
            sorted({"b4b5", "b4b5,P@a5", "b4b5,P@c5"}));
}

TEST_P(ChessMe, CheckMustBeAnswered) {
  // Rook a8 checks the king a1. The rook b3 can reach a3 but a3 touches nothing other than
  // the rook's own origin; it cannot reach the a8 rook. The king: b2 touches b3 and is not
  // attacked; a2 is attacked; b1, (-1,1), (-1,2) touch nothing. One answer.
  auto e = engine_at("ra8,kh8,Rb3,Ka1 w -/- -/- -/- 1");
  EXPECT_EQ(action_texts(*e), Strings{"a1b2"});
  Status s = e->status();
  EXPECT_TRUE(s.in_check);
  EXPECT_EQ(s.result, Result::Ongoing);
  EXPECT_EQ(s.reason, "");
  // A Black checkmate: Black king a8 (0,8) checked by the rook a1 along the file; its
  // squares (-1,8), b8, (-1,7), a7, b7 (forward is down) touch only a8 or are attacked.
  auto m = engine_at("ka8,Ra1,Kh1 b -/- -/- -/- 3");
  EXPECT_TRUE(action_texts(*m).empty());
  EXPECT_EQ(m->status().result, Result::WhiteWins);
  EXPECT_EQ(m->status().reason, "checkmate");
}

TEST_P(ChessMe, DrawWithoutLegalMove) {
  // Rook d4, kings a1 and h8: the rook's rays meet no square next to another piece, the
  // king's squares touch only a1. Not in check: a ChessMe draw.
  auto e = engine_at("kh8,Rd4,Ka1 w -/- -/- -/- 1");
  EXPECT_TRUE(action_texts(*e).empty());
  Status s = e->status();
  EXPECT_EQ(s.result, Result::Draw);
  EXPECT_EQ(s.reason, "chessme-draw");
  EXPECT_FALSE(s.in_check);
  EXPECT_FALSE(s.claim_fifty);
  EXPECT_FALSE(s.claim_threefold);
  EXPECT_EQ(e->perft(1), 0u);
}

// --- Invariance: far and negative coordinates, mirrored colours -------------------------

const std::vector<std::string> kSmallPositions = {
    "ke6,Rd4,Ka1 w -/- -/- -/- 1",
    "kf7,Nd4,Ka1 w -/- -/- -/- 1",
    "kh8,Kd4,nc3 w -/- -/- -/- 1",
    "Nf6,ke5,Ka1 b -/- -/- -/- 1",
    "kh8,pc4,Pb2,Kc1 w -/- -/- -/- 1",
    "kz26,nm12,Kk10,Pb2,Pd2,pd1 w NPP/- -/- -/- 1",
    "kt20,pa4,Pb2,Pd2,Kk10 w NP/- Q/- -/- 1",
    "kh5,pc5,Pb4,Pd3,Kk1 w -/- -/- -/QNNP 1",
    "ra8,kh8,pc6,Pb4,Ka1 w P/- -/- -/- 1",
    "ra8,kh8,Rb3,Ka1 w -/- -/- -/- 1",
    "ke6,Rd4,Ka1,n(3,-500) w -/- -/- -/- 1",
};

TEST_P(ChessMe, SameActionsWhenShiftedFarAway) {
  const std::vector<std::pair<int, int>> shifts = {
      {-1000000, 5}, {-1000000, -5}, {1000000, 1000000}, {-3, -7}, {999999000, -999999000}};
  for (const std::string& text : kSmallPositions) {
    Strings here = actions_of(text);
    for (const auto& shift : shifts) {
      const auto dx = shift.first, dy = shift.second;  // no structured binding: lambdas capture them
      std::string far = shifted(text, dx, dy);
      SCOPED_TRACE(far);
      EXPECT_EQ(mapped_actions(far, [=](Coord c) { return Coord{c.x - dx, c.y - dy}; }), here);
    }
  }
  for (uint64_t seed : {1ull, 2ull}) {
    std::string start = arb::chessme_start(seed);
    uint64_t p2 = engine_at(start)->perft(2);
    EXPECT_EQ(engine_at(shifted(start, -1000000, 5))->perft(2), p2);
    EXPECT_EQ(engine_at(shifted(start, 123456789, -987654321))->perft(2), p2);
  }
}

TEST_P(ChessMe, SameActionsWithColoursMirrored) {
  for (const std::string& text : kSmallPositions) {
    std::string m = mirrored(text);
    SCOPED_TRACE(m);
    EXPECT_EQ(mapped_actions(m, [](Coord c) { return Coord{c.x, 7 - c.y}; }), actions_of(text));
  }
  // The start is its own mirror up to the piles: perft agrees with the swapped piles.
  for (uint64_t seed : {1ull, 2ull}) {
    std::string start = arb::chessme_start(seed);
    auto a = engine_at(start);
    auto b = engine_at(mirrored(start));
    EXPECT_EQ(a->perft(1), b->perft(1));
  }
}

// --- Apply/undo, hashing and the brute-force cross-check on random walks ---------------

TEST_P(ChessMe, RandomWalksAgreeWithBruteForceAndUndoExactly) {
  std::mt19937_64 rng(20261122);
  int positions = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    auto e = engine_at(arb::chessme_start(seed));
    std::vector<std::pair<std::string, uint64_t>> trail;
    for (int ply = 0; ply < 70; ++ply) {
      const std::string pos = e->position();
      const uint64_t h = e->hash();
      SCOPED_TRACE(pos);
      // The engine's text reloads to the same state.
      auto again = engine_at(pos);
      ASSERT_EQ(again->position(), pos);
      ASSERT_EQ(again->hash(), h);
      // Every action is distinct and the list equals the brute-force one.
      Strings texts = action_texts(*e);
      ASSERT_EQ(std::set<std::string>(texts.begin(), texts.end()).size(), texts.size());
      ASSERT_EQ(texts, Brute(pos).actions());
      ++positions;
      std::vector<Action> actions;
      e->legal_actions(actions);
      Status st = e->status();
      if (actions.empty()) {
        EXPECT_NE(st.result, Result::Ongoing);
        break;
      }
      EXPECT_EQ(st.result, Result::Ongoing);
      // Apply and undo every action once; then walk on with a random one.
      for (const Action& a : actions) {
        e->apply(a);
        e->undo();
        ASSERT_EQ(e->position(), pos);
        ASSERT_EQ(e->hash(), h);
      }
      const Action& a = actions[rng() % actions.size()];
      ActionInfo info = e->describe(a);
      e->apply(a);
      // What describe() said happened.
      ChessMePosition after = arb::parse_chessme(e->position());
      auto piece_on = [&](Coord c) -> char {
        for (const auto& [sq, pc] : after.pieces)
          if (sq == c) return pc;
        return 0;
      };
      bool refilled = info.steps.size() > 1 && info.steps[1].to == info.steps[0].from;
      if (!refilled) {
        EXPECT_EQ(piece_on(info.steps[0].from), 0);
      }
      char landed = piece_on(info.steps[0].to);
      EXPECT_EQ(std::toupper(landed),
                info.steps[0].promotion ? info.steps[0].promotion : info.steps[0].piece);
      if (info.steps.size() > 1) {
        EXPECT_EQ(std::toupper(piece_on(info.steps[1].to)), info.steps[1].piece);
      }
      trail.push_back({pos, h});
    }
    while (!trail.empty()) {
      e->undo();
      ASSERT_EQ(e->position(), trail.back().first);
      ASSERT_EQ(e->hash(), trail.back().second);
      trail.pop_back();
    }
    auto c = e->clone();
    EXPECT_EQ(c->position(), e->position());
  }
  EXPECT_GT(positions, 300);
}

TEST_P(ChessMe, ScatteredPositionsAgreeWithBruteForce) {
  // Random legal-looking positions in a 9x9 window (plus a few pieces up to 30 squares
  // away), random hands and capture piles; those the text or the engine rejects are skipped.
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int iter = 0; iter < 3000 && checked < 400; ++iter) {
    ChessMePosition p = chessme_scatter::scattered_position(rng);
    std::string text = arb::format_chessme(p);
    auto e = conformance::make_engine();
    try {
      e->set_position(text);
    } catch (const arb::PositionError&) {
      continue;
    }
    SCOPED_TRACE(text);
    ASSERT_EQ(action_texts(*e), Brute(text).actions());
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST_P(ChessMe, LongRaysCostNothingAndEncodeExactly) {
  // Rook (-10^9,1) and a Black knight (10^9,1) on the same rank, 2*10^9 squares apart; the
  // kings c5 and (10^9,8) touch nothing. The rook may capture the knight or stop next to it
  // on (10^9-1,1); no other square of any ray touches a piece.
  const std::string text = "k(1000000000,8),Kc5,R(-1000000000,1),n(1000000000,1) w -/- -/- -/- 1";
  auto e = engine_at(text);
  auto t0 = std::chrono::steady_clock::now();
  Strings a = action_texts(*e);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(a, sorted({"(-1000000000,1)(999999999,1)", "(-1000000000,1)(1000000000,1)"}));
  EXPECT_LT(s, 0.5);
  const uint64_t h = e->hash();
  e->apply(*find_action(*e, "(-1000000000,1)(1000000000,1)"));
  EXPECT_EQ(e->position(), "k(1000000000,8),Kc5,R(1000000000,1) b -/- -/- n/- 1");
  e->undo();
  EXPECT_EQ(e->position(), arb::format_chessme(arb::parse_chessme(text)));
  EXPECT_EQ(e->hash(), h);
}

TEST_P(ChessMe, BruteForceAgreesOnTheWholeDepth3TreeOfTheStarts) {
  // Every node of depth 0..2 (whose action lists make up perft 3) checked against the
  // brute-force generator.
  for (uint64_t seed : {1ull, 2ull}) {
    auto e = engine_at(arb::chessme_start(seed));
    int nodes = 0;
    std::vector<Action> a0, a1;
    ASSERT_EQ(action_texts(*e), Brute(e->position()).actions());
    e->legal_actions(a0);
    for (const Action& x : a0) {
      e->apply(x);
      ASSERT_EQ(action_texts(*e), Brute(e->position()).actions()) << e->position();
      e->legal_actions(a1);
      for (const Action& y : a1) {
        e->apply(y);
        ASSERT_EQ(action_texts(*e), Brute(e->position()).actions()) << e->position();
        ++nodes;
        e->undo();
      }
      e->undo();
    }
    EXPECT_EQ(static_cast<uint64_t>(nodes), e->perft(2));
  }
}

// --- Perft of the seeded starts ---------------------------------------------------------

TEST_P(ChessMe, PerftOfSeededStarts) {
  for (uint64_t seed : {1ull, 2ull}) {
    auto e = engine_at(arb::chessme_start(seed));
    std::printf("chessme start seed %llu: %s\n", static_cast<unsigned long long>(seed),
                e->position().c_str());
    for (int d = 1; d <= 3; ++d) {
      auto t0 = std::chrono::steady_clock::now();
      uint64_t n = e->perft(d);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("  perft %d = %llu  (%.3f s, %.0f leaves/s)\n", d, static_cast<unsigned long long>(n), s,
                  s > 0 ? n / s : 0.0);
      EXPECT_EQ(e->position(), arb::chessme_start(seed));
    }
  }
  // Seed 1 by hand at depth 1 (see StartPositionActions): 66.
  EXPECT_EQ(engine_at(arb::chessme_start(1))->perft(1), 66u);
}

// --- A designer's tiles and hand (options tiles, hand-size, draw) -----------------------

// The tile options (tiles, hand-size, draw) are the reference engine's: rulesets/chessme.rules
// takes only `seed`, and a designer's hand is a ruleset of its own on the compiled side
// (corpus/rulesets/chessme-hand4.rules, tests/chessme_agreement_test.cpp). So the Tiles
// tests below are plain TESTs of the reference engine.
std::unique_ptr<Engine> reference_at(const std::string& text) {
  auto e = arb::ref::make_chessme_engine();
  e->set_position(text);
  return e;
}

std::unique_ptr<Engine> engine_with(const std::map<std::string, std::string>& options,
                                    const std::string& text = "start") {
  auto e = arb::ref::make_chessme_engine(options);
  e->set_position(text);
  return e;
}

arb::TileRules tile_rules(const std::string& tiles, int hand_size, int draw) {
  arb::TileRules r;
  r.tiles = tiles;
  r.hand_size = hand_size;
  r.draw = draw;
  return r;
}

// The hand and pile fields of a position text ("WHITE/BLACK" each).
std::string field_of(const std::string& text, int index) {
  std::istringstream in(text);
  std::string f;
  for (int i = 0; i <= index; ++i) in >> f;
  return f;
}

TEST(ChessMeReferenceTiles, OptionsParsedCheckedAndNamed) {
  auto d = arb::ref::make_reference_engine("chessme");
  EXPECT_EQ(d->config().options, (std::vector<std::pair<std::string, std::string>>{{"seed", "1"}}));
  auto e = arb::ref::make_reference_engine("chessme", {{"hand-size", "4"}, {"draw", "4"}});
  EXPECT_EQ(e->config().options, (std::vector<std::pair<std::string, std::string>>{
                                     {"draw", "4"}, {"hand-size", "4"}, {"seed", "1"}}));
  // ChessMe's own values written out play as no option.
  auto same = engine_with({{"tiles", "QRRBBNNPPPP"}, {"hand-size", "3"}, {"draw", "3"}}, "start:2");
  EXPECT_EQ(same->position(), arb::chessme_start(2));
  EXPECT_EQ(same->perft(2), reference_at(arb::chessme_start(2))->perft(2));
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"tiles", ""},
                                                        {"tiles", "QRRK"},
                                                        {"tiles", "qrr"},
                                                        {"tiles", "QRX"},
                                                        {"tiles", std::string(65, 'P')},
                                                        {"hand-size", "x"},
                                                        {"hand-size", "65"},
                                                        {"hand-size", ""},
                                                        {"draw", "-1"},
                                                        {"draw", "100"},
                                                        {"seed", "x"}}) {
    try {
      arb::ref::make_reference_engine("chessme", {{key, value}});
      ADD_FAILURE() << "accepted " << key << "=" << value;
    } catch (const std::invalid_argument& err) {
      EXPECT_NE(std::string(err.what()).find(key), std::string::npos) << err.what();
    }
  }
  EXPECT_NO_THROW(arb::ref::make_reference_engine("chessme", {{"tiles", "-"}}));
  // seed: the deal of `start`, named in the configuration.
  auto seeded =
      arb::ref::make_reference_engine("chessme", {{"seed", "2"}, {"hand-size", "4"}, {"draw", "4"}});
  seeded->set_position("start");
  EXPECT_EQ(seeded->position(), arb::chessme_start(2, tile_rules("QRRBBNNPPPP", 4, 4)));
  EXPECT_EQ(seeded->config().value("seed"), "2");
  // A text is read against the engine's tiles: a hand of 4 is not a ChessMe position.
  auto four = engine_with({{"hand-size", "4"}, {"draw", "4"}});
  EXPECT_THROW(reference_at(four->position()), arb::PositionError);
  EXPECT_NO_THROW(engine_with({{"hand-size", "4"}, {"draw", "4"}}, four->position()));
}

// A hand of 4 (hand-size=4, draw=4), seed 1. The shuffle is ChessMe's (same tiles, same
// seed), so the hands are the default start's three plus the next tile of each pile:
//   White hand B N P + R, pile Q R N P B P P; Black hand r b b + p, pile p p n p q r n.
// White's moves (as in StartPositionActions): a2-a3, b2-b3, c2-c3, d2-d3, Kc1-b1, Kc1-d1: 6.
// Placements after each move, one per (tile type, square); the hand's four types B N P R:
// a P tile beside an own pawn, a B, N or R tile behind one (rank below), on empty squares:
//   a2a3: pawns a3 b2 c2 d2. P: (-1,3) b3 a2 e2 (4). Behind: a2 b1 d1 (c1 is the king): 3
//         each for B N R = 9. 13.
//   b2b3: pawns a2 b3 c2 d2. P: (-1,2) b2 a3 c3 e2 (5). Behind: a1 b2 d1: 9. 14.
//   c2c3: pawns a2 b2 c3 d2. P: (-1,2) c2 b3 d3 e2 (5). Behind: a1 b1 c2 d1: 12. 17.
//   d2d3: pawns a2 b2 c2 d3. P: (-1,2) d2 c3 e3 (4). Behind: a1 b1 d2: 9. 13.
//   Kb1 / Kd1: pawns a2 b2 c2 d2. P: (-1,2) e2 (2). Behind: a1 c1 d1 / a1 b1 c1: 9. 11 each.
// perft 1 = 6 + 13 + 14 + 17 + 13 + 11 + 11 = 85 (ChessMe's hand B N P gives 66: no R).
TEST(ChessMeReferenceTiles, HandOfFourPerftByHand) {
  auto e = engine_with({{"hand-size", "4"}, {"draw", "4"}});
  EXPECT_EQ(e->position(), "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w RBNP/rbbp QRNPBPP/ppnpqrn -/- 1");
  EXPECT_EQ(e->perft(1), 85u);
  Strings d2d3;
  for (const std::string& t : action_texts(*e))
    if (t.rfind("d2d3", 0) == 0) d2d3.push_back(t);
  EXPECT_EQ(d2d3, sorted({"d2d3", "d2d3,P@(-1,2)", "d2d3,P@d2", "d2d3,P@c3", "d2d3,P@e3", "d2d3,B@a1",
                          "d2d3,B@b1", "d2d3,B@d2", "d2d3,N@a1", "d2d3,N@b1", "d2d3,N@d2", "d2d3,R@a1",
                          "d2d3,R@b1", "d2d3,R@d2"}));
  // The brute-force generator, reading the same rules, agrees on the whole depth-2 tree.
  const arb::TileRules four = tile_rules("QRRBBNNPPPP", 4, 4);
  ASSERT_EQ(action_texts(*e), Brute(e->position(), four).actions());
  std::vector<Action> a0;
  e->legal_actions(a0);
  for (const Action& x : a0) {
    e->apply(x);
    ASSERT_EQ(action_texts(*e), Brute(e->position(), four).actions()) << e->position();
    e->undo();
  }
  // A placement draws the pile's top tile: the hand is 4 again.
  auto placed = find_action(*e, "d2d3,R@d2");
  ASSERT_TRUE(placed);
  e->apply(*placed);
  EXPECT_EQ(field_of(e->position(), 2), "QBNP/rbbp");
  EXPECT_EQ(field_of(e->position(), 3), "RNPBPP/ppnpqrn");
  e->undo();
  EXPECT_EQ(e->position(), "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w RBNP/rbbp QRNPBPP/ppnpqrn -/- 1");
}

// draw=N is the setup's draw (RULINGS 2.3's three), at most hand-size tiles; after a
// placement one tile is drawn (RULINGS 2.4), the hand staying within hand-size.
TEST(ChessMeReferenceTiles, SetupDrawsDrawTilesAndAPlacementOne) {
  // Seed 1's shuffled tiles (shuffle_tiles): White P N B R Q R N P B P P, Black
  // b r b p p p n p q r n. Hands of up to 4, the setup draws 2: P N / b r.
  auto e = engine_with({{"hand-size", "4"}, {"draw", "2"}});
  const std::string start = "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w NP/rb BRQRNPBPP/bpppnpqrn -/- 1";
  EXPECT_EQ(e->position(), start);
  auto play = [&e](const std::string& t) {
    auto a = find_action(*e, t);
    ASSERT_TRUE(a) << t << " in " << e->position();
    e->apply(*a);
  };
  // White places its P: N, then one tile, B.
  play("a2a3,P@b3");
  EXPECT_EQ(field_of(e->position(), 2), "BN/rb");
  EXPECT_EQ(field_of(e->position(), 3), "RQRNPBPP/bpppnpqrn");
  // Black places its b behind d4 (Black's behind is a rank higher): r, then b.
  play("d5d4,B@d5");
  EXPECT_EQ(field_of(e->position(), 2), "BN/rb");
  EXPECT_EQ(field_of(e->position(), 3), "RQRNPBPP/pppnpqrn");
  // A move without a placement draws nothing.
  play("c1d1");
  EXPECT_EQ(field_of(e->position(), 2), "BN/rb");
  EXPECT_EQ(field_of(e->position(), 3), "RQRNPBPP/pppnpqrn");
  for (int i = 0; i < 3; ++i) e->undo();
  EXPECT_EQ(e->position(), start);

  // A hand of 4 filled at the setup stays at 4: a placement leaves 3 and draws one.
  auto four = engine_with({{"hand-size", "4"}, {"draw", "4"}});
  EXPECT_EQ(field_of(four->position(), 2), "RBNP/rbbp");
  // One tile at the setup: P / b.
  EXPECT_EQ(field_of(engine_with({{"draw", "1"}})->position(), 2), "P/b");
  // The setup draws into the hand: a draw larger than the hand is refused.
  EXPECT_THROW(arb::ref::make_chessme_engine({{"hand-size", "2"}, {"draw", "5"}}), std::invalid_argument);
  EXPECT_EQ(field_of(engine_with({{"hand-size", "2"}, {"draw", "2"}})->position(), 2), "NP/rb");
  // No draw, or no hand: no tile ever comes into play; perft 1 is the six moves.
  for (const auto& o : std::vector<std::map<std::string, std::string>>{{{"draw", "0"}},
                                                                       {{"hand-size", "0"}, {"draw", "0"}}}) {
    auto z = engine_with(o);
    EXPECT_EQ(field_of(z->position(), 2), "-/-");
    EXPECT_EQ(field_of(z->position(), 3), "PNBRQRNPBPP/brbpppnpqrn");
    EXPECT_EQ(z->perft(1), 6u);
  }
}

// tiles=...: the side's pile before the setup's draw, shuffled as ChessMe's are.
TEST(ChessMeReferenceTiles, DesignerTilesAreShuffledDealtAndCounted) {
  auto e = engine_with({{"tiles", "QQNNP"}}, "start:1");
  std::string w = arb::shuffle_tiles("QQNNP", 1, Color::White),
              b = arb::shuffle_tiles("QQNNP", 1, Color::Black);
  for (char& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  ChessMePosition p = arb::parse_chessme(e->position(), tile_rules("QQNNP", 3, 3));
  std::string wh = w.substr(0, 3), bh = b.substr(0, 3);
  auto order = [](std::string s) {
    std::sort(s.begin(), s.end(), [](char x, char y) {
      return std::string("KQRBNPkqrbnp").find(x) < std::string("KQRBNPkqrbnp").find(y);
    });
    return s;
  };
  EXPECT_EQ(p.hand[0], order(wh));
  EXPECT_EQ(p.hand[1], order(bh));
  EXPECT_EQ(p.pile[0], w.substr(3));
  EXPECT_EQ(p.pile[1], b.substr(3));
  // Two queens are a legal hand here, not in ChessMe.
  const std::string two_queens = "kc6,pa5,Pa2,Kc1 w QQ/- -/- -/- 1";
  EXPECT_NO_THROW(engine_with({{"tiles", "QQNNP"}}, two_queens));
  EXPECT_THROW(reference_at(two_queens), arb::PositionError);
  // Perft of the designer's start, and every node of depth 1 against the brute force.
  const arb::TileRules rules = tile_rules("QQNNP", 3, 3);
  ASSERT_EQ(action_texts(*e), Brute(e->position(), rules).actions());
  std::vector<Action> a0;
  e->legal_actions(a0);
  for (const Action& x : a0) {
    e->apply(x);
    ASSERT_EQ(action_texts(*e), Brute(e->position(), rules).actions()) << e->position();
    e->undo();
  }
  std::printf("tiles=QQNNP start:1 %s perft 2 = %llu\n", e->position().c_str(),
              static_cast<unsigned long long>(e->perft(2)));
}

// Random games with a hand of 4, drawing two at a time: apply/undo restore text and hash,
// every text reloads, and every action list matches the brute force.
TEST(ChessMeReferenceTiles, RandomGamesWithDesignerHands) {
  const std::map<std::string, std::string> options = {
      {"hand-size", "4"}, {"draw", "2"}, {"tiles", "QRBNNPPPPPP"}};
  const arb::TileRules rules = tile_rules("QRBNNPPPPPP", 4, 2);
  int placements = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    auto e = engine_with(options, "start:" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<std::pair<std::string, uint64_t>> trail;
    for (int i = 0; i < 40 && e->status().result == Result::Ongoing; ++i) {
      std::string pos = e->position();
      ASSERT_EQ(engine_with(options, pos)->position(), pos);
      Strings texts = action_texts(*e);
      ASSERT_EQ(texts, Brute(pos, rules).actions()) << pos;
      std::vector<Action> actions;
      e->legal_actions(actions);
      const Action pick = actions[rng() % actions.size()];
      if (e->describe(pick).steps.size() == 2) ++placements;
      trail.push_back({pos, e->hash()});
      e->apply(pick);
    }
    for (; !trail.empty(); trail.pop_back()) {
      e->undo();
      ASSERT_EQ(e->position(), trail.back().first);
      ASSERT_EQ(e->hash(), trail.back().second);
    }
  }
  EXPECT_GT(placements, 20);
}

}  // namespace
