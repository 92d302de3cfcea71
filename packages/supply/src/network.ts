/**
 * The simulated airline's network: the airports it serves and the city pairs it flies.
 * Published in the discovery document outside production so sellers know what to shop.
 * The schedule (schedule/), fares (fares/) and seat maps (seats/) are built on it.
 */
export interface Airport {
  code: string;
  city: string;
  country: string;
  timeZone: string;
}

export const AIRPORTS: readonly Airport[] = [
  { code: "LHR", city: "London", country: "GB", timeZone: "Europe/London" },
  { code: "CDG", city: "Paris", country: "FR", timeZone: "Europe/Paris" },
  { code: "FRA", city: "Frankfurt", country: "DE", timeZone: "Europe/Berlin" },
  { code: "MAD", city: "Madrid", country: "ES", timeZone: "Europe/Madrid" },
  { code: "FCO", city: "Rome", country: "IT", timeZone: "Europe/Rome" },
  { code: "AMS", city: "Amsterdam", country: "NL", timeZone: "Europe/Amsterdam" },
  { code: "JFK", city: "New York", country: "US", timeZone: "America/New_York" },
  { code: "DXB", city: "Dubai", country: "AE", timeZone: "Asia/Dubai" },
  { code: "SIN", city: "Singapore", country: "SG", timeZone: "Asia/Singapore" },
  { code: "GRU", city: "Sao Paulo", country: "BR", timeZone: "America/Sao_Paulo" },
];

const US_AIRPORTS = new Set(AIRPORTS.filter((a) => a.country === "US").map((a) => a.code));

/**
 * Whether a flight falls under the US TSA's Secure Flight programme (DatedOperatingSegment
 * SecureFlightInd): every flight to, from or within the United States.
 */
export function secureFlightApplies(origin: string, destination: string): boolean {
  return US_AIRPORTS.has(origin) || US_AIRPORTS.has(destination);
}

/** Direct routes, flown both ways. Every other pair is served with one stop through a hub. */
export const DIRECT_ROUTES: readonly (readonly [string, string])[] = [
  ["LHR", "CDG"], ["LHR", "FRA"], ["LHR", "MAD"], ["LHR", "JFK"], ["LHR", "DXB"],
  ["CDG", "FRA"], ["CDG", "FCO"], ["CDG", "AMS"], ["CDG", "GRU"], ["CDG", "JFK"],
  ["FRA", "AMS"], ["FRA", "SIN"], ["FRA", "DXB"], ["MAD", "FCO"], ["MAD", "GRU"],
  ["DXB", "SIN"],
];

/**
 * Routes the airline does not fly itself but sells on a partner's flight (SHPITL interline),
 * flown both ways by the named partner (schedule/carriers.ts). They open pairs our own network
 * cannot connect, e.g. Rome to Singapore through Dubai.
 */
export const INTERLINE_ROUTES: readonly (readonly [string, string, string])[] = [
  ["FCO", "DXB", "K5"],
  ["JFK", "GRU", "Q7"],
];

/** Airports where one-stop journeys connect. Every pair without a direct route connects at one of them. */
export const HUBS: readonly string[] = ["LHR", "CDG", "FRA", "MAD", "DXB"];

/** Every ordered [origin, destination] pair the airline sells, directly or with one connection. */
export function cityPairs(): [string, string][] {
  const direct = new Set<string>();
  for (const [a, b] of [...DIRECT_ROUTES, ...INTERLINE_ROUTES]) {
    direct.add(`${a}-${b}`);
    direct.add(`${b}-${a}`);
  }
  const pairs: [string, string][] = [];
  for (const o of AIRPORTS) {
    for (const d of AIRPORTS) {
      if (o.code === d.code) continue;
      const served =
        direct.has(`${o.code}-${d.code}`) ||
        HUBS.some((h) => direct.has(`${o.code}-${h}`) && direct.has(`${h}-${d.code}`));
      if (served) pairs.push([o.code, d.code]);
    }
  }
  return pairs;
}
