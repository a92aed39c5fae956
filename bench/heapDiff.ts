/**
 * Two V8 heap snapshots compared by what holds the memory: the shallow size and count of the objects of each
 * constructor (closures by function name, strings, arrays, code and the engine's own objects by kind), largest
 * growth first. What a cache or a pool keeps shows up as its entries' constructors growing between a snapshot
 * after the warm-up and one at the end.
 *
 * Usage: node --import tsx bench/heapDiff.ts <before.heapsnapshot> <after.heapsnapshot> [rows]
 */
import { readFileSync } from 'node:fs';

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

/** Shallow bytes and count per group: objects by constructor name, closures by function, the rest by node type. */
export function groupSnapshot(file: string): Map<string, Group> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const groups = new Map<string, Group>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = snap.strings[snap.nodes[i + nameAt]];
    const key = type === 'object' || type === 'native' ? name : type === 'closure' ? `closure ${name || '(anonymous)'}` : `(${type})`;
    const g = groups.get(key) ?? { count: 0, bytes: 0 };
    g.count += 1;
    g.bytes += snap.nodes[i + sizeAt];
    groups.set(key, g);
  }
  return groups;
}

const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;

/** A Markdown table of the `rows` groups that grew most between the two snapshots, with both totals. */
export function compareSnapshots(before: string, after: string, rows = 30): string {
  const a = groupSnapshot(before);
  const b = groupSnapshot(after);
  const total = (m: Map<string, Group>) => [...m.values()].reduce((s, g) => s + g.bytes, 0);
  const keys = new Set([...a.keys(), ...b.keys()]);
  const diff = [...keys]
    .map((k) => {
      const x = a.get(k) ?? { count: 0, bytes: 0 };
      const y = b.get(k) ?? { count: 0, bytes: 0 };
      return { k, x, y, dBytes: y.bytes - x.bytes, dCount: y.count - x.count };
    })
    .sort((p, q) => q.dBytes - p.dBytes);
  return [
    `Heap (shallow, all objects): ${kb(total(a))} before, ${kb(total(b))} after.`,
    '',
    '| constructor | count before | count after | bytes before | bytes after | growth |',
    '|---|--:|--:|--:|--:|--:|',
    ...diff.slice(0, rows).map((d) => `| ${d.k.replace(/\|/g, '\\|').slice(0, 60)} | ${d.x.count} | ${d.y.count} | ${kb(d.x.bytes)} | ${kb(d.y.bytes)} | ${kb(d.dBytes)} |`),
    '',
  ].join('\n');
}

if (require.main === module) {
  const [before, after, rows] = process.argv.slice(2);
  if (!before || !after) {
    console.error('usage: node --import tsx bench/heapDiff.ts <before.heapsnapshot> <after.heapsnapshot> [rows]');
    process.exit(2);
  }
  console.log(compareSnapshots(before, after, Number(rows) || 30));
}
