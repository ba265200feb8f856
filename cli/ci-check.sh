#!/usr/bin/env bash
# The checks a pull request that touches a ruleset runs (docs/ci.md):
# its expectations (`arbiter test`), the differential fuzzer against its oracle
# (`arbiter fuzz`: the reference engine, Fairy-Stockfish, or the metamorphic properties when
# it has no reference) and the mutation score (`arbiter mutate --min-score`). Writes JUnit
# XML per check and one Markdown summary (each divergence with a diagram) into OUT_DIR.
#
#   bash cli/ci-check.sh RULES.rules [OUT_DIR]
#
# Environment: ARBITER (the command, default `arbiter`), FUZZ_AGAINST (empty: the default
# oracle), FUZZ_GAMES (50), MUTATE_AGAINST (original), MUTATE_GAMES (20), MIN_SCORE (80),
# SEED (1). Exit status: 0 every check passed, 1 a check failed, 2 unusable input.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 RULES.rules [OUT_DIR]" >&2
  exit 2
fi
rules=$1
out=${2:-arbiter-report}
arbiter=${ARBITER:-arbiter}
seed=${SEED:-1}
mkdir -p "$out" || exit 2
worst=0
note() {  # the worst exit status so far: 2 over 1 over 0
  if [ "$1" -gt "$worst" ]; then worst=$1; fi
}
verdict() {
  case $1 in 0) echo "passed" ;; 1) echo "FAILED" ;; *) echo "unusable input (exit $1)" ;; esac
}

"$arbiter" test "$rules" --junit "$out/test.xml" >"$out/test.txt" 2>&1
test_rc=$?
note $test_rc

fuzz_args=(fuzz --rules "$rules" --games "${FUZZ_GAMES:-50}" --seed "$seed" --save-dir "$out"
  --junit "$out/fuzz.xml" --summary "$out/fuzz.md")
if [ -n "${FUZZ_AGAINST:-}" ]; then fuzz_args+=(--against "$FUZZ_AGAINST"); fi
"$arbiter" "${fuzz_args[@]}" >"$out/fuzz.txt" 2>&1
fuzz_rc=$?
note $fuzz_rc

"$arbiter" mutate "$rules" --against "${MUTATE_AGAINST:-original}" --games "${MUTATE_GAMES:-20}" \
  --seed "$seed" --min-score "${MIN_SCORE:-80}" --junit "$out/mutate.xml" --summary "$out/mutate.md" \
  >"$out/mutate.txt" 2>&1
mutate_rc=$?
note $mutate_rc

{
  echo "# Arbiter checks: \`$rules\`"
  echo
  echo "| check | result |"
  echo "|---|---|"
  echo "| test (expectations) | $(verdict $test_rc) |"
  echo "| fuzz | $(verdict $fuzz_rc) |"
  echo "| mutate (min score ${MIN_SCORE:-80}%) | $(verdict $mutate_rc) |"
  echo
  for part in test fuzz mutate; do
    if [ -s "$out/$part.md" ]; then
      cat "$out/$part.md"
    elif [ -s "$out/$part.txt" ] && [ "$(eval echo \$${part}_rc)" != 0 ]; then
      echo "## arbiter $part"
      echo
      echo '```'
      tail -n 20 "$out/$part.txt"
      echo '```'
      echo
    fi
  done
} >"$out/summary.md"
cat "$out/summary.md"
exit $worst
