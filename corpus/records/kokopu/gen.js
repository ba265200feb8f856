// Derives corpus/records/kokopu/ from kokopu's own PGN test data and stated outcomes.
// Usage: node gen.js KOKOPU_DIR OUT_DIR
const fs = require('fs');
const path = require('path');
const [kdir, out] = process.argv.slice(2);
const res = path.join(kdir, 'test', 'resources');
const csv = fs.readFileSync(path.join(res, 'pgns.csv'), 'utf8').split(/\r?\n/).slice(1);
const { pgnRead } = require(path.join(kdir, 'dist', 'lib', 'index'));
fs.mkdirSync(out, { recursive: true });
const rows = ['# label\tgame\toutcome\tline\tvariant\tkokopu message'];
for (const l of csv) {
  const f = l.split('\t');
  const label = (f[0] || '').trim();
  if (!label || label.startsWith('#')) continue;
  const count = parseInt(f[1]);
  const dir = path.join(res, 'pgns', label);
  fs.copyFileSync(path.join(dir, 'database.pgn'), path.join(out, label + '.pgn'));
  const db = pgnRead(fs.readFileSync(path.join(dir, 'database.pgn'), 'utf8'));
  if (db.gameCount() !== count) throw new Error(label + ': count');
  for (let i = 0; i < count; ++i) {
    const err = path.join(dir, i + '.err');
    if (fs.existsSync(err)) {
      const e = fs.readFileSync(err, 'utf8').split(/\r?\n/);
      rows.push([label, i + 1, 'error', e[1].trim(), '-', e[2].trim()].join('\t'));
    } else {
      const g = db.game(i);  // the stated outcome: it reads (throws otherwise)
      rows.push([label, i + 1, 'valid', '-', g.variant(), '-'].join('\t'));
    }
  }
}
fs.writeFileSync(path.join(out, 'expected.tsv'), rows.join('\n') + '\n');
console.log(rows.length - 1, 'games');
