// Replays each game of a PGN file (as written by arbiter_selfplay: tags, one movetext
// block, blank lines between games) with chess.js, move by move; prints one JSON line per
// game: {"round": R, "valid": bool, "ply": first illegal ply or 0}.
const fs = require('fs');
const { Chess } = require(process.env.CHESSJS || 'chess.js');
const text = fs.readFileSync(process.argv[2], 'utf8');
const games = text.split(/\n\n(?=\[)/);
for (const g of games) {
  const round = (g.match(/\[Round "(\d+)"\]/) || [])[1];
  if (!round) continue;
  const body = g.replace(/^\[.*\]$/gm, '').replace(/\{[^}]*\}/g, ' ');
  const toks = body.split(/\s+/).filter(t => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
  const c = new Chess();
  let ply = 0, bad = 0;
  for (const t of toks) {
    ply++;
    try { c.move(t.replace(/^\d+\.+/, '')); } catch (e) { bad = ply; break; }
  }
  console.log(JSON.stringify({ round: Number(round), valid: bad === 0, ply: bad }));
}
