/**
 * Attribute filters and facets of product lists. Both read what triggers keep from the jsonb maps (see
 * prisma/schema.prisma), never the maps: product_attribute_values (one row per attribute value a product has on itself
 * or on any of its variants), where a filter is a semi-join; and product_attribute_value_bitmaps (which products have
 * each value, as bitmaps over product ordinals), which a list narrowed by nothing but attributes and status ANDs and
 * counts for its facets, its total and, when its matches are common enough, its page.
 */

import type { RequestContext } from '../../platform/context';
import type { Mode } from '../../kernel/access';
import { isUuid } from '../../kernel/ids';
import { Prisma, readRows } from '../../platform/db/client';
import { AppError, type FieldError } from '../../platform/errors';
import { CATALOG_LIMITS } from '../limits';

/** One attribute filter as a client sends it: any of `values`, and/or the bounds of a range (inclusive). */
export interface AttributeFilter {
  code: string;
  values?: string[];
  gte?: string;
  lte?: string;
}

/** Who reads the list: the public API filters and facets by public attributes only. */
export type AttributeAudience = 'merchant' | 'public';

type AttributeType = 'plain_text' | 'rich_text' | 'numeric' | 'boolean' | 'date' | 'date_time' | 'dropdown' | 'multiselect' | 'swatch' | 'reference';

interface AttributeDefinition {
  code: string;
  name: string;
  type: AttributeType;
  unit: string | null;
  values: { value: string; name: string; hex?: string }[];
}

/** A filter checked against its attribute: values and bounds in the form product_attribute_values stores them. */
export interface ResolvedAttributeFilter {
  code: string;
  /** Numbers compare as numbers (value_num); every other type as its stored text (dates in ISO order). */
  numeric: boolean;
  values?: string[];
  gte?: string;
  lte?: string;
}

const RANGE_TYPES: readonly AttributeType[] = ['numeric', 'date', 'date_time'];
const LISTED_TYPES: readonly AttributeType[] = ['dropdown', 'multiselect', 'swatch'];
/** Values a plain_text or reference facet lists (the most common first): their values are open-ended. */
export const OPEN_FACET_VALUES = 100;

/** How a REST client names the parts of a filter; the GraphQL input's errors name them the same way. */
export const filterField = (code: string, part?: 'gte' | 'lte') => (part ? `attributes[${code}][${part}]` : `attributes[${code}]`);

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

const validDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return DATE.test(v) && !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
};

/**
 * A value as product_attribute_values stores it, or an error message. Dates are compared as text, so a date_time
 * bound is brought to the form stored values have (ISO 8601 UTC with milliseconds, as Date#toISOString writes).
 */
function storedValue(def: AttributeDefinition, raw: string): { value: string } | { error: string } {
  const v = raw.trim();
  switch (def.type) {
    case 'numeric': {
      const n = NUMBER.test(v) ? Number(v) : NaN;
      return Number.isFinite(n) ? { value: String(n) } : { error: `must be a number: ${JSON.stringify(raw)}` };
    }
    case 'boolean':
      return v === 'true' || v === 'false' ? { value: v } : { error: `must be true or false: ${JSON.stringify(raw)}` };
    case 'date':
      return validDate(v) ? { value: v } : { error: `must be a date (YYYY-MM-DD): ${JSON.stringify(raw)}` };
    case 'date_time':
      return DATE_TIME.test(v) && validDate(v.slice(0, 10)) && !Number.isNaN(Date.parse(v))
        ? { value: new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString() }
        : { error: `must be an ISO 8601 date-time with an offset (2026-05-01T09:00:00Z) or a date: ${JSON.stringify(raw)}` };
    case 'reference':
      return isUuid(v) ? { value: v.toLowerCase() } : { error: `must be the id of a product or category: ${JSON.stringify(raw)}` };
    case 'dropdown':
    case 'multiselect':
    case 'swatch':
      return def.values.some((d) => d.value === v) ? { value: v } : { error: `${JSON.stringify(raw)} is not a value of ${def.code}` };
    default:
      return { value: v };
  }
}

/** The store's attributes of these codes that the audience may filter and facet by (filterable; public for the public API). */
async function definitions(storeId: string, codes: string[], audience: AttributeAudience): Promise<Map<string, AttributeDefinition & { facetable: boolean }>> {
  const rows = await readRows<AttributeDefinition & { filterable: boolean; public: boolean }>(
    `SELECT code, name, type::text AS type, unit, "values", filterable, public FROM attributes WHERE store_id = $1::uuid AND code = ANY($2::text[])`,
    [storeId, codes],
  );
  // A private attribute does not exist for the public API: it is reported as unknown, so its code cannot be probed.
  return new Map(
    rows
      .filter((r) => audience === 'merchant' || r.public)
      .map((r) => [r.code, { ...r, values: Array.isArray(r.values) ? r.values : [], facetable: r.filterable && r.type !== 'rich_text' }]),
  );
}

/** Why an attribute cannot be filtered or faceted by, or null. */
function unusable(code: string, def: (AttributeDefinition & { facetable: boolean }) | undefined): string | null {
  if (!def) return `no attribute ${JSON.stringify(code)}`;
  if (def.type === 'rich_text') return `${code} is rich text, which lists cannot filter by`;
  if (!def.facetable) return `${code} is not filterable`;
  return null;
}

const invalid = (field: string, message: string, code = 'invalid_parameter'): FieldError => ({ field, code, message });

/** The filters and facets of a list checked against the store's attributes, every error at once (422 validation_failed). */
export async function resolveAttributeQuery(
  storeId: string,
  filters: AttributeFilter[],
  facetCodes: string[],
  audience: AttributeAudience,
): Promise<{ filters: ResolvedAttributeFilter[]; facets: (AttributeDefinition & { selection?: ResolvedAttributeFilter })[] }> {
  const errors: FieldError[] = [];
  if (filters.length > CATALOG_LIMITS.attributeFiltersPerList) {
    errors.push(invalid('attributes', `at most ${CATALOG_LIMITS.attributeFiltersPerList} attributes per list (attribute_filters_per_list)`, 'too_big'));
  }
  const facetList = [...new Set(facetCodes)];
  if (facetList.length > CATALOG_LIMITS.facetsPerList) {
    errors.push(invalid('facets', `at most ${CATALOG_LIMITS.facetsPerList} facets per list (facets_per_list)`, 'too_big'));
  }
  if (errors.length) throw validationFailed(errors);
  const defs = await definitions(storeId, [...new Set([...filters.map((f) => f.code), ...facetList])], audience);

  const resolved: ResolvedAttributeFilter[] = [];
  for (const f of filters) {
    const def = defs.get(f.code);
    const why = unusable(f.code, def);
    if (why || !def) {
      errors.push(invalid(filterField(f.code), why!));
      continue;
    }
    const r: ResolvedAttributeFilter = { code: f.code, numeric: def.type === 'numeric' };
    if (f.values?.length) {
      if (f.values.length > CATALOG_LIMITS.valuesPerAttribute) {
        errors.push(invalid(filterField(f.code), `at most ${CATALOG_LIMITS.valuesPerAttribute} values (values_per_attribute)`, 'too_big'));
      }
      const stored = f.values.map((v) => storedValue(def, v));
      for (const s of stored) if ('error' in s) errors.push(invalid(filterField(f.code), s.error));
      r.values = [...new Set(stored.flatMap((s) => ('value' in s ? [s.value] : [])))];
    }
    for (const part of ['gte', 'lte'] as const) {
      const bound = f[part];
      if (bound === undefined) continue;
      if (!RANGE_TYPES.includes(def.type)) {
        errors.push(invalid(filterField(f.code, part), `ranges are only for numeric, date and date_time attributes; ${f.code} is ${def.type}`));
        continue;
      }
      const s = storedValue(def, bound);
      if ('error' in s) errors.push(invalid(filterField(f.code, part), s.error));
      else r[part] = s.value;
    }
    if (!f.values?.length && f.gte === undefined && f.lte === undefined) errors.push(invalid(filterField(f.code), 'needs at least one value or a bound'));
    resolved.push(r);
  }
  const facets = [];
  for (const code of facetList) {
    const def = defs.get(code);
    const why = unusable(code, def);
    if (why || !def) errors.push(invalid('facets', why!));
    else facets.push({ ...def, selection: resolved.find((r) => r.code === code) });
  }
  if (errors.length) throw validationFailed(errors);
  return { filters: resolved, facets };
}

const validationFailed = (errors: FieldError[]) =>
  new AppError('validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });

/** The rows of product_attribute_values of one attribute of one catalog. */
const valuesOf = (storeId: string, mode: Mode, code: string) =>
  Prisma.sql`v.store_id = ${storeId}::uuid AND v.mode = ${mode}::"Mode" AND v.code = ${code}`;

/** What a value row must hold to match a filter. */
function matchSql(f: ResolvedAttributeFilter): Prisma.Sql {
  const col = Prisma.raw(f.numeric ? 'v.value_num' : 'v.value');
  const cast = Prisma.raw(f.numeric ? '::numeric' : '::text');
  const parts: Prisma.Sql[] = [];
  if (f.values?.length) parts.push(Prisma.sql`${col} = ANY(${f.values}${Prisma.raw(f.numeric ? '::numeric[]' : '::text[]')})`);
  if (f.gte !== undefined) parts.push(Prisma.sql`${col} >= ${f.gte}${cast}`);
  if (f.lte !== undefined) parts.push(Prisma.sql`${col} <= ${f.lte}${cast}`);
  return Prisma.join(parts, ' AND ');
}

/** A list's predicate for one filter: the product has a matching value on itself or on a variant. */
export function attributeFilterSql(storeId: string, mode: Mode, f: ResolvedAttributeFilter): Prisma.Sql {
  return Prisma.sql`p.id IN (SELECT v.product_id FROM product_attribute_values v WHERE ${valuesOf(storeId, mode, f.code)} AND ${matchSql(f)})`;
}

export interface FacetValue {
  value: string;
  name: string;
  hex?: string;
  count: number;
  selected: boolean;
}

/** A facet: for value types, `values` with counts; for numeric, date and date_time, the range of values. */
export interface Facet {
  code: string;
  name: string;
  type: AttributeType;
  unit: string | null;
  values: FacetValue[] | null;
  min: string | null;
  max: string | null;
}

/**
 * Where a facet counts: among every value row of the catalog (`status`: nothing but status narrows the list), among the
 * products of a set, a statement selecting product ids (`products`: the list's other filters), or among the products
 * whose bits an expression over attributeSelectionsSql's columns sets (`bitmap`: the list's other filters are
 * attributes, with at most a status).
 */
export type FacetScope =
  | { status: 'active' | 'not_active' | 'draft' | 'archived' | null }
  | { key: string; products: Prisma.Sql }
  | { bitmap: Prisma.Sql };

/**
 * One statement for every facet of a list. An attribute's facet counts over the products the list's other filters
 * select (its own filter left out, so a selected value does not hide its siblings): facets of attributes the list
 * does not filter by share one set of products, each filtered attribute has its own.
 * - When nothing but status narrows the list, a value facet sums the store's counters (product_attribute_value_counts)
 *   and a range facet reads the two ends of its index, so an unfiltered facet costs the same at any catalog size.
 * - When attributes narrow it (`bitmaps`, the attribute_selections CTE), each value's bitmap chunks are ANDed with the
 *   set's and counted: the cost follows the number of values and chunks, not of products selected.
 * - Otherwise each set is computed once, and its products' value rows are read once for all the facets over it (one
 *   descent of the primary key per product).
 */
export function facetsSql(
  storeId: string,
  mode: Mode,
  facets: { code: string; type: AttributeType }[],
  scopeOf: (code: string) => FacetScope,
  bitmaps?: Prisma.Sql,
): Prisma.Sql {
  const sets = new Map<string, { name: string; products: Prisma.Sql; codes: string[] }>();
  const parts = facets.map((f, i) => {
    const scope = scopeOf(f.code);
    const n = Prisma.raw(String(i));
    const open = !LISTED_TYPES.includes(f.type) && f.type !== 'boolean';
    const range = RANGE_TYPES.includes(f.type);
    const [lo, hi] = f.type === 'numeric' ? [Prisma.raw('min(v.value_num)::text'), Prisma.raw('max(v.value_num)::text')] : [Prisma.raw('min(v.value)'), Prisma.raw('max(v.value)')];
    if ('status' in scope) {
      const status = scope.status ? statusSql(Prisma.raw(range ? 'v.status' : 'c.status'), scope.status) : Prisma.empty;
      if (range) return Prisma.sql`(SELECT ${n} AS f, NULL::text AS value, NULL::bigint AS n, ${lo} AS lo, ${hi} AS hi FROM product_attribute_values v WHERE ${valuesOf(storeId, mode, f.code)} ${status})`;
      const order = open ? Prisma.sql`ORDER BY sum(c.count) DESC, c.value LIMIT ${OPEN_FACET_VALUES}` : Prisma.empty;
      return Prisma.sql`(SELECT ${n} AS f, c.value, sum(c.count)::bigint AS n, NULL::text AS lo, NULL::text AS hi FROM product_attribute_value_counts c
        WHERE c.store_id = ${storeId}::uuid AND c.mode = ${mode}::"Mode" AND c.code = ${f.code} ${status} GROUP BY c.value HAVING sum(c.count) > 0 ${order})`;
    }
    if ('bitmap' in scope) {
      if (range) {
        // The ends walk the values in order and stop at the first whose bitmap meets the set's (a chunk's set looked up
        // per row), instead of ANDing every value of an open range.
        const col = Prisma.raw(f.type === 'numeric' ? 'v.value_num' : 'v.value');
        const meets = Prisma.sql`bit_count(v.bits & (SELECT ${scope.bitmap} FROM attribute_selections s WHERE s.chunk = v.chunk)) > 0`;
        const end = (dir: 'ASC' | 'DESC') =>
          Prisma.sql`(SELECT ${col}::text FROM product_attribute_value_bitmaps v WHERE ${valuesOf(storeId, mode, f.code)} AND ${col} IS NOT NULL AND ${meets} ORDER BY ${col} ${Prisma.raw(dir)} LIMIT 1)`;
        return Prisma.sql`(SELECT ${n} AS f, NULL::text AS value, NULL::bigint AS n, ${end('ASC')} AS lo, ${end('DESC')} AS hi)`;
      }
      const hits = Prisma.sql`bit_count(v.bits & ${scope.bitmap})`;
      const order = open ? Prisma.sql`ORDER BY n DESC, v.value LIMIT ${OPEN_FACET_VALUES}` : Prisma.empty;
      return Prisma.sql`(SELECT ${n} AS f, v.value, sum(${hits})::bigint AS n, NULL::text AS lo, NULL::text AS hi
        FROM product_attribute_value_bitmaps v JOIN attribute_selections s ON s.chunk = v.chunk WHERE ${valuesOf(storeId, mode, f.code)}
        GROUP BY v.value HAVING sum(${hits}) > 0 ${order})`;
    }
    const set = sets.get(scope.key) ?? { name: `facet_rows_${sets.size}`, products: scope.products, codes: [] };
    sets.set(scope.key, set);
    set.codes.push(f.code);
    const rows = Prisma.raw(set.name);
    // The set's rows carry the value text alone (an index-only read of the primary key): a number's text is its
    // shortest spelling, which casts back exactly.
    const [setLo, setHi] = f.type === 'numeric' ? [Prisma.raw('min(v.value::numeric)::text'), Prisma.raw('max(v.value::numeric)::text')] : [lo, hi];
    if (range) return Prisma.sql`(SELECT ${n} AS f, NULL::text AS value, NULL::bigint AS n, ${setLo} AS lo, ${setHi} AS hi FROM ${rows} v WHERE v.code = ${f.code})`;
    const order = open ? Prisma.sql`ORDER BY count(*) DESC, v.value LIMIT ${OPEN_FACET_VALUES}` : Prisma.empty;
    return Prisma.sql`(SELECT ${n} AS f, v.value, count(*) AS n, NULL::text AS lo, NULL::text AS hi FROM ${rows} v WHERE v.code = ${f.code} GROUP BY v.value ${order})`;
  });
  // Per product of the set, one descent of the primary key reads its few rows (`v.code || ''` filters them there,
  // where an index condition on the codes would descend once per code). OFFSET 0 keeps the lookup per product: a set
  // of thousands of products otherwise gets a hash join over every value row of the catalog, which costs ten times
  // as much.
  const ctes = [...sets.values()].map(
    (set) => Prisma.sql`${Prisma.raw(set.name)} AS MATERIALIZED (
      SELECT r.code, r.value FROM (${set.products}) s
      CROSS JOIN LATERAL (SELECT v.code, v.value FROM product_attribute_values v WHERE v.product_id = s.id AND v.code || '' = ANY(${set.codes}::text[]) OFFSET 0) r)`,
  );
  if (bitmaps) ctes.unshift(bitmaps);
  const body = Prisma.join(parts, ' UNION ALL ');
  return ctes.length ? Prisma.sql`WITH ${Prisma.join(ctes, ', ')} ${body}` : body;
}

/** A condition on a status column for a list's status filter. */
function statusSql(col: Prisma.Sql, status: 'active' | 'not_active' | 'draft' | 'archived'): Prisma.Sql {
  if (status === 'not_active') return Prisma.sql`AND ${col} <> 'active'`;
  return Prisma.sql`AND ${col} = ${status}::"ProductStatus"`;
}

/**
 * The CTE `attribute_selections`: per chunk of product ordinals, column m<i> is the bitmap of the products matching
 * filter i (any of its values, or its range), and `st` that of the products of the list's status; NULL where none
 * does. ANDing columns (selectionOf) selects the products matching those filters.
 */
export function attributeSelectionsSql(
  storeId: string,
  mode: Mode,
  filters: ResolvedAttributeFilter[],
  status: 'active' | 'not_active' | 'draft' | 'archived' | null,
): Prisma.Sql {
  const columns = filters.map((f, i) => Prisma.sql`bit_or(v.bits) FILTER (WHERE v.code = ${f.code} AND ${matchSql(f)}) AS ${Prisma.raw(`m${i}`)}`);
  const statuses = status
    ? Prisma.sql`UNION ALL SELECT v.chunk, NULL, NULL, NULL, v.bits FROM product_status_bitmaps v
        WHERE v.store_id = ${storeId}::uuid AND v.mode = ${mode}::"Mode" ${statusSql(Prisma.raw('v.status'), status)}`
    : Prisma.empty;
  return Prisma.sql`attribute_selections AS MATERIALIZED (
    SELECT v.chunk, ${Prisma.join(columns, ', ')}, ${status ? Prisma.raw('bit_or(v.bits) FILTER (WHERE v.code IS NULL)') : Prisma.raw('NULL::varbit')} AS st
    FROM (
      SELECT v.chunk, v.code, v.value, v.value_num, v.bits FROM product_attribute_value_bitmaps v
      WHERE v.store_id = ${storeId}::uuid AND v.mode = ${mode}::"Mode" AND v.code = ANY(${filters.map((f) => f.code)}::text[])
      ${statuses}
    ) v
    GROUP BY v.chunk)`;
}

/**
 * The bitmap (an expression over attribute_selections `s`) of the products matching every filter at these indexes and
 * the list's status.
 */
export function selectionOf(indexes: number[], status: string | null): Prisma.Sql {
  return Prisma.raw([...indexes.map((i) => `s.m${i}`), ...(status ? ['s.st'] : [])].join(' & '));
}

/** Facets from facetsSql's rows: listed values in the attribute's order, others by count; selected values always shown. */
export function facetsFromRows(
  facets: (AttributeDefinition & { selection?: ResolvedAttributeFilter })[],
  rows: { f: number; value: string | null; n: bigint | number | string | null; lo: string | null; hi: string | null }[],
): Facet[] {
  return facets.map((def, i) => {
    const own = rows.filter((r) => Number(r.f) === i);
    const base = { code: def.code, name: def.name, type: def.type, unit: def.unit };
    if (RANGE_TYPES.includes(def.type)) {
      const r = own[0];
      return { ...base, values: null, min: r?.lo ?? null, max: r?.hi ?? null };
    }
    const counts = new Map(own.map((r) => [r.value!, Number(r.n)]));
    const selected = new Set(def.selection?.values ?? []);
    const shown = (value: string) => (counts.get(value) ?? 0) > 0 || selected.has(value);
    const entry = (value: string, name: string, hex?: string): FacetValue => ({ value, name, ...(hex ? { hex } : {}), count: counts.get(value) ?? 0, selected: selected.has(value) });
    let values: FacetValue[];
    if (LISTED_TYPES.includes(def.type)) {
      values = def.values.filter((d) => shown(d.value)).map((d) => entry(d.value, d.name, d.hex));
    } else if (def.type === 'boolean') {
      values = ['true', 'false'].filter(shown).map((v) => entry(v, v));
    } else {
      const open = [...counts.keys(), ...[...selected].filter((v) => !counts.has(v))];
      values = open.map((v) => entry(v, v)).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    }
    return { ...base, values, min: null, max: null };
  });
}
