/**
 * Every in-process cache, by name, with its bound: what /metrics shows as cache_entries and cache_max_entries
 * (src/platform/metrics.ts). A cache registers how to read its size where it is made; a later registration under
 * the same name replaces the earlier (a new app in the same process, as tests make), so the registry holds one
 * reader per name and keeps no closed app alive.
 */

export interface CacheSize {
  /** Entries held now; null when the holder does not tell (the bound still holds). */
  entries: number | null;
  /** The most it may hold. */
  max: number;
}

const caches = new Map<string, () => CacheSize>();

/** Registers (or replaces) the cache `name`; `read` is called at each scrape. */
export function registerCache(name: string, read: () => CacheSize): void {
  caches.set(name, read);
}

/** Each registered cache's size now, by name. */
export function cacheSizes(): Map<string, CacheSize> {
  return new Map([...caches].map(([name, read]) => [name, read()]));
}
