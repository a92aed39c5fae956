/**
 * The public API in a further currency at 10,000 products in 3 currencies on PostgreSQL: the storefront list and
 * read with `?currency=` against the same requests without it, in the same run, through HTTP to the production
 * build, into bench/results/currencies.md.
 *
 * The catalog is the bench's (bench/seed.ts, 10,000 products, 70 % active, 0-3 variants each); the store sells in
 * EUR (its default) and in JPY and KWD, with prices set by SQL on 90 % of the products (JPY) and 60 % (KWD), and on
 * half of the variants in JPY, amounts derived from a hash of the id so every run has the same catalog.
 *
 * The two requests of a pair run alternately (A, B, A, B…), so a slower minute of the shared machine weighs on both.
 *
 * Usage: npm run bench:currencies [-- --reseed] [-- --requests 300]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensurePostgres, withClient } from './postgres';
import { openFixture } from './seed';
import { freePort, ROOT, serviceEnv, startTarget } from './processes';
import { ensureBuild, generatedBy, percentile, seededOnce } from './sideBySide';

const SIZE = 10_000;
const DB_NAME = 'bench_currencies_10k';
const TAG = `bench currencies v3 size=${SIZE}`;
const argv = process.argv.slice(2);
const REQUESTS = Number(argv[argv.indexOf('--requests') + 1]) || 300;
const log = (s: string) => console.log(s);

const hash = (salt: string, id = 'id') => `abs(hashtext(${id}::text || '${salt}'))`;

/** The store's further currencies and the prices in them, written by SQL (the service's stored form). */
async function addPrices(url: string, storeId: string) {
  await withClient(url, async (c) => {
    await c.query(`UPDATE stores SET currencies = ARRAY['JPY', 'KWD'] WHERE id = $1`, [storeId]);
    await c.query(
      `UPDATE products SET prices = jsonb_strip_nulls(jsonb_build_object(
         'JPY', CASE WHEN ${hash(':j')} % 10 < 9 THEN jsonb_build_object('amount', (100 + ${hash(':ja')} % 30000)::text, 'compare_at_amount', NULL) END,
         'KWD', CASE WHEN ${hash(':k')} % 10 < 6 THEN jsonb_build_object('amount', to_char((1 + ${hash(':ka')} % 90000) / 1000.0, 'FM99990.000'), 'compare_at_amount', NULL) END))
       WHERE store_id = $1`,
      [storeId],
    );
    await c.query(
      `UPDATE variants SET prices = jsonb_build_object('JPY', jsonb_build_object('amount', (100 + ${hash(':va')} % 30000)::text, 'compare_at_amount', NULL))
       WHERE store_id = $1 AND ${hash(':v')} % 2 = 0`,
      [storeId],
    );
    await c.query('VACUUM ANALYZE products');
    await c.query('VACUUM ANALYZE variants');
    await c.query('VACUUM ANALYZE product_currency_prices');
  });
}

interface Pair {
  name: string;
  path: string;
  query: string;
}

async function main() {
  await ensurePostgres(log);
  const url = await seededOnce(DB_NAME, SIZE, { tag: TAG, reseed: argv.includes('--reseed'), log, extend: addPrices });
  ensureBuild(log);
  const fixture = await openFixture(url);
  // An id the public read takes as one (RFC 9562: version and variant bits); the seed's ids are not all so.
  const [active] = await withClient(url, (c) =>
    c.query<{ id: string }>(`SELECT id::text AS id FROM products WHERE store_id = $1 AND mode = 'live' AND status = 'active' AND prices ? 'JPY'
      AND id::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
      AND EXISTS (SELECT 1 FROM variants v WHERE v.product_id = products.id) ORDER BY created_at LIMIT 1`, [fixture.storeId]).then((r) => r.rows),
  );
  const pairs: Pair[] = [
    { name: 'list, page 1 of 20 (newest first)', path: '/products', query: '' },
    { name: 'list sorted by price', path: '/products', query: 'sort=price' },
    { name: 'list, price between 50 and 150 (sorted by price)', path: '/products', query: 'price_min=50&price_max=150&sort=price' },
    { name: 'read one product with variants', path: `/products/${active.id}`, query: '' },
  ];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-currencies-'));
  const server = await startTarget('service', await freePort(), serviceEnv(url, dataDir));
  const rows: string[] = [];
  try {
    const get = async (p: Pair, currency: string | null) => {
      const query = [p.query, currency && `currency=${currency}`].filter(Boolean).join('&');
      const started = performance.now();
      const res = await fetch(`${server.url}/api/public/v1${p.path}${query ? `?${query}` : ''}`, { headers: { authorization: `Bearer ${fixture.apiKey}` } });
      const body = (await res.json()) as { data: { currency: string } | { currency: string }[] };
      if (res.status !== 200) throw new Error(`${p.name} (${p.path}?${query}): ${res.status} ${JSON.stringify(body)}`);
      const first = Array.isArray(body.data) ? body.data[0] : body.data;
      if (first.currency !== (currency ?? 'EUR')) throw new Error(`${p.name}: answered in ${first.currency}`);
      return performance.now() - started;
    };
    for (const p of pairs) {
      for (let i = 0; i < 30; i++) {
        await get(p, null);
        await get(p, 'JPY');
      }
      const without: number[] = [];
      const withCurrency: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        without.push(await get(p, null));
        withCurrency.push(await get(p, 'JPY'));
      }
      without.sort((a, b) => a - b);
      withCurrency.sort((a, b) => a - b);
      const [a50, b50] = [percentile(without, 50), percentile(withCurrency, 50)];
      const ratio = a50 / b50;
      rows.push(
        `| ${p.name} | ${a50.toFixed(2)} | ${percentile(without, 99).toFixed(2)} | ${b50.toFixed(2)} | ${percentile(withCurrency, 99).toFixed(2)} | ${ratio.toFixed(2)}x${ratio >= 0.9 ? '' : ' (below 0.9x)'} |`,
      );
      log(rows.at(-1)!);
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const md = `# The public API in a further currency at ${SIZE.toLocaleString('en-US')} products

${await generatedBy('npm run bench:currencies')}

The bench catalog (bench/seed.ts: ${SIZE.toLocaleString('en-US')} products, 70 % active, 0-3 variants each) in a store that sells in EUR (its
default) and in JPY and KWD: 90 % of the products have a JPY price, 60 % a KWD price, half of the variants a JPY price
(bench/currencies.ts). Each pair is the storefront REST route with a public:read key, without \`currency\` (prices in
EUR, the \`price\` column) and with \`currency=JPY\` (prices from the products' \`prices\`): ${REQUESTS} requests of each,
alternating, through HTTP to the production build after 30 warm-up requests, latency as the client sees it.

| request | without currency p50 ms | p99 ms | currency=JPY p50 ms | p99 ms | speed with currency (p50 without / with) |
|---|--:|--:|--:|--:|--:|
${rows.join('\n')}

Target: 0.9x or better (a request in a currency at most ~11 % slower than the same without). What a currency adds to
the list and the read: the store's currencies (to check the currency) read in the statement the request makes anyway
(the list's page statement, the product's read), and each price taken from the JSON column the row brings anyway; no
statement, join or round trip more. A first version read the store's currencies in a statement of its own: 0.82x for
the list on the same loaded machine.

Sorting and filtering by price in a further currency read product_currency_prices (one row per product and currency
with the product's status, kept by triggers from the products' \`prices\` in the same transaction as every write of
them or of the status): the storefront's sort walks its (store_id, mode, currency, amount, product_id, status) index
alone and stops after the page (with other filters, each row is joined to its product), then, on the last pages only,
lists the products without a price in the currency; a price filter reads the index's range, for the page and its
total. That is how the default currency's \`price\` is served by (store_id, mode, price). Before this table both
computed \`(prices -> 'JPY' ->> 'amount')::numeric\` for every active product and sorted them: 0.50x (sorted) and
0.35x (filtered) at load average 20; a first version of the table without the status, joining every row to its
product, measured 0.89x to 0.96x sorted.
`;
  writeFileSync(path.join(ROOT, 'bench/results/currencies.md'), md);
  log('wrote bench/results/currencies.md');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
