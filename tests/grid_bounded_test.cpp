// The grid back end on a bounded board (issue 26): the same ruleset compiled for the
// bitboard generator and for the grid back end must agree node by node (perft, the
// differential fuzzer), a ruleset the grid cannot run is refused at every blocking
// statement, and the comparison catches a seeded difference between the two.
#include "arbiter/lang/grid_bounded.hpp"

#include <gtest/gtest.h>

#include "fuzz/fuzz.hpp"
#include "helpers.hpp"
#include "process.hpp"

using testing_helpers::ruleset_path;
using testing_helpers::TempDir;

namespace {

struct Both {
  arb::lang::Compiled compiled;
  std::shared_ptr<const arb::lang::BoundedGridProgram> grid;
  std::string errors;
};

// Compiles `path` for both back ends (the grid from `grid_path` when given: a seeded bug).
Both compile_both(const std::string& path, const std::string& grid_path = "") {
  Both b;
  arb::lang::Diagnostics d;
  b.compiled = arb::lang::compile_file(path, {}, d);
  EXPECT_NE(b.compiled.program, nullptr) << d.render();
  arb::lang::Compiled other;
  const arb::lang::Compiled* src = &b.compiled;
  if (!grid_path.empty()) {
    other = arb::lang::compile_file(grid_path, {}, d);
    src = &other;
    b.compiled.sources.insert(b.compiled.sources.end(), std::make_move_iterator(other.sources.begin()),
                              std::make_move_iterator(other.sources.end()));
  }
  arb::lang::Diagnostics gd;
  if (src->model) b.grid = arb::lang::compile_bounded_grid(*src->model, src->program, gd);
  b.errors = gd.render();
  return b;
}

arb::fuzz::EngineFactory bitboard(const Both& b) {
  auto p = b.compiled.program;
  return [p] { return arb::lang::make_compiled_engine(p); };
}
arb::fuzz::EngineFactory grid(const Both& b) {
  auto g = b.grid;
  return [g] { return arb::lang::make_bounded_grid_engine(g); };
}

void expect_same_perft(const Both& b, const std::string& fen, int depth, uint64_t expected) {
  auto left = bitboard(b)(), right = grid(b)();
  left->set_position(fen);
  right->set_position(fen);
  EXPECT_EQ(right->position(), left->position()) << fen;
  EXPECT_EQ(left->perft(depth), expected) << fen;
  EXPECT_EQ(right->perft(depth), expected) << fen;
}

}  // namespace

// The published chess perft numbers (Chess Programming Wiki, "Perft Results") on both back
// ends: castling, en passant, promotion and checks on the grid's mailbox.
TEST(GridBounded, ChessPerftMatchesBitboard) {
  Both b = compile_both(ruleset_path("chess"));
  ASSERT_NE(b.grid, nullptr) << b.errors;
  expect_same_perft(b, testing_helpers::kChessStart, 4, 197281);
  expect_same_perft(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862);
  expect_same_perft(b, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238);
  expect_same_perft(b, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467);
  expect_same_perft(b, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379);
}

// The status of a node: checkmate, stalemate, the dead position and the claims.
TEST(GridBounded, ChessStatusMatchesBitboard) {
  Both b = compile_both(ruleset_path("chess"));
  ASSERT_NE(b.grid, nullptr) << b.errors;
  for (const char* fen : {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                          "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
                          "8/8/4k3/8/8/3NK3/8/8 b - - 99 80", "4k3/8/8/8/8/8/8/R3K3 w Q - 100 90"}) {
    auto left = bitboard(b)(), right = grid(b)();
    left->set_position(fen);
    right->set_position(fen);
    EXPECT_EQ(arb::fuzz::status_text(right->status()), arb::fuzz::status_text(left->status())) << fen;
    EXPECT_FALSE(arb::fuzz::compare_node(*left, *right).has_value()) << fen;
  }
}

// The fuzzer's games (with mutated positions and shrinking) find no divergence.
TEST(GridBounded, ChessFuzzNoDivergence) {
  Both b = compile_both(ruleset_path("chess"));
  ASSERT_NE(b.grid, nullptr) << b.errors;
  arb::fuzz::Options o;
  o.seed = 26;
  o.seconds = testing_helpers::fast() ? 2 : 10;
  arb::fuzz::Report r = arb::fuzz::run(bitboard(b), grid(b), bitboard(b)()->position(), o);
  EXPECT_GT(r.positions, 1000u);
  EXPECT_FALSE(r.divergence.has_value()) << arb::fuzz::to_json(*r.divergence);
}

// Catalogue rulesets of leapers, riders and pawns fit the grid too.
TEST(GridBounded, CatalogueRulesetsAgree) {
  for (const std::string v : {"fsf/gardner", "fsf/losalamos", "fsf/amazon", "fsf/chancellor",
                              "fsf/knightmate", "fsf/makruk", "fsf/tencubed", "fsf/nightrider"}) {
    SCOPED_TRACE(v);
    Both b = compile_both(ruleset_path(v));
    ASSERT_NE(b.grid, nullptr) << b.errors;
    auto left = bitboard(b)(), right = grid(b)();
    EXPECT_EQ(right->position(), left->position());
    EXPECT_EQ(right->perft(3), left->perft(3));
    arb::fuzz::Options o;
    o.seed = 7;
    o.games = testing_helpers::fast() ? 10 : 60;
    arb::fuzz::Report r = arb::fuzz::run(bitboard(b), grid(b), left->position(), o);
    EXPECT_FALSE(r.divergence.has_value()) << arb::fuzz::to_json(*r.divergence);
  }
}

// An en-passant field no double step fits is ignored by both: tencubed's pawns start on
// rank 3, so h2-h4 was never a double step (the fuzzer found the grid honouring it).
TEST(GridBounded, EnPassantFieldNeedsAFittingDoubleStep) {
  Both b = compile_both(ruleset_path("fsf/tencubed"));
  ASSERT_NE(b.grid, nullptr) << b.errors;
  auto left = bitboard(b)(), right = grid(b)();
  for (const char* fen :
       {"10/5k4/10/10/10/10/7Pp1/10/5K4/10 b - h3 0 1", "10/5k4/10/10/10/7Pp1/10/10/5K4/10 b - h4 0 1"}) {
    left->set_position(fen);
    right->set_position(fen);
    EXPECT_FALSE(arb::fuzz::compare_node(*left, *right).has_value()) << fen;
  }
  std::vector<arb::Action> acts;
  right->legal_actions(acts);  // h3-h5 passed h4: i6xh4 en passant is legal
  EXPECT_EQ(acts.size(), 10u);
}

// What the grid cannot run on a bounded board is refused at the statement, named.
TEST(GridBounded, RefusalNamesEveryBlockingStatement) {
  Both b = compile_both(ruleset_path("fsf/crazyhouse"));
  EXPECT_EQ(b.grid, nullptr);
  EXPECT_NE(b.errors.find("crazyhouse.rules:"), std::string::npos) << b.errors;
  EXPECT_NE(b.errors.find("not executable by the grid back end on a bounded board"), std::string::npos)
      << b.errors;
}

// A seeded bug: the grid side's pawn lost its en-passant capture (`fceF` -> `fcF`), a
// difference only one back end sees; the fuzzer must find it.
TEST(GridBounded, FuzzCatchesASeededDifference) {
  TempDir dir;
  std::string text = testing_helpers::read_text(ruleset_path("chess"));
  const size_t at = text.find("fmWfceFifmnD");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "fmWfcFifmnD");
  const std::string edited = dir.write("chess-no-ep.rules", text);
  Both b = compile_both(ruleset_path("chess"), edited);
  ASSERT_NE(b.grid, nullptr) << b.errors;
  arb::fuzz::Options o;
  o.seed = 1;
  o.seconds = 20;  // found in well under a second; the bound only stops a broken fuzzer
  arb::fuzz::Report r = arb::fuzz::run(bitboard(b), grid(b), bitboard(b)()->position(), o);
  // Seed 1 shrinks it to `4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1`, diff `+d4e3`.
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->what, "actions") << arb::fuzz::to_json(*r.divergence);
  EXPECT_FALSE(r.divergence->diff.empty()) << arb::fuzz::to_json(*r.divergence);
}

// The command: `--against grid` runs and prints its rate; a ruleset it cannot run is exit 2
// with the statements that block it.
TEST(GridBounded, FuzzCommandAgainstGrid) {
  using testing_process::run_arbiter;
  auto ok = run_arbiter({"fuzz", "--variant", "chess", "--against", "grid", "--games", "20", "--seed", "3"},
                        arbiter_source_dir());
  EXPECT_EQ(ok.code, 0) << ok;
  EXPECT_NE(ok.out.find("against grid"), std::string::npos) << ok;
  EXPECT_NE(ok.out.find("positions/s"), std::string::npos) << ok;
  EXPECT_NE(ok.out.find("no divergence"), std::string::npos) << ok;
  // mutate: each mutant's bitboard engine judged against the original's grid engine.
  auto mut = run_arbiter({"mutate", "rulesets/fsf/gardner.rules", "--against", "grid", "--games", "2"},
                         arbiter_source_dir());
  EXPECT_NE(mut.out.find("against grid"), std::string::npos) << mut;
  EXPECT_NE(mut.out.find("killed"), std::string::npos) << mut;
  EXPECT_TRUE(mut.code == 0 || mut.code == 1) << mut;
  auto refused = run_arbiter({"fuzz", "--rules", "rulesets/fsf/crazyhouse.rules", "--against", "grid"},
                             arbiter_source_dir());
  EXPECT_EQ(refused.code, 2) << refused;
  EXPECT_NE(refused.err.find("crazyhouse.rules:"), std::string::npos) << refused;
}
