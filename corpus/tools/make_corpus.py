#!/usr/bin/env python3
"""Makes the test data of corpus/perft/ and corpus/mates/ (issue 25).

Positions come from seeded random play; every count and mate length comes from Debian's
Stockfish 15.1 (`go perft N`, `go depth D` with `score mate N`), and every mate is also
proved by our own solver (`arbiter solve --goal mate --depth N`: exactly N, none shorter).
The engines are needed only to regenerate; the tests read the files.

    python3 corpus/tools/make_corpus.py [--stockfish /usr/games/stockfish]
        [--arbiter build/cli/arbiter] [--seed 25] [random|chess960|tricky|mates ...]

The same seed and engine versions make the same files byte for byte.
"""

import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class Uci:
    """One UCI engine process, driven line by line."""

    def __init__(self, path, options=()):
        self.path = path
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        lines = self.until("uciok")
        self.name = next((l[len("id name "):] for l in lines if l.startswith("id name ")), path)
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.path} ended while waiting for {prefix!r}")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def position(self, fen, moves=()):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))

    def perft(self, fen, depth, moves=()):
        """(total, [moves]) of `go perft depth` (the moves are the divide's root moves)."""
        self.position(fen, moves)
        self.send(f"go perft {depth}")
        lines = self.until("Nodes searched")
        root = [l.split(":")[0] for l in lines if ": " in l and not l.startswith(("Nodes", "info"))]
        return int(lines[-1].split(":")[1]), root

    def board(self, fen, moves=()):
        """(fen, number of checkers) after the moves, from `d`."""
        self.position(fen, moves)
        self.send("d")
        lines = self.until("Checkers")
        out = next(l[len("Fen: "):] for l in lines if l.startswith("Fen: "))
        return out, len(lines[-1].split()) - 1

    def mate(self, fen, depth):
        """N when `go depth` ends with `score mate N` (N > 0: the side to move mates), else None."""
        self.position(fen)
        self.send(f"go depth {depth}")
        score = None
        for l in self.until("bestmove"):
            w = l.split()
            if w[0] == "info" and "score" in w and "lowerbound" not in w and "upperbound" not in w:
                i = w.index("score")
                score = (w[i + 1], int(w[i + 2]))
        return score[1] if score and score[0] == "mate" else None

    def close(self):
        self.send("quit")
        self.p.wait()


def squares(fen):
    """{square: piece letter} of a FEN board."""
    out = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return out


def features(fen, moves, checkers, chess960):
    """The move-generation features a position exercises (for the tricky suite)."""
    board = squares(fen)
    white = fen.split()[1] == "w"
    got = set()
    for m in moves:
        a, b = m[:2], m[2:4]
        piece = board.get(a, "")
        if len(m) == 5:
            got.add("promotion-capture" if b in board else "promotion")
        elif piece in "Pp" and a[0] != b[0] and b not in board:
            got.add("en-passant")
        elif piece in "Kk":
            target = board.get(b, "")
            if (chess960 and target == ("R" if white else "r")) or (not chess960 and abs(ord(a[0]) - ord(b[0])) == 2):
                got.add("castling-960" if chess960 else "castling")
    if fen.split()[3] != "-" and "en-passant" not in got:
        got.add("en-passant-illegal")
    if checkers == 2:
        got.add("double-check")
    elif checkers == 1:
        got.add("check")
    if not moves:
        got.add("checkmate" if checkers else "stalemate")
    return got


def random_game(uci, rng, start, plies):
    """The FEN after up to `plies` random legal moves from `start` (ending early at a mate or
    stalemate), with its legal moves and number of checkers."""
    moves = []
    root = uci.perft(start, 1)[1]
    for _ in range(plies):
        if not root:
            break
        moves.append(rng.choice(sorted(root)))
        root = uci.perft(start, 1, moves)[1]
    fen, checkers = uci.board(start, moves)
    return fen, sorted(root), checkers


def counts(uci, fen, max_depth, budget, keep_over=True):
    """[(depth, nodes)]: depth 1 up, stopping after the first count over `budget` (kept
    when keep_over, so that a test's budget has a depth to skip)."""
    out = []
    for depth in range(1, max_depth + 1):
        nodes = uci.perft(fen, depth)[0]
        if nodes > budget and not keep_over and out:
            break
        out.append((depth, nodes))
        if nodes == 0 or nodes > budget:
            break
    return out


def chess960_rank(n):
    """Back rank of Chess960 start number n (0..959), by the standard numbering."""
    rank = [None] * 8
    n, b = divmod(n, 4)
    rank[2 * b + 1] = "B"
    n, b = divmod(n, 4)
    rank[2 * b] = "B"
    n, q = divmod(n, 6)
    free = [i for i in range(8) if rank[i] is None]
    rank[free[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    free = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[free[k]] = "N"
    free = [i for i in range(8) if rank[i] is None]
    for i, p in zip(free, "RKR"):
        rank[i] = p
    return "".join(rank)


def chess960_start(n):
    r = chess960_rank(n)
    rooks = [i for i, p in enumerate(r) if p == "R"]
    rights = "".join("ABCDEFGH"[i] for i in reversed(rooks))
    return f"{r.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{r} w {rights}{rights.lower()} - 0 1"


def write_suite(path, header, cases):
    with open(path, "w") as out:
        for line in header:
            out.write(f"# {line}\n" if line else "#\n")
        for ident, fen, depths in cases:
            out.write(f"\nid {ident}\nepd {fen}\n")
            for d, n in depths:
                out.write(f"perft {d} {n}\n")
    print(f"{path}: {len(cases)} positions", file=sys.stderr)


def make_random(args, sf):
    rng = random.Random(args.seed * 1000 + 1)
    cases = []
    for i in range(args.random_count):
        fen, _, _ = random_game(sf, rng, START, rng.randint(1, 120))
        cases.append((f"random-{i + 1}", fen, counts(sf, fen, 6, 200000)))
    write_suite(os.path.join(ROOT, "corpus/perft/random.perft"), [
        f"Random-play chess positions: python3 corpus/tools/make_corpus.py --seed {args.seed} random",
        f"(1..120 uniformly random legal moves from the start, {args.random_count} positions);",
        f"counts by {sf.name} ({sf.path}) `go perft N`, depth 1 up to the first count over 200000.",
    ], cases)


def make_chess960(args, sf960):
    rng = random.Random(args.seed * 1000 + 2)
    cases = []
    for n in range(960):
        start = chess960_start(n)
        fen, _, _ = random_game(sf960, rng, start, rng.randint(0, 12))
        cases.append((f"c960-{n}", fen, counts(sf960, fen, 4, 10 ** 9)))
    write_suite(os.path.join(ROOT, "corpus/perft/chess960.perft"), [
        f"Chess960 positions: python3 corpus/tools/make_corpus.py --seed {args.seed} chess960",
        "(each of the 960 starts, by the standard numbering, then 0..12 random legal moves);",
        f"counts by {sf960.name} ({sf960.path}) with UCI_Chess960 true, `go perft N` for N = 1..4.",
        "Castling rights in Shredder-FEN (rook files), as Stockfish writes them.",
    ], cases)


# The tricky suite: positions chosen from random play for the feature each exercises, a few
# per feature; depth 1 up to the first count over 100000.
TRICKY = [("en-passant", 3), ("en-passant-illegal", 2), ("castling", 3), ("castling-960", 3),
          ("promotion", 2), ("promotion-capture", 2), ("check", 1), ("double-check", 2),
          ("checkmate", 1), ("stalemate", 1)]


def make_tricky(args, sf, sf960):
    rng = random.Random(args.seed * 1000 + 3)
    want = dict(TRICKY)
    found = {k: [] for k, _ in TRICKY}
    tries = 0
    while any(len(found[k]) < n for k, n in TRICKY) and tries < 6000:
        tries += 1
        chess960 = tries % 3 == 0
        uci = sf960 if chess960 else sf
        start = chess960_start(rng.randrange(960)) if chess960 else START
        fen, moves, checkers = random_game(uci, rng, start, rng.randint(2, 90 if not chess960 else 30))
        for f in sorted(features(fen, moves, checkers, chess960)):
            if len(found[f]) < want[f] and all(fen != x[1] for x in found[f]):
                found[f].append((chess960, fen))
                break
    cases = []
    for f, _ in TRICKY:
        for i, (chess960, fen) in enumerate(found[f]):
            cases.append((f"{f}-{i + 1}", fen, counts(sf960 if chess960 else sf, fen, 6, 100000, keep_over=False)))
    missing = [f for f, n in TRICKY if len(found[f]) < n]
    write_suite(os.path.join(ROOT, "corpus/perft/tricky.perft"), [
        f"Positions picked from random play for the rule each exercises (the id names it):",
        f"python3 corpus/tools/make_corpus.py --seed {args.seed} tricky ({tries} random games;"
        f" short of: {', '.join(missing) or 'nothing'}).",
        "en-passant-illegal: the FEN names an en-passant square but no capture there is legal.",
        f"Counts by {sf.name} ({sf.path}) `go perft N` (UCI_Chess960 true for castling-960),",
        "every depth from 1 whose count is at most 100000.",
    ], cases)


def make_mates(args, sf):
    rng = random.Random(args.seed * 1000 + 4)
    per = args.mates_per_length
    found = {n: [] for n in range(1, 6)}
    games = screened = 0
    while any(len(v) < per for v in found.values()) and games < args.mate_tries:
        games += 1
        # One random game; every position from ply 20 on is screened by a shallow search,
        # and the first mate of a length still wanted is kept (one per game).
        moves = []
        root = sf.perft(START, 1)[1]
        for ply in range(rng.randint(30, 130)):
            if not root:
                break
            moves.append(rng.choice(sorted(root)))
            root = sf.perft(START, 1, moves)[1]
            if ply < 20 or not root:
                continue
            fen = sf.board(START, moves)[0]
            screened += 1
            # Long mates are the rarest, and a shallow search misses them: once a single
            # length is still short, screen deeper.
            short = [k for k, v in found.items() if len(v) < per]
            n = sf.mate(fen, args.screen_depth + (3 if len(short) == 1 else 0))
            if n is None or n < 1 or n > 5 or len(found[n]) >= per:
                continue
            n = sf.mate(fen, args.mate_depth)
            if n is None or n < 1 or n > 5 or len(found[n]) >= per:
                continue
            # Our solver must prove exactly n: a mate in n and none shorter.
            cmd = [args.arbiter, "solve", "--variant", "chess", "--position", fen, "--goal", "mate", "--depth",
                   str(n), "--max-nodes", str(args.solve_nodes), "--json"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"solver: exit {r.returncode} on {fen} (stockfish: mate {n}): {r.stderr.strip()}",
                      file=sys.stderr)
                continue
            j = json.loads(r.stdout.strip().splitlines()[-1])
            if j.get("moves") != n or j.get("proved_none_below") != n - 1:
                print(f"disagreement on {fen}: stockfish mate {n}, solver {j}", file=sys.stderr)
                continue
            found[n].append(fen)
            print(f"mate {n}: {len(found[n])}/{per} after {games} games", file=sys.stderr)
            break
    path = os.path.join(ROOT, "corpus/mates/mates.epd")
    with open(path, "w") as out:
        out.write(f"# Mates in 1..5 found in random play: python3 corpus/tools/make_corpus.py --seed {args.seed} mates\n")
        out.write(f"# ({games} random games from the start, {screened} positions from ply 20 on screened by\n")
        out.write(f"# `go depth {args.screen_depth}`, {args.screen_depth + 3} once only one length was short; one mate kept a game).\n")
        out.write(f"# {sf.name} ({sf.path}) `go depth {args.mate_depth}`\n")
        out.write(f"# reported `score mate N`, and `arbiter solve --goal mate --depth N` proved a mate in\n")
        out.write(f"# exactly N (none shorter) within {args.solve_nodes} nodes.\n")
        out.write("# Format: FEN bm #N; (the side to move mates in N), by N then in the order found.\n")
        for n in range(1, 6):
            for fen in found[n]:
                out.write(f"{fen} bm #{n};\n")
    print(f"{path}: " + ", ".join(f"#{n} {len(v)}" for n, v in found.items()), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--arbiter", default=os.path.join(ROOT, "build/cli/arbiter"))
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--random-count", type=int, default=2000)
    ap.add_argument("--mates-per-length", type=int, default=40)
    ap.add_argument("--mate-depth", type=int, default=10)
    ap.add_argument("--mate-tries", type=int, default=8000)
    ap.add_argument("--screen-depth", type=int, default=5)
    ap.add_argument("--solve-nodes", type=int, default=500000)
    ap.add_argument("what", nargs="*", default=["random", "chess960", "tricky", "mates"])
    args = ap.parse_args()
    os.makedirs(os.path.join(ROOT, "corpus/perft"), exist_ok=True)
    os.makedirs(os.path.join(ROOT, "corpus/mates"), exist_ok=True)
    # One thread and a fixed hash: the same search, and so the same mate scores, every run.
    opts = [("Threads", 1), ("Hash", 16)]
    sf = Uci(args.stockfish, opts)
    sf960 = Uci(args.stockfish, opts + [("UCI_Chess960", "true")])
    for what in args.what:
        if what == "random":
            make_random(args, sf)
        elif what == "chess960":
            make_chess960(args, sf960)
        elif what == "tricky":
            make_tricky(args, sf, sf960)
        elif what == "mates":
            make_mates(args, sf)
        else:
            sys.exit(f"unknown part {what!r} (random, chess960, tricky, mates)")
    sf.close()
    sf960.close()


if __name__ == "__main__":
    main()
