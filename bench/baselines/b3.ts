/**
 * B3: graphql-yoga with hand-written pg resolvers, answering the dashboard's
 * `products` and `product` queries with the same payload as the service. The
 * types are taken from the service's printed schema.graphql, so nullability
 * and field names cannot drift; only the resolvers differ.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { type DefinitionNode, GraphQLError, GraphQLScalarType, Kind, parse, print, visit as visitAst } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { type ProductSort, pageFromRows, productPageQuery } from '../../src/catalog/services/productList';
import { authorize, env, HttpError, productsByIds, query } from './common';

const ROOT_TYPES = ['ProductPage', 'ProductFilter', 'ProductSort'];
const serviceSdl = parse(readFileSync(path.resolve(__dirname, '../../schema.graphql'), 'utf8'));
const named = new Map(serviceSdl.definitions.flatMap((d: DefinitionNode) => ('name' in d && d.name ? [[d.name.value, d] as const] : [])));

/** The root types and every type they reach (fields, arguments, input fields), so the product can grow without a list here. */
function reachable(roots: string[]): DefinitionNode[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !named.has(name)) return;
    seen.add(name);
    const found: string[] = [];
    visitAst(named.get(name)!, { NamedType: (n) => void found.push(n.name.value) });
    found.forEach(visit);
  };
  roots.forEach(visit);
  return [...seen].map((n) => named.get(n)!);
}
const picked = reachable(ROOT_TYPES);

const typeDefs = `
  ${picked.map((d) => print(d)).join('\n')}
  type Query {
    products(storeId: ID!, page: Int, perPage: Int, filter: ProductFilter, sort: ProductSort): ProductPage!
    product(storeId: ID!, id: ID!): Product!
  }`;

/** Values arrive already formatted by the SQL layer (ISO dates, decimal strings). */
const passThrough = (name: string) => new GraphQLScalarType({ name, serialize: (v) => v, parseValue: (v) => v, parseLiteral: (ast) => (ast.kind === Kind.STRING ? ast.value : null) });

interface Ctx {
  authorization: string | undefined;
  baseUrl: string;
}

const sortOf = (e: string | null | undefined) => (e ? ((e.endsWith('_DESC') ? '-' : '') + e.replace(/_(ASC|DESC)$/, '').toLowerCase()) as ProductSort : undefined);

const denied = (e: unknown) => (e instanceof HttpError ? new GraphQLError(e.code, { extensions: { code: e.code } }) : e);

const resolvers = {
  DateTime: passThrough('DateTime'),
  Decimal: passThrough('Decimal'),
  JSON: passThrough('JSON'),
  Query: {
    products: async (_: unknown, args: Record<string, any>, ctx: Ctx) => {
      await authorize(ctx.authorization, args.storeId).catch((e) => Promise.reject(denied(e)));
      const f = args.filter ?? {};
      const filter = { search: f.search ?? undefined, category: f.category ?? undefined, tags: f.tags ?? undefined, isActive: f.isActive ?? undefined, lowStock: f.lowStock ?? undefined };
      const page = productPageQuery(args.storeId, 'live', filter, { page: args.page ?? undefined, perPage: args.perPage ?? undefined }, sortOf(args.sort));
      const r = pageFromRows(await query<{ id: string | null; ord: string | null; total: string }>(page.sql.text, page.sql.values), page);
      const totalPages = Math.ceil(r.total / page.perPage);
      return {
        items: await productsByIds(r.ids, args.storeId, ctx.baseUrl),
        meta: { page: page.page, perPage: page.perPage, total: r.total, totalExact: r.totalExact, totalPages, hasMore: r.hasMore },
      };
    },
    product: async (_: unknown, args: { storeId: string; id: string }, ctx: Ctx) => {
      await authorize(ctx.authorization, args.storeId).catch((e) => Promise.reject(denied(e)));
      const [p] = /^[0-9a-f-]{36}$/i.test(args.id) ? await productsByIds([args.id], args.storeId, ctx.baseUrl) : [];
      if (!p) throw new GraphQLError('Product not found', { extensions: { code: 'not_found' } });
      return p;
    },
  },
};

const yoga = createYoga({
  schema: createSchema<Ctx>({ typeDefs, resolvers }),
  graphqlEndpoint: '/graphql',
  logging: false,
  graphiql: false,
  landingPage: false,
  context: ({ request }) => ({ authorization: request.headers.get('authorization') ?? undefined, baseUrl: new URL(request.url).origin }),
});

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    return res.end('{"status":"ok"}');
  }
  return yoga(req, res);
});
server.listen(Number(env('PORT')), '127.0.0.1');
