/**
 * A flight key names one flight on one day: marketing carrier, number and local departure date,
 * e.g. "XB-100-2026-11-22". It is what seat inventory and seat maps are keyed on, and is stable
 * because it is built from the published schedule, not from a counter.
 */
export interface FlightKeyParts {
  carrier: string;
  number: number;
  date: string;
}

export function flightKey(p: FlightKeyParts): string {
  return `${p.carrier}-${p.number}-${p.date}`;
}

export function parseFlightKey(key: string): FlightKeyParts | undefined {
  const m = /^([A-Z0-9]{2,3})-(\d{1,4})-(\d{4}-\d{2}-\d{2})$/.exec(key);
  if (!m) return undefined;
  return { carrier: m[1]!, number: Number(m[2]), date: m[3]! };
}
