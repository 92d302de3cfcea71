import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { OfferOwner, OfferRepository } from "@ndc/shopping";
import { WebShopChannel } from "@ndc/inventory";
import type { TestGateway } from "../support/gateway";
import { all, blocks, day, gateway, saveFlightOffer, seatAvailabilityRQ } from "./seat-availability-helpers";

let t: TestGateway;
let clock: ManualClock;
let owner: OfferOwner;
let repo: OfferRepository;

beforeAll(async () => {
  ({ t, clock, owner, repo } = await gateway());
});
afterAll(() => t.close());

function statusOf(xml: string, seatId: string): string | undefined {
  for (const s of blocks(xml, "Seat")) {
    if (`${all(s, "RowNumber")[0]}${all(s, "ColumnID")[0]}` === seatId) return all(s, "OccupationStatusCode")[0];
  }
  return undefined;
}

test("a seat the airline's web shop sells is no longer offered over NDC (one inventory for every channel)", async () => {
  const journey = t.gw.supply.journeys("LHR", "CDG", day(t, 9))[0]!;
  const offer = await saveFlightOffer(repo, clock, owner, { offerId: "OFR-LIVE-1", journeys: [journey], pax: [["PAX1", "ADT"]] });
  const before = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-LIVE-1" }));
  const flightKey = offer.journeys[0]!.flightKeys[0]!;
  const free = blocks(before.body, "Seat")
    .filter((s) => all(s, "OccupationStatusCode")[0] === "F" && all(s, "OfferItemRefID").length > 0)
    .map((s) => `${all(s, "RowNumber")[0]}${all(s, "ColumnID")[0]}`)[0]!;
  expect(free).toBeString();

  // The priced seat map is memoised by the supply from the first call (issue 8): only its pure
  // layout and prices; the sale below must still show on the next answer.
  await new WebShopChannel(t.gw.inventory).sellSeat(flightKey, free, { customerRef: "basket-1" });

  const after = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-LIVE-1" }));
  expect(statusOf(after.body, free)).toBe("O");
  expect(statusOf(before.body, free)).toBe("F");
});
