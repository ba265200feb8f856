// Stage 5: linking a compiled program to the generator that runs it. The compiler
// (compile.cpp) never runs a generator; this stage loads the program's start on one and
// reports a start the generator refuses at the setup's place in the ruleset.
#include "arbiter/lang/compile.hpp"

namespace arb::lang {

bool check_start(const Model& m, const std::shared_ptr<const Program>& p, Diagnostics& diags) {
  try {
    make_compiled_engine(p);
    return true;
  } catch (const PositionError& e) {
    Loc at = m.setup_text_loc.src ? m.setup_text_loc : m.setup_loc;
    if (m.setup_text_loc.src && m.setup_kind == SetupKind::Text) {
      at.col += 1 + static_cast<int>(e.column);  // past the opening quote
      at.len = 1;
    }
    diags.error(at, std::string("bad setup: ") + e.what());
    return false;
  }
}

Compiled compile_file(const std::string& path, const std::map<std::string, std::string>& overrides,
                      Diagnostics& diags) {
  Compiled out;
  out.model = load_ruleset(path, overrides, diags, out.sources);
  if (out.model) out.program = compile(*out.model, diags);
  if (out.program && !check_start(*out.model, out.program, diags)) out.program = nullptr;
  return out;
}

}  // namespace arb::lang
