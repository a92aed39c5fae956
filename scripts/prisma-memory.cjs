/**
 * Two edits to what Prisma generates and ships, each for memory the service would otherwise hold for its whole life
 * (bench/results/notes.md, "Prisma's small query compiler, its text let go" and "Prisma's parameter graph in Maps").
 * Each edit checks that the text it replaces is there, and fails the install loudly when a Prisma upgrade changed it,
 * so an upgrade cannot silently bring the memory back. Run by scripts/generate.sh after `prisma generate`.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const fail = (message) => {
  console.error(`${message}; see scripts/prisma-memory.cjs`);
  process.exit(1);
};

// 1. The generated client loads its query compiler's wasm from a module holding it as base64 text, with import():
// the module stays loaded, so the text (its source and its export, 2.3 MB in the small build) stays in the heap.
// Read with a require of its own (whose module, unlike the client's, nothing keeps along with its children) and
// dropped from the module cache, it is freed once compiled.
const client = path.join(root, 'src/generated/prisma/internal/class.ts');
const clientText = fs.readFileSync(client, 'utf8');
const compilerImport = /const \{ wasm \} = await import\(("[^"]+wasm-base64\.js")\)/;
if (!compilerImport.test(clientText)) fail(`${client}: the query compiler is no longer loaded as expected`);
fs.writeFileSync(
  client,
  clientText.replace(
    compilerImport,
    'const source = require.resolve($1); const { wasm } = require("node:module").createRequire(source)(source); ' +
      'delete require.cache[source]',
  ),
);

// 2. The runtime decodes the query compiler's parameter graph into one object per node whose keys are string
// indices (57, 995, 1001, …). V8 stores such keys as a holey array as long as the largest index, so about 2,800
// nodes took 13 MB for a few edges each. In Maps the same graph takes about 1.5 MB; the two lookups read them
// with get(). Both builds of the runtime get the edit, whichever one a loader picks.
const runtimeEdits = [
  ['o={};for(let s=0;s<i;s++){let a=this.#i(),u=this.#a(),', 'o=new Map;for(let s=0;s<i;s++){let a=this.#i(),u=this.#a(),'],
  ['P!==void 0&&(S.enumNameIndex=P),o[a]=S}', 'P!==void 0&&(S.enumNameIndex=P),o.set(a,S)}'],
  ['o={};for(let s=0;s<i;s++){let a=this.#i(),u=this.#o(),m=this.#o(),P={};', 'o=new Map;for(let s=0;s<i;s++){let a=this.#i(),u=this.#o(),m=this.#o(),P={};'],
  ['m!==void 0&&(P.outputNodeId=m),o[a]=P}r.push({edges:o})', 'm!==void 0&&(P.outputNodeId=m),o.set(a,P)}r.push({edges:o})'],
  ['if(i===void 0)return;let o=n.edges[i];if(o)return{flags:', 'if(i===void 0)return;let o=n.edges.get(i);if(o)return{flags:'],
  ['if(i===void 0)return;let o=n.edges[i];if(o)return{argsNodeId:', 'if(i===void 0)return;let o=n.edges.get(i);if(o)return{argsNodeId:'],
];
for (const build of ['client.js', 'client.mjs']) {
  const file = path.join(path.dirname(require.resolve('@prisma/client/package.json', { paths: [root] })), 'runtime', build);
  let text = fs.readFileSync(file, 'utf8');
  for (const [before, after] of runtimeEdits) {
    if (text.includes(after)) continue; // edited by an earlier run
    const at = text.indexOf(before);
    if (at < 0 || text.indexOf(before, at + 1) >= 0) fail(`${file}: the parameter graph's decoder is no longer as expected`);
    text = text.replace(before, after);
  }
  fs.writeFileSync(file, text);
}
