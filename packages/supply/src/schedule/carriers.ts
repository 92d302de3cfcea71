/**
 * Carriers. Names are proper names: they are never translated (spec 4.8 rule 3), so they live
 * here and not in the dictionaries.
 */
export interface Carrier {
  code: string;
  name: string;
}

/** Our airline; its designator comes from configuration (AIRLINE_DESIGNATOR, default XB). */
export function ownCarrier(designator: string, name = "Example Airways"): Carrier {
  return { code: designator, name };
}

/** Partners (SHPITL): they operate codeshares we market and interline routes we sell. */
export const PARTNERS: Readonly<Record<string, Carrier>> = {
  Q7: { code: "Q7", name: "Meridia Atlantic" },
  K5: { code: "K5", name: "Sunda Air" },
};

/**
 * Codeshares: on these routes one of our frequencies is operated by the partner (we market it
 * under our number, the partner operates it under its own).
 */
export const CODESHARES: readonly { route: readonly [string, string]; frequency: number; operator: string }[] = [
  { route: ["LHR", "JFK"], frequency: 1, operator: "Q7" },
  { route: ["DXB", "SIN"], frequency: 0, operator: "K5" },
];

export function partner(code: string): Carrier {
  const c = PARTNERS[code];
  if (!c) throw new RangeError(`unknown partner ${code}`);
  return c;
}
