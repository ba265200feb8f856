#!/usr/bin/env bash
# Installs the Debian packages Arbiter needs, only those missing. Debian 12.
#   bash cli/install-deps.sh          everything
#   bash cli/install-deps.sh build    what compiling the tree needs (compilers, libraries)
#   bash cli/install-deps.sh run      what the demo and the tests run: the peer engines,
#                                     chromium, node and the npm Fairy-Stockfish
# tests/run.sh installs `build` first and `run` while the Release build compiles.
set -euo pipefail
build_pkgs=(build-essential cmake clang libz3-dev libboost-program-options-dev librapidcheck-dev libgtest-dev
            nlohmann-json3-dev libpng-dev libzstd-dev zlib1g-dev libbz2-dev pkg-config ninja-build)
run_pkgs=(stockfish fairy-stockfish python3 chromium zstd pgn-extract parallel)
part=${1:-all}
case "$part" in
  all) pkgs=("${build_pkgs[@]}" "${run_pkgs[@]}") ;;
  build) pkgs=("${build_pkgs[@]}") ;;
  run) pkgs=("${run_pkgs[@]}") ;;
  *)
    echo "usage: bash cli/install-deps.sh [all|build|run]" >&2
    exit 2
    ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm run chess.js, the PGN oracle of bench/records/agreement.sh. A machine may
# already have them from elsewhere (a node build bundling npm): look for the commands.
if [ "$part" != build ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # The package lists once: `run` after `build` (tests/run.sh) finds them fresh.
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -30 -print -quit 2>/dev/null)" ]; then
    $sudo apt-get update -qq
  fi
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Current Fairy-Stockfish, the npm build fairy-stockfish-nnue.wasm, for `--fsf-engine
# wasm:DIR` (checker/fsf/uci-wasm.js) and tests/fsf_test.cpp's FsfWasm tests: installed
# under the build folder (ARBITER_FSF_WASM_DIR, default build/). Without a network the
# tests that need it say they are skipped and why.
wasm_dir="${ARBITER_FSF_WASM_DIR:-$(cd "$(dirname "$0")/.." && pwd)/build}"
if [ "$part" != build ] && [ ! -f "$wasm_dir/node_modules/fairy-stockfish-nnue.wasm/stockfish.js" ]; then
  mkdir -p "$wasm_dir"
  npm install --prefix "$wasm_dir" --no-save --no-audit --no-fund fairy-stockfish-nnue.wasm@1.1.12 >/dev/null 2>&1 ||
    echo "warning: npm could not install fairy-stockfish-nnue.wasm under $wasm_dir" >&2
fi
