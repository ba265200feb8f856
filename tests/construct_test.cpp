// The construct table (construct.hpp): every construct is defined once, every schema
// argument is type-checked at its file:line:col with a hint, valid uses reach the model as
// typed payloads, and the compiler's gate refuses by identity what a back end cannot run.
#include "arbiter/lang/construct.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/model.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;
using arb::lang::ArgSpec;
using arb::lang::ArgType;
using arb::lang::ConstructDef;
using arb::lang::ConstructId;
using arb::lang::Diagnostics;
using arb::lang::Scope;
namespace fs = std::filesystem;

// A scratch directory holding chess.rules, so that test rulesets can extend it.
struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / ("arbiter-construct-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::copy_file(ruleset_path("chess"), dir / "chess.rules", fs::copy_options::overwrite_existing);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};
const Scratch& scratch() {
  static Scratch s;
  return s;
}

// A ruleset extending chess, with `stmt` placed in its scope; `line` is the line `stmt` is on.
std::string wrap(const ConstructDef& def, const std::string& stmt, int& line) {
  std::string head = "ruleset t extends chess\n";
  switch (def.scope) {
    case Scope::Top:
      line = 2;
      return head + stmt + "\n";
    case Scope::Piece:
      line = 4;
      return head + "piece tester X {\n  betza \"W\"\n" + stmt + "\n}\n";
    case Scope::Legal:
      line = 3;
      return head + "legal {\n" + stmt + "\n}\n";
    case Scope::Placement:
      line = 3;
      return head + "placement {\n" + stmt + "\n}\n";
    case Scope::Army:
      line = 3;
      return head + "army tester K Q R B N P {\n" + stmt + "\n}\n";
    case Scope::Deck:
      line = 3;
      return head + "deck shared {\n" + stmt + "\n}\n";
    case Scope::Records:
      line = 3;
      return head + "records {\n" + stmt + "\n}\n";
    case Scope::Turn:
      line = 3;
      return head + "turn {\n" + stmt + "\n  action move\n}\n";  // a turn needs an action
    case Scope::End:
      line = 3;
      return head + "end {\n" + stmt + "\n  checkmate -> loss\n  stalemate -> draw\n}\n";
    case Scope::Castling:
      line = 3;
      return head + "castling {\n" + stmt + "\n}\n";
    case Scope::Expect:
      line = 3;
      return head + "expect {\n" + stmt + "\n}\n";
    default:
      line = 0;
      return "";
  }
}

// A valid value for an argument.
std::string valid(const ArgSpec& a) {
  switch (a.type) {
    case ArgType::Flag:
      return "";
    case ArgType::Int:
      return std::to_string(a.lo);
    case ArgType::Letters:
      return "N B";
    case ArgType::Choice:
    case ArgType::Tokens:
      return a.choices.front();
    case ArgType::Betza:
      return "\"mK\"";
    case ArgType::Ranks:
      return "1..2";
    case ArgType::Text:
      return "\"x\"";
    case ArgType::Region:
      return "own-half";
  }
  return "";
}
std::string with_required(const ConstructDef& def) {
  std::string s = def.keyword;
  for (const ArgSpec& a : def.args)
    if (a.required) s += (a.key.empty() ? "" : " " + a.key) + (valid(a).empty() ? "" : " " + valid(a));
  return s;
}

struct Loaded {
  Diagnostics diags;
  std::vector<std::unique_ptr<arb::lang::Source>> sources;
  std::unique_ptr<arb::lang::Model> model;
};
std::unique_ptr<Loaded> load(const std::string& path) {
  auto l = std::make_unique<Loaded>();
  l->model = arb::lang::load_ruleset(path, {}, l->diags, l->sources);
  return l;
}

bool has_error_at(const Diagnostics& d, int line, int col, const std::string& part) {
  for (const auto& x : d.all())
    if (x.severity == arb::lang::Severity::Error && x.loc.line == line && x.loc.col == col &&
        x.message.find(part) != std::string::npos && !x.hint.empty())
      return true;
  return false;
}

}  // namespace

TEST(Constructs, TableIsWellFormed) {
  std::set<std::pair<int, std::string>> seen;
  for (size_t i = 0; i < arb::lang::constructs().size(); ++i) {
    const ConstructDef& d = arb::lang::constructs()[i];
    EXPECT_EQ(static_cast<size_t>(d.id), i) << d.keyword;
    EXPECT_FALSE(d.keyword.empty());
    EXPECT_FALSE(d.doc.empty()) << d.keyword;
    EXPECT_EQ(&arb::lang::construct_def(d.id), &d);
    // At most one positional argument, keys unique.
    std::set<std::string> keys;
    for (const ArgSpec& a : d.args) EXPECT_TRUE(keys.insert(a.key).second) << d.keyword << " " << a.key;
    if (!d.custom) {
      EXPECT_TRUE(seen.insert({static_cast<int>(d.scope), d.keyword}).second) << d.keyword;
    }
  }
}

// Every schema construct: a valid use loads, and its typed payload is in the model.
TEST(Constructs, ValidUsesReachTheModelTyped) {
  int checked = 0;
  for (const ConstructDef& def : arb::lang::constructs()) {
    if (def.custom) continue;
    int line = 0;
    const std::string stmt = with_required(def);
    std::string text = wrap(def, stmt, line);
    ASSERT_FALSE(text.empty()) << def.keyword;
    auto l = load(scratch().write("valid.rules", text));
    ASSERT_NE(l->model, nullptr) << stmt << "\n" << l->diags.render();
    const arb::lang::ConstructUse* found = nullptr;
    for (const auto* u : l->model->all_constructs())
      if (u->id == def.id && u->loc.line == line) found = u;
    ASSERT_NE(found, nullptr) << stmt;
    EXPECT_EQ(found->args.size(), def.args.size());
    for (size_t k = 0; k < def.args.size(); ++k) {
      const ArgSpec& a = def.args[k];
      EXPECT_EQ(found->args[k].present, a.required) << stmt << " " << a.key;
      if (!a.required) continue;
      if (a.type == ArgType::Int) {
        EXPECT_EQ(found->args[k].num, a.lo) << stmt;
      } else if (a.type == ArgType::Choice) {
        EXPECT_EQ(found->args[k].text, a.choices.front()) << stmt;
      } else if (a.type == ArgType::Letters) {
        EXPECT_EQ(found->args[k].words, (std::vector<std::string>{"N", "B"})) << stmt;
      } else if (a.type == ArgType::Betza) {
        EXPECT_EQ(found->args[k].text, "mK") << stmt;
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

// Every schema construct refuses a stray word, a missing required argument, an
// out-of-range number and a wrong choice, each at its line:col with a hint.
TEST(Constructs, BadArgumentsAreLocatedErrors) {
  for (const ConstructDef& def : arb::lang::constructs()) {
    if (def.custom) continue;
    int line = 0;
    // A stray word right after the keyword (the column after `KEYWORD `).
    std::string stmt = def.keyword + " banana";
    auto l = load(scratch().write("bad.rules", wrap(def, stmt, line)));
    EXPECT_EQ(l->model, nullptr) << stmt;
    EXPECT_TRUE(has_error_at(l->diags, line, static_cast<int>(def.keyword.size()) + 2, "banana"))
        << stmt << "\n"
        << l->diags.render();
    // Each required argument missing.
    for (const ArgSpec& a : def.args) {
      if (!a.required) continue;
      std::string s = def.keyword;
      for (const ArgSpec& b : def.args)
        if (b.required && &b != &a)
          s += (b.key.empty() ? "" : " " + b.key) + (valid(b).empty() ? "" : " " + valid(b));
      auto m = load(scratch().write("bad.rules", wrap(def, s, line)));
      EXPECT_TRUE(has_error_at(m->diags, line, 1, "needs")) << s << "\n" << m->diags.render();
    }
    // Each number out of range, each choice not among the choices.
    for (const ArgSpec& a : def.args) {
      if (a.type != ArgType::Int && a.type != ArgType::Choice) continue;
      std::string s = def.keyword;
      int col = 0;
      for (const ArgSpec& b : def.args) {
        if (!b.required && &b != &a) continue;
        s += b.key.empty() ? "" : " " + b.key;
        if (&b == &a) {
          col = static_cast<int>(s.size()) + 2;
          s += b.type == ArgType::Int ? " " + std::to_string(b.hi + 1) : " bananas";
        } else if (!valid(b).empty()) {
          s += " " + valid(b);
        }
      }
      auto m = load(scratch().write("bad.rules", wrap(def, s, line)));
      EXPECT_EQ(m->model, nullptr) << s;
      EXPECT_TRUE(has_error_at(m->diags, line, col, a.type == ArgType::Int ? "between" : "bananas"))
          << s << "\n"
          << m->diags.render();
    }
  }
}

// Sema reads every statement through the table: each construct's keyword, alone in its
// scope, reaches its schema or its reader (an argument error at most, never "unknown"),
// and a keyword of one scope is unknown in another, with the scope's closest keyword.
TEST(Constructs, EveryKeywordDispatchesThroughTheTable) {
  int checked = 0;
  for (const ConstructDef& def : arb::lang::constructs()) {
    if (def.id == ConstructId::When || def.id == ConstructId::Ruleset) continue;
    int line = 0;
    const std::string text = wrap(def, def.keyword, line);
    ASSERT_FALSE(text.empty()) << def.keyword;
    auto l = load(scratch().write("dispatch.rules", text));
    for (const auto& x : l->diags.all())
      EXPECT_NE(x.message.rfind("unknown", 0), 0u) << def.keyword << ": " << x.message;
    ++checked;
  }
  EXPECT_GE(checked, 80);
  int line = 0;
  auto l = load(scratch().write("misplaced.rules",
                                wrap(arb::lang::construct_def(ConstructId::RoyalSafe), "royal-saf", line)));
  EXPECT_EQ(l->model, nullptr);
  EXPECT_TRUE(has_error_at(l->diags, line, 1, "unknown legality condition `royal-saf`")) << l->diags.render();
  auto m = load(scratch().write("misplaced.rules",
                                wrap(arb::lang::construct_def(ConstructId::Captures), "royal-safe", line)));
  EXPECT_NE(
      m->diags.render().find(":" + std::to_string(line) + ":1: error: unknown piece statement `royal-safe`"),
      std::string::npos)
      << m->diags.render();
}

// The example of the issue: `rampage banana` is refused with a hint showing the form.
TEST(Constructs, RampageBananaIsRefused) {
  auto l = load(scratch().write(
      "r.rules", "ruleset t extends chess\npiece e E {\n  betza \"mW3\"\n  rampage banana\n}\n"));
  EXPECT_EQ(l->model, nullptr);
  ASSERT_TRUE(has_error_at(l->diags, 4, 11, "unexpected `banana`")) << l->diags.render();
  EXPECT_NE(l->diags.render().find("rampage range 1..16"), std::string::npos) << l->diags.render();
}

// A construct a back end does not run is refused by identity, at its use, naming it.
TEST(Constructs, GateRefusesByIdentityAtTheUse) {
  // A bitboard-only construct (the rampage) on the unbounded grid.
  auto path =
      scratch().write("g.rules",
                      "ruleset t extends chess\nboard unbounded\npiece e E {\n  betza \"mW3\"\n  rampage "
                      "range 3\n}\n");
  Diagnostics d;
  auto c = arb::lang::compile_file(path, {}, d);
  EXPECT_EQ(c.program, nullptr);
  // (chess's castling is refused first and carries the hint; this is one more error.)
  bool rampage = false;
  for (const auto& x : d.all())
    rampage = rampage || (x.severity == arb::lang::Severity::Error && x.loc.line == 5 && x.loc.col == 3 &&
                          x.message.find("construct `rampage`") != std::string::npos &&
                          x.message.find("unbounded-grid back end") != std::string::npos);
  EXPECT_TRUE(rampage) << d.render();
  // A bitboard-only construct on the grid and a grid-only one on a bitboard.
  auto grid =
      scratch().write("g2.rules", "ruleset t extends chess\nmove-condition non-capture adjacent-to any\n");
  Diagnostics d2;
  auto c2 = arb::lang::compile_file(grid, {}, d2);  // keeps the sources the diagnostics point into
  EXPECT_EQ(c2.program, nullptr);
  EXPECT_TRUE(has_error_at(d2, 2, 1, "construct `move-condition`")) << d2.render();
  EXPECT_NE(d2.render().find("bitboard back end"), std::string::npos) << d2.render();
}

// The grid back end honours `legal { }` or refuses it: dropping `royal-safe` from ChessMe
// is a located compile error, never a silent change; so is dropping placement's
// `no-promotion` (placements that promote are not executable there).
TEST(Constructs, GridRefusesWhatItDoesNotHonour) {
  std::ifstream in(ruleset_path("chessme"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto without = [&](const std::string& line) {
    std::string t = text;
    auto at = t.find(line);
    EXPECT_NE(at, std::string::npos) << line;
    t.erase(at, line.size());
    return t;
  };
  for (const std::string& drop : {std::string("  royal-safe\n"), std::string("  no-promotion\n")}) {
    Diagnostics d;
    auto c = arb::lang::compile_file(scratch().write("chessme.rules", without(drop)), {}, d);
    EXPECT_EQ(c.program, nullptr) << drop;
    EXPECT_NE(d.render().find(drop.find("royal") != std::string::npos ? "royal-safe" : "no-promotion"),
              std::string::npos)
        << d.render();
  }
  Diagnostics ok;
  auto good = arb::lang::compile_file(scratch().write("chessme.rules", text), {}, ok);
  EXPECT_NE(good.program, nullptr) << ok.render();
}

// A child's statement replaces the parent's uses of the same statement: No Stress Chess's
// empty `legal { }` leaves no `royal-safe` use from chess.
TEST(Constructs, ChildStatementsReplaceTheParentsUses) {
  auto l = load(ruleset_path("nostress"));
  ASSERT_NE(l->model, nullptr) << l->diags.render();
  for (const auto* u : l->model->all_constructs()) EXPECT_NE(u->id, ConstructId::RoyalSafe);
  auto c = load(ruleset_path("chess"));
  ASSERT_NE(c->model, nullptr);
  int royal_safe = 0;
  for (const auto* u : c->model->all_constructs()) royal_safe += u->id == ConstructId::RoyalSafe;
  EXPECT_EQ(royal_safe, 1);
}

// Options may list their values (`one-of`): --set is checked against them, and a word the
// option statement does not know is an error instead of being dropped.
TEST(Constructs, OptionsWithListedValues) {
  Loaded ok;
  ok.model = arb::lang::load_ruleset(ruleset_path("nostress"), {{"level", "advanced"}}, ok.diags, ok.sources);
  ASSERT_NE(ok.model, nullptr) << ok.diags.render();
  EXPECT_EQ(ok.model->option("level")->value, "advanced");
  Loaded bad;
  bad.model =
      arb::lang::load_ruleset(ruleset_path("chess2"), {{"white-army", "reapers"}}, bad.diags, bad.sources);
  EXPECT_EQ(bad.model, nullptr);
  EXPECT_NE(bad.diags.render().find("takes one of classic, nemesis"), std::string::npos)
      << bad.diags.render();
  EXPECT_NE(bad.diags.render().find("did you mean `reaper`?"), std::string::npos) << bad.diags.render();
  auto stray = load(scratch().write("o.rules", "ruleset t extends chess\noption x = 3 \"doc\" banana\n"));
  EXPECT_EQ(stray->model, nullptr);
  EXPECT_TRUE(has_error_at(stray->diags, 2, 20, "unexpected `banana`")) << stray->diags.render();
  auto wrong = load(scratch().write("o.rules", "ruleset t extends chess\noption x = 4 one-of 1 2 3\n"));
  EXPECT_EQ(wrong->model, nullptr);
  EXPECT_TRUE(has_error_at(wrong->diags, 2, 12, "not one of")) << wrong->diags.render();
}

// Issue 23: every argument of the card statements is checked where it stands, with the
// words or form it allows as the hint (a ruleset extending the bundled No Stress Chess).
TEST(Constructs, CardStatementsAreLocatedErrors) {
  const std::string head = "ruleset t extends \"" +
                           ruleset_path("nostress").substr(0, ruleset_path("nostress").size() - 6) + "\"\n";
  struct Case {
    std::string text;
    int line, col;
    std::string part;
  };
  const std::vector<Case> cases = {
      {"hand size banana keep-order\n", 2, 11, "`size` takes a whole number"},
      {"turn {\n  phase banana mandatory\n}\n", 3, 9, "unknown phase `banana`"},
      {"turn {\n  phase draw-card banana\n}\n", 3, 19, "unexpected `banana` in `phase`"},
      {"deck banana\n", 2, 6, "`deck` takes shared"},
      {"deck shared {\n  card pawn P*0\n}\n", 3, 15, "a card count must be 1..99"},
      {"deck shared {\n  card pawn P*100\n}\n", 3, 15, "a card count must be 1..99"},
      {"deck shared {\n  card pawn P\n}\n", 3, 13, "expected `LETTER*COUNT`"},
      {"deck shared {\n  card pawn 7*3\n}\n", 3, 13, "expected a piece letter or `Again`"},
      {"deck shared {\n  card pawn X*3\n}\n", 3, 13, "names no piece of this ruleset"},
      {"deck shared {\n  again banana\n}\n", 3, 9, "unexpected `banana` in `again`"},
      {"redraw-when alike banana\n", 2, 19, "`alike` takes a whole number"},
      {"discard banana\n", 2, 9, "`discard` takes own-pile"},
      {"reshuffle banana\n", 2, 11, "`reshuffle` takes discards"},
  };
  for (const Case& c : cases) {
    Diagnostics d;
    arb::lang::Compiled kept = arb::lang::compile_file(scratch().write("card.rules", head + c.text), {}, d);
    EXPECT_EQ(kept.program, nullptr) << c.text;
    bool found = false;
    for (const auto& x : d.all())
      found = found || (x.severity == arb::lang::Severity::Error && x.loc.line == c.line &&
                        x.loc.col == c.col && x.message.find(c.part) != std::string::npos && !x.hint.empty());
    EXPECT_TRUE(found) << c.text << d.render();
  }
}

// The `records` block: its statements reach the model typed, names are not inherited from
// the parent, and a bad statement is an error at its line:col.
TEST(Constructs, RecordsBlockReachesTheModel) {
  auto l = load(scratch().write("rec.rules", R"(ruleset rec extends chess
option army = one "an option a tag sets" one-of one two
records {
  name "Rec Chess" "rec-chess"
  placement-notation piece-first
  agreement-draws no
  tag Army -> army "1" = one "2" = two
  tag Seed -> seed
}
)"));
  ASSERT_NE(l->model, nullptr) << l->diags.render();
  const auto& rf = l->model->records;
  EXPECT_EQ(rf.names, (std::vector<std::string>{"Rec Chess", "rec-chess"}));
  EXPECT_EQ(rf.names_of, "rec");
  EXPECT_TRUE(rf.piece_first);
  EXPECT_FALSE(rf.agreement_draws);
  ASSERT_EQ(rf.tags.size(), 2u);
  EXPECT_EQ(rf.tags[0].tag, "Army");
  EXPECT_EQ(rf.tags[0].target, "army");
  EXPECT_EQ(rf.tags[0].values,
            (std::vector<std::pair<std::string, std::string>>{{"1", "one"}, {"2", "two"}}));
  EXPECT_EQ(rf.tags[1].target, "seed");
  // A child without a block of its own inherits the parent's facts, not its names' owner.
  auto child = load(scratch().write("child.rules", "ruleset child extends chess\n"));
  ASSERT_NE(child->model, nullptr);
  EXPECT_TRUE(child->model->records.agreement_draws);
  EXPECT_EQ(child->model->records.names_of, "chess");
  // Errors at their place, with a hint.
  auto bad =
      load(scratch().write("bad.rules", "ruleset bad extends chess\nrecords {\n  tag Level -> nosuch\n}\n"));
  EXPECT_EQ(bad->model, nullptr);
  EXPECT_TRUE(has_error_at(bad->diags, 3, 16, "no option")) << bad->diags.render();
  auto bad2 = load(scratch().write("bad2.rules", "ruleset bad extends chess\nrecords {\n  names \"x\"\n}\n"));
  EXPECT_EQ(bad2->model, nullptr);
  EXPECT_FALSE(bad2->diags.render().find("3:3") == std::string::npos) << bad2->diags.render();
}
