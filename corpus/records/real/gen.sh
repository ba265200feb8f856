#!/usr/bin/env bash
# Rebuilds corpus/records/real/ from the packages it comes from (see README.md here):
# copies the files verbatim, then writes accepted.tsv with gen.js.
#   corpus/records/real/gen.sh SCRATCH   (a scratch folder; needs npm, apt-get, node, pgn-extract)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
s=${1:?scratch folder}
mkdir -p "$s" && cd "$s"
npm install --prefix "$s" --no-save kokopu@4.13.4 chess.js@1.4.0 @mliebelt/pgn-parser@1.4.19 cm-pgn@5.0.0 >/dev/null
apt-get download pychess=1.0.3-1 pgn-extract=19.04-1 >/dev/null
for d in pychess_*.deb pgn-extract_*.deb; do mkdir -p "x/${d%%_*}" && dpkg-deb -x "$d" "x/${d%%_*}"; done
n="$s/node_modules"
mkdir -p "$here/chess.js" "$here/pgn-parser" "$here/cm-pgn" "$here/pychess" "$here/pgn-extract"
cp "$n/chess.js/benchmarks/benchmark.pgn" "$here/chess.js/lichess-100.pgn"
cp "$n/chess.js/LICENSE" "$here/chess.js/LICENSE"
cp "$n/@mliebelt/pgn-parser/doc/sampleGame.pgn" "$n/@mliebelt/pgn-parser/doc/sampleGames.pgn" "$here/pgn-parser/"
cp "$n/@mliebelt/pgn-parser/LICENSE" "$here/pgn-parser/LICENSE"
cp "$n/cm-pgn/test/assets/test_pgn_list.pgn" "$here/cm-pgn/"
cp "$n/cm-pgn/LICENSE" "$here/cm-pgn/LICENSE"
cp x/pychess/usr/share/pychess/learn/puzzles/*.pgn x/pychess/usr/share/pychess/learn/lessons/*.pgn "$here/pychess/"
cp x/pychess/usr/share/doc/pychess/copyright "$here/pychess/copyright"
cp x/pgn-extract/usr/share/pgn-extract/eco.pgn "$here/pgn-extract/"
cp x/pgn-extract/usr/share/doc/pgn-extract/copyright "$here/pgn-extract/copyright"
cp /usr/share/common-licenses/GPL-3 "$here/GPL-3"
node "$here/gen.js" "$n/kokopu" "$(command -v pgn-extract || echo /usr/games/pgn-extract)" "$here"
