#!/usr/bin/env bash
# Installs the Debian packages Arbiter needs, only those missing. Debian 12.
set -euo pipefail
pkgs=(build-essential cmake clang libz3-dev libboost-program-options-dev librapidcheck-dev libgtest-dev
      nlohmann-json3-dev stockfish fairy-stockfish python3 chromium libpng-dev
      libzstd-dev zstd zlib1g-dev libbz2-dev pkg-config pgn-extract parallel ninja-build)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm run chess.js, the PGN oracle of bench/records/agreement.sh. A machine may
# already have them from elsewhere (a node build bundling npm): look for the commands.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Current Fairy-Stockfish, the npm build fairy-stockfish-nnue.wasm, for `--fsf-engine
# wasm:DIR` (checker/fsf/uci-wasm.js) and tests/fsf_test.cpp's FsfWasm tests: installed
# under the build folder (ARBITER_FSF_WASM_DIR, default build/). Without a network the
# tests that need it say they are skipped and why.
wasm_dir="${ARBITER_FSF_WASM_DIR:-$(cd "$(dirname "$0")/.." && pwd)/build}"
if [ ! -f "$wasm_dir/node_modules/fairy-stockfish-nnue.wasm/stockfish.js" ]; then
  mkdir -p "$wasm_dir"
  npm install --prefix "$wasm_dir" --no-save --no-audit --no-fund fairy-stockfish-nnue.wasm@1.1.12 >/dev/null 2>&1 ||
    echo "warning: npm could not install fairy-stockfish-nnue.wasm under $wasm_dir" >&2
fi
