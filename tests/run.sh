#!/usr/bin/env bash
# Runs the whole test suite: a Release build with every test, then an AddressSanitizer +
# UBSan build of the same tests under smaller perft budgets, then a libFuzzer smoke run of
# every fuzz target, then, time allowing, a ThreadSanitizer run of the parallel commands
# (tests/tsan.sh) and g++ over every product source (tests/gcc_check.sh).
# Every build has -Werror (ARBITER_WERROR=OFF to relax it). The builds are its own
# directories (build-release, build-asan, build-fuzz, build-tsan, build-gcc; build/ is the
# main job's, cli/demo.sh), and a ctest stage that runs no test, or fewer than the build
# registered (or than ARBITER_MIN_TESTS), fails the run.
# Each stage prints its wall time as it ends, and all of them again before the last line.
# The last line totals both ctest runs: `tests: N passed, N failed`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Wall time per stage: `stage NAME` starts one (ending the one before), `stage` ends the last.
stage_name="" stage_t=0 stage_times=""
stage() {
  if [ -n "$stage_name" ]; then
    local s=$(($(date +%s) - stage_t))
    echo "== stage $stage_name: ${s} s"
    stage_times+="  $stage_name: ${s} s"$'\n'
  fi
  stage_name=${1:-}
  stage_t=$(date +%s)
  if [ -n "$stage_name" ]; then echo "== stage $stage_name"; fi
}
run_t0=$(date +%s)
stage "install deps"
# What compiling needs first; what only the tests run (the peer engines, chromium, node and
# the npm Fairy-Stockfish: about 50 s on a fresh machine, mostly download and unpacking)
# installs while the Release build compiles, and the release tests wait for it.
bash "$root/cli/install-deps.sh" build
# The npm Fairy-Stockfish install-deps.sh puts under build/, for every build's tests.
export ARBITER_FSF_WASM_DIR="${ARBITER_FSF_WASM_DIR:-$root/build}"
run_deps_log=$(mktemp)
bash "$root/cli/install-deps.sh" run >"$run_deps_log" 2>&1 &
run_deps_pid=$!
jobs=$(nproc)
# RapidCheck properties draw a fresh seed per run unless RC_PARAMS fixes one: CI fixes it so
# that a run is reproducible (give RC_PARAMS yourself to explore other seeds).
export RC_PARAMS="${RC_PARAMS:-seed=20261123}"
# CI installs chromium (install-deps.sh): the diagram render tests fail, not skip, without it.
export ARBITER_REQUIRE_CHROMIUM="${ARBITER_REQUIRE_CHROMIUM:-1}"
# The fewest tests a ctest stage may run: about the number registered when this line was
# written, so that a build that silently loses its tests fails.
min_tests=${ARBITER_MIN_TESTS:-800}
# Ninja, when installed, for a new build directory: it compiles a target's sources while the
# libraries it links are still being built (make waits for them, leaving a core idle while
# the move generator compiles). A build directory keeps the generator it was made with.
generator() { [ -f "$1/CMakeCache.txt" ] || ! command -v ninja >/dev/null 2>&1 || echo "-G Ninja"; }
stage "release build"
# Every build is warning-free (-Werror, ARBITER_WERROR): a new warning fails the run.
werror=-DARBITER_WERROR="${ARBITER_WERROR:-ON}"
# The Release build of the tests is build-release/, with clang when it is installed (and the
# directory is new), as the sanitizer build is: the sanitizer build then links these test
# objects instead of compiling the test sources again, and clang compiles them in about half
# of g++'s time (234 s of CPU against 445 s, 2026-11-27). build/ stays the main job's
# (cli/demo.sh: the default compiler, g++, whose binary the benchmarks measure); g++ compiles
# every product source in the stage "g++ check" below.
release="$root/build-release"
clang_env=(env)
if command -v clang++ >/dev/null 2>&1; then
  clang_env=(env CC=clang CXX=clang++)
fi
release_env=(env)
[ -f "$release/CMakeCache.txt" ] || release_env=("${clang_env[@]}")
"${release_env[@]}" cmake -S "$root" -B "$release" $(generator "$release") -DCMAKE_BUILD_TYPE=Release -DARBITER_TESTS=ON \
  "$werror" >/dev/null
cmake --build "$release" -j"$jobs"
# cxx_of DIR: the real path of the C++ compiler DIR was configured with.
cxx_of() { sed -nE 's/^CMAKE_CXX_COMPILER:[A-Z]+=(.+)$/\1/p' "$1/CMakeCache.txt" | head -n 1 | xargs -r realpath; }
# Totals of the ctest runs, printed as the closing line.
passed=0
failed=0
finish() {
  stage
  echo "stage times (total $(($(date +%s) - run_t0)) s):"
  printf '%s' "$stage_times"
  echo "tests: $passed passed, $failed failed"
  exit "$1"
}
# run_ctest BUILD_DIR [env VAR=VALUE...]: runs ctest in BUILD_DIR and checks that it ran
# every registered test and at least $min_tests.
run_ctest() {
  local dir=$1
  shift
  local registered
  registered=$(ctest --test-dir "$dir" -N 2>/dev/null | sed -nE 's/^Total Tests: ([0-9]+)$/\1/p')
  registered=${registered:-0}
  local log
  log=$(mktemp)
  local rc=0
  "$@" ctest --test-dir "$dir" --output-on-failure -j"$jobs" 2>&1 | tee "$log" || rc=$?
  local line total=0 bad=0
  line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1 || true)
  if [ -n "$line" ]; then
    bad=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$line")
    passed=$((passed + total - bad))
    failed=$((failed + bad))
  fi
  rm -f "$log"
  if [ "$rc" -ne 0 ]; then finish "$rc"; fi
  if [ "$total" -eq 0 ] || [ "$total" -lt "$registered" ] || [ "$total" -lt "$min_tests" ]; then
    echo "error: ctest in $dir ran $total tests ($registered registered, at least $min_tests expected)"
    failed=$((failed + 1))
    finish 1
  fi
}
stage "run deps"
run_deps_rc=0
wait "$run_deps_pid" || run_deps_rc=$?
cat "$run_deps_log"
rm -f "$run_deps_log"
if [ "$run_deps_rc" -ne 0 ]; then
  echo "error: bash cli/install-deps.sh run failed (exit $run_deps_rc)"
  exit "$run_deps_rc"
fi
stage "release tests"
run_ctest "$release" env
stage "asan build"
# The sanitizer build uses clang when it is installed (and the build directory is new): under
# AddressSanitizer + UBSan it compiles this tree in about 60% of g++'s time (the move
# generator: 98 s of CPU against 170 s), the longest stage of this script.
# (Building the libFuzzer targets in this same tree was measured and rejected: the coverage
# instrumentation they need made the sanitizer tests 1.65x slower in CPU, more than the
# second build costs.)
# Its test binaries link build-release's test objects when the two builds have the same
# compiler (tests/CMakeLists.txt, ARBITER_TEST_OBJECTS_FROM); otherwise it compiles them.
asan="$root/build-asan"
asan_env=(env)
if [ -f "$asan/CMakeCache.txt" ]; then
  asan_cxx=$(cxx_of "$asan")
else
  asan_env=("${clang_env[@]}")
  asan_cxx=$(realpath "$(command -v clang++ || command -v c++)")
fi
objects_from=""
if [ -n "$asan_cxx" ] && [ "$asan_cxx" = "$(cxx_of "$release")" ]; then
  objects_from="$release"
fi
"${asan_env[@]}" cmake -S "$root" -B "$asan" $(generator "$asan") -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DARBITER_SANITIZE=ON -DARBITER_TESTS=ON -DARBITER_TEST_OBJECTS_FROM="$objects_from" "$werror" >/dev/null
cmake --build "$asan" -j"$jobs"
stage "asan tests"
# AddressSanitizer holds freed memory in a quarantine (256 MB by default) to catch a use after
# the free; cycling that much memory was about a fifth of these tests' time, most of it under
# Z3's and the proof games' allocations: with 64 MB, which still holds what was freed moments
# before a use, the proof game, puzzle, rule-mutant and Z3 mate tests took 45.6 s against 55.5 s
# (2026-11-27). An ASAN_OPTIONS of the caller's is kept as given.
run_ctest "$asan" env ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=64}" \
  ARBITER_PERFT_BUDGET="${ARBITER_ASAN_PERFT_BUDGET:-20000}" ARBITER_FAST=1
# libFuzzer smoke run of every fuzz target (checker/fuzz/libfuzzer_target.cpp, the
# differential checker, and checker/fuzz/targets/fuzz_*.cpp, one per parser), built with
# clang in its own directory and run briefly from its seed corpus (corpus/fuzz/NAME/), as
# many targets at once as there are cores. A crash, a finding or a sanitizer report fails the
# run; the input is left in build-fuzz/ (NAME-crash-*). ARBITER_LIBFUZZER_SECONDS per target
# (default 6) for the first 7 targets, ARBITER_LIBFUZZER_SHORT_SECONDS (default 4) for the
# readers added since (position texts of every ruleset, puzzle files, solver input).
stage "libfuzzer"
fuzz_dir=""
if command -v clang++ >/dev/null 2>&1; then
  fuzz_dir="$root/build-fuzz"
  # -O0: a smoke run is about crashes, not speed, and the build is what this stage costs.
  CC=clang CXX=clang++ cmake -S "$root" -B "$fuzz_dir" $(generator "$fuzz_dir") -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" -DARBITER_FUZZ=ON -DARBITER_TESTS=OFF "$werror" >/dev/null
  cmake --build "$fuzz_dir" -j"$jobs" --target arbiter_fuzz_all
fi
# fuzz_one TARGET: runs one target; its status is its success.
fuzz_one() {
  local target=$1 seconds bin
  case "$target" in
    position | puzzles | solver_input) seconds=${ARBITER_LIBFUZZER_SHORT_SECONDS:-4} ;;
    *) seconds=${ARBITER_LIBFUZZER_SECONDS:-6} ;;
  esac
  if [ "$target" = differential ]; then
    bin="$fuzz_dir/checker/arbiter_libfuzzer"
  else
    bin="$fuzz_dir/checker/arbiter_fuzz_$target"
  fi
  local work="$fuzz_dir/corpus-$target"
  mkdir -p "$work"
  "$bin" "$work" "$root/corpus/fuzz/$target" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
    -artifact_prefix="$fuzz_dir/$target-" -print_final_stats=1 >"$fuzz_dir/libfuzzer-$target.log" 2>&1
}
if [ -n "$fuzz_dir" ]; then
  targets=(differential ruleset fen chessme perft_suite notation pgn position puzzles solver_input)
  declare -A fuzz_pid=()
  for ((i = 0; i < ${#targets[@]}; i += jobs)); do
    for target in "${targets[@]:i:jobs}"; do
      fuzz_one "$target" &
      fuzz_pid[$target]=$!
    done
    for target in "${targets[@]:i:jobs}"; do
      log="$fuzz_dir/libfuzzer-$target.log"
      if ! wait "${fuzz_pid[$target]}"; then
        wait || true
        tail -n 60 "$log"
        echo "libFuzzer smoke run of $target failed (log: $log)"
        failed=$((failed + 1))
        finish 1
      fi
      runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
      rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
      cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1)
      echo "libFuzzer $target: ${runs:-0} runs, ${rate:-0}/s, ${cov:-cov: ?}"
      if [ "${runs:-0}" -eq 0 ]; then
        echo "libFuzzer smoke run of $target executed nothing (log: $log)"
        failed=$((failed + 1))
        finish 1
      fi
    done
  done
else
  echo "clang++ not found: libFuzzer smoke runs skipped"
fi
# Two stages run last, against a deadline: the whole run stays within ARBITER_CI_BUDGET seconds
# (default 1440: CI's 25 minutes less a minute). Each starts when at least 60 s are left and
# is stopped at the budget, said as cut short (what it ran had no finding; not a failure).
# Its switch, ARBITER_TSAN or ARBITER_GCC_CHECK, set to 1 runs it always and to its end, 0 never.
budget=${ARBITER_CI_BUDGET:-1440}
# guarded NAME SWITCH COMMAND...: runs COMMAND as such a stage.
guarded() {
  local name=$1 switch=$2
  shift 2
  local elapsed=$(($(date +%s) - run_t0)) deadline=0 mode=${!switch:-auto}
  if [ "$mode" = auto ]; then
    if [ $((budget - elapsed)) -lt 60 ]; then
      echo "$name skipped: the run has taken ${elapsed} s of its ${budget} s budget ($switch=1 runs it)"
      return 0
    fi
    mode=1
    deadline=$((budget - elapsed))
  fi
  [ "$mode" = 1 ] || return 0
  local cmd=("$@") rc=0
  if [ "$deadline" -gt 0 ]; then
    echo "$name: ${deadline} s left of the ${budget} s budget"
    cmd=(timeout "$deadline" "${cmd[@]}")
  fi
  "${cmd[@]}" || rc=$?
  if [ "$rc" -eq 124 ] && [ "$deadline" -gt 0 ]; then
    echo "$name cut short at the run's ${budget} s budget: no finding in what it ran (the lines" \
      "above); $switch=1 runs it to its end"
  elif [ "$rc" -ne 0 ]; then
    echo "$name failed"
    failed=$((failed + 1))
    finish 1
  fi
}
# ThreadSanitizer over the parallel code (tests/tsan.sh: a clang -fsanitize=thread build of
# the command at -O0, then fuzz, properties, validate, mutate and solve with --jobs 2): about
# 100 s on an idle 2-core machine (3 min of CPU for the build, 15 s for the commands,
# 2026-11-27; 129 s on a slower one).
stage "tsan"
if command -v clang++ >/dev/null 2>&1; then
  guarded "ThreadSanitizer stage" ARBITER_TSAN env ARBITER_WERROR="${ARBITER_WERROR:-ON}" bash "$root/tests/tsan.sh"
else
  echo "clang++ not found: ThreadSanitizer stage skipped"
fi
# g++ over every product source, front end only (tests/gcc_check.sh): the main job's compiler,
# which no build above uses. 124 s on the slower machine (240 s of CPU).
stage "g++ check"
if command -v g++ >/dev/null 2>&1; then
  guarded "g++ check" ARBITER_GCC_CHECK env ARBITER_WERROR="${ARBITER_WERROR:-ON}" bash "$root/tests/gcc_check.sh"
else
  echo "g++ not found: g++ check skipped"
fi
finish 0
