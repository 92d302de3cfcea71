import { afterAll, expect, test } from "bun:test";
import { decimal, orderCreateRQ, orderIdOf, shopOffer, TRAVEL_DATE, type Shopped } from "../orders-http/helpers";
import type { NdcReply } from "../support/gateway";
import { orderRetrieveRQ, paymentRetryRQ } from "../orders-http/order-list-helpers";
import { acceptCancelRQ, quote } from "../servicing/cancel-helpers";
import { updatePaxRQ } from "../servicing/rename-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { multiDataDir, type Worker } from "./support";

/**
 * Any process, any key (issue 22 item 4, docs/decisions/0040): an order booked on worker A is
 * retrieved, paid, renamed and cancelled on worker B, and after every step both workers answer
 * with the order as it now is. A holds the order's actor resident from the booking on, so every
 * answer of A after a step on B proves A did not trust its memory (nor a view kept from before).
 */
const data = multiDataDir();
afterAll(() => data.close());

const payStatuses = (xml: string) => blocks(xml, "PaymentFunctions").flatMap((pf) => all(pf, "PaymentStatusCode"));

test(
  "booked on A; retrieved and paid on B, its passenger's name corrected on A, cancelled on B; each answer current on both",
  async () => {
    const a = await data.startWorker();
    const b = await data.startWorker();
    const retrieve = async (w: Worker, orderId: string) => {
      const r = await w.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(r.status).toBe(200);
      expect(orderIdOf(r.body)).toBe(orderId);
      return r.body;
    };

    // Booked on A, held unpaid: A's actor is resident from here on.
    // A FLEX fare: the sandbox's SAVER neither takes a name correction nor cancels with a refund.
    let shopped: Shopped | undefined;
    let created: NdcReply | undefined;
    for (let n = 0; n < 16 && !created?.body.includes(">FLEX<"); n++) {
      shopped = await shopOffer(a, { date: TRAVEL_DATE, n });
      created = await a.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: `MULTI-LIFE-${n}`, trxId: "T1" }));
      expect(created.status).toBe(200);
    }
    if (!shopped || !created?.body.includes(">FLEX<")) throw new Error("no FLEX offer shopped");
    const orderId = orderIdOf(created.body);
    expect(payStatuses(created.body)).toEqual([]);
    const onB = await retrieve(b, orderId);
    expect(all(onB, "PaymentTimeLimitDateTime").length).toBeGreaterThan(0);
    expect(await retrieve(a, orderId)).toContain("<cns:GivenName>Alex</cns:GivenName>");

    // Paid on B: A's next answer shows the capture.
    const paid = await b.ndc("OrderChangeRQ", paymentRetryRQ(orderId, decimal(shopped.totalMinor), "tok_approve_visa", { correlationId: "MULTI-PAY", trxId: "P1" }));
    expect(paid.status).toBe(200);
    expect(payStatuses(paid.body)).toContain("CAPTURED");
    expect(payStatuses(await retrieve(a, orderId))).toContain("CAPTURED");

    // The passenger's name corrected on A (its actor behind B's payment; a one-letter correction,
    // which even a fare without name changes allows), then read on B.
    const renamed = await a.ndc("OrderChangeRQ", updatePaxRQ(orderId, { given: "Alex", surname: "TRAVELER", correlationId: "MULTI-RENAME", trxId: "R1" }));
    expect(renamed.status, renamed.body.slice(0, 800)).toBe(200);
    expect(payStatuses(renamed.body)).toContain("CAPTURED");
    expect(renamed.body).toContain("<cns:Surname>TRAVELER</cns:Surname>");
    expect(await retrieve(b, orderId)).toContain("<cns:Surname>TRAVELER</cns:Surname>");

    // Cancelled on B (quoted there too): A answers CANCELLED with the refund, the new name kept.
    const q = await quote(b, orderId);
    const cancelled = await b.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "MULTI-CANCEL", trxId: "C1" }));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    const onA = await retrieve(a, orderId);
    expect(onA).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    expect(onA).toContain("<cns:Surname>TRAVELER</cns:Surname>");
    expect(payStatuses(onA)).toContain("REFUNDED");
  },
  120_000,
);
