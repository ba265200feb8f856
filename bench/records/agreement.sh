#!/usr/bin/env bash
# Agreement of `arbiter validate` with Debian's pgn-extract and with chess.js (npm) on which
# chess games are valid and at which ply the first illegal move stands, over self-play games
# with faults injected at known plies ([FaultPly "K"]).
#   bench/records/agreement.sh [GAMES]     (default 2000; needs build/, pgn-extract, node + chess.js)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
games=${1:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pgnx=$(command -v pgn-extract || echo /usr/games/pgn-extract)
if [ -z "${CHESSJS:-}" ]; then
  if ! node -e "require('chess.js')" 2>/dev/null; then
    (cd "$work" && npm init -y >/dev/null && npm install --silent chess.js@1 >/dev/null 2>&1)
    export CHESSJS="$work/node_modules/chess.js"
  fi
fi
"$root/build/checker/records/arbiter_selfplay" --variant chess --games "$games" --seed 4242 --faults 0.5 \
  --max-plies 200 > "$work/games.pgn"
# Expected: FaultPly per round (0 = no fault).
awk '/^\[Round /{gsub(/[^0-9]/,"");r=$0;f[r]=0} /^\[FaultPly /{gsub(/[^0-9]/,"");f[r]=$0} END{for(k in f)print k, f[k]}' \
  "$work/games.pgn" | sort -n > "$work/expected"
# Arbiter: round = game index (games are written in round order from 1).
"$root/build/cli/arbiter" validate "$work/games.pgn" --json --quiet | grep -v '"summary"' |
  sed -E 's/.*"game":([0-9]+),"valid":(true|false).*/\1 \2 &/' |
  awk '{ply=0; if ($2=="false") {match($0,/"ply":[0-9]+/); ply=substr($0,RSTART+6,RLENGTH-6)} print $1, ply}' |
  sort -n > "$work/arbiter" || true
# pgn-extract: valid games are those it writes out; the log names each failed move.
"$pgnx" -s -l "$work/pgnx.log" "$work/games.pgn" -o "$work/valid.pgn" 2>/dev/null || true
grep -oE '^\[Round "[0-9]+"\]' "$work/valid.pgn" | grep -oE '[0-9]+' | sort -n > "$work/pgnx_valid"
grep -oE 'Failed to make move [0-9]+\.(\.\.)? ' "$work/pgnx.log" |
  awk '{n=$5; if (n ~ /\.\.\./) {sub(/\.\.\./,"",n); print 2*n} else {sub(/\./,"",n); print 2*n-1}}' > "$work/pgnx_plies"
awk 'NR==FNR{v[$1]=1;next} {print $1, (v[$1]?0:-1)}' "$work/pgnx_valid" "$work/expected" > "$work/pgnx_tmp"
awk 'NR==FNR{p[++n]=$1;next} {if ($2==-1) {$2=p[++i]} print}' "$work/pgnx_plies" "$work/pgnx_tmp" > "$work/pgnx"
node "$root/bench/records/chessjs_check.js" "$work/games.pgn" |
  sed -E 's/.*"round":([0-9]+),"valid":(true|false),"ply":([0-9]+).*/\1 \3/' | sort -n > "$work/chessjs"
total=$(wc -l < "$work/expected")
faulted=$(awk '$2>0' "$work/expected" | wc -l)
agree() { join "$work/$1" "$work/$2" | awk '$2==$3' | wc -l; }
valid_agree() { join "$work/$1" "$work/$2" | awk '($2==0)==($3==0)' | wc -l; }
echo "games: $total, with an injected fault: $faulted"
for tool in arbiter pgnx chessjs; do
  echo "$tool vs injected faults: validity $(valid_agree expected $tool)/$total, first illegal ply $(agree expected $tool)/$total"
done
echo "arbiter vs pgn-extract: validity $(valid_agree arbiter pgnx)/$total, ply $(agree arbiter pgnx)/$total"
echo "arbiter vs chess.js:    validity $(valid_agree arbiter chessjs)/$total, ply $(agree arbiter chessjs)/$total"
[ "$(agree arbiter pgnx)" -eq "$total" ] && [ "$(agree arbiter chessjs)" -eq "$total" ]
