/** Time text as the API accepts it: strict RFC 3339, never what Date.parse would guess. A leaf module. */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 timestamp with its offset (`2026-05-01T09:00:00+02:00`, `…Z`), as a
 * Date; null for anything else, including impossible dates (February 30) that
 * Date.parse would roll over and offset-less times it would read as local.
 */
export function parseRfc3339(s: string): Date | null {
  const m = RFC3339.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (!m[8] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return null;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, m[7] ? Math.floor(Number(m[7]) * 1000) : 0);
  return new Date(d.getTime() - offsetMinutes * 60_000);
}

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
