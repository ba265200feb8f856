// The turn layer (Program::turn): phases run as one action. A ruleset whose normal action
// is followed by an optional `royal-move` phase (the shape of Chess 2's king-turn, RULINGS
// 4.9) is checked against an oracle written here: the chess reference engine for the
// normal action and a naive king-step counter for the second phase.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "arbiter/fen.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/notation.hpp"
#include "helpers.hpp"
#include "reference.hpp"

namespace {

namespace fs = std::filesystem;

struct Built {
  arb::lang::Diagnostics diags;
  arb::lang::Compiled compiled;
};

std::unique_ptr<Built> build(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / ("arbiter-turn-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(testing_helpers::ruleset_path("chess"), dir / "chess.rules",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / (name + ".rules")) << text;
  auto b = std::make_unique<Built>();
  b->compiled = arb::lang::compile_file((dir / (name + ".rules")).string(), {}, b->diags);
  return b;
}

const char* kKingTurn =
    "ruleset kingturn extends chess\n"
    "turn {\n"
    "  action move\n"
    "  phase royal-move optional\n"
    "}\n";

// Is square (x, y) attacked by colour `by` (true = White) on a FEN board? Naive, for the oracle.
bool attacked(const arb::FenFields& f, int x, int y, bool by_white) {
  auto at = [&](int cx, int cy) -> char {
    if (cx < 0 || cy < 1 || cx >= f.width || cy > f.height) return '#';
    return f.at(arb::Coord{cx, cy});
  };
  auto own = [&](char c, char upper) { return by_white ? c == upper : c == upper - 'A' + 'a'; };
  int dir = by_white ? -1 : 1;  // a white pawn attacks from one rank below
  for (int dx : {-1, 1})
    if (own(at(x + dx, y + dir), 'P')) return true;
  for (auto [dx, dy] : {std::pair{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}})
    if (own(at(x + dx, y + dy), 'N')) return true;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy) {
      if (!dx && !dy) continue;
      if (own(at(x + dx, y + dy), 'K')) return true;
      bool diag = dx && dy;
      for (int k = 1;; ++k) {
        char c = at(x + k * dx, y + k * dy);
        if (c == '#') break;
        if (!c) continue;
        if (own(c, 'Q') || own(c, diag ? 'B' : 'R')) return true;
        break;
      }
    }
  return false;
}

// The king steps of the side that just played (`white`) in the position `text`, each
// leaving that king unattacked.
int king_steps(const std::string& text, bool white) {
  arb::FenFields f = arb::parse_fen(text, 8, 8, "KQRBNPkqrbnp");
  int kx = -1, ky = -1;
  for (int y = 1; y <= 8; ++y)
    for (int x = 0; x < 8; ++x)
      if (f.at(arb::Coord{x, y}) == (white ? 'K' : 'k')) kx = x, ky = y;
  int n = 0;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy) {
      int x = kx + dx, y = ky + dy;
      if ((!dx && !dy) || x < 0 || x > 7 || y < 1 || y > 8) continue;
      char c = f.at(arb::Coord{x, y});
      if (c && (std::isupper(static_cast<unsigned char>(c)) != 0) == white) continue;
      arb::FenFields g = f;
      g.at(arb::Coord{kx, ky}) = 0;
      g.at(arb::Coord{x, y}) = white ? 'K' : 'k';
      if (!attacked(g, x, y, !white)) ++n;
    }
  return n;
}

}  // namespace

TEST(TurnLayer, RoyalMovePhaseAgreesWithAnOracle) {
  auto b = build("kingturn", kKingTurn);
  ASSERT_NE(b->compiled.program, nullptr) << b->diags.render();
  auto compiled = arb::lang::make_compiled_engine(b->compiled.program);
  auto ref = arb::ref::make_reference_engine("chess");
  std::mt19937_64 rng(7);
  int positions = 0, turns = 0;
  // Under the sanitizers (ARBITER_FAST) 4 games: the Release run plays 12.
  const int games = testing_helpers::fast() ? 4 : 12;
  for (int game = 0; game < games; ++game) {
    ref->set_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (int ply = 0; ply < 40; ++ply) {
      std::vector<arb::Action> acts;
      ref->legal_actions(acts);
      if (acts.empty()) break;
      // Oracle: every normal action, and after each the mover's safe king steps.
      const bool white = ref->side_to_move() == arb::Color::White;
      uint64_t expected = 0;
      for (const auto& a : acts) {
        ref->apply(a);
        expected += 1 + king_steps(ref->position(), white);
        ref->undo();
      }
      compiled->set_position(ref->position());
      std::vector<arb::Action> got;
      compiled->legal_actions(got);
      ASSERT_EQ(got.size(), expected) << ref->position();
      EXPECT_EQ(compiled->perft(1), expected);
      // Every turn: undo restores position and hash; its text reads back to the same turn.
      const std::string before = compiled->position();
      const uint64_t hash = compiled->hash();
      for (const auto& a : got) {
        std::string text = arb::uci(compiled->describe(a));
        auto back = arb::parse_action(*compiled, text);
        ASSERT_TRUE(back) << text;
        EXPECT_EQ(arb::uci(compiled->describe(*back)), text);
        compiled->apply(a);
        EXPECT_EQ(compiled->side_to_move(), white ? arb::Color::Black : arb::Color::White) << text;
        compiled->undo();
        EXPECT_EQ(compiled->position(), before) << text;
        EXPECT_EQ(compiled->hash(), hash) << text;
        ++turns;
      }
      ++positions;
      ref->apply(acts[rng() % acts.size()]);
    }
  }
  EXPECT_GT(positions, games * 8);
  std::cout << "royal-move turns checked: " << turns << " in " << positions << " positions\n";
}

TEST(TurnLayer, EnPassantSurvivesTheSecondStep) {
  auto b = build("kingturn", kKingTurn);
  ASSERT_NE(b->compiled.program, nullptr) << b->diags.render();
  auto e = arb::lang::make_compiled_engine(b->compiled.program);
  e->set_position("4k3/8/8/8/3p4/8/4PK2/8 w - - 0 1");
  auto step_aside = arb::parse_action(*e, "e2e4,f2g3");
  ASSERT_TRUE(step_aside);
  e->apply(*step_aside);
  EXPECT_NE(e->position().find(" e3 "), std::string::npos) << e->position();
  EXPECT_TRUE(arb::parse_action(*e, "d4e3"));
  e->undo();
  // (The king can never land on the skipped square while a pawn could take there: that
  // pawn attacks it.) The normal action alone leaves the same right.
  auto alone = arb::parse_action(*e, "e2e4");
  ASSERT_TRUE(alone);
  e->apply(*alone);
  EXPECT_NE(e->position().find(" e3 "), std::string::npos) << e->position();
  e->undo();
  // The clocks count complete turns: one halfmove and, after Black, one fullmove.
  auto quiet = arb::parse_action(*e, "f2f3,f3g3");
  ASSERT_TRUE(quiet);
  e->apply(*quiet);
  EXPECT_NE(e->position().find(" b - - 1 1"), std::string::npos) << e->position();
  // The king-turn is marked in the description, and SAN writes both steps.
  e->undo();
  auto info = e->describe(*quiet);
  ASSERT_EQ(info.steps.size(), 2u);
  EXPECT_EQ(info.steps[0].phase, 0);
  EXPECT_EQ(info.steps[1].phase, 1);
  EXPECT_EQ(arb::san(*e, *quiet), "Kf3,Kg3");
}

TEST(TurnLayer, ShapesABackEndDoesNotRunAreLocatedErrors) {
  auto placed = build("t1", "ruleset t1 extends chess\nturn {\n  action move\n  phase place optional\n}\n");
  EXPECT_EQ(placed->compiled.program, nullptr);
  EXPECT_NE(placed->diags.render().find("t1.rules:4:3"), std::string::npos) << placed->diags.render();
  auto mandatory =
      build("t2", "ruleset t2 extends chess\nturn {\n  action move\n  phase royal-move mandatory\n}\n");
  EXPECT_EQ(mandatory->compiled.program, nullptr);
  EXPECT_NE(mandatory->diags.render().find("t2.rules:4:3"), std::string::npos) << mandatory->diags.render();
  auto after = build(
      "t3", "ruleset t3 extends chess\nturn {\n  action move\n  phase royal-move optional after draw\n}\n");
  EXPECT_EQ(after->compiled.program, nullptr);
  EXPECT_NE(after->diags.render().find("no earlier phase `draw`"), std::string::npos)
      << after->diags.render();
}
