import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/platform/config';

describe('configuration', () => {
  it('defaults to the embedded database under ./data, port 4000, OAuth off', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.database).toEqual({ kind: 'pglite', dataDir: path.resolve('data/pglite'), lockFile: path.resolve('data/pglite.lock'), socketDir: path.resolve('data') });
    expect(c.storage).toEqual({ driver: 'disk', root: path.resolve('data/uploads') });
    expect(c.oauthEnabled).toBe(false);
    expect(c.upload).toEqual({ maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 });
    expect(c.rateLimit).toMatchObject({ live: { perSecond: 100 }, test: { perSecond: 25 } });
  });

  it('selects PostgreSQL from a postgres:// DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@db:5432/catalog' }).database).toMatchObject({ kind: 'postgres', url: 'postgresql://u@db:5432/catalog' });
  });

  it('reads streaming replicas of a PostgreSQL primary from DATABASE_REPLICA_URLS, and none without', () => {
    const primary = 'postgres://u@db:5432/catalog';
    expect(loadConfig({ DATABASE_URL: primary }).database).toMatchObject({ kind: 'postgres', replicas: undefined });
    const replicas = 'postgres://u@r1:5432/catalog, postgresql://u@r2:5432/catalog';
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: replicas, DATABASE_REPLICA_MAX_LAG_MS: '2500' }).database).toMatchObject({
      replicas: { urls: ['postgres://u@r1:5432/catalog', 'postgresql://u@r2:5432/catalog'], maxLagMs: 2500, pollMs: 200 },
    });
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://u@r1/catalog' })).toThrow(/DATABASE_REPLICA_URLS: needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'mysql://r1' })).toThrow(/replica URLs start with postgres:\/\//);
  });

  it('names every invalid variable in one clear message', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', OAUTH_ENABLED: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT:');
    expect(message).toContain('DATABASE_URL: must start with postgres:// or postgresql://');
    expect(message).toContain('OAUTH_ENABLED:');
  });
});
