/**
 * Aircraft types flown. Names are proper names and never translated. The layout code links a
 * type to its seat map (seats/layouts.ts).
 */
export interface AircraftType {
  /** IATA aircraft type code */
  code: string;
  name: string;
  wideBody: boolean;
}

export const AIRCRAFT: Readonly<Record<string, AircraftType>> = {
  "320": { code: "320", name: "Airbus A320-200", wideBody: false },
  "32Q": { code: "32Q", name: "Airbus A321neo", wideBody: false },
  "789": { code: "789", name: "Boeing 787-9 Dreamliner", wideBody: true },
  "359": { code: "359", name: "Airbus A350-900", wideBody: true },
  E90: { code: "E90", name: "Embraer 190", wideBody: false },
};

/** Which type a carrier puts on a route; partners fly their own fleet. */
export function aircraftFor(carrier: "own" | string, longHaul: boolean, frequency: number): AircraftType {
  if (carrier === "own") {
    if (longHaul) return AIRCRAFT[frequency % 2 === 0 ? "789" : "359"]!;
    return AIRCRAFT[frequency % 2 === 0 ? "320" : "32Q"]!;
  }
  return longHaul ? AIRCRAFT["359"]! : AIRCRAFT.E90!;
}

export function aircraft(code: string): AircraftType {
  const a = AIRCRAFT[code];
  if (!a) throw new RangeError(`unknown aircraft ${code}`);
  return a;
}
