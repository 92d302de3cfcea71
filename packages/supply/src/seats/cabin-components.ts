/**
 * What a cabin holds besides seats (24.4 SeatMap/CabinCompartment/CabinComponent): the simulated
 * airline's galleys, lavatories and exits, placed by row. Codes are PADIS 9978 cabin facilities
 * as the 24.4 schema lists them (G galley, LA lavatory); an exit is E.
 */
export interface CabinComponent {
  code: "G" | "LA" | "E";
  /** The row it stands by. */
  row: number;
  /** In front of (Before) or behind (After) that row; absent: beside it (an overwing exit). */
  position?: "Before" | "After";
  /** The seat columns it is beside (a door on each side: the two window columns); none: across the cabin. */
  columns?: readonly string[];
}

type Blocks = readonly (readonly string[])[];
const sides = (blocks: Blocks): string[] => [blocks[0]![0]!, blocks[blocks.length - 1]!.at(-1)!];

/** The front of a cabin entered by a door: a galley across, a lavatory on the left, the doors. */
export function frontOf(row: number, blocks: Blocks): CabinComponent[] {
  return [
    { code: "G", row, position: "Before" },
    { code: "LA", row, position: "Before", columns: [blocks[0]![0]!] },
    { code: "E", row, position: "Before", columns: sides(blocks) },
  ];
}

/** Exits beside rows (overwing, or a wide body's doors between seat rows), both sides. */
export function exitsAt(rows: readonly number[], blocks: Blocks): CabinComponent[] {
  return rows.map((row) => ({ code: "E" as const, row, columns: sides(blocks) }));
}

/** The rear of the aircraft: lavatories on both sides, a galley across, the rear doors. */
export function rearOf(row: number, blocks: Blocks): CabinComponent[] {
  return [
    { code: "LA", row, position: "After", columns: sides(blocks) },
    { code: "G", row, position: "After" },
    { code: "E", row, position: "After", columns: sides(blocks) },
  ];
}
