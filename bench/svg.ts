/** A small dependency-free SVG line chart (log or linear axes), enough for the bench's growth curves. */

export interface Series {
  name: string;
  points: [number, number][];
  dashed?: boolean;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  xLog?: boolean;
  yLog?: boolean;
  /** Tick labels for x (defaults to the points' x values). */
  xTicks?: { value: number; label: string }[];
  series: Series[];
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
const W = 760;
const H = 440;
const M = { left: 70, right: 230, top: 40, bottom: 55 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toPrecision(2));

function scale(values: number[], log: boolean, from: number, to: number) {
  const t = (v: number) => (log ? Math.log10(Math.max(v, 1e-9)) : v);
  let lo = Math.min(...values.map(t));
  let hi = Math.max(...values.map(t));
  if (!log) lo = Math.min(lo, 0);
  if (hi === lo) hi = lo + 1;
  const pad = log ? 0.05 * (hi - lo) : 0;
  lo -= pad;
  hi += log ? pad : 0.05 * (hi - lo);
  return { map: (v: number) => from + ((t(v) - lo) / (hi - lo)) * (to - from), lo, hi };
}

function yTicks(lo: number, hi: number, log: boolean): number[] {
  if (log) {
    const out: number[] = [];
    for (let e = Math.floor(lo); e <= Math.ceil(hi); e++) for (const m of [1, 2, 5]) out.push(m * 10 ** e);
    return out.filter((v) => Math.log10(v) >= lo && Math.log10(v) <= hi);
  }
  const step = 10 ** Math.floor(Math.log10((hi - lo) / 5));
  const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => (hi - lo) / s <= 8) ?? step * 10;
  const out: number[] = [];
  for (let v = Math.ceil(lo / nice) * nice; v <= hi; v += nice) out.push(v);
  return out;
}

export function lineChart(o: ChartOptions): string {
  const all = o.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="15" font-weight="bold">${esc(o.title)}</text>`,
  ];
  if (!all.length) {
    parts.push(`<text x="${W / 2}" y="${H / 2}" text-anchor="middle">no data</text></svg>`);
    return parts.join('\n');
  }
  const x = scale(all.map((p) => p[0]), !!o.xLog, M.left, W - M.right);
  const y = scale(all.map((p) => p[1]), !!o.yLog, H - M.bottom, M.top);
  const [x0, x1, y0, y1] = [M.left, W - M.right, H - M.bottom, M.top];
  parts.push(`<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y0}" stroke="#333"/><line x1="${x0}" y1="${y0}" x2="${x0}" y2="${y1}" stroke="#333"/>`);
  for (const v of yTicks(y.lo, y.hi, !!o.yLog)) {
    const py = y.map(v).toFixed(1);
    parts.push(`<line x1="${x0}" y1="${py}" x2="${x1}" y2="${py}" stroke="#e5e5e5"/><text x="${x0 - 6}" y="${py}" text-anchor="end" dominant-baseline="middle">${fmt(v)}</text>`);
  }
  const xt = o.xTicks ?? [...new Set(all.map((p) => p[0]))].sort((a, b) => a - b).map((v) => ({ value: v, label: fmt(v) }));
  for (const t of xt) {
    const px = x.map(t.value).toFixed(1);
    parts.push(`<line x1="${px}" y1="${y0}" x2="${px}" y2="${y0 + 5}" stroke="#333"/><text x="${px}" y="${y0 + 18}" text-anchor="middle">${esc(t.label)}</text>`);
  }
  parts.push(`<text x="${(x0 + x1) / 2}" y="${H - 12}" text-anchor="middle">${esc(o.xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${(y0 + y1) / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`);
  o.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = s.points.filter(([px, py]) => Number.isFinite(px) && Number.isFinite(py)).sort((a, b) => a[0] - b[0]);
    const d = pts.map(([px, py], j) => `${j ? 'L' : 'M'}${x.map(px).toFixed(1)},${y.map(py).toFixed(1)}`).join(' ');
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const [px, py] of pts) parts.push(`<circle cx="${x.map(px).toFixed(1)}" cy="${y.map(py).toFixed(1)}" r="3" fill="${color}"><title>${esc(s.name)}: ${fmt(py)}</title></circle>`);
    const ly = M.top + 8 + i * 18;
    parts.push(`<line x1="${x1 + 15}" y1="${ly}" x2="${x1 + 40}" y2="${ly}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/><text x="${x1 + 46}" y="${ly}" dominant-baseline="middle">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
