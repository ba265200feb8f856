// UCI on stdin/stdout through the npm build of current Fairy-Stockfish
// (fairy-stockfish-nnue.wasm), for `--fsf-engine wasm:DIR`.
//
//   node uci-wasm.js DIR     DIR: a folder with node_modules/fairy-stockfish-nnue.wasm
//                            (`npm install --prefix DIR fairy-stockfish-nnue.wasm`)
//
// The engine runs in the wasm module's own file system, so a `setoption name VariantPath
// value FILE` is served by copying FILE from the host into it first. Node 20 has a global
// fetch, which the loader would use to fetch its .wasm by path: it is removed first.
"use strict";
delete globalThis.fetch;
const fs = require("fs");
const path = require("path");
const readline = require("readline");

const dir = process.argv[2] || ".";
let entry;
try {
  entry = require.resolve("fairy-stockfish-nnue.wasm/stockfish.js", { paths: [path.resolve(dir)] });
} catch (e) {
  process.stderr.write(`uci-wasm.js: no fairy-stockfish-nnue.wasm under ${dir} ` +
                       `(npm install --prefix ${dir} fairy-stockfish-nnue.wasm)\n`);
  process.exit(3);
}

(async () => {
  const sf = await require(entry)();
  sf.addMessageListener((line) => process.stdout.write(line + "\n"));
  const rl = readline.createInterface({ input: process.stdin });
  let files = 0;
  for await (const cmd of rl) {
    if (cmd === "quit") break;
    const m = /^setoption name VariantPath value (.+)$/.exec(cmd);
    if (m) {
      let text;
      try {
        text = fs.readFileSync(m[1]);
      } catch (e) {
        process.stdout.write(`info string uci-wasm.js: cannot read ${m[1]}: ${e.message}\n`);
        continue;
      }
      const inner = `/variants-${++files}.ini`;
      sf.FS.writeFile(inner, text);
      sf.postMessage(`setoption name VariantPath value ${inner}`);
      continue;
    }
    sf.postMessage(cmd);
  }
  sf.postMessage("quit");
  // The module keeps worker threads alive; the conversation is over.
  setTimeout(() => process.exit(0), 50);
})();
