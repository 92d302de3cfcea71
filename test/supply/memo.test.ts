import { describe, expect, test } from "bun:test";
import { createSupply, SUPPLY_MEMO_MAX } from "@ndc/supply";
import { Memo } from "../../packages/supply/src/core/memo";

/**
 * Pure supply answers (journeys, fares, priced seat maps) are computed once per process and shared
 * by every request (issue 8, section 3), in bounded memos whose values are frozen. That seat
 * AVAILABILITY is never part of them is proven over HTTP by
 * test/shopping/seat-availability-live.test.ts (the seat map is memoised before the seat is sold,
 * and the next SeatAvailabilityRS shows it occupied).
 */
describe("the supply memo", () => {
  const supply = createSupply({ seed: 42, startDate: "2026-11-21" });

  test("the same arguments answer the same object; other arguments a different one", () => {
    const j = supply.journeys("LHR", "FRA", "2026-12-01");
    expect(supply.journeys("LHR", "FRA", "2026-12-01")).toBe(j);
    expect(supply.journeys("LHR", "FRA", "2026-12-02")).not.toBe(j);
    const p = supply.priceJourney(j[0]!, "FLEX", { ADT: 2, CHD: 1 }, "EUR");
    expect(supply.priceJourney(j[0]!, "FLEX", { CHD: 1, ADT: 2 }, "EUR")).toBe(p);
    expect(supply.priceJourney(j[0]!, "FLEX", { ADT: 1, CHD: 1 }, "EUR")).not.toBe(p);
    expect(supply.priceJourney(j[0]!, "FLEX", { ADT: 2, CHD: 1 }, "USD")).not.toBe(p);
    const key = j[0]!.segments[0]!.key;
    expect(supply.seatMap(key, "EUR")).toBe(supply.seatMap(key, "EUR")!);
    expect(supply.seatMap(key, "GBP")).not.toBe(supply.seatMap(key, "EUR")!);
  });

  test("a memoised answer equals a fresh computation (a second supply with the same seed)", () => {
    const other = createSupply({ seed: 42, startDate: "2026-11-21" });
    const j = supply.journeys("LHR", "CDG", "2026-12-03");
    expect(other.journeys("LHR", "CDG", "2026-12-03")).toEqual(j);
    expect(other.priceJourney(j[0]!, "SAVER", { ADT: 1 }, "GBP")).toEqual(supply.priceJourney(j[0]!, "SAVER", { ADT: 1 }, "GBP"));
  });

  test("shared answers are frozen: changing one in place throws instead of changing later answers", () => {
    const map = supply.seatMap(supply.journeys("LHR", "FRA", "2026-12-01")[0]!.segments[0]!.key, "EUR")!;
    const seat = map.cabins[0]!.seats[0]! as { availability: string };
    expect(() => {
      seat.availability = "occupied";
    }).toThrow();
  });

  test("bounded: least recently used entries are dropped beyond the maximum", () => {
    const m = new Memo<{ n: number }>(3);
    for (let n = 0; n < 3; n++) m.get(`k${n}`, () => ({ n }));
    const k0 = m.get("k0", () => ({ n: -1 })); // a hit: k0 becomes the most recently used
    expect(k0.n).toBe(0);
    m.get("k3", () => ({ n: 3 }));
    expect(m.size).toBe(3);
    expect(m.get("k0", () => ({ n: -1 })).n).toBe(0); // kept
    expect(m.get("k1", () => ({ n: -1 })).n).toBe(-1); // dropped, computed again
    expect(SUPPLY_MEMO_MAX.fares).toBeGreaterThan(0);
  });
});
