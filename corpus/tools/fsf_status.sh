#!/usr/bin/env bash
# Rebuilds the "runs and agrees" rows of rulesets/fsf/README.md from the stored suites, so
# the catalogue's status table cannot claim more than the generator shows: for every
# rulesets/fsf/NAME.rules, `arbiter perft --rules ... --suite corpus/fsf/NAME.perft` is run
# and the row says what it checked (positions, depths, nodes) or that it FAILED.
#
#   corpus/tools/fsf_status.sh [--write] [--arbiter PATH] [--max-nodes N]
#
# Without --write the rows go to standard output; with it they replace the block between
# `<!-- runs:begin -->` and `<!-- runs:end -->` in rulesets/fsf/README.md. Exit 1 when a
# suite fails (its row says so), 2 on unusable input.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
arbiter="$here/build/cli/arbiter"
write=0
max_nodes=3000000
while [ $# -gt 0 ]; do
  case "$1" in
    --write) write=1 ;;
    --arbiter) arbiter=$2; shift ;;
    --max-nodes) max_nodes=$2; shift ;;
    *) echo "fsf_status.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$arbiter" ] || { echo "fsf_status.sh: no arbiter at $arbiter (ninja -C build arbiter)" >&2; exit 2; }

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
failed=0
for rules in "$here"/rulesets/fsf/*.rules; do
  name=$(basename "$rules" .rules)
  suite="$here/corpus/fsf/$name.perft"
  if [ ! -f "$suite" ]; then
    echo "| \`$name\` | FAILED: no corpus/fsf/$name.perft |" >>"$rows"
    failed=1
    continue
  fi
  out=$("$arbiter" perft --rules "$rules" --suite "$suite" --max-nodes "$max_nodes" 2>&1)
  rc=$?
  # The suite's shape: positions, the deepest depth from the start and from the others.
  shape=$(awk '/^epd /{n++} /^perft /{if (n==1 && $2>s) s=$2; if (n>1 && $2>r) r=$2} END{printf "%d positions, depth %d from the start, %d from %d random-play positions", n, s, r, n-1}' "$suite")
  checks=$(printf '%s\n' "$out" | grep '^suite ' | sed 's/.* \([0-9]*\) checks.*/\1/')
  nodes=$(printf '%s\n' "$out" | awk '/^nodes /{print $2}')
  if [ $rc -eq 0 ]; then
    echo "| \`$name\` | agrees: $shape; $checks counts, $nodes nodes |" >>"$rows"
  else
    echo "| \`$name\` | FAILED (exit $rc): $(printf '%s\n' "$out" | head -1) |" >>"$rows"
    failed=1
  fi
done

if [ $write -eq 1 ]; then
  readme="$here/rulesets/fsf/README.md"
  grep -q '<!-- runs:begin -->' "$readme" || { echo "fsf_status.sh: no runs block in $readme" >&2; exit 2; }
  awk -v rows="$rows" '
    /<!-- runs:begin -->/ {print; n=0; while ((getline l < rows) > 0) n++; close(rows); print n " variants run (rebuilt by `corpus/tools/fsf_status.sh --write`).\n"; print "| variant | stored suite, checked by arbiter perft --suite |"; print "|---|---|"; while ((getline l < rows) > 0) print l; skip=1; next}
    /<!-- runs:end -->/ {skip=0}
    !skip {print}' "$readme" >"$readme.tmp" && mv "$readme.tmp" "$readme"
  echo "rulesets/fsf/README.md: $(wc -l <"$rows") variants" >&2
else
  cat "$rows"
fi
exit $failed
