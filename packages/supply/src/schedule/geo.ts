/**
 * Airport positions, used only to derive distances (fares and block times scale with them).
 * Distances are rounded to whole kilometres so the float trigonometry never reaches a price.
 */
const POSITIONS: Readonly<Record<string, readonly [number, number]>> = {
  LHR: [51.47, -0.4543],
  CDG: [49.0097, 2.5479],
  FRA: [50.0379, 8.5622],
  MAD: [40.4983, -3.5676],
  FCO: [41.8003, 12.2389],
  AMS: [52.3105, 4.7683],
  JFK: [40.6413, -73.7781],
  DXB: [25.2532, 55.3657],
  SIN: [1.3644, 103.9915],
  GRU: [-23.4356, -46.4731],
};

export function distanceKm(from: string, to: string): number {
  const a = POSITIONS[from];
  const b = POSITIONS[to];
  if (!a || !b) throw new RangeError(`unknown airport ${a ? to : from}`);
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * 6371 * Math.asin(Math.sqrt(h)));
}

/** Long-haul above this distance: wide-body aircraft, one daily frequency, long-haul seat prices. */
export const LONG_HAUL_KM = 3000;

/** Gate-to-gate minutes: cruise at ~820 km/h plus 35 minutes of taxi and climb, rounded to 5. */
export function blockMinutes(from: string, to: string): number {
  const raw = Math.round((distanceKm(from, to) * 60) / 820) + 35;
  return Math.round(raw / 5) * 5;
}
