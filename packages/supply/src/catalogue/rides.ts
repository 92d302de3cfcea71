import { BASE_CURRENCY } from "../exchange/rates";
import { money, type Money } from "@ndc/money";

/**
 * Ground rides (SHPMOD) to and from the airports: rail, coach and private car. Operator names
 * are proper names (not translated). Ride descriptions are composed by the gateway in English
 * (spec 4.8 rule 2), so rides carry facts, not text keys.
 */
export type RideMode = "rail" | "coach" | "privateCar";

export interface Ride {
  code: string;
  mode: RideMode;
  operator: string;
  airport: string;
  /** The other end of the ride, as its operator names it. */
  place: string;
  durationMinutes: number;
  /** Rail and coach are priced per passenger, a private car per vehicle (up to `seats`). */
  pricedPer: "passenger" | "vehicle";
  seats: number;
  price: Money;
  taxonomyCode: string;
}

const NODE: Readonly<Record<RideMode, string>> = { rail: "2E7C", coach: "2FA8", privateCar: "2CEC" };
const ride = (r: Omit<Ride, "taxonomyCode" | "price"> & { cents: number }): Ride => {
  const { cents, ...rest } = r;
  return { ...rest, price: money(cents, BASE_CURRENCY), taxonomyCode: NODE[r.mode] };
};

export const RIDES: readonly Ride[] = [
  ride({ code: "RD-LHR-RAIL", mode: "rail", operator: "Heathrow Express", airport: "LHR", place: "London Paddington", durationMinutes: 15, pricedPer: "passenger", seats: 1, cents: 2_900 }),
  ride({ code: "RD-LHR-COACH", mode: "coach", operator: "National Express", airport: "LHR", place: "London Victoria", durationMinutes: 50, pricedPer: "passenger", seats: 1, cents: 1_150 }),
  ride({ code: "RD-LHR-CAR", mode: "privateCar", operator: "Thames Chauffeurs", airport: "LHR", place: "Central London", durationMinutes: 60, pricedPer: "vehicle", seats: 4, cents: 9_500 }),
  ride({ code: "RD-CDG-RAIL", mode: "rail", operator: "SNCF TGV INOUI", airport: "CDG", place: "Lille Europe", durationMinutes: 55, pricedPer: "passenger", seats: 1, cents: 3_900 }),
  ride({ code: "RD-CDG-COACH", mode: "coach", operator: "Roissybus", airport: "CDG", place: "Paris Opéra", durationMinutes: 60, pricedPer: "passenger", seats: 1, cents: 1_660 }),
  ride({ code: "RD-FRA-RAIL", mode: "rail", operator: "Deutsche Bahn", airport: "FRA", place: "Köln Hbf", durationMinutes: 55, pricedPer: "passenger", seats: 1, cents: 4_500 }),
  ride({ code: "RD-AMS-RAIL", mode: "rail", operator: "NS International", airport: "AMS", place: "Rotterdam Centraal", durationMinutes: 27, pricedPer: "passenger", seats: 1, cents: 1_780 }),
  ride({ code: "RD-MAD-COACH", mode: "coach", operator: "Exprés Aeropuerto", airport: "MAD", place: "Madrid Atocha", durationMinutes: 40, pricedPer: "passenger", seats: 1, cents: 500 }),
  ride({ code: "RD-DXB-CAR", mode: "privateCar", operator: "Desert Falcon Limousines", airport: "DXB", place: "Dubai Marina", durationMinutes: 35, pricedPer: "vehicle", seats: 4, cents: 6_500 }),
  ride({ code: "RD-JFK-CAR", mode: "privateCar", operator: "Empire Black Car", airport: "JFK", place: "Midtown Manhattan", durationMinutes: 70, pricedPer: "vehicle", seats: 3, cents: 11_000 }),
  ride({ code: "RD-SIN-COACH", mode: "coach", operator: "Changi Airport Shuttle", airport: "SIN", place: "City hotels", durationMinutes: 30, pricedPer: "passenger", seats: 1, cents: 700 }),
];

export function ridesAt(airport: string): Ride[] {
  return RIDES.filter((r) => r.airport === airport);
}

export function rideByCode(code: string): Ride | undefined {
  return RIDES.find((r) => r.code === code);
}
