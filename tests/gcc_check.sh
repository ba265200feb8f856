#!/usr/bin/env bash
# g++ over every product source, front end only (-fsyntax-only, -Wall -Wextra and -Werror as
# configured): the main job (cli/demo.sh) builds with the default compiler, g++ on Debian,
# while tests/run.sh's builds are clang's. A source g++ refuses, or warns about, fails it.
# Run by tests/run.sh as a stage, or alone:
#   bash tests/gcc_check.sh
# (the middle end's warnings, which only optimisation raises, are not in it: the main job
# does not build with -Werror.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v g++ >/dev/null 2>&1; then
  echo "gcc_check: g++ not found (cli/install-deps.sh installs it)" >&2
  exit 2
fi
dir="$root/build-gcc"
CC=gcc CXX=g++ cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DARBITER_TESTS=OFF \
  -DARBITER_WERROR="${ARBITER_WERROR:-OFF}" >/dev/null
python3 - "$root" "$dir" "$(nproc)" <<'PY'
import concurrent.futures, json, os, shlex, subprocess, sys

root, build, jobs = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2]), int(sys.argv[3])
db = os.path.join(build, "compile_commands.json")
# The checkout's sources (not those the build generates, such as cli/version.cpp).
entries = [e for e in json.load(open(db))
           if os.path.realpath(e["file"]).startswith(root + "/") and not os.path.realpath(e["file"]).startswith(build + "/")]
if not entries:
    sys.exit(f"gcc_check: no product source in {db}")


def check(e):
    args, skip = [], False
    for a in shlex.split(e["command"]):
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT"):
            skip = True
        elif a != "-MD":
            args.append(a)
    p = subprocess.run(args + ["-fsyntax-only"], cwd=e["directory"], capture_output=True, text=True)
    return e["file"], p.returncode, p.stderr


failed = 0
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    for f, rc, err in pool.map(check, entries):
        if rc != 0 or err.strip():
            failed += 1
            sys.stderr.write(err)
            print(f"gcc_check: {os.path.relpath(f, root)}: {'refused' if rc else 'warnings'}", file=sys.stderr)
print(f"gcc_check: {len(entries)} sources, {failed} with a finding")
sys.exit(1 if failed else 0)
PY
