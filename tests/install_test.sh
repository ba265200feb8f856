#!/usr/bin/env bash
# The installed command (issue 29), as a user gets it: `cmake --install` into a temporary
# prefix, and the Debian package (`cpack -G DEB`) unpacked with `dpkg -x` and installed with
# `dpkg -i` into a temporary root (its own dpkg database, so no root and no change to this
# machine). Each copy runs from outside the source tree: chess perft 2 from the installed
# rulesets, a ruleset of one's own that `extends chess`, a ruleset found only in the
# installed share folder, and the installed docs.
# Usage: install_test.sh BUILD_DIR   (registered with ctest, label `install`)
set -euo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"  # nothing below runs in the source tree
fail=0
check() {  # check WHAT EXPECTED ACTUAL
  if [[ "$2" == "$3" ]]; then
    echo "ok: $1"
  else
    echo "FAILED: $1: expected \`$2\`, got \`$3\`"
    fail=1
  fi
}

# A designer's variant in a folder of their own: Knightmate, extending the installed chess.
mkdir -p "$tmp/variants"
cat >"$tmp/variants/knightmate.rules" <<'EOF'
ruleset knightmate extends chess
title "Knightmate"
piece king K { betza "N"; royal }
piece mann M { betza "K" }
piece pawn P {
  betza "fmWfceFifmnD"
  initial ranks 2
  forbidden ranks 1
  promote on rank 8 to Q R B M
}
setup "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1"
EOF

# try PREFIX LABEL: the checks on the command installed under PREFIX.
try() {
  local prefix=$1 label=$2 bin=$1/bin/arbiter
  [[ -x "$bin" ]] || { echo "FAILED: $label: no $bin"; fail=1; return; }
  check "$label: --version" "arbiter" "$("$bin" --version | cut -d' ' -f1)"
  check "$label: perft --variant chess --depth 2" "nodes 400" \
    "$(env -u ARBITER_RULESETS "$bin" perft --variant chess --depth 2)"
  check "$label: a Fairy-Stockfish ruleset (rulesets/fsf/)" "nodes 400" \
    "$(env -u ARBITER_RULESETS "$bin" perft --rules "$prefix/share/arbiter/rulesets/fsf/3check.rules" --depth 2)"
  check "$label: extends chess from outside the source tree" "nodes 324" \
    "$(env -u ARBITER_RULESETS "$bin" perft --rules "$tmp/variants/knightmate.rules" --depth 2)"
  # Only the installed share folder holds this one: the search path goes through it.
  local share=$prefix/share/arbiter/rulesets
  sed 's/^ruleset knightmate /ruleset installedprobe /' "$tmp/variants/knightmate.rules" >"$share/installedprobe.rules"
  check "$label: --variant found in BIN/../share/arbiter/rulesets" "nodes 324" \
    "$(env -u ARBITER_RULESETS "$bin" perft --variant installedprobe --depth 2)"
  rm -f "$share/installedprobe.rules"
  for f in README.md commands/perft.md language.md benchmarks.md; do
    [[ -s "$prefix/share/doc/arbiter/$f" ]] || { echo "FAILED: $label: no share/doc/arbiter/$f"; fail=1; }
  done
}

# 1. cmake --install into a temporary prefix.
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log"
try "$tmp/prefix" "cmake --install"

# 2. The Debian package, built into a temporary folder.
if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
  cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
    { cat "$tmp/cpack.log"; exit 1; }
  deb=$(ls "$tmp"/pkg/*.deb)
  check "package name" "arbiter" "$(dpkg-deb -f "$deb" Package)"
  depends=$(dpkg-deb -f "$deb" Depends)
  [[ "$depends" == *libc6* ]] || { echo "FAILED: Depends lacks the shared libraries: $depends"; fail=1; }
  dpkg -x "$deb" "$tmp/x"
  try "$tmp/x/usr" "dpkg -x"
  # dpkg -i into a root of its own: an empty dpkg database; the shared libraries the
  # package depends on are this machine's, not that database's.
  root=$tmp/root
  mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
  touch "$root/var/lib/dpkg/status"
  dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless --log=/dev/null \
    -i "$deb" >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; exit 1; }
  check "dpkg -i: the package is installed" "install ok installed" \
    "$(dpkg --root="$root" --force-not-root -s arbiter 2>/dev/null | sed -n 's/^Status: //p')"
  try "$root/usr" "dpkg -i"
else
  echo "FAILED: cpack or dpkg-deb missing (bash cli/install-deps.sh)"
  fail=1
fi
exit $fail
