/**
 * Dates in tests are read from the clock of the gateway under test, never from the calendar:
 * the sale window starts at the gateway's boot day, so a literal travel date stops being
 * bookable once the real date passes it. In-process gateways start a ManualClock at T0; `serve`
 * starts its sandbox clock there with SANDBOX_CLOCK_START; a gateway on the wall clock (the
 * signature tests) gives its own now to dayAfter.
 */
export const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
export const DAY_MS = 86_400_000;

/** The UTC calendar day (YYYY-MM-DD) `days` after the instant `from` (ms). */
export function dayAfter(from: number, days: number): string {
  return new Date(from + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The day `days` after the gateway under test started selling (its simulated supply's first day,
 * the day of its clock at boot). A gateway reached only over a socket is `serve` started at T0
 * (test/crash/support.ts).
 */
export function saleDay(t: object, days: number): string {
  const start = (t as { gw?: { supply?: { startDate?: string } } }).gw?.supply?.startDate;
  return dayAfter(start ? Date.parse(`${start}T00:00:00Z`) : T0, days);
}
