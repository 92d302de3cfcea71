import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { T0, orderRetrieveRQ } from "../orders-http/helpers";
import { airShoppingRQ, all, blocks } from "../shopping/shop-requests";
import { bookBrand, hoursBefore } from "./helpers";
import { dayAfter } from "../support/dates";

/**
 * OrderViewRS as sellers' order-management code reads it (issue 9 item 12): per item Price
 * with BaseAmount, TaxSummary and TotalAmount, restrictions from the frozen conditions,
 * CreationDateTime, each Service's DeliveryStatusCode, BaggageAllowanceList, Birthdate. Every
 * answer is XSD-checked by the test gateway.
 */
let t: TestGateway;
const clock = new ManualClock(T0);
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, clock);
});
afterAll(() => t.close());

/** Price of the booked flight item in the order and of its offer item in the shopping answer. */
const priceOf = (xml: string) => {
  const p = blocks(xml, "Price")[0]!;
  const taxes = blocks(p, "Tax").map((x) => [all(x, "TaxCode")[0], all(x, "Amount")[0]]);
  return { base: all(p, "BaseAmount")[0], taxes, total: all(p, "TotalAmount").at(-1) };
};

test("a CLASSIC round trip: the item's price as shopped, split into base and named taxes", async () => {
  clock.set(T0);
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: dayAfter(T0, 52) }, { from: "CDG", to: "LHR", date: dayAfter(T0, 55) }], pax: [["PAX1", "ADT"]], currency: "EUR" }));
  const b = await bookBrand(t, "CLASSIC", { back: true });
  const offerItem = blocks(blocks(shop.body, "Offer").find((o) => o.includes(`<cns:OfferID>${b.offerId}<`))!, "OfferItem")[0]!;
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(b.orderId));
  expect(r.status).toBe(200);
  const item = blocks(r.body, "OrderItem")[0]!;
  // Independent source: the AirShoppingRS that sold it.
  expect(priceOf(item)).toEqual(priceOf(offerItem));
  expect(priceOf(item).taxes.length).toBeGreaterThan(2);
  const names = Object.fromEntries(blocks(item, "Tax").map((x) => [all(x, "TaxCode")[0], all(x, "TaxName")[0]]));
  expect(names.GB).toBe("United Kingdom Air Passenger Duty");
  expect(names.YQ).toBe("Carrier-imposed surcharge");
  expect(all(item, "CreationDateTime")).toEqual([new Date(T0).toISOString()]);
});

test("restrictions from the frozen CLASSIC conditions, per passenger, with the fee a change made now costs", async () => {
  clock.set(T0);
  const b = await bookBrand(t, "CLASSIC");
  const at = async (ms: number) => {
    clock.set(ms);
    const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(b.orderId));
    return blocks(r.body, "OrderItem")[0]!;
  };
  const far = await at(T0);
  const cancel = blocks(far, "CancelRestrictions");
  expect(cancel).toHaveLength(1);
  expect(all(cancel[0]!, "AllowedModificationInd")).toEqual(["true"]);
  expect(all(cancel[0]!, "LevelTypeCode")).toEqual(["None"]);
  expect(all(cancel[0]!, "PaxRefID")).toEqual(["PAX1"]);
  const [flight, name] = blocks(far, "ChangeRestrictions");
  expect(all(flight!, "ChangeTypeCode")).toEqual(["Flight"]);
  expect(all(flight!, "AllowedModificationInd")).toEqual(["true"]);
  expect(all(flight!, "Amount")).toEqual(["25.00"]);
  expect(all(name!, "ChangeTypeCode")).toEqual(["Name"]);
  expect(all(name!, "AllowedModificationInd")).toEqual(["false"]);
  // Inside 24 h the fee is the near band's; after departure no change is allowed.
  expect(all(blocks(await at(hoursBefore(b.outboundDepartureLocal, 2)), "ChangeRestrictions")[0]!, "Amount")).toEqual(["75.00"]);
  const gone = blocks(await at(hoursBefore(b.outboundDepartureLocal, -1)), "ChangeRestrictions")[0]!;
  expect(all(gone, "AllowedModificationInd")).toEqual(["false"]);
  expect(all(gone, "Amount")).toEqual([]);
  clock.set(T0);
});

test("frozen allowances in BaggageAllowanceList, the Birthdate as booked, a DeliveryStatusCode on every Service", async () => {
  clock.set(T0);
  const b = await bookBrand(t, "FLEX");
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(b.orderId));
  const bags = blocks(r.body, "BaggageAllowance").map((x) => [all(x, "TypeCode")[0], all(x, "TotalQty")[0], all(x, "MaximumWeightMeasure")[0]]);
  expect(bags).toEqual([
    ["CarryOn", "1", "10"],
    ["Checked", "2", "23"],
    ["Checked", "1", "10"],
  ]);
  expect(all(r.body, "Birthdate")).toEqual(["1980-02-03"]);
  const services = blocks(r.body, "Service");
  expect(services.length).toBeGreaterThan(0);
  for (const s of services) expect(all(s, "DeliveryStatusCode")).toEqual(["NOT_DELIVERED"]);
  expect(r.body).not.toContain("fare_conditions_current_policy");
});

test("SAVER states no allowance and a change not allowed", async () => {
  clock.set(T0);
  const b = await bookBrand(t, "SAVER");
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(b.orderId));
  expect(blocks(r.body, "BaggageAllowanceList")).toEqual([]);
  const flight = blocks(r.body, "ChangeRestrictions")[0]!;
  expect(all(flight, "AllowedModificationInd")).toEqual(["false"]);
  expect(all(flight, "DescText")[0]).toBe("Flight changes not allowed by the SAVER fare.");
});
