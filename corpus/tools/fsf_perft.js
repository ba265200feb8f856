#!/usr/bin/env node
// Makes the perft suite of one Fairy-Stockfish variant, `corpus/fsf/NAME.perft`, from
// current Fairy-Stockfish (the npm build fairy-stockfish-nnue.wasm): the variant's start
// position and K positions reached by seeded random play, each FEN exactly as
// Fairy-Stockfish prints it (`d`), with `go perft N` counts for N = 1..D. A depth whose
// count would pass --max-nodes is not asked for (the next depth's count is estimated from
// the last one's branching factor).
//
//   node corpus/tools/fsf_perft.js NAME [--positions K] [--depth D] [--seed S]
//        [--min-plies A] [--max-plies B] [--max-nodes M] [--ini FILE] [--fsf DIR]
//
// DIR holds node_modules/fairy-stockfish-nnue.wasm (default: $ARBITER_FSF_WASM_DIR, else
// build/ of this checkout, where cli/install-deps.sh puts it). --ini loads a variants.ini
// first (VariantPath), for a variant defined there. The suite goes to standard output.
"use strict";
delete globalThis.fetch;  // node 20: the loader would fetch its .wasm by path
const fs = require("fs");
const path = require("path");

function usage(msg) {
  if (msg) process.stderr.write(`fsf_perft.js: ${msg}\n`);
  process.stderr.write(
      "usage: node corpus/tools/fsf_perft.js NAME [--positions K] [--depth D] [--seed S]\n" +
      "       [--min-plies A] [--max-plies B] [--max-nodes M] [--ini FILE] [--fsf DIR]\n");
  process.exit(2);
}

const args = process.argv.slice(2);
const opt = {positions: 6, depth: 3, seed: 1, minPlies: 4, maxPlies: 40, maxNodes: 2000000};
let name = null, ini = null;
let dir = process.env.ARBITER_FSF_WASM_DIR || path.join(__dirname, "..", "..", "build");
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const num = () => {
    const v = args[++i];
    if (v === undefined || !/^[0-9]+$/.test(v)) usage(`${a} takes a whole number`);
    return Number(v);
  };
  if (a === "--positions") opt.positions = num();
  else if (a === "--depth") opt.depth = num();
  else if (a === "--seed") opt.seed = num();
  else if (a === "--min-plies") opt.minPlies = num();
  else if (a === "--max-plies") opt.maxPlies = num();
  else if (a === "--max-nodes") opt.maxNodes = num();
  else if (a === "--ini") ini = args[++i];
  else if (a === "--fsf") dir = args[++i];
  else if (a.startsWith("-")) usage(`unknown option ${a}`);
  else if (name === null) name = a;
  else usage(`one variant name, not ${a}`);
}
if (!name) usage("no variant name");
if (opt.depth < 1 || opt.depth > 8) usage("--depth is 1..8");
if (opt.maxPlies < opt.minPlies) usage("--max-plies is below --min-plies");

let entry;
try {
  entry = require.resolve("fairy-stockfish-nnue.wasm/stockfish.js", {paths: [path.resolve(dir)]});
} catch (e) {
  process.stderr.write(`fsf_perft.js: no fairy-stockfish-nnue.wasm under ${dir} ` +
                       `(npm install --prefix ${dir} fairy-stockfish-nnue.wasm@1.1.12)\n`);
  process.exit(2);
}
const version = (() => {
  try {
    const pkg = path.join(path.dirname(entry), "package.json");
    return JSON.parse(fs.readFileSync(pkg, "utf8")).version;
  } catch (e) {
    return "?";
  }
})();

// mulberry32: a small seeded generator, so that a suite is remade identically.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

(async () => {
  const sf = await require(entry)();
  let waiting = null;  // {pred, lines, resolve}
  sf.addMessageListener((line) => {
    if (!waiting) return;
    waiting.lines.push(line);
    if (waiting.pred(line)) {
      const w = waiting;
      waiting = null;
      w.resolve(w.lines);
    }
  });
  const ask = (cmd, pred) => new Promise((resolve) => {
    waiting = {pred, lines: [], resolve};
    sf.postMessage(cmd);
  });

  const uci = await ask("uci", (l) => l === "uciok");
  const variants = (uci.find((l) => l.includes("name UCI_Variant")) || "").split(" var ").slice(1);
  if (ini) {
    sf.FS.writeFile("/arbiter-variants.ini", fs.readFileSync(ini));
    sf.postMessage("setoption name VariantPath value /arbiter-variants.ini");
    const again = await ask("uci", (l) => l === "uciok");
    variants.push(...(again.find((l) => l.includes("name UCI_Variant")) || "").split(" var ").slice(1));
  }
  if (!variants.map((v) => v.trim()).includes(name)) {
    process.stderr.write(`fsf_perft.js: Fairy-Stockfish ${version} has no variant ${name}\n`);
    process.exit(2);
  }
  sf.postMessage(`setoption name UCI_Variant value ${name}`);
  await ask("isready", (l) => l === "readyok");

  const fen = async (position) => {
    sf.postMessage(position);
    const lines = await ask("d", (l) => l.startsWith("Fen: "));
    return lines[lines.length - 1].slice(5).trim();
  };
  // `go perft N`: the per-move lines and the total.
  const perft = async (position, depth) => {
    sf.postMessage(position);
    const lines = await ask(`go perft ${depth}`, (l) => l.startsWith("Nodes searched"));
    const moves = lines.filter((l) => /^\S+: \d+$/.test(l)).map((l) => l.split(":")[0]);
    return {nodes: Number(lines[lines.length - 1].split(":")[1]), moves};
  };

  const start = await fen("position startpos");
  const random = rng(opt.seed);
  const cases = [{id: `${name}-start`, fen: start}];
  for (let k = 0, tries = 0; k < opt.positions && tries < 20 * (opt.positions + 1); tries++) {
    const plies = opt.minPlies + Math.floor(random() * (opt.maxPlies - opt.minPlies + 1));
    const played = [];
    for (let p = 0; p < plies; p++) {
      const here = `position fen ${start}${played.length ? " moves " + played.join(" ") : ""}`;
      const {moves} = await perft(here, 1);
      if (moves.length === 0) break;
      played.push(moves[Math.floor(random() * moves.length)]);
    }
    const here = `position fen ${start}${played.length ? " moves " + played.join(" ") : ""}`;
    const {moves} = await perft(here, 1);
    if (moves.length === 0) continue;  // an ended game: play again
    const f = await fen(here);
    if (cases.some((c) => c.fen === f)) continue;
    cases.push({id: `${name}-r${k + 1}`, fen: f, plies: played.length});
    k++;
  }

  const out = [];
  out.push(`# ${name}: perft from current Fairy-Stockfish (npm fairy-stockfish-nnue.wasm ${version}),`);
  out.push(`# UCI_Variant ${name}, \`go perft N\`; positions as its \`d\` prints them.`);
  const shown = [];  // the command, without the machine's own --fsf folder
  for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === "--fsf") i++;
    else shown.push(process.argv[i]);
  }
  out.push(`# Made by: node corpus/tools/fsf_perft.js ${shown.join(" ")}`);
  out.push(`# (the start, then ${cases.length - 1} positions after ${opt.minPlies}..${opt.maxPlies} random plies, seed ${opt.seed};`);
  out.push(`# a depth is left out when its count would pass ${opt.maxNodes} nodes)`);
  for (const c of cases) {
    out.push("");
    out.push(`id ${c.id}`);
    out.push(`epd ${c.fen}`);
    let last = 0, prev = 0;
    for (let d = 1; d <= opt.depth; d++) {
      if (d > 1 && last > 0) {
        const branching = prev > 0 ? last / prev : last;
        if (last * Math.max(branching, 1) > opt.maxNodes) break;
      }
      const {nodes} = await perft(`position fen ${c.fen}`, d);
      out.push(`perft ${d} ${nodes}`);
      prev = last;
      last = nodes;
      if (nodes === 0) break;
    }
  }
  process.stdout.write(out.join("\n") + "\n");
  sf.postMessage("quit");
  process.exit(0);
})().catch((e) => {
  process.stderr.write(`fsf_perft.js: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
