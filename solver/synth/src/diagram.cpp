// Board diagrams (see diagram.hpp).
#include "arbiter/synth/diagram.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "arbiter/chessme_text.hpp"
#include "arbiter/notation.hpp"

#ifdef ARBITER_HAVE_PNG
#include <png.h>
#endif

namespace arb::synth {

namespace {

std::vector<std::string> fields_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string f;
  while (in >> f) out.push_back(f);
  return out;
}

std::string spaced(const std::string& letters) {
  std::string o;
  for (char ch : letters) {
    if (!o.empty()) o += ' ';
    o += ch;
  }
  return o.empty() ? "-" : o;
}

std::string file_label(const Diagram& d, int x) {
  if (!d.grid || (x >= 0 && x <= 25)) {
    if (x >= 0 && x <= 25) return std::string(1, static_cast<char>('a' + x));
  }
  return std::to_string(x);
}

// The coordinates drawn along one axis of the grid: every piece's, one more each side,
// the runs between them filled up to kMaxEmptyRun squares and elided beyond.
void grid_axis(std::vector<int64_t> at, std::vector<int>& out, std::vector<bool>& gap) {
  std::vector<int64_t> want;
  for (int64_t v : at)
    for (int64_t d : {-1, 0, 1})
      if (v + d >= INT32_MIN && v + d <= INT32_MAX) want.push_back(v + d);
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  out.clear();
  gap.clear();
  for (size_t i = 0; i < want.size(); ++i) {
    if (i > 0) {
      const int64_t empty = want[i] - want[i - 1] - 1;
      if (empty > kMaxEmptyRun) {
        out.push_back(static_cast<int>(want[i]));
        gap.push_back(true);
        continue;
      }
      for (int64_t v = want[i - 1] + 1; v < want[i]; ++v) {
        out.push_back(static_cast<int>(v));
        gap.push_back(false);
      }
    }
    out.push_back(static_cast<int>(want[i]));
    gap.push_back(false);
  }
}

// The pixel offsets of the drawn files (ranks, bottom first) and the total length: a
// square is kSquarePx, an elided run half of it.
std::vector<int> axis_offsets(const std::vector<bool>& gap, int& total) {
  std::vector<int> at;
  total = 0;
  for (size_t i = 0; i < gap.size(); ++i) {
    if (gap[i]) total += kSquarePx / 2;
    at.push_back(total);
    total += kSquarePx;
  }
  return at;
}

}  // namespace

std::string html_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    switch (ch) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += ch;
    }
  }
  return o;
}

Diagram parse_diagram(const std::string& position) {
  Diagram d;
  std::vector<std::string> f = fields_of(position);
  if (f.empty()) throw PositionError("empty position", 0);
  if (f[0].find('/') == std::string::npos && f.size() >= 6 && f[2].find('/') != std::string::npos) {
    // ChessMe text.
    ChessMePosition p = parse_chessme(position);
    d.grid = true;
    d.pieces = p.pieces;
    d.side = p.side;
    std::vector<int64_t> xs, ys;
    for (const auto& [c, ch] : p.pieces) {
      xs.push_back(c.x);
      ys.push_back(c.y);
    }
    if (xs.empty()) xs = {0}, ys = {1};
    grid_axis(xs, d.files, d.file_gap);
    grid_axis(ys, d.ranks, d.rank_gap);
    d.x0 = d.files.front();
    d.y0 = d.ranks.front();
    d.w = static_cast<int>(d.files.size());
    d.h = static_cast<int>(d.ranks.size());
    for (int c = 0; c < 2; ++c) d.held += p.hand[c] + p.pile[c] + p.captured[c];
    d.notes.push_back({"White hand", spaced(p.hand[0])});
    d.notes.push_back({"Black hand", spaced(p.hand[1])});
    for (int c = 0; c < 2; ++c)
      d.notes.push_back(
          {c ? "Black pile" : "White pile", p.pile_known[c] ? spaced(p.pile[c]) + " (top first)" : "?"});
    d.notes.push_back({"White captured", spaced(p.captured[0])});
    d.notes.push_back({"Black captured", spaced(p.captured[1])});
    d.notes.push_back({"Move", std::to_string(p.fullmove)});
    return d;
  }
  // FEN board: ranks top first, digits (possibly several) for empty squares, an optional
  // bracketed reserve at the end (or as the last rank after `/`).
  std::string board = f[0], reserve;
  size_t br = board.find('[');
  if (br != std::string::npos) {
    size_t close = board.find(']', br);
    if (close == std::string::npos) throw PositionError("unclosed reserve bracket", br);
    reserve = board.substr(br + 1, close - br - 1);
    board = board.substr(0, br);
  }
  std::vector<std::vector<char>> ranks(1);
  std::vector<std::pair<int, int>> plus, tilde;  // (rank index from the top, file) of each `+X`, `X~`
  for (size_t i = 0; i < board.size(); ++i) {
    char ch = board[i];
    if (ch == '/') {
      ranks.emplace_back();
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      int n = 0;
      // Accumulated only while it can still be a width (at most 64): a long run of digits
      // would overflow and turn negative.
      while (i < board.size() && std::isdigit(static_cast<unsigned char>(board[i]))) {
        if (n <= 64) n = n * 10 + (board[i] - '0');
        ++i;
      }
      --i;
      if (n > 64) throw PositionError("too many empty squares", i);
      ranks.back().insert(ranks.back().end(), n, 0);
    } else if (std::isalpha(static_cast<unsigned char>(ch))) {
      ranks.back().push_back(ch);
    } else if (ch == '~' && !ranks.back().empty() && ranks.back().back()) {
      tilde.push_back({static_cast<int>(ranks.size() - 1), static_cast<int>(ranks.back().size() - 1)});
    } else if (ch == '+' && i + 1 < board.size() && std::isalpha(static_cast<unsigned char>(board[i + 1]))) {
      // `+X`: a promoted X, kept as a negative column index until the board's size is known.
      plus.push_back({static_cast<int>(ranks.size() - 1), static_cast<int>(ranks.back().size())});
      ranks.back().push_back(board[++i]);
    } else {
      throw PositionError(std::string("unexpected `") + ch + "` in the board", i);
    }
  }
  d.h = static_cast<int>(ranks.size());
  d.w = static_cast<int>(ranks[0].size());
  if (d.h > 64 || d.w == 0 || d.w > 64) throw PositionError("bad board size", 0);
  for (int r = 0; r < d.h; ++r) {
    if (static_cast<int>(ranks[r].size()) != d.w) throw PositionError("ranks of different lengths", 0);
    for (int x = 0; x < d.w; ++x)
      if (ranks[r][x]) d.pieces.push_back({Coord{x, d.h - r}, ranks[r][x]});
  }
  for (const auto& [r, x] : plus) d.promoted.push_back(Coord{x, d.h - r});
  for (const auto& [r, x] : tilde) d.demotable.push_back(Coord{x, d.h - r});
  if (f.size() > 1) {
    if (f[1] != "w" && f[1] != "b") throw PositionError("the side to move must be w or b", 0);
    d.side = f[1] == "w" ? Color::White : Color::Black;
  }
  if (br != std::string::npos) {
    std::string w, b;
    for (char ch : reserve) (std::isupper(static_cast<unsigned char>(ch)) ? w : b) += ch;
    d.held += reserve;
    d.notes.push_back({"White reserve", spaced(w)});
    d.notes.push_back({"Black reserve", spaced(b)});
  }
  static const char* names[] = {"", "", "Castling", "En passant", "Halfmove clock", "Move"};
  for (size_t i = 2; i < f.size(); ++i) {
    size_t colon = f[i].find(':');
    if (i < 6 && colon == std::string::npos) {
      d.notes.push_back({names[i], f[i]});
    } else if (colon != std::string::npos) {
      std::string key = f[i].substr(0, colon), val = f[i].substr(colon + 1);
      static const std::pair<const char*, const char*> known[] = {
          {"whand", "White cards"},      {"bhand", "Black cards"},      {"pile", "Card pile"},
          {"wdiscard", "White discard"}, {"bdiscard", "Black discard"}, {"level", "Level"}};
      for (const auto& [k, label] : known)
        if (key == k) {
          key = label;
          if (std::string(k) != "level") d.held += val;  // card letters (`?` an unseen card)
        }
      d.notes.push_back({key, val.empty() ? "-" : val});
    } else {
      d.notes.push_back({"Field " + std::to_string(i + 1), f[i]});
    }
  }
  return d;
}

namespace {

// The drawn files and ranks of `d` (bottom first) with their gaps, and pixel offsets.
struct Layout {
  std::vector<int> files, ranks;
  std::vector<bool> file_gap, rank_gap;
  std::vector<int> file_px, rank_px;  // offsets from the board's left (bottom) edge
  int bw = 0, bh = 0;
  int width = 0;                     // the drawing's
  int top = kCaptionPx;              // the board's top edge: below the caption's lines
  std::vector<std::string> caption;  // its lines
  Layout(const Diagram& d, const std::string& title) {
    files = d.files;
    ranks = d.ranks;
    file_gap = d.file_gap;
    rank_gap = d.rank_gap;
    if (files.empty())
      for (int i = 0; i < d.w; ++i) files.push_back(d.x0 + i), file_gap.push_back(false);
    if (ranks.empty())
      for (int i = 0; i < d.h; ++i) ranks.push_back(d.y0 + i), rank_gap.push_back(false);
    file_px = axis_offsets(file_gap, bw);
    rank_px = axis_offsets(rank_gap, bh);
    // As wide as the board, at least kMinWidthPx, and widened (up to kMaxWidthPx) for a
    // caption that would otherwise wrap; past that the caption wraps.
    width = std::max(kMarginPx + bw + 10, kMinWidthPx);
    const std::string text = caption_text(d, title);
    width = std::max(width, std::min(kMaxWidthPx, text_width(text, kCaptionFontPx) + 2 * kMarginPx));
    caption = wrap_text(text, kCaptionFontPx, width - 2 * kMarginPx);
    top = kCaptionPx + kCaptionLinePx * static_cast<int>(caption.size() - 1);
  }
  static std::string caption_text(const Diagram& d, const std::string& title) {
    const std::string side = d.side == Color::White ? "White to move" : "Black to move";
    return title.empty() ? side : title + " \u2014 " + side;
  }
  // Pixel x of file index i, y of rank index j (top edge of the square).
  int x(size_t i) const { return kMarginPx + file_px[i]; }
  int y(size_t j) const { return top + bh - rank_px[j] - kSquarePx; }
  static long index(const std::vector<int>& v, int c) {
    auto it = std::lower_bound(v.begin(), v.end(), c);
    return it != v.end() && *it == c ? it - v.begin() : -1;
  }
};

std::pair<int, int> centre(const Layout& l, Coord c) {
  long i = Layout::index(l.files, c.x), j = Layout::index(l.ranks, c.y);
  if (i < 0 || j < 0) return {-1, -1};
  return {l.x(static_cast<size_t>(i)) + kSquarePx / 2, l.y(static_cast<size_t>(j)) + kSquarePx / 2};
}

}  // namespace

std::pair<int, int> square_centre(const Diagram& d, Coord c, const std::string& caption) {
  return centre(Layout(d, caption), c);
}

std::string diagram_svg(const Diagram& d, const std::string& caption) {
  const int S = kSquarePx;
  const Layout l(d, caption);
  const int bw = l.bw, bh = l.bh, W = l.width, top = l.top;
  const int text_w = W - 2 * kMarginPx;
  // Notes, then the legend, wrapped to the width (a note's continuation lines indented).
  std::vector<std::pair<std::string, const char*>> lines;  // text, class
  for (const auto& [label, value] : d.notes)
    for (const auto& w : wrap_text(label + ": " + value, kNoteFontPx, text_w)) lines.push_back({w, "note"});
  const std::vector<std::string> entries = legend(d);
  if (!entries.empty()) {
    // An entry is kept on one line: its spaces are no-break spaces (U+00A0).
    std::string all = "Pieces:";
    for (size_t i = 0; i < entries.size(); ++i) {
      std::string e = entries[i];
      for (size_t at; (at = e.find(' ')) != std::string::npos;) e.replace(at, 1, "\u00a0");
      all += (i ? ", " : " ") + e;
    }
    for (const auto& w : wrap_text(all, kNoteFontPx, text_w)) lines.push_back({w, "legend"});
  }
  const int notes_h = kNoteLinePx * static_cast<int>(lines.size()) + 10;
  const int H = top + bh + kMarginPx + notes_h;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diagram\" width=\"" << W << "\" height=\"" << H
    << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\">\n";
  o << "<rect width=\"" << W << "\" height=\"" << H << "\" fill=\"#ffffff\"/>\n";
  o << "<text class=\"side\" x=\"" << kMarginPx << "\" y=\"20\" font-size=\"" << kCaptionFontPx << "\">";
  for (size_t i = 0; i < l.caption.size(); ++i)
    o << "<tspan x=\"" << kMarginPx << "\"" << (i ? " dy=\"" + std::to_string(kCaptionLinePx) + "\"" : "")
      << ">" << html_escape(l.caption[i]) << "</tspan>";
  o << "</text>\n";
  // An elided run of empty files or ranks: a grey band with an ellipsis.
  for (size_t i = 0; i < l.files.size(); ++i)
    if (l.file_gap[i])
      o << "<rect class=\"gap\" x=\"" << l.x(i) - S / 2 << "\" y=\"" << top << "\" width=\"" << S / 2
        << "\" height=\"" << bh << "\" fill=\"#d8d8d8\"/><text class=\"coord gap\" x=\"" << l.x(i) - S / 4
        << "\" y=\"" << top + bh + 18 << "\" font-size=\"12\" text-anchor=\"middle\">\u2026</text>\n";
  for (size_t j = 0; j < l.ranks.size(); ++j)
    if (l.rank_gap[j])
      o << "<rect class=\"gap\" x=\"" << kMarginPx << "\" y=\"" << l.y(j) + S << "\" width=\"" << bw
        << "\" height=\"" << S / 2 << "\" fill=\"#d8d8d8\"/><text class=\"coord gap\" x=\"" << kMarginPx - 6
        << "\" y=\"" << l.y(j) + S + S / 4 + 4 << "\" font-size=\"12\" text-anchor=\"end\">\u2026</text>\n";
  for (size_t j = l.ranks.size(); j-- > 0;)
    for (size_t i = 0; i < l.files.size(); ++i) {
      const int64_t x = l.files[i], y = l.ranks[j];
      bool dark = ((x + y) % 2 + 2) % 2 == 1;
      o << "<rect class=\"sq " << (dark ? "dark" : "light") << "\" x=\"" << l.x(i) << "\" y=\"" << l.y(j)
        << "\" width=\"" << S << "\" height=\"" << S << "\" fill=\"" << (dark ? kDarkSquare : kLightSquare)
        << "\"/>\n";
    }
  for (size_t i = 0; i < l.files.size(); ++i)
    o << "<text class=\"coord file\" x=\"" << l.x(i) + S / 2 << "\" y=\"" << top + bh + 18
      << "\" font-size=\"12\" text-anchor=\"middle\">" << html_escape(file_label(d, l.files[i]))
      << "</text>\n";
  for (size_t j = l.ranks.size(); j-- > 0;)
    o << "<text class=\"coord rank\" x=\"" << kMarginPx - 6 << "\" y=\"" << l.y(j) + S / 2 + 4
      << "\" font-size=\"12\" text-anchor=\"end\">" << l.ranks[j] << "</text>\n";
  const std::map<char, std::string> names = d.names.empty() ? orthodox_names() : d.names;
  for (const auto& [c, ch] : d.pieces) {
    auto [cx, cy] = centre(l, c);
    if (cx < 0) continue;
    bool white = std::isupper(static_cast<unsigned char>(ch));
    char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    auto it = names.find(up);
    const std::string name = it == names.end() ? "" : it->second;
    o << "<g class=\"piece " << (white ? "white" : "black") << "\" data-square=\""
      << html_escape(square_name(c)) << "\"><title>" << (white ? "White " : "Black ") << up << " "
      << html_escape(square_name(c)) << (name.empty() ? "" : " (" + html_escape(name) + ")") << "</title>";
    if (has_figurine(name)) {
      o << figurine_svg(name, white, cx, cy, S - 4);
    } else {
      o << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << S * 2 / 5 << "\" fill=\""
        << (white ? "#ffffff" : "#202020") << "\" stroke=\"#000000\" stroke-width=\"1.5\"/>"
        << "<text x=\"" << cx << "\" y=\"" << cy + 7
        << "\" font-size=\"20\" font-weight=\"bold\" text-anchor=\"middle\" fill=\""
        << (white ? "#000000" : "#ffffff") << "\">" << up << "</text>";
    }
    if (std::find(d.promoted.begin(), d.promoted.end(), c) != d.promoted.end())
      o << "<text class=\"promoted\" x=\"" << cx - S / 2 + 2 << "\" y=\"" << cy - S / 2 + 13
        << "\" font-size=\"15\" font-weight=\"bold\" fill=\"#c00000\">+</text>";
    if (std::find(d.demotable.begin(), d.demotable.end(), c) != d.demotable.end())
      o << "<text class=\"demotable\" x=\"" << cx + S / 2 - 11 << "\" y=\"" << cy - S / 2 + 13
        << "\" font-size=\"15\" font-weight=\"bold\" fill=\"#c00000\">~</text>";
    o << "</g>\n";
  }
  int y = top + bh + kMarginPx + 14;
  for (const auto& [text, cls] : lines) {
    o << "<text class=\"" << cls << "\" x=\"" << kMarginPx << "\" y=\"" << y << "\" font-size=\""
      << kNoteFontPx << "\">" << html_escape(text) << "</text>\n";
    y += kNoteLinePx;
  }
  o << "</svg>\n";
  return o.str();
}

std::vector<PuzzleRow> read_puzzle_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> rec;
  std::string field;
  bool quoted = false, any = false;
  int line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (quoted) {
      if (ch == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (ch == '\n') ++line;
        field += ch;
      }
      continue;
    }
    if (ch == '"' && field.empty()) {
      quoted = any = true;
    } else if (ch == ',') {
      rec.push_back(field);
      field.clear();
      any = true;
    } else if (ch == '\n' || ch == '\r') {
      if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        rec.push_back(field);
        records.push_back(rec);
      }
      rec.clear();
      field.clear();
      any = false;
      ++line;
    } else {
      field += ch;
      any = true;
    }
  }
  if (quoted) throw std::invalid_argument("line " + std::to_string(line) + ": unclosed quote");
  if (any || !field.empty()) {
    rec.push_back(field);
    records.push_back(rec);
  }
  if (records.empty()) throw std::invalid_argument("empty puzzle file");
  const std::vector<std::string> header = {"position", "goal", "depth", "solution", "variant", "options"};
  // Six columns, or seven with `tree` last (stipulation puzzles, solver/puzzles).
  std::vector<std::string> with_tree = header;
  with_tree.push_back("tree");
  if (records[0] != header && records[0] != with_tree)
    throw std::invalid_argument(
        "line 1: the header must be position,goal,depth,solution,variant,options (then optionally tree)");
  const size_t fields = records[0].size();
  std::vector<PuzzleRow> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != fields)
      throw std::invalid_argument("record " + std::to_string(r + 1) + ": " +
                                  std::to_string(records[r].size()) + " fields, " + std::to_string(fields) +
                                  " expected");
    const auto& x = records[r];
    rows.push_back(PuzzleRow{x[0], x[1], x[2], x[3], x[4], x[5], fields == 7 ? x[6] : std::string()});
  }
  return rows;
}

std::string puzzle_page(const std::string& title, const std::vector<PuzzleRow>& rows,
                        const PageHooks& hooks) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html_escape(title)
    << "</title>\n<style>body{font-family:sans-serif;margin:16px;background:#fafafa}"
       "section{display:inline-block;vertical-align:top;margin:8px;padding:8px;background:#fff;"
       "border:1px solid #ccc}code{font-size:11px;word-break:break-all}</style></head>\n<body>\n<h1>"
    << html_escape(title) << "</h1>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const PuzzleRow& r = rows[i];
    o << "<section class=\"puzzle\" id=\"puzzle-" << i + 1 << "\">\n<h2>" << i + 1 << ". "
      << html_escape(r.goal);
    if (!r.depth.empty()) o << " (depth " << html_escape(r.depth) << ")";
    o << " \u2014 " << html_escape(r.variant) << "</h2>\n";
    try {
      Diagram d = parse_diagram(r.position);
      if (hooks.names) d.names = hooks.names(r.variant);
      o << diagram_svg(d);
    } catch (const PositionError& e) {
      o << "<p class=\"error\">unreadable position: " << html_escape(e.what()) << "</p>\n";
    }
    o << "<p><code class=\"position\">" << html_escape(r.position) << "</code></p>\n";
    if (!r.options.empty()) o << "<p class=\"options\">options: " << html_escape(r.options) << "</p>\n";
    o << "<details><summary>solution</summary><p class=\"solution\">"
      << html_escape(hooks.solution ? hooks.solution(r) : r.solution) << "</p></details>\n</section>\n";
  }
  o << "</body></html>\n";
  return o.str();
}

bool read_png(const std::string& path, Image& out) {
#ifdef ARBITER_HAVE_PNG
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path.c_str())) return false;
  img.format = PNG_FORMAT_RGB;
  out.rgb.assign(PNG_IMAGE_SIZE(img), 0);
  if (!png_image_finish_read(&img, nullptr, out.rgb.data(), 0, nullptr)) {
    png_image_free(&img);
    return false;
  }
  out.width = static_cast<int>(img.width);
  out.height = static_cast<int>(img.height);
  return true;
#else
  (void)path, (void)out;
  return false;
#endif
}

bool write_png(const std::string& path, const Image& img) {
#ifdef ARBITER_HAVE_PNG
  png_image p{};
  p.version = PNG_IMAGE_VERSION;
  p.width = static_cast<png_uint_32>(img.width);
  p.height = static_cast<png_uint_32>(img.height);
  p.format = PNG_FORMAT_RGB;
  const std::string tmp = path + ".tmp";
  if (!png_image_write_to_file(&p, tmp.c_str(), 0, img.rgb.data(), 0, nullptr)) return false;
  return std::rename(tmp.c_str(), path.c_str()) == 0;
#else
  (void)path, (void)img;
  return false;
#endif
}

bool png_pixel(const std::string& path, int x, int y, uint8_t rgb[3], int* width, int* height) {
  Image img;
  if (!read_png(path, img)) return false;
  if (width) *width = img.width;
  if (height) *height = img.height;
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return false;
  const uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3];
  rgb[0] = p[0], rgb[1] = p[1], rgb[2] = p[2];
  return true;
}

}  // namespace arb::synth
