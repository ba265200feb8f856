"""Popeye's input and output for the orthodox subset: a FEN as `Pieces` (with the
options its castling rights and side to move need) and the solutions of its output, in
UCI, as sets comparable with `arbiter solve --json`. Used by bench/solve and
bench/popeye/answers (which makes corpus/stipulations/)."""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading

MOVE = re.compile(r'([a-h][1-8])[-*]([a-h][1-8])(?:=([QRBS]))?|(0-0-0|0-0)')


def find_popeye(path):
    """The Popeye binary: PATH if given, else `py` on the PATH; None if neither."""
    if path:
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which('py')


def mirror(fen):
    """The same position with the colours swapped and the board turned (rank 1 <-> 8): a
    black-to-move direct problem becomes Popeye's white-to-move one."""
    f = fen.split()
    rows = f[0].split('/')[::-1]
    board = '/'.join(''.join(c.swapcase() for c in r) for r in rows)
    side = 'w' if f[1] == 'b' else 'b'
    castle = '-' if f[2] == '-' else ''.join(sorted(c.swapcase() for c in f[2]))
    ep = '-' if f[3] == '-' else f[3][0] + str(9 - int(f[3][1]))
    return ' '.join([board, side, castle, ep] + f[4:])


def board_of(fen):
    b = {}
    for r, row in enumerate(fen.split()[0].split('/')):
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
                continue
            b['abcdefgh'[x] + str(8 - r)] = ch
            x += 1
    return b


def problem(fen, stip, extra_options=()):
    """Popeye's text for one problem: Pieces, Stipulation, Option (NoCastling for every
    king and rook on its initial square without the FEN's right). The side to move is the
    stipulation's (Popeye: White starts #, s#, r#, ser-#; Black h#): the caller mirrors."""
    b = board_of(fen)
    f = fen.split()
    rights = f[2] if len(f) > 2 else '-'
    if len(f) > 3 and f[3] != '-':
        raise ValueError('en passant field set: ' + fen)
    w, bl = [], []
    for sq, ch in sorted(b.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        p = 'S' if ch.upper() == 'N' else ch.upper()
        (w if ch.isupper() else bl).append(p + sq)
    no = []
    for king, rook, right, k, r in (('e1', 'h1', 'K', 'K', 'R'), ('e1', 'a1', 'Q', 'K', 'R'),
                                    ('e8', 'h8', 'k', 'k', 'r'), ('e8', 'a8', 'q', 'k', 'r')):
        if b.get(king) == k and b.get(rook) == r and right not in rights:
            no.append(rook)
    opts = ['NoBoard'] + list(extra_options)
    if no:
        opts.append('NoCastling ' + ' '.join(sorted(set(no))))
    return ('Pieces\nWhite ' + ' '.join(w) + '\nBlack ' + ' '.join(bl) + '\nStipulation ' + stip +
            '\nOption ' + ' '.join(opts) + '\n')


def batch(problems):
    return 'BeginProblem\n' + 'NextProblem\n'.join(problems) + 'EndProblem\n'


def run(py, problems, timeout=None):
    """Popeye on a batch; its output per problem (split at `solution finished.`) and the
    seconds it reports per problem."""
    out = subprocess.run([py], input=batch(problems), capture_output=True, text=True,
                         timeout=timeout).stdout
    parts = out.split('solution finished.')
    blocks = parts[:-1]
    times = [float(m) for m in re.findall(r'^\s*Time = ([0-9.]+) s', ''.join('\n' + p for p in parts[1:]),
                                          re.M)]
    if len(blocks) != len(problems):
        raise RuntimeError('Popeye answered %d of %d problems' % (len(blocks), len(problems)))
    return blocks, times


class Digest:
    """A set of solution texts in constant memory: how many, and the sum of their 64-bit
    hashes (order-free: Popeye and Arbiter list the lines in different orders). Two
    digests are equal when the sets are, but for a hash collision."""

    def __init__(self):
        self.count, self.total = 0, 0

    def add(self, text):
        self.count += 1
        h = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), 'little')
        self.total = (self.total + h) & 0xFFFFFFFFFFFFFFFF

    def __eq__(self, other):
        return (self.count, self.total) == (other.count, other.total)

    def __repr__(self):
        return '%d solutions (%016x)' % (self.count, self.total)


def run_digests(py, problems, keyed, flips, timeout=None, black_first=True):
    """Popeye on a batch, its output read as it comes (an h#4 of a queen ending prints
    millions of lines): per problem the Digest of its solutions (as solutions() reads
    them), and the seconds it reports per problem. Raises subprocess.TimeoutExpired past
    `timeout` seconds (Popeye is killed)."""
    proc = subprocess.Popen([py], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    timer = threading.Timer(timeout, proc.kill) if timeout else None
    if timer:
        timer.start()
    digests, times = [], []
    try:
        feeder = threading.Thread(target=lambda: (proc.stdin.write(batch(problems)), proc.stdin.close()))
        feeder.start()
        d = Digest()
        want_time = False
        for raw in proc.stdout:
            s = raw.strip()
            if 'solution finished.' in s:
                digests.append(d)
                d = Digest()
                want_time = True
            m = re.search(r'Time = ([0-9.]+) s', raw)
            if want_time and m:
                times.append(float(m.group(1)))
                want_time = False
            if len(digests) >= len(problems):
                continue
            flip = flips[len(digests)]
            sol = solution_of_line(s, keyed, flip, black_first)
            if sol is not None:
                d.add(sol)
        feeder.join()
        proc.wait()
    finally:
        if timer:
            timer.cancel()
    if proc.returncode and proc.returncode < 0:
        raise subprocess.TimeoutExpired([py], timeout)
    if len(digests) != len(problems):
        raise RuntimeError('Popeye answered %d of %d problems' % (len(digests), len(problems)))
    return digests, times


def uci(m, flip=False, white=True):
    if m.group(4):  # castling: the king's move
        r = '1' if white else '8'
        a, b = 'e' + r, ('c' if m.group(4) == '0-0-0' else 'g') + r
        if flip:
            a, b = a[0] + str(9 - int(a[1])), b[0] + str(9 - int(b[1]))
        return a + b
    a, b = m.group(1), m.group(2)
    if flip:
        a, b = a[0] + str(9 - int(a[1])), b[0] + str(9 - int(b[1]))
    return a + b + {'S': 'n'}.get(m.group(3), (m.group(3) or '').lower())


def solutions(block, keyed, flip=False, black_first=True):
    """The solutions of one problem's output: keys (`1.xx !`) for direct, self and reflex
    play, whole lines for help and series play (h#N: Black first, h#N.5: `1...` White
    first); `flip`: of a mirrored problem, in the original's squares."""
    sols = set()
    for line in block.splitlines():
        sol = solution_of_line(line.strip(), keyed, flip, black_first)
        if sol is not None:
            sols.add(sol)
    return sols


def solution_of_line(s, keyed, flip=False, black_first=True):
    """The solution one stripped line of Popeye's output states (see solutions()), or None."""
    if keyed:
        return uci(MOVE.search(s), flip) if s.startswith('1.') and s.endswith(' !') else None
    if not s.startswith('1.') or '!' in s or '?' in s:
        return None
    white = not black_first if not s.startswith('1...') else True
    line = []
    for m in MOVE.finditer(s):
        line.append(uci(m, flip, white))
        white = not white
    return ' '.join(line)


def version(py):
    return subprocess.run([py], input='EndProblem\n', capture_output=True,
                          text=True).stdout.splitlines()[0]


def keyed(stip):
    s = stip.lower()
    return not s.startswith('h') and not s.startswith('ser-')
