import { describe, expect, test } from "bun:test";
import { ALL_SEAT_CHARACTERISTICS, SEAT_LAYOUTS } from "@ndc/supply";
import { minorUnits } from "@ndc/money";
import { supply } from "./helpers";

describe("seat maps", () => {
  const s = supply();
  const narrow = s.flightsOn("LHR", "CDG", "2027-01-08")[0]!;
  const wide = s.flightsOn("FRA", "SIN", "2027-01-08")[0]!;

  test("every aircraft flown has a layout with an economy and a business cabin", () => {
    for (const layout of Object.values(SEAT_LAYOUTS)) {
      expect(layout.cabins.map((c) => c.cabin).sort()).toEqual(["BUSINESS", "ECONOMY"]);
    }
  });

  test("seatMap(flightKey) lists rows and columns of the flight's aircraft, each seat with characteristics, availability and price", () => {
    const map = s.seatMap(narrow.key)!;
    expect(map.aircraftCode).toBe(narrow.aircraft.code);
    const layout = SEAT_LAYOUTS[narrow.aircraft.code]!;
    for (const [i, cabin] of map.cabins.entries()) {
      const l = layout.cabins[i]!;
      expect(cabin.seats.length).toBe((l.lastRow - l.firstRow + 1) * l.blocks.flat().length);
      for (const seat of cabin.seats) {
        expect(seat.id).toBe(`${seat.row}${seat.column}`);
        expect(["available", "occupied"]).toContain(seat.availability);
        expect(Number.isSafeInteger(seat.price.amount)).toBe(true);
        for (const c of seat.characteristics) expect(ALL_SEAT_CHARACTERISTICS).toContain(c);
        expect(map.seatItemIds[seat.id]).toMatch(/^SEAT-/);
      }
    }
  });

  test("window, aisle and centre seats follow the aisles; exit rows are marked and closed to infants", () => {
    const eco = s.seatMap(narrow.key)!.cabins.find((c) => c.cabin === "ECONOMY")!;
    const row = (r: number) => eco.seats.filter((x) => x.row === r);
    const exitRow = SEAT_LAYOUTS[narrow.aircraft.code]!.cabins[1]!.exitRows[0]!;
    const plain = row(exitRow + 3);
    expect(plain.map((x) => x.characteristics[0])).toEqual(["W", "9", "A", "A", "9", "W"]);
    for (const seat of row(exitRow)) expect(seat.characteristics).toEqual(expect.arrayContaining(["E", "1A", "L"]));
    expect(eco.aisleAfter).toEqual(["C"]);
    const wideEco = s.seatMap(wide.key)!.cabins.find((c) => c.cabin === "ECONOMY")!;
    expect(wideEco.aisleAfter).toEqual(["C", "F"]);
  });

  test("some seats are free of charge and some priced; business seats are free; long-haul seats cost more", () => {
    const map = s.seatMap(narrow.key)!;
    const eco = map.cabins.find((c) => c.cabin === "ECONOMY")!.seats;
    expect(eco.some((x) => x.price.amount === 0)).toBe(true);
    expect(eco.some((x) => x.price.amount > 0)).toBe(true);
    for (const x of eco) expect(x.characteristics.includes("CH")).toBe(x.price.amount > 0);
    expect(map.cabins.find((c) => c.cabin === "BUSINESS")!.seats.every((x) => x.price.amount === 0)).toBe(true);
    const legroom = (m: NonNullable<ReturnType<typeof s.seatMap>>) => m.cabins[1]!.seats.find((x) => x.characteristics.includes("L"))!.price.amount;
    expect(legroom(s.seatMap(wide.key)!)).toBeGreaterThan(legroom(map));
  });

  test("occupancy is per flight: repeatable, partial, and different between flights", () => {
    const a = s.seatMap(narrow.key)!.cabins[1]!.seats.map((x) => x.availability);
    expect(supply().seatMap(narrow.key)!.cabins[1]!.seats.map((x) => x.availability)).toEqual(a);
    const occupied = a.filter((x) => x === "occupied").length;
    expect(occupied).toBeGreaterThan(0);
    expect(occupied).toBeLessThan(a.length);
    const other = s.seatMap(s.flightsOn("LHR", "CDG", "2027-01-09")[0]!.key)!.cabins[1]!.seats.map((x) => x.availability);
    expect(other).not.toEqual(a);
  });

  test("prices in the requested currency, exact minor units (JPY whole yen)", () => {
    const jpy = s.seatMap(narrow.key, "JPY")!;
    const eur = s.seatMap(narrow.key)!;
    expect(minorUnits("JPY")).toBe(0);
    const i = eur.cabins[1]!.seats.findIndex((x) => x.price.amount === 1_000);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(jpy.cabins[1]!.seats[i]!.price).toEqual({ amount: 1_624, currency: "JPY" });
    expect(jpy.seatItemIds["4A"]).not.toBe(eur.seatItemIds["4A"]);
  });

  test("an unknown or out-of-horizon flight has no seat map", () => {
    expect(s.seatMap("XB-100-2030-01-01")).toBeUndefined();
    expect(s.seatMap("garbage")).toBeUndefined();
  });
});
