#!/usr/bin/env python3
"""Issue 26's metamorphic properties over the catalogue: `arbiter fuzz --rules FILE
--properties` on every rulesets/*.rules and rulesets/fsf/*.rules, one ruleset at a time.

    python3 corpus/tools/property_sweep.py [--seconds S] [--seed K] [--out DIR]
        [--markdown FILE] [NAME...]

NAME is a ruleset's file name without `.rules` (`chess`, `fsf/amazons`); default: every
ruleset. Prints one line per ruleset (positions, violations, wall time, the properties
checked and those the plan skipped) with the plan's reason for each skip below it, then a
summary. OUT/NAME.json keeps fuzz's whole answer (default: a temporary folder, named at the
end). --markdown writes the table with the command that made it. Exit status: 0 no
violation, 1 a violation, 2 a ruleset fuzz could not run (its message printed).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rulesets(names):
    if names:
        return names
    out = []
    for sub in ("", "fsf/"):
        folder = os.path.join(ROOT, "rulesets", sub)
        out += sorted(sub + f[:-6] for f in os.listdir(folder) if f.endswith(".rules"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--markdown")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    arbiter = os.environ.get("ARBITER", os.path.join(ROOT, "build/cli/arbiter"))
    if not os.access(arbiter, os.X_OK):
        print(f"property_sweep.py: no {arbiter} (build it, or set ARBITER)", file=sys.stderr)
        return 2
    out = a.out or tempfile.mkdtemp(prefix="property-sweep-")
    os.makedirs(out, exist_ok=True)
    rows, violations, unusable, positions, skips = [], 0, 0, 0, 0
    reasons = {}  # (property, the plan's reason) -> the rulesets it was given for
    for name in rulesets(a.names):
        path = os.path.join(ROOT, "rulesets", name + ".rules")
        cmd = [arbiter, "fuzz", "--rules", path, "--properties", "--seconds", str(a.seconds),
               "--seed", str(a.seed), "--json"]
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=out)
        wall = time.monotonic() - t0
        stem = name.replace("/", "-")
        with open(os.path.join(out, stem + ".json"), "w") as f:
            f.write(p.stdout)
        try:
            j = json.loads(p.stdout)
        except ValueError:
            j = None
        if p.returncode not in (0, 1) or j is None:
            unusable += 1
            msg = (p.stderr.strip().splitlines() or ["no output"])[0]
            print(f"{name:24} ERROR (exit {p.returncode}) {msg}")
            rows.append(f"| {name} | | | | | **error** (exit {p.returncode}): `{msg}` |")
            continue
        plan = j.get("plan", {})
        checked = plan.get("checked", [])
        skipped = plan.get("skipped", [])
        v = j.get("violation")
        positions += j.get("positions", 0)
        skips += len(skipped)
        if v:
            violations += 1
            result = f"VIOLATION {v['property']} at {v['position']}"
            if v.get("played"):
                result += f" after {v['played']}"
            result += f": expected {v['expected']}, found {v['found']}"
            if v.get("diff"):
                result += f" ({v['diff']})"
        else:
            result = "ok"
        print(f"{name:24} {j.get('positions', 0):7} positions {1 if v else 0} violations "
              f"{wall:6.1f} s  checked: {' '.join(checked)}"
              + (f"; skipped: {' '.join(s['property'] for s in skipped)}" if skipped else "")
              + ("" if not v else f"\n    {result}"))
        for s in skipped:
            print(f"    skipped {s['property']}: {s['reason']}")
        for s in skipped:
            reasons.setdefault((s["property"], s["reason"]), []).append(name)
        md_result = "no violation" if not v else f"**{result}**"
        rows.append(f"| {name} | {j.get('positions', 0)} | {' '.join(checked)} | "
                    f"{' '.join(s['property'] for s in skipped)} | {wall:.1f} | {md_result.replace('|', '/')} |")
    n = len(rows)
    print(f"{n} rulesets: {n - violations - unusable} without violation, {violations} with one, "
          f"{unusable} not run; {positions} positions; {skips} properties skipped by the plans; "
          f"answers in {out}")
    if a.markdown:
        with open(a.markdown + ".tmp", "w") as f:
            f.write(f"`python3 corpus/tools/property_sweep.py --seconds {a.seconds:g} --seed {a.seed}`\n\n")
            f.write("| ruleset | positions | checked | skipped | wall s | result |\n")
            f.write("|---|---|---|---|---|---|\n")
            f.write("\n".join(rows) + "\n\n")
            f.write("Each property skipped, with the plan's reason and the rulesets it was given for:\n\n")
            for (prop, why), names in sorted(reasons.items(), key=lambda x: (x[0][0], -len(x[1]), x[0][1])):
                f.write(f"- {prop}: {why} ({len(names)}: {', '.join(names)})\n")
        os.replace(a.markdown + ".tmp", a.markdown)
    return 2 if unusable else 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
