#!/usr/bin/env bash
# Runs the whole test suite: a Release build with every test, then an AddressSanitizer +
# UBSan build of the same tests under smaller perft budgets, then a libFuzzer smoke run.
# The last line totals both ctest runs: `tests: N passed, N failed`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/cli/install-deps.sh"
jobs=$(nproc)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j"$jobs"
# Totals of the ctest runs, printed as the closing line.
passed=0
failed=0
run_ctest() {
  local log
  log=$(mktemp)
  local rc=0
  "$@" 2>&1 | tee "$log" || rc=$?
  local line total bad
  line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1 || true)
  if [ -n "$line" ]; then
    bad=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
    passed=$((passed + total - bad))
    failed=$((failed + bad))
  fi
  rm -f "$log"
  if [ "$rc" -ne 0 ]; then
    echo "tests: $passed passed, $failed failed"
    exit "$rc"
  fi
}
run_ctest ctest --test-dir "$root/build" --output-on-failure -j"$jobs"
cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARBITER_SANITIZE=ON >/dev/null
cmake --build "$root/build-asan" -j"$jobs"
run_ctest env ARBITER_PERFT_BUDGET="${ARBITER_ASAN_PERFT_BUDGET:-20000}" ARBITER_FAST=1 \
  ctest --test-dir "$root/build-asan" --output-on-failure -j"$jobs"
# libFuzzer smoke run of the differential checker's fuzz target (checker/fuzz/
# libfuzzer_target.cpp), built with clang in its own directory, that target only, and run
# briefly from the seed corpus. A divergence or a sanitizer report fails the run; the
# input is left in build-fuzz/ (crash-*).
if command -v clang++ >/dev/null 2>&1; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$root/build-fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DARBITER_FUZZ=ON -DARBITER_TESTS=OFF >/dev/null
  cmake --build "$root/build-fuzz" -j"$jobs" --target arbiter_libfuzzer
  mkdir -p "$root/build-fuzz/corpus-differential"
  log="$root/build-fuzz/libfuzzer.log"
  if ! "$root/build-fuzz/checker/arbiter_libfuzzer" "$root/build-fuzz/corpus-differential" \
      "$root/corpus/fuzz/differential" -max_total_time="${ARBITER_LIBFUZZER_SECONDS:-20}" -max_len=512 \
      -artifact_prefix="$root/build-fuzz/" -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "libFuzzer smoke run failed (log: $log)"
    echo "tests: $passed passed, $((failed + 1)) failed"
    exit 1
  fi
  grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec)' "$log"
else
  echo "clang++ not found: libFuzzer smoke run skipped"
fi
echo "tests: $passed passed, $failed failed"
