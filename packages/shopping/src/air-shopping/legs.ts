import type { AirShoppingRequest, OriginDestCriterion } from "../model";
import { brandsForCabin, type FareBrand, type Journey, type Supply } from "@ndc/supply";
import { cabinsWanted, requireStation } from "../common/request";

/** One requested leg with the journeys that serve it and the brands its cabins allow. */
export interface Leg {
  originDestId: string;
  journeys: Journey[];
  brands: FareBrand[];
}

/** Above this many journey combinations a multi-city shop keeps the earliest ones (documented limit). */
export const MAX_JOURNEY_COMBINATIONS = 30;

function journeysFor(supply: Supply, od: OriginDestCriterion): Journey[] {
  const all = supply.journeys(od.origin, od.destination, od.departureDate);
  if (od.flights.length === 0) return all;
  // SpecificOriginDestinations: only the journey made of exactly the flights named.
  const wanted = od.flights.map((f) => `${f.marketingCarrier}-${Number(f.flightNumber)}-${f.departureDate}`);
  return all.filter((j) => j.segments.length === wanted.length && j.segments.every((s, i) => s.key === wanted[i]));
}

export function legsOf(supply: Supply, request: AirShoppingRequest): Leg[] {
  return request.originDestinations.map((od, i) => {
    const at = `Request/FlightRequest/OriginDestCriteria[${i + 1}]`;
    requireStation(od.origin, `${at}/OriginDepCriteria/IATA_LocationCode`);
    requireStation(od.destination, `${at}/DestArrivalCriteria/IATA_LocationCode`);
    const cabins = cabinsWanted(od.cabins, `${at}/CabinType/CabinTypeCode`);
    return {
      originDestId: od.originDestId ?? `OD${i + 1}`,
      journeys: journeysFor(supply, od),
      brands: cabins.flatMap((c) => brandsForCabin(c)).sort((a, b) => a.rank - b.rank),
    };
  });
}

/** Journey combinations (one journey per leg, legs in travel order), earliest first, capped. */
export function combinations(legs: readonly Leg[]): Journey[][] {
  let out: Journey[][] = [[]];
  for (const leg of legs) {
    const next: Journey[][] = [];
    for (const prefix of out) {
      const last = prefix[prefix.length - 1];
      for (const j of leg.journeys) {
        // A later leg must leave after the earlier one has landed.
        if (last && j.segments[0]!.departureUtcMs <= last.segments[last.segments.length - 1]!.arrivalUtcMs) continue;
        next.push([...prefix, j]);
        if (next.length >= MAX_JOURNEY_COMBINATIONS) break;
      }
      if (next.length >= MAX_JOURNEY_COMBINATIONS) break;
    }
    out = next;
  }
  return legs.length ? out : [];
}

/** Brands every leg allows and every flight of the combination has the cabin for. */
export function brandsFor(legs: readonly Leg[], combo: readonly Journey[]): FareBrand[] {
  const common = legs[0]!.brands.filter((b) => legs.every((l) => l.brands.some((x) => x.code === b.code)));
  return common.filter((b) => combo.every((j) => j.segments.every((s) => s.cabins.includes(b.cabin))));
}
