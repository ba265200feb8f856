// The PGN text: games split from a byte stream (Splitter) and each game tokenized
// (parse_game). The byte sources: source.cpp.
#include "pgn.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace arb::records {

namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// `(x,y)` at s[p]: the length of the square, or 0.
size_t general_square(std::string_view s, size_t p) {
  size_t q = p;
  if (q >= s.size() || s[q] != '(') return 0;
  ++q;
  for (int part = 0; part < 2; ++part) {
    if (q < s.size() && (s[q] == '-' || s[q] == '+')) ++q;
    size_t d = q;
    while (q < s.size() && s[q] >= '0' && s[q] <= '9') ++q;
    if (q == d || q >= s.size()) return 0;
    if (s[q] != (part == 0 ? ',' : ')')) return 0;
    ++q;
  }
  return q - p;
}

// Where a movetext token that starts at s[p] ends.
size_t token_end(std::string_view s, size_t p) {
  while (p < s.size()) {
    char c = s[p];
    if (blank(c) || c == '{' || c == '}' || c == ';' || c == ')' || c == '[' || c == ']') break;
    if (c == '(') {
      size_t k = general_square(s, p);
      if (!k) break;
      p += k;
      continue;
    }
    ++p;
  }
  return p;
}

// The `}` that closes a comment, from s[p] on: a backslash escapes the character after it
// (`\}` stays in the comment), as kokopu reads comments; npos when the text has none.
size_t comment_end(std::string_view s, size_t p) {
  while (p < s.size()) {
    if (s[p] == '\\') {
      p += 2;
      continue;
    }
    if (s[p] == '}') return p;
    ++p;
  }
  return std::string_view::npos;
}

// Evaluation and annotation symbols written as tokens of their own (`+-`, `inf`, `RR`, ...):
// the readers take them as NAGs.
bool is_symbol(std::string_view t) {
  static constexpr std::string_view kSymbols[] = {"+-",
                                                  "-+",
                                                  "+/-",
                                                  "-/+",
                                                  "+=",
                                                  "=+",
                                                  "+/=",
                                                  "=/+",
                                                  "=",
                                                  "~",
                                                  "inf",
                                                  "RR",
                                                  "N",
                                                  "TN",
                                                  "=/~",
                                                  "~/=",
                                                  "\xe2\x88\x9e",  // ∞
                                                  "\xc2\xb1",      // ±
                                                  "\xe2\x88\x93",  // ∓
                                                  "\xe2\xa9\xb2",  // ⩲
                                                  "\xe2\xa9\xb1",  // ⩱
                                                  "\xe2\x96\xa1",  // □
                                                  "\xe2\x86\x91",
                                                  "\xe2\x86\x92",
                                                  "\xe2\x87\x86",
                                                  "\xe2\x8a\x95",
                                                  "\xe2\x96\xb3"};  // ↑ → ⇆ ⊕ △
  // Most tokens are moves and move numbers: no symbol is longer than 3 bytes, and a symbol
  // starts with one of these bytes (`N`, `RR`, `TN` with no more), or with a UTF-8 lead byte.
  if (t.empty() || t.size() > 3) return false;
  switch (t[0]) {
    case '+':
    case '-':
    case '=':
    case '~':
    case '!':
    case '?':
    case 'i':
      break;
    case 'N':
    case 'R':
    case 'T':
      if (t.size() > 2) return false;
      break;
    default:
      if (static_cast<unsigned char>(t[0]) < 0x80) return false;
  }
  for (std::string_view k : kSymbols)
    if (t == k) return true;
  return !t.empty() && t.find_first_not_of("!?") == std::string_view::npos && t.size() <= 2;
}

// Where the tag pairs that open a line end: past every `[...]` (quotes and escapes inside
// respected) and the blanks between them.
size_t tags_end(std::string_view line) {
  size_t p = 0;
  for (;;) {
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    if (p >= line.size() || line[p] != '[') return p;
    bool quoted = false;
    ++p;
    while (p < line.size() && (quoted || line[p] != ']')) {
      if (quoted && line[p] == '\\')
        ++p;
      else if (line[p] == '"')
        quoted = !quoted;
      ++p;
    }
    if (p >= line.size()) return line.size();
    ++p;
  }
}

// Whether a quoted string is open at the end of `s` (open at its start when `open`); a
// backslash escapes the character after it inside quotes.
bool quote_open(std::string_view s, bool open) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (open && s[i] == '\\')
      ++i;
    else if (s[i] == '"')
      open = !open;
  }
  return open;
}

// Movetext state the splitter tracks across lines.
struct ScanState {
  bool in_comment = false;
  int depth = 0;
};
// Scans one movetext line: whether it holds a token, and whether a result stands at depth 0.
void scan_line(std::string_view line, ScanState& st, bool& has_token, bool& has_result) {
  size_t p = 0;
  while (p < line.size()) {
    if (st.in_comment) {
      size_t q = comment_end(line, p);
      if (q == std::string_view::npos) return;
      st.in_comment = false;
      p = q + 1;
      continue;
    }
    char c = line[p];
    if (blank(c)) {
      ++p;
    } else if (c == '{') {
      st.in_comment = true;
      ++p;
    } else if (c == ';') {
      return;
    } else if (c == '(' && !general_square(line, p)) {
      ++st.depth;
      has_token = true;
      ++p;
    } else if (c == ')') {
      if (st.depth > 0) --st.depth;
      ++p;
    } else {
      size_t q = token_end(line, p);
      if (q == p) q = p + 1;
      has_token = true;
      if (st.depth == 0 && is_result(line.substr(p, q - p))) has_result = true;
      p = q;
    }
  }
}

}  // namespace

bool is_result(std::string_view t) {
  if (t.empty() || (t[0] != '1' && t[0] != '0' && t[0] != '*')) return false;  // most tokens: moves
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

// ---------------------------------------------------------------------------------------
// Splitter

// The buffer starts at 64 KiB and doubles for a longer line: a small input (a fuzz input, a
// one-game file) does not pay for zeroing a megabyte.
Splitter::Splitter(std::unique_ptr<ByteSource> src, std::string name)
    : src_(std::move(src)), name_(std::move(name)), buf_(size_t{64} << 10) {}

bool Splitter::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) {
    if (buf_.size() >= kMaxGameBytes)
      throw InputError(name_ + ":" + std::to_string(line_no_ + 1) + ": line longer than " +
                       std::to_string(kMaxGameBytes >> 20) + " MiB");
    buf_.resize(buf_.size() * 2);
  }
  size_t k = src_->read(buf_.data() + end_, buf_.size() - end_);
  if (k == 0) {
    eof_ = true;
    return false;
  }
  if (first_chunk_) {
    first_chunk_ = false;
    // A byte-order mark may arrive in pieces only from a pathological source; read on.
    while (end_ + k < 3 && !eof_) {
      size_t more = src_->read(buf_.data() + end_ + k, buf_.size() - end_ - k);
      if (more == 0) break;
      k += more;
    }
    if (k >= 3 && std::memcmp(buf_.data() + end_, "\xEF\xBB\xBF", 3) == 0) {
      begin_ = end_ + 3;
      bom_ = true;
    }
  }
  end_ += k;
  return true;
}

bool Splitter::read_line(std::string_view& line) {
  // A line ends at LF, CRLF or a CR alone (old Mac files); the CR stays on the line here.
  size_t scan_from = begin_;
  for (;;) {
    const char* base = buf_.data();
    const char* nl = static_cast<const char*>(std::memchr(base + scan_from, '\n', end_ - scan_from));
    const size_t lim = nl ? static_cast<size_t>(nl - base) : end_;
    const char* cr = static_cast<const char*>(std::memchr(base + scan_from, '\r', lim - scan_from));
    if (cr && (cr + 1 < base + end_ || eof_)) {
      const size_t len = static_cast<size_t>(cr - (base + begin_)) + 1;
      line = std::string_view(base + begin_, len);
      begin_ += len + (cr + 1 == nl ? 1 : 0);
      break;
    }
    if (nl && !cr) {
      const size_t len = static_cast<size_t>(nl - (base + begin_));
      line = std::string_view(base + begin_, len);
      begin_ += len + 1;
      break;
    }
    // No line end yet, or a CR last in the buffer (is an LF next?): more bytes.
    size_t have = end_ - begin_ - (cr ? 1 : 0);
    if (!fill()) {
      if (end_ == begin_) return false;
      if (cr) {  // eof_ is set: the CR ends the line
        scan_from = begin_ + have;
        continue;
      }
      line = std::string_view(buf_.data() + begin_, end_ - begin_);
      begin_ = end_;
      break;
    }
    scan_from = begin_ + have;
  }
  ++line_no_;
  if (std::memchr(line.data(), '\0', line.size()))
    throw InputError(name_ + ":" + std::to_string(line_no_) + ": binary data (a NUL byte): not a PGN file");
  line_crlf_ = !line.empty() && line.back() == '\r';
  if (line_crlf_) line.remove_suffix(1);
  return true;
}

bool Splitter::next(std::string& out, uint64_t& first_line) {
  const size_t start = out.size();
  bool has_content = false, seen_move = false, ended = false;
  bool first = true;
  ScanState st;
  st.in_comment = false;
  bool crlf = false, in_tag_value = false;
  game_cut_ = 0;
  // A line that starts the next game: kept for the next call.
  auto hold = [this](std::string_view line, uint64_t no, bool line_crlf) {
    pending_ = true;
    pending_line_.assign(line);
    pending_no_ = no;
    pending_crlf_ = line_crlf;
  };
  for (;;) {
    std::string_view line;
    uint64_t no;
    std::string held;
    bool line_crlf = false;
    if (pending_) {
      held.swap(pending_line_);
      line = held;
      no = pending_no_;
      pending_ = false;
      line_crlf = pending_crlf_;
    } else {
      if (!read_line(line)) break;
      no = line_no_;
      line_crlf = line_crlf_;
    }
    if (first) {
      first_line = no;
      first = false;
    }
    bool escape = !st.in_comment && !line.empty() && line[0] == '%';
    if (in_tag_value) {
      // The rest of a tag value that a line break cut (the tokenizer reports it).
      if (line.find_first_not_of(" \t") == std::string_view::npos)
        in_tag_value = false;
      else
        in_tag_value = quote_open(line, true);
      escape = true;  // neither a tag line nor movetext
    }
    if (!escape) {
      size_t p = 0;
      while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
      bool tagline = p < line.size() && line[p] == '[';
      // A tag pair inside an unclosed comment starts the next game (recovery from a
      // missing `}`; the tokenizer reports the comment in the game that opened it).
      if (tagline && st.in_comment) {
        size_t q = p + 1;
        while (q < line.size() && (std::isalnum(static_cast<unsigned char>(line[q])) || line[q] == '_')) ++q;
        tagline = q > p + 1 && q + 1 < line.size() && line[q] == ' ' && line[q + 1] == '"';
        if (tagline) st.in_comment = false;
      }
      if (tagline) {
        if (seen_move || ended) {
          // Tags after movetext without a result: the game before them has none (its reader
          // reports it at this line).
          game_cut_ = ended ? 0 : no;
          hold(line, no, line_crlf);
          break;
        }
        has_content = true;
        // A value a line break cuts: `[Site "Somewhere` (the line does not end the tag).
        size_t last = line.find_last_not_of(" \t");
        in_tag_value = line[last] != ']' && quote_open(line.substr(p), false);
        // Movetext after the tags on the same line (`[Event "x"][Result "*"] 1. e4 *`).
        std::string_view rest = in_tag_value ? std::string_view() : line.substr(tags_end(line));
        bool has_token = false, has_result = false;
        scan_line(rest, st, has_token, has_result);
        if (has_token) seen_move = true;
        if (has_result) ended = true;
      } else {
        ScanState copy = st;
        bool has_token = false, has_result = false;
        scan_line(line, copy, has_token, has_result);
        if (ended && has_token) {
          hold(line, no, line_crlf);
          break;
        }
        st = copy;
        if (has_token) has_content = seen_move = true;
        if (has_result) ended = true;
      }
    }
    crlf = crlf || line_crlf;
    out.append(line);
    out.push_back('\n');
    if (out.size() - start > kMaxGameBytes)
      throw InputError(name_ + ":" + std::to_string(first_line) + ": a game longer than " +
                       std::to_string(kMaxGameBytes >> 20) + " MiB");
  }
  if (!has_content) {
    out.resize(start);
    return pending_ ? next(out, first_line) : false;
  }
  game_crlf_ = crlf;
  game_bom_ = bom_ && !bom_reported_;
  bom_reported_ = bom_reported_ || game_bom_;
  return true;
}

// ---------------------------------------------------------------------------------------
// Tokenizer

const std::string* ParsedGame::tag(std::string_view name) const {
  for (const auto& t : tags)
    if (t.name == name) return &t.value;
  return nullptr;
}

void ParsedGame::clear() {
  tags.clear();
  tokens.clear();
  error.clear();
  error_line = error_column = 0;
  issues.clear();
  bom = crlf = false;
  cut_line = 0;
}

void parse_game(std::string_view s, uint64_t first_line, ParsedGame& g) {
  g.clear();
  uint32_t line = static_cast<uint32_t>(first_line);
  size_t line_start = 0;
  size_t p = 0;
  int depth = 0;
  std::vector<std::pair<uint32_t, uint32_t>> open_at;  // line, column of each open `(`
  bool after_result = false;
  // Every problem is kept (up to a bound); the first error is also `error`.
  auto issue = [&](bool error, const char* code, const std::string& what, size_t at) {
    if (g.issues.size() >= 64) return;
    g.issues.push_back({error, code, what, line, static_cast<uint32_t>(at - line_start + 1)});
    if (error && g.error.empty()) {
      g.error = what;
      g.error_line = line;
      g.error_column = g.issues.back().column;
    }
  };
  auto fail = [&](const std::string& what, size_t at) { issue(true, "syntax", what, at); };
  auto newline_at = [&](size_t q) {
    ++line;
    line_start = q + 1;
  };
  bool stopped = false;
  while (p < s.size()) {
    if (g.tokens.size() >= kMaxTokens) {
      // Memory stays bounded: the rest of the game is not read.
      issue(true, "limit",
            "more than " + std::to_string(kMaxTokens) +
                " movetext tokens in one game (the token limit): the rest is not read",
            p);
      stopped = true;
      break;
    }
    char c = s[p];
    if (c == '\n') {
      newline_at(p);
      ++p;
      continue;
    }
    if (blank(c)) {
      ++p;
      continue;
    }
    if (c == '%' && p == line_start) {  // escape line
      size_t q = s.find('\n', p);
      p = q == std::string_view::npos ? s.size() : q;
      continue;
    }
    if (c == '{') {
      size_t open = p;
      uint32_t open_line = line;
      size_t open_ls = line_start;
      ++p;
      while (p < s.size() && s[p] != '}') {
        if (s[p] == '\\' && p + 1 < s.size()) {
          if (s[p + 1] == '\n') newline_at(p + 1);
          p += 2;
          continue;
        }
        if (s[p] == '\n') newline_at(p);
        ++p;
      }
      if (p >= s.size()) {
        uint32_t l = line;
        size_t ls = line_start;
        line = open_line;
        line_start = open_ls;
        fail("comment never closed (`{` without `}`)", open);
        line = l;
        line_start = ls;
        break;
      }
      ++p;
      continue;
    }
    if (c == ';') {
      size_t q = s.find('\n', p);
      p = q == std::string_view::npos ? s.size() : q;
      continue;
    }
    if (c == '[') {
      // A tag pair: [Name "value"], value with \" and \\ escapes.
      size_t q = p + 1;
      while (q < s.size() && (s[q] == ' ' || s[q] == '\t')) ++q;
      size_t ns = q;
      while (q < s.size() && (std::isalnum(static_cast<unsigned char>(s[q])) || s[q] == '_' || s[q] == '-'))
        ++q;
      Tag t;
      t.name.assign(s.substr(ns, q - ns));
      t.line = line;
      while (q < s.size() && (s[q] == ' ' || s[q] == '\t')) ++q;
      bool ok = !t.name.empty() && q < s.size() && s[q] == '"';
      if (ok) {
        ++q;
        t.value_column = static_cast<uint32_t>(q - line_start + 1);
        while (q < s.size() && s[q] != '"' && s[q] != '\n') {
          if (s[q] == '\\' && q + 1 < s.size() && (s[q + 1] == '"' || s[q + 1] == '\\')) ++q;
          t.value.push_back(s[q]);
          ++q;
        }
        if (q < s.size() && s[q] == '\n') {
          // A line break inside the value (an error): read on to its closing quote and `]`
          // when they come before a blank line, so that the next line is not taken as moves.
          size_t close = s.find('"', q);
          size_t blank_line = s.find("\n\n", q);
          size_t rb = close == std::string_view::npos ? close : s.find_first_not_of(" \t\r", close + 1);
          if (close != std::string_view::npos && close < blank_line && rb != std::string_view::npos &&
              s[rb] == ']') {
            fail("a line break inside a tag value", p);
            for (; q < close; ++q) {
              if (s[q] == '\n') newline_at(q);
              if (s[q] != '\r') t.value.push_back(s[q] == '\n' ? ' ' : s[q]);
            }
          }
        }
        ok = q < s.size() && s[q] == '"';
        if (ok) {
          size_t close = q;
          ++q;
          while (q < s.size() && (s[q] == ' ' || s[q] == '\t' || s[q] == '\r')) ++q;
          ok = q < s.size() && s[q] == ']';
          if (!ok) {
            // An unescaped quote inside the value, `[Event "The "Big" one"]`: the value runs to
            // the last quote before the `]` that ends the line (a warning).
            size_t eol = s.find('\n', close);
            if (eol == std::string_view::npos) eol = s.size();
            size_t rb = s.find_last_not_of(" \t\r", eol - 1);
            if (rb != std::string_view::npos && rb > close && s[rb] == ']') {
              size_t lq = s.find_last_not_of(" \t", rb - 1);
              if (lq != std::string_view::npos && lq > close && s[lq] == '"') {
                issue(false, "unescaped-quote", "a `\"` inside the tag value is not escaped (`\\\"`)", close);
                t.value.push_back('"');
                for (size_t k = close + 1; k < lq; ++k) {
                  if (s[k] == '\\' && k + 1 < lq && (s[k + 1] == '"' || s[k + 1] == '\\')) ++k;
                  t.value.push_back(s[k]);
                }
                q = rb;
                ok = true;
              }
            }
          }
        }
      }
      if (!ok) {
        fail("malformed tag pair (expected [Name \"value\"])", p);
        size_t e = s.find('\n', p);
        p = e == std::string_view::npos ? s.size() : e;
        continue;
      }
      g.tags.push_back(std::move(t));
      p = q + 1;
      continue;
    }
    if (c == '(' && !general_square(s, p)) {
      ++depth;
      open_at.push_back({line, static_cast<uint32_t>(p - line_start + 1)});
      g.tokens.push_back(
          Token{TokKind::Open, s.substr(p, 1), line, static_cast<uint32_t>(p - line_start + 1)});
      ++p;
      continue;
    }
    if (c == ')') {
      if (depth == 0) {
        fail("`)` without a variation to close", p);
      } else {
        --depth;
        open_at.pop_back();
        g.tokens.push_back(
            Token{TokKind::Close, s.substr(p, 1), line, static_cast<uint32_t>(p - line_start + 1)});
      }
      ++p;
      continue;
    }
    if (c == '$') {  // NAG
      size_t q = p + 1;
      while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
      p = q;
      continue;
    }
    size_t q = token_end(s, p);
    if (q == p) {
      fail(std::string("unexpected `") + c + "`", p);
      ++p;
      continue;
    }
    // A `*` glued to the move before it (`h6*`) ends the game, as the readers read it.
    if (q - p > 1 && s[q - 1] == '*' && s[q - 2] != '*') --q;
    std::string_view t = s.substr(p, q - p);
    size_t tp = p;
    p = q;
    if (is_result(t)) {
      if (depth == 0) after_result = true;
      g.tokens.push_back(Token{TokKind::Result, t, line, static_cast<uint32_t>(tp - line_start + 1)});
      continue;
    }
    if (is_symbol(t)) continue;
    {
      // A null move (the side to move passes), as the readers write it.
      std::string_view n = t;
      size_t k = 0;
      while (k < n.size() && std::isdigit(static_cast<unsigned char>(n[k]))) ++k;
      if (k > 0 && k < n.size() && n[k] == '.') {
        while (k < n.size() && n[k] == '.') ++k;
        n = n.substr(k);
        tp += k;
      }
      const char n0 = n.empty() ? ' ' : n[0];
      if ((n0 == '-' || n0 == 'Z' || n0 == '0' || n0 == '@' || n0 == '<') &&
          (n == "--" || n == "Z0" || n == "0000" || n == "@@@@" || n == "<>")) {
        if (after_result) {
          fail("movetext after the game's result", tp);
          continue;
        }
        g.tokens.push_back(Token{TokKind::Null, n, line, static_cast<uint32_t>(tp - line_start + 1)});
        continue;
      }
      tp = p - t.size();
    }
    // Move numbers, glued or not: `12.`, `12...`, `1.e4`; castling with zeros is a move.
    if (std::isdigit(static_cast<unsigned char>(t[0])) && t.substr(0, 3) != "0-0") {
      size_t k = 0;
      while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k]))) ++k;
      size_t dots = k;
      while (dots < t.size() && t[dots] == '.') ++dots;
      if (dots == k) {
        fail("unexpected number `" + std::string(t) + "`", tp);
        continue;
      }
      t = t.substr(dots);
      tp += dots;
      if (t.empty()) continue;
    }
    // Annotation marks: `!`, `?` alone or after a move; `e.p.` after an en-passant capture.
    Token tok{TokKind::Move, t, line, static_cast<uint32_t>(tp - line_start + 1)};
    while (!tok.text.empty() && (tok.text.back() == '!' || tok.text.back() == '?')) tok.text.remove_suffix(1);
    if (tok.text.size() > 4 && tok.text.substr(tok.text.size() - 4) == "e.p.") tok.text.remove_suffix(4);
    while (!tok.text.empty() && (tok.text.back() == '+' || tok.text.back() == '#')) {
      if (tok.text.back() == '#') tok.mate_mark = true;
      if (tok.text.back() == '+') tok.check_mark = true;
      tok.text.remove_suffix(1);
    }
    if (tok.text.empty() || tok.text == "e.p." || tok.text == "ep") continue;
    if (after_result) {
      fail("movetext after the game's result", tp);
      continue;
    }
    g.tokens.push_back(tok);
  }
  if (depth > 0 && !stopped && g.issues.size() < 64) {
    // At the innermost `(` left open.
    g.issues.push_back({true, "syntax", "variation never closed (`(` without `)`)", open_at.back().first,
                        open_at.back().second});
    if (g.error.empty()) {
      g.error = g.issues.back().message;
      g.error_line = g.issues.back().line;
      g.error_column = g.issues.back().column;
    }
  }
}

}  // namespace arb::records
