/**
 * Calendar dates as ISO strings (YYYY-MM-DD). Dates are civil days with no time zone: a flight's
 * date is its local departure date at the origin, the way airlines publish schedules.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function parseIsoDate(date: string): number {
  const m = ISO_DATE.exec(date);
  if (!m) throw new RangeError(`not an ISO date: ${date}`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (toIsoDate(ms) !== date) throw new RangeError(`not a calendar date: ${date}`);
  return ms;
}

export function toIsoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return toIsoDate(parseIsoDate(date) + days * 86_400_000);
}

/** Whole days from a to b (b later gives a positive number). */
export function daysBetween(a: string, b: string): number {
  return Math.round((parseIsoDate(b) - parseIsoDate(a)) / 86_400_000);
}

/** 0 = Monday ... 6 = Sunday (ISO weekday minus one). */
export function weekday(date: string): number {
  return (new Date(parseIsoDate(date)).getUTCDay() + 6) % 7;
}

/** 1..12 */
export function month(date: string): number {
  return Number(date.slice(5, 7));
}
