/**
 * Every in-process cache, by name, with its bound: what /metrics shows as cache_entries and cache_max_entries
 * (src/platform/metrics.ts). A cache registers how to read its size where it is made; a later registration under
 * the same name replaces the earlier (a new app in the same process, as tests make), so the registry holds one
 * reader per name and keeps no closed app alive. A cache asks cacheBound() for its bound each time it adds an
 * entry, so CACHE_MAX_ENTRIES (config) can lower or raise any of them.
 */

/** The caches, with their default bounds (entries). */
export const CACHE_DEFAULTS = {
  /** Parsed GraphQL documents by text (the REST routes' own among them). */
  graphql_documents: 1000,
  /** GraphQL parse errors by text. */
  graphql_parse_errors: 1000,
  /** Verified dashboard tokens (for AUTH_CACHE_TTL_MS). */
  verified_dashboard_tokens: 10_000,
  /** When each API key last wrote its last_used_at. */
  api_key_last_used: 10_000,
  /** The public API's rate-limit buckets held in this process (without Redis, or while it fails). */
  rate_limit_buckets: 50_000,
  /** Sign-in failure windows by account and address held in this process. */
  login_throttle_windows: 100_000,
  /** Statement texts given a prepared statement's name (per database; replicas are `prepared_statements:<name>`). */
  prepared_statements: 256,
  /** Prisma's query plans, single and batched. */
  prisma_query_plans: 2000,
  /** Smart collections' compiled rules by store and mode. */
  collection_rules: 1000,
  /** Clients' last write positions (replicas without Redis). */
  write_positions: 50_000,
  /** The OpenAPI document per base URL. */
  openapi_documents: 8,
  /** Files of the dashboard's build. */
  dashboard_files: 1000,
} as const;

export type CacheName = keyof typeof CACHE_DEFAULTS;

export interface CacheSize {
  /** Entries held now; null when the holder does not tell (the bound still holds). */
  entries: number | null;
  /** The most it may hold. */
  max: number;
}

const caches = new Map<string, () => CacheSize>();
const bounds = new Map<string, number>();

/** Sets the bounds CACHE_MAX_ENTRIES names (the others keep their defaults); caches made before see them at their next entry. */
export function setCacheBounds(configured: Partial<Record<CacheName, number>>): void {
  bounds.clear();
  for (const [name, max] of Object.entries(configured)) bounds.set(name, max);
}

/** The bound of a cache now: configured, else its default. `name` may carry a `:<instance>` suffix (a replica's). */
export function cacheBound(name: string): number {
  const base = name.split(':')[0] as CacheName;
  return bounds.get(name) ?? bounds.get(base) ?? CACHE_DEFAULTS[base];
}

/** Registers (or replaces) the cache `name`; `entries` is read at each scrape, the bound from cacheBound(). */
export function registerCache(name: string, entries: () => number | null): void {
  caches.set(name, () => ({ entries: entries(), max: cacheBound(name) }));
}

/** Each registered cache's size now, by name. */
export function cacheSizes(): Map<string, CacheSize> {
  return new Map([...caches].map(([name, read]) => [name, read()]));
}
