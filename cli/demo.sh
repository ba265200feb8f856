#!/usr/bin/env bash
# The main job: install what is missing, build, and demonstrate Arbiter on the bundled
# rulesets (lint every ruleset, run their self-expectations, perft on the compiled
# generator against the reference engine, the perft suite, and a position's legal moves).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/cli/install-deps.sh"
build="$root/build"
# Ninja, when installed, for a new build directory: it compiles a target's sources while the
# libraries it links are still being built (make waits for them, leaving a core idle while
# the move generator compiles). A build directory keeps the generator it was made with.
generator() { [ -f "$1/CMakeCache.txt" ] || ! command -v ninja >/dev/null 2>&1 || echo "-G Ninja"; }
cmake -S "$root" -B "$build" $(generator "$build") -DCMAKE_BUILD_TYPE=Release -DARBITER_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target arbiter >/dev/null
arbiter="$build/cli/arbiter"
step() { printf '\n== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}" || echo "(exit $?)"; }

step "Lint every bundled ruleset (drafts report the constructs the generator cannot run yet)" \
  "$arbiter" check "$root"/rulesets/chess.rules "$root"/rulesets/chessembly.rules "$root"/rulesets/chessme.rules
for r in nostress chess2; do
  "$arbiter" check "$root/rulesets/$r.rules" 2>/dev/null | tail -1 || true
done
step "Expectations the rulesets state about themselves" \
  "$arbiter" test "$root"/rulesets/chess.rules "$root"/rulesets/chessembly.rules "$root"/rulesets/chessme.rules
step "Chess perft, compiled generator" "$arbiter" perft --variant chess --depth 5 --json
step "Chess perft, reference engine" "$arbiter" perft --variant chess --depth 5 --json --engine reference
step "Kiwipete divide" "$arbiter" perft --variant chess --depth 2 --divide \
  --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
step "The tricky perft suite" "$arbiter" perft --variant chess --suite "$root/corpus/perft/tricky.perft"
step "Chessembly from the empty board" "$arbiter" perft --variant chessembly --depth 3 --json
step "Chessembly: legal actions after 1. pKe1 pKe7 2. pRe2+" "$arbiter" moves --variant chessembly \
  --position "8/4k3/8/8/8/8/4R3/4K3[QRBBNNPPPPPPPPqrrbbnnpppppppp] b - - 1 2"
step "A checkmate" "$arbiter" moves --variant chess \
  --fen "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
step "ChessMe on the unbounded grid: perft of the seeded start" \
  "$arbiter" perft --variant chessme --seed 2 --depth 3 --json
step "ChessMe: legal turns far from the origin" "$arbiter" moves --variant chessme --notation uci \
  --position "k(-999,1006),p(-1000,1004),P(-1000,1001),K(-998,1000) w Q/n -/- -/- 5"
step "Differential fuzzing: compiled generator against the reference engines" \
  "$arbiter" fuzz --variant chess --games 200 --seed 1 --save-dir "$build/demo-regressions"
"$arbiter" fuzz --variant chessembly --games 200 --seed 1 --save-dir "$build/demo-regressions" | tail -2
"$arbiter" fuzz --variant chessme --games 40 --seed 1 --save-dir "$build/demo-regressions" | tail -2
# A rule change checked the way a variant designer would in CI: chess without en passant.
mutant="$build/demo-chess-no-en-passant.rules"
sed 's/fmWfceFifmnD/fmWfcFifmnD/' "$root/rulesets/chess.rules" >"$mutant"
cp "$root/rulesets/chess.rules" "$build/chess.rules"
step "arbiter diff: where the rule change shows (expected different)" \
  "$arbiter" diff --rules "$build/chess.rules" --rules "$mutant" --expect different --games 300
step "arbiter mutate: which rules of Chessembly nothing distinguishes (two equivalent survivors)" \
  "$arbiter" mutate "$root/rulesets/chessembly.rules" --games 100 --jobs 2
step "No Stress Chess (level 1) and Chess 2 (Two Kings against Animals) on the compiled generator" \
  "$arbiter" perft --variant nostress --set level=1 --depth 3
step "... and the same on their reference engines" \
  "$arbiter" perft --variant nostress --engine reference --set level=1 --depth 3
"$arbiter" perft --variant chess2 --set white-army=two-kings --set black-army=animals --depth 2
"$arbiter" perft --variant chess2 --engine reference --set white-army=two-kings --set black-army=animals --depth 2
step "A forced mate proved, with every key" "$arbiter" solve --variant chess --goal mate --depth 2 --all-keys \
  --position "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
step "Z3: three positions where Black is checkmated with K+R v K, each verified by the generator" \
  "$arbiter" synth --variant chess --goal checkmated --material "KR v K" --side b --count 3
step "Validating the Chessembly sample game and the self-play records" \
  "$arbiter" validate "$root/corpus/records/chessembly-sample.pgn" "$root"/corpus/records/selfplay/*
step "A board diagram (SVG)" "$arbiter" diagram --variant chessme --position "start" --svg "$build/demo-chessme.svg"
# A designer's variants, each a ruleset outside the bundled set (docs/variants.md).
step "Knightmate (a designer's ruleset, extends chess): perft as Fairy-Stockfish counts it (324)" \
  "$arbiter" perft --rules "$root/corpus/rulesets/knightmate.rules" --depth 2
step "Knightmate: K+B v K is no dead draw there; the solver proves the mate" \
  "$arbiter" solve --rules "$root/corpus/rulesets/knightmate.rules" --goal mate --depth 2 \
  --position "k7/8/B7/3K4/8/8/8/8 w - - 0 1"
step "No Stress Chess without Again cards, hands of four, fuzzed against the reference told that deck" \
  "$arbiter" fuzz --rules "$root/corpus/rulesets/nostress-plain4.rules" --games 50 --save-dir "$build"
step "The shortest Berolina game to a mate, proved shortest" \
  "$arbiter" proofgame --rules "$root/corpus/rulesets/berolina.rules" --goal mate --max-plies 4
