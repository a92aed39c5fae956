/**
 * Reading the storefront in a language, on PostgreSQL, into bench/results/locales.md: each request with a locale
 * against the same request without, interleaved in the same run (so the machine's load hits both alike).
 *
 *   10,000 products (the rich catalog: options, variants, a care text attribute) in 3 locales (en, de, fr): the
 *   public list (page 1 of 20) and read, with `locale=de` against none. Target: 0.9x or better (at most ~11% slower).
 *   100,000 products (the standard catalog) in 3 locales: search in German text (`locale=de`) against the same
 *   search in the default locale. Target: within 2x.
 *
 * Every product has a de and an fr translation (written by SQL, as the translations API stores them): name,
 * description and the translated search text, and for the rich catalog option names and values and the care text.
 * The translated text swaps the English words for others, so a German word only matches German text:
 * cotton → baumwolle (≈ 5 % of products), zephyr → zefir (0.1 %).
 *
 * Usage: npm run bench:locales [-- --reseed] [-- --requests 200] [-- --seed-only]
 */
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePostgres, withClient } from './postgres';
import { openFixture, type CatalogKind } from './seed';
import { freePort, ROOT, serviceEnv, startTarget } from './processes';
import { ensureBuild, generatedBy, percentile, seededOnce } from './sideBySide';

const argv = process.argv.slice(2);
const REQUESTS = Number(argv[argv.indexOf('--requests') + 1]) || 200;
const log = (s: string) => console.log(s);

/** English word → German, French: whole words of the seeded names and descriptions. */
const WORDS: [string, string, string][] = [
  ['cotton', 'baumwolle', 'coton'],
  ['zephyr', 'zefir', 'zéphyr'],
  ['shirt', 'hemd', 'chemise'],
  ['made of', 'aus', 'en'],
];
const OPTIONS: Record<string, [string, string, Record<string, [string, string]>]> = {
  Size: ['Größe', 'Taille', {}],
  Color: ['Farbe', 'Couleur', { Black: ['Schwarz', 'Noir'], White: ['Weiß', 'Blanc'], Navy: ['Marine', 'Marine'], Red: ['Rot', 'Rouge'], Green: ['Grün', 'Vert'] }],
  Fit: ['Schnitt', 'Coupe', { Regular: ['Normal', 'Normale'], Slim: ['Schmal', 'Ajustée'], Relaxed: ['Weit', 'Ample'] }],
};

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The store's further locales and a de and fr translation of every product, by SQL. */
async function addTranslations(url: string, storeId: string, kind: CatalogKind) {
  await withClient(url, async (c) => {
    await c.query(`UPDATE stores SET default_locale = 'en', locales = ARRAY['de', 'fr'] WHERE id = $1`, [storeId]);
    for (const [i, locale] of ['de', 'fr'].entries()) {
      const swap = (expr: string) => WORDS.reduce((e, w) => `replace(${e}, ${sqlText(w[0])}, ${sqlText(w[i + 1])})`, expr);
      const options = Object.entries(OPTIONS).map(
        ([name, t]) => `${sqlText(name)}, jsonb_build_object('name', ${sqlText(t[i] as string)}, 'values', ${sqlText(JSON.stringify(Object.fromEntries(Object.entries(t[2]).map(([v, tr]) => [v, tr[i]]))))}::jsonb)`,
      );
      await c.query(`INSERT INTO product_translations (product_id, store_id, mode, locale, name, description, options, attributes, search_text, updated_at)
        SELECT x.id, x.store_id, x.mode, ${sqlText(locale)}, initcap(x.name), x.description,
          ${kind === 'rich' ? `jsonb_build_object(${options.join(', ')})` : `'{}'::jsonb`},
          ${kind === 'rich' ? `CASE WHEN x.attributes ? 'care' THEN jsonb_build_object('care', ${sqlText(locale)} || ': ' || (x.attributes->>'care')) ELSE '{}'::jsonb END` : `'{}'::jsonb`},
          lower(x.name || ' ' || x.description), now()
        FROM (SELECT p.id, p.store_id, p.mode, p.attributes, ${swap('lower(p.name)')} AS name, ${swap('p.description')} AS description
              FROM products p WHERE p.store_id = $1) x`, [storeId]);
      log(`  translated every product into ${locale}`);
    }
    await c.query('VACUUM ANALYZE product_translations');
  });
}

/** A seeded catalog with its translations, kept between runs while its tag matches. */
async function catalog(size: number, kind: CatalogKind) {
  const dbName = `bench_locales_${size / 1000}k${kind === 'rich' ? '_rich' : ''}`;
  const extend = (url: string, storeId: string) => addTranslations(url, storeId, kind);
  const url = await seededOnce(dbName, size, { tag: `bench locales v1 size=${size} ${kind}`, reseed: argv.includes('--reseed'), log, kind, extend });
  return { url, fixture: await openFixture(url) };
}

interface Pair {
  name: string;
  /** The baseline request and the one measured against it. */
  base: string;
  other: string;
  target: string;
  /** Passes when the ratio of medians (other / base) is at most this. */
  limit: number;
}

/** Runs the pair interleaved (base, other, base, …) after warm-up; p50 and p99 of each, the ratio of their medians. */
async function measure(origin: string, apiKey: string, pair: Pair) {
  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${origin}/api/public/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await res.json()) as { data: unknown; meta?: { total: number; total_exact: boolean }; locale?: string };
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - started, body, language: res.headers.get('content-language') };
  };
  for (let i = 0; i < 20; i++) for (const path of [pair.base, pair.other]) await get(path);
  const times: [number[], number[]] = [[], []];
  let last: [Awaited<ReturnType<typeof get>>, Awaited<ReturnType<typeof get>>] | undefined;
  for (let i = 0; i < REQUESTS; i++) {
    // Alternate which goes first, so neither always follows the other's cache effects.
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    const got: Awaited<ReturnType<typeof get>>[] = [];
    for (const k of order) got[k] = await get(k === 0 ? pair.base : pair.other);
    times[0].push(got[0].ms);
    times[1].push(got[1].ms);
    last = [got[0], got[1]];
  }
  for (const t of times) t.sort((a, b) => a - b);
  const ratio = percentile(times[1], 50) / percentile(times[0], 50);
  const total = (r: Awaited<ReturnType<typeof get>>) => (r.body.meta ? `${r.body.meta.total.toLocaleString('en-US')}${r.body.meta.total_exact ? '' : '+'}` : '');
  const row = `| ${pair.name} | \`${pair.base}\` | ${percentile(times[0], 50).toFixed(2)} / ${percentile(times[0], 99).toFixed(2)} | ${total(last![0])} | \`${pair.other}\` | ${percentile(times[1], 50).toFixed(2)} / ${percentile(times[1], 99).toFixed(2)} | ${total(last![1])} | ${last![1].language} | ${ratio.toFixed(2)}x | ${pair.target} ${ratio <= pair.limit ? 'met' : '**missed**'} |`;
  log(row);
  return row;
}

async function main() {
  await ensurePostgres(log);
  const small = await catalog(10_000, 'rich');
  const large = await catalog(100_000, 'standard');
  if (argv.includes('--seed-only')) return;
  // The seed's ids are md5 digests; the public read takes only RFC 9562 UUIDs (version and variant digits), as zod checks them.
  const readId = small.fixture.activeIds.find((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id));
  ensureBuild(log);
  const rows: string[] = [];
  for (const [{ url, fixture }, pairs] of [
    [
      small,
      [
        { name: 'list, page 1 of 20', base: '/products', other: '/products?locale=de', target: '≤ 1.11x (0.9x)', limit: 1 / 0.9 },
        { name: 'list, de-AT (falls to de)', base: '/products', other: '/products?locale=de-AT', target: '≤ 1.11x (0.9x)', limit: 1 / 0.9 },
        { name: 'read one product', base: `/products/${readId}`, other: `/products/${readId}?locale=de`, target: '≤ 1.11x (0.9x)', limit: 1 / 0.9 },
      ],
    ],
    [
      large,
      [
        { name: 'search, common word (5 %)', base: '/products?search=cotton', other: '/products?search=baumwolle&locale=de', target: '≤ 2x', limit: 2 },
        { name: 'search, rare word (0.1 %)', base: '/products?search=zephyr', other: '/products?search=zefir&locale=de', target: '≤ 2x', limit: 2 },
        { name: 'search, default text in a locale', base: '/products?search=cotton', other: '/products?search=cotton&locale=de', target: '≤ 2x', limit: 2 },
        { name: 'search, two words', base: '/products?search=cotton%20shirt', other: '/products?search=baumwolle%20hemd&locale=de', target: '≤ 2x', limit: 2 },
      ],
    ],
  ] as const) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-locales-'));
    const server = await startTarget('service', await freePort(), serviceEnv(url, dataDir));
    try {
      for (const pair of pairs) rows.push(await measure(server.url, fixture.apiKey, pair));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const md = `# Reading in a language

${await generatedBy('npm run bench:locales', 'the machine is shared, and other work on it slows every figure here (both sides of a ratio alike, as they are interleaved)')}

Public API (a live secret key with public:read: the storefront view), ${REQUESTS} requests per side after 20 warm-up pairs,
the two sides of each row interleaved (base, other, other, base, …) against the production build; latency as the
client sees it, p50 / p99 in ms. The catalogs are the bench's (bench/seed.ts) in 3 locales (en the default, de, fr),
every product translated into de and fr (bench/locales.ts): the first three rows on 10,000 products of the rich
catalog (options, 12 variants on average, a care text), the others on 100,000 of the standard catalog.

| scenario | base | p50 / p99 | total | with a locale | p50 / p99 | total | Content-Language | ratio (p50) | target |
|---|---|--:|--:|---|--:|--:|---|--:|---|
${rows.join('\n')}

What a locale adds to a request: the store's locales (one primary-key read, beside the page's statement), and the
page's translations in the chain's locales (one statement for the whole page, beside the products' rows). A search in
a locale reads a second side beside the products: the translations in that locale whose text has every word (the
trigram index \`product_translations_search_idx\`) joined to their products, each ranking group merging both sides in
created_at order (src/catalog/services/productList.ts).

Earlier, the same day: without \`product_translations_name_prefix_idx\` the name groups of a search in a locale
joined every translation with the words to every product by hash (a sequential scan of the catalog per group):
a common German word took 445.90 ms p50 against 35.25 ms, 12.65x. With the index those groups read the few
names that qualify. A read's store locales and translations were two statements beside the product's (1.13x in
one run, 1.04x in another); they are one now.
`;
  writeFileSync(path.join(ROOT, 'bench/results/locales.md'), md);
  log('wrote bench/results/locales.md');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
