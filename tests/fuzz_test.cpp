// The differential checker: every saved divergence replays clean, and the checker catches
// seeded rule mutations (a mutant that survives the budget fails the test).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "arbiter/lang/compile.hpp"
#include "fuzz/fuzz.hpp"
#include "reference.hpp"

namespace fs = std::filesystem;

namespace {

std::string rules_path(const std::string& variant) {
  return (fs::path(ARBITER_SOURCE_DIR) / "rulesets" / (variant + ".rules")).string();
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::shared_ptr<const arb::lang::Program> compile_text(const std::string& text, const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "arbiter-fuzz-test";
  fs::create_directories(dir);
  // Parents are looked up beside the file: copy the bundled rulesets there too.
  for (const auto& e : fs::directory_iterator(fs::path(ARBITER_SOURCE_DIR) / "rulesets"))
    fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
  fs::path file = dir / (name + ".rules");
  std::ofstream(file) << text;
  arb::lang::Diagnostics diags;
  auto c = arb::lang::compile_file(file.string(), {}, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  return c.program;
}

}  // namespace

TEST(Regressions, EverySavedDivergenceReplaysClean) {
  fs::path dir = fs::path(ARBITER_SOURCE_DIR) / "corpus" / "regressions";
  int replayed = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".txt") continue;
    std::map<std::string, std::string> kv;
    std::istringstream in(read(e.path()));
    std::string line;
    while (std::getline(in, line)) {
      size_t colon = line.find(": ");
      if (colon != std::string::npos) kv[line.substr(0, colon)] = line.substr(colon + 2);
    }
    ASSERT_TRUE(kv.count("variant") && kv.count("position")) << e.path();
    arb::lang::Diagnostics diags;
    auto c = arb::lang::compile_file(rules_path(kv["variant"]), {}, diags);
    ASSERT_TRUE(c.program) << diags.render();
    auto a = arb::lang::make_compiled_engine(c.program);
    auto b = arb::ref::make_reference_engine(kv["variant"]);
    ASSERT_TRUE(b);
    auto d = arb::fuzz::reproduce(*a, *b, kv["position"], kv["action"]);
    EXPECT_FALSE(d) << e.path() << ": " << arb::fuzz::to_json(*d);
    ++replayed;
  }
  std::cout << "replayed " << replayed << " saved divergences\n";
}

TEST(Fuzz, BundledRulesetsAgreeWithReferences) {
  for (const std::string v : {"chess", "chessembly"}) {
    arb::lang::Diagnostics diags;
    auto c = arb::lang::compile_file(rules_path(v), {}, diags);
    ASSERT_TRUE(c.program);
    arb::fuzz::Options o;
    o.seed = 7;
    o.games = std::getenv("ARBITER_FAST") ? 20 : 150;
    auto program = c.program;
    auto r = arb::fuzz::run([&] { return arb::lang::make_compiled_engine(program); },
                            [&] { return arb::ref::make_reference_engine(v); }, c.program->start_text, o);
    EXPECT_FALSE(r.divergence) << v << ": " << arb::fuzz::to_json(*r.divergence);
    EXPECT_GT(r.positions, o.games * 10);
  }
}

// Seeded mutations of the chess ruleset; the fuzzer must catch each within its budget.
TEST(Fuzz, CatchesRuleMutations) {
  std::string chess = read(rules_path("chess"));
  struct Mutant {
    const char* name;
    const char* from;
    const char* to;
  };
  const Mutant mutants[] = {
      {"no en passant", "fmWfceFifmnD", "fmWfcFifmnD"},
      {"no double step", "fmWfceFifmnD", "fmWfceF"},
      {"pawns capture forward", "fmWfceFifmnD", "fWfceFifmnD"},
      {"no underpromotion", "promote on rank 8 to Q R B N", "promote on rank 8 to Q"},
      {"knight as a camel", "piece knight N { betza \"N\" }", "piece knight N { betza \"C\" }"},
      {"queen-side castling to the b-file", "queen-side king-to c rook-to d", "queen-side king-to b rook-to c"},
      {"repetition claim at two", "claim repetition\n", "claim repetition 2\n"},
      {"king may castle to f", "king-side king-to g rook-to f", "king-side king-to f rook-to e"},
  };
  int caught = 0, total = 0;
  for (const Mutant& m : mutants) {
    std::string text = chess;
    size_t at = text.find(m.from);
    ASSERT_NE(at, std::string::npos) << m.name;
    text.replace(at, std::string(m.from).size(), m.to);
    auto program = compile_text(text, "chess");
    ASSERT_TRUE(program) << m.name;
    arb::fuzz::Options o;
    o.seed = 11;
    o.games = 400;
    auto r = arb::fuzz::run([&] { return arb::lang::make_compiled_engine(program); },
                            [&] { return arb::ref::make_reference_engine("chess"); }, program->start_text, o);
    ++total;
    if (r.divergence) ++caught;
    EXPECT_TRUE(r.divergence) << "mutant survived: " << m.name;
  }
  std::cout << "mutation score: " << caught << "/" << total << "\n";
}
