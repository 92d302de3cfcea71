import { describe, expect, test } from "bun:test";
import { DIRECT_ROUTES, HUBS, INTERLINE_EXTRA_MINUTES, INTERLINE_ROUTES, MAXIMUM_CONNECTION_MINUTES, MINIMUM_CONNECTION_MINUTES, addDays, cityPairs } from "@ndc/supply";
import { START, supply } from "./helpers";

describe("one-stop connections", () => {
  const s = supply();
  const direct = new Set([...DIRECT_ROUTES, ...INTERLINE_ROUTES].flatMap(([a, b]) => [`${a}-${b}`, `${b}-${a}`]));

  test("every city pair the airline sells has journeys on sampled days across the horizon (last day excepted)", () => {
    for (const day of [0, 1, 45, 128, 200, 300, 328]) {
      const date = addDays(START, day);
      for (const [o, d] of cityPairs()) expect(s.journeys(o, d, date).length).toBeGreaterThan(0);
    }
  });

  test("connections go through a hub, connect in place and respect MCT and the maximum ground time", () => {
    let checked = 0;
    for (const day of [3, 110, 250]) {
      const date = addDays(START, day);
      for (const [o, d] of cityPairs()) {
        for (const j of s.journeys(o, d, date)) {
          expect(j.segments[0]!.origin).toBe(o);
          expect(j.segments[j.segments.length - 1]!.destination).toBe(d);
          expect(j.segments[0]!.date).toBe(date);
          if (direct.has(`${o}-${d}`)) {
            expect(j.segments.length).toBe(1);
            continue;
          }
          expect(j.segments.length).toBe(2);
          const [a, b] = j.segments as [(typeof j.segments)[0], (typeof j.segments)[0]];
          expect(a.destination).toBe(b.origin);
          expect(HUBS).toContain(a.destination);
          const ground = (b.departureUtcMs - a.arrivalUtcMs) / 60_000;
          const interline = a.kind === "interline" || b.kind === "interline";
          expect(ground).toBe(j.connectionMinutes[0]!);
          expect(ground).toBeGreaterThanOrEqual(MINIMUM_CONNECTION_MINUTES[a.destination]! + (interline ? INTERLINE_EXTRA_MINUTES : 0));
          expect(ground).toBeLessThanOrEqual(MAXIMUM_CONNECTION_MINUTES);
          expect(j.durationMinutes).toBe((b.arrivalUtcMs - a.departureUtcMs) / 60_000);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  test("a pair only a partner makes possible connects onto the interline flight (Rome-Singapore via Dubai)", () => {
    const js = s.journeys("FCO", "SIN", "2027-01-12");
    expect(js.length).toBeGreaterThan(0);
    expect(js[0]!.segments[0]!.kind).toBe("interline");
    expect(js[0]!.segments[0]!.destination).toBe("DXB");
  });

  test("journeys are sorted by departure and carry stable ids", () => {
    const js = s.journeys("AMS", "SIN", "2027-01-12");
    const deps = js.map((j) => j.segments[0]!.departureUtcMs);
    expect(deps).toEqual([...deps].sort((x, y) => x - y));
    expect(new Set(js.map((j) => j.id)).size).toBe(js.length);
    expect(supply().journeys("AMS", "SIN", "2027-01-12").map((j) => j.id)).toEqual(js.map((j) => j.id));
  });

  test("no journey to the same airport; unknown pairs give nothing", () => {
    expect(s.journeys("LHR", "LHR", "2027-01-12")).toEqual([]);
    expect(s.journeys("LHR", "XXX", "2027-01-12")).toEqual([]);
  });
});
