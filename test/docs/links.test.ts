import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/serverProcess';

/** Links between the README and the guides: a moved section or a renamed file must not leave a dead link. */

const DOCUMENTS = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The anchors GitHub gives a document's headings. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^ *```[\s\S]*?^ *```/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

describe('links in the README and the guides', () => {
  it.each(DOCUMENTS)('%s: every relative link reaches a file, and every #anchor a heading of it', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8').replace(/^ *```[\s\S]*?^ *```/gm, '');
    const dead: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [rel, anchor] = target.split('#');
      const resolved = rel ? path.resolve(path.dirname(path.join(root, file)), rel) : path.join(root, file);
      if (!existsSync(resolved)) dead.push(`${target}: no such file`);
      else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) dead.push(`${target}: no such heading`);
    }
    expect(dead).toEqual([]);
  });
});
