// Every statement of every bundled ruleset either changes behaviour or is a located error:
// each argument of each statement, replaced by a word no statement takes, is refused at
// its line by what `arbiter check` runs (the compile, then every setting of the options
// that reads other `when` blocks). The labels a statement gives a thing are the exceptions,
// each for a stated reason: a piece's or a card's name (names are for people; the letter is
// what rules use) and a title; an army's name is refused where an option names it; an end
// rule's reason string is the status it reports; a `records { name ... }` is what record
// tags call the variant.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

using namespace testing_helpers;
namespace fs = std::filesystem;

struct Token {
  size_t begin, end;
  bool string;
};

// The words and strings of a line, comments and punctuation left out.
std::vector<Token> tokens(const std::string& line) {
  std::vector<Token> out;
  size_t i = 0, n = line.size();
  while (i < n) {
    char c = line[i];
    if (c == '#') break;
    if (std::isspace(static_cast<unsigned char>(c)) || c == '{' || c == '}' || c == ';' || c == ',' ||
        c == '=') {
      ++i;
      continue;
    }
    if (line.compare(i, 2, "->") == 0 || line.compare(i, 2, "!=") == 0) {
      i += 2;
      continue;
    }
    if (c == '"') {
      size_t j = line.find('"', i + 1);
      if (j == std::string::npos) break;
      out.push_back({i, j + 1, true});
      i = j + 1;
      continue;
    }
    size_t j = i;
    while (j < n && !std::isspace(static_cast<unsigned char>(line[j])) &&
           std::string("{};,#\"").find(line[j]) == std::string::npos)
      ++j;
    out.push_back({i, j, false});
    i = j;
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

TEST(Statements, EveryArgumentOfEveryBundledRulesetIsRefusedWhenCorrupted) {
  int corrupted = 0;
  for (const auto& entry : fs::directory_iterator(source_path("rulesets"))) {
    if (entry.path().extension() != ".rules") continue;
    const std::string name = entry.path().filename().string();
    const std::vector<std::string> lines = lines_of(read_text(entry.path().string()));
    int index = 0;
    for (size_t ln = 0; ln < lines.size(); ++ln) {
      const std::vector<Token> toks = tokens(lines[ln]);
      if (toks.empty()) continue;
      const std::string keyword = lines[ln].substr(toks[0].begin, toks[0].end - toks[0].begin);
      if (keyword == "ruleset" || keyword == "title") continue;
      for (size_t k = 0; k < toks.size(); ++k) {
        const Token& t = toks[k];
        // Labels (see the top of the file); an option's default and doc are its own
        // (checked where the option is used).
        if (keyword == "option" && k > 0) continue;
        if ((keyword == "piece" || keyword == "card") && k == 1) continue;
        // A `records` name, and a tag's name and text: what records write.
        if (keyword == "name" || (keyword == "tag" && (k == 1 || t.string))) continue;
        if (fast() && ++index % 4 != 0) continue;  // a quarter of them under the sanitizers
        std::vector<std::string> changed = lines;
        changed[ln] =
            lines[ln].substr(0, t.begin) + (t.string ? "\"banana\"" : "banana") + lines[ln].substr(t.end);
        std::string text;
        for (size_t i = 0; i < changed.size(); ++i) text += changed[i] + (i + 1 < changed.size() ? "\n" : "");
        // A folder of its own: a corrupted parent left beside it would be found by `extends`.
        TempDir own;
        const std::string path = own.write(name, text);
        arb::lang::Diagnostics diags;
        arb::lang::Compiled c = arb::lang::compile_file(path, {}, diags);
        std::vector<std::unique_ptr<arb::lang::Source>> keep;
        if (c.model) arb::lang::check_every_setting(path, {}, diags, keep);
        ++corrupted;
        const std::string where = name + ":" + std::to_string(ln + 1) + ": " + changed[ln];
        if (keyword == "army" && k == 1) {  // refused at the option that names it
          EXPECT_TRUE(diags.has_errors()) << where;
          continue;
        }
        if (t.string && k + 1 == toks.size() && lines[ln].find("->") != std::string::npos && c.model) {
          // An end rule's reason: the status it reports is the new word.
          bool reported = false;
          for (const auto& r : c.model->end) reported = reported || r.reason == "banana";
          EXPECT_TRUE(reported || diags.has_errors()) << where;
          continue;
        }
        bool at_line = false;
        for (const auto& d : diags.all())
          if (d.severity == arb::lang::Severity::Error && d.loc.line == static_cast<int>(ln + 1) &&
              d.loc.src && fs::path(d.loc.src->path).filename() == name)
            at_line = true;
        EXPECT_TRUE(at_line) << "not refused at its line: " << where << "\n" << diags.render();
      }
    }
  }
  EXPECT_GT(corrupted, fast() ? 50 : 200);
}

}  // namespace
