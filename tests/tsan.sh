#!/usr/bin/env bash
# ThreadSanitizer over the parallel code: a clang build of the `arbiter` command with
# -fsanitize=thread (build-tsan/), then the commands that fan out over threads, each with
# --jobs 2 (3 for a stipulation): fuzz (games split over workers), properties, validate (a reader thread and
# validator workers), mutate (mutants over workers), solve (root moves split within one
# problem, a stipulation's first moves with helping, and an --epd batch). A data race or a
# lock-order inversion is a report and a failure (exit 1, TSan's report on stderr). Run by
# tests/run.sh as its last stage, or alone:
#   bash tests/tsan.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
if ! command -v clang++ >/dev/null 2>&1; then
  echo "tsan: clang++ not found (cli/install-deps.sh installs it)" >&2
  exit 2
fi
generator() { [ -f "$1/CMakeCache.txt" ] || ! command -v ninja >/dev/null 2>&1 || echo "-G Ninja"; }
dir="$root/build-tsan"
# -O0: the commands below run short inputs and the build is what costs: 173 s of CPU at -O0
# against 235 s at -O1 (2026-11-27), for commands that take 7 s of CPU instead of 3.
CC=clang CXX=clang++ cmake -S "$root" -B "$dir" $(generator "$dir") -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -DNDEBUG" -DARBITER_TSAN=ON -DARBITER_TESTS=OFF \
  -DARBITER_WERROR="${ARBITER_WERROR:-OFF}" >/dev/null
cmake --build "$dir" -j"$jobs" --target arbiter
bin="$dir/cli/arbiter"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=0
# check NAME EXPECTED_STATUSES COMMAND...: runs a command under TSan; a TSan report (exit 66)
# or a status outside EXPECTED_STATUSES (e.g. "0 1") fails the script.
check() {
  local name=$1 ok=$2 rc=0
  shift 2
  local t0=$(date +%s)
  "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  if [ "$rc" -eq 66 ] || grep -q "WARNING: ThreadSanitizer" "$work/$name.err"; then
    cat "$work/$name.err" >&2
    echo "tsan: $name: ThreadSanitizer report (command: $*)" >&2
    exit 1
  fi
  if [[ " $ok " != *" $rc "* ]]; then
    tail -n 30 "$work/$name.err" >&2
    echo "tsan: $name: exit $rc, expected one of: $ok (command: $*)" >&2
    exit 1
  fi
  runs=$((runs + 1))
  echo "tsan: $name: clean, exit $rc, $(($(date +%s) - t0)) s"
}
cd "$work"
check fuzz "0" "$bin" fuzz --variant chess --games 6 --jobs 2 --seed 7
check properties "0" "$bin" fuzz --rules "$root/rulesets/fsf/knightmate.rules" --properties --games 2 --jobs 2 --seed 3
check validate "0 1" "$bin" validate "$root/corpus/records/real/chess.js/lichess-100.pgn" --jobs 2 --quiet
check mutate "0 1" "$bin" mutate "$root/rulesets/fsf/nightrider.rules" --games 2 --jobs 2 --seed 5
head -n 8 "$root/corpus/mates/mates.epd" | grep -v '^#' >"$work/mates.epd"
check solve-batch "0 1" "$bin" solve --epd "$work/mates.epd" --jobs 2
check solve-split "0 1" "$bin" solve --variant chess --fen "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4" --depth 1 --jobs 2
# A stipulation's first moves split over three threads, the idle ones helping with the
# first moves still searched (and abandoning them when another thread settles them).
check solve-stip-split "0" "$bin" solve --fen "1r2k1n1/2qp1r2/N1PQp3/pB3p2/2P5/4PP1P/PP1K4/1RB3NR w - - 0 27" \
  --stipulation "#4" --jobs 3
echo "tsan: $runs commands, no report"
