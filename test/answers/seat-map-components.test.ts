import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { OfferOwner, OfferRepository } from "@ndc/shopping";
import type { TestGateway } from "../support/gateway";
import { all, blocks, day, gateway, saveFlightOffer, seatAvailabilityRQ } from "../shopping/seat-availability-helpers";

/**
 * Issue 20 item 9 over HTTP (answers XSD-checked by t.ndc): each SeatMap's CabinCompartment
 * carries its CabinComponents, the aircraft type's galleys (G), lavatories (LA) and exits (E):
 * galley, lavatory and doors in front of the first cabin, lavatories, galley and doors behind the
 * last, an exit beside every exit row.
 */
let t: TestGateway;
let clock: ManualClock;
let owner: OfferOwner;
let repo: OfferRepository;
beforeAll(async () => {
  ({ t, clock, owner, repo } = await gateway());
});
afterAll(() => t.close());

const components = (cabin: string) =>
  blocks(cabin, "CabinComponent").map((k) => ({ code: all(k, "CabinComponentTypeCode")[0], row: Number(all(k, "FirstRowNumber")[0]), last: Number(all(k, "LastRowNumber")[0]), position: all(k, "PositionCode")[0], columns: all(k, "ColumnID") }));

test("every seat map names its galleys, lavatories and exits by row", async () => {
  const journeys = [t.gw.supply.journeys("AMS", "LHR", day(t, 12)).find((j) => j.segments.length === 2)!, t.gw.supply.journeys("LHR", "CDG", day(t, 19))[0]!];
  await saveFlightOffer(repo, clock, owner, { offerId: "OFR-COMPONENTS", journeys });
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-COMPONENTS" }));
  expect(r.status).toBe(200);
  const maps = blocks(r.body, "SeatMap");
  expect(maps.length).toBe(3);
  for (const map of maps) {
    const cabins = blocks(map, "CabinCompartment");
    const first = cabins[0]!;
    const last = cabins.at(-1)!;
    const firstRow = Number(all(first, "FirstRowNumber")[0]);
    const lastRow = Number(all(last, "LastRowNumber").at(-1));
    const front = components(first).filter((k) => k.row === firstRow && k.position === "Before").map((k) => k.code);
    const rear = components(last).filter((k) => k.row === lastRow && k.position === "After").map((k) => k.code);
    expect(front).toEqual(expect.arrayContaining(["G", "LA", "E"]));
    expect(rear).toEqual(expect.arrayContaining(["G", "LA", "E"]));
    for (const cabin of cabins) {
      const ks = components(cabin);
      for (const k of ks) expect(k.last).toBe(k.row);
      // Each exit row of the map has an exit beside or in front of it, on both sides.
      const exitRows = blocks(cabin, "SeatRow").filter((row) => all(row, "RowCharacteristicCode").includes("E")).map((row) => Number(all(row, "RowNumber")[0]));
      const columns = blocks(cabin, "SeatColumn").map((c) => all(c, "ColumnID")[0]!);
      for (const row of exitRows) {
        const exit = ks.find((k) => k.code === "E" && k.row === row && k.position !== "After");
        expect(exit).toBeDefined();
        expect(exit!.columns).toEqual([columns[0]!, columns.at(-1)!]);
      }
    }
  }
}, 30_000);
