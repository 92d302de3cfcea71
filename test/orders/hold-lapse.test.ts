import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { isGatewayError } from "@ndc/errors";
import { orderIds } from "@ndc/orders";
import { boot, card, freeSeats, orderInput, SELLER, shop, tempDir, type Booted } from "./helpers";

/**
 * A saga whose holds lapse before its commit (the clock passes the payment time limit while the
 * PSP answers) refuses with seat_hold_expired and compensates: no booked order whose seats may
 * be someone else's, no saga left running, no leg left authorised. Found by the property test
 * once the write path took fewer steps (issue 8): committing anyway left a booked order whose
 * holds could never be confirmed and a leg authorised for ever.
 */
let b: Booted;
const tmp = tempDir();
beforeAll(async () => {
  b = await boot(tmp.url);
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

test("the clock passes the payment time limit during authorisation: seat_hold_expired, compensated", async () => {
  const s = await shop(b, { tag: "lapse", seats: [freeSeats(b.supply)[0]!] });
  // The PSP answers 25 hours later (on the injected clock): past the holds' expiry.
  const psp = b.payments.psp;
  const authorise = psp.authorise.bind(psp);
  psp.authorise = async (rq) => {
    b.clock.advance(25 * 3_600_000);
    return authorise(rq);
  };
  try {
    const refused = await b.orders.create(orderInput("lapse", s, { payment: [card(s.total)] })).catch((e) => e);
    expect(isGatewayError(refused) && refused.code).toBe("seat_hold_expired");
  } finally {
    psp.authorise = authorise;
  }
  const sagaId = orderIds.createSaga(SELLER.clientId, "corr-lapse", "trx-lapse");
  expect(await b.store.db.all(sql`SELECT status, error_code AS code FROM operations WHERE operation_id = ${sagaId}`)).toEqual([{ status: "compensated", code: "seat_hold_expired" }]);
  expect(await b.store.db.all(sql`SELECT order_id FROM orders WHERE order_id = ${orderIds.order(sagaId)}`)).toEqual([]);
  expect(await b.store.db.all(sql`SELECT state FROM payment_legs WHERE order_id = ${orderIds.order(sagaId)}`)).toEqual([{ state: "voided" }]);
  expect(await b.store.db.all(sql`SELECT status FROM seat_inventory WHERE holder = ${orderIds.order(sagaId)} AND status IN ('held', 'sold')`)).toEqual([]);
});
