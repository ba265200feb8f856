#!/usr/bin/env bash
# Validates the same standard-chess PGN file with `arbiter validate` (1 and 2 jobs) and with
# Debian's pgn-extract in one run; prints games per second, the ratios and peak memory
# (max RSS), and the peak memory of arbiter on a file four times as large (flat memory).
#   bench/records/bench.sh [GAMES]    (default 20000 self-play games, generated, not committed)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
games=${1:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pgnx=$(command -v pgn-extract || echo /usr/games/pgn-extract)
"$root/build/checker/records/arbiter_selfplay" --variant chess --games "$games" --seed 99 --max-plies 200 > "$work/a.pgn"
cat "$work/a.pgn" "$work/a.pgn" "$work/a.pgn" "$work/a.pgn" > "$work/x4.pgn"
zstd -q -3 "$work/x4.pgn" -o "$work/x4.pgn.zst"
python3 - "$root/build/cli/arbiter" "$pgnx" "$work" "$games" <<'PY'
import resource, subprocess, sys, time
arbiter, pgnx, work, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def run(cmd):
    best = None
    for _ in range(3):
        t = time.monotonic()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        dt = time.monotonic() - t
        best = dt if best is None else min(best, dt)
    return best
def peak(cmd):  # peak resident memory (VmHWM) of the process, sampled until it exits
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    hwm = 0
    while p.poll() is None:
        try:
            for line in open(f"/proc/{p.pid}/status"):
                if line.startswith("VmHWM:"):
                    hwm = max(hwm, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.005)
    return hwm / 1024
a = f"{work}/a.pgn"
px = run([pgnx, "-s", a, "-o", "/dev/null"])
a1 = run([arbiter, "validate", a, "--quiet", "--jobs", "1"])
a2 = run([arbiter, "validate", a, "--quiet", "--jobs", "2"])
print(f"file: {games} games, best of 3")
print(f"pgn-extract           {games/px:10.0f} games/s  peak {peak([pgnx, '-s', a, '-o', '/dev/null']):6.1f} MiB")
print(f"arbiter --jobs 1      {games/a1:10.0f} games/s  peak {peak([arbiter, 'validate', a, '--quiet']):6.1f} MiB  ratio {px/a1:.2f}x pgn-extract")
print(f"arbiter --jobs 2      {games/a2:10.0f} games/s  peak {peak([arbiter, 'validate', a, '--quiet', '--jobs', '2']):6.1f} MiB  ratio {px/a2:.2f}x pgn-extract")
print(f"arbiter --jobs 2, 4x file (plain) peak {peak([arbiter, 'validate', f'{work}/x4.pgn', '--quiet', '--jobs', '2']):6.1f} MiB")
print(f"arbiter --jobs 2, 4x file (zstd)  peak {peak([arbiter, 'validate', f'{work}/x4.pgn.zst', '--quiet', '--jobs', '2']):6.1f} MiB")
PY
