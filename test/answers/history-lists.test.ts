import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { DOC_NUMBER, gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { bookCancellable } from "../servicing/cancel-helpers";
import { updatePaxRQ } from "../servicing/rename-helpers";

/**
 * Issue 20 item 9 over HTTP (answers XSD-checked by t.ndc): each ChangeOperation's Old and New
 * carry the order's DataLists as OrderViewRS does: the passengers, the baggage allowances, and
 * now each fare brand flown as a PriceClass (as AirShoppingRS named it), in OrderViewRS too.
 * Identity documents: spec 2.4 rule 2 shows the masked document in OrderViewRS only, so the
 * history has neither the number nor the element.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

test("Old and New carry Pax, BaggageAllowance and the brand's PriceClass; no identity document", async () => {
  const { orderId, order } = await bookCancellable(t, "HLI-1", { brand: "FLEX", pax: [{ id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } }] });
  expect((await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { given: "Alexandra", surname: "TRAVELER" }))).status).toBe(200);
  const brand = order.journeys[0]!.brandCode;

  const viewed = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(viewed.status).toBe(200);
  const viewClass = blocks(viewed.body, "PriceClass");
  expect(viewClass.map((p) => all(p, "Code")[0])).toEqual([brand]);
  expect(all(viewClass[0]!, "Name")[0]).toBeTruthy();

  const r = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
  expect(r.status).toBe(200);
  expect(r.body).not.toContain(DOC_NUMBER);
  expect(r.body).not.toContain("IdentityDoc");
  const groups = blocks(r.body, "ChangeGroup");
  expect(groups.length).toBeGreaterThan(1);
  for (const g of groups.slice(1)) {
    for (const side of ["Old", "New"] as const) {
      const d = blocks(g, side)[0]!;
      expect(all(d, "PaxID")).toEqual(["PAX1"]);
      expect(blocks(d, "BaggageAllowance").length).toBeGreaterThan(0);
      const classes = blocks(d, "PriceClass");
      expect(classes.map((p) => all(p, "Code")[0])).toEqual([brand]);
      // The same PriceClass as OrderViewRS shows, in the FullyOptional namespace.
      expect(classes[0]!.replaceAll("opt:", "cns:")).toBe(viewClass[0]!);
    }
  }
}, 60_000);
