/**
 * The bulk import benchmark's baseline (bench/bulkImport.ts): the same CSV file
 * read with the same parser (csv-parse) and written as plainly as the tables
 * allow, on the same database through the same driver: per 200 rows one
 * transaction of three multi-row INSERTs (products, their category link,
 * their variants). No validation, versions, search text, events or outbox:
 * the floor under what an import of these rows must write.
 *
 *   node --import tsx bench/bulkImportBaseline.ts <file.csv> <storeId> <categoryId>
 * (DATABASE_URL or DATA_DIR as for the service). Prints {"rows": n}.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { loadConfig } from '../src/platform/config';
import { closeDatabase, openDatabase, Prisma } from '../src/platform/db/client';

const BATCH = 200;

interface Row {
  sku: string;
  name: string;
  description: string;
  price: string;
  inventory_quantity: string;
  tags: string;
  variants: string;
}

async function main() {
  const [file, storeId, categoryId] = process.argv.slice(2);
  if (!file || !storeId || !categoryId) throw new Error('usage: bulkImportBaseline.ts <file.csv> <storeId> <categoryId>');
  const database = await openDatabase(loadConfig().database);
  const prisma = database.prisma;
  let rows = 0;
  let batch: Row[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const products = batch.map((r) => ({ id: randomUUID(), r }));
    const variants = products.flatMap(({ id, r }) =>
      (JSON.parse(r.variants || '[]') as { sku: string; options?: Record<string, string>; price?: number }[]).map((v, position) => ({ id: randomUUID(), productId: id, position, ...v })),
    );
    await prisma.$transaction([
      prisma.$executeRaw`INSERT INTO products (id, store_id, mode, name, description, price, inventory_quantity, tags, updated_at) VALUES ${Prisma.join(
        products.map(
          ({ id, r }) =>
            Prisma.sql`(${id}::uuid, ${storeId}::uuid, 'live', ${r.name}, ${r.description}, ${r.price}::numeric, ${Number(r.inventory_quantity || 0)}, string_to_array(${r.tags}, '|'), now())`,
        ),
      )}`,
      prisma.$executeRaw`INSERT INTO product_categories (product_id, category_id, mode) VALUES ${Prisma.join(products.map(({ id }) => Prisma.sql`(${id}::uuid, ${categoryId}::uuid, 'live')`))}`,
      prisma.$executeRaw`INSERT INTO variants (id, store_id, product_id, mode, sku, options, options_key, price, position, updated_at) VALUES ${Prisma.join(
        variants.map(
          (v) =>
            Prisma.sql`(${v.id}::uuid, ${storeId}::uuid, ${v.productId}::uuid, 'live', ${v.sku}, ${JSON.stringify(v.options ?? {})}::jsonb, ${JSON.stringify(v.options ?? {})}, ${v.price ?? null}::numeric, ${v.position}, now())`,
        ),
      )}`,
    ]);
    rows += batch.length;
    batch = [];
  };
  for await (const record of createReadStream(file).pipe(parse({ columns: true, bom: true }))) {
    batch.push(record as Row);
    if (batch.length === BATCH) await flush();
  }
  await flush();
  await closeDatabase();
  console.log(JSON.stringify({ rows }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
