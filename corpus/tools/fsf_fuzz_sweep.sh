#!/usr/bin/env bash
# Issue 26's acceptance over the catalogue: `arbiter fuzz --against fairy-stockfish` on every
# rulesets/fsf/NAME.rules (each names its Fairy-Stockfish variant), with current
# Fairy-Stockfish (the npm wasm build) by default. Prints a line per variant and a summary;
# exit 1 when any variant diverged. The divergences are saved under OUT (default: a
# temporary folder, named at the end).
#
#   bash corpus/tools/fsf_fuzz_sweep.sh [--games N | --seconds S] [--engine wasm:DIR|COMMAND]
#        [--out DIR] [--markdown FILE] [NAME...]
#
# Each variant's line gives the positions compared and their rate (positions/s against
# Fairy-Stockfish, measured by `arbiter fuzz` from after the engines started); OUT/NAME.json
# keeps fuzz's whole answer. --markdown writes the table (variant, positions, positions/s,
# result) with the command that made it. A divergence that corpus/fsf/sweep-exceptions.txt
# states for the variant (Fairy-Stockfish's known behaviour the ruleset deliberately
# differs from) is printed as EXCEPTION with its reason and does not fail the sweep.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
arbiter=${ARBITER:-$root/build/cli/arbiter}
games=10
seconds=""
engine="wasm:${ARBITER_FSF_WASM_DIR:-$root/build}"
out=""
markdown=""
exceptions="$root/corpus/fsf/sweep-exceptions.txt"
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --markdown) markdown=$2; shift 2 ;;
    -*) echo "fsf_fuzz_sweep.sh: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
[ -x "$arbiter" ] || { echo "fsf_fuzz_sweep.sh: no $arbiter (build it, or set ARBITER)" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
if [ ${#names[@]} -eq 0 ]; then
  for f in "$root"/rulesets/fsf/*.rules; do names+=("$(basename "$f" .rules)"); done
fi
if [ -n "$seconds" ]; then budget=(--seconds "$seconds"); else budget=(--games "$games"); fi
# The stated reason for variant $1's divergence $2, if any (VARIANT<TAB>ERE<TAB>REASON lines).
stated() {
  [ -f "$exceptions" ] || return 1
  local v re why
  while IFS=$'\t' read -r v re why; do
    case "$v" in '#'* | '') continue ;; esac
    if [ "$v" = "$1" ] && grep -qE -- "$re" <<<"$2"; then
      printf '%s' "$why"
      return 0
    fi
  done <"$exceptions"
  return 1
}
rows=()
bad=0
excepted=0
for n in "${names[@]}"; do
  t0=$(date +%s)
  json=$(cd "$out" && "$arbiter" fuzz --rules "$root/rulesets/fsf/$n.rules" --against fairy-stockfish \
    --fsf-engine "$engine" "${budget[@]}" --json 2>"$out/$n.err") && rc=0 || rc=$?
  printf '%s\n' "$json" >"$out/$n.json"
  s=$(($(date +%s) - t0))
  positions=$(sed -nE 's/.*"positions":([0-9]+).*/\1/p' <<<"$json")
  rate=$(sed -nE 's/.*"positions_per_second":([0-9]+).*/\1/p' <<<"$json")
  if [ "$rc" -eq 0 ]; then
    printf '%-16s ok         %6s positions %5s/s %4s s\n' "$n" "${positions:-?}" "${rate:-?}" "$s"
    rows+=("| $n | ${positions:-?} | ${rate:-?} | no divergence |")
  elif [ "$rc" -eq 1 ]; then
    what=$(sed -nE 's/.*"divergence":\{"position":"([^"]*)","action":"([^"]*)","what":"([^"]*)","left":"([^"]*)","right":"([^"]*)".*/\3 at \1 \2: arbiter \4, fairy-stockfish \5/p' <<<"$json")
    if why=$(stated "$n" "$what"); then
      printf '%-16s EXCEPTION  %s (stated: %s)\n' "$n" "$what" "$why"
      rows+=("| $n | ${positions:-?} | ${rate:-?} | stated exception: \`$what\` ($why) |")
      excepted=$((excepted + 1))
    else
      printf '%-16s DIVERGES   %s\n' "$n" "$what"
      rows+=("| $n | ${positions:-?} | ${rate:-?} | **diverges**: \`$what\` |")
      bad=$((bad + 1))
    fi
  else
    printf '%-16s unusable   %s\n' "$n" "$(head -c 300 "$out/$n.err" | tr '\n' ' ')"
    rows+=("| $n | - | - | **unusable**: $(head -c 200 "$out/$n.err" | tr '\n|' '  ') |")
    bad=$((bad + 1))
  fi
done
echo "${#names[@]} variants, $bad diverged or could not run, $excepted stated exceptions; details in $out"
if [ -n "$markdown" ]; then
  {
    echo "| variant | positions | positions/s | result |"
    echo "|---|---:|---:|---|"
    printf '%s\n' "${rows[@]}"
  } >"$markdown.tmp.$$" && mv "$markdown.tmp.$$" "$markdown"
fi
[ "$bad" -eq 0 ]
