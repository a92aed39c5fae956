/**
 * Which way imports may point inside src. Checked by `npm run lint:imports`
 * and by test/foundation/imports.test.ts (so `npm test` fails on a violation).
 *
 * src is grouped by domain, and the groups are layered, from the bottom up:
 *   src/kernel        the vocabulary every part shares (modes, scopes, permissions, principals, event types); imports nothing in src
 *   src/platform      configuration, logging, metrics, the database, storage, and the write transaction with its outbox
 *   src/access/auth   credentials, authentication and the authorization rules
 *   src/api           the one request pipeline: GraphQL builder and plugins, REST routing, errors, docs, the CLI's frame
 *   src/access        users, stores, members, tokens, API keys, OAuth: services and their GraphQL, REST and CLI surfaces
 *   src/catalog       products, variants, images, SEO, categories, descriptions, imports and exports, the test catalog
 *   src/events        what happened: change history and webhooks (they read every other domain's records)
 *   src/jobs          the background worker, which runs each domain's due work
 *   src/*.ts          entry points and the assembly of the whole (app, server, worker, cli, schema, openapi)
 * A group imports only groups below it. Inside a domain, services never import that or any domain's
 * surfaces (graphql/, rest/, cli/), and the surfaces are siblings: GraphQL imports no REST or CLI, REST no CLI.
 *
 * Paths are regular expressions on paths relative to the working directory.
 * Type-only imports count as dependencies too (tsPreCompilationDeps), because
 * a type-only cycle or layering breach is still one module knowing about another.
 */

/** The groups, bottom up: each may import the groups before it (and itself). */
const LAYERS = [
  ['kernel', '^src/kernel/'],
  ['platform', '^src/platform/'],
  ['auth', '^src/access/auth/'],
  ['api', '^src/api/'],
  ['access', '^src/access/(?!auth/)'],
  ['catalog', '^src/catalog/'],
  ['events', '^src/events/'],
  ['jobs', '^src/jobs/'],
  ['assembly', '^src/[^/]+[.]ts$'],
];

/** One rule per group: nothing above it. */
const layerRules = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `${name}-not-to-higher-layers`,
  severity: 'error',
  comment:
    `${path.replace(/^\^|\(\?!auth\/\)/g, '')} may import only the groups below it (see the top of .dependency-cruiser.cjs). ` +
    'An import upwards makes the lower group depend on everything above it, and cycles follow.',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => p), pathNot: LAYERS.slice(0, i + 1).map(([, p]) => p) },
}));

/** A domain's ways in from the outside world. */
const SURFACES = '^src/(?:access|catalog|events)/(?:graphql|rest|cli)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other cannot be understood, tested or loaded one at a time, and under ' +
        'CommonJS one of them sees the other half-initialised. Move what both need into a module that ' +
        'imports neither (e.g. src/platform/storage/fileStorage.ts, src/catalog/services/descriptionTypes.ts, src/kernel).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'services-not-to-surfaces',
      severity: 'error',
      comment:
        'Services do the work; GraphQL, REST and the CLI only translate requests into service calls. A service ' +
        'that imports a surface cannot be used from the others (or from a test) without dragging that surface along.',
      from: { path: '^src/(?:access|catalog|events)/', pathNot: SURFACES },
      to: { path: SURFACES },
    },
    {
      name: 'graphql-not-to-rest-or-cli',
      severity: 'error',
      comment:
        'GraphQL, REST and the CLI are siblings over the services. Shared behaviour belongs in a service ' +
        '(or in src/api, which all of them build on), not in another surface.',
      from: { path: '^src/(?:access|catalog|events)/graphql/' },
      to: { path: '^src/(?:access|catalog|events)/(?:rest|cli)/' },
    },
    {
      name: 'rest-not-to-cli',
      severity: 'error',
      comment:
        'REST and the CLI are siblings over the services. Shared behaviour belongs in a service ' +
        '(or in src/api), not in the CLI.',
      from: { path: '^src/(?:access|catalog|events)/rest/' },
      to: { path: '^src/(?:access|catalog|events)/cli/' },
    },
    {
      name: 'src-not-to-test-or-bench',
      severity: 'error',
      comment: 'test/ and bench/ are not shipped; production code that imports them breaks in a build or on a server.',
      from: { path: '^src/' },
      to: { path: '^(?:test|bench)/' },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment:
        "src ships to production, where 'npm ci --omit=dev' leaves devDependencies out: a package src " +
        "imports belongs in 'dependencies'. @types packages are erased by the compiler and are fine. " +
        'Type-only imports are not exempted wholesale: dependency-cruiser (17 and 18) labels ' +
        "`import value, { type T } from 'pkg'` type-only although it loads pkg at run time.",
      from: { path: '^src/', pathNot: '^src/platform/logger[.]ts$' },
      to: { dependencyTypes: ['npm-dev'], pathNot: ['node_modules/@types/'] },
    },
    {
      name: 'not-to-dev-dep-logger',
      severity: 'error',
      comment:
        'As not-to-dev-dep, with one exception: src/platform/logger.ts uses pino-pretty when it is installed ' +
        '(a type-only import plus a require() inside try/catch) and logs JSON lines when it is not, ' +
        'so a production install without devDependencies still starts. Nothing else may come from devDependencies.',
      from: { path: '^src/platform/logger[.]ts$' },
      to: { dependencyTypes: ['npm-dev'], pathNot: ['node_modules/@types/', 'node_modules/pino-pretty/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Generated by Prisma and Pothos; not ours to arrange.
    exclude: { path: '^src/generated/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
