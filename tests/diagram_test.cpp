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
  if (browser.empty()) GTEST_SKIP() << "chromium not found (apt-get install chromium); browser check skipped";
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
