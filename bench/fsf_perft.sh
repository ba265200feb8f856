#!/usr/bin/env bash
# Perft speed of the compiled catalogue rulesets (rulesets/fsf/NAME.rules) against Debian's
# Fairy-Stockfish 11.1 (/usr/games/fairy-stockfish) on every variant both run: from each
# variant's start (the first position of corpus/fsf/NAME.perft), at one ply deeper than the
# suite's deepest count from the start (or --depth D). Prints per variant the nodes, the
# seconds of each engine (best of --repeat runs; Fairy-Stockfish's include its start-up,
# measured and subtracted with `go perft 1`) and the ratio compiled/FSF of nodes per
# second (above 1: arbiter is faster). A count on which the two disagree is reported, not
# timed: Fairy-Stockfish 11.1 is older than the npm build the suites come from.
#
#   bench/fsf_perft.sh [--arbiter PATH] [--fsf PATH] [--depth D] [--repeat N] [NAME...]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
arbiter="$here/build/cli/arbiter"
fsf=/usr/games/fairy-stockfish
depth=""
repeat=3
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --arbiter) arbiter=$2; shift ;;
    --fsf) fsf=$2; shift ;;
    --depth) depth=$2; shift ;;
    --repeat) repeat=$2; shift ;;
    -*) echo "fsf_perft.sh: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1") ;;
  esac
  shift
done
[ -x "$arbiter" ] || { echo "fsf_perft.sh: no arbiter at $arbiter" >&2; exit 2; }
command -v "$fsf" >/dev/null || { echo "fsf_perft.sh: no Fairy-Stockfish at $fsf" >&2; exit 2; }
known=$(printf 'uci\nquit\n' | "$fsf" 2>/dev/null | grep 'name UCI_Variant' | sed 's/ var /\n/g' | tail -n +2)
if [ ${#names[@]} -eq 0 ]; then
  for f in "$here"/rulesets/fsf/*.rules; do names+=("$(basename "$f" .rules)"); done
fi

now() { date +%s.%N; }
# Fairy-Stockfish's perft: seconds (whole process) and nodes.
fsf_run() {  # variant fen depth
  local t0 t1 out
  t0=$(now)
  out=$(printf 'uci\nsetoption name UCI_Variant value %s\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" "$3" |
        "$fsf" 2>/dev/null | grep '^Nodes searched' | awk '{print $3}')
  t1=$(now)
  echo "$(echo "$t1 - $t0" | bc -l) $out"
}

printf '%-14s %5s %12s %10s %10s %8s\n' variant depth nodes arbiter_s fsf_s ratio
for name in "${names[@]}"; do
  if ! printf '%s\n' "$known" | grep -qx "$name"; then
    printf '%-14s not in Fairy-Stockfish 11.1\n' "$name"
    continue
  fi
  suite="$here/corpus/fsf/$name.perft"
  [ -f "$suite" ] || { printf '%-14s no suite\n' "$name"; continue; }
  fen=$(awk '/^epd /{sub(/^epd /, ""); print; exit}' "$suite")
  d=$depth
  # One ply deeper than the suite's deepest count from the start, two when that count is
  # small (under 10^5 nodes), so that both engines run long enough to be timed.
  [ -n "$d" ] || d=$(awk '/^epd /{n++} /^perft /{if (n==1 && $2>=s) {s=$2; c=$3}} END{print s + (c < 100000 ? 2 : 1)}' "$suite")
  best_a=""; best_f=""; nodes_a=""; nodes_f=""
  base=$(fsf_run "$name" "$fen" 1 | awk '{print $1}')
  for _ in $(seq "$repeat"); do
    read -r sa na < <("$arbiter" perft --rules "$here/rulesets/fsf/$name.rules" --position "$fen" --depth "$d" --json |
                      sed 's/.*"nodes":\([0-9]*\).*"seconds":\([0-9.e-]*\).*/\2 \1/')
    read -r sf nf < <(fsf_run "$name" "$fen" "$d")
    nodes_a=$na; nodes_f=$nf
    sf=$(echo "$sf - $base" | bc -l)
    if [ -z "$best_a" ] || [ "$(echo "$sa < $best_a" | bc -l)" = 1 ]; then best_a=$sa; fi
    if [ -z "$best_f" ] || [ "$(echo "$sf < $best_f" | bc -l)" = 1 ]; then best_f=$sf; fi
  done
  if [ "$nodes_a" != "$nodes_f" ]; then
    printf '%-14s %5s counts differ: arbiter %s, Fairy-Stockfish 11.1 %s\n' "$name" "$d" "$nodes_a" "$nodes_f"
    continue
  fi
  if [ "$(echo "$best_f < 0.05 || $best_a < 0.005" | bc -l)" = 1 ]; then
    printf '%-14s %5s %12s too short to time (raise --depth)\n' "$name" "$d" "$nodes_a"
    continue
  fi
  ratio=$(echo "$best_f / $best_a" | bc -l)
  printf '%-14s %5s %12s %10.3f %10.3f %8.2f\n' "$name" "$d" "$nodes_a" "$best_a" "$best_f" "$ratio"
done
