/** Passenger types priced (PTC). */
export type PaxType = "ADT" | "CHD" | "INF";
export const PAX_TYPES: readonly PaxType[] = ["ADT", "CHD", "INF"];

/** Passengers occupying a seat and paying a full fare share; infants travel on a lap. */
export const FARE_PAYING: readonly PaxType[] = ["ADT", "CHD"];

/**
 * Seated passengers one request may carry (docs/messages/AirShoppingRQ.md, OrderCreateRQ.md):
 * the common airline limit for one booking; larger parties are groups, which this airline does
 * not sell. Without it an AirShoppingRS grows with the square of the party (a 3 MB answer for
 * 100 adults). Lap infants (INF) take no seat: they count apart, at most one per adult.
 */
export const MAX_SEATED_PAX = 9;

/** Why a party breaks the size rule, and which passenger (0-based, in request order) breaks it. */
export interface PartyBreach {
  index: number;
  detail: string;
}

/**
 * The party-size rule, in one place for every message that carries passengers: at most
 * MAX_SEATED_PAX passengers with a seat (anything but INF, a passenger of unknown type
 * included) and no more lap infants than adults. Undefined when the party is within it.
 */
export function partyBreach(ptcs: readonly (string | undefined)[]): PartyBreach | undefined {
  let seated = 0;
  const adults = ptcs.filter((p) => p === "ADT").length;
  let infants = 0;
  for (let i = 0; i < ptcs.length; i++) {
    if (ptcs[i] === "INF") {
      infants++;
      if (infants > adults) return { index: i, detail: `Each lap infant (INF) travels on an adult's lap: ${ptcs.filter((p) => p === "INF").length} infants, ${adults} adults.` };
    } else if (++seated > MAX_SEATED_PAX) {
      return { index: i, detail: `At most ${MAX_SEATED_PAX} seated passengers per request (lap infants count apart); ${ptcs.filter((p) => p !== "INF").length} were sent.` };
    }
  }
  return undefined;
}
