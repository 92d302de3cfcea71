/**
 * The simulated SwO clearance schedule (docs/payments.md "Clearance"): the payer remits in the
 * settlement period after the commitment, on the first Thursday at least 7 days after the
 * capture's UTC day, and the Clearance Manager settles to the payee 2 days after remittance.
 * Real schedules are published per market by the Clearance Manager; this one only has to be
 * deterministic and plausible.
 */
const DAY_MS = 86_400_000;
const THURSDAY = 4;

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function clearanceDates(committedAt: number): { remittanceDate: string; settlementDate: string } {
  const day = Math.floor(committedAt / DAY_MS) * DAY_MS + 7 * DAY_MS;
  const weekday = new Date(day).getUTCDay();
  const remittance = day + ((THURSDAY - weekday + 7) % 7) * DAY_MS;
  return { remittanceDate: ymd(remittance), settlementDate: ymd(remittance + 2 * DAY_MS) };
}
