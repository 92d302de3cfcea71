import { minorUnits, type CurrencyCode } from "@ndc/money";

/**
 * The engine's servicing fee by time to departure (spec 4.7, SHPOR1 rule 5), the one place it is
 * written: 25 / 50 / 75 with band edges at 72 h and 24 h. Fees are bare integers charged as the
 * same number in every currency (25 EUR, 25 GBP, 25 JPY), per passenger, and the fee is not keyed
 * by fare brand. An edge belongs to the band that starts at it: exactly 72 h before departure is
 * still 25, exactly 24 h is still 50 (docs/servicing.md).
 *
 * The spec states one fee, the change fee; it states no separate cancellation penalty. A refundable
 * outbound fare is cancelled less this same fee of the same band (decision 0015), so cancellation,
 * OrderRulesRS and OrderViewRS all read this one table (frozen onto the order as
 * `changeFeeBands`), measured from the one departure reading below.
 */
export interface FeeBand {
  /** Stable id, used as PenaltyID and in docs. */
  id: string;
  /** The band holds times to departure of at least this many hours (and less than the band before it). */
  fromHours: number;
  /** Bare integer, in major units of whatever currency the order or offer is in. */
  fee: number;
}

export const CHANGE_FEE_BANDS: readonly FeeBand[] = [
  { id: "CHG-72H", fromHours: 72, fee: 25 },
  { id: "CHG-24H", fromHours: 24, fee: 50 },
  { id: "CHG-0H", fromHours: 0, fee: 75 },
];

const HOUR_MS = 3_600_000;

/**
 * A departure "read as UTC": the local wall-clock time at the origin taken as if it were UTC,
 * as the engine does (SHPOR1 rule 5). Band edges and the departure cutoff are therefore off by the
 * origin's UTC offset, up to 13 hours (docs/servicing.md). `local` is YYYY-MM-DDTHH:MM.
 */
export function departureReadAsUtc(local: string): number {
  const ms = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  if (Number.isNaN(ms)) throw new RangeError(`not a local date-time: ${local}`);
  return ms;
}

/**
 * The departure every servicing fee of an order is measured from: the outbound direction's first
 * flight (SHPOR1 rule 2), read as UTC. Undefined when the schedule no longer knows that flight.
 */
export function outboundDepartureAsUtc(
  flight: (key: string) => { departure: { local: string } } | undefined,
  journeys: readonly { flightKeys: readonly string[] }[],
): number | undefined {
  const key = journeys[0]?.flightKeys[0];
  const first = key === undefined ? undefined : flight(key);
  return first ? departureReadAsUtc(first.departure.local) : undefined;
}

export type BandAt = { departed: false; band: FeeBand; hoursToDeparture: number } | { departed: true };

/** The band `now` falls in, before a departure read as UTC; departed at or after it (changes close at departure). */
export function bandAt(bands: readonly FeeBand[], departureAsUtcMs: number, now: number): BandAt {
  const ms = departureAsUtcMs - now;
  if (ms <= 0) return { departed: true };
  const band = bands.find((b) => ms >= b.fromHours * HOUR_MS) ?? bands[bands.length - 1]!;
  return { departed: false, band, hoursToDeparture: ms / HOUR_MS };
}

/** A band's fee for one passenger in minor units of `currency`: the bare integer in its major unit (25 EUR = 2500, 25 JPY = 25). */
export function bandFeeMinor(band: FeeBand, currency: string): number {
  return band.fee * 10 ** minorUnits(currency as CurrencyCode);
}

/** The PenaltyID of a band's cancellation fee (OrderRulesRS), beside the band's own id for the change fee. */
export function cancelPenaltyId(band: FeeBand): string {
  return `CXL-${band.fromHours}H`;
}
