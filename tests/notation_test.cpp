// Notation built on ActionInfo: every win reason reaches SAN, effects round-trip.
#include "arbiter/notation.hpp"

#include <gtest/gtest.h>

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
