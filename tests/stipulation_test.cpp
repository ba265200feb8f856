// Composers' stipulations (solver/include/arbiter/stipulation.hpp, `arbiter solve
// --stipulation`): Popeye's answers on positions the solver was never tuned on
// (corpus/stipulations/*.txt, each file's header names the Popeye build and command that
// made it), an independent brute force over the engine interface for help play on a
// designer's ruleset, and the command's output.
#include "arbiter/stipulation.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "arbiter/lang/compile.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/popeye_input.hpp"
#include "helpers.hpp"
#include "process.hpp"
#include "reference.hpp"

namespace {

using arb::stip::Outcome;

std::unique_ptr<arb::Engine> compiled_file(const std::string& path, const std::string& position) {
  arb::lang::Diagnostics d;
  auto c = arb::lang::compile_file(path, {}, d);
  EXPECT_TRUE(c.program) << d.render();
  auto e = arb::lang::make_compiled_engine(c.program);
  e->set_position(position);
  return e;
}
std::unique_ptr<arb::Engine> compiled(const std::string& ruleset, const std::string& position) {
  return compiled_file(std::string(arbiter_source_dir()) + "/rulesets/" + ruleset + ".rules", position);
}

arb::stip::Result solve(const arb::Engine& e, const std::string& stip, bool mate_needs_check = false,
                        int jobs = 1) {
  arb::stip::Options o;
  auto s = arb::stip::parse_stipulation(stip);
  EXPECT_TRUE(s) << stip;
  o.stip = *s;
  o.table_mb = 16;
  o.mate_needs_check = mate_needs_check;
  o.jobs = jobs;
  return arb::stip::solve(e, o);
}

// Every solution (of N and shorter) as Popeye lists them: keys for direct, self and
// reflex play, whole lines in UCI for help and series play.
std::set<std::string> answer_set(const arb::stip::Result& r, bool keyed) {
  std::set<std::string> out;
  for (const auto* v : {&r.solutions, &r.shorter})
    for (const auto& l : *v) {
      std::string t;
      for (size_t i = 0; i < (keyed ? 1 : l.uci.size()); ++i) t += (t.empty() ? "" : " ") + l.uci[i];
      out.insert(t);
    }
  return out;
}

// A batch line (`solve --epd`, now arb::stip::parse_batch_line, shared with the fuzz
// target of the solver's input): `POSITION;STIP`, EPD operations, comments, refusals.
TEST(Stipulation, BatchLines) {
  using arb::stip::parse_batch_line;
  EXPECT_FALSE(parse_batch_line("   "));
  EXPECT_FALSE(parse_batch_line("# comment;h#2"));
  auto a = parse_batch_line(" 7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1;h#2;notes \r");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->position, "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1");
  EXPECT_EQ(a->stip.text(), "h#2");
  auto b = parse_batch_line("7k/p7/5K2/8/8/8/P7/6R1 w - - bm #2; id \"x\";");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->position, "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1");
  EXPECT_EQ(b->stip.text(), "#2");
  EXPECT_EQ(parse_batch_line("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - dm 3;")->stip.text(), "#3");
  // A whole FEN, counters and all, then operations: corpus/mates/mates.epd's form.
  auto c = parse_batch_line("rn2kb1r/1pp2p2/3pBq2/P5pp/P2Pn2P/6P1/2P1PP2/RNBQ1KNR b kq - 0 12 bm #1;");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->position, "rn2kb1r/1pp2p2/3pBq2/P5pp/P2Pn2P/6P1/2P1PP2/RNBQ1KNR b kq - 0 12");
  EXPECT_EQ(c->stip.text(), "#1");
  EXPECT_EQ(parse_batch_line("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 3 40 dm 3; id \"y\";")->stip.text(), "#3");
  EXPECT_EQ(parse_batch_line("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - stip \"s#2\";")->stip.text(), "s#2");
  EXPECT_EQ(parse_batch_line("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1;#2", arb::stip::parse_stipulation("h=1"))
                ->stip.text(),
            "h=1");  // the command line's stipulation wins
  EXPECT_THROW(parse_batch_line("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1;x#2"), std::invalid_argument);
  EXPECT_THROW(parse_batch_line("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"), std::invalid_argument);
  EXPECT_THROW(parse_batch_line("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - bm #x;"), std::invalid_argument);
  EXPECT_THROW(parse_batch_line(";"), std::invalid_argument);
}

TEST(Stipulation, ParsesPopeyesSpelling) {
  for (const char* t : {"#2", "=3", "h#2", "h#2.5", "h=1", "s#3", "s=2", "r#2", "r=1", "ser-#5", "ser-=2",
                        "ser-h#4", "ser-h=3", "ser-s#2", "ser-s=2", "h#0.5"}) {
    auto s = arb::stip::parse_stipulation(t);
    ASSERT_TRUE(s) << t;
    EXPECT_EQ(s->text(), t);
  }
  EXPECT_EQ(arb::stip::parse_stipulation("H#2")->text(), "h#2");
  for (const char* t : {"", "#", "#0", "#2.5", "s#2.5", "ser-r#2", "x#2", "h#2x", "#31", "ser-h#2.5", "hs#2"})
    EXPECT_FALSE(arb::stip::parse_stipulation(t)) << t;
}

// ---- Popeye's answers -------------------------------------------------------------------

TEST(Stipulation, EqualsPopeyeOnStoredPositions) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(arbiter_source_dir()) / "corpus" / "stipulations";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::map<std::string, int> per_stip, with_solutions;
  auto chess = compiled("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  auto ref = arb::ref::make_reference_engine("chess", {});
  int n = 0;
  for (const auto& f : fs::directory_iterator(dir)) {
    const std::string stem = f.path().stem().string();
    if (f.path().extension() != ".txt" || stem.ends_with("-tries") || stem.ends_with("-tree")) continue;
    std::ifstream in(f.path());
    int lineno = 0, file_lines = 0;
    bool took_with = false, took_without = false;
    // Under the sanitizers (ARBITER_FAST) a file's first problem with solutions and its first
    // without are solved, then every third (every tenth of the three- and four-movers, which
    // take most of the time, and those only once: not again on the reference engine or with
    // threads). The Release run solves them all.
    const bool deep = stem.starts_with("mate3") || stem.starts_with("hmate3") || stem.starts_with("smate3") ||
                      stem.starts_with("hmate4") || stem.starts_with("smate4");
    for (std::string line; std::getline(in, line);) {
      ++lineno;
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> field;
      std::stringstream ss(line);
      for (std::string x; std::getline(ss, x, ';');) field.push_back(x);
      if (field.size() == 2) field.push_back("");
      ASSERT_EQ(field.size(), 3u) << f.path() << ":" << lineno;
      std::set<std::string> want;
      std::stringstream sols(field[2]);
      for (std::string x; std::getline(sols, x, '|');)
        if (!x.empty()) want.insert(x);
      const int every = !testing_helpers::fast() ? 1 : deep ? 10 : 3;
      if (file_lines++ % every != 0 && (want.empty() ? took_without : took_with)) continue;
      (want.empty() ? took_without : took_with) = true;
      const bool again = !(deep && testing_helpers::fast());
      chess->set_position(field[0]);
      // As `arbiter solve` runs chess: every win a checkmate, mates looked for among checks.
      auto r = solve(*chess, field[1], true);
      const bool keyed = field[1][0] != 'h' && field[1].rfind("ser-", 0) != 0;
      if (++n % 4 == 0 && again) {
        // Every fourth problem again without the hint, on the reference engine: the same.
        ref->set_position(field[0]);
        EXPECT_EQ(answer_set(solve(*ref, field[1]), keyed), answer_set(r, keyed))
            << field[0] << " " << field[1];
      }
      if (n % 6 == 1 && again && field[1].rfind("ser-", 0) != 0) {
        // Every sixth problem again with two threads splitting the first moves: the same
        // set, and help play's lines in the same order.
        auto r2 = solve(*chess, field[1], true, 2);
        EXPECT_EQ(answer_set(r2, keyed), answer_set(r, keyed)) << field[0] << " " << field[1] << " --jobs 2";
        if (!keyed) {
          ASSERT_EQ(r2.solutions.size(), r.solutions.size());
          for (size_t i = 0; i < r.solutions.size(); ++i) EXPECT_EQ(r2.solutions[i].uci, r.solutions[i].uci);
        }
      }
      EXPECT_NE(r.outcome, Outcome::Unknown) << f.path() << ":" << lineno;
      EXPECT_EQ(answer_set(r, keyed), want)
          << f.path() << ":" << lineno << " " << field[0] << " " << field[1];
      EXPECT_EQ(r.outcome == Outcome::None, want.empty()) << f.path() << ":" << lineno;
      ++per_stip[field[1]];
      with_solutions[field[1]] += !want.empty();
    }
  }
  // Every stipulation is covered by positions with solutions and without.
  for (const char* s : {"#2", "=2", "h#2", "h#2.5", "h=2", "s#2", "r#2", "ser-#3", "ser-h#3"}) {
    EXPECT_GE(per_stip[s], testing_helpers::fast() ? 7 : 20) << s;
    EXPECT_GT(with_solutions[s], 0) << s;
    EXPECT_LT(with_solutions[s], per_stip[s]) << s;
  }
  // Deeper, on positions of game-like material (the corpus mates) and random ones: fewer.
  for (const char* s : {"#3", "h#3"}) {
    EXPECT_GE(per_stip[s], testing_helpers::fast() ? 2 : 6) << s;
    EXPECT_GT(with_solutions[s], 0) << s;
    EXPECT_LT(with_solutions[s], per_stip[s]) << s;
  }
  // The deeper help and self play of issue 27: at least ten each (two under the
  // sanitizers), with solutions and without; h#4 (hmate4b.txt) with one to four
  // solutions each, as published helpmates have.
  for (const char* s : {"h#3", "h#4", "s#3", "s#4"}) {
    EXPECT_GE(per_stip[s], testing_helpers::fast() ? 2 : 10) << s;
    EXPECT_GT(with_solutions[s], 0) << s;
    EXPECT_LT(with_solutions[s], per_stip[s]) << s;
  }
}

// Popeye's tries (Option Try: first moves refuted by exactly one defence) equal --tries 1.
// --jobs on one problem: threads share out the first moves, and a thread left without one
// helps with one still being searched (the defences in another order, one table), the
// first to finish giving its value. Whatever the timing, the answer is one thread's: the
// same keys, each of the same length, the same "none shorter". #3s with and without
// solutions (corpus/stipulations/mate3.txt) and #4s of the corpus mates.
TEST(Stipulation, JobsGiveOneJobsAnswers) {
  auto chess = compiled("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  std::vector<std::pair<std::string, std::string>> problems;
  const size_t threes = testing_helpers::fast() ? 2 : 5, fours = 1;
  std::ifstream m3(std::string(arbiter_source_dir()) + "/corpus/stipulations/mate3.txt");
  bool none = false;  // the first without a solution, the rest with
  for (std::string line; problems.size() < threes && std::getline(m3, line);) {
    if (line.empty() || line[0] == '#') continue;
    const bool without = line.back() == ';';
    if (without ? !none : problems.size() + 1 < threes)
      problems.push_back({line.substr(0, line.find(';')), "#3"});
    none |= without;
  }
  std::ifstream epd(std::string(arbiter_source_dir()) + "/corpus/mates/mates.epd");
  for (std::string line; problems.size() < threes + fours && std::getline(epd, line);)
    if (line.find(" bm #4;") != std::string::npos && line.find(" - - ") != std::string::npos)
      problems.push_back({line.substr(0, line.find(" bm ")), "#4"});
  ASSERT_EQ(problems.size(), threes + fours);
  auto keys = [](const std::vector<arb::stip::Line>& v) {
    std::vector<std::pair<std::string, int>> out;
    for (const auto& l : v) out.push_back({l.uci.at(0), l.moves});
    return out;
  };
  int with = 0, without = 0;
  for (const auto& [fen, stip] : problems) {
    chess->set_position(fen);
    const auto one = solve(*chess, stip, true, 1);
    ASSERT_NE(one.outcome, Outcome::Unknown) << fen;
    EXPECT_TRUE(one.threads.empty());
    with += !one.solutions.empty();
    without += one.outcome == Outcome::None;
    for (int jobs : {2, 3}) {
      const auto r = solve(*chess, stip, true, jobs);
      EXPECT_EQ(r.outcome, one.outcome) << fen << " --jobs " << jobs;
      EXPECT_EQ(keys(r.solutions), keys(one.solutions)) << fen << " --jobs " << jobs;
      EXPECT_EQ(keys(r.shorter), keys(one.shorter)) << fen << " --jobs " << jobs;
      EXPECT_EQ(r.proved_none_below, one.proved_none_below) << fen << " --jobs " << jobs;
      // Each thread's share adds up: every join by a helper ends one search at most.
      ASSERT_EQ(r.threads.size(), static_cast<size_t>(jobs)) << fen;
      uint64_t nodes = 0;
      int helped = 0, abandoned = 0;
      for (const auto& t : r.threads) {
        EXPECT_LE(t.dropped, t.nodes);
        if (t.abandoned == 0) {
          EXPECT_EQ(t.dropped, 0u);  // dropped: the abandoned moves' actions
        }
        nodes += t.nodes;
        helped += t.helped;
        abandoned += t.abandoned;
        EXPECT_LE(t.busy, r.split_seconds + 1e-6);
      }
      EXPECT_LE(nodes, r.nodes);
      EXPECT_GT(nodes, 0u);
      EXPECT_LE(abandoned, helped) << fen;
    }
  }
  EXPECT_GE(with, 2);  // keys to agree on, and a "none"
  EXPECT_EQ(without, 1);
}

TEST(Stipulation, TriesEqualPopeyes) {
  std::ifstream in(std::string(arbiter_source_dir()) + "/corpus/stipulations/mate2-tries.txt");
  ASSERT_TRUE(in);
  auto chess = compiled("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  int n = 0, with = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> field;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ';');) field.push_back(x);
    if (field.size() == 2) field.push_back("");
    std::set<std::string> want;
    std::stringstream ts(field[2]);
    for (std::string x; std::getline(ts, x, '|');)
      if (!x.empty()) want.insert(x);
    chess->set_position(field[0]);
    arb::stip::Options o;
    o.stip = *arb::stip::parse_stipulation(field[1]);
    o.tries = 1;
    auto r = arb::stip::solve(*chess, o);
    std::set<std::string> got;
    for (const auto& t : r.tries) {
      ASSERT_EQ(t.refutations_uci.size(), 1u);
      got.insert(t.uci + ">" + t.refutations_uci[0]);
    }
    EXPECT_EQ(got, want) << field[0];
    ++n;
    with += !want.empty();
  }
  EXPECT_GE(n, 40);
  EXPECT_GT(with, 20);
}

// Popeye's solution trees (Option Variation), first level: each key's zugzwang or threats,
// and every defence Popeye prints (it leaves out those its threat answers) with the same
// answers.
TEST(Stipulation, TreesEqualPopeyes) {
  auto chess = compiled("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  int keys = 0, defences = 0;
  for (const char* file : {"mate2-tree.txt", "smate2-tree.txt"}) {
    std::ifstream in(std::string(arbiter_source_dir()) + "/corpus/stipulations/" + file);
    ASSERT_TRUE(in) << file;
    std::string last;
    arb::stip::Result r;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string x; std::getline(ss, x, ';');) f.push_back(x);
      if (f.size() == 4) f.push_back("");
      ASSERT_EQ(f.size(), 5u) << line;
      if (f[0] + f[1] != last) {
        chess->set_position(f[0]);
        arb::stip::Options o;
        o.stip = *arb::stip::parse_stipulation(f[1]);
        o.tree = true;
        o.mate_needs_check = true;
        r = arb::stip::solve(*chess, o);
        last = f[0] + f[1];
      }
      const arb::stip::Line* key = nullptr;
      for (const auto* v : {&r.solutions, &r.shorter})
        for (const auto& l : *v)
          if (l.uci[0] == f[2]) key = &l;
      ASSERT_TRUE(key) << line;
      ++keys;
      if (key->moves > 1) {
        std::string threat = "-";
        if (key->zugzwang) threat = "zugzwang";
        if (!key->threat.empty()) {
          std::set<std::string> t;
          for (const auto& n : key->threat) t.insert(n.uci);
          threat = "threat:";
          for (const auto& m : t) threat += (threat.back() == ':' ? "" : " ") + m;
        }
        EXPECT_EQ(threat, f[3]) << line;
      }
      std::stringstream ds(f[4]);
      for (std::string d; std::getline(ds, d, '|');) {
        const std::string def = d.substr(0, d.find('>'));
        const std::string want = d.substr(d.find('>') + 1);
        const arb::stip::TreeNode* mine = nullptr;
        for (const auto& n : key->defences)
          if (n.uci == def) mine = &n;
        ASSERT_TRUE(mine) << line << " " << def;
        std::set<std::string> answers;
        for (const auto& n : mine->next) answers.insert(n.uci);
        std::string got;
        for (const auto& a : answers) got += (got.empty() ? "" : " ") + a;
        EXPECT_EQ(got, want) << line << " " << def;
        ++defences;
      }
    }
  }
  EXPECT_GT(keys, 200);
  EXPECT_GT(defences, 100);
}

TEST(Stipulation, TreeThreatDefencesAndDuals) {
  auto e = compiled("chess", "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1");
  arb::stip::Options o;
  o.stip = *arb::stip::parse_stipulation("#2");
  o.tree = true;
  o.tries = 1;
  auto r = arb::stip::solve(*e, o);
  ASSERT_EQ(r.solutions.size(), 1u);
  const auto& key = r.solutions[0];
  EXPECT_EQ(key.san[0], "Kf7");
  ASSERT_EQ(key.threat.size(), 1u);
  EXPECT_EQ(key.threat[0].san, "Rh1#");
  EXPECT_FALSE(key.zugzwang);
  std::set<std::string> defences;
  for (const auto& d : key.defences) {
    defences.insert(d.san);
    ASSERT_EQ(d.next.size(), 1u) << d.san;
    EXPECT_EQ(d.next[0].san, "Rh1#");
    EXPECT_FALSE(d.next[0].dual);
  }
  EXPECT_EQ(defences, (std::set<std::string>{"a6", "a5", "Kh7"}));
  ASSERT_EQ(r.tries.size(), 1u);  // as Popeye's Option Try: 1.Rh1+? Kg8!
  EXPECT_EQ(r.tries[0].san, "Rh1+");
  EXPECT_EQ(r.tries[0].refutations_san, std::vector<std::string>{"Kg8"});

  // A zugzwang key (no threat), and a defence answered by two mates (a dual).
  e->set_position("3k4/8/Q1K5/8/8/8/8/1N2B3 w - - 0 1");
  r = arb::stip::solve(*e, o);
  bool zugzwang = false;
  for (const auto& l : r.solutions) zugzwang |= l.zugzwang && l.threat.empty() && !l.defences.empty();
  EXPECT_TRUE(zugzwang);
  e->set_position("3R4/2b5/8/3P4/p3K3/p6Q/4R3/6k1 w - - 0 1");
  r = arb::stip::solve(*e, o);
  int duals = 0;
  for (const auto& l : r.solutions)
    for (const auto& d : l.defences) {
      for (const auto& m : d.next) EXPECT_EQ(m.dual, d.next.size() > 1);
      duals += d.next.size() > 1;
    }
  EXPECT_GT(duals, 0);
}

// ---- Popeye's input language --------------------------------------------------------------

TEST(PopeyeInput, ReadsTheOrthodoxSubset) {
  auto ps = arb::stip::read_popeye(
      "BeginProblem\nTitle a test: anything here\nPieces White Kf6 Rg1 Pa2 Black Kh8 Pa7\nStipulation #2\n"
      "Option NoBoard Try\nNextProblem\npie whi Ke1 Rh1 Ra1 bla Ke8 Ra8\nsti h#2\nopt WhiteToPlay NoCastling "
      "a1\n"
      "NextProblem\nPieces White Ka1 Pe5 Black Kh8 Pd5\nStipulation ser-h#3\nOption HalfDuplex EnPassant d7 "
      "d6 d5\n"
      "Condition\nEndProblem\n");
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_EQ(ps[0].position, "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1");
  EXPECT_EQ(ps[0].stip.text(), "#2");
  EXPECT_TRUE(ps[0].tries);
  EXPECT_FALSE(ps[0].start);
  // WhiteToPlay turns h#2 into h#1.5 (as Popeye solves it); castling as NoCastling leaves it.
  EXPECT_EQ(ps[1].stip.text(), "h#1.5");
  EXPECT_EQ(ps[1].start, arb::Color::White);
  EXPECT_EQ(ps[1].position, "r3k3/8/8/8/8/8/8/R3K2R w Kq - 0 1");
  EXPECT_EQ(ps[1].line, 6);
  // HalfDuplex: the other side starts (and is the one to mate).
  EXPECT_EQ(ps[2].start, arb::Color::White);
  EXPECT_EQ(ps[2].position, "7k/8/8/3pP3/8/8/8/K7 w - d6 0 1");
}

TEST(PopeyeInput, RefusesAnythingElseByName) {
  struct Case {
    const char* text;
    int line, column;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {"BeginProblem\nPieces White Kf6 Nd4\nStipulation #2\nEndProblem\n", 2, 18, "Nd4"},
           {"BeginProblem\nPieces White Kf6 Black Ka8\nStipulation #2\nCondition Circe\nEndProblem\n", 4, 11,
            "Circe"},
           {"BeginProblem\nPieces White Kf6 Black Ka8\nStipulation #2\nOption Intelligent\nEndProblem\n", 4,
            8, "Intelligent"},
           {"BeginProblem\nPieces White Kf6 Black Ka8\nStipulation dia3.5\nEndProblem\n", 3, 13, "dia3.5"},
           {"BeginProblem\nPieces White Kf6 Black Ka8\nStipulation #2\nTwin Move a8 b8\nEndProblem\n", 4, 1,
            "Twin"},
           {"BeginProblem\nPieces Neutral Kf6\nStipulation #2\nEndProblem\n", 2, 8, "neutral"},
           {"BeginProblem\nPieces White Kf6 Black Ka8\nStipulation #2\nOption EnPassant d6\nEndProblem\n", 4,
            8, "departure, passed and arrival"},
           {"BeginProblem\nPieces White Kf6 Black Ka8\nEndProblem\n", 1, 1, "Stipulation"},
           {"BeginProblem\nPieces White Kf6 Black Ka8\nStipulation #2\n", 1, 1, "EndProblem"},
       }) {
    try {
      arb::stip::read_popeye(c.text);
      ADD_FAILURE() << c.text;
    } catch (const arb::stip::PopeyeError& e) {
      EXPECT_EQ(e.line, c.line) << c.text << e.what();
      EXPECT_EQ(e.column, c.column) << c.text << e.what();
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
    }
  }
}

// ---- any ruleset ------------------------------------------------------------------------

// Plain enumeration over the engine interface: every line of `h` half-moves from the
// position, none ending the game before the last, the last one winning for its mover.
void brute_help(arb::Engine& e, int h, std::vector<std::string>& path, std::set<std::string>& out) {
  std::vector<arb::Action> ms;
  e.legal_actions(ms);
  const arb::Color mover = e.side_to_move();
  for (const auto& m : ms) {
    path.push_back(arb::uci(e.describe(m), e.chess960()));
    e.apply(m);
    arb::Status st = e.status();
    if (h == 1) {
      if (st.result == (mover == arb::Color::White ? arb::Result::WhiteWins : arb::Result::BlackWins)) {
        std::string t;
        for (const auto& s : path) t += (t.empty() ? "" : " ") + s;
        out.insert(t);
      }
    } else if (st.end == arb::Termination::None) {
      brute_help(e, h - 1, path, out);
    }
    e.undo();
    path.pop_back();
  }
}

TEST(Stipulation, KnightmateHelpmatesEqualABruteForce) {
  const std::string rules = std::string(arbiter_source_dir()) + "/corpus/rulesets/knightmate.rules";
  int solved = 0;
  for (const char* pos : {"k7/8/B7/3K4/8/8/8/8 b - - 0 1", "k7/8/2B5/3K4/8/8/8/8 b - - 0 1",
                          "1k6/8/1M6/3K4/8/8/6R1/8 b - - 0 1", "8/8/8/2k5/8/1M6/2K5/3Q4 b - - 0 1"}) {
    auto e = compiled_file(rules, pos);
    for (const char* stip : {"h#1", "h#2"}) {
      auto r = solve(*e, stip);
      ASSERT_NE(r.outcome, Outcome::Unknown) << pos;
      EXPECT_EQ(r.start, arb::Color::Black);
      std::set<std::string> want;
      std::vector<std::string> path;
      const int h = stip[2] - '0';
      brute_help(*e, 2 * h, path, want);  // the position has Black to move already
      std::set<std::string> got;
      for (const auto& l : r.solutions) {
        std::string t;
        for (const auto& s : l.uci) t += (t.empty() ? "" : " ") + s;
        got.insert(t);
        EXPECT_EQ(l.san.back().back(), '#') << t;  // SAN marks the win
      }
      EXPECT_EQ(got, want) << pos << " " << stip;
      solved += !want.empty();
    }
  }
  EXPECT_GT(solved, 0);  // the brute force found something to compare
}

TEST(Stipulation, Chess2HelpmatesEndInAnyOfItsWins) {
  // Black helps, White invades the enemy half (midline invasion, no checkmate).
  auto e = arb::ref::make_reference_engine("chess2", {});
  e->set_position("7k/8/8/8/4K3/8/8/8 b - - 0 1");
  auto r = solve(*e, "h#1");
  ASSERT_EQ(r.outcome, Outcome::Solved);
  std::set<std::string> want, got;
  std::vector<std::string> path;
  brute_help(*e, 2, path, want);
  for (const auto& l : r.solutions) {
    std::string t;
    for (const auto& s : l.uci) t += (t.empty() ? "" : " ") + s;
    got.insert(t);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(got.size(), 9u);  // three black king moves, three invading squares each
  // The same on the compiled engine of the bundled ruleset.
  auto c = compiled("chess2", "7k/8/8/8/4K3/8/8/8 b - - 0 1");
  EXPECT_EQ(answer_set(solve(*c, "h#1"), false), got);
}

TEST(Stipulation, SeriesMateWithAShorterOne) {
  // On the reference engine: the series changes sides through the position text.
  auto e = arb::ref::make_reference_engine("chess", {});
  e->set_position("7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1");
  auto r = solve(*e, "ser-#3");
  EXPECT_EQ(r.outcome, Outcome::Solved);
  EXPECT_GT(r.solutions.size(), 20u);
  ASSERT_EQ(r.shorter.size(), 1u);
  EXPECT_EQ(r.shorter[0].san, (std::vector<std::string>{"Kf7", "Rh1#"}));
  EXPECT_EQ(r.proved_none_below, 2);
}

TEST(Stipulation, ExactnessAndShorterApart) {
  auto e = compiled("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
  auto r = solve(*e, "#2");
  EXPECT_TRUE(r.solutions.empty());
  ASSERT_EQ(r.shorter.size(), 1u);
  EXPECT_EQ(r.shorter[0].uci[0], "d1d8");
  EXPECT_EQ(r.shorter[0].moves, 1);
  EXPECT_EQ(r.proved_none_below, 1);
  // No mate at all: none below 3 means none within 2.
  e->set_position("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
  r = solve(*e, "#2");
  EXPECT_EQ(r.outcome, Outcome::None);
  EXPECT_EQ(r.proved_none_below, 3);
}

// Help and series play's lines handed out as they are proved (Options::on_line), counted
// without being spelled (count_only), or cut at a limit (max_lines): the same lines in the
// same order as the ones Result holds, shorter ones first, on one thread and on two.
TEST(Stipulation, HelpLinesStreamedCountedAndCut) {
  struct Case {
    const char* position;
    const char* stip;
  };
  for (const Case& c : {Case{"k7/8/1K6/8/8/8/8/7R w - - 0 1", "h#2"},  // 13 lines and a shorter one
                        Case{"7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1", "h#2"},
                        Case{"7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1", "ser-#3"}}) {
    SCOPED_TRACE(std::string(c.position) + " " + c.stip);
    auto e = compiled("chess", c.position);
    const auto held = solve(*e, c.stip, true);
    std::vector<std::vector<std::string>> want;
    for (const auto& l : held.shorter) want.push_back(l.uci);
    for (const auto& l : held.solutions) want.push_back(l.uci);
    ASSERT_GT(want.size(), 5u);
    EXPECT_EQ(held.solution_count, held.solutions.size());
    EXPECT_EQ(held.shorter_count, held.shorter.size());
    const bool series = std::string(c.stip).starts_with("ser-");
    for (int jobs : {1, 2}) {
      if (series && jobs == 2) continue;  // series play runs on one thread
      for (uint64_t limit : {uint64_t{0}, uint64_t{1}, uint64_t{5}, uint64_t(want.size())}) {
        for (bool count_only : {false, true}) {
          SCOPED_TRACE("jobs " + std::to_string(jobs) + " limit " + std::to_string(limit) +
                       (count_only ? " count-only" : ""));
          arb::stip::Options o;
          o.stip = *arb::stip::parse_stipulation(c.stip);
          o.table_mb = 16;
          o.mate_needs_check = true;
          o.jobs = jobs;
          o.max_lines = limit;
          o.count_only = count_only;
          std::vector<std::vector<std::string>> got;
          uint64_t full = 0;
          o.on_line = [&](const arb::stip::Line& l, bool is_full) {
            got.push_back(l.uci);
            full += is_full;
            if (is_full) {
              EXPECT_EQ(l.moves, o.stip.moves);
            }
          };
          const auto r = arb::stip::solve(*e, o);
          EXPECT_EQ(r.outcome, Outcome::Solved);
          EXPECT_TRUE(r.solutions.empty() && r.shorter.empty());  // nothing held
          EXPECT_EQ(r.proved_none_below, held.proved_none_below);
          const size_t n = limit ? std::min<size_t>(limit, want.size()) : want.size();
          EXPECT_EQ(r.more, limit && limit < want.size());
          EXPECT_EQ(r.solution_count + r.shorter_count, n);
          if (!limit) {
            EXPECT_EQ(r.solution_count, held.solution_count);
            EXPECT_EQ(r.shorter_count, held.shorter_count);
          }
          if (count_only) {
            EXPECT_TRUE(got.empty());
          } else {
            EXPECT_EQ(got, std::vector<std::vector<std::string>>(want.begin(),
                                                                 want.begin() + static_cast<long>(n)));
            EXPECT_EQ(full, r.solution_count);
          }
        }
      }
    }
  }
}

// ---- the command ------------------------------------------------------------------------

TEST(StipulationCommand, JsonIsTheWholeOutput) {
  using testing_process::run_arbiter;
  auto h = run_arbiter({"solve", "--variant", "chess", "--position", "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1",
                        "--goal", "helpmate", "--half-moves", "3", "--json"},
                       arbiter_source_dir());
  ASSERT_EQ(h.code, 0) << h;
  auto j = nlohmann::json::parse(h.out);  // the whole of stdout is one object
  EXPECT_EQ(j["stipulation"], "h#1.5");
  EXPECT_EQ(j["start"], "white");
  EXPECT_EQ(j["solutions"].size(), 3u);
  EXPECT_EQ(j["solutions"][0]["san"].back(), "Rh1#");

  // Help play's lines streamed: the object is whole, the counts and `more` at its end.
  auto cut = run_arbiter({"solve", "--position", "k7/8/1K6/8/8/8/8/7R w - - 0 1", "--stipulation", "h#2",
                          "--max-solutions", "3", "--json"},
                         arbiter_source_dir());
  ASSERT_EQ(cut.code, 0) << cut;
  j = nlohmann::json::parse(cut.out);
  EXPECT_EQ(j["result"], "solved");
  EXPECT_EQ(j["more"], true);
  EXPECT_EQ(j["shorter"].size(), 1u);  // Kb8 Rh8#, listed first
  EXPECT_EQ(j["solutions"].size(), 2u);
  EXPECT_EQ(j["solution_count"], 2);
  EXPECT_EQ(j["shorter_count"], 1);
  EXPECT_EQ(j["proved_none_below"], 1);
  auto counted = run_arbiter(
      {"solve", "--position", "k7/8/1K6/8/8/8/8/7R w - - 0 1", "--stipulation", "h#2", "--count-only"},
      arbiter_source_dir());
  ASSERT_EQ(counted.code, 0) << counted;
  EXPECT_NE(counted.out.find("h#2 (black starts): 13 solutions in 2, 1 shorter (counted, not listed)"),
            std::string::npos)
      << counted;
  auto keyed = run_arbiter(
      {"solve", "--position", "k7/8/1K6/8/8/8/8/7R w - - 0 1", "--stipulation", "#2", "--count-only"},
      arbiter_source_dir());
  EXPECT_EQ(keyed.code, 2) << keyed;

  auto s = run_arbiter({"solve", "--position", "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1", "--goal", "helpmate",
                        "--depth", "2", "--series", "--notation", "uci"},
                       arbiter_source_dir());
  ASSERT_EQ(s.code, 0) << s;
  EXPECT_NE(s.out.find("ser-h#2 (black starts)"), std::string::npos) << s;
  EXPECT_NE(s.out.find("h8h7 h7h6 g1h1"), std::string::npos) << s;

  auto old = run_arbiter({"solve", "--position", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "--goal", "mate",
                          "--depth", "2", "--json"},
                         arbiter_source_dir());
  ASSERT_EQ(old.code, 0) << old;
  j = nlohmann::json::parse(old.out);
  EXPECT_EQ(j["moves"], 1);
  EXPECT_EQ(j["proved_none_below"], 1);  // nothing below a mate in 1 to prove
  auto none = run_arbiter({"solve", "--position", "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "--goal", "mate",
                           "--depth", "2", "--json"},
                          arbiter_source_dir());
  j = nlohmann::json::parse(none.out);
  EXPECT_EQ(j["proved_none_within"], 2);
  EXPECT_EQ(j["proved_none_below"], 3);

  // A batch: EPD and `POSITION;STIPULATION` lines, two jobs, JSON lines and a summary.
  const std::string epd = testing::TempDir() + "/stip_batch.epd";
  {
    std::ofstream out(epd);
    out << "# a batch\n7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1;h#2\n7k/p7/5K2/8/8/8/P7/6R1 w - - bm #2; id \"x\";\n"
           "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - dm 2;\n";
  }
  auto b = run_arbiter({"solve", "--epd", epd, "--jobs", "2", "--json"}, arbiter_source_dir());
  ASSERT_EQ(b.code, 0) << b;
  std::vector<nlohmann::json> lines;
  std::stringstream bs(b.out);
  for (std::string x; std::getline(bs, x);) lines.push_back(nlohmann::json::parse(x));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["line"], 2);
  EXPECT_EQ(lines[0]["stipulation"], "h#2");
  EXPECT_EQ(lines[0]["solutions"].size(), 19u);  // as Popeye lists them
  EXPECT_EQ(lines[1]["solutions"][0]["san"][0], "Kf7");
  EXPECT_EQ(lines[2]["result"], "none");
  EXPECT_EQ(lines[3]["problems"], 3);
  EXPECT_EQ(lines[3]["summary"].size(), 2u);  // #2 (two problems) and h#2
  auto text = run_arbiter({"solve", "--epd", epd}, arbiter_source_dir());
  EXPECT_NE(text.out.find("#2: 2 problems, 1 solved, 0 shorter only, 1 none"), std::string::npos) << text;
  {
    std::ofstream out(epd);
    out << "7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1;h#2\n7k/p7/5K2/8/8/8/P7/6R1 w - - 0 1;x#2\n";
  }
  auto bad = run_arbiter({"solve", "--epd", epd}, arbiter_source_dir());
  EXPECT_EQ(bad.code, 2) << bad;
  EXPECT_NE(bad.err.find("stip_batch.epd:2:1:"), std::string::npos) << bad;

  // A side change the position text cannot take is refused with the engine's reason.
  auto flip = run_arbiter({"solve", "--position", "k7/8/8/8/8/8/8/r3K3 w - - 0 1", "--stipulation", "h#2"},
                          arbiter_source_dir());
  EXPECT_EQ(flip.code, 2) << flip;
  EXPECT_NE(flip.err.find("the side not to move is in check"), std::string::npos) << flip;
  auto other =
      run_arbiter({"solve", "--variant", "chessme", "--stipulation", "ser-#2"}, arbiter_source_dir());
  EXPECT_EQ(other.code, 2) << other;
  EXPECT_NE(other.err.find("changes the side to move without a move"), std::string::npos) << other;

  for (auto args : std::vector<std::vector<std::string>>{
           {"solve", "--stipulation", "hs#2"},
           {"solve", "--goal", "reflexmate", "--series", "--depth", "2"},
           {"solve", "--goal", "selfmate", "--half-moves", "3"},
           {"solve", "--stipulation", "h#2", "--depth", "2"},
           {"solve", "--goal", "helpmate", "--depth", "2", "--side", "x"}}) {
    auto bad = run_arbiter(args, arbiter_source_dir());
    EXPECT_EQ(bad.code, 2) << bad;
  }
}

}  // namespace
