/**
 * Merging the selection a GraphQL resolver plans (Pothos' `query`) with the
 * relations a write needs for its event (a representation's include), so the
 * row a write reads back serves both in one statement.
 */
type Tree = Record<string, unknown>;
type Selection = boolean | Tree;

const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyScalars = (select: Tree) => Object.values(select).every((v) => v === true);

/** One relation's selection from two: `true` (all scalars) and a scalar-only select give `true`; trees merge key by key. */
function mergeSelection(a: Selection | undefined, b: Selection | undefined): Selection | undefined {
  if (a === undefined || a === false) return b;
  if (b === undefined || b === false) return a;
  if (a === true && b === true) return true;
  if (a === true) return widen(b as Tree);
  if (b === true) return widen(a);
  return mergeArgs(a, b);
}

/** `true` merged with a relation's arguments: all scalars, plus what the tree adds. */
function widen(t: Tree): Selection {
  if (isTree(t.select)) {
    if (onlyScalars(t.select)) {
      const { select: _dropped, ...rest } = t;
      return Object.keys(rest).length ? rest : true;
    }
    const relations = Object.fromEntries(Object.entries(t.select).filter(([, v]) => v !== true));
    const { select: _dropped, ...rest } = t;
    return { ...rest, include: relations };
  }
  return t;
}

/** Two argument objects of one relation (`select`/`include`, `orderBy`, `where`…): the first one's arguments win. */
function mergeArgs(a: Tree, b: Tree): Tree {
  const out: Tree = { ...b, ...a };
  if (isTree(a.include) || isTree(b.include)) out.include = mergeTrees(a.include as Tree | undefined, b.include as Tree | undefined);
  if (isTree(a.select) && isTree(b.select)) out.select = mergeTrees(a.select, b.select);
  else if (isTree(a.select) || isTree(b.select)) {
    // One side selects some fields, the other all scalars: include all scalars and the selected relations.
    const select = (isTree(a.select) ? a.select : b.select) as Tree;
    delete out.select;
    out.include = mergeTrees(out.include as Tree | undefined, Object.fromEntries(Object.entries(select).filter(([, v]) => v !== true)));
  }
  return out;
}

function mergeTrees(a: Tree | undefined, b: Tree | undefined): Tree {
  const out: Tree = { ...(b ?? {}) };
  for (const [k, v] of Object.entries(a ?? {})) out[k] = mergeSelection(v as Selection, b?.[k] as Selection | undefined);
  return out;
}

/**
 * The planned query (`{include}`, `{select}` or `{}`) widened by `include`:
 * every scalar, the planned relations and the extra ones. A `select` plan
 * becomes an include of its relations (scalars are all read anyway).
 */
export function withIncludes<I extends Tree>(query: { include?: unknown; select?: unknown }, include: I): { include: I } {
  if (isTree(query.select)) {
    const relations = Object.fromEntries(Object.entries(query.select).filter(([, v]) => v !== true));
    return { include: mergeTrees(relations, include) as I };
  }
  return { include: mergeTrees(query.include as Tree | undefined, include) as I };
}
