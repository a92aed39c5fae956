/**
 * Which way imports may point inside src. Checked by `npm run lint:imports`
 * and by test/foundation/imports.test.ts (so `npm test` fails on a violation).
 *
 * Layers, from the bottom up:
 *   src/domain        shared types (mode, scopes, permissions, principal, events); imports nothing in src
 *   src/db            database access
 *   src/auth          credentials and principals
 *   src/services, src/events, src/webhooks, src/jobs   what the service does, independent of how it is called
 *   src/graphql, src/rest, src/cli, src/docs and the entry points (app, server, cli, publicApi, explorer)
 *
 * Paths are regular expressions on paths relative to the working directory.
 * Type-only imports count as dependencies too (tsPreCompilationDeps), because
 * a type-only cycle or layering breach is still one module knowing about another.
 */

/** The surfaces: ways in from the outside world. */
const SURFACES = '^src/(?:graphql|rest|cli|docs)/|^src/(?:cli|app|server|worker|publicApi|explorer)[.]ts$';
const CLI = '^src/cli/|^src/cli[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other cannot be understood, tested or loaded one at a time, and under ' +
        'CommonJS one of them sees the other half-initialised. Move what both need into a module that ' +
        'imports neither (e.g. src/storage/fileStorage.ts, src/services/descriptionTypes.ts, src/domain).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-a-leaf',
      severity: 'error',
      comment:
        'src/domain holds the types every layer shares (mode, scopes, permissions, principal, event types). ' +
        'If it imported anything else in src, every layer would depend on that too and cycles would follow.',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'services-not-to-surfaces',
      severity: 'error',
      comment:
        'Services and events do the work; GraphQL, REST, the CLI and the entry points only translate ' +
        'requests into service calls. A service that imports a surface cannot be used from the others ' +
        '(or from a test) without dragging that surface along.',
      from: { path: '^src/(?:services|events|webhooks|jobs)/' },
      to: { path: SURFACES },
    },
    {
      name: 'db-not-to-upper-layers',
      severity: 'error',
      comment:
        'src/db is the bottom layer of the application: services, auth and the surfaces build on it. ' +
        'Importing any of them from db turns the layering upside down.',
      from: { path: '^src/db/' },
      to: { path: `^src/(?:services|auth|graphql|rest|cli|events|webhooks|jobs)/|^src/cli[.]ts$` },
    },
    {
      name: 'auth-not-to-surfaces',
      severity: 'error',
      comment:
        'Authentication and authorisation serve every surface alike, so they must not depend on any one ' +
        'of them (or on the app that wires them together).',
      from: { path: '^src/auth/' },
      to: { path: `^src/(?:graphql|rest)/|${CLI}|^src/app[.]ts$` },
    },
    {
      name: 'graphql-not-to-rest-or-cli',
      severity: 'error',
      comment:
        'GraphQL, REST and the CLI are siblings over the services. Shared behaviour belongs in a service ' +
        '(or a neutral module such as src/naming.ts), not in another surface.',
      from: { path: '^src/graphql/' },
      to: { path: `^src/rest/|${CLI}` },
    },
    {
      name: 'rest-not-to-cli',
      severity: 'error',
      comment:
        'REST and the CLI are siblings over the services. Shared behaviour belongs in a service ' +
        '(or a neutral module such as src/naming.ts), not in the CLI.',
      from: { path: '^src/rest/' },
      to: { path: CLI },
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
      from: { path: '^src/', pathNot: '^src/logger[.]ts$' },
      to: { dependencyTypes: ['npm-dev'], pathNot: ['node_modules/@types/'] },
    },
    {
      name: 'not-to-dev-dep-logger',
      severity: 'error',
      comment:
        'As not-to-dev-dep, with one exception: src/logger.ts uses pino-pretty when it is installed ' +
        '(a type-only import plus a require() inside try/catch) and logs JSON lines when it is not, ' +
        'so a production install without devDependencies still starts. Nothing else may come from devDependencies.',
      from: { path: '^src/logger[.]ts$' },
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
