import { describe, expect, test } from "bun:test";
import { AIRPORTS, DIRECT_ROUTES, HORIZON_DAYS, INTERLINE_ROUTES, addDays, cityPairs, parseFlightKey } from "@ndc/supply";
import { START, supply } from "./helpers";

describe("schedule", () => {
  const s = supply();

  test("network: at least 8 airports and every direct route flown both ways every day of the 330-day horizon", () => {
    expect(AIRPORTS.length).toBeGreaterThanOrEqual(8);
    expect(HORIZON_DAYS).toBe(330);
    expect(s.lastDate).toBe(addDays(START, 329));
    for (let d = 0; d < HORIZON_DAYS; d++) {
      const date = addDays(START, d);
      for (const [a, b] of DIRECT_ROUTES) {
        expect(s.flightsOn(a, b, date).length).toBeGreaterThanOrEqual(1);
        expect(s.flightsOn(b, a, date).length).toBeGreaterThanOrEqual(1);
      }
    }
  });

  test("nothing is sold before the start date or after the last day", () => {
    expect(s.flightsOn("LHR", "CDG", addDays(START, -1))).toEqual([]);
    expect(s.flightsOn("LHR", "CDG", addDays(START, HORIZON_DAYS))).toEqual([]);
    expect(s.flight(`XB-100-${addDays(START, HORIZON_DAYS)}`)).toBeUndefined();
    expect(s.flight(`XB-100-${s.lastDate}`)).toBeDefined();
  });

  test("busy routes fly several times a day, with distinct flight numbers", () => {
    const flights = s.flightsOn("LHR", "CDG", "2027-01-05");
    expect(flights.length).toBe(3);
    expect(new Set(flights.map((f) => f.marketing.number)).size).toBe(3);
    const all = cityPairs().flatMap(([o, d]) => s.flightsOn(o, d, "2027-01-05"));
    expect(new Set(all.map((f) => f.key)).size).toBe(all.length);
  });

  test("times: local and UTC agree with the zone's offset, arrival = departure + block time", () => {
    for (const [o, d] of [["LHR", "JFK"], ["DXB", "SIN"], ["GRU", "MAD"], ["FRA", "AMS"]] as const) {
      for (const f of s.flightsOn(o, d, "2027-07-01")) {
        expect(f.arrivalUtcMs - f.departureUtcMs).toBe(f.durationMinutes * 60_000);
        expect(Date.parse(f.departure.utc)).toBe(f.departureUtcMs);
        const sign = f.departure.utcOffset.startsWith("-") ? -1 : 1;
        const [h, m] = f.departure.utcOffset.slice(1).split(":").map(Number);
        expect(Date.parse(`${f.departure.local}:00Z`) - sign * (h! * 60 + m!) * 60_000).toBe(f.departureUtcMs);
        expect(f.departure.local.slice(0, 10)).toBe(f.date);
      }
    }
  });

  test("a departure keeps its local time across a daylight-saving change; its UTC time moves", () => {
    const winter = s.flightsOn("LHR", "CDG", "2027-03-27")[0]!;
    const summer = s.flightsOn("LHR", "CDG", "2027-03-29")[0]!;
    expect(winter.departure.local.slice(11)).toBe(summer.departure.local.slice(11));
    expect(winter.departure.utcOffset).toBe("+00:00");
    expect(summer.departure.utcOffset).toBe("+01:00");
  });

  test("flight keys round-trip and name the marketing flight and local date", () => {
    const f = s.flightsOn("MAD", "GRU", "2027-02-14")[0]!;
    expect(parseFlightKey(f.key)).toEqual({ carrier: "XB", number: f.marketing.number, date: "2027-02-14" });
    expect(s.flight(f.key)).toEqual(f);
    expect(s.flight("nonsense")).toBeUndefined();
    expect(s.flight("XB-9999-2027-02-14")).toBeUndefined();
  });

  test("other airlines' flights are sold with ours: codeshares we market, interline routes a partner flies", () => {
    const lhrJfk = s.flightsOn("LHR", "JFK", "2027-01-20");
    const codeshare = lhrJfk.find((f) => f.kind === "codeshare")!;
    expect(codeshare.marketing.carrier.code).toBe("XB");
    expect(codeshare.operating.carrier).toEqual({ code: "Q7", name: "Meridia Atlantic" });
    expect(codeshare.operating.number).not.toBe(codeshare.marketing.number);
    for (const [a, b, partner] of INTERLINE_ROUTES) {
      const f = s.flightsOn(a, b, "2027-01-20")[0]!;
      expect(f.kind).toBe("interline");
      expect(f.marketing.carrier.code).toBe(partner);
      expect(f.operating.carrier.code).toBe(partner);
    }
  });

  test("carrier, operator and aircraft names are proper names, never translation keys", () => {
    const f = s.flightsOn("DXB", "SIN", "2027-01-20")[0]!;
    expect(f.operating.carrier.name).toBe("Sunda Air");
    expect(f.aircraft.name).toMatch(/^(Airbus|Boeing|Embraer) /);
    expect(s.carrier).toEqual({ code: "XB", name: "Example Airways" });
  });

  test("long-haul routes get wide-bodies, short-haul narrow-bodies", () => {
    expect(s.flightsOn("FRA", "SIN", "2027-01-20")[0]!.aircraft.wideBody).toBe(true);
    expect(s.flightsOn("CDG", "AMS", "2027-01-20")[0]!.aircraft.wideBody).toBe(false);
  });
});
