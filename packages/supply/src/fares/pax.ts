/** Passenger types priced (PTC). */
export type PaxType = "ADT" | "CHD" | "INF";
export const PAX_TYPES: readonly PaxType[] = ["ADT", "CHD", "INF"];

/** Passengers occupying a seat and paying a full fare share; infants travel on a lap. */
export const FARE_PAYING: readonly PaxType[] = ["ADT", "CHD"];
