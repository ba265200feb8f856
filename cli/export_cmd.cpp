// arbiter export --fsf FILE.rules: the ruleset as a Fairy-Stockfish variants.ini section.
#include <iostream>

#include "arbiter/lang/export_fsf.hpp"
#include "common.hpp"

namespace arb::cli {

int cmd_export(const std::vector<std::string>& args) {
  std::string file, dialect_text = "current", section, out;
  std::vector<std::string> sets;
  bool fsf = false;
  po::options_description d(
      "arbiter export --fsf FILE.rules [--fsf-dialect current|11] [--section NAME] [--out FILE] "
      "[--set NAME=VALUE]");
  d.add_options()("file", po::value(&file), "the ruleset")("fsf", po::bool_switch(&fsf),
                                                           "as a Fairy-Stockfish variants.ini section")(
      "fsf-dialect", po::value(&dialect_text),
      "current (npm fairy-stockfish-nnue.wasm: custom pieces in Betza; default) or 11 (Debian's "
      "fairy-stockfish 11.1: predefined pieces only)")("section", po::value(&section),
                                                       "the section's name (default: the ruleset's)")(
      "out", po::value(&out), "write it to FILE (default: standard output)")(
      "set", po::value(&sets)->composing(), "NAME=VALUE: an option of the ruleset");
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d, "file");
  if (!fsf) throw UsageError("arbiter export needs a format: --fsf");
  if (file.empty()) throw UsageError("arbiter export --fsf needs FILE.rules");
  auto dialect = arb::lang::fsf_dialect(dialect_text);
  if (!dialect) throw UsageError("--fsf-dialect must be `current` or `11`, not `" + dialect_text + "`");
  check_input_file(file, "ruleset", arb::lang::kMaxRulesetBytes);
  if (vm.count("out")) check_output_path(out, {file}, "out");
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = compile_ruleset(file, parse_sets(sets), diags);
  if (!c.model || diags.has_errors()) {
    std::cerr << diags.render();
    return kBadInput;
  }
  if (section.empty()) section = c.model->name;
  auto ini = arb::lang::export_fsf(*c.model, *dialect, section, diags);
  std::cerr << diags.render();
  if (!ini) {
    std::cerr << file << ": not expressible as a Fairy-Stockfish variant ("
              << plural(diags.error_count(), "error") << ")\n";
    return kBadInput;
  }
  if (out.empty())
    std::cout << *ini;
  else
    write_atomically(out, *ini);
  return kOk;
}

}  // namespace arb::cli
