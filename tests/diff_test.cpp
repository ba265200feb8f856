// `arbiter diff` run as a process: exit status (0 as expected, 1 unexpected, 2 unusable
// input), the differences it reports (actions gained or lost, status changed, several
// distinct ones), determinism for a seed, and well-formed JUnit XML from diff, test and
// fuzz. The binary is BUILD/cli/arbiter beside this test's BUILD/tests/diff_test.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"
#include "source_dir.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace testing_process;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A scratch directory per test, holding copies of the bundled rulesets (for `extends`).
// Its name has XML's special characters, so that paths written into JUnit need escaping.
class Scratch {
 public:
  Scratch() {
    dir_ = fs::temp_directory_path() /
           ("arbiter-diff-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-a&b<c>\"d'");
    fs::create_directories(dir_);
    for (const auto& e : fs::directory_iterator(fs::path(arbiter_source_dir()) / "rulesets"))
      if (e.is_regular_file())
        fs::copy_file(e.path(), dir_ / e.path().filename(), fs::copy_options::overwrite_existing);
  }
  ~Scratch() { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // Writes a mutant of a bundled ruleset: `from` replaced by `to`.
  std::string mutant(const std::string& variant, const std::string& name, const std::string& from,
                     const std::string& to) const {
    std::string text = read(fs::path(arbiter_source_dir()) / "rulesets" / (variant + ".rules"));
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    std::ofstream(path(name)) << text;
    return path(name);
  }

 private:
  fs::path dir_;
};

Outcome run(const std::vector<std::string>& args) {
  return run_arbiter(args);
}

std::string bundled(const std::string& variant) {
  return (fs::path(arbiter_source_dir()) / "rulesets" / (variant + ".rules")).string();
}

// A small XML well-formedness check (no DTD): one root, tags nested and matched,
// attributes quoted and unique, only the five predefined entities and character
// references. Counts elements by name and keeps the attributes of the last of each.
struct Xml {
  std::string problem;  // empty when well-formed
  std::map<std::string, int> count;
  std::map<std::string, std::map<std::string, std::string>> attrs;
};

bool valid_entities(const std::string& s, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    if (s[i] == '<') return false;
    if (s[i] != '&') continue;
    size_t semi = s.find(';', i);
    if (semi == std::string::npos || semi >= to) return false;
    std::string name = s.substr(i + 1, semi - i - 1);
    static const std::set<std::string> known = {"lt", "gt", "amp", "quot", "apos"};
    bool numeric = name.size() > 1 && name[0] == '#' &&
                   std::all_of(name.begin() + 1, name.end(), [](char c) { return std::isdigit(c) != 0; });
    if (!known.count(name) && !numeric) return false;
    i = semi;
  }
  return true;
}

Xml check_xml(const std::string& s) {
  Xml x;
  size_t i = 0;
  auto fail = [&](const std::string& why) {
    x.problem = why + " at offset " + std::to_string(i);
    return x;
  };
  auto is_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-' || c == '.';
  };
  auto skip_ws = [&] {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  };
  if (s.compare(0, 5, "<?xml") == 0) {
    i = s.find("?>");
    if (i == std::string::npos) return fail("unterminated prolog");
    i += 2;
  }
  std::vector<std::string> stack;
  bool root_done = false;
  while (i < s.size()) {
    size_t lt = s.find('<', i);
    size_t text_end = lt == std::string::npos ? s.size() : lt;
    if (!valid_entities(s, i, text_end)) return fail("bad character data");
    if ((stack.empty()) && s.find_first_not_of(" \t\r\n", i) < text_end) return fail("text outside the root");
    if (lt == std::string::npos) break;
    i = lt;
    if (s.compare(i, 4, "<!--") == 0) {
      size_t e = s.find("-->", i);
      if (e == std::string::npos) return fail("unterminated comment");
      i = e + 3;
      continue;
    }
    if (s.compare(i, 2, "</") == 0) {
      i += 2;
      size_t start = i;
      while (i < s.size() && is_name(s[i])) ++i;
      std::string name = s.substr(start, i - start);
      skip_ws();
      if (i >= s.size() || s[i] != '>') return fail("bad end tag");
      ++i;
      if (stack.empty() || stack.back() != name) return fail("mismatched end tag </" + name + ">");
      stack.pop_back();
      if (stack.empty()) root_done = true;
      continue;
    }
    ++i;
    if (root_done && stack.empty()) return fail("a second root element");
    size_t start = i;
    while (i < s.size() && is_name(s[i])) ++i;
    std::string name = s.substr(start, i - start);
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return fail("bad element name");
    std::map<std::string, std::string> attributes;
    while (true) {
      bool had_space = i < s.size() && std::isspace(static_cast<unsigned char>(s[i]));
      skip_ws();
      if (i >= s.size()) return fail("unterminated tag");
      if (s[i] == '>' || s.compare(i, 2, "/>") == 0) break;
      if (!had_space) return fail("attributes must be separated by space");
      size_t a = i;
      while (i < s.size() && is_name(s[i])) ++i;
      std::string attr = s.substr(a, i - a);
      skip_ws();
      if (attr.empty() || i >= s.size() || s[i] != '=') return fail("bad attribute");
      ++i;
      skip_ws();
      if (i >= s.size() || (s[i] != '"' && s[i] != '\'')) return fail("unquoted attribute value");
      char q = s[i++];
      size_t close = s.find(q, i);
      if (close == std::string::npos) return fail("unterminated attribute value");
      if (!valid_entities(s, i, close)) return fail("bad attribute value");
      if (!attributes.emplace(attr, s.substr(i, close - i)).second)
        return fail("duplicate attribute " + attr);
      i = close + 1;
    }
    ++x.count[name];
    x.attrs[name] = attributes;
    if (s[i] == '/') {
      i += 2;
      if (stack.empty()) root_done = true;
    } else {
      ++i;
      stack.push_back(name);
    }
  }
  if (!stack.empty()) return fail("unclosed <" + stack.back() + ">");
  if (!root_done) return fail("no root element");
  return x;
}

// Checks a JUnit file and returns its parse: one suite whose tests/failures attributes
// agree with the cases it holds.
Xml check_junit(const std::string& file) {
  Xml x = check_xml(read(file));
  EXPECT_EQ(x.problem, "") << read(file);
  EXPECT_EQ(x.count["testsuite"], 1) << read(file);
  EXPECT_EQ(x.attrs["testsuite"]["tests"], std::to_string(x.count["testcase"])) << read(file);
  EXPECT_EQ(x.attrs["testsuite"]["failures"], std::to_string(x.count["failure"])) << read(file);
  return x;
}

}  // namespace

TEST(XmlCheck, TellsWellFormedFromBroken) {
  EXPECT_EQ(check_xml("<?xml version=\"1.0\"?>\n<a x=\"1&amp;\"><b/>t&lt;</a>\n").problem, "");
  EXPECT_NE(check_xml("<a><b></a></b>").problem, "");
  EXPECT_NE(check_xml("<a x=\"1&\"></a>").problem, "");
  EXPECT_NE(check_xml("<a x=\"<\"></a>").problem, "");
  EXPECT_NE(check_xml("<a>1 < 2</a>").problem, "");
  EXPECT_NE(check_xml("<a x=\"1\" x=\"2\"/>").problem, "");
  EXPECT_NE(check_xml("<a/><b/>").problem, "");
}

TEST(Diff, SameRulesetsAgree) {
  Scratch s;
  auto r = run({"diff", "--rules", bundled("chess"), "--rules", s.path("chess.rules"), "--games", "30"});
  EXPECT_EQ(r.code, 0) << r;
  EXPECT_NE(r.out.find("no difference found (expected same)"), std::string::npos) << r;
  r = run({"diff", "--rules", bundled("chess"), "--rules", s.path("chess.rules"), "--games", "10", "--expect",
           "different"});
  EXPECT_EQ(r.code, 1) << r;
}

TEST(Diff, ReportsActionsLostAndGained) {
  Scratch s;
  std::string noep = s.mutant("chess", "noep.rules", "fmWfceFifmnD", "fmWfcFifmnD");
  auto r = run({"diff", "--rules", bundled("chess"), "--rules", noep, "--games", "80"});
  EXPECT_EQ(r.code, 1) << r;  // expected the same by default
  EXPECT_NE(r.out.find("actions lost:"), std::string::npos) << r;
  EXPECT_NE(r.out.find("UNEXPECTED"), std::string::npos) << r;
  r = run({"diff", "--rules", bundled("chess"), "--rules", noep, "--expect", "different", "--json", "--games",
           "80"});
  ASSERT_EQ(r.code, 0) << r;
  json j = json::parse(r.out);
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_TRUE(j["different"].get<bool>());
  ASSERT_FALSE(j["differences"].empty());
  const json& d = j["differences"][0];
  EXPECT_EQ(d["what"], "actions");
  EXPECT_TRUE(d["gained"].empty()) << d;
  ASSERT_EQ(d["lost"].size(), 1u) << d;
  // Shrunk: the kings, the two pawns, nothing else.
  std::string board = d["position"].get<std::string>().substr(0, d["position"].get<std::string>().find(' '));
  EXPECT_EQ(std::count_if(board.begin(), board.end(), [](char c) { return std::isalpha(c) != 0; }), 4) << d;
  // The other way round the same actions are gained.
  r = run({"diff", "--rules", noep, "--rules", bundled("chess"), "--expect", "different", "--json", "--games",
           "80"});
  ASSERT_EQ(r.code, 0) << r;
  j = json::parse(r.out);
  ASSERT_FALSE(j["differences"].empty());
  EXPECT_FALSE(j["differences"][0]["gained"].empty()) << j;
  EXPECT_TRUE(j["differences"][0]["lost"].empty()) << j;
}

TEST(Diff, ListsSeveralDistinctDifferences) {
  Scratch s;
  std::string qs =
      s.mutant("chess", "qs.rules", "queen-side king-to c rook-to d", "queen-side king-to b rook-to c");
  auto r = run({"diff", "--rules", bundled("chess"), "--rules", qs, "--expect", "different", "--json"});
  ASSERT_EQ(r.code, 0) << r;
  json j = json::parse(r.out);
  ASSERT_GE(j["differences"].size(), 2u) << j;
  std::set<std::string> summaries;
  for (const auto& d : j["differences"]) summaries.insert(d["summary"].get<std::string>());
  EXPECT_EQ(summaries.size(), j["differences"].size()) << j;
}

TEST(Diff, ReportsAStatusChange) {
  Scratch s;
  std::string m = s.mutant("chessembly", "chessembly2.rules", "draw when reserves-empty", "draw");
  auto r = run({"diff", "--rules", bundled("chessembly"), "--rules", m, "--expect", "different", "--json"});
  ASSERT_EQ(r.code, 0) << r;
  json j = json::parse(r.out);
  bool status = false;
  for (const auto& d : j["differences"])
    if (d["what"] == "status") {
      status = true;
      EXPECT_NE(d["new"].get<std::string>().find("insufficient-material"), std::string::npos) << d;
      EXPECT_NE(d["summary"].get<std::string>().find("status changed"), std::string::npos) << d;
    }
  EXPECT_TRUE(status) << j;
}

TEST(Diff, DeterministicForASeed) {
  Scratch s;
  std::string qs =
      s.mutant("chess", "qs.rules", "queen-side king-to c rook-to d", "queen-side king-to b rook-to c");
  auto once = [&](const std::string& jobs) {
    auto r = run({"diff", "--rules", bundled("chess"), "--rules", qs, "--expect", "different", "--json",
                  "--seed", "5", "--games", "60", "--jobs", jobs});
    EXPECT_EQ(r.code, 0) << r;
    json j = json::parse(r.out);
    return j["differences"].dump() + " " + std::to_string(j["games"].get<uint64_t>()) + " " +
           std::to_string(j["positions"].get<uint64_t>());
  };
  EXPECT_EQ(once("1"), once("1"));
  EXPECT_EQ(once("2"), once("2"));
}

TEST(Diff, UnusableInputExitsTwo) {
  Scratch s;
  std::ofstream(s.path("broken.rules")) << "ruleset broken\nboard 8 x 8\npeice knight N { betza \"N\" }\n";
  const std::vector<std::vector<std::string>> cases = {
      {"diff", "--rules", bundled("chess")},
      {"diff", "--rules", bundled("chess"), "--rules", s.path("missing.rules")},
      {"diff", "--rules", bundled("chess"), "--rules", s.path("broken.rules")},
      {"diff", "--rules", bundled("chess"), "--rules", bundled("chess"), "--expect", "maybe"},
      {"diff", "--rules", bundled("chess"), "--rules", bundled("chess"), "--no-such-flag"},
      {"diff", "--rules", bundled("chess"), "--rules", bundled("chess"), "--position", "not a position"},
      {"diff", "--rules", bundled("chess"), "--rules", bundled("chess"), "--set", "noequals"},
  };
  for (const auto& args : cases) {
    auto r = run(args);
    EXPECT_EQ(r.code, 2) << args.back() << "\n" << r;
    EXPECT_FALSE(r.err.empty()) << args.back();
  }
}

TEST(Diff, JUnitIsWellFormed) {
  Scratch s;
  std::string noep = s.mutant("chess", "noep.rules", "fmWfceFifmnD", "fmWfcFifmnD");
  std::string file = s.path("out dir/diff.xml");
  auto r = run({"diff", "--rules", bundled("chess"), "--rules", noep, "--junit", file});
  EXPECT_EQ(r.code, 1) << r;
  Xml x = check_junit(file);
  EXPECT_GE(x.count["failure"], 2);  // the difference and the verdict
  EXPECT_FALSE(fs::exists(file + ".tmp"));
  r = run({"diff", "--rules", bundled("chess"), "--rules", noep, "--expect", "different", "--junit", file});
  EXPECT_EQ(r.code, 0) << r;
  x = check_junit(file);
  EXPECT_EQ(x.count["failure"], 0);
  EXPECT_GE(x.count["testcase"], 2);
}

TEST(JUnit, TestAndFuzzWriteWellFormedXml) {
  Scratch s;
  std::string file = s.path("test.xml");
  auto r = run({"test", bundled("chess"), "--json", "--junit", file});
  ASSERT_EQ(r.code, 0) << r;
  json j = json::parse(r.out);
  Xml x = check_junit(file);
  EXPECT_EQ(x.count["testcase"], j["passed"].get<int>() + j["failed"].get<int>());
  EXPECT_EQ(x.count["failure"], 0);
  // A failing expectation is a <failure>.
  std::string bad = s.mutant("chess", "chess.rules", "perft 3 = 8902", "perft 3 = 8903");
  r = run({"test", bad, "--junit", file});
  EXPECT_EQ(r.code, 1) << r;
  x = check_junit(file);
  EXPECT_EQ(x.count["failure"], 1);
  r = run({"fuzz", "--variant", "chess", "--games", "3", "--seed", "4", "--save-dir", s.path("saved"),
           "--junit", s.path("fuzz.xml")});
  EXPECT_EQ(r.code, 0) << r;
  x = check_junit(s.path("fuzz.xml"));
  EXPECT_EQ(x.count["testcase"], 1);
  EXPECT_EQ(x.count["failure"], 0);
}
