/**
 * The simulated airline's network: the airports it serves and the city pairs it flies.
 * Published in the discovery document outside production so sellers know what to shop.
 * (The schedule, fares and seat maps built on it come with the shopping issue.)
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

/** Direct routes, flown both ways. Every other pair is served with one stop through a hub. */
export const DIRECT_ROUTES: readonly (readonly [string, string])[] = [
  ["LHR", "CDG"], ["LHR", "FRA"], ["LHR", "MAD"], ["LHR", "JFK"], ["LHR", "DXB"],
  ["CDG", "FRA"], ["CDG", "FCO"], ["CDG", "AMS"], ["CDG", "GRU"], ["CDG", "JFK"],
  ["FRA", "AMS"], ["FRA", "SIN"], ["FRA", "DXB"], ["MAD", "FCO"], ["MAD", "GRU"],
  ["DXB", "SIN"],
];

/** Every ordered [origin, destination] pair the airline sells, directly or with one connection. */
export function cityPairs(): [string, string][] {
  const direct = new Set<string>();
  for (const [a, b] of DIRECT_ROUTES) {
    direct.add(`${a}-${b}`);
    direct.add(`${b}-${a}`);
  }
  const pairs: [string, string][] = [];
  for (const o of AIRPORTS) {
    for (const d of AIRPORTS) {
      if (o.code === d.code) continue;
      const served =
        direct.has(`${o.code}-${d.code}`) ||
        AIRPORTS.some((h) => direct.has(`${o.code}-${h.code}`) && direct.has(`${h.code}-${d.code}`));
      if (served) pairs.push([o.code, d.code]);
    }
  }
  return pairs;
}
