#!/usr/bin/env bash
# Validates the same standard-chess PGN file with `arbiter validate` (1 and 2 jobs) and with
# Debian's pgn-extract in one run, alternating (ROUNDS rounds, default 5); prints games per
# second and per second per core, the ratios (best round and every round), the load average,
# peak memory (VmHWM), and the peak memory of arbiter on a file four times as large (flat).
#   bench/records/bench.sh [GAMES]    (default 20000 self-play games, generated, not committed)
#   PGN=FILE ROUNDS=R bench/records/bench.sh   (that file's games instead)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
games=${1:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pgnx=$(command -v pgn-extract || echo /usr/games/pgn-extract)
if [ -n "${PGN:-}" ]; then
  # An existing file of standard-chess games (PGN=FILE), e.g. when generating is too slow.
  cp "$PGN" "$work/a.pgn"
  games=$(grep -c '^\[Event ' "$work/a.pgn")
else
  "$root/build/checker/records/arbiter_selfplay" --variant chess --games "$games" --seed 99 --max-plies 200 > "$work/a.pgn"
fi
cat "$work/a.pgn" "$work/a.pgn" "$work/a.pgn" "$work/a.pgn" > "$work/x4.pgn"
zstd -q -3 "$work/x4.pgn" -o "$work/x4.pgn.zst"
python3 - "$root/build/cli/arbiter" "$pgnx" "$work" "$games" <<'PY'
import os, resource, subprocess, sys, time
arbiter, pgnx, work, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def once(cmd):
    t = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.monotonic() - t
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
rounds = int(os.environ.get("ROUNDS", "5"))
tools = {
    "pgn-extract": [pgnx, "-s", a, "-o", "/dev/null"],
    "arbiter --jobs 1": [arbiter, "validate", a, "--quiet", "--jobs", "1"],
    "arbiter --jobs 2": [arbiter, "validate", a, "--quiet", "--jobs", "2"],
}
cores = {"pgn-extract": 1, "arbiter --jobs 1": 1, "arbiter --jobs 2": 2}
# One run, alternating: each round times every tool once, so load that comes and goes
# touches all of them alike; each tool's best round counts, and the ratios of every round
# are printed too.
load0 = os.getloadavg()
times = {k: [] for k in tools}
for r in range(rounds):
    for k, cmd in tools.items():
        times[k].append(once(cmd))
load1 = os.getloadavg()
best = {k: min(v) for k, v in times.items()}
px = best["pgn-extract"]
print(f"file: {games} games; {rounds} rounds alternating pgn-extract, 1 job, 2 jobs; best round per tool")
print(f"load average before {load0[0]:.2f}, after {load1[0]:.2f} ({os.cpu_count()} cores)")
for k in tools:
    gps = games / best[k]
    ratio = "" if k == "pgn-extract" else f"  ratio {px / best[k]:.2f}x pgn-extract"
    print(f"{k:18s} {gps:10.0f} games/s  {gps / cores[k]:10.0f} games/s/core{ratio}")
for k in ("arbiter --jobs 1", "arbiter --jobs 2"):
    per = " ".join(f"{p / t:.2f}" for p, t in zip(times["pgn-extract"], times[k]))
    print(f"per round, {k} vs pgn-extract: {per}")
print(f"peak memory: pgn-extract {peak(tools['pgn-extract']):.1f} MiB, 1 job {peak(tools['arbiter --jobs 1']):.1f} MiB, "
      f"2 jobs {peak(tools['arbiter --jobs 2']):.1f} MiB")
print(f"arbiter --jobs 2, 4x file (plain) peak {peak([arbiter, 'validate', f'{work}/x4.pgn', '--quiet', '--jobs', '2']):6.1f} MiB")
print(f"arbiter --jobs 2, 4x file (zstd)  peak {peak([arbiter, 'validate', f'{work}/x4.pgn.zst', '--quiet', '--jobs', '2']):6.1f} MiB")
PY
