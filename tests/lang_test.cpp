// Tests of the ruleset language front end: lexer, parser, semantic checks and compiler
// diagnostics (file:line:col, hints, the caret line, every error of a file reported), the
// bundled rulesets, `--set` overrides, and that a ruleset's text changes what the
// compiled generator does (a chess child promoting only to a queen).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "arbiter/lang/betza.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"
#include "arbiter/lang/syntax.hpp"
#include "arbiter/perft_suite.hpp"
#include "helpers.hpp"

namespace {

using namespace testing_helpers;
using arb::lang::Diagnostic;
using arb::lang::Diagnostics;
using arb::lang::Severity;

// One load (and optionally compile) of a ruleset file, keeping everything alive.
struct Loaded {
  Diagnostics diags;
  arb::lang::Compiled compiled;
};

std::unique_ptr<Loaded> compile_path(const std::string& path,
                                     const std::map<std::string, std::string>& sets = {}) {
  auto l = std::make_unique<Loaded>();
  l->compiled = arb::lang::compile_file(path, sets, l->diags);
  return l;
}

std::unique_ptr<Loaded> load_only(const std::string& path,
                                  const std::map<std::string, std::string>& sets = {}) {
  auto l = std::make_unique<Loaded>();
  l->compiled.model = arb::lang::load_ruleset(path, sets, l->diags, l->compiled.sources);
  return l;
}

std::string file_name(const Diagnostic& d) {
  return d.loc.src ? std::filesystem::path(d.loc.src->path).filename().string() : std::string("<none>");
}

// The error at exactly line:col whose message contains `text`, or nullptr.
const Diagnostic* find_error(const Diagnostics& diags, int line, int col, const std::string& text) {
  for (const Diagnostic& d : diags.all())
    if (d.severity == Severity::Error && d.loc.line == line && d.loc.col == col &&
        d.message.find(text) != std::string::npos)
      return &d;
  return nullptr;
}

const Diagnostic* find_error(const Diagnostics& diags, const std::string& text) {
  for (const Diagnostic& d : diags.all())
    if (d.severity == Severity::Error && d.message.find(text) != std::string::npos) return &d;
  return nullptr;
}

// ---------------------------------------------------------------------------------------
// The bundled rulesets.

TEST(LangBundled, ChessAndChessemblyCompile) {
  for (const char* v : {"chess", "chessembly"}) {
    auto l = compile_path(ruleset_path(v));
    EXPECT_FALSE(l->diags.has_errors()) << v << ":\n" << l->diags.render();
    EXPECT_EQ(l->diags.error_count(), 0) << v;
    ASSERT_NE(l->compiled.model, nullptr) << v;
    ASSERT_NE(l->compiled.program, nullptr) << v;
    EXPECT_EQ(l->compiled.model->name, v);
    EXPECT_EQ(l->compiled.program->variant, v);
    EXPECT_EQ(l->compiled.program->letters, "KQRBNP") << v;
  }
  auto chess = compile_path(ruleset_path("chess"));
  const auto& p = *chess->compiled.program;
  EXPECT_EQ(p.title, "Standard chess");
  EXPECT_TRUE(p.castling);
  EXPECT_FALSE(p.has_reserve);
  EXPECT_EQ(p.start_text, kChessStart);
  EXPECT_EQ(p.claim_repetition, 3);
  EXPECT_EQ(p.claim_fifty, 100);
  EXPECT_TRUE(p.insufficient_draw);
  EXPECT_TRUE(chess->compiled.model->lineage.empty());

  auto embly = compile_path(ruleset_path("chessembly"));
  const auto& q = *embly->compiled.program;
  EXPECT_EQ(q.title, "Chessembly");
  EXPECT_FALSE(q.castling);
  EXPECT_TRUE(q.has_reserve);
  EXPECT_TRUE(q.action_move);
  EXPECT_TRUE(q.action_place);
  EXPECT_TRUE(q.place_first_royal);
  EXPECT_TRUE(q.royals_apart);
  EXPECT_TRUE(q.insufficient_needs_empty_reserves);
  EXPECT_EQ(q.start_text, kChessemblyStart);
  EXPECT_EQ(embly->compiled.model->lineage, std::vector<std::string>{"chess"});
}

// ChessMe runs on the compiled generator's unbounded-grid back end.
TEST(LangBundled, ChessMeCompilesForTheGrid) {
  auto l = compile_path(ruleset_path("chessme"));
  EXPECT_FALSE(l->diags.has_errors()) << l->diags.render();
  ASSERT_NE(l->compiled.program, nullptr) << l->diags.render();
  EXPECT_EQ(l->compiled.model->name, "chessme");
  EXPECT_TRUE(l->compiled.model->unbounded);
  ASSERT_NE(l->compiled.program->grid, nullptr);
  EXPECT_TRUE(l->compiled.program->grid->pile_shuffled);
  auto e = arb::lang::make_compiled_engine(l->compiled.program);
  EXPECT_EQ(e->name(), "compiled:chessme");
  // The seed option reaches the start (RULINGS 2.3): seed 2 deals other hands than seed 1.
  auto l2 = compile_path(ruleset_path("chessme"), {{"seed", "2"}});
  ASSERT_NE(l2->compiled.program, nullptr) << l2->diags.render();
  EXPECT_NE(arb::lang::make_compiled_engine(l2->compiled.program)->position(), e->position());
}

// A ruleset stated in the language (it loads and checks) that uses a construct the
// generator cannot run: an explosion that must remove at least one piece
// (`remove-around ... when capture at-least 1`).
// compile() fails, and every error names it as `not executable yet` at a file and line.
std::string unexecutable_path(const std::string& variant) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("arbiter-lang-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(ruleset_path("chess"), dir / "chess.rules", fs::copy_options::overwrite_existing);
  std::ofstream(dir / (variant + ".rules")) << "ruleset " << variant
                                            << " extends chess\n"
                                               "piece bomber X {\n"
                                               "  betza \"K\"\n"
                                               "  remove-around radius 1 when capture at-least 1\n"
                                               "}\n";
  return (dir / (variant + ".rules")).string();
}

class LangUnexecutable : public ::testing::TestWithParam<const char*> {};

TEST_P(LangUnexecutable, LoadsButDoesNotCompile) {
  const std::string variant = GetParam();
  const std::string path = unexecutable_path(variant);
  auto loaded = load_only(path, {});
  ASSERT_NE(loaded->compiled.model, nullptr) << variant << " does not load:\n" << loaded->diags.render();
  EXPECT_EQ(loaded->diags.error_count(), 0) << loaded->diags.render();
  EXPECT_EQ(loaded->compiled.model->name, variant);

  Diagnostics diags;
  auto program = arb::lang::compile(*loaded->compiled.model, diags);
  EXPECT_TRUE(program == nullptr) << variant;
  ASSERT_TRUE(diags.has_errors()) << variant;
  for (const Diagnostic& d : diags.all()) {
    if (d.severity != Severity::Error) continue;
    EXPECT_NE(d.message.find("not executable yet"), std::string::npos) << variant << ": " << d.message;
    ASSERT_NE(d.loc.src, nullptr) << variant << ": " << d.message;
    EXPECT_GT(d.loc.line, 0) << d.message;
    EXPECT_GT(d.loc.col, 0) << d.message;
    std::string file = file_name(d);
    EXPECT_TRUE(file == variant + ".rules" || file == "chess.rules") << file << ": " << d.message;
  }
  std::string text = diags.render();
  EXPECT_NE(text.find(variant + ".rules:4:"), std::string::npos) << text;

  // compile_file gives the same answer in one call: a model, no program.
  auto all = compile_path(path, {});
  EXPECT_NE(all->compiled.model, nullptr);
  EXPECT_TRUE(all->compiled.program == nullptr);
  EXPECT_EQ(all->diags.error_count(), diags.error_count());
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

INSTANTIATE_TEST_SUITE_P(Drafts, LangUnexecutable, ::testing::Values("explosion"),
                         [](const auto& info) { return std::string(info.param); });

TEST(LangBundled, ChessTwoCompilesForEveryArmy) {
  // Chess 2 compiles for all six armies (RULINGS 4.1), each against each.
  for (const char* w : {"classic", "nemesis", "empowered", "reaper", "two-kings", "animals"})
    for (const char* b : {"classic", "two-kings", "animals"}) {
      auto l = compile_path(ruleset_path("chess2"), {{"white-army", w}, {"black-army", b}});
      EXPECT_NE(l->compiled.program, nullptr) << w << "/" << b << "\n" << l->diags.render();
    }
}

// The `expect` blocks of the executable rulesets hold on the compiled generator (what
// `arbiter test` runs), and a child's expectations replace its parent's.
TEST(LangBundled, ExpectationsOfTheRulesetsHold) {
  const std::map<std::string, size_t> counts = {
      {"chess", 2}, {"chessembly", 2}, {"chessme", 8}, {"capablanca", 5}, {"nostress", 5}};
  for (const auto& [v, count] : counts) {
    auto l = compile_path(ruleset_path(v));
    ASSERT_NE(l->compiled.program, nullptr) << l->diags.render();
    const auto& expects = l->compiled.model->expects;
    EXPECT_EQ(expects.size(), count) << v;
    for (const auto& ex : expects) {
      auto e = arb::lang::make_compiled_engine(l->compiled.program);
      const std::string where = v + ".rules:" + std::to_string(ex.loc.line);
      if (!ex.position.empty()) e->set_position(ex.position);
      if (ex.kind == "perft") {
        EXPECT_EQ(e->perft(ex.depth), ex.nodes) << where;
      } else if (ex.kind == "status") {
        EXPECT_EQ(e->status().reason, ex.text == "ongoing" ? "" : ex.text) << where;
      } else if (ex.kind == "legal" || ex.kind == "illegal") {
        EXPECT_EQ(arb::parse_action(*e, ex.text).has_value(), ex.kind == "legal") << where << ": " << ex.text;
      } else {
        ADD_FAILURE() << where << ": unexpected expectation kind " << ex.kind;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Diagnostics of bad rulesets, each at its exact line:col.

// A small valid ruleset to damage (8x8, kings and rooks).
const char* kMini =
    "ruleset mini\n"                                   // 1
    "board 8 x 8\n"                                    // 2
    "piece king K { betza \"K\"; royal }\n"            // 3
    "piece rook R { betza \"R\" }\n"                   // 4
    "setup \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"\n"       // 5
    "legal { royal-safe }\n"                           // 6
    "end { checkmate -> loss; stalemate -> draw }\n";  // 7

TEST(LangDiagnostics, TheMiniRulesetCompilesAndRuns) {
  TempDir dir;
  auto l = compile_path(dir.write("mini.rules", kMini));
  ASSERT_NE(l->compiled.program, nullptr) << l->diags.render();
  EXPECT_TRUE(l->diags.all().empty()) << l->diags.render();
  auto e = arb::lang::make_compiled_engine(l->compiled.program);
  EXPECT_EQ(e->name(), "compiled:mini");
  EXPECT_EQ(e->position(), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  // King: 5 squares; rook: a2..a8 (7) and b1..d1 (3).
  EXPECT_EQ(e->perft(1), 15u);
}

TEST(LangDiagnostics, UnknownKeywordWithDidYouMean) {
  TempDir dir;
  std::string text = kMini;
  text.replace(text.find("piece king"), 5, "peice");
  auto l = compile_path(dir.write("typo.rules", text));
  EXPECT_TRUE(l->compiled.model == nullptr);
  const Diagnostic* d = find_error(l->diags, 3, 1, "unknown statement `peice`");
  ASSERT_NE(d, nullptr) << l->diags.render();
  EXPECT_EQ(d->hint, "did you mean `piece`?");
  EXPECT_EQ(file_name(*d), "typo.rules");
  EXPECT_EQ(d->loc.len, 5);

  // Inside a block: the vocabulary of that block.
  std::string text2 = kMini;
  text2.replace(text2.find("royal }"), 5, "royall");
  auto l2 = compile_path(dir.write("typo2.rules", text2));
  const Diagnostic* d2 = find_error(l2->diags, 3, 27, "unknown piece statement `royall`");
  ASSERT_NE(d2, nullptr) << l2->diags.render();
  EXPECT_EQ(d2->hint, "did you mean `royal`?");

  // A result word in `end`.
  std::string text3 = kMini;
  text3.replace(text3.find("-> loss"), 7, "-> lose");
  auto l3 = compile_path(dir.write("typo3.rules", text3));
  const Diagnostic* d3 = find_error(l3->diags, 7, 20, "unknown result `lose`");
  ASSERT_NE(d3, nullptr) << l3->diags.render();
  EXPECT_EQ(d3->hint, "did you mean `loss`?");

  // No near match.
  std::string text4 = kMini;
  text4.replace(text4.find("board"), 5, "xyzzyq");
  auto l4 = compile_path(dir.write("typo4.rules", text4));
  const Diagnostic* d4 = find_error(l4->diags, 2, 1, "unknown statement `xyzzyq`");
  ASSERT_NE(d4, nullptr) << l4->diags.render();
  // Nothing close: the hint lists the words allowed there (issue 29).
  EXPECT_EQ(d4->hint.rfind("expected one of ", 0), 0u) << d4->hint;
  EXPECT_NE(d4->hint.find("`board`"), std::string::npos) << d4->hint;
  EXPECT_NE(d4->hint.find("`piece`"), std::string::npos) << d4->hint;
  EXPECT_NE(d4->hint.find("`title`"), std::string::npos) << d4->hint;  // the whole list, not cut short
  EXPECT_EQ(d4->hint.find("..."), std::string::npos) << d4->hint;
}

TEST(LangDiagnostics, BadBetzaIsReportedAtTheBadCharacter) {
  TempDir dir;
  struct Case {
    const char* betza;
    int bad_offset;  // 0-based, in the Betza text
    const char* message;
  };
  const std::vector<Case> cases = {
      {"fmQx", 3, "modifiers without an atom"},
      {"Rq", 1, "unknown Betza modifier `q`"},
      {"fmX", 2, "unknown Betza atom `X`"},
      {"fmWfcFk", 6, "unknown Betza modifier `k`"},
  };
  for (const Case& c : cases) {
    std::string text = kMini;
    text.replace(text.find("betza \"R\""), 9, std::string("betza \"") + c.betza + "\"");
    auto l = compile_path(dir.write("betza.rules", text));
    EXPECT_TRUE(l->compiled.model == nullptr) << c.betza;
    // Line 4 is `piece rook R { betza "..." }`: the quote is column 22, the text starts at 23.
    const Diagnostic* d = find_error(l->diags, 4, 23 + c.bad_offset, c.message);
    EXPECT_NE(d, nullptr) << c.betza << ":\n" << l->diags.render();
    if (d) {
      EXPECT_EQ(d->loc.len, 1);
    }
  }
  // Lame leaps must be straight; the error points at the start of the group.
  std::string text = kMini;
  text.replace(text.find("betza \"R\""), 9, "betza \"RnC\"");
  auto l = compile_path(dir.write("lame.rules", text));
  EXPECT_NE(find_error(l->diags, 4, 24, "lame (`n`) needs a straight leap"), nullptr) << l->diags.render();
}

TEST(LangDiagnostics, SetOverrides) {
  const std::string chess = ruleset_path("chess");
  // An unknown option: named, with a hint; it is a command-line error (no file location).
  {
    auto l = compile_path(chess, {{"fifty-mov", "10"}});
    EXPECT_TRUE(l->compiled.model == nullptr);
    const Diagnostic* d = find_error(l->diags, "--set fifty-mov=10: the ruleset has no option `fifty-mov`");
    ASSERT_NE(d, nullptr) << l->diags.render();
    EXPECT_EQ(d->hint, "did you mean `fifty-move`?");
    EXPECT_EQ(d->loc.src, nullptr);
  }
  // A value of the wrong kind: reported at the option's default in chess.rules, 11:21.
  {
    auto l = compile_path(chess, {{"fifty-move", "many"}});
    EXPECT_TRUE(l->compiled.model == nullptr);
    const Diagnostic* d = find_error(l->diags, 11, 21, "--set fifty-move=many: this option takes a number");
    ASSERT_NE(d, nullptr) << l->diags.render();
    EXPECT_EQ(file_name(*d), "chess.rules");
  }
  {
    auto l = compile_path(ruleset_path("nostress"), {{"setup-advanced-pawns", "maybe"}});
    EXPECT_NE(find_error(l->diags, 12, 31, "this option takes true or false"), nullptr) << l->diags.render();
  }
  // A good override reaches the program, through a child ruleset too.
  for (const char* v : {"chess", "chessembly"}) {
    auto l = compile_path(ruleset_path(v), {{"fifty-move", "10"}, {"repetition", "2"}});
    ASSERT_NE(l->compiled.program, nullptr) << l->diags.render();
    EXPECT_EQ(l->compiled.program->claim_fifty, 10) << v;
    EXPECT_EQ(l->compiled.program->claim_repetition, 2) << v;
    EXPECT_EQ(l->compiled.model->option("fifty-move")->value, "10");
  }
  auto l = compile_path(chess, {{"fifty-move", "10"}, {"repetition", "2"}});
  auto e = arb::lang::make_compiled_engine(l->compiled.program);
  e->set_position("4k3/8/8/8/8/8/8/R3K3 w - - 9 40");
  EXPECT_FALSE(e->status().claim_fifty);
  ASSERT_TRUE(play(*e, "a1a2"));
  EXPECT_TRUE(e->status().claim_fifty);
  ASSERT_TRUE(play(*e, "e8d8"));
  ASSERT_TRUE(play(*e, "a2a1"));
  ASSERT_TRUE(play(*e, "d8e8"));
  EXPECT_TRUE(e->status().claim_threefold);  // twice is enough with repetition=2
}

TEST(LangDiagnostics, UnterminatedString) {
  TempDir dir;
  std::string text = kMini;
  text.insert(text.find("board"), "title \"Mini\n");  // line 2 becomes the title
  auto l = compile_path(dir.write("string.rules", text));
  EXPECT_TRUE(l->compiled.model == nullptr);
  const Diagnostic* d = find_error(l->diags, 2, 7, "unterminated string");
  ASSERT_NE(d, nullptr) << l->diags.render();
  EXPECT_NE(d->hint.find("close it"), std::string::npos);
  // The lexer goes on at the next line: the rest of the file is still read.
  EXPECT_EQ(l->diags.error_count(), 1) << l->diags.render();
}

TEST(LangDiagnostics, MissingClosingBrace) {
  TempDir dir;
  const std::string text =
      "ruleset brace\n"               // 1
      "piece king K {\n"              // 2
      "  betza \"K\"\n"               // 3
      "  royal\n"                     // 4
      "end { checkmate -> loss }\n";  // 5
  auto l = compile_path(dir.write("brace.rules", text));
  EXPECT_TRUE(l->compiled.model == nullptr);
  // Reported at the brace left open (line 2, column 14), not at the end of the file
  // (issue 29), with where the block's indentation ends.
  const Diagnostic* d = find_error(l->diags, 2, 14, "this `{` is never closed");
  ASSERT_NE(d, nullptr) << l->diags.render();
  EXPECT_EQ(d->hint, "add `}` before line 5, where the indentation returns to that of line 2");
  // The `end` statement after it is read where it is written: no follow-on error, so the
  // brace is the only one.
  EXPECT_EQ(l->diags.error_count(), 1) << l->diags.render();
  // A block left open whose statements are not indented: still reported at its brace,
  // read to the end of the file.
  auto flat = compile_path(dir.write("flat.rules", "ruleset flat\npiece king K {\nbetza \"K\"\n"));
  const Diagnostic* f = find_error(flat->diags, 2, 14, "this `{` is never closed");
  ASSERT_NE(f, nullptr) << flat->diags.render();
  EXPECT_EQ(f->hint, "add `}` where its block ends (the file ends inside it)");
  // The inner of two nested blocks left open: each is named at its own brace; the one
  // closed later in the file is matched by its `}`.
  auto nested = compile_path(dir.write("nested.rules",
                                       "ruleset nested\n"  // 1
                                       "piece king K {\n"  // 2
                                       "  betza \"K\"\n"   // 3
                                       "piece rook R {\n"  // 4
                                       "  betza \"R\"\n"   // 5
                                       "}\n"               // 6
                                       "end { checkmate -> loss }\n"));
  EXPECT_NE(find_error(nested->diags, 2, 14, "this `{` is never closed"), nullptr) << nested->diags.render();
  EXPECT_EQ(find_error(nested->diags, 4, 1, "unknown piece statement"), nullptr) << nested->diags.render();
  // An unmatched `}` is reported where it stands.
  auto l2 = compile_path(dir.write("extra.rules", std::string(kMini) + "}\n"));
  EXPECT_NE(find_error(l2->diags, 8, 1, "unmatched `}`"), nullptr) << l2->diags.render();
}

// The caret stands under the column as the terminal shows the line: one blank per UTF-8
// character, four per byte the command writes escaped as `\xNN` (issue 29: it stood
// three columns left of an escape character's neighbour).
TEST(LangDiagnostics, CaretUnderEscapedAndWideCharacters) {
  TempDir dir;
  auto l = compile_path(dir.write("utf8.rules", "ruleset t\ntitle \"\xc3\xa9\" %\n"));
  std::string r = l->diags.render();
  EXPECT_NE(r.find("utf8.rules:2:12: error: unexpected character `%`\n  title \"\xc3\xa9\" %\n" +
                   std::string(2 + 10, ' ') + "^\n"),
            std::string::npos)
      << r;
  auto e = compile_path(dir.write("esc.rules", "ruleset t\ntitle \"\x1b\" %\n"));
  r = e->diags.render();
  EXPECT_NE(r.find("esc.rules:2:11: error: unexpected character `%`\n  title \"\x1b\" %\n" +
                   std::string(2 + 9 + 4, ' ') + "^\n"),
            std::string::npos)
      << r;
}

TEST(LangDiagnostics, ExtendsAMissingParent) {
  TempDir dir;
  auto l = compile_path(dir.write("orphan.rules", "ruleset orphan extends nosuchparent\n"));
  EXPECT_TRUE(l->compiled.model == nullptr);
  const Diagnostic* d = find_error(l->diags, 1, 24, "cannot find the parent ruleset `nosuchparent`");
  ASSERT_NE(d, nullptr) << l->diags.render();
  EXPECT_EQ(file_name(*d), "orphan.rules");
  EXPECT_EQ(d->loc.len, 12);
  // A cycle of `extends` is an error too, not a hang.
  dir.write("a.rules", "ruleset a extends b\n");
  dir.write("b.rules", "ruleset b extends a\n");
  auto c = compile_path(dir.path() + "/a.rules");
  EXPECT_TRUE(c->compiled.model == nullptr);
  EXPECT_NE(find_error(c->diags, "forms a cycle"), nullptr) << c->diags.render();
  // A file that does not exist.
  auto m = compile_path(dir.path() + "/missing.rules");
  EXPECT_TRUE(m->compiled.model == nullptr);
  EXPECT_NE(find_error(m->diags, "cannot read ruleset file"), nullptr) << m->diags.render();
}

// `extends NAME` (lang/search_path.hpp): the file's own folder, then $ARBITER_RULESETS
// (colon-separated), then the installed and the bundled rulesets.
TEST(LangSearchPath, ParentsAreFoundBesideTheFileThenAlongTheSearchPath) {
  TempDir dir;
  // A designer's folder outside the repository: `extends chess` reaches the bundled chess.
  auto l = compile_path(dir.write("mine.rules", "ruleset mine extends chess\ntitle \"Mine\"\n"));
  ASSERT_TRUE(l->compiled.program != nullptr) << l->diags.render();
  EXPECT_EQ(l->compiled.model->lineage.front(), "chess");
  // A file beside it of the same name as a bundled one wins over the bundled one.
  dir.write("chess.rules", "ruleset chess extends nosuchparent\n");
  auto shadow = compile_path(dir.path() + "/mine.rules");
  EXPECT_TRUE(shadow->compiled.model == nullptr);
  EXPECT_NE(find_error(shadow->diags, "cannot find the parent ruleset `nosuchparent`"), nullptr)
      << shadow->diags.render();
  // A parent in a folder named by ARBITER_RULESETS (the second of two folders).
  TempDir lib, other;
  lib.write("base.rules", "ruleset base extends chess\nboard 8 x 8\n");
  TempDir work;
  std::string child = work.write("child.rules", "ruleset child extends base\n");
  auto missing = compile_path(child);
  ASSERT_TRUE(missing->compiled.model == nullptr);
  const Diagnostic* d = find_error(missing->diags, 1, 23, "cannot find the parent ruleset `base`");
  ASSERT_NE(d, nullptr) << missing->diags.render();
  EXPECT_NE(d->message.find(work.path()), std::string::npos)
      << d->message;  // the folders looked in are named
  ASSERT_EQ(setenv("ARBITER_RULESETS", (other.path() + ":" + lib.path()).c_str(), 1), 0);
  auto found = compile_path(child);
  unsetenv("ARBITER_RULESETS");
  ASSERT_TRUE(found->compiled.program != nullptr) << found->diags.render();
  ASSERT_EQ(found->compiled.model->lineage.size(), 2u);
  EXPECT_EQ(found->compiled.model->lineage[0], "base");  // nearest first
  EXPECT_EQ(found->compiled.model->lineage[1], "chess");
}

TEST(LangDiagnostics, EveryErrorOfAFileIsReported) {
  TempDir dir;
  const std::string text =
      "ruleset many\n"                                // 1
      "boardd 8 x 8\n"                                // 2
      "piece king K { betza \"K\"; royal }\n"         // 3
      "piece rook R { betza \"Rq\" }\n"               // 4
      "piece bishop b { betza \"B\" }\n"              // 5
      "setup 12\n"                                    // 6
      "end { checkmate -> loose; stalemate draw }\n"  // 7
      "%\n";                                          // 8
  auto l = compile_path(dir.write("many.rules", text));
  EXPECT_TRUE(l->compiled.model == nullptr);
  EXPECT_GE(l->diags.error_count(), 3) << l->diags.render();
  EXPECT_NE(find_error(l->diags, 2, 1, "unknown statement `boardd`"), nullptr) << l->diags.render();
  EXPECT_NE(find_error(l->diags, 4, 24, "unknown Betza modifier `q`"), nullptr) << l->diags.render();
  EXPECT_NE(find_error(l->diags, 5, 14, "expected a piece letter"), nullptr) << l->diags.render();
  EXPECT_NE(find_error(l->diags, 6, 1, "`setup` takes"), nullptr) << l->diags.render();
  EXPECT_NE(find_error(l->diags, 7, 20, "unknown result `loose`"), nullptr) << l->diags.render();
  EXPECT_NE(find_error(l->diags, 7, 27, "an end condition needs `-> RESULT`"), nullptr) << l->diags.render();
  EXPECT_NE(find_error(l->diags, 8, 1, "unexpected character `%`"), nullptr) << l->diags.render();
  // Errors from every stage, in one Diagnostics.
  EXPECT_GE(l->diags.error_count(), 7);
}

TEST(LangDiagnostics, RenderShowsTheSourceLineAndACaret) {
  TempDir dir;
  std::string text = kMini;
  text.replace(text.find("piece king"), 5, "peice");
  auto l = compile_path(dir.write("typo.rules", text));
  std::string r = l->diags.render();
  std::string expected = dir.path() +
                         "/typo.rules:3:1: error: unknown statement `peice`\n"
                         "  peice king K { betza \"K\"; royal }\n"
                         "  ^~~~~\n"
                         "  hint: did you mean `piece`?\n";
  EXPECT_NE(r.find(expected), std::string::npos) << r;

  // A caret in the middle of a line, one character wide (the bad Betza character).
  std::string text2 = kMini;
  text2.replace(text2.find("betza \"R\""), 9, "betza \"fmQx\"");
  auto l2 = compile_path(dir.write("caret.rules", text2));
  std::string r2 = l2->diags.render();
  std::string expected2 =
      "/caret.rules:4:26: error: modifiers without an atom\n"
      "  piece rook R { betza \"fmQx\" }\n" +
      std::string(2 + 25, ' ') + "^\n";
  EXPECT_NE(r2.find(expected2), std::string::npos) << r2;

  // Without a location (a --set error) there is no file prefix and no caret line.
  auto l3 = compile_path(ruleset_path("chess"), {{"nope", "1"}});
  EXPECT_NE(l3->diags.render().find("error: --set nope=1: the ruleset has no option `nope`\n"),
            std::string::npos)
      << l3->diags.render();
}

// Regression (found by this test, fixed in lang/): the compiler does not check the start position.
// Reproducer: a ruleset whose `setup` text is no valid position, e.g. the mini ruleset with
//   setup "4k3/8/8/8/8/8/8/R3K3 x"
// passes `arbiter check` ("ok ... executable by the compiled generator", exit 0), and then
// make_compiled_engine() throws arb::PositionError from the generator's constructor, so
// `arbiter perft --rules FILE --depth 1` fails with "side to move must be 'w' or 'b'"
// and no file:line:col. The error belongs at the `setup` statement (line 5).
TEST(LangDiagnostics, BadSetupTextIsACompileErrorAtTheSetupLine) {
  TempDir dir;
  std::string text = kMini;
  text.replace(text.find("R3K3 w - - 0 1"), 14, "R3K3 x");
  auto l = compile_path(dir.write("setup.rules", text));
  EXPECT_TRUE(l->compiled.program == nullptr) << "compile accepted a start position the generator rejects";
  bool at_setup = false;
  for (const Diagnostic& d : l->diags.all()) at_setup |= d.severity == Severity::Error && d.loc.line == 5;
  EXPECT_TRUE(at_setup) << l->diags.render();
  if (l->compiled.program) {
    EXPECT_THROW(arb::lang::make_compiled_engine(l->compiled.program), arb::PositionError);
  }
}

// Regression (found by this test, fixed in lang/): same class as above for reserves. `reserve K P*40`
// compiles (and `arbiter check` says ok), but the generator refuses more than 32 pieces
// of a type in a reserve and make_compiled_engine() throws PositionError("more than 32
// pieces of one type in a reserve"). Either the compiler reports it at the `reserve` line
// or the engine accepts it (both hold up to 256 now: Reversi's hands hold 60 and 96).
TEST(LangDiagnostics, ReserveTheGeneratorCannotHoldIsReportedAtCompileTime) {
  TempDir dir;
  const std::string text =
      "ruleset res\n"                                    // 1
      "piece king K { betza \"K\"; royal }\n"            // 2
      "piece pawn P { betza \"fmW\" }\n"                 // 3
      "setup empty\n"                                    // 4
      "reserve K P*40\n"                                 // 5
      "turn { action move or place }\n"                  // 6
      "legal { royal-safe }\n"                           // 7
      "end { checkmate -> loss; stalemate -> draw }\n";  // 8
  auto l = compile_path(dir.write("reserve.rules", text));
  if (l->compiled.program) {
    EXPECT_NO_THROW(arb::lang::make_compiled_engine(l->compiled.program))
        << "compile accepted a reserve the generator rejects";
  } else {
    EXPECT_NE(find_error(l->diags, "reserve"), nullptr) << l->diags.render();
  }
}

// Regression (found by this test, fixed in lang/): a range literal whose bound does not fit in a long long
// makes the lexer's std::stoll throw std::out_of_range out of load_ruleset, instead of a
// diagnostic (plain numbers get "number too large"). Reproducer:
//   piece king K { betza "K"; royal; initial ranks 1..99999999999999999999 }
// `arbiter check FILE` prints "arbiter check: stoll" and no file:line:col.
TEST(LangDiagnostics, HugeRangeBoundIsADiagnosticNotAnException) {
  TempDir dir;
  const std::string path =
      dir.write("range.rules",
                "ruleset range\n"
                "piece king K { betza \"K\"; royal; initial ranks 1..99999999999999999999 }\n"
                "end { checkmate -> loss }\n");
  std::unique_ptr<Loaded> l;
  ASSERT_NO_THROW(l = compile_path(path));
  EXPECT_TRUE(l->compiled.model == nullptr);
  bool on_line_2 = false;
  for (const Diagnostic& d : l->diags.all()) on_line_2 |= d.severity == Severity::Error && d.loc.line == 2;
  EXPECT_TRUE(on_line_2) << l->diags.render();
  // Plain numbers are already guarded.
  const std::string path2 = dir.write("number.rules",
                                      "ruleset number\n"
                                      "board 99999999999999999999 x 8\n"
                                      "end { checkmate -> loss }\n");
  std::unique_ptr<Loaded> l2;
  ASSERT_NO_THROW(l2 = compile_path(path2));
  EXPECT_NE(find_error(l2->diags, 2, 7, "number too large"), nullptr) << l2->diags.render();
}

TEST(LangDiagnostics, CrlfLinesTabsOptionReferencesAndHeaders) {
  TempDir dir;
  // CRLF line ends: the same line:col, and the rendered line has no carriage return.
  std::string crlf;
  std::string text = kMini;
  text.replace(text.find("piece king"), 5, "peice");
  for (char c : text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  auto l = compile_path(dir.write("crlf.rules", crlf));
  const Diagnostic* d = find_error(l->diags, 3, 1, "unknown statement `peice`");
  ASSERT_NE(d, nullptr) << l->diags.render();
  EXPECT_EQ(l->diags.render().find('\r'), std::string::npos);

  // A tab before the keyword: column 2, and the caret line keeps the tab.
  std::string tabbed = kMini;
  tabbed.replace(tabbed.find("piece king"), 5, "\tpeice");
  auto t = compile_path(dir.write("tab.rules", tabbed));
  ASSERT_NE(find_error(t->diags, 3, 2, "unknown statement `peice`"), nullptr) << t->diags.render();
  EXPECT_NE(t->diags.render().find("\n  \tpeice king K { betza \"K\"; royal }\n  \t^~~~~\n"),
            std::string::npos)
      << t->diags.render();

  // `$NAME` refers to an option; a misspelt one is reported where it is used, with a hint.
  std::string opt = kMini;
  opt.insert(opt.find("piece rook"), "option home = 2\npiece pawn P { betza \"fmW\"; initial ranks $hom }\n");
  auto o = compile_path(dir.write("opt.rules", opt));
  const Diagnostic* od = find_error(o->diags, 5, 43, "unknown option `hom`");
  ASSERT_NE(od, nullptr) << o->diags.render();
  EXPECT_EQ(od->hint, "did you mean `home`?");
  std::string good = opt;
  good.replace(good.find("$hom"), 4, "$home");
  auto g = compile_path(dir.write("good.rules", good));
  ASSERT_NE(g->compiled.model, nullptr) << g->diags.render();
  const auto* pawn = g->compiled.model->piece('P');
  ASSERT_NE(pawn, nullptr);
  ASSERT_TRUE(pawn->initial_ranks.has_value());
  EXPECT_EQ(pawn->initial_ranks->lo, 2);
  EXPECT_EQ(pawn->initial_ranks->hi, 2);

  // One ruleset per file; a file must start with one.
  auto two = compile_path(dir.write("two.rules", std::string(kMini) + "ruleset again\n"));
  EXPECT_NE(find_error(two->diags, 8, 1, "a second `ruleset` statement"), nullptr) << two->diags.render();
  auto none = compile_path(dir.write("none.rules", "board 8 x 8\n"));
  EXPECT_NE(find_error(none->diags, 1, 1, "the file does not start with `ruleset NAME`"), nullptr)
      << none->diags.render();
}

TEST(LangDiagnostics, DidYouMeanPicksTheClosestCandidate) {
  EXPECT_EQ(arb::lang::closest("peice", {"piece", "pile", "place"}), "piece");
  EXPECT_EQ(arb::lang::closest("royall", {"royal", "royal-safe"}), "royal");
  EXPECT_EQ(arb::lang::closest("zzzzzz", {"piece", "board"}), "");
  EXPECT_EQ(arb::lang::did_you_mean("boad", {"board"}), "did you mean `board`?");
  EXPECT_EQ(arb::lang::did_you_mean("qqqqqqq", {"board"}), "");
  EXPECT_EQ(arb::lang::did_you_mean_or_list("qqqqqqq", {"piece", "board", "piece"}),
            "expected one of `board`, `piece`");
  EXPECT_EQ(arb::lang::did_you_mean_or_list("boad", {"board"}), "did you mean `board`?");
}

// ---------------------------------------------------------------------------------------
// Parser and Betza units.

TEST(LangParser, StatementsArgumentsAndBlocks) {
  arb::lang::Source src("x.rules",
                        "piece pawn P { betza \"fmW\"; initial ranks 1..2 }\n"
                        "option n = -3 \"doc\"\n"
                        "end { checkmate -> loss }  # comment\n");
  Diagnostics diags;
  auto stmts = arb::lang::parse(src, diags);
  ASSERT_FALSE(diags.has_errors()) << diags.render();
  ASSERT_EQ(stmts.size(), 3u);
  EXPECT_EQ(stmts[0].keyword, "piece");
  ASSERT_EQ(stmts[0].args.size(), 2u);
  EXPECT_TRUE(stmts[0].has_block);
  ASSERT_EQ(stmts[0].block.size(), 2u);
  EXPECT_EQ(stmts[0].block[0].args[0].kind, arb::lang::ValueKind::String);
  EXPECT_EQ(stmts[0].block[0].args[0].text, "fmW");
  const auto& range = stmts[0].block[1].args[1];
  EXPECT_EQ(range.kind, arb::lang::ValueKind::Range);
  EXPECT_EQ(range.lo, 1);
  EXPECT_EQ(range.hi, 2);
  EXPECT_EQ(range.loc.line, 1);
  EXPECT_EQ(range.loc.col, 43);
  ASSERT_EQ(stmts[1].args.size(), 4u);
  EXPECT_EQ(stmts[1].args[2].kind, arb::lang::ValueKind::Number);
  EXPECT_EQ(stmts[1].args[2].num, -3);
  EXPECT_EQ(stmts[2].loc.line, 3);
  ASSERT_EQ(stmts[2].block.size(), 1u);
  EXPECT_TRUE(stmts[2].block[0].args[0].is("->"));
}

TEST(LangBetza, PawnAndRiders) {
  std::vector<arb::lang::BetzaMove> moves;
  arb::lang::BetzaError err;
  ASSERT_TRUE(arb::lang::parse_betza("fmWfceFifmnD", moves, err)) << err.message;
  ASSERT_EQ(moves.size(), 4u);  // fmW: 1, fceF: 2, ifmnD: 1
  int steps = 0, captures = 0, doubles = 0;
  for (const auto& m : moves) {
    EXPECT_GT(m.dy, 0);
    if (m.dx == 0 && m.dy == 1) {
      ++steps;
      EXPECT_TRUE(m.can_move);
      EXPECT_FALSE(m.can_capture);
    } else if (m.dx == 0 && m.dy == 2) {
      ++doubles;
      EXPECT_TRUE(m.initial && m.lame && m.can_move && !m.can_capture);
    } else {
      ++captures;
      EXPECT_TRUE(m.en_passant && m.can_capture && !m.can_move);
    }
  }
  EXPECT_EQ(steps, 1);
  EXPECT_EQ(captures, 2);
  EXPECT_EQ(doubles, 1);
  moves.clear();
  ASSERT_TRUE(arb::lang::parse_betza("Q", moves, err));
  EXPECT_EQ(moves.size(), 8u);
  for (const auto& m : moves) EXPECT_EQ(m.range, 0);
  moves.clear();
  ASSERT_TRUE(arb::lang::parse_betza("N", moves, err));
  EXPECT_EQ(moves.size(), 8u);
  moves.clear();
  ASSERT_TRUE(arb::lang::parse_betza("W3", moves, err));
  for (const auto& m : moves) EXPECT_EQ(m.range, 3);
  moves.clear();
  EXPECT_FALSE(arb::lang::parse_betza("", moves, err));
}

// ---------------------------------------------------------------------------------------
// A ruleset that extends chess and promotes only to a queen.

// Perft over the reference chess engine, skipping underpromotions: the independent count
// the queen-only ruleset must give.
uint64_t queen_only_perft(arb::Engine& e, int depth) {
  if (depth == 0) return 1;
  std::vector<arb::Action> actions;
  e.legal_actions(actions);
  uint64_t n = 0;
  for (const arb::Action& a : actions) {
    arb::ActionInfo info = e.describe(a);
    char promo = info.steps.empty() ? 0 : info.steps[0].promotion;
    if (promo && promo != 'Q') continue;
    e.apply(a);
    n += queen_only_perft(e, depth - 1);
    e.undo();
  }
  return n;
}

TEST(LangSemantics, ChildRulesetPromotingOnlyToAQueen) {
  TempDir dir;
  dir.copy_ruleset("chess");
  const std::string child =
      "ruleset queens extends chess\n"
      "title \"Chess, queen promotions only\"\n"
      "piece pawn P {\n"
      "  betza \"fmWfceFifmnD\"\n"
      "  initial ranks 2\n"
      "  promote on rank 8 to Q\n"
      "}\n";
  auto l = compile_path(dir.write("queens.rules", child));
  ASSERT_NE(l->compiled.program, nullptr) << l->diags.render();
  EXPECT_EQ(l->compiled.model->lineage, std::vector<std::string>{"chess"});
  EXPECT_TRUE(l->compiled.model->expects.empty());  // the parent's are about the parent
  auto queens = arb::lang::make_compiled_engine(l->compiled.program);
  auto chess = compiled_engine("chess");
  auto ref = arb::ref::make_chess_engine();
  EXPECT_EQ(queens->name(), "compiled:queens");

  // Where no promotion is reachable, the counts are those of chess.
  EXPECT_EQ(queens->perft(3), 8902u);

  // Promotion positions (tricky.perft pos-4 and pos-5, gotta-love-perft-1, a bare one).
  const std::vector<std::string> positions = {
      "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "8/ppp3p1/8/8/3p4/5Q2/1ppp2K1/brk4n w - - 0 1",
      "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
  };
  for (const std::string& fen : positions) {
    queens->set_position(fen);
    chess->set_position(fen);
    for (int depth = 1; depth <= 3; ++depth) {
      ref->set_position(fen);
      uint64_t want = queen_only_perft(*ref, depth);
      uint64_t got = queens->perft(depth);
      EXPECT_EQ(got, want) << fen << " depth " << depth;
      if (depth >= 2) {
        EXPECT_NE(got, chess->perft(depth)) << fen << " depth " << depth;
      }
    }
  }
  queens->set_position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  auto texts = legal_texts(*queens);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "b7b8q"), texts.end());
  EXPECT_EQ(std::find(texts.begin(), texts.end(), "b7b8n"), texts.end());
  EXPECT_EQ(texts.size(), 6u);  // b7b8q and five king moves

  // The child's own promotion letters are checked: a letter that is no piece is an error.
  auto bad = compile_path(dir.write("bad.rules",
                                    "ruleset bad extends chess\n"
                                    "piece pawn P {\n"
                                    "  betza \"fmWfceFifmnD\"\n"
                                    "  initial ranks 2\n"
                                    "  promote on rank 8 to Q M\n"
                                    "}\n"));
  EXPECT_TRUE(bad->compiled.model == nullptr);
  EXPECT_NE(find_error(bad->diags, 5, 3, "promotion to `M`, which is no piece"), nullptr)
      << bad->diags.render();
}

}  // namespace

// A source over the size limit is refused at the first byte past the limit (was line 1).
TEST(LangLimits, OversizedSourceNamesWhereTheLimitIsCrossed) {
  std::string text = "ruleset big\n" + std::string(arb::lang::kMaxRulesetBytes, '#') + "\n";
  arb::lang::Source src("big.rules", text);
  Diagnostics diags;
  auto stmts = arb::lang::parse(src, diags);
  EXPECT_TRUE(stmts.empty());
  ASSERT_EQ(diags.error_count(), 1u);
  const Diagnostic& d = diags.all().front();
  EXPECT_EQ(d.loc.line, 2);
  EXPECT_EQ(d.loc.col, static_cast<int>(arb::lang::kMaxRulesetBytes) - 12 + 1);
  EXPECT_NE(d.message.find("passes the limit of 1024 KiB here"), std::string::npos) << d.message;
}
