// Diagrams: what the SVG and the puzzle page hold, and what a real headless browser
// (Debian's chromium) shows of them: the DOM text it builds (coordinates, pieces, side
// to move, hands) and the pixels of a screenshot (a dark square, a light square, a Black
// disc). Skipped with a message when chromium is missing.
#include "arbiter/synth/diagram.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "helpers.hpp"
#include "process.hpp"

namespace {

using namespace testing_helpers;
using namespace testing_process;
namespace fs = std::filesystem;

std::string chromium() {
  if (const char* env = std::getenv("ARBITER_CHROMIUM")) return env;
  for (const char* c : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (fs::exists(c)) return c;
  return "";
}

std::string run_capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("arbiter-diagram-" + std::to_string(getpid()));
  fs::create_directories(d);
  return d;
}

std::string browser_flags(const fs::path& profile) {
  return " --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1"
         " --user-data-dir=" +
         shell_quote(profile.string());
}

TEST(Diagram, ReadsEveryPositionForm) {
  auto d = arb::synth::parse_diagram("8/8/8/8/8/8/8/4K2k[QRrb] b - - 0 7");
  EXPECT_FALSE(d.grid);
  EXPECT_EQ(d.w, 8);
  EXPECT_EQ(d.side, arb::Color::Black);
  ASSERT_EQ(d.pieces.size(), 2u);
  EXPECT_EQ(d.pieces[0].first, (arb::Coord{4, 1}));
  std::string svg = arb::synth::diagram_svg(d);
  EXPECT_NE(svg.find("Black to move"), std::string::npos);
  EXPECT_NE(svg.find("White reserve: Q R"), std::string::npos);
  EXPECT_NE(svg.find("Black reserve: r b"), std::string::npos);

  auto g = arb::synth::parse_diagram("kb6,Q(-2,0),Kd5 w BN/r -/? -/P 3");
  EXPECT_TRUE(g.grid);
  EXPECT_EQ(g.x0, -3);  // one square beyond the leftmost piece
  EXPECT_EQ(g.y0, -1);
  EXPECT_EQ(g.w, 8);
  EXPECT_EQ(g.h, 9);
  svg = arb::synth::diagram_svg(g);
  EXPECT_NE(svg.find(">-2</text>"), std::string::npos);  // a file off a..z by its x
  EXPECT_NE(svg.find("White hand: B N"), std::string::npos);
  EXPECT_NE(svg.find("Black pile: ?"), std::string::npos);
  EXPECT_NE(svg.find("Black captured: P"), std::string::npos);

  auto n = arb::synth::parse_diagram(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 level:2 pile:?50 wdiscard:- bdiscard:- "
      "whand:PNB "
      "bhand:?3");
  svg = arb::synth::diagram_svg(n);
  EXPECT_NE(svg.find("White cards: PNB"), std::string::npos);
  EXPECT_NE(svg.find("Card pile: ?50"), std::string::npos);
  EXPECT_THROW(arb::synth::parse_diagram("8/8/9 w"), arb::PositionError);
}

TEST(Diagram, PuzzleCsv) {
  auto rows = arb::synth::read_puzzle_csv(
      "position,goal,depth,solution,variant,options\n"
      "\"6k1/R7/6K1/8/8/8/8/8 w - - 0 1\",mate,1,a7a8,chess,\n"
      "\"kb6,Kd5 w -/- -/- -/- 1\",draw,0,\"\"\"none\"\", really\",chessme,seed=2\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].solution, "\"none\", really");
  EXPECT_EQ(rows[1].options, "seed=2");
  EXPECT_THROW(arb::synth::read_puzzle_csv("a,b\n"), std::invalid_argument);
  // The seventh column `tree` (stipulation puzzles): read when the header names it, a
  // record of six fields then refused.
  auto seven = arb::synth::read_puzzle_csv(
      "position,goal,depth,solution,variant,options,tree\n"
      "\"2k5/8/8/3K4/1R6/8/8/8 w - - 0 1\",#2,2,d5d6,chess,,\"[{\"\"uci\"\":[\"\"d5d6\"\"]}]\"\n");
  ASSERT_EQ(seven.size(), 1u);
  EXPECT_EQ(seven[0].goal, "#2");
  EXPECT_EQ(seven[0].tree, "[{\"uci\":[\"d5d6\"]}]");
  EXPECT_EQ(rows[0].tree, "");
  EXPECT_THROW(
      arb::synth::read_puzzle_csv("position,goal,depth,solution,variant,options,tree\nx,#2,2,a,chess,\n"),
      std::invalid_argument);
  EXPECT_THROW(arb::synth::read_puzzle_csv("position,goal,depth,solution,variant,options\nx,y\n"),
               std::invalid_argument);
  std::string page = arb::synth::puzzle_page("T", rows);
  EXPECT_NE(page.find("id=\"puzzle-2\""), std::string::npos);
  EXPECT_NE(page.find("&quot;none&quot;, really"), std::string::npos);
}

TEST(Diagram, CommandWritesSvgAndPage) {
  fs::path dir = temp_dir();
  auto r = run_arbiter({"diagram", "--variant", "chessembly", "--position",
                        "8/8/8/8/8/8/8/4K2k[QRrb] w - - 0 1", "--svg", (dir / "c.svg").string()});
  ASSERT_EQ(r.code, 0) << r;
  std::ifstream in(dir / "c.svg");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("White reserve: Q R"), std::string::npos);
  r = run_arbiter({"diagram", "--variant", "chess", "--position", "8/8/8/8/8/8/8/4K2k w - - 0 1 junk"});
  EXPECT_EQ(r.code, 2) << r;
  {
    std::ofstream csv(dir / "p.csv");
    csv << "position,goal,depth,solution,variant,options\n\"6k1/R7/6K1/8/8/8/8/8 w - - 0 "
           "1\",mate,1,a7a8,chess,\n";
  }
  r = run_arbiter({"diagram", "--puzzles", (dir / "p.csv").string(), "--html", (dir / "p.html").string()});
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_TRUE(fs::exists(dir / "p.html"));
  fs::remove_all(dir);
}

TEST(Diagram, HeadlessChromiumShowsTheBoard) {
  std::string browser = chromium();
  if (browser.empty()) {
    if (const char* req = std::getenv("ARBITER_REQUIRE_CHROMIUM"); req && std::string(req) == "1")
      FAIL() << "ARBITER_REQUIRE_CHROMIUM=1 but chromium is not installed (apt-get install chromium)";
    GTEST_SKIP() << "chromium not found (apt-get install chromium); browser check skipped";
  }
  fs::path dir = temp_dir();
  // A page with the diagram alone at the origin, so that SVG coordinates are page pixels.
  auto d = arb::synth::parse_diagram("kb6,Qe5,Kd5 b BN/r -/- -/- 1");
  std::string svg = arb::synth::diagram_svg(d, "ChessMe");
  {
    std::ofstream page(dir / "board.html");
    page << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">" << svg
         << "</body></html>\n";
  }
  std::string url = "file://" + (dir / "board.html").string();
  std::string dom = run_capture(shell_quote(browser) + browser_flags(dir / "profile") + " --dump-dom " +
                                shell_quote(url) + " 2>/dev/null");
  ASSERT_NE(dom.find("<svg"), std::string::npos) << "chromium produced no DOM:\n" << dom;
  for (const char* must : {"Black to move", ">a</text>", ">e</text>", ">f</text>", ">7</text>", ">4</text>",
                           "White Q e5", "White K d5", "Black K b6", "White hand: B N", "Black hand: r"})
    EXPECT_NE(dom.find(must), std::string::npos) << must;

  fs::path shot = dir / "board.png";
  run_capture(shell_quote(browser) + browser_flags(dir / "profile") + " --window-size=400,600 --screenshot=" +
              shell_quote(shot.string()) + " " + shell_quote(url) + " 2>/dev/null");
  uint8_t rgb[3];
  int w = 0, h = 0;
  auto [dx, dy] = arb::synth::square_centre(d, arb::Coord{2, 5});  // c5: dark, empty
  ASSERT_TRUE(arb::synth::png_pixel(shot.string(), dx, dy, rgb, &w, &h)) << "no screenshot (or no libpng)";
  EXPECT_EQ(w, 400);
  EXPECT_NEAR(rgb[0], 0x76, 3);
  EXPECT_NEAR(rgb[1], 0x96, 3);
  EXPECT_NEAR(rgb[2], 0x56, 3);
  auto [lx, ly] = arb::synth::square_centre(d, arb::Coord{4, 6});  // e6: light, empty
  ASSERT_TRUE(arb::synth::png_pixel(shot.string(), lx, ly, rgb));
  EXPECT_NEAR(rgb[0], 0xee, 3);
  EXPECT_NEAR(rgb[2], 0xd2, 3);
  auto [kx, ky] = arb::synth::square_centre(d, arb::Coord{1, 6});  // b6: the Black king's disc
  ASSERT_TRUE(arb::synth::png_pixel(shot.string(), kx, ky - 13, rgb));
  EXPECT_LT(rgb[0] + rgb[1] + rgb[2], 3 * 0x40);
  fs::remove_all(dir);
}

}  // namespace

// The grid is drawn around its pieces: a run of more than kMaxEmptyRun empty files or
// ranks between two pieces is one narrow band, so the drawing grows with the pieces, not
// with their distance (a king at (3000,3000) made a 747 MB SVG; a billion squares apart,
// every square was drawn).
TEST(Diagram, TheGridElidesEmptyRuns) {
  auto d = arb::synth::parse_diagram("K(3000,3000),k(0,0),Q(2,3) w -/- -/- -/- 1");
  EXPECT_EQ(d.files, (std::vector<int>{-1, 0, 1, 2, 3, 2999, 3000, 3001}));
  EXPECT_EQ(d.file_gap, (std::vector<bool>{false, false, false, false, false, true, false, false}));
  EXPECT_EQ(d.ranks, (std::vector<int>{-1, 0, 1, 2, 3, 4, 2999, 3000, 3001}));
  std::string svg = arb::synth::diagram_svg(d);
  EXPECT_LT(svg.size(), 20000u);
  size_t squares = 0;
  for (size_t at = svg.find("class=\"sq "); at != std::string::npos; at = svg.find("class=\"sq ", at + 1))
    ++squares;
  EXPECT_EQ(squares, 8u * 9u);
  EXPECT_NE(svg.find(">3000</text>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"gap\""), std::string::npos);
  // Each piece sits on its square, the far king right of the band.
  auto [kx, ky] = arb::synth::square_centre(d, arb::Coord{3000, 3000});
  auto [qx, qy] = arb::synth::square_centre(d, arb::Coord{2, 3});
  EXPECT_GT(kx, qx);
  EXPECT_LT(ky, qy);
  EXPECT_EQ(arb::synth::square_centre(d, arb::Coord{100, 100}).first, -1);  // elided: not drawn
  // The extremes of int32: no overflow, a few squares.
  auto far =
      arb::synth::parse_diagram("K(2147483647,2147483647),k(-2147483648,-2147483648),Q(0,0) w -/- -/- -/- 1");
  EXPECT_EQ(far.files, (std::vector<int>{INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX}));
  EXPECT_LT(arb::synth::diagram_svg(far).size(), 20000u);
  // Pieces close together: the window as before (no band).
  auto near = arb::synth::parse_diagram("k(0,0),K(4,0) w -/- -/- -/- 1");
  EXPECT_EQ(near.w, 7);
  EXPECT_EQ(std::count(near.file_gap.begin(), near.file_gap.end(), true), 0);
}

// A run of digits longer than any width (found by the libFuzzer puzzles target): it once
// overflowed an int, turned negative, passed the width check and asked a vector for 2^64
// squares. It is refused as too many empty squares.
TEST(Diagram, LongDigitRunsAreRefused) {
  for (const char* text : {"99999999999999999999/8 w - - 0 1", "4294967296/8 w - - 0 1", "65/8 w - - 0 1"})
    EXPECT_THROW(arb::synth::parse_diagram(text), arb::PositionError) << text;
}

// Every bundled variant's diagram (and a few of the catalogue's: xiangqi, shogi's hands and
// promoted pieces, crazyhouse's pockets), as headless Chromium draws it, against the
// reference pictures in corpus/diagrams/ (the cases in corpus/diagrams/cases.tsv; remade by
// corpus/tools/make_diagram_refs.sh). All diagrams are drawn on one page by one browser
// run, each at a known place, and cut out of the screenshot. A script on the page checks
// that no text (title, notes, legend) reaches past its diagram's edges.
namespace {

struct RenderCase {
  std::string name;
  std::vector<std::string> args;
  int x = 0, y = 0, w = 0, h = 0;  // where it is drawn on the page
};

std::vector<RenderCase> render_cases() {
  std::ifstream in(source_path("corpus/diagrams/cases.tsv"));
  std::vector<RenderCase> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    RenderCase c;
    c.name = f[0];
    c.args.assign(f.begin() + 1, f.end());
    out.push_back(c);
  }
  return out;
}

int svg_attribute(const std::string& svg, const std::string& name) {
  size_t at = svg.find(" " + name + "=\"");
  return at == std::string::npos ? 0 : std::atoi(svg.c_str() + at + name.size() + 3);
}

// The per-channel mean absolute difference and the fraction of pixels differing by more
// than 48 in some channel, of `a` against the region (x, y) of `page` (the sizes of `a`).
std::pair<double, double> difference(const arb::synth::Image& a, const arb::synth::Image& page, int x,
                                     int y) {
  uint64_t sum = 0, off = 0;
  for (int j = 0; j < a.height; ++j)
    for (int i = 0; i < a.width; ++i) {
      const uint8_t* p = &a.rgb[(static_cast<size_t>(j) * a.width + i) * 3];
      const uint8_t* q = &page.rgb[(static_cast<size_t>(y + j) * page.width + x + i) * 3];
      int worst = 0;
      for (int k = 0; k < 3; ++k) {
        const int d = std::abs(p[k] - q[k]);
        sum += d;
        worst = std::max(worst, d);
      }
      off += worst > 48;
    }
  const double n = static_cast<double>(a.width) * a.height;
  return {static_cast<double>(sum) / (3 * n), static_cast<double>(off) / n};
}

arb::synth::Image crop(const arb::synth::Image& page, int x, int y, int w, int h) {
  arb::synth::Image out;
  out.width = w;
  out.height = h;
  for (int j = 0; j < h; ++j) {
    const uint8_t* row = &page.rgb[(static_cast<size_t>(y + j) * page.width + x) * 3];
    out.rgb.insert(out.rgb.end(), row, row + 3 * w);
  }
  return out;
}

}  // namespace

TEST(DiagramRender, BundledVariantsMatchTheirReferences) {
  const std::string browser = chromium();
  if (browser.empty()) {
    if (const char* req = std::getenv("ARBITER_REQUIRE_CHROMIUM"); req && std::string(req) == "1")
      FAIL() << "ARBITER_REQUIRE_CHROMIUM=1 but chromium is not installed (apt-get install chromium)";
    GTEST_SKIP() << "chromium not found (apt-get install chromium); diagram render check skipped";
  }
  const bool update = std::getenv("ARBITER_UPDATE_DIAGRAMS") != nullptr;
  std::vector<RenderCase> cases = render_cases();
  ASSERT_GE(cases.size(), 10u);
  fs::path dir = temp_dir();
  // The page: a marker square at the top left (grey; the script turns it green when every
  // text fits its diagram, red otherwise), then the diagrams in rows up to 2,000 px wide.
  std::string body;
  int x = 0, y = 30, row_h = 0, page_w = 0;
  for (auto& c : cases) {
    std::vector<std::string> args = {"diagram"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = run_arbiter(args, arbiter_source_dir());
    ASSERT_EQ(r.code, 0) << c.name << ": " << r;
    c.w = svg_attribute(r.out, "width");
    c.h = svg_attribute(r.out, "height");
    ASSERT_GT(c.w, 0) << c.name;
    if (x > 0 && x + c.w > 2000) x = 0, y += row_h + 10, row_h = 0;
    c.x = x, c.y = y;
    body += "<div style=\"position:absolute;left:" + std::to_string(x) + "px;top:" + std::to_string(y) +
            "px;line-height:0\" data-case=\"" + c.name + "\">" + r.out + "</div>\n";
    x += c.w + 10;
    row_h = std::max(row_h, c.h);
    page_w = std::max(page_w, x);
  }
  const int page_h = y + row_h + 10;
  {
    std::ofstream page(dir / "all.html");
    page << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body "
            "style=\"margin:0;background:#fff\">"
            "<div id=\"fit\" "
            "style=\"position:absolute;left:0;top:0;width:20px;height:20px;background:#808080\">"
            "</div><pre id=\"clipped\"></pre>\n"
         << body
         << "<script>\nconst bad = [];\n"
            "for (const svg of document.querySelectorAll('svg')) {\n"
            "  const w = svg.width.baseVal.value, h = svg.height.baseVal.value;\n"
            "  for (const t of svg.querySelectorAll('text')) {\n"
            "    const b = t.getBBox();\n"
            "    if (b.x < 0 || b.y < 0 || b.x + b.width > w || b.y + b.height > h)\n"
            "      bad.push(svg.parentNode.dataset.case + ': ' + t.textContent);\n"
            "  }\n"
            "}\n"
            "document.getElementById('fit').style.background = bad.length ? '#ff0000' : '#00ff00';\n"
            "document.getElementById('clipped').textContent = 'CLIPPED[' + bad.join(' | ') + ']';\n"
            "</script></body></html>\n";
  }
  const std::string url = "file://" + (dir / "all.html").string();
  const fs::path shot = dir / "all.png";
  run_capture("timeout 60 " + shell_quote(browser) + browser_flags(dir / "profile") +
              " --window-size=" + std::to_string(page_w) + "," + std::to_string(page_h) +
              " --screenshot=" + shell_quote(shot.string()) + " " + shell_quote(url) + " 2>/dev/null");
  arb::synth::Image page;
  ASSERT_TRUE(arb::synth::read_png(shot.string(), page)) << "no screenshot (or no libpng)";
  ASSERT_EQ(page.width, page_w);
  ASSERT_EQ(page.height, page_h);
  // Every text inside its diagram (the script ran: the marker is not grey).
  const uint8_t* m = &page.rgb[(10 * static_cast<size_t>(page.width) + 10) * 3];
  if (!(m[0] < 40 && m[1] > 200 && m[2] < 40)) {
    std::string dom = run_capture("timeout 60 " + shell_quote(browser) + browser_flags(dir / "profile") +
                                  " --dump-dom " + shell_quote(url) + " 2>/dev/null");
    size_t at = dom.find("CLIPPED[");
    FAIL() << "a text reaches past its diagram (marker " << int(m[0]) << "," << int(m[1]) << "," << int(m[2])
           << "): "
           << (at == std::string::npos ? dom.substr(0, 300) : dom.substr(at, dom.find(']', at) - at));
  }
  std::vector<arb::synth::Image> refs;
  for (const auto& c : cases) {
    const std::string ref = source_path("corpus/diagrams/" + c.name + ".png");
    if (update) {
      ASSERT_TRUE(arb::synth::write_png(ref, crop(page, c.x, c.y, c.w, c.h))) << ref;
      continue;
    }
    arb::synth::Image want;
    ASSERT_TRUE(arb::synth::read_png(ref, want)) << ref << " missing: corpus/tools/make_diagram_refs.sh";
    ASSERT_EQ(want.width, c.w) << c.name << ": the diagram's size changed";
    ASSERT_EQ(want.height, c.h) << c.name << ": the diagram's size changed";
    auto [mean, off] = difference(want, page, c.x, c.y);
    if (mean >= 3.0 || off >= 0.01) {
      const fs::path got = fs::temp_directory_path() / ("arbiter-diagram-" + c.name + ".png");
      arb::synth::write_png(got.string(), crop(page, c.x, c.y, c.w, c.h));
      ADD_FAILURE() << c.name << ": mean difference " << mean << " per channel, " << off * 100
                    << "% of pixels off by more than 48 (drawn: " << got << ")";
    }
    refs.push_back(std::move(want));
  }
  // The measure tells diagrams apart: chess's reference against chess2's drawing differs.
  if (!update) {
    const auto& c2 = cases[4];
    ASSERT_EQ(c2.name, "chess2");
    if (refs[0].width == c2.w && refs[0].height <= c2.h) {
      auto [mean, off] = difference(refs[0], page, c2.x, c2.y);
      EXPECT_GT(off, 0.01) << "chess against chess2: " << mean;
    }
  }
  fs::remove_all(dir);
}

// The orthodox pieces are figurines (paths, no letter), the others letters on discs; the
// legend names every letter on the board and off it; shogi's `+X` is a promoted X; a
// long title or note wraps to the drawing's width instead of running past it.
TEST(Diagram, FigurinesLegendAndWrapping) {
  auto d = arb::synth::parse_diagram("4k3/8/8/8/8/8/L7/4K1M1[G] w - - 0 1 whand:LA");
  d.names = {{'K', "king"}, {'L', "nemesis-pawn"}, {'M', "nemesis"}, {'A', "again (card)"}};
  std::string svg = arb::synth::diagram_svg(d);
  EXPECT_NE(svg.find("class=\"figurine king\""), std::string::npos);
  EXPECT_EQ(svg.find(">K</text>"), std::string::npos);  // the king is drawn, not lettered
  EXPECT_NE(svg.find(">L</text>"), std::string::npos);
  EXPECT_NE(svg.find(">M</text>"), std::string::npos);
  auto legend = arb::synth::legend(d);
  EXPECT_EQ(legend, (std::vector<std::string>{"A again (card)", "G (unnamed)", "K king", "L nemesis-pawn",
                                              "M nemesis"}));
  EXPECT_NE(svg.find("L\u00a0nemesis-pawn"), std::string::npos);
  // No names given: K Q R B N P are the orthodox pieces.
  auto plain = arb::synth::parse_diagram("4k3/8/8/8/8/8/8/4K2Z w - - 0 1");
  EXPECT_EQ(arb::synth::legend(plain), (std::vector<std::string>{"K king", "Z (unnamed)"}));

  auto shogi = arb::synth::parse_diagram("4k4/9/9/9/9/9/9/1+B7/4K4[P] b - - 0 1");
  ASSERT_EQ(shogi.promoted.size(), 1u);
  EXPECT_EQ(shogi.promoted[0], (arb::Coord{1, 2}));
  EXPECT_EQ(shogi.w, 9);
  EXPECT_EQ(arb::synth::legend(shogi).back(), "+B promoted bishop");
  EXPECT_NE(arb::synth::diagram_svg(shogi).find("class=\"promoted\""), std::string::npos);
  EXPECT_THROW(arb::synth::parse_diagram("4k3/8/8/8/8/8/8/4K2+ w"), arb::PositionError);
  // Crazyhouse's `Q~`: a queen promoted from a pawn.
  auto zh = arb::synth::parse_diagram("4kQ~2/8/8/8/8/8/8/4K3[p] w - - 0 1");
  ASSERT_EQ(zh.demotable.size(), 1u);
  EXPECT_EQ(zh.demotable[0], (arb::Coord{5, 8}));
  EXPECT_EQ(zh.w, 8);
  EXPECT_EQ(arb::synth::legend(zh).back(), "Q~ queen promoted from a pawn");
  EXPECT_NE(arb::synth::diagram_svg(zh).find("class=\"demotable\""), std::string::npos);
  EXPECT_THROW(arb::synth::parse_diagram("~7/8/8/8/8/8/8/8 w"), arb::PositionError);

  const std::string title(150, 'W');
  auto lines = arb::synth::wrap_text("Title " + title + " end", 15, 300);
  EXPECT_GE(lines.size(), 3u);
  for (const auto& l : lines) EXPECT_LE(arb::synth::text_width(l, 15), 300) << l;
  std::string joined;
  for (const auto& l : lines) joined += l + " ";
  joined.erase(std::remove(joined.begin(), joined.end(), ' '), joined.end());
  EXPECT_EQ(joined, "Title" + title + "end");  // nothing lost but spaces at the breaks
  // The caption wraps, the board moves down by the extra lines.
  auto c = arb::synth::square_centre(plain, arb::Coord{0, 8});
  auto cw = arb::synth::square_centre(plain, arb::Coord{0, 8}, title);
  EXPECT_GT(cw.second, c.second);
  std::string wide = arb::synth::diagram_svg(plain, title);
  EXPECT_GE(std::count(wide.begin(), wide.end(), '\n'), 10);
  EXPECT_NE(wide.find("<tspan x=\"26\" dy="), std::string::npos);
}

// The puzzle page writes each solution in SAN (the row's game replayed), or as stored with
// --notation uci; each board's legend names its variant's pieces.
TEST(Diagram, PuzzlePageNotation) {
  fs::path dir = temp_dir();
  {
    std::ofstream csv(dir / "p.csv");
    csv << "position,goal,depth,solution,variant,options\n"
           "\"6k1/R7/6K1/8/8/8/8/8 w - - 0 1\",mate,1,a7a8,chess,fifty-move=100\n"
           "\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\",mate,2,\"e2e4 e7e5\",chess2,\n"
           "\"6k1/R7/6K1/8/8/8/8/8 w - - 0 1\",mate,1,zz9,chess,\n";
  }
  auto r =
      run_arbiter({"diagram", "--puzzles", (dir / "p.csv").string(), "--html", (dir / "p.html").string()});
  ASSERT_EQ(r.code, 0) << r;
  std::string page = read_text((dir / "p.html").string());
  EXPECT_NE(page.find("class=\"solution\">Ra8#<"), std::string::npos) << page;
  EXPECT_NE(page.find("class=\"solution\">e4 e5<"), std::string::npos) << page;
  EXPECT_NE(page.find("class=\"solution\">zz9<"), std::string::npos) << page;  // unreadable: as stored
  EXPECT_NE(page.find("Pieces: B\u00a0bishop"), std::string::npos) << page;
  r = run_arbiter({"diagram", "--puzzles", (dir / "p.csv").string(), "--html", (dir / "u.html").string(),
                   "--notation", "uci"});
  ASSERT_EQ(r.code, 0) << r;
  page = read_text((dir / "u.html").string());
  EXPECT_NE(page.find("class=\"solution\">a7a8<"), std::string::npos) << page;
  r = run_arbiter({"diagram", "--puzzles", (dir / "p.csv").string(), "--html", (dir / "x.html").string(),
                   "--notation", "lan"});
  EXPECT_EQ(r.code, 2) << r;
  fs::remove_all(dir);
}
