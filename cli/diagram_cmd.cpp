// arbiter diagram: an SVG of a position, or an HTML page of a puzzle file.
#include <fstream>
#include <iostream>
#include <sstream>

#include "arbiter/synth/diagram.hpp"
#include "common.hpp"

namespace arb::cli {

int cmd_diagram(const std::vector<std::string>& args) {
  Common c;
  std::string svg, html, puzzles, title;
  po::options_description d(
      "arbiter diagram --variant V --position P [--svg FILE] [--html FILE]\n"
      "arbiter diagram --puzzles FILE.csv --html FILE [--title TEXT]\n"
      "With --json: one object naming the files written, or holding the SVG\n"
      "An SVG of the position (read and checked by the variant's engine; standard output\n"
      "without --svg), or an HTML page with one diagram per puzzle of a puzzle file");
  add_common(d, c);
  d.add_options()("svg", po::value(&svg), "write the SVG to FILE")("html", po::value(&html),
                                                                   "write an HTML page to FILE")(
      "puzzles", po::value(&puzzles), "a puzzle file (position,goal,depth,solution,variant,options)")(
      "title", po::value(&title), "the page's title");
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
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
    write_atomically(html,
                     synth::puzzle_page(title.empty() ? fs::path(puzzles).filename().string() : title, rows));
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
  std::string out = synth::diagram_svg(dg, title.empty() ? l.variant : title);
  if (vm.count("svg")) write_atomically(svg, out);
  if (vm.count("html")) {
    synth::PuzzleRow row{text, "position", "", "", l.variant, "", ""};
    write_atomically(html, synth::puzzle_page(title.empty() ? l.variant : title, {row}));
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
