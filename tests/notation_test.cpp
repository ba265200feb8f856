// Notation built on ActionInfo: every win reason reaches SAN, effects round-trip.
#include "arbiter/notation.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/action_index.hpp"
#include "helpers.hpp"
#include "reference.hpp"

TEST(Notation, OnlyCheckmateIsMarkedMate) {
  // Chess 2 (RULINGS 4.3): the king crossing the midline, not in check, wins; it is no
  // checkmate, so it carries no `#` (`#` claims checkmate, as PGN readers and the record
  // validator read it).
  auto e = arb::ref::make_reference_engine("chess2");
  e->set_position("4k3/8/8/8/4K3/8/8/8 w - - 0 1");
  auto a = arb::parse_action(*e, "Ke5");
  ASSERT_TRUE(a);
  EXPECT_EQ(arb::san(*e, *a), "Ke5");
  e->apply(*a);
  EXPECT_EQ(e->status().reason, "midline-invasion");
  EXPECT_EQ(e->status().result, arb::Result::WhiteWins);
  EXPECT_EQ(e->status().end, arb::Termination::RegionReached);
  e->undo();
  // A step that does not cross is no win.
  auto b = arb::parse_action(*e, "Kd4");
  ASSERT_TRUE(b);
  EXPECT_EQ(arb::san(*e, *b), "Kd4");
  // Chess: checkmate is `#`, check `+`.
  auto c = arb::ref::make_reference_engine("chess");
  c->set_position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  auto m = arb::parse_action(*c, "Qh4");
  ASSERT_TRUE(m);
  EXPECT_EQ(arb::san(*c, *m), "Qh4#");
}

TEST(Notation, RemovedPiecesAreListedAndStrikesRoundTrip) {
  // En passant lists the victim on its own square.
  auto c = arb::ref::make_reference_engine("chess");
  c->set_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  auto ep = arb::parse_action(*c, "exd6");
  ASSERT_TRUE(ep);
  auto info = c->describe(*ep);
  ASSERT_EQ(info.steps.size(), 1u);
  ASSERT_EQ(info.steps[0].removed.size(), 1u);
  EXPECT_EQ(info.steps[0].removed[0].piece, 'p');
  EXPECT_EQ(arb::square_name(info.steps[0].removed[0].at), "d5");
  // A tiger's strike (Chess 2, RULINGS 4.10): written `c1^a3`, read back, the tiger stays.
  auto t = arb::ref::make_reference_engine("chess2", {{"white-army", "animals"}});
  t->set_position("4k3/8/8/8/8/p7/8/2T1K3 w - - 0 1");
  std::vector<arb::Action> acts;
  t->legal_actions(acts);
  bool found = false;
  for (const auto& x : acts) {
    auto i = t->describe(x);
    if (i.steps.empty() || i.steps[0].kind != arb::StepKind::Remove || i.steps[0].to == i.steps[0].from)
      continue;
    found = true;
    std::string text = arb::uci(i);
    EXPECT_EQ(text, "c1^a3");
    auto back = arb::parse_action(*t, text);
    ASSERT_TRUE(back);
    EXPECT_EQ(arb::uci(t->describe(*back)), text);
    EXPECT_EQ(arb::san(*t, x), "T^a3");
    t->apply(x);
    EXPECT_NE(t->position().find("2T1K3"), std::string::npos) << t->position();
    t->undo();
  }
  EXPECT_TRUE(found);
}

// The property run's read-back looks canonical texts up in an index written once per node
// (arbiter/action_index.hpp); parse_action with it reads every text as the search through
// every action's text does: each legal action's UCI (the engine's form and the other
// castling form: in Chess960, king b1 and rook a1, `b1c1` is the king's move and `b1a1` the
// castling), its SAN, marks, and texts no action has, over a few plies of several games.
TEST(Notation, ATextIndexReadsEveryTextAsTheSearchDoes) {
  const std::pair<const char*, const char*> games[] = {
      {"chess", "start"},
      {"fischerandom", "4k3/8/8/8/8/8/8/RK6 w A - 0 1"},
      {"crazyhouse", "r3k2r/8/8/3pP3/8/8/8/R3K2R[QNp] w KQkq d6 0 1"},
      {"shogi", "start"},
      {"amazons", "start"},
  };
  std::mt19937 rng(7);
  for (const auto& [name, fen] : games) {
    if (testing_helpers::fast() && std::string(name) == "amazons") continue;  // the Release run covers it
    auto e = testing_helpers::catalogue_at(name, fen);
    for (int ply = 0; ply < 4; ++ply) {
      std::vector<arb::Action> legal;
      e->legal_actions(legal);
      if (legal.empty()) break;
      std::vector<arb::ActionInfo> infos;
      for (const auto& a : legal) infos.push_back(e->describe(a));
      const arb::ActionTextIndex index(*e, infos);
      const size_t step = legal.size() > 60 ? legal.size() / 30 : 1;  // amazons: some 2,000
      for (size_t i = 0; i < legal.size(); i += step) {
        const std::string u = arb::uci(infos[i], e->chess960());
        for (const std::string& t : {u, u + "+", arb::uci(infos[i], !e->chess960()),
                                     arb::san(*e, legal[i], infos), u + "x", std::string("zz9")}) {
          const auto plain = arb::parse_action(*e, t, legal, infos);
          const auto indexed = arb::parse_action(*e, t, legal, infos, index);
          ASSERT_EQ(plain.has_value(), indexed.has_value()) << name << " " << e->position() << " " << t;
          if (plain) {
            EXPECT_TRUE(*plain == *indexed) << name << " " << e->position() << " " << t;
          }
        }
        // the action's own canonical text reads as the action itself
        auto own = arb::parse_action(*e, u, legal, infos, index);
        ASSERT_TRUE(own) << name << " " << u;
        EXPECT_EQ(arb::uci(e->describe(*own), e->chess960()), u);
      }
      e->apply(legal[rng() % legal.size()]);
    }
  }
}
