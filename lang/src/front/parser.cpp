#include <cctype>
#include <set>
#include <string_view>

#include "arbiter/lang/syntax.hpp"
#include "arbiter/numbers.hpp"

namespace arb::lang {

namespace {

enum class Tok { Word, Number, String, Range, Symbol, Newline, LBrace, RBrace, End };

struct Token {
  Tok kind;
  std::string text;
  long long num = 0, lo = 0, hi = 0;
  Loc loc;
};

// Limits that keep every input's cost bounded: numbers fit comfortably in 64 bits, a
// file is at most kMaxRulesetBytes, blocks nest at most kMaxNesting deep (the parser
// recurses once per block).
constexpr long long kMaxNumber = 999999999999999LL;  // 15 digits

std::string number_hint() {
  return "numbers have at most 15 digits";
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '@' || c == '*' ||
         c == '+' || c == '\'' || c == '$';
}

class Lexer {
 public:
  Lexer(const Source& s, Diagnostics& d) : src_(s), diags_(d) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    const std::string& t = src_.text;
    while (pos_ < t.size()) {
      char c = t[pos_];
      if (c == '\n') {
        out.push_back(make(Tok::Newline, "\\n", 1));
        advance(1);
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        advance(1);
        continue;
      }
      if (c == '#') {
        while (pos_ < t.size() && t[pos_] != '\n') advance(1);
        continue;
      }
      if (c == '{') {
        out.push_back(make(Tok::LBrace, "{", 1));
        advance(1);
        continue;
      }
      if (c == '}') {
        out.push_back(make(Tok::RBrace, "}", 1));
        advance(1);
        continue;
      }
      if (c == ';') {
        out.push_back(make(Tok::Newline, ";", 1));
        advance(1);
        continue;
      }
      if (c == '"') {
        Token tok = make(Tok::String, "", 1);
        size_t start = pos_;
        advance(1);
        std::string s;
        while (pos_ < t.size() && t[pos_] != '"' && t[pos_] != '\n') {
          s.push_back(t[pos_]);
          advance(1);
        }
        if (pos_ >= t.size() || t[pos_] != '"') {
          diags_.error(tok.loc, "unterminated string", "close it with `\"` on the same line");
        } else {
          advance(1);
        }
        tok.text = s;
        tok.loc.len = static_cast<int>(pos_ - start);
        out.push_back(tok);
        continue;
      }
      if (c == '-' && pos_ + 1 < t.size() && t[pos_ + 1] == '>') {
        out.push_back(make(Tok::Symbol, "->", 2));
        advance(2);
        continue;
      }
      if (c == '!' && pos_ + 1 < t.size() && t[pos_ + 1] == '=') {
        out.push_back(make(Tok::Symbol, "!=", 2));
        advance(2);
        continue;
      }
      if (c == '=' || c == ',' || c == ':' || c == '(' || c == ')') {
        out.push_back(make(Tok::Symbol, std::string(1, c), 1));
        advance(1);
        continue;
      }
      bool neg_number =
          c == '-' && pos_ + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[pos_ + 1]));
      if (std::isdigit(static_cast<unsigned char>(c)) || neg_number) {
        // Number, range `a..b`, or a word starting with a digit (`8x8`).
        size_t start = pos_;
        Token tok = make(Tok::Number, "", 1);
        size_t p = pos_ + (neg_number ? 1 : 0);
        while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p]))) ++p;
        if (p + 1 < t.size() && t[p] == '.' && t[p + 1] == '.') {
          size_t q = p + 2;
          if (q < t.size() && t[q] == '-') ++q;
          size_t digits = q;
          while (q < t.size() && std::isdigit(static_cast<unsigned char>(t[q]))) ++q;
          tok.kind = Tok::Range;
          tok.text = t.substr(start, q - start);
          auto lo = parse_integer(std::string_view(t).substr(start, p - start), -kMaxNumber, kMaxNumber);
          if (!lo) {
            diags_.error(tok.loc, "number too large", number_hint());
          } else {
            tok.lo = *lo;
            if (q == digits) {
              diags_.error(tok.loc, "a range needs an upper bound", "write it as `1..4`");
            } else if (auto hi = parse_integer(std::string_view(t).substr(p + 2, q - p - 2), -kMaxNumber,
                                               kMaxNumber)) {
              tok.hi = *hi;
            } else {
              diags_.error(tok.loc, "number too large", number_hint());
            }
          }
          tok.loc.len = static_cast<int>(q - start);
          advance(q - start);
          out.push_back(tok);
          continue;
        }
        if (p < t.size() && word_char(t[p]) && t[p] != '-') {
          while (p < t.size() && word_char(t[p])) ++p;
          tok.kind = Tok::Word;
          tok.text = t.substr(start, p - start);
        } else {
          tok.text = t.substr(start, p - start);
          if (auto v = parse_integer(tok.text, -kMaxNumber, kMaxNumber)) {
            tok.num = *v;
          } else {
            diags_.error(tok.loc, "number too large", number_hint());
          }
        }
        tok.loc.len = static_cast<int>(p - start);
        advance(p - start);
        out.push_back(tok);
        continue;
      }
      if (word_char(c) || c == '.') {
        size_t start = pos_;
        Token tok = make(Tok::Word, "", 1);
        size_t p = pos_;
        while (p < t.size() && (word_char(t[p]) || (t[p] == '.' && p + 1 < t.size() && t[p + 1] != '.'))) ++p;
        if (p == start) p = start + 1;
        tok.text = t.substr(start, p - start);
        tok.loc.len = static_cast<int>(p - start);
        advance(p - start);
        out.push_back(tok);
        continue;
      }
      Token bad = make(Tok::Symbol, std::string(1, c), 1);
      diags_.error(bad.loc, std::string("unexpected character `") + c + "`");
      advance(1);
    }
    out.push_back(make(Tok::Newline, "\\n", 1));
    out.push_back(make(Tok::End, "", 1));
    return out;
  }

 private:
  Token make(Tok k, std::string text, int len) {
    Token tok;
    tok.kind = k;
    tok.text = std::move(text);
    tok.loc = Loc{&src_, line_, col_, len};
    return tok;
  }
  void advance(size_t n) {
    for (size_t i = 0; i < n && pos_ < src_.text.size(); ++i) {
      if (src_.text[pos_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
      ++pos_;
    }
  }
  const Source& src_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

class Parser {
 public:
  Parser(std::vector<Token> toks, Diagnostics& d) : toks_(std::move(toks)), diags_(d) {}

  std::vector<Stmt> file() {
    find_unclosed();
    std::vector<Stmt> out = statements(false);
    return out;
  }

 private:
  const Token& peek() const { return toks_[pos_]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }

  // The `{` tokens no `}` closes (counted over the whole file, so that a block left open is
  // found at its brace, not at the end of the file).
  void find_unclosed() {
    std::vector<size_t> open;
    for (size_t i = 0; i < toks_.size(); ++i) {
      if (toks_[i].kind == Tok::LBrace) open.push_back(i);
      if (toks_[i].kind == Tok::RBrace && !open.empty()) open.pop_back();
    }
    unclosed_.insert(open.begin(), open.end());
  }

  bool at_line_start() const {
    return pos_ > 0 && toks_[pos_ - 1].kind == Tok::Newline && toks_[pos_ - 1].text == "\\n";
  }

  // `brace`: the `{` token that opened this block (or none at the top); `opener`: the
  // keyword of the statement it belongs to. A block no `}` closes ends, when its first
  // statement is indented deeper than the opener, at the first line that is indented no
  // deeper than the opener: that is where the `}` was left out, and the statements after
  // it are read at the level they are written at (no follow-on errors).
  std::vector<Stmt> statements(bool in_block, size_t brace = 0, const Loc& opener = Loc{}) {
    std::vector<Stmt> out;
    const bool open_block = in_block && unclosed_.count(brace);
    bool indented = false;  // the block's first statement is indented deeper than the opener
    for (;;) {
      const Token& t = peek();
      if (open_block && t.kind == Tok::Word && at_line_start()) {
        if (out.empty()) indented = t.loc.col > opener.col;
        if (indented && t.loc.col <= opener.col) {
          if (!abandoned_)
            diags_.error(toks_[brace].loc, "this `{` is never closed",
                         "add `}` before line " + std::to_string(t.loc.line) +
                             ", where the indentation returns to that of line " +
                             std::to_string(opener.line));
          return out;
        }
      }
      if (t.kind == Tok::End) {
        if (open_block && !abandoned_)
          diags_.error(toks_[brace].loc, "this `{` is never closed",
                       "add `}` where its block ends (the file ends inside it)");
        else if (in_block && !abandoned_)
          diags_.error(t.loc, "missing `}` at the end of the file");
        return out;
      }
      if (t.kind == Tok::Newline) {
        next();
        continue;
      }
      if (t.kind == Tok::RBrace) {
        if (in_block) {
          next();
          return out;
        }
        diags_.error(t.loc, "unmatched `}`");
        next();
        continue;
      }
      if (t.kind != Tok::Word) {
        diags_.error(t.loc, "expected a keyword at the start of a statement, found `" + t.text + "`");
        skip_line();
        continue;
      }
      out.push_back(statement());
    }
  }

  void skip_line() {
    while (peek().kind != Tok::Newline && peek().kind != Tok::End && peek().kind != Tok::RBrace) next();
  }

  Stmt statement() {
    Stmt s;
    const Token& kw = next();
    const Loc kw_loc = kw.loc;
    s.loc = kw.loc;
    s.keyword = kw.text;
    for (;;) {
      const Token& t = peek();
      if (t.kind == Tok::Newline || t.kind == Tok::End || t.kind == Tok::RBrace) break;
      if (t.kind == Tok::LBrace) {
        s.has_block = true;
        if (depth_ >= kMaxNesting) {
          diags_.error(t.loc, "blocks nested deeper than " + std::to_string(kMaxNesting) + " levels",
                       "a ruleset needs a few levels; the rest of the file is skipped");
          pos_ = toks_.size() - 1;  // the End token
          abandoned_ = true;
          break;
        }
        const size_t brace = pos_;
        next();
        ++depth_;
        s.block = statements(true, brace, kw_loc);
        --depth_;
        break;
      }
      Value v;
      v.loc = t.loc;
      v.text = t.text;
      switch (t.kind) {
        case Tok::Word:
          v.kind = ValueKind::Word;
          break;
        case Tok::Number:
          v.kind = ValueKind::Number;
          v.num = t.num;
          break;
        case Tok::String:
          v.kind = ValueKind::String;
          break;
        case Tok::Range:
          v.kind = ValueKind::Range;
          v.lo = t.lo;
          v.hi = t.hi;
          break;
        default:
          v.kind = ValueKind::Symbol;
          break;
      }
      s.args.push_back(v);
      next();
    }
    return s;
  }

  std::vector<Token> toks_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool abandoned_ = false;     // the rest of the file was skipped (nesting too deep)
  std::set<size_t> unclosed_;  // indexes of the `{` tokens no `}` closes
};

}  // namespace

std::vector<Stmt> parse(const Source& src, Diagnostics& diags) {
  if (src.text.size() > kMaxRulesetBytes) {
    // Located at the first byte past the limit.
    int line = 1, col = 1;
    for (size_t i = 0; i < kMaxRulesetBytes; ++i) {
      if (src.text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    diags.error(Loc{&src, line, col, 1},
                "the file passes the limit of " + std::to_string(kMaxRulesetBytes >> 10) + " KiB here (" +
                    std::to_string(src.text.size()) + " bytes in all)",
                "a ruleset is a short text");
    return {};
  }
  Lexer lx(src, diags);
  Parser p(lx.run(), diags);
  return p.file();
}

}  // namespace arb::lang
