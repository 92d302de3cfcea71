import { addDays, daysBetween, parseIsoDate } from "../core/dates";
import { describeInstant, localToUtc, type LocalTime } from "../core/timezone";
import { AIRPORTS } from "../network";
import { aircraftFor, type AircraftType } from "./aircraft";
import { PARTNERS, type Carrier } from "./carriers";
import { flightKey, parseFlightKey } from "./flight-key";
import { blockMinutes, distanceKm } from "./geo";
import type { ScheduledLeg } from "./timetable";

/** Days of schedule on sale from the supply's start date (that day included). */
export const HORIZON_DAYS = 330;

export type CabinCode = "BUSINESS" | "ECONOMY";

export interface Flight {
  /** e.g. XB-100-2026-11-22 (flight-key.ts) */
  key: string;
  /** Local departure date at the origin. */
  date: string;
  origin: string;
  destination: string;
  kind: ScheduledLeg["kind"];
  marketing: { carrier: Carrier; number: number };
  operating: { carrier: Carrier; number: number };
  departure: LocalTime;
  arrival: LocalTime;
  departureUtcMs: number;
  arrivalUtcMs: number;
  durationMinutes: number;
  distanceKm: number;
  aircraft: AircraftType;
  cabins: readonly CabinCode[];
}

function timeZoneOf(code: string): string {
  const a = AIRPORTS.find((x) => x.code === code);
  if (!a) throw new RangeError(`unknown airport ${code}`);
  return a.timeZone;
}

/** Places the daily schedule on calendar days, within the sale horizon. */
export class FlightSchedule {
  private readonly byRoute = new Map<string, ScheduledLeg[]>();
  private readonly byNumber = new Map<string, ScheduledLeg>();
  private readonly cache = new Map<string, Flight>();

  constructor(
    legs: readonly ScheduledLeg[],
    readonly startDate: string,
    private readonly own: Carrier,
  ) {
    parseIsoDate(startDate);
    for (const leg of legs) {
      const route = `${leg.origin}-${leg.destination}`;
      const list = this.byRoute.get(route) ?? [];
      list.push(leg);
      list.sort((x, y) => x.departureMinutes - y.departureMinutes);
      this.byRoute.set(route, list);
      this.byNumber.set(`${leg.marketingCarrier}-${leg.marketingNumber}`, leg);
    }
  }

  get lastDate(): string {
    return addDays(this.startDate, HORIZON_DAYS - 1);
  }

  inHorizon(date: string): boolean {
    const d = daysBetween(this.startDate, date);
    return d >= 0 && d < HORIZON_DAYS;
  }

  hasDirect(origin: string, destination: string): boolean {
    return this.byRoute.has(`${origin}-${destination}`);
  }

  /** Flights leaving on that local date, earliest first; none outside the horizon. */
  flightsOn(origin: string, destination: string, date: string): Flight[] {
    if (!this.inHorizon(date)) return [];
    return (this.byRoute.get(`${origin}-${destination}`) ?? []).map((leg) => this.place(leg, date));
  }

  flight(key: string): Flight | undefined {
    const p = parseFlightKey(key);
    if (!p || !this.inHorizon(p.date)) return undefined;
    const leg = this.byNumber.get(`${p.carrier}-${p.number}`);
    return leg ? this.place(leg, p.date) : undefined;
  }

  private carrier(code: string): Carrier {
    return code === this.own.code ? this.own : PARTNERS[code]!;
  }

  private place(leg: ScheduledLeg, date: string): Flight {
    const key = flightKey({ carrier: leg.marketingCarrier, number: leg.marketingNumber, date });
    const hit = this.cache.get(key);
    if (hit) return hit;
    const departureUtcMs = localToUtc(timeZoneOf(leg.origin), date, leg.departureMinutes);
    const durationMinutes = blockMinutes(leg.origin, leg.destination);
    const arrivalUtcMs = departureUtcMs + durationMinutes * 60_000;
    const operatedByUs = leg.operatingCarrier === this.own.code;
    const flight: Flight = {
      key,
      date,
      origin: leg.origin,
      destination: leg.destination,
      kind: leg.kind,
      marketing: { carrier: this.carrier(leg.marketingCarrier), number: leg.marketingNumber },
      operating: { carrier: this.carrier(leg.operatingCarrier), number: leg.operatingNumber },
      departure: describeInstant(timeZoneOf(leg.origin), departureUtcMs),
      arrival: describeInstant(timeZoneOf(leg.destination), arrivalUtcMs),
      departureUtcMs,
      arrivalUtcMs,
      durationMinutes,
      distanceKm: distanceKm(leg.origin, leg.destination),
      aircraft: aircraftFor(operatedByUs ? "own" : leg.operatingCarrier, leg.longHaul, leg.frequency),
      cabins: ["BUSINESS", "ECONOMY"],
    };
    this.cache.set(key, flight);
    return flight;
  }
}
