// Issue 26: uchifuzume as Fairy-Stockfish plays it (shogiPawnDropMateIllegal in minishogi,
// mini and torishogi, and the rest of the family: shogi, checkshogi, euroshogi, gorogoro,
// judkins, okisakishogi): a mate given by a pawn drop is generated, and it is the mated side's
// win (Position::checkmate_value). The rulesets state it as `checkmate-by P dropped -> win`
// (the swallow S in torishogi). The positions are the sweep's divergence
// (corpus/fsf/SWEEP.md) and its torishogi counterpart. The agreement with Fairy-Stockfish is
// skipped where the engine is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "arbiter/lang/compile.hpp"
#include "fsf_helpers.hpp"
#include "helpers.hpp"
#include "registry/engines.hpp"

namespace fs = std::filesystem;

namespace {

using fsf_testing::fsf_for;
using fsf_testing::wasm_dir;

using fsf_testing::after;

// The sweep's position: White's pawn dropped on a4 mates Black's king a5 (the rook closes
// the b-file, the bishop d1 guards a4).
const std::string kMiniDrop = "k4/5/5/5/KR1B1[P] w - - 0 1";
// The same mate given by a pawn's move a3-a4.
const std::string kMiniPush = "k4/5/P4/5/KR1B1[] w - - 0 1";
// The mate already on the board: a position read from a text has no mating turn.
const std::string kMiniRootMate = "k4/5/5/P4/KR1B1[] b - - 0 1";
// Torishogi: the swallow dropped on a6 mates the king a7 (the right quail b1 rides the
// b-file, the crane a5 guards a6).
const std::string kToriDrop = "k6/7/C6/7/7/7/1R3K1[S] w - - 0 1";

}  // namespace

TEST(FsfEndRules, MateByAPawnDropIsTheMatedSidesWin) {
  for (const std::string name : {"minishogi", "mini"}) {
    arb::Status s = after(name, kMiniDrop, {"P@a4"});
    EXPECT_EQ(s.result, arb::Result::BlackWins) << name;
    EXPECT_EQ(s.end, arb::Termination::Checkmate) << name;
    EXPECT_EQ(s.reason, "checkmate-by-drop") << name;  // history: a text of it is a plain mate
    EXPECT_TRUE(s.in_check) << name;
    // The pawn's move gives the same mate: an ordinary one, White wins.
    s = after(name, kMiniPush, {"a3a4"});
    EXPECT_EQ(s.result, arb::Result::WhiteWins) << name;
    EXPECT_EQ(s.reason, "checkmate") << name;
    // Read from a text, the mate has no mating turn: an ordinary one.
    EXPECT_EQ(after(name, kMiniRootMate, {}).result, arb::Result::WhiteWins) << name;
  }
  const arb::Status s = after("torishogi", kToriDrop, {"S@a6"});
  EXPECT_EQ(s.result, arb::Result::BlackWins);
  EXPECT_EQ(s.reason, "checkmate-by-drop");
}

// The rule judges a mate; it forbids no drop: the mating drop stays among the actions.
TEST(FsfEndRules, TheMatingDropStaysLegal) {
  auto has = [](const std::string& name, const std::string& fen, const std::string& action) {
    auto e = testing_helpers::catalogue_at(name, fen);
    const auto all = testing_helpers::legal_texts(*e);
    return std::find(all.begin(), all.end(), action) != all.end();
  };
  EXPECT_TRUE(has("minishogi", kMiniDrop, "P@a4"));
  EXPECT_TRUE(has("torishogi", kToriDrop, "S@a6"));
}

// Fairy-Stockfish (Debian's 11.1 and the current npm build) gives the same verdicts.
TEST(FsfEndRules, PawnDropMatesAgreeWithFairyStockfish) {
  std::vector<std::string> engines;
  if (access("/usr/games/fairy-stockfish", X_OK) == 0) engines.push_back("/usr/games/fairy-stockfish");
  if (!std::getenv("ARBITER_FAST") && fsf_testing::have_wasm()) engines.push_back("wasm:" + wasm_dir());
  if (engines.empty()) GTEST_SKIP() << "no Fairy-Stockfish installed";
  for (const auto& engine : engines) {
    EXPECT_EQ(after("minishogi", kMiniDrop, {"P@a4"}, engine).result, arb::Result::BlackWins) << engine;
    EXPECT_EQ(after("minishogi", kMiniPush, {"a3a4"}, engine).result, arb::Result::WhiteWins) << engine;
    if (engine.rfind("wasm:", 0) == 0) {  // Debian's 11.1 has no torishogi
      EXPECT_EQ(after("torishogi", kToriDrop, {"S@a6"}, engine).result, arb::Result::BlackWins) << engine;
    }
  }
}

// ---- the rest of the shogi family (issue 26) ------------------------------------------------
// Fairy-Stockfish sets shogiPawnDropMateIllegal in minishogi_variant_base(), so shogi,
// checkshogi, euroshogi, gorogoro, judkins and okisakishogi score a pawn drop's mate as
// minishogi does; their rulesets state `checkmate-by P dropped -> win` too. One position each
// where the rule decides: a pawn dropped in front of a cornered king, the rest of its way
// out held by a rook or golds, the pawn guarded. `push` gives the same mate by the pawn's
// move, an ordinary mate. In checkshogi the mating drop is the first check, which wins
// first: the rule is stated there and does not decide.
struct FamilyMate {
  const char* name;
  const char* fen;
  const char* drop;
  const char* push_fen;  // nullptr: none (euroshogi's pawn promotes on its way there)
  const char* push;
  bool on_debian;  // Debian's Fairy-Stockfish 11.1 has the variant
};
const FamilyMate kFamily[] = {
    {"shogi", "k8/9/9/9/9/9/9/9/KR5B1[P] w - - 0 1", "P@a8", "k8/9/P8/9/9/9/9/9/KR5B1[] w - - 0 1", "a7a8",
     true},
    {"checkshogi", "k8/9/9/9/9/9/9/9/KR5B1[P] w - - 1+1 0 1", "P@a8", nullptr, nullptr, false},
    {"euroshogi", "k7/8/8/8/8/8/8/KR4B1[P] w - - 0 1", "P@a7", nullptr, nullptr, true},
    {"gorogoro", "k4/2G2/1G3/5/5/K4[P] w - - 0 1", "P@a5", "k4/2G2/PG3/5/5/K4[] w - - 0 1", "a4a5", true},
    {"judkins", "k5/6/6/6/6/KR2B1[P] w - - 0 1", "P@a5", "k5/6/P5/6/6/KR2B1[] w - - 0 1", "a4a5", true},
    {"okisakishogi", "k9/10/10/10/10/10/10/10/10/KR6B1[P] w - - 0 1", "P@a9",
     "k9/10/P9/10/10/10/10/10/10/KR6B1[] w - - 0 1", "a8a9", false},
};

// The compiled engine: the drop's mate is decided by the rule (Black, the mated side, wins,
// as Fairy-Stockfish answers in PawnDropMatesOfTheShogiFamilyAgreeWithFairyStockfish), the
// push's is an ordinary mate, and the drop stays legal (perft counts it).
TEST(FsfEndRules, PawnDropMatesOfTheShogiFamily) {
  for (const FamilyMate& m : kFamily) {
    auto e = testing_helpers::catalogue_at(m.name, m.fen);
    const auto all = testing_helpers::legal_texts(*e);
    EXPECT_NE(std::find(all.begin(), all.end(), m.drop), all.end()) << m.name;
    const arb::Status s = after(m.name, m.fen, {m.drop});
    EXPECT_TRUE(s.in_check) << m.name;
    if (std::string(m.name) == "checkshogi") {
      EXPECT_EQ(s.result, arb::Result::WhiteWins) << m.name;  // the first check wins first
      EXPECT_EQ(s.end, arb::Termination::ChecksGiven) << m.name;
    } else {
      EXPECT_EQ(s.result, arb::Result::BlackWins) << m.name;
      EXPECT_EQ(s.reason, "checkmate-by-drop") << m.name;
    }
    if (m.push_fen) {
      const arb::Status p = after(m.name, m.push_fen, {m.push});
      EXPECT_EQ(p.result, arb::Result::WhiteWins) << m.name;
      EXPECT_EQ(p.reason, "checkmate") << m.name;
    }
  }
}

// The same positions through Fairy-Stockfish: the compiled engine's result is the engine's
// (current Fairy-Stockfish when ARBITER_FSF_WASM_DIR or the build folder has it, Debian's
// 11.1 for the variants it has). Each engine is opened once per variant.
TEST(FsfEndRules, PawnDropMatesOfTheShogiFamilyAgreeWithFairyStockfish) {
  std::vector<std::string> engines;
  if (access(fsf_testing::kDebian, X_OK) == 0) engines.push_back(fsf_testing::kDebian);
  if (!std::getenv("ARBITER_FAST") && fsf_testing::have_wasm()) engines.push_back("wasm:" + wasm_dir());
  if (engines.empty()) GTEST_SKIP() << "no Fairy-Stockfish installed";
  int compared = 0;
  for (const auto& engine : engines) {
    const bool wasm = engine.rfind("wasm:", 0) == 0;
    for (const FamilyMate& m : kFamily) {
      if (!wasm && !m.on_debian) continue;
      auto fsf = fsf_for(m.name, engine);
      auto status_of = [&](const std::string& fen, const std::string& action) {
        fsf->set_position(testing_helpers::catalogue_at(m.name, fen)->position());
        fsf->apply(testing_helpers::find_action(*fsf, action));
        return fsf->status();
      };
      const arb::Status theirs = status_of(m.fen, m.drop);
      EXPECT_EQ(after(m.name, m.fen, {m.drop}).result, theirs.result) << m.name << " " << engine;
      EXPECT_NE(theirs.result, arb::Result::Ongoing) << m.name << " " << engine;
      if (m.push_fen) {
        const arb::Status p = status_of(m.push_fen, m.push);
        EXPECT_EQ(after(m.name, m.push_fen, {m.push}).result, p.result) << m.name << " " << engine;
        // The rule decides: the drop's mate and the push's differ.
        EXPECT_NE(theirs.result, p.result) << m.name << " " << engine;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
}

// `dropped` is a rule of the language: a designer's crazyhouse where a mate given by a
// dropped knight is a draw. Its errors are located.
TEST(FsfEndRules, CheckmateByDroppedIsTheDesignersRule) {
  const std::string crazyhouse = testing_helpers::source_path("rulesets/fsf/crazyhouse");
  const std::string knight_drop_draws = "ruleset r extends \"" + crazyhouse + R"("
end {
  checkmate-by N dropped -> draw
  checkmate -> loss
  stalemate -> draw
}
)";
  // Black's king h8 boxed in by its own pieces; N@f7 mates (smothered).
  const std::string fen = "6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1";
  auto e = testing_helpers::ruleset_at(knight_drop_draws, fen);
  e->apply(testing_helpers::find_action(*e, "N@f7"));
  arb::Status s = e->status();
  EXPECT_EQ(s.reason, "checkmate-by-drop");
  EXPECT_EQ(s.result, arb::Result::Draw);
  // The same smothered mate by a knight's move is a loss as before.
  e = testing_helpers::ruleset_at(knight_drop_draws, "6rk/6pp/8/6N1/8/8/8/K7[] w - - 0 1");
  e->apply(testing_helpers::find_action(*e, "g5f7"));
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);

  std::string err = testing_helpers::ruleset_errors("ruleset r extends \"" + crazyhouse + R"("
end {
  checkmate-by N only dropped -> draw
  checkmate -> loss
  stalemate -> draw
}
)");
  EXPECT_NE(err.find("r.rules:3:3"), std::string::npos) << err;
  EXPECT_NE(err.find("takes neither `only` nor `in-series`"), std::string::npos) << err;
  // The unbounded grid has no such rule: a located error, not a silent ordinary mate.
  err = testing_helpers::ruleset_errors(R"(ruleset r extends "chessme"
end {
  checkmate-by R dropped -> loss
  checkmate -> loss
  no-legal-move -> draw "chessme-draw"
  agreement -> draw
}
)");
  EXPECT_NE(err.find("r.rules:3:3"), std::string::npos) << err;
  EXPECT_NE(err.find("not executable yet by the unbounded-grid back end"), std::string::npos) << err;
}

// ---- minixiangqi: a confined royal piece outside its region (issue 26) ---------------------

// The sweep's mutated position: Black's king on e3, outside its palace (c5-e7). No game
// reaches it and Fairy-Stockfish lists no move there: the compiled engine refuses it, with
// the square, so the fuzzer's mutation is rejected instead of compared.
TEST(FsfConfined, RoyalPieceOutsideItsRegionIsRefused) {
  auto e = testing_helpers::catalogue_at("minixiangqi", "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1");
  EXPECT_FALSE(testing_helpers::legal_texts(*e).empty());
  std::string message;
  try {
    e->set_position("7/7/7/1c5/2Rck2/7/4K2 b - - 0 1");
  } catch (const arb::PositionError& x) {
    message = x.what();
  }
  EXPECT_NE(message.find("Black has its royal K on e3, outside the region it is confined to"),
            std::string::npos)
      << message;
  // The same kings inside their palaces load (White's c1-e3, Black's c5-e7).
  EXPECT_NO_THROW(e->set_position("3k3/7/7/1c5/2R4/7/4K2 b - - 0 1"));
  // White's king outside its palace is refused as well.
  message.clear();
  try {
    e->set_position("3k3/7/7/1c5/2R4/7/5K1 b - - 0 1");
  } catch (const arb::PositionError& x) {
    message = x.what();
  }
  EXPECT_NE(message.find("White has its royal K on f1"), std::string::npos) << message;
}

// The sweep's next minixiangqi divergence, shrunk from a mutated position: the kings face
// each other on the open e-file with Black to move, which White's last move cannot have
// left (`royals-not-facing`); Fairy-Stockfish plays on as if Black were in check. Refused.
TEST(FsfConfined, FacingRoyalsAreRefusedWhereTheyMayNotFace) {
  auto e = testing_helpers::catalogue_at("minixiangqi", "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1");
  std::string message;
  try {
    e->set_position("7/4k2/c4r1/7/7/7/4K2 b - - 0 1");
  } catch (const arb::PositionError& x) {
    message = x.what();
  }
  EXPECT_NE(message.find("the royal pieces face each other"), std::string::npos) << message;
  // A soldier between them (e3): the position loads.
  EXPECT_NO_THROW(e->set_position("7/4k2/c4r1/7/4P2/7/4K2 b - - 0 1"));
}
