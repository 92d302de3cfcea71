/**
 * Local time at an airport. Schedules are published in local time, so a 07:10 departure stays
 * 07:10 across a daylight-saving change while its UTC time moves; Intl's tz database does the work.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Offset of the zone from UTC at that instant, in minutes (east positive). */
export function utcOffsetMinutes(timeZone: string, utcMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(utcMs))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/**
 * The UTC instant of a local wall-clock time. Two passes settle the offset; schedules avoid the
 * 01:00-03:00 window where a wall-clock time can be missing or doubled on a change day.
 */
export function localToUtc(timeZone: string, date: string, minutesOfDay: number): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutesOfDay * 60_000;
  let utc = wall - utcOffsetMinutes(timeZone, wall) * 60_000;
  utc = wall - utcOffsetMinutes(timeZone, utc) * 60_000;
  return utc;
}

export interface LocalTime {
  /** ISO instant in UTC, e.g. 2026-11-22T07:10:00Z */
  utc: string;
  /** Local wall-clock time without offset, e.g. 2026-11-22T08:10 */
  local: string;
  /** e.g. +01:00 */
  utcOffset: string;
  timeZone: string;
}

export function describeInstant(timeZone: string, utcMs: number): LocalTime {
  const offset = utcOffsetMinutes(timeZone, utcMs);
  const local = new Date(utcMs + offset * 60_000).toISOString().slice(0, 16);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const utcOffset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return { utc: new Date(utcMs).toISOString().replace(/\.\d{3}Z$/, "Z"), local, utcOffset, timeZone };
}
