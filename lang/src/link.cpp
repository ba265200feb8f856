// Stage 5: linking a compiled program to the generator that runs it. The compiler
// (compile.cpp) never runs a generator; this stage loads the program's start on one and
// reports a start the generator refuses at the setup's place in the ruleset.
#include <algorithm>
#include <set>

#include "arbiter/lang/compile.hpp"
#include "arbiter/notation.hpp"

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

bool check_expectations(const Model& m, const std::shared_ptr<const Program>& p, Diagnostics& diags) {
  // The status words an expectation may name: `ongoing` and every reason the end rules can
  // report (a rule's own reason, else its condition).
  std::vector<std::string> reasons = {"ongoing"};
  for (const EndRule& r : m.end) reasons.push_back(r.reason.empty() ? r.condition : r.reason);
  // Issue 24's schema end conditions report their keyword (gen_ends.hpp).
  for (const ConstructUse& u : m.constructs) {
    if (u.id == ConstructId::EndExtinction) reasons.push_back("extinction");
    if (u.id == ConstructId::EndChecks) reasons.push_back("checks");
    if (u.id == ConstructId::EndDoublePass) reasons.push_back("double-pass");
    if (u.id == ConstructId::EndRoyalsFacing) reasons.push_back("royals-facing");
    if (u.id == ConstructId::EndBoardFull) reasons.push_back("board-full");
    if (u.id == ConstructId::EndPasses) reasons.push_back("passes");
  }
  bool ok = true;
  for (const Expectation& ex : m.expects) {
    std::unique_ptr<Engine> e;
    try {
      e = make_compiled_engine(p);
      if (!ex.position.empty()) e->set_position(ex.position);
    } catch (const PositionError& err) {
      diags.error(ex.loc, "expectation at an unusable position: " + std::string(err.what()) + " (column " +
                              std::to_string(err.column + 1) + " of the text)");
      ok = false;
      continue;
    } catch (const std::exception& err) {
      diags.error(ex.loc, "expectation at an unusable position: " + std::string(err.what()));
      ok = false;
      continue;
    }
    if (ex.kind == "status" && std::find(reasons.begin(), reasons.end(), ex.text) == reasons.end()) {
      std::string list;
      for (const auto& r : reasons) list += (list.empty() ? "" : ", ") + r;
      diags.error(ex.loc, "`" + ex.text + "` is no status of this ruleset (it can be " + list + ")",
                  did_you_mean(ex.text, reasons));
      ok = false;
    }
    if (ex.kind == "legal" || ex.kind == "illegal") {
      // An illegal action must still be written as an action: the text is read as one.
      ActionPattern pat;
      if (!parse_action_pattern(ex.text, pat)) {
        diags.error(ex.loc, "`" + ex.text + "` is not an action in any notation the ruleset's games read");
        ok = false;
      }
    }
  }
  return ok;
}

Compiled compile_file(const std::string& path, const std::map<std::string, std::string>& overrides,
                      Diagnostics& diags) {
  Compiled out;
  out.model = load_ruleset(path, overrides, diags, out.sources);
  if (out.model) out.program = compile(*out.model, diags);
  if (out.program && !check_start(*out.model, out.program, diags)) out.program = nullptr;
  if (out.program && !check_expectations(*out.model, out.program, diags)) out.program = nullptr;
  return out;
}

std::vector<std::map<std::string, std::string>> check_every_setting(
    const std::string& path, const std::map<std::string, std::string>& overrides, Diagnostics& diags,
    std::vector<std::unique_ptr<Source>>& keep, size_t max_settings) {
  using Setting = std::map<std::string, std::string>;
  std::vector<Setting> done, queue = {overrides};
  std::set<std::string> reported;  // file:line:col:message already in diags
  for (const Diagnostic& d : diags.all())
    reported.insert((d.loc.src ? d.loc.src->path : "") + ":" + std::to_string(d.loc.line) + ":" +
                    std::to_string(d.loc.col) + ":" + d.message);
  while (!queue.empty() && done.size() < max_settings) {
    Setting s = queue.front();
    queue.erase(queue.begin());
    if (std::find(done.begin(), done.end(), s) != done.end()) continue;
    done.push_back(s);
    Diagnostics local;
    Compiled c = compile_file(path, s, local);
    std::string with;
    for (const auto& [k, v] : s)
      if (!overrides.count(k)) with += (with.empty() ? "" : " ") + std::string("--set ") + k + "=" + v;
    for (const Diagnostic& d : local.all()) {
      if (d.severity != Severity::Error) continue;
      std::string key = (d.loc.src ? d.loc.src->path : "") + ":" + std::to_string(d.loc.line) + ":" +
                        std::to_string(d.loc.col) + ":" + d.message;
      if (!reported.insert(key).second) continue;
      diags.error(d.loc, d.message + (with.empty() ? "" : " (with " + with + ")"), d.hint);
    }
    for (auto& src : c.sources) keep.push_back(std::move(src));
    if (!c.model) continue;
    // From the first setting, every value of each `one-of` option (Chess 2's armies choose
    // which pieces compile); then the settings one change away that some `when` read here
    // would read otherwise.
    if (done.size() == 1)
      for (const OptionDef& o : c.model->options)
        for (const auto& v : o.choices)
          if (!overrides.count(o.name) && v != o.value) {
            Setting next = s;
            next[o.name] = v;
            queue.push_back(next);
          }
    for (const WhenTest& t : c.model->when_tests) {
      if (overrides.count(t.option)) continue;
      const OptionDef* o = c.model->option(t.option);
      if (!o) continue;
      std::vector<std::string> values;
      if (!t.negate) {
        values.push_back(t.value);
      } else if (!o->choices.empty()) {
        for (const auto& v : o->choices)
          if (v != t.value) values.push_back(v);
      } else if (t.value == "true" || t.value == "false") {
        values.push_back(t.value == "true" ? "false" : "true");
      } else {
        values.push_back(t.value + "0");  // any other value of the option's type
      }
      for (const auto& v : values) {
        if (o->value == v) continue;
        Setting next = s;
        next[t.option] = v;
        if (std::find(done.begin(), done.end(), next) == done.end()) queue.push_back(next);
      }
    }
  }
  return done;
}

}  // namespace arb::lang
