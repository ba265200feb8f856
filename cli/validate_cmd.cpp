// arbiter validate FILES... [--rules FILE | --variant NAME] [--jobs N] [--json] [--junit FILE] [--shard I/N]
// Validates game records (PGN, plain or zstd) against the engines; see corpus/records/README.md.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "common.hpp"
#include "run.hpp"

namespace arb::cli {

int cmd_validate(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string jobs_text = "1", junit, shard;
  bool json = false, quiet = false;
  po::options_description d("arbiter validate FILES... [--jobs N] [--json] [--junit FILE] [--shard I/N]");
  d.add_options()("file", po::value(&files), "PGN files, plain or zstd-compressed (`-`: standard input)")(
      "jobs", po::value(&jobs_text), "validate on N threads (default 1)")(
      "json", po::bool_switch(&json), "one JSON object per game, one a line, then a summary object")(
      "junit", po::value(&junit),
      "also write JUnit XML: one case per file, one failed case per invalid game")(
      "shard", po::value(&shard), "I/N: validate only game k (0-based over all FILES) with k % N == I")(
      "quiet", po::bool_switch(&quiet), "no progress line")(
      "rules", po::value<std::string>(),
      "every record is of this ruleset (a designer's variant), whatever its tags say")(
      "variant", po::value<std::string>(),
      "every record is of this variant (found along the ruleset search path)");
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d, "file");
  if (files.empty()) throw UsageError("arbiter validate needs at least one FILE");
  arb::records::RunOptions opt;
  opt.jobs = static_cast<int>(int_option("jobs", jobs_text, 1, 256));
  if (vm.count("shard")) {
    size_t slash = shard.find('/');
    if (slash == std::string::npos) throw UsageError("--shard expects I/N, e.g. 0/4");
    opt.shard_count = uint_option("shard", shard.substr(slash + 1), 1, UINT32_MAX);
    opt.shard_index = uint_option("shard", shard.substr(0, slash), 0, opt.shard_count - 1);
  }
  if (vm.count("junit")) check_output_path(junit, files, "junit");
  for (const auto& f : files)
    if (f != "-") {
      std::error_code ec;
      if (!fs::exists(f, ec)) throw UsageError(f + ": no such file");
      if (fs::is_directory(f, ec)) throw UsageError(f + ": is a directory");
    }

  arb::records::EngineCache cache(rulesets_dir().string());
  if (vm.count("rules") || vm.count("variant")) {
    Common c;
    c.rules_given = vm.count("rules") > 0;
    c.variant_given = vm.count("variant") > 0;
    if (c.rules_given) c.rules = vm["rules"].as<std::string>();
    if (c.variant_given) c.variant = vm["variant"].as<std::string>();
    cache.force_rules(rules_path(c));
  }
  const bool tty = !quiet && isatty(2);
  auto t0 = std::chrono::steady_clock::now();
  auto last_shown = t0;
  std::vector<JUnitCase> cases;
  std::map<std::string, std::pair<uint64_t, uint64_t>> per_file;  // valid, invalid
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
    } else if (!r.valid) {
      out += arb::records::report_text(file, r);
    }
    if (out.size() > (1u << 16)) flush();
    auto& pf = per_file[file];
    (r.valid ? pf.first : pf.second)++;
    if (!junit.empty() && !r.valid) {
      JUnitCase c;
      c.name = file + " game " + std::to_string(r.game);
      c.classname = "arbiter.validate";
      c.failed = true;
      c.message = std::to_string(r.line) + ":" + std::to_string(r.column) + ": ply " + std::to_string(r.ply) +
                  " `" + r.move + "`: " + r.reason;
      c.output = arb::records::report_text(file, r);
      cases.push_back(std::move(c));
    }
  };
  auto progress = [&](const arb::records::RunTotals& t) {
    if (!tty) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_shown < std::chrono::milliseconds(250)) return;
    last_shown = now;
    double secs = std::chrono::duration<double>(now - t0).count();
    flush();
    std::fflush(stdout);
    std::fprintf(stderr, "\r%llu games, %.0f games/s, %llu invalid", static_cast<unsigned long long>(t.games),
                 secs > 0 ? t.games / secs : 0.0, static_cast<unsigned long long>(t.invalid));
    std::fflush(stderr);
  };
  arb::records::RunTotals t = arb::records::run_files(files, opt, cache, emit, progress);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (tty) std::fprintf(stderr, "\r\033[K");
  for (const auto& m : t.unusable) std::cerr << "error: " << m << "\n";
  if (json) {
    out += "{\"summary\":true,\"games\":" + std::to_string(t.games) +
           ",\"valid\":" + std::to_string(t.valid) + ",\"invalid\":" + std::to_string(t.invalid) +
           ",\"unusable_files\":" + std::to_string(t.unusable.size()) +
           ",\"seconds\":" + std::to_string(secs) +
           ",\"games_per_second\":" + std::to_string(static_cast<uint64_t>(secs > 0 ? t.games / secs : 0)) +
           "}\n";
  } else {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.0f", secs > 0 ? t.games / secs : 0.0);
    out += std::to_string(t.games) + " games: " + std::to_string(t.valid) + " valid, " +
           std::to_string(t.invalid) + " invalid (" + rate + " games/s)\n";
  }
  flush();
  std::fflush(stdout);
  if (!junit.empty()) {
    for (const auto& [file, counts] : per_file) {
      JUnitCase c;
      c.name = file;
      c.classname = "arbiter.validate";
      c.output = std::to_string(counts.first) + " valid, " + std::to_string(counts.second) + " invalid";
      cases.insert(cases.begin(), c);
    }
    write_atomically(junit, junit_xml("arbiter validate", cases));
  }
  if (!t.unusable.empty()) return kBadInput;
  return t.invalid ? kFailed : kOk;
}

}  // namespace arb::cli
