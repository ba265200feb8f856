// Notation as real-world records write it (engine/src/notation.cpp): parse_action reads
// promotions without `=`, `e.p.` suffixes, `0-0` with check marks and annotations; SAN
// disambiguates every step of a multi-step turn (Chess 2's king-turn with two warrior
// kings); and over random games of every variant, the SAN of every legal action reads back
// to that action and to no other.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "helpers.hpp"

namespace {

std::string canonical_of(arb::Engine& e, const std::optional<arb::Action>& a) {
  return a ? arb::uci(e.describe(*a), e.chess960()) : std::string("(none)");
}

TEST(NotationForms, PromotionWithoutEqualsSign) {
  auto e = testing_helpers::reference_at("chess", "8/4P2k/8/8/8/8/8/4K3 w - - 0 1");
  for (const char* t : {"e8Q", "e8=Q", "e8=Q+", "e8Q+", "e8Q!", "e8Q+!?", "e7e8q", "e7e8Q"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(canonical_of(*e, arb::parse_action(*e, t)), "e7e8q");
  }
  EXPECT_EQ(canonical_of(*e, arb::parse_action(*e, "e8N")), "e7e8n");
  // A missing promotion piece is no action; neither is a promotion to a king.
  EXPECT_FALSE(arb::parse_action(*e, "e8"));
  EXPECT_FALSE(arb::parse_action(*e, "e8K"));
  EXPECT_FALSE(arb::parse_action(*e, "e8=K"));
}

TEST(NotationForms, EnPassantSuffix) {
  auto e = testing_helpers::reference_at("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  for (const char* t :
       {"exd6", "exd6 e.p.", "exd6e.p.", "exd6 ep", "exd6ep", "exd6 e.p.+", "ed6", "e5d6", "exd6 e.p.!"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(canonical_of(*e, arb::parse_action(*e, t)), "e5d6");
  }
  // `e.p.` on a move that is no en-passant capture is refused.
  EXPECT_FALSE(arb::parse_action(*e, "Kd2 e.p."));
  EXPECT_FALSE(arb::parse_action(*e, "e6 e.p."));
}

TEST(NotationForms, CastlingWithMarksAndAnnotations) {
  auto e = testing_helpers::reference_at("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  for (const char* t : {"O-O", "0-0", "O-O+", "0-0+", "O-O!", "0-0!?", "O-O+!", "e1g1", "e1h1"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(canonical_of(*e, arb::parse_action(*e, t)), "e1g1");
  }
  for (const char* t : {"O-O-O", "0-0-0", "O-O-O#", "0-0-0+", "O-O-O?!", "0-0-0#!", "e1c1", "e1a1"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(canonical_of(*e, arb::parse_action(*e, t)), "e1c1");
  }
  EXPECT_FALSE(arb::parse_action(*e, "O-O-O-O"));
  EXPECT_FALSE(arb::parse_action(*e, "0-"));
}

TEST(NotationForms, AnnotationsAndCheckMarks) {
  auto e = testing_helpers::reference_at("chess", testing_helpers::kChessStart);
  for (const char* t : {"e4", "e4!?", "e4?!", "e4!!", "e4??", "e4!", "e4?", "e4+", "e4 !?", "e2-e4", "Pe4"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(canonical_of(*e, arb::parse_action(*e, t)), "e2e4");
  }
  for (const char* t : {"Nf3", "Ngf3", "Ng1f3", "Ng1-f3", "Nf3!?", "N1f3"}) {
    SCOPED_TRACE(t);
    EXPECT_EQ(canonical_of(*e, arb::parse_action(*e, t)), "g1f3");
  }
  for (const char* t : {"", "!?", "+", "e5", "Nf4", "e4e5", "Ke2", "Nhf3", "e4 e5"}) {
    SCOPED_TRACE(t);
    EXPECT_FALSE(arb::parse_action(*e, t));
  }
}

TEST(NotationForms, KingTurnOfTwoWarriorKingsIsDisambiguated) {
  // Chess 2, two-kings army (warrior kings on d1 and e1): after e4 both kings can step to
  // e2, so the king-turn names its king's file.
  auto e = arb::ref::make_reference_engine("chess2", {{"white-army", "two-kings"}});
  ASSERT_TRUE(e);
  e->set_position("start");
  std::vector<arb::Action> acts;
  e->legal_actions(acts);
  std::set<std::string> sans;
  int ambiguous_second = 0;
  for (const arb::Action& a : acts) {
    std::string s = arb::san(*e, a);
    EXPECT_TRUE(sans.insert(s).second) << "two actions written " << s;
    auto back = arb::parse_action(*e, s);
    ASSERT_TRUE(back) << s;
    EXPECT_EQ(arb::uci(e->describe(*back)), arb::uci(e->describe(a))) << s;
    if (s.find(",W") != std::string::npos && s.size() > 3 && s[s.find(",W") + 2] >= 'a' &&
        s[s.find(",W") + 2] <= 'h' && s[s.find(",W") + 3] >= 'a')
      ++ambiguous_second;
  }
  EXPECT_TRUE(sans.count("e4,Wde2")) << "the d1 king's step to e2 after e4";
  EXPECT_TRUE(sans.count("e4,Wee2")) << "the e1 king's step to e2 after e4";
  EXPECT_FALSE(sans.count("e4,We2"));
  EXPECT_GT(ambiguous_second, 0);
  EXPECT_FALSE(arb::parse_action(*e, "e4,We2")) << "ambiguous";
}

// Over random games, the SAN (and canonical text) of legal actions reads back to that
// action alone.
void round_trip(arb::Engine& e, int games, int plies, uint32_t seed) {
  std::mt19937 rng(seed);
  const std::string start = e.position();
  std::vector<arb::Action> acts;
  int checked = 0;
  for (int g = 0; g < games; ++g) {
    e.set_position(start);
    for (int p = 0; p < plies; ++p) {
      e.legal_actions(acts);
      if (acts.empty() || e.chance()) break;
      // A sample of the actions (SAN and parse_action each describe every legal action:
      // all of them would cost the square of the count).
      for (int k = 0; k < 6; ++k) {
        const arb::Action& a = acts[rng() % acts.size()];
        std::string want = arb::uci(e.describe(a), e.chess960());
        std::string s = arb::san(e, a);
        EXPECT_EQ(canonical_of(e, arb::parse_action(e, s)), want) << e.position() << " SAN " << s;
        EXPECT_EQ(canonical_of(e, arb::parse_action(e, want)), want) << e.position();
        if (::testing::Test::HasFailure()) return;
        ++checked;
      }
      e.apply(acts[rng() % acts.size()]);
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(NotationForms, SanReadsBackInEveryVariant) {
  const int games = testing_helpers::fast() ? 1 : 3;
  for (const char* v : {"chess", "capablanca", "chessembly", "chessme"}) {
    SCOPED_TRACE(v);
    auto e = testing_helpers::compiled_engine(v);
    round_trip(*e, games, 40, 3);
  }
  for (auto [v, opts] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
           {"chess2", {{"white-army", "two-kings"}, {"black-army", "two-kings"}}},
           {"chess2", {{"white-army", "animals"}, {"black-army", "reaper"}}},
           {"nostress", {}}}) {
    SCOPED_TRACE(v);
    auto e = arb::ref::make_reference_engine(v, opts);
    e->set_position("start");
    round_trip(*e, games, 30, 5);
  }
}

}  // namespace
