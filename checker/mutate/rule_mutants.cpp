#include "mutate/rule_mutants.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "arbiter/lang/construct.hpp"
#include "arbiter/lang/model.hpp"
#include "arbiter/lang/syntax.hpp"

namespace arb::mutate {

namespace {

using arb::lang::ArgType;
using arb::lang::ConstructUse;
using arb::lang::Stmt;
using arb::lang::Value;
using arb::lang::ValueKind;

// Byte offset of a 1-based line and column in `text`.
size_t offset_of(const std::vector<size_t>& line_starts, int line, int col) {
  if (line < 1 || static_cast<size_t>(line) > line_starts.size()) return std::string::npos;
  return line_starts[static_cast<size_t>(line) - 1] + static_cast<size_t>(col - 1);
}

class Generator {
 public:
  Generator(std::shared_ptr<const std::string> text, std::map<std::pair<int, int>, const ConstructUse*> uses)
      : shared_(std::move(text)), text_(*shared_), uses_(std::move(uses)) {
    starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') starts_.push_back(i + 1);
    // Prefix hashes of the text, for the hash of a mutated text in the time of its edit.
    prefix_.assign(text_.size() + 1, 0);
    power_.assign(text_.size() + 1, 1);
    for (size_t i = 0; i < text_.size(); ++i) {
      prefix_[i + 1] = prefix_[i] * kBase + static_cast<unsigned char>(text_[i]) + 1;
      power_[i + 1] = power_[i] * kBase;
    }
  }

  void statements(const std::vector<Stmt>& list, const std::string& parent) {
    for (const Stmt& s : list) statement(s, parent);
  }

  std::vector<RuleMutant> take() { return std::move(out_); }

 private:
  size_t off(const arb::lang::Loc& l) const { return offset_of(starts_, l.line, l.col); }

  // Where statement `s` ends: after its last argument, or after the `}` closing its block.
  size_t end_of(const Stmt& s) const {
    size_t end = off(s.loc) + static_cast<size_t>(s.loc.len);
    for (const Value& v : s.args) end = std::max(end, off(v.loc) + static_cast<size_t>(v.loc.len));
    if (!s.has_block) return end;
    if (!s.block.empty())
      end = std::max(end, end_of(s.block.back()));
    else if (size_t brace = text_.find('{', end); brace != std::string::npos)
      end = brace + 1;
    // The closing brace: skip blanks, `;` and comments.
    for (size_t p = end; p < text_.size(); ++p) {
      char c = text_[p];
      if (c == '#') {
        p = text_.find('\n', p);
        if (p == std::string::npos) break;
        continue;
      }
      if (c == '}') return p + 1;
      if (!std::isspace(static_cast<unsigned char>(c)) && c != ';') break;
    }
    return end;
  }

  void add(const std::string& op, const std::string& construct, size_t offset, size_t length,
           const std::string& to) {
    if (offset == std::string::npos || offset + length > text_.size()) return;
    RuleMutant m;
    m.op = op;
    m.construct = construct;
    m.offset = offset;
    m.length = length;
    m.from = text_.substr(offset, length);
    m.to = to;
    if (m.from == m.to) return;
    m.original = shared_;
    // Duplicates: the same text by another edit. Equal hashes are confirmed on the texts.
    auto& same = seen_[hash_of(offset, length, to)];
    for (size_t k : same)
      if (out_[k].text() == m.text()) return;
    same.push_back(out_.size());
    auto line = std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin();
    m.line = static_cast<int>(line);
    m.col = static_cast<int>(offset - starts_[static_cast<size_t>(line) - 1]) + 1;
    out_.push_back(std::move(m));
  }

  // The span of value `v` in the text (a string with its quotes).
  std::pair<size_t, size_t> span(const Value& v) const {
    return {off(v.loc), static_cast<size_t>(v.loc.len)};
  }

  void statement(const Stmt& s, const std::string& parent) {
    const std::string& kw = s.keyword;
    // Metadata, self-checks and record facts (`records`: how the validator reads records)
    // change no move: their mutants could only survive.
    if (kw == "ruleset" || kw == "title" || kw == "expect" || kw == "records") return;
    // Drop the statement (with its block).
    size_t begin = off(s.loc), end = end_of(s);
    add("drop", kw, begin, end - begin, "");
    const ConstructUse* use = nullptr;
    if (auto it = uses_.find({s.loc.line, s.loc.col}); it != uses_.end()) use = it->second;
    for (size_t i = 0; i < s.args.size(); ++i) {
      const Value& v = s.args[i];
      if (kw == "option" && v.kind == ValueKind::String) continue;  // its description
      auto [o, len] = span(v);
      switch (v.kind) {
        case ValueKind::Number:
          add("number", kw, o, len, std::to_string(v.num + 1));
          add("number", kw, o, len, std::to_string(v.num - 1));
          break;
        case ValueKind::Range:
          add("region", kw, o, len, std::to_string(v.lo - 1) + ".." + std::to_string(v.hi));
          add("region", kw, o, len, std::to_string(v.lo + 1) + ".." + std::to_string(v.hi));
          add("region", kw, o, len, std::to_string(v.lo) + ".." + std::to_string(v.hi - 1));
          add("region", kw, o, len, std::to_string(v.lo) + ".." + std::to_string(v.hi + 1));
          add("region", kw, o, len, std::to_string(v.lo - 1) + ".." + std::to_string(v.hi - 1));
          add("region", kw, o, len, std::to_string(v.lo + 1) + ".." + std::to_string(v.hi + 1));
          break;
        case ValueKind::String:
          if (kw == "betza" || kw == "strike" || kw == "region-move") betza(kw, v);
          break;
        case ValueKind::Word:
          word(s, i, use, parent);
          break;
        default:
          break;
      }
    }
    // A rank written as a plain number after `ranks`/`rank` is a region too: shifting it
    // is the number operator's ±1, already generated.
    statements(s.block, kw);
  }

  void betza(const std::string& kw, const Value& v) {
    auto [o, len] = span(v);
    const std::string& b = v.text;
    auto quoted = [](const std::string& t) { return "\"" + t + "\""; };
    static const std::map<char, char> flips = {{'f', 'b'}, {'b', 'f'}, {'l', 'r'}, {'r', 'l'},
                                               {'v', 's'}, {'s', 'v'}, {'m', 'c'}, {'c', 'm'}};
    static const std::map<char, char> atoms = {{'W', 'F'}, {'F', 'W'}, {'D', 'A'}, {'A', 'D'}, {'N', 'C'},
                                               {'C', 'N'}, {'R', 'B'}, {'B', 'R'}, {'Q', 'K'}, {'K', 'Q'}};
    for (size_t i = 0; i < b.size(); ++i) {
      char c = b[i];
      if (std::islower(static_cast<unsigned char>(c))) {
        add("betza", kw, o, len, quoted(b.substr(0, i) + b.substr(i + 1)));
        if (auto f = flips.find(c); f != flips.end())
          add("betza", kw, o, len, quoted(b.substr(0, i) + f->second + b.substr(i + 1)));
      } else if (auto a = atoms.find(c); a != atoms.end()) {
        add("betza", kw, o, len, quoted(b.substr(0, i) + a->second + b.substr(i + 1)));
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        int d = c - '0';
        if (d < 9) add("betza", kw, o, len, quoted(b.substr(0, i) + char('0' + d + 1) + b.substr(i + 1)));
        if (d > 1) add("betza", kw, o, len, quoted(b.substr(0, i) + char('0' + d - 1) + b.substr(i + 1)));
      }
    }
  }

  // Removes word `i` of `s` with the blank before it.
  void remove_word(const std::string& op, const Stmt& s, size_t i) {
    auto [o, len] = span(s.args[i]);
    size_t b = o;
    while (b > 0 && (text_[b - 1] == ' ' || text_[b - 1] == '\t')) --b;
    add(op, s.keyword, b, o + len - b, "");
  }

  void word(const Stmt& s, size_t i, const ConstructUse* use, const std::string& parent) {
    const Value& v = s.args[i];
    auto [o, len] = span(v);
    const std::string& w = v.text;
    // The schema's choices and flags.
    if (use && !use->def().custom) {
      for (const auto& spec : use->def().args) {
        if ((spec.type == ArgType::Choice || spec.type == ArgType::Tokens) &&
            std::find(spec.choices.begin(), spec.choices.end(), w) != spec.choices.end()) {
          for (const auto& alt : spec.choices) add("choice", s.keyword, o, len, alt);
          if (spec.type == ArgType::Tokens || !spec.required) remove_word("choice", s, i);
          return;
        }
        if (spec.type == ArgType::Flag && spec.key == w) {
          remove_word("flag", s, i);
          return;
        }
      }
    }
    // The words of the constructs with a grammar of their own (sema.cpp), each with the
    // others allowed in its place.
    static const std::vector<std::vector<std::string>> groups = {
        {"loss", "draw", "win"}, {"mandatory", "optional"}, {"repetition", "fifty-move"},
        {"move", "place"},       {"beside", "behind"},      {"reserves-empty"},
    };
    bool in_end = parent == "end";
    // A file letter of castling (`king-to g`): one file either way.
    if (i >= 1 && (s.args[i - 1].is("king-to") || s.args[i - 1].is("rook-to")) && w.size() == 1 &&
        std::islower(static_cast<unsigned char>(w[0]))) {
      if (w[0] > 'a') add("region", s.keyword, o, len, std::string(1, static_cast<char>(w[0] - 1)));
      add("region", s.keyword, o, len, std::string(1, static_cast<char>(w[0] + 1)));
      return;
    }
    for (const auto& g : groups) {
      if (std::find(g.begin(), g.end(), w) == g.end()) continue;
      if (w == "repetition" || w == "fifty-move") {
        if (s.keyword != "claim") continue;
      } else if (w == "move" || w == "place") {
        if (s.keyword != "action" && s.keyword != "phase") continue;
      } else if ((w == "loss" || w == "draw" || w == "win" || w == "reserves-empty") && !in_end) {
        continue;
      }
      for (const auto& alt : g) add("choice", s.keyword, o, len, alt);
      if (w == "reserves-empty" && i >= 1 && s.args[i - 1].is("when")) {
        // `when reserves-empty` dropped: the rule applies with pieces in reserve too.
        size_t b = off(s.args[i - 1].loc);
        while (b > 0 && (text_[b - 1] == ' ' || text_[b - 1] == '\t')) --b;
        add("choice", s.keyword, b, o + len - b, "");
      }
      if (w == "optional" && s.keyword == "promote") remove_word("flag", s, i);
      return;
    }
    // A counted letter of a reserve or pile (`R*2`): one more, one fewer.
    if (size_t star = w.find('*');
        star != std::string::npos && star + 1 < w.size() &&
        std::all_of(w.begin() + static_cast<std::ptrdiff_t>(star) + 1, w.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      int n = std::atoi(w.c_str() + star + 1);
      std::string head = w.substr(0, star + 1);
      add("number", s.keyword, o, len, head + std::to_string(n + 1));
      add("number", s.keyword, o, len, n - 1 == 1 ? w.substr(0, star) : head + std::to_string(n - 1));
      return;
    }
    // A piece letter in a list of several (promotion choices, lending types, a reserve):
    // one removed.
    bool letter = w.size() == 1 && std::isupper(static_cast<unsigned char>(w[0]));
    bool listed =
        (i + 1 < s.args.size() && s.args[i + 1].kind == ValueKind::Word && s.args[i + 1].text.size() == 1 &&
         std::isupper(static_cast<unsigned char>(s.args[i + 1].text[0]))) ||
        (i > 0 && s.args[i - 1].kind == ValueKind::Word && s.args[i - 1].text.size() == 1 &&
         std::isupper(static_cast<unsigned char>(s.args[i - 1].text[0])));
    if (letter && listed && s.keyword != "piece") remove_word("letter", s, i);
  }

  // The polynomial hash (mod 2^64) of the text with [offset, offset + length) replaced by `to`.
  uint64_t hash_of(size_t offset, size_t length, const std::string& to) const {
    uint64_t h = prefix_[offset];
    for (char c : to) h = h * kBase + static_cast<unsigned char>(c) + 1;
    const size_t rest = text_.size() - offset - length;
    const uint64_t suffix = prefix_[text_.size()] - prefix_[offset + length] * power_[rest];
    return h * power_[rest] + suffix;
  }

  static constexpr uint64_t kBase = 0x100000001b3ULL;
  std::shared_ptr<const std::string> shared_;
  const std::string& text_;
  std::map<std::pair<int, int>, const ConstructUse*> uses_;
  std::vector<size_t> starts_;
  std::vector<uint64_t> prefix_, power_;
  std::vector<RuleMutant> out_;
  std::unordered_map<uint64_t, std::vector<size_t>> seen_;
};

}  // namespace

std::string RuleMutant::describe() const {
  std::string f = from, t = to;
  auto one_line = [](std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
  };
  if (op == "drop") return "drop `" + one_line(f) + "`";
  if (t.empty()) return "remove `" + one_line(f) + "`";
  return "`" + one_line(f) + "` -> `" + one_line(t) + "`";
}

std::string RuleMutant::text() const {
  if (!original) return {};
  return original->substr(0, offset) + to + original->substr(offset + length);
}

std::string RuleMutant::mutated_line() const {
  const std::string text = this->text();
  size_t b = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  b = (b == std::string::npos || offset == 0) ? 0 : b + 1;
  size_t e = text.find('\n', offset);
  return text.substr(b, (e == std::string::npos ? text.size() : e) - b);
}

std::vector<RuleMutant> generate_mutants(const std::string& path, const std::string& text) {
  arb::lang::Diagnostics diags;
  arb::lang::Source src(path, text);
  auto tree = arb::lang::parse(src, diags);
  if (diags.has_errors()) return {};
  std::vector<std::unique_ptr<arb::lang::Source>> sources;
  arb::lang::Diagnostics mdiags;
  auto model = arb::lang::load_ruleset(path, {}, mdiags, sources);
  std::map<std::pair<int, int>, const ConstructUse*> uses;
  if (model)
    for (const ConstructUse* u : model->all_constructs())
      if (u->loc.src && u->loc.src->path == path) uses[{u->loc.line, u->loc.col}] = u;
  Generator g(std::make_shared<const std::string>(text), uses);
  g.statements(tree, "");
  auto out = g.take();
  std::stable_sort(out.begin(), out.end(),
                   [](const RuleMutant& a, const RuleMutant& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace arb::mutate
