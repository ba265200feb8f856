// The card layer of the compiled generator (rulesets/nostress.rules: lang/src/card_*.cpp
// over the bitboard generator): perft and random games against the reference engine from
// the start of every level for several seeds, the `when` statement that states the levels,
// the card layer's compile errors, its mutants, expectimax over merged chance outcomes and
// designers' decks. The rulings themselves, for both engines, are the conformance suite
// (tests/conformance_nostress_test.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter/lang/compile.hpp"
#include "arbiter/nostress_text.hpp"
#include "arbiter/notation.hpp"
#include "fuzz/fuzz.hpp"
#include "helpers.hpp"
#include "mutate/run_mutants.hpp"
#include "process.hpp"
#include "reference.hpp"
#include "registry/variants.hpp"

namespace {

using arb::Action;
using arb::Engine;

// The ruleset compiled once per level (--set level=L).
std::shared_ptr<const arb::lang::Program> program(const std::string& level,
                                                  const std::string& pawns = "true") {
  static std::map<std::string, std::shared_ptr<const arb::lang::Program>> cache;
  const std::string key = level + "/" + pawns;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(testing_helpers::ruleset_path("nostress"),
                                                  {{"level", level}, {"setup-advanced-pawns", pawns}}, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  if (!c.program) throw std::runtime_error("nostress does not compile at level " + level);
  return cache[key] = c.program;
}

std::unique_ptr<Engine> engine(const std::string& level, const std::string& seed = "1") {
  auto e = arb::lang::make_compiled_engine(program(level));
  e->set_position("start:" + seed);
  return e;
}

#include "nostress_helpers.inc"

// ---------------------------------------------------------------------------------------
// Against the reference engine.

std::unique_ptr<Engine> reference(const std::string& level, const std::string& seed = "1",
                                  const std::string& pawns = "true") {
  return arb::ref::make_nostress_engine({{"level", level}, {"seed", seed}, {"setup-advanced-pawns", pawns}});
}

TEST(CompiledNoStressDiff, PerftFromTheStartAgreesAtEveryLevel) {
  // Depth 3 from the start, seeds 1-4 (1-2 under ARBITER_FAST), both setups.
  const int seeds = testing_helpers::fast() ? 2 : 4;
  for (const char* level : {"1", "2", "3", "advanced"})
    for (const char* pawns : {"true", "false"})
      for (int s = 1; s <= seeds; ++s) {
        auto c = arb::lang::make_compiled_engine(program(level, pawns));
        c->set_position("start:" + std::to_string(s));
        auto r = reference(level, std::to_string(s), pawns);
        ASSERT_EQ(c->position(), r->position()) << level << " " << pawns << " " << s;
        for (int d = 1; d <= 3; ++d)
          EXPECT_EQ(c->perft(d), r->perft(d))
              << "level " << level << " pawns " << pawns << " seed " << s << " depth " << d;
      }
}

TEST(CompiledNoStressDiff, ActionsAndPerftAgreeAlongRandomGames) {
  // Random games with the deck order known (chance outcomes drawn by weight where the
  // cards are open): at every position the same texts, chance flags, hidden parts,
  // action lists, statuses and depth-2 counts where the draws are fixed.
  const int games = testing_helpers::fast() ? 2 : 6;
  int compared = 0;
  for (const char* level : {"1", "2", "3", "advanced"})
    for (int g = 0; g < games; ++g) {
      auto c = engine(level, std::to_string(g + 1));
      auto r = reference(level, std::to_string(g + 1));
      std::mt19937_64 rng(static_cast<uint64_t>(g) * 977 + 5);
      for (int ply = 0; ply < 160; ++ply) {
        const std::string pos = c->position();
        ASSERT_EQ(pos, r->position()) << level << " ply " << ply;
        ASSERT_EQ(c->chance(), r->chance()) << pos;
        ASSERT_EQ(c->hidden(), r->hidden()) << pos;
        arb::Status sc = c->status(), sr = r->status();
        ASSERT_EQ(sc.result, sr.result) << pos;
        ASSERT_EQ(sc.reason, sr.reason) << pos;
        ASSERT_EQ(sc.in_check, sr.in_check) << pos;
        ASSERT_EQ(sc.claim_fifty, sr.claim_fifty) << pos;
        ASSERT_EQ(sc.claim_threefold, sr.claim_threefold) << pos;
        ASSERT_EQ(legal(*c), legal(*r)) << pos;
        if (!c->chance() && ply % 8 == 0) {
          ASSERT_EQ(c->perft(2), r->perft(2)) << pos;
        }
        ++compared;
        std::vector<Action> actions;
        c->legal_actions(actions);
        if (actions.empty()) break;
        Action pick = actions[rng() % actions.size()];
        if (c->chance()) {
          std::vector<arb::ChanceOutcome> oc, orf;
          c->chance_outcomes(oc);
          r->chance_outcomes(orf);
          ASSERT_EQ(oc.size(), orf.size()) << pos;
          for (size_t i = 0; i < oc.size(); ++i) {
            EXPECT_DOUBLE_EQ(oc[i].weight, orf[i].weight) << pos;
            EXPECT_EQ(canonical(*c, oc[i].action), canonical(*r, orf[i].action)) << pos;
          }
        }
        const std::string t = canonical(*c, pick);
        c->apply(pick);
        play(*r, t);
      }
      // Every third game goes on from the same position with the pile's order hidden.
      if (g % 3 == 0) {
        arb::NoStressPosition p = arb::parse_nostress(c->position());
        if (p.pending == 0 && p.pile.known.size() > 0) {
          p.pile.unknown += static_cast<int>(p.pile.known.size());
          p.pile.known.clear();
          const std::string t = arb::format_nostress(p);
          c->set_position(t);
          r->set_position(t);
          EXPECT_EQ(c->chance(), r->chance()) << t;
          EXPECT_EQ(legal(*c), legal(*r)) << t;
        }
      }
    }
  EXPECT_GT(compared, 100);
}

TEST(CompiledNoStressDiff, ConfigNamesTheLevel) {
  auto e = engine("2");
  EXPECT_EQ(e->name(), "compiled:nostress");
  EXPECT_EQ(e->config().value("level"), "2");
  EXPECT_EQ(e->config().value("setup-advanced-pawns"), "true");
  // A text of another level is refused with the field's column.
  const std::string l3 =
      arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Three, true, 1));
  try {
    e->set_position(l3);
    ADD_FAILURE() << "accepted a level-3 text";
  } catch (const arb::PositionError& err) {
    EXPECT_EQ(err.column, l3.find("level:"));
  }
  EXPECT_THROW(e->set_position("start:x"), arb::PositionError);
  // The plain chess setup as an option.
  auto plain = arb::lang::make_compiled_engine(program("advanced", "false"));
  EXPECT_EQ(plain->position(),
            arb::format_nostress(arb::nostress_start_position(arb::NoStressLevel::Advanced, false, 1)));
}

// ---------------------------------------------------------------------------------------
// The `when` statement and the card layer's compile errors.

struct Built {
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c;
};

// Compiles `text` written beside the bundled rulesets (so that `extends` finds them).
// A directory of this process's own: ctest runs the tests of this file as parallel
// processes, which overwrote each other's files in one shared directory (a flaky failure).
std::unique_ptr<Built> build(const std::string& text, const std::map<std::string, std::string>& sets = {}) {
  auto b = std::make_unique<Built>();
  const std::string dir = ::testing::TempDir() + "/nostress_when_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/nostress_when_test.rules";
  {
    std::ofstream out(path);
    out << text;
  }
  // The parent is looked up beside the file: copy the two rulesets there.
  for (const char* v : {"chess", "nostress"}) {
    std::ofstream out(dir + "/" + v + ".rules");
    out << testing_helpers::read_text(testing_helpers::ruleset_path(v));
  }
  b->c = arb::lang::compile_file(path, sets, b->diags);
  return b;
}

bool has_error(const arb::lang::Diagnostics& d, int line, int col, const std::string& part) {
  for (const auto& x : d.all())
    if (x.severity == arb::lang::Severity::Error && x.loc.line == line && x.loc.col == col &&
        x.message.find(part) != std::string::npos)
      return true;
  return false;
}

TEST(CompiledNoStressWhen, SelectsStatementsByOptionValue) {
  const std::string text =
      "ruleset t extends chess\n"
      "option kings = near one-of near far\n"
      "when kings = far {\n"
      "  setup \"k7/8/8/8/8/8/8/7K w - - 0 1\"\n"
      "}\n"
      "when kings != far {\n"
      "  setup \"8/8/8/8/8/8/8/k6K w - - 0 1\"\n"
      "}\n";
  auto near = build(text);
  ASSERT_NE(near->c.program, nullptr) << near->diags.render();
  EXPECT_EQ(near->c.program->start_text, "8/8/8/8/8/8/8/k6K w - - 0 1");
  auto far = build(text, {{"kings", "far"}});
  ASSERT_NE(far->c.program, nullptr) << far->diags.render();
  EXPECT_EQ(far->c.program->start_text, "k7/8/8/8/8/8/8/7K w - - 0 1");
}

TEST(CompiledNoStressWhen, ErrorsAreLocated) {
  // Unknown option, a value the option cannot take, a missing block, a bad operator.
  auto b = build(
      "ruleset t extends chess\n"
      "option kings = near one-of near far\n"
      "when king = far {\n"
      "}\n"
      "when kings = farr {\n"
      "}\n"
      "when kings = far\n"
      "when kings -> far {\n"
      "}\n");
  EXPECT_EQ(b->c.program, nullptr);
  EXPECT_TRUE(has_error(b->diags, 3, 6, "unknown option `king`")) << b->diags.render();
  EXPECT_TRUE(has_error(b->diags, 5, 14, "takes one of near, far")) << b->diags.render();
  EXPECT_TRUE(has_error(b->diags, 7, 1, "needs a `{ ... }` block")) << b->diags.render();
  EXPECT_TRUE(has_error(b->diags, 8, 15, "`when` takes")) << b->diags.render();
  // An option may not be declared inside a `when` block.
  auto o = build("ruleset t extends chess\nwhen repetition = 3 {\n  option x = 1\n}\n");
  EXPECT_TRUE(has_error(o->diags, 3, 3, "cannot stand in a `when` block")) << o->diags.render();
}

TEST(CompiledNoStressWhen, NestsInEveryBlock) {
  // `when` inside a piece, inside `end`, and inside another `when`: the statements are read
  // in the block they stand in.
  const std::string text =
      "ruleset t extends chess\n"
      "option knight = leaper one-of leaper wazir\n"
      "option bare = draw one-of draw play\n"
      "piece knight N {\n"
      "  when knight = leaper { betza \"N\" }\n"
      "  when knight = wazir {\n"
      "    when bare = draw { betza \"NW\" }\n"
      "    when bare != draw { betza \"N\" }\n"
      "  }\n"
      "}\n"
      "end {\n"
      "  checkmate -> loss\n"
      "  stalemate -> draw\n"
      "  when bare = draw { insufficient-material -> draw }\n"
      "}\n";
  // A lone knight on a1: 2 moves as a leaper (b3 c2), 4 with the wazir's (a2 b1).
  auto moves_of_a1 = [&](const std::map<std::string, std::string>& sets) {
    auto b = build(text, sets);
    EXPECT_NE(b->c.program, nullptr) << b->diags.render();
    if (!b->c.program) return -1;
    auto e = arb::lang::make_compiled_engine(b->c.program);
    e->set_position("k7/8/8/8/8/8/8/N6K w - - 0 1");
    std::vector<arb::Action> acts;
    e->legal_actions(acts);
    int n = 0;
    for (const auto& a : acts) n += arb::uci(e->describe(a), true).rfind("a1", 0) == 0;
    return n;
  };
  EXPECT_EQ(moves_of_a1({}), 2);
  EXPECT_EQ(moves_of_a1({{"knight", "wazir"}}), 4);
  EXPECT_EQ(moves_of_a1({{"knight", "wazir"}, {"bare", "play"}}), 2);
  // Bare kings: a draw, or a game that goes on where the option says so.
  for (const auto& [value, result] : {std::pair<std::string, arb::Result>{"draw", arb::Result::Draw},
                                      std::pair<std::string, arb::Result>{"play", arb::Result::Ongoing}}) {
    auto b = build(text, {{"bare", value}});
    ASSERT_NE(b->c.program, nullptr) << b->diags.render();
    auto e = arb::lang::make_compiled_engine(b->c.program);
    e->set_position("k7/8/8/8/8/8/8/7K w - - 0 1");
    EXPECT_EQ(e->status().result, result) << value;
  }
  // A nested `when` is checked as a top-level one is.
  auto bad = build("ruleset t extends chess\nend {\n  when mates = loss { checkmate -> loss }\n}\n");
  EXPECT_EQ(bad->c.program, nullptr);
  EXPECT_TRUE(has_error(bad->diags, 3, 8, "unknown option `mates`")) << bad->diags.render();
}

TEST(CompiledNoStressCompile, CardRulesThatTheLayerCannotRunAreErrors) {
  // Hands the layer cannot hold: more than 8 cards, more than the deck can deal.
  auto h = build("ruleset t extends nostress\nhand size 9 keep-order\n");
  EXPECT_EQ(h->c.program, nullptr);
  EXPECT_TRUE(has_error(h->diags, 2, 1, "hands of 0..8 cards, not 9")) << h->diags.render();
  auto small = build("ruleset t extends nostress\ndeck shared {\n  card pawn P*6\n  card king K*4\n}\n");
  EXPECT_EQ(small->c.program, nullptr);
  EXPECT_TRUE(has_error(small->diags, 37, 1, "the deck of 10 cards cannot deal two hands of 5"))
      << small->diags.render();
  // Hands that do not keep their order.
  auto k = build("ruleset t extends nostress\nhand size 5\n");
  EXPECT_TRUE(has_error(k->diags, 2, 1, "keep-order")) << k->diags.render();
  // Card kinds: a letter of no piece, a piece the text cannot write, a card named after
  // another piece, a count out of bounds, a kind twice, a deck beyond the layer's arrays.
  auto x = build("ruleset t extends nostress\ndeck shared {\n  card pawn X*30\n  card queen Q*30\n}\n");
  EXPECT_TRUE(has_error(x->diags, 3, 13, "card letter `X` names no piece")) << x->diags.render();
  auto c = build(
      "ruleset t extends nostress\npiece wazir W {\n  betza \"W\"\n}\ndeck shared {\n  card wazir W*30\n  "
      "card pawn P*30\n}\n");
  EXPECT_TRUE(has_error(c->diags, 6, 14, "the position text holds the cards P N B R Q K and Again"))
      << c->diags.render();
  auto n = build("ruleset t extends nostress\ndeck shared {\n  card knight P*30\n}\n");
  EXPECT_TRUE(has_error(n->diags, 3, 15, "card `knight` moves the piece `pawn`")) << n->diags.render();
  auto zero = build("ruleset t extends nostress\ndeck shared {\n  card pawn P*0\n}\n");
  EXPECT_TRUE(has_error(zero->diags, 3, 15, "a card count must be 1..99, found 0")) << zero->diags.render();
  auto twice = build("ruleset t extends nostress\ndeck shared {\n  card pawn P*30\n  card pawn P*3\n}\n");
  EXPECT_TRUE(has_error(twice->diags, 4, 13, "listed twice")) << twice->diags.render();
  auto big = build("ruleset t extends nostress\ndeck shared {\n  card pawn P*99\n  card knight N*30\n}\n");
  EXPECT_TRUE(has_error(big->diags, 2, 1, "the card layer holds at most 128")) << big->diags.render();
  // `again` without Again cards, Again cards without `again`.
  auto a = build("ruleset t extends nostress\ndeck shared {\n  card pawn P*30\n  again own-pile\n}\n");
  EXPECT_TRUE(has_error(a->diags, 4, 3, "the deck has no Again cards")) << a->diags.render();
  auto a2 = build("ruleset t extends nostress\ndeck shared {\n  card again Again*30\n  card pawn P*30\n}\n");
  EXPECT_TRUE(has_error(a2->diags, 2, 1, "Again cards need `again own-pile`")) << a2->diags.render();
  // No redraw phase, but the ruleset says when to redraw.
  auto r = build(
      "ruleset t extends nostress\nturn {\n  phase draw-card mandatory\n  phase play-card mandatory\n}\n");
  EXPECT_EQ(r->c.program, nullptr);
  bool redraw_error = false;
  for (const auto& e : r->diags.all())
    redraw_error =
        redraw_error || e.message.find("`redraw-when` needs `phase redraw optional`") != std::string::npos;
  EXPECT_TRUE(redraw_error) << r->diags.render();
  // Hands without a deck are refused on the bitboard back end, not ignored.
  auto nd = build("ruleset t extends chess\nhand size 3\n");
  EXPECT_TRUE(has_error(nd->diags, 2, 1, "needs a `deck`")) << nd->diags.render();
  // Castling makes the text the advanced game's, whose pawns promote: a level-3 pawn that
  // stays on the last rank cannot be written there.
  auto cs = build("ruleset t extends nostress\nwhen level = 3 {\n  castling {\n    rook R\n  }\n}\n");
  EXPECT_EQ(cs->c.program, nullptr) << cs->diags.render();
  bool promote_error = false;
  for (const auto& e : cs->diags.all())
    promote_error = promote_error || e.message.find("give the pawn `promote") != std::string::npos;
  EXPECT_TRUE(promote_error) << cs->diags.render();
}

// ---------------------------------------------------------------------------------------
// The mutation suite (checker/mutate): every single-point mutant of the ruleset, at every
// level, against the reference engine. The card rules the ruleset states (Again's two
// piles, the redraw's two conditions, the escape duty, the hand size and the deck's counts,
// which the card layer runs as stated while the level's reference keeps No Stress Chess's)
// are killed, or refused where the layer cannot hold them; nothing survives.

TEST(CompiledNoStressMutants, EveryCardRuleMutantIsKilledOrRefused) {
  if (testing_helpers::fast())
    GTEST_SKIP() << "a full mutate run under the sanitizers: the Release run covers it";
  const std::string path = testing_helpers::ruleset_path("nostress");
  const std::string text = testing_helpers::read_text(path);
  std::map<std::string, std::set<std::string>> verdicts;  // "line:col mutation" -> verdicts
  // Levels 2 and advanced hold every card rule (`arbiter mutate --against reference` finds
  // no survivor at levels 1 and 3 either; README).
  for (const char* level : {"2", "advanced"}) {
    arb::mutate::MutateOptions o;
    o.jobs = 2;
    o.overrides = {{"level", level}};
    o.fuzz.games = 60;
    o.fuzz.seed = 11;
    o.oracle = [level] { return arb::ref::make_nostress_engine({{"level", level}}); };
    o.oracle_name = "reference:nostress";
    auto rep = arb::mutate::run_mutants(path, o);
    EXPECT_EQ(rep.survived, 0u) << "level " << level;
    for (const auto& r : rep.results) {
      EXPECT_NE(r.verdict, "survived") << "level " << level << ": " << r.mutant.describe() << ": " << r.how;
      verdicts[std::to_string(r.mutant.line) + ":" + r.mutant.describe()].insert(r.verdict);
    }
  }
  // The line of a statement in the ruleset (1-based), found by its text.
  auto line_of = [&text](const std::string& what) {
    size_t at = text.find(what);
    EXPECT_NE(at, std::string::npos) << what;
    return std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  };
  const std::string again = line_of("again own-pile opponent-pile"), redraw = line_of("redraw-when alike"),
                    duty = line_of("escape-duty  #");
  for (const auto& [key, want] : std::vector<std::pair<std::string, std::string>>{
           {again + ":remove ` own-pile`", "killed"},           // Again looks only at the opponent's pile
           {again + ":remove ` opponent-pile`", "killed"},      // Again looks only at the own pile
           {redraw + ":`3` -> `4`", "killed"},                  // four alike needed to redraw
           {redraw + ":`3` -> `2`", "killed"},                  // two alike suffice
           {redraw + ":remove ` no-move`", "killed"},           // no redraw when no card allows a move
           {duty + ":drop `escape-duty`", "killed"},            // in check, any card may be played
           {line_of("hand size 5") + ":`5` -> `4`", "killed"},  // a hand of 4 runs; the reference holds 5
       }) {
    ASSERT_TRUE(verdicts.count(key)) << "no mutant " << key;
    EXPECT_TRUE(verdicts[key].count(want)) << key << " was never " << want;
  }
}

// ---------------------------------------------------------------------------------------
// The differential checker (checker/fuzz) at every level: random games with mutated
// positions (card zones too: hidden or emptied piles, three alike, hidden hands).

TEST(CompiledNoStressFuzz, EveryLevelRunsCleanAgainstTheReference) {
  for (const char* level : {"1", "2", "3", "advanced"}) {
    auto p = program(level);
    arb::fuzz::EngineFactory left = [p] { return arb::lang::make_compiled_engine(p); };
    arb::fuzz::EngineFactory right = [level] { return arb::ref::make_nostress_engine({{"level", level}}); };
    arb::fuzz::Options o;
    o.games = testing_helpers::fast() ? 8 : 40;
    o.seed = 5;
    o.mutate_percent = 15;
    arb::fuzz::Report r = arb::fuzz::run(left, right, left()->position(), o);
    EXPECT_FALSE(r.divergence) << "level " << level << ": " << arb::fuzz::to_json(*r.divergence);
    EXPECT_GT(r.positions, o.games * 10) << level;
    EXPECT_GT(r.mutations, 0u) << level;
  }
}

TEST(CompiledNoStressCompile, CardConstructsAreCheckedWhereTheyStand) {
  // `redraw-when` with neither condition; `escape-duty` without check.
  auto r = build("ruleset t extends nostress\nredraw-when\n");
  EXPECT_TRUE(has_error(r->diags, 2, 1, "needs `alike N`, `no-move` or both")) << r->diags.render();
  auto e = build("ruleset t extends nostress\nlegal {\n  escape-duty\n}\n");
  EXPECT_TRUE(has_error(e->diags, 3, 3, "needs `royal-safe`")) << e->diags.render();
  // A typed argument out of range, at its place.
  auto a = build("ruleset t extends nostress\nredraw-when alike 1\n");
  EXPECT_TRUE(has_error(a->diags, 2, 19, "between 2 and 64")) << a->diags.render();
  // Again cards that name nothing would be ignored: refused.
  auto g = build(
      "ruleset t extends nostress\ndeck shared {\n  card pawn P*11\n  card knight N*8\n  card bishop B*8\n"
      "  card rook R*8\n  card queen Q*8\n  card king K*7\n  card again Again*6\n}\n");
  EXPECT_TRUE(has_error(g->diags, 2, 1, "Again cards need")) << g->diags.render();
}

// ---------------------------------------------------------------------------------------
// Merged chance (ChanceControl::set_merged_chance, nostress_text.hpp "Merged chance"): draws made
// as one multiset node and open hand orders give the same expectimax values as the
// one-card-at-a-time engine.

// White has redrawn at level 2 and draws 3 cards from an unknown pile of 6 (R R K A P N);
// every other card is known (Black's hand, both discard piles), no reshuffle seed.
std::string merged_case() {
  std::string pool = "RRKAPN", bhand = "KAQ", rest;
  std::array<int, 7> n = arb::kNoStressDeckCounts;
  for (char c : pool + bhand) --n[arb::nostress_card_index(c)];
  for (int k = 0; k < 7; ++k) rest.append(n[k], arb::kNoStressCardKinds[k]);
  std::shuffle(rest.begin(), rest.end(), std::mt19937(7));
  return "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 level:2 pile:?6 wdiscard:" + rest.substr(0, 23) +
         " bdiscard:" + rest.substr(23) + " whand:- bhand:" + bhand + " pending:3";
}

// A value of the board and both discard piles (the parts both engines write alike at a
// node where a player acts), spread over [0, 1): any difference in the distribution of
// boards or discard orders (which the open hand orders decide) changes the expectimax.
double leaf(const Engine& e) {
  std::istringstream in(e.position());
  std::string f, key;
  for (int i = 0; in >> f; ++i)
    if (i < 2 || f.rfind("wdiscard:", 0) == 0 || f.rfind("bdiscard:", 0) == 0) key += f + " ";
  return static_cast<double>(std::hash<std::string>{}(key) % 1000003) / 1000003.0;
}

// Expectimax over `plies` actions (chance nodes expand without using one): White maximises.
double expectimax(Engine& e, int plies) {
  if (e.chance()) {
    std::vector<arb::ChanceOutcome> outs;
    e.chance_outcomes(outs);
    double p = 0;
    for (const auto& o : outs) {
      e.apply(o.action);
      p += o.weight * expectimax(e, plies);
      e.undo();
    }
    return p;
  }
  arb::Status st = e.status();
  if (st.result != arb::Result::Ongoing) return st.result == arb::Result::WhiteWins ? 1 : 0;
  if (plies == 0) return leaf(e);
  std::vector<Action> ms;
  e.legal_actions(ms);
  const bool white = e.side_to_move() == arb::Color::White;
  double best = white ? -1 : 2;
  for (const Action& a : ms) {
    e.apply(a);
    double v = expectimax(e, plies - 1);
    e.undo();
    best = white ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

TEST(CompiledNoStressMerged, ExpectimaxEqualsTheOneCardEngine) {
  // Four plies: White's open hand of 3, Black, White (a played card leaves the others'
  // order non-uniform), Black, ... and redraws that discard open hands in a drawn order.
  const int plies = std::getenv("ARBITER_FAST") ? 1 : 2;
  auto one = arb::lang::make_compiled_engine(program("2"));
  one->set_position(merged_case());
  auto merged = one->clone();
  merged->chance_control()->set_merged_chance(true);
  const double a = expectimax(*one, plies), b = expectimax(*merged, plies);
  EXPECT_NEAR(a, b, 1e-12);
  EXPECT_GT(a, 0);
}

TEST(CompiledNoStressMerged, OpenOrdersAfterPlayedCardsMatchTheOneCardEngine) {
  // White's next hand: Q and K known on the pile under a redraw of 3 from a pool whose
  // copies repeat, so an open hand loses a first copy before it is redrawn. Compared over
  // the same positions reached in both engines: the values of every Black reply.
  auto one = arb::lang::make_compiled_engine(program("2"));
  one->set_position(merged_case());
  auto merged = one->clone();
  merged->chance_control()->set_merged_chance(true);
  // Draw the open hand, then compare from each outcome of the merged node against the
  // weighted one-card draws: one ply deeper than the test above.
  std::vector<arb::ChanceOutcome> outs;
  merged->chance_outcomes(outs);
  ASSERT_GT(outs.size(), 1u);
  double total = 0;
  for (const auto& o : outs) total += o.weight;
  EXPECT_NEAR(total, 1.0, 1e-12);
  // Three plies (Black, White with a played open copy or a redraw of the open hand, Black)
  // take 13 s in Release: run on request (ARBITER_DEEP=1); two plies otherwise.
  const int plies = std::getenv("ARBITER_DEEP") ? 3 : 2;
  EXPECT_NEAR(expectimax(*one, plies), expectimax(*merged, plies), 1e-12);
}

// The sequential one-card draws from the engine's node until `n` cards are drawn, summed
// by multiset (sorted letters).
void sequential(Engine& e, int n, double w, std::string drawn, std::map<std::string, double>& out) {
  if (n == 0) {
    std::sort(drawn.begin(), drawn.end(),
              [](char x, char y) { return arb::nostress_card_index(x) < arb::nostress_card_index(y); });
    out[drawn] += w;
    return;
  }
  std::vector<arb::ChanceOutcome> outs;
  e.chance_outcomes(outs);
  for (const auto& o : outs) {
    std::string d = e.describe(o.action).steps.at(0).drawn;
    e.apply(o.action);
    sequential(e, n - 1, w * o.weight, drawn + d, out);
    e.undo();
  }
}

TEST(CompiledNoStressMerged, MultisetWeightsAreTheSequentialDrawsSummedOverOrders) {
  const std::vector<std::pair<std::string, int>> cases = {
      {merged_case(), 3},
      {"4k3/8/8/8/8/8/8/4R1K1 b - - 0 1 level:3 pile:?51 wdiscard:- bdiscard:- whand:PPNNB bhand:- "
       "pending:5",
       5},
      {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 level:3 pile:?46 wdiscard:- bdiscard:- whand:?5 bhand:QQBBN", 5}};
  for (const auto& [pos, n] : cases) {
    auto one = arb::lang::make_compiled_engine(program(pos.find("level:2") != std::string::npos ? "2" : "3"));
    one->set_position(pos);
    std::map<std::string, double> seq;
    sequential(*one, n, 1.0, "", seq);
    auto merged = one->clone();
    merged->chance_control()->set_merged_chance(true);
    std::vector<arb::ChanceOutcome> outs;
    merged->chance_outcomes(outs);
    ASSERT_EQ(outs.size(), seq.size()) << pos;
    double total = 0;
    for (const auto& o : outs) {
      std::string d = merged->describe(o.action).steps.at(0).drawn;
      ASSERT_EQ(seq.count(d), 1u) << pos << " " << d;
      EXPECT_NEAR(o.weight, seq[d], 1e-12) << pos << " " << d;
      total += o.weight;
      // The merged position text is honest and reads back (open cards in brackets).
      merged->apply(o.action);
      auto back = merged->clone();
      back->set_position(merged->position());
      EXPECT_EQ(back->position(), merged->position());
      EXPECT_EQ(back->hash(), merged->hash()) << merged->position();
      merged->undo();
    }
    EXPECT_NEAR(total, 1.0, 1e-12) << pos;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Issue 23: the ruleset drives the card layer.

// RULINGS 3.4 makes the hand the only difference between levels 2 and 3: level 2 with a
// hand of 5 (a `when level = 2` block of a ruleset extending nostress) plays exactly as
// level 3, the level option being no special name to the compiler.
TEST(CompiledNoStressCards, LevelTwoWithHandsOfFiveIsLevelThree) {
  auto b =
      build("ruleset t extends nostress\nwhen level = 2 {\n  hand size 5 keep-order\n}\n", {{"level", "2"}});
  ASSERT_NE(b->c.program, nullptr) << b->diags.render();
  ASSERT_EQ(b->c.program->cards->hand_size, 5);
  auto three = program("3");
  for (int seed = 1; seed <= 4; ++seed) {
    auto a = arb::lang::make_compiled_engine(b->c.program);
    auto c = arb::lang::make_compiled_engine(three);
    a->set_position("start:" + std::to_string(seed));
    c->set_position("start:" + std::to_string(seed));
    ASSERT_EQ(a->position(), c->position()) << seed;
    EXPECT_EQ(a->perft(3), c->perft(3)) << seed;
    // Random games: the same action lists (and texts) all along, chance nodes included.
    std::mt19937_64 rng(static_cast<uint64_t>(seed) * 131 + 7);
    int plies = 0;
    for (int ply = 0; ply < 200; ++ply, ++plies) {
      const std::string pos = c->position();
      ASSERT_EQ(a->position(), pos) << "seed " << seed << " ply " << ply;
      ASSERT_EQ(a->chance(), c->chance()) << pos;
      const std::vector<std::string> la = legal(*a), lc = legal(*c);
      ASSERT_EQ(la, lc) << pos;
      if (lc.empty()) break;
      if (!c->chance() && ply % 10 == 0) {
        ASSERT_EQ(a->perft(2), c->perft(2)) << pos;
      }
      std::vector<Action> acts;
      c->legal_actions(acts);
      const std::string t = canonical(*c, acts[rng() % acts.size()]);
      play(*a, t);
      play(*c, t);
    }
    EXPECT_GT(plies, 20) << seed;
  }
  // Without the block, level 2 keeps its hands of 3 and differs.
  auto two = engine("2");
  EXPECT_NE(two->perft(3), engine("3")->perft(3));
}

std::string plain4_path() {
  return testing_helpers::source_path("corpus/rulesets/nostress-plain4.rules");
}

// A designer's deck (corpus/rulesets/nostress-plain4.rules): P*12 N*8 B*8 R*8 Q*8 K*6, no
// Again card, hands of 4 at level 3.
//
// Seed 1 deals (shuffle of PPPPPPPPPPPPNNNNNNNNBBBBBBBBRRRRRRRRQQQQQQQQKKKKKK, White first):
//   rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3
//   pile:KQKPKBPBPPNRRBKNPQRBPNPNKKRQQBPNBQPRBPPRRN wdiscard:- bdiscard:- whand:PQBN bhand:QRQN
//   reshuffle:2
// perft 1: White draws the pile's top K and holds P Q B N K (no three alike, every card
// moves a piece: no redraw, no pass). Moves per kind on the advanced-pawns board:
//   P: a2 b2 c2 f2 g2 h2 one or two squares (12), e3-e4 (1), d4 blocked by d5: 13
//   N: b1-a3 c3 d2, g1-f3 h3 e2: 6
//   B: c1-d2 (e3 is White's), f1-e2 d3 c4 b5 a6: 6
//   Q: d1-d2 d3, d1-e2 f3 g4 h5: 6
//   K: e1-d2 e2: 2
//   33 = 13 + 6 + 6 + 6 + 2.
// perft 2: after any of these, Black draws the next card, Q, and holds Q R Q N Q:
//   Q: d8-d7 d6, d8-e7 f6 g5 h4 (h4 a capture after h2-h4): 6
//   R: both rooks are shut in: one pass `R:pass` (RULINGS 3.9): 1
//   N: b8-a6 c6 d7 (a6 a capture after Ba6), g8-f6 h6 e7: 6
//   redraw: three queens alike (redraw-when alike 3): 1
// No White move changes these counts (none reaches d6 d7 e7 f6 g5 or blocks a knight; at
// level 3 a check such as Bb5+ restricts nothing): 14 each, 33 * 14 = 462.
TEST(CompiledNoStressCards, DesignersDeckWithoutAgainCards) {
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = arb::lang::compile_file(plain4_path(), {}, diags);
  ASSERT_NE(c.program, nullptr) << diags.render();
  ASSERT_TRUE(c.program->cards);
  EXPECT_EQ(c.program->cards->rules.deck, (std::array<int, 7>{12, 8, 8, 8, 8, 6, 0}));
  EXPECT_EQ(c.program->cards->hand_size, 4);
  auto e = arb::lang::make_compiled_engine(c.program);
  const std::string start =
      "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3 "
      "pile:KQKPKBPBPPNRRBKNPQRBPNPNKKRQQBPNBQPRBPPRRN wdiscard:- bdiscard:- whand:PQBN bhand:QRQN "
      "reshuffle:2";
  ASSERT_EQ(e->position(), start);
  EXPECT_EQ(e->perft(1), 33u);
  EXPECT_EQ(e->perft(2), 462u);
  std::vector<std::string> l = legal(*e);
  EXPECT_EQ(std::count_if(l.begin(), l.end(), [](const std::string& t) { return t.rfind("K:", 0) == 0; }), 2);
  // The text is the deck's: against No Stress Chess's 56 cards it is refused.
  EXPECT_THROW(arb::parse_nostress(start), arb::PositionError);
  arb::CardRules rules;
  rules.deck = {12, 8, 8, 8, 8, 6, 0};
  rules.hand_size = 4;
  EXPECT_EQ(arb::format_nostress(arb::parse_nostress(start, rules)), start);
  // Again never appears, in actions or card zones, along random games (reshuffles too).
  int plies = 0, reshuffles = 0;
  for (int seed = 1; seed <= 6; ++seed) {
    auto g = arb::lang::make_compiled_engine(c.program);
    g->set_position("start:" + std::to_string(seed));
    std::mt19937_64 rng(static_cast<uint64_t>(seed) * 17);
    for (int ply = 0; ply < 300; ++ply) {
      const std::string pos = g->position();
      const arb::NoStressPosition np = arb::parse_nostress(pos, rules);
      const std::string cards =
          np.pile.known + np.discard[0] + np.discard[1] + np.hand[0].known + np.hand[1].known;
      ASSERT_EQ(cards.find('A'), std::string::npos) << pos;
      if (np.discard[0].empty() && np.discard[1].empty() && ply > 0) ++reshuffles;
      std::vector<Action> acts;
      g->legal_actions(acts);
      if (acts.empty()) break;
      for (const Action& a : acts) ASSERT_NE(canonical(*g, a).rfind("A:", 0), 0u) << pos;
      g->apply(acts[rng() % acts.size()]);
      ++plies;
    }
  }
  EXPECT_GT(plies, 300);
  EXPECT_GT(reshuffles, 0);
  // `arbiter perft` runs it.
  auto out = testing_process::run_arbiter({"perft", "--rules", plain4_path(), "--depth", "2"});
  EXPECT_EQ(out.code, 0) << out;
  EXPECT_EQ(out.last_line(), "nodes 462") << out;
}

// The registry hands the No Stress reference the deck and hand a descendant states, and
// nothing more for the bundled deck and the levels' hands.
TEST(CompiledNoStressCards, RegistryPassesDeckAndHandToTheReference) {
  arb::lang::Diagnostics diags;
  arb::lang::Compiled plain = arb::lang::compile_file(plain4_path(), {{"seed", "3"}}, diags);
  ASSERT_NE(plain.program, nullptr) << diags.render();
  auto r = arb::registry::reference_of(plain, {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->variant, "nostress");
  EXPECT_EQ(r->options, (std::map<std::string, std::string>{{"deck", "P12N8B8R8Q8K6"},
                                                            {"hand-size", "4"},
                                                            {"level", "3"},
                                                            {"seed", "3"},
                                                            {"setup-advanced-pawns", "true"}}));
  // Level 2 of the designer's ruleset keeps level 2's hand: only the deck is passed.
  arb::lang::Compiled plain2 = arb::lang::compile_file(plain4_path(), {{"level", "2"}}, diags);
  ASSERT_NE(plain2.program, nullptr) << diags.render();
  auto r2 = arb::registry::reference_of(plain2, {});
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->options.at("level"), "2");
  EXPECT_EQ(r2->options.count("hand-size"), 0u);
  EXPECT_EQ(r2->options.at("deck"), "P12N8B8R8Q8K6");
  // Level 2 with hands of 5 is level 3's game: the reference of level 3, no extra options.
  auto b =
      build("ruleset t extends nostress\nwhen level = 2 {\n  hand size 5 keep-order\n}\n", {{"level", "2"}});
  ASSERT_NE(b->c.program, nullptr) << b->diags.render();
  auto r5 = arb::registry::reference_of(b->c, {});
  ASSERT_TRUE(r5);
  EXPECT_EQ(r5->options.at("level"), "3");
  EXPECT_EQ(r5->options.count("hand-size") + r5->options.count("deck"), 0u);
  auto ref = arb::registry::make_reference(b->c, {});
  ASSERT_NE(ref, nullptr);
  auto comp = arb::lang::make_compiled_engine(b->c.program);
  EXPECT_EQ(ref->position(), comp->position());
  EXPECT_EQ(ref->perft(3), comp->perft(3));
  // The bundled ruleset has a reference of its own name: the options as given.
  arb::lang::Compiled bundled =
      arb::lang::compile_file(testing_helpers::ruleset_path("nostress"), {{"level", "1"}}, diags);
  auto rb = arb::registry::reference_of(bundled, {{"level", "1"}});
  ASSERT_TRUE(rb);
  EXPECT_EQ(rb->variant, "nostress");
  EXPECT_EQ(rb->options, (std::map<std::string, std::string>{{"level", "1"}}));
}
