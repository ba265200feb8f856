// Derives corpus/records/real/accepted.tsv: for every game of every file here, whether
// kokopu and pgn-extract (two independent PGN readers) accept it, and kokopu's final board.
// Usage: node gen.js KOKOPU_DIR PGN_EXTRACT DIR   (run by gen.sh)
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const [kdir, pgnx, dir] = process.argv.slice(2);
const { pgnRead } = require(path.join(kdir, 'dist', 'lib', 'index'));
const files = fs.readdirSync(dir, { recursive: true })
  .filter((f) => f.endsWith('.pgn')).sort();
const rows = ['# file\tgame\tkokopu\tpgn-extract\tboth\tfen-fullmove-zero\tkokopu final position'];
// The FEN of a position without en passant and clocks: readers write them differently.
const board = (fen) => fen.split(' ').slice(0, 3).join(' ');
for (const f of files) {
  const text = fs.readFileSync(path.join(dir, f), 'utf8');
  // pgn-extract writes the games it accepts, in file order: main line only, one line of
  // movetext each, the final FEN as a comment (-F).
  const out = execFileSync(pgnx, ['-s', '--nocomments', '--novars', '--nonags', '--noresults', '-F',
    '-w', '1000000', path.join(dir, f)], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 }).toString();
  const px = [];
  let inTags = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('[')) {
      if (!inTags) px.push({ plies: 0, fen: undefined });
      inTags = true;
      continue;
    }
    inTags = false;
    if (!px.length || line.trim() === '') continue;
    const g = px[px.length - 1];
    const m = line.match(/\{ "([^"]*)" \}/);
    if (m) g.fen = board(m[1]);
    for (const t of line.replace(/\{[^}]*\}/g, ' ').split(/\s+/))
      if (t && !/^\d+\.+$/.test(t) && !/^(\*|1-0|0-1|1\/2-1\/2)$/.test(t)) ++g.plies;
  }
  const db = pgnRead(text);
  let j = 0;  // the next pgn-extract game to match
  for (let i = 0; i < db.gameCount(); ++i) {
    let k = 'ok', fen = '-', plies = -1;
    try {
      const g = db.game(i);
      const nodes = g.mainVariation().nodes();
      plies = nodes.length;
      const pos = nodes.length ? nodes[nodes.length - 1].position() : g.initialPosition();
      fen = board(pos.fen());
    } catch (e) {
      k = 'error: ' + String(e.message || e).replace(/\s+/g, ' ').slice(0, 120);
    }
    let p = '-';
    if (k === 'ok') {
      // Greedy match in file order: pgn-extract drops the games it refuses.
      for (let s = j; s < px.length && s < j + 50; ++s) {
        const q = px[s];
        if (q.plies === plies && (q.fen === undefined || q.fen === fen)) { p = 'ok'; j = s + 1; break; }
      }
    }
    rows.push([f, i + 1, k === 'ok' ? 'ok' : k, p, k === 'ok' && p === 'ok' ? 'yes' : 'no', fen].join('\t'));
  }
}
fs.writeFileSync(path.join(dir, 'accepted.tsv'), rows.join('\n') + '\n');
console.log(rows.length - 1, 'games');
