#!/usr/bin/env bash
# Runs the whole test suite: a Release build with every test, then an AddressSanitizer +
# UBSan build of the same tests under smaller perft budgets.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/cli/install-deps.sh"
jobs=$(nproc)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j"$jobs"
ctest --test-dir "$root/build" --output-on-failure -j"$jobs"
cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DARBITER_SANITIZE=ON >/dev/null
cmake --build "$root/build-asan" -j"$jobs"
ARBITER_PERFT_BUDGET=${ARBITER_ASAN_PERFT_BUDGET:-20000} ARBITER_FAST=1 \
  ctest --test-dir "$root/build-asan" --output-on-failure -j"$jobs"
