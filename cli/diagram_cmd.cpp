// arbiter diagram: an SVG of a position, or an HTML page of a puzzle file.
#include <fstream>
#include <iostream>
#include <sstream>

#include "arbiter/synth/diagram.hpp"
#include "common.hpp"
#include "moves.hpp"

namespace arb::cli {

namespace {

// Each puzzle row's game (its variant and options, opened once): the piece names of its
// legend and the engine that writes its solution in SAN. A row whose game does not open
// keeps the orthodox names and its solution as written.
class RowGames {
 public:
  explicit RowGames(bool san) : san_(san) {}
  synth::PageHooks hooks() {
    synth::PageHooks h;
    h.names = [this](const std::string& variant) {
      Game* g = game(variant, "");
      return g ? g->names : synth::orthodox_names();
    };
    h.solution = [this](const synth::PuzzleRow& r) {
      Game* g = game(r.variant, r.options);
      if (!g || !g->engine) return r.solution;
      try {
        g->engine->set_position(r.position);
        return line_text(*g->engine, r.solution, san_);
      } catch (const std::exception&) {
        return r.solution;
      }
    };
    return h;
  }

 private:
  struct Game {
    std::unique_ptr<Engine> engine;
    std::map<char, std::string> names;
  };
  Game* game(const std::string& variant, const std::string& options) {
    if (variant.empty()) return nullptr;
    const std::string key = variant + "\n" + options;
    auto it = games_.find(key);
    if (it != games_.end()) return it->second.get();
    std::unique_ptr<Game> g;
    // The options as --set values, else the variant's defaults (an option of the puzzle
    // generator, such as ChessMe's `seed`, is no ruleset option).
    std::vector<std::string> sets;
    std::istringstream in(options);
    for (std::string o; in >> o;) sets.push_back(o);
    for (int attempt = 0; attempt < 2 && !g; ++attempt) {
      try {
        Common c;
        c.variant = variant;
        if (attempt == 0) c.sets = sets;
        arb::lang::Diagnostics diags;
        auto o = arb::registry::open_engine(engine_spec(c), diags);
        if (!o.engine) continue;
        g = std::make_unique<Game>();
        g->engine = std::move(o.engine);
        g->names = o.compiled.model ? synth::piece_names(*o.compiled.model) : synth::orthodox_names();
      } catch (const std::exception&) {
      }
    }
    return (games_[key] = std::move(g)).get();
  }
  bool san_;
  std::map<std::string, std::unique_ptr<Game>> games_;
};

}  // namespace

int cmd_diagram(const std::vector<std::string>& args) {
  Common c;
  std::string svg, html, puzzles, title, notation = "san";
  po::options_description d(
      "arbiter diagram --variant V --position P [--svg FILE] [--html FILE]\n"
      "arbiter diagram --puzzles FILE.csv --html FILE [--title TEXT] [--notation san|uci]\n"
      "With --json: one object naming the files written, or holding the SVG\n"
      "An SVG of the position (read and checked by the variant's engine; standard output\n"
      "without --svg), or an HTML page with one diagram per puzzle of a puzzle file");
  add_common(d, c);
  d.add_options()("svg", po::value(&svg), "write the SVG to FILE")("html", po::value(&html),
                                                                   "write an HTML page to FILE")(
      "puzzles", po::value(&puzzles), "a puzzle file (position,goal,depth,solution,variant,options)")(
      "title", po::value(&title), "the page's title")("notation", po::value(&notation),
                                                      "the puzzles' solutions in san (default) or uci");
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
  const bool san = san_notation(notation);
  // Every output checked before any work: not empty, a regular file or nothing, no input.
  std::vector<std::string> inputs = input_files(c);
  if (vm.count("puzzles")) inputs.push_back(puzzles);
  if (vm.count("svg")) check_output_path(svg, inputs, "svg");
  if (vm.count("html")) check_output_path(html, inputs, "html");
  if (vm.count("svg") && vm.count("html") &&
      fs::absolute(svg).lexically_normal() == fs::absolute(html).lexically_normal())
    throw UsageError("--svg and --html name the same file");
  if (vm.count("puzzles")) {
    if (!vm.count("html")) throw UsageError("--puzzles needs --html FILE");
    if (vm.count("svg")) throw UsageError("--svg draws one position; with --puzzles give --html only");
    check_input_file(puzzles, "puzzle file", 64 << 20);
    std::ifstream in(puzzles, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::vector<synth::PuzzleRow> rows;
    try {
      rows = synth::read_puzzle_csv(ss.str());
    } catch (const std::invalid_argument& e) {
      throw UsageError(puzzles + ": " + e.what());
    }
    RowGames games(san);
    write_atomically(html, synth::puzzle_page(title.empty() ? fs::path(puzzles).filename().string() : title,
                                              rows, games.hooks()));
    if (c.json)
      std::cout << json_text({{"html", html}, {"puzzles", rows.size()}}) << "\n";
    else
      std::cout << "wrote " << html << " (" << plural(rows.size(), "puzzle") << ")\n";
    return kOk;
  }
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  std::string text = l.engine->position();
  synth::Diagram dg;
  try {
    dg = synth::parse_diagram(text);
  } catch (const PositionError& e) {
    throw UsageError(std::string("cannot draw `") + text + "`: " + e.what());
  }
  if (l.compiled.model) dg.names = synth::piece_names(*l.compiled.model);
  std::string out = synth::diagram_svg(dg, title.empty() ? l.variant : title);
  if (vm.count("svg")) write_atomically(svg, out);
  if (vm.count("html")) {
    synth::PuzzleRow row{text, "position", "", "", l.variant, "", ""};
    synth::PageHooks hooks;
    hooks.names = [&](const std::string&) { return dg.names.empty() ? synth::orthodox_names() : dg.names; };
    write_atomically(html, synth::puzzle_page(title.empty() ? l.variant : title, {row}, hooks));
  }
  if (c.json) {
    // One object: the drawing itself when no file was asked for, else the files written.
    Json j = {{"variant", l.variant}, {"position", text}};
    if (vm.count("svg")) j["svg_file"] = svg;
    if (vm.count("html")) j["html_file"] = html;
    if (!vm.count("svg") && !vm.count("html")) j["svg"] = out;
    std::cout << json_text(j) << "\n";
  } else if (!vm.count("svg") && !vm.count("html")) {
    std::cout << out;
  }
  return kOk;
}

}  // namespace arb::cli
