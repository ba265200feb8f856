// arbiter validate FILES... [--rules FILE | --variant NAME] [--strict] [--jobs N] [--json] [--junit FILE]
//                           [--shard I/N]
// arbiter validate --merge SHARD.json... [--json]
// Validates game records (PGN, plain, zstd, gzip or bzip2) against the engines; see
// corpus/records/README.md.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "arbiter/json.hpp"
#include "arbiter/parallel.hpp"
#include "common.hpp"
#include "merge.hpp"
#include "run.hpp"

namespace arb::cli {

int cmd_validate(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string jobs_text = "1", junit, shard;
  bool json = false, quiet = false, strict = false, merge = false, rules_anywhere = false;
  po::options_description d(
      "arbiter validate FILES... [--strict] [--jobs N] [--json] [--junit FILE] [--shard I/N]\n"
      "arbiter validate --merge SHARD.json... [--json]");
  d.add_options()("file", po::value(&files),
                  "PGN files, plain or compressed with zstd, gzip or bzip2 (`-`: standard input)")(
      "strict", po::bool_switch(&strict), "warnings (fullmove 0, a missing check mark, ...) count as errors")(
      "jobs", po::value(&jobs_text), "validate on N threads (default 1)")(
      "json", po::bool_switch(&json), "one JSON object per game, one a line, then a summary object")(
      "junit", po::value(&junit),
      "also write JUnit XML: one case per file, one failed case per invalid game")(
      "shard", po::value(&shard), "I/N: validate only game k (0-based over all FILES) with k % N == I")(
      "quiet", po::bool_switch(&quiet), "no progress line")(
      "rules-anywhere", po::bool_switch(&rules_anywhere),
      "a record's [Rules \"PATH\"] may name any file (default: only beside the record or along the ruleset "
      "search path)")(
      "merge", po::bool_switch(&merge),
      "FILES are the --json outputs of shards: print one summary of them all (every shard of I/N present "
      "once, "
      "each complete)")("rules", po::value<std::string>(),
                        "every record is of this ruleset (a designer's variant), whatever its tags say")(
      "variant", po::value<std::string>(),
      "every record is of this variant (found along the ruleset search path)");
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d, "file");
  if (files.empty()) throw UsageError("arbiter validate needs at least one FILE");
  if (merge) {
    // The shards' results, not records: one summary, exit 2 when a shard is missing or cut.
    arb::records::MergedSummary m = arb::records::merge_shards(files);
    std::string text = json ? arb::records::merged_json(m) : arb::records::merged_text(m);
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (json)
      for (const auto& p : m.problems) std::cerr << "error: " << p << "\n";
    if (!m.problems.empty() || m.unusable_files) return kBadInput;
    return m.invalid ? kFailed : kOk;
  }
  arb::records::RunOptions opt;
  opt.jobs = static_cast<int>(int_option("jobs", jobs_text, 1, arb::kMaxJobs));
  if (vm.count("shard")) {
    size_t slash = shard.find('/');
    if (slash == std::string::npos) throw UsageError("--shard expects I/N, e.g. 0/4");
    opt.shard_count = uint_option("shard", shard.substr(slash + 1), 1, UINT32_MAX);
    opt.shard_index = uint_option("shard", shard.substr(0, slash), 0, opt.shard_count - 1);
  }
  opt.strict = strict;
  if (vm.count("junit")) check_output_path(junit, files, "junit");
  // A missing or unreadable file is a finding of its own: the batch goes on (exit 2 at the end).

  arb::records::EngineCache cache(rulesets_dir().string());
  cache.allow_any_rules(rules_anywhere);
  if (vm.count("rules") || vm.count("variant")) {
    Common c;
    c.rules_given = vm.count("rules") > 0;
    c.variant_given = vm.count("variant") > 0;
    if (c.rules_given) c.rules = vm["rules"].as<std::string>();
    if (c.variant_given) c.variant = vm["variant"].as<std::string>();
    cache.force_rules(rules_path(c));
  }
  // Games have no total before the files are read: their bytes read give the share done.
  arb::ProgressLine bar("validate", "games", 0, !quiet && progress_wanted(json));
  auto t0 = std::chrono::steady_clock::now();
  std::vector<JUnitCase> cases;
  struct FileCounts {
    uint64_t valid = 0, invalid = 0;
    double seconds = 0;
  };
  std::map<std::string, FileCounts> per_file;
  std::string out;
  auto flush = [&] {
    // JSON lines are escaped already; text reports carry tags and moves from the file.
    if (!json) out = terminal_text(out);
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  };
  auto emit = [&](const std::string& file, const arb::records::GameReport& r) {
    if (json) {
      out += arb::records::report_json(file, r);
      out += '\n';
    } else {
      out += arb::records::report_text(file, r);
    }
    if (out.size() > (1u << 16)) flush();
    if (r.unusable) {
      if (!junit.empty()) {
        JUnitCase c;
        c.name = file;
        c.classname = "arbiter.validate";
        c.failed = true;
        c.message = r.reason;
        cases.push_back(std::move(c));
      }
      return;
    }
    auto& pf = per_file[file];
    (r.valid ? pf.valid : pf.invalid)++;
    pf.seconds += r.seconds;
    if (!junit.empty() && !r.valid) {
      JUnitCase c;
      c.name = file + " game " + std::to_string(r.game);
      c.classname = "arbiter.validate";
      c.failed = true;
      c.seconds = r.seconds;
      c.message = std::to_string(r.line) + ":" + std::to_string(r.column) + ": ply " + std::to_string(r.ply) +
                  " `" + r.move + "`: " + r.reason + " [" + r.kind + "]";
      c.output = arb::records::report_text(file, r);
      cases.push_back(std::move(c));
    }
  };
  auto progress = [&](const arb::records::RunTotals& t) {
    if (!bar.on()) return;
    // The reports so far first, so that the line never sits inside one.
    flush();
    std::fflush(stdout);
    char mb[96] = "";
    double share = -1;
    if (t.bytes_total > 0 && t.bytes_done > 0) {
      share = std::min(1.0, static_cast<double>(t.bytes_done) / static_cast<double>(t.bytes_total));
      std::snprintf(mb, sizeof mb, ", %.1f MB of records (the percentage by bytes read)",
                    t.bytes_total / 1e6);
    }
    bar.update(t.games, std::to_string(t.invalid) + " invalid" + mb, share);
  };
  arb::records::RunTotals t = arb::records::run_files(files, opt, cache, emit, progress);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bar.finish();
  // A file without a single game (empty, or comments only) checks nothing: unusable, as an
  // unreadable one is (a shard may hold no game of a file, so only without --shard).
  if (!vm.count("shard"))
    for (const auto& f : files) {
      if (per_file.count(f)) continue;
      bool named = false;
      for (const auto& m : t.unusable) named = named || m.find(f) != std::string::npos;
      if (!named) t.unusable.push_back(f + ": no games (the file is empty or holds only comments)");
    }
  for (const auto& m : t.unusable) std::cerr << "error: " << m << "\n";
  if (json) {
    Json j = {{"summary", true},
              {"games", t.games},
              {"valid", t.valid},
              {"invalid", t.invalid},
              {"valid_with_warnings", t.with_warnings},
              {"counts", Json::object()},
              {"unusable_files", t.unusable.size()}};
    for (const auto& [code, n] : t.counts) j["counts"][code] = n;
    if (vm.count("shard"))
      j["shard"] = std::to_string(opt.shard_index) + "/" + std::to_string(opt.shard_count);
    j["seconds"] = std::round(secs * 1e6) / 1e6;
    j["games_per_second"] = static_cast<uint64_t>(secs > 0 ? t.games / secs : 0);
    out += json_text(j) + "\n";
  } else {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.0f", secs > 0 ? t.games / secs : 0.0);
    out += plural(t.games, "game") + ": " + std::to_string(t.valid) + " valid (" +
           std::to_string(t.with_warnings) + " with warnings), " + std::to_string(t.invalid) + " invalid" +
           (t.unusable.empty() ? "" : ", " + plural(t.unusable.size(), "unusable file")) + " (" + rate +
           " games/s)\n";
    if (!t.counts.empty()) {
      out += "findings:";
      for (const auto& [code, n] : t.counts) out += " " + code + " " + std::to_string(n);
      out += "\n";
    }
  }
  flush();
  std::fflush(stdout);
  if (!junit.empty()) {
    for (const auto& [file, counts] : per_file) {
      JUnitCase c;
      c.name = file;
      c.classname = "arbiter.validate";
      c.seconds = counts.seconds;
      c.output = std::to_string(counts.valid) + " valid, " + std::to_string(counts.invalid) + " invalid";
      cases.insert(cases.begin(), c);
    }
    write_atomically(junit, junit_xml("arbiter validate", cases));
  }
  if (!t.unusable.empty()) return kBadInput;
  return t.invalid ? kFailed : kOk;
}

}  // namespace arb::cli
