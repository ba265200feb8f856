// Engine::brief (engine.hpp) agrees with describe() on every legal action: the record
// validator matches SAN against briefs and describes only the actions that match, so a brief
// that differed from the description would accept or refuse the wrong move. Checked over
// random games of every compiled ruleset (including a two-step king-turn ruleset) and of
// every reference engine (the default brief, built from describe()).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "helpers.hpp"

namespace {

namespace fs = std::filesystem;

// Plays `games` random games of at most `plies` plies and compares brief and describe on
// every legal action of every position met. Returns the number of actions compared.
uint64_t compare(arb::Engine& e, int games, int plies, uint32_t seed) {
  std::mt19937 rng(seed);
  const std::string start = e.position();
  uint64_t compared = 0;
  std::vector<arb::Action> acts;
  for (int g = 0; g < games; ++g) {
    e.set_position(start);
    for (int p = 0; p < plies; ++p) {
      e.legal_actions(acts);
      if (acts.empty()) break;
      for (const arb::Action& a : acts) {
        arb::ActionInfo info = e.describe(a);
        arb::StepBrief b = e.brief(a);
        EXPECT_EQ(b.steps, info.steps.size()) << e.position();
        if (info.steps.empty()) continue;
        const arb::Step& s = info.steps[0];
        const std::string where = e.position() + " " + arb::uci(info);
        EXPECT_EQ(b.kind, s.kind) << where;
        EXPECT_EQ(b.piece, s.piece) << where;
        EXPECT_EQ(b.from, s.from) << where;
        EXPECT_EQ(b.to, s.to) << where;
        EXPECT_EQ(b.promotion, s.promotion) << where;
        EXPECT_EQ(b.castle, s.castle) << where;
        if (s.castle != arb::Castle::None) {
          EXPECT_EQ(b.king_to, s.king_to) << where;
        }
        EXPECT_EQ(b.card, s.card) << where;
        EXPECT_EQ(b.capture, s.capture()) << where;
        if (::testing::Test::HasFailure()) return compared;
        ++compared;
      }
      // Captures first half of the time: games reach promotions, en passant and castling
      // out of a thinned board more often than uniform play does.
      size_t pick = rng() % acts.size();
      if (rng() % 2)
        for (size_t k = 0; k < acts.size(); ++k)
          if (e.brief(acts[(pick + k) % acts.size()]).capture) {
            pick = (pick + k) % acts.size();
            break;
          }
      e.apply(acts[pick]);
    }
  }
  return compared;
}

int games() {
  return testing_helpers::fast() ? 3 : 12;
}

TEST(Brief, CompiledEnginesAgreeWithDescribe) {
  for (const char* v : {"chess", "capablanca", "chessembly", "chessme"}) {
    SCOPED_TRACE(v);
    auto e = testing_helpers::compiled_engine(v);
    EXPECT_GT(compare(*e, games(), 120, 7), 1000u);
  }
}

TEST(Brief, TwoStepTurnsAgreeWithDescribe) {
  fs::path dir = fs::temp_directory_path() / ("arbiter-brief-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(testing_helpers::ruleset_path("chess"), dir / "chess.rules",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "kingturn.rules") << "ruleset kingturn extends chess\n"
                                           "turn {\n  action move\n  phase royal-move optional\n}\n";
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file((dir / "kingturn.rules").string(), {}, diags);
  fs::remove_all(dir);
  ASSERT_TRUE(c.program) << diags.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  EXPECT_GT(compare(*e, games() / 3 + 1, 40, 11), 1000u);
}

TEST(Brief, ReferenceEnginesAgreeWithDescribe) {
  for (const char* v : {"chess", "chessembly", "chessme", "nostress", "chess2"}) {
    SCOPED_TRACE(v);
    auto e = arb::ref::make_reference_engine(v);
    ASSERT_TRUE(e);
    e->set_position("start");
    EXPECT_GT(compare(*e, games() / 3 + 1, 60, 13), 100u);
  }
}

}  // namespace
