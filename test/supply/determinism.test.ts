import { describe, expect, test } from "bun:test";
import { cityPairs, stableId } from "@ndc/supply";
import { START, supply } from "./helpers";

/** Same seed, same answers: tests and benchmarks are repeatable. */
describe("determinism", () => {
  const snapshot = (seed: string) => {
    const s = supply(seed);
    const journeys = s.journeys("LHR", "SIN", "2027-01-15");
    const direct = s.journeys("LHR", "JFK", "2027-03-02");
    const priced = journeys.slice(0, 2).map((j) => s.priceJourney(j, "CLASSIC", { ADT: 2, CHD: 1, INF: 1 }, "JPY"));
    const seats = s.seatMap(direct[0]!.segments[0]!.key, "GBP");
    return { flights: s.flightsOn("CDG", "FRA", START), journeys, direct, priced, seats };
  };

  test("two supplies built from the same seed give deep-equal schedules, journeys, prices and seat maps", () => {
    expect(snapshot("alpha")).toEqual(snapshot("alpha"));
  });

  test("a different seed gives a different simulation (times, prices, occupancy)", () => {
    const a = snapshot("alpha");
    const b = snapshot("beta");
    expect(a.priced.map((p) => p.total)).not.toEqual(b.priced.map((p) => p.total));
    expect(a.seats!.cabins[1]!.seats.map((x) => x.availability)).not.toEqual(b.seats!.cabins[1]!.seats.map((x) => x.availability));
  });

  test("answers do not depend on what was asked before (each decision has its own stream)", () => {
    const fresh = supply("alpha").seatMap("XB-100-2027-02-01");
    const busy = supply("alpha");
    for (const [o, d] of cityPairs().slice(0, 10)) busy.journeys(o, d, "2027-02-01");
    busy.seatMap("XB-102-2027-02-01");
    expect(busy.seatMap("XB-100-2027-02-01")).toEqual(fresh!);
  });

  test("ids are stable functions of seed and inputs", () => {
    expect(stableId("OFF", 1, "a", "b")).toBe(stableId("OFF", 1, "a", "b"));
    expect(stableId("OFF", 1, "a", "b")).not.toBe(stableId("OFF", 2, "a", "b"));
    expect(stableId("OFF", 1, "ab", "")).not.toBe(stableId("OFF", 1, "a", "b"));
    const s = supply();
    const j = s.journeys("LHR", "FCO", "2027-01-10")[0]!;
    const p1 = s.priceJourney(j, "FLEX", { ADT: 1 }, "EUR");
    const p2 = supply().priceJourney(supply().journeys("LHR", "FCO", "2027-01-10")[0]!, "FLEX", { ADT: 1 }, "EUR");
    expect(p1.id).toBe(p2.id);
    expect(p1.pax[0]!.itemId).toBe(p2.pax[0]!.itemId);
    expect(s.priceJourney(j, "FLEX", { ADT: 1 }, "USD").id).not.toBe(p1.id);
  });
});
