// arbiter fuzz --properties: the metamorphic properties of one ruleset's generator, the
// check a ruleset gets without a reference engine (issue 26; checker/fuzz/properties.hpp).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <sstream>
#include <vector>

#include "arbiter/parallel.hpp"
#include "common.hpp"
#include "fuzz/properties.hpp"
#include "properties/property_plan.hpp"
#include "summary.hpp"

namespace arb::cli {

std::string violation_text(const arb::fuzz::Violation& v) {
  std::ostringstream o;
  o << "VIOLATION (" << v.property << ") at ply " << v.plies << ", shrunk:\n  position:  " << v.position;
  if (!v.played.empty()) o << "\n  played:    " << v.played << " (the failure shows on the position reached)";
  if (!v.after.empty()) o << "\n  after:     " << v.after;
  if (v.original != v.position) o << "\n  found at:  " << v.original;
  o << "\n  expected:  " << v.left << "\n  found:     " << v.right << "\n";
  if (!v.diff.empty()) o << "  difference (+ expected only, - found only): " << v.diff << "\n";
  return o.str();
}

int fuzz_properties(const Common& c, const Loaded& l, const arb::fuzz::PropertyOptions& opts,
                    const std::string& junit, const std::string& summary, const std::string& why,
                    int opts_jobs) {
  if (!l.compiled.model) throw UsageError("--properties needs a ruleset (--rules FILE or --variant NAME)");
  const arb::fuzz::PropertyPlan plan = arb::properties::plan_for(*l.compiled.model);
  arb::fuzz::PropertyOptions o = opts;
  o.progress = progress_wanted(c.json);
  const std::string start = l.engine->position();
  arb::fuzz::PropertyReport r;
  const int jobs = std::max(1, opts_jobs);
  try {
    if (jobs == 1) {
      r = arb::fuzz::check_properties(l.make, start, plan, o);
    } else {
      // --jobs J: J runs of their own seeds (seed + j) and share of the games, stopped
      // together at the first violation or when the time is up; deterministic for a seed
      // and a job count with --games. The lowest job's violation is the one reported.
      std::vector<arb::fuzz::PropertyReport> reports(static_cast<size_t>(jobs));
      std::atomic<bool> stop{false};
      arb::parallel_for(jobs, [&](int j, std::stop_token) {
        arb::fuzz::PropertyOptions oj = o;
        oj.seed = o.seed + static_cast<uint64_t>(j);
        oj.games =
            o.games / static_cast<uint64_t>(jobs) + (static_cast<uint64_t>(j) < o.games % jobs ? 1 : 0);
        oj.progress = o.progress && j == 0;
        oj.stop = &stop;
        if (oj.games == 0 && o.seconds <= 0) return;
        try {
          reports[static_cast<size_t>(j)] = arb::fuzz::check_properties(l.make, start, plan, oj);
        } catch (...) {
          stop = true;
          throw;
        }
        if (reports[static_cast<size_t>(j)].violation) stop = true;
      });
      for (const auto& rj : reports) {
        r.games += rj.games;
        r.positions += rj.positions;
        for (const auto& [name, n] : rj.checks) r.checks[name] += n;
        for (const auto& [name, t] : rj.seconds_by_property) r.seconds_by_property[name] += t;
        r.seconds = std::max(r.seconds, rj.seconds);
        if (!r.violation && rj.violation) r.violation = rj.violation;
      }
    }
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  std::ostringstream counts;
  for (const auto& [name, n] : r.checks) counts << (counts.tellp() ? ", " : "") << name << " " << n;
  const std::string head = "properties of " + l.variant + ": " + plural(r.games, "game") + ", " +
                           plural(r.positions, "position") + " in " + std::to_string(r.seconds) + " s";
  // Where the time went, per property (summed over the jobs), and how the actions were taken.
  std::ostringstream times;
  for (const auto& [name, t] : r.seconds_by_property) {
    char buf[32];
    snprintf(buf, sizeof buf, "%.2f", t);
    times << (times.tellp() ? ", " : "") << name << " " << buf << " s";
  }
  const auto sampled = r.checks.find("action-sampled nodes");
  const std::string sample_note = sampled == r.checks.end()
                                      ? ""
                                      : "per-action checks on " + std::to_string(o.action_sample) +
                                            " actions drawn at random at " + plural(sampled->second, "node") +
                                            " with more (--action-sample; 0: every action)\n";
  if (!junit.empty()) {
    JUnitCase tc;
    tc.name = "properties " + l.variant + " seed " + std::to_string(o.seed);
    tc.classname = "arbiter.fuzz.properties." + l.variant;
    tc.seconds = r.seconds;
    tc.failed = r.violation.has_value();
    tc.message = r.violation ? "property " + r.violation->property + " fails" : "";
    tc.output = head + "\nchecks: " + counts.str() + "\n" + arb::fuzz::plan_text(plan) +
                (r.violation ? violation_text(*r.violation) : "");
    write_atomically(junit, junit_xml("arbiter fuzz", {tc}));
  }
  if (!summary.empty()) {
    std::string md = "## arbiter fuzz --properties: " + l.variant +
                     (r.violation ? " (FAILED)" : " (passed)") + "\n\n" + head + "; checks: " + counts.str() +
                     "\n\n";
    for (int i = 0; i < arb::fuzz::kProperties; ++i)
      if (!plan.on[i])
        md += "- skipped " + std::string(arb::fuzz::to_string(static_cast<arb::fuzz::Property>(i))) + ": " +
              plan.reason[i] + "\n";
    md += "\n";
    if (r.violation)
      md += markdown_divergence("property " + r.violation->property, violation_text(*r.violation),
                                r.violation->position);
    write_atomically(summary, md);
  }
  if (c.json) {
    Json j = {{"variant", l.variant}, {"mode", "properties"},    {"seed", o.seed},
              {"jobs", jobs},         {"games", r.games},        {"positions", r.positions},
              {"seconds", r.seconds}, {"checks", Json::object()}};
    for (const auto& [name, n] : r.checks) j["checks"][name] = n;
    j["action_sample"] = o.action_sample;
    j["seconds_by_property"] = Json::object();
    for (const auto& [name, t] : r.seconds_by_property) j["seconds_by_property"][name] = t;
    j["plan"] = arb::fuzz::plan_json(plan);
    j["violation"] = r.violation ? arb::fuzz::to_json(*r.violation) : Json(nullptr);
    std::cout << json_text(j) << "\n";
  } else {
    if (!why.empty()) std::cout << why << "\n";
    std::cout << head << "\nchecks: " << counts.str() << "\ntime: " << times.str() << "\n"
              << sample_note << arb::fuzz::plan_text(plan);
    std::cout << (r.violation ? violation_text(*r.violation) : "no violation\n");
  }
  return r.violation ? kFailed : kOk;
}

}  // namespace arb::cli
