import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openStore, tables } from "@ndc/store";
import { databaseUrlFor } from "../support/database";
import { orderCreateRQ, orderIdOf, shopOffer } from "../orders-http/helpers";
import { addRQ, seatsFor } from "../servicing/add-helpers";
import { cleanupAfterAll, errorLines, exitedWithin, footprint, reconciled, startGateway, tempDataDir, type Gateway } from "./support";

/**
 * Issue 21 item 2: a post-sale charge's plan names its seats in one field (`seatHolds`); plans
 * written before by a running gateway named an addition's one seat `seatHold`. A gateway killed
 * with such a row open is upgraded: the new one's reconciler still reads the old field and frees
 * the seat the dead process held (servicing/charge/operation.ts heldSeats).
 */
const cleanup = cleanupAfterAll();

test("a seat purchase's open row in the old plan form (seatHold) is compensated after an upgrade: the seat is free again", async () => {
  const data = tempDataDir();
  cleanup.push(data.remove);
  let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: "add_after_authorise" });
  cleanup.push(() => gw.kill());
  const shopped = await shopOffer(gw);
  const created = await gw.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "LEGACY-PLAN", trxId: "T1" }));
  expect(created.status).toBe(200);
  const orderId = orderIdOf(created.body);
  const { offerId, seats } = await seatsFor(gw, orderId);
  const [seatId, item] = [...seats].find(([, i]) => i.unitMinor > 0)!;
  const rq = addRQ(orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { correlationId: "LEGACY-SEAT", trxId: "trx-1" });
  await gw.ndcUnchecked("OrderChangeRQ", rq).catch(() => undefined);
  expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");
  expect((await footprint(data.dir, [orderId])).liveSeats.map((s) => [s.seatId, s.status])).toEqual([[seatId, "held"]]);

  // The row as a gateway before issue 21 wrote it: the one seat under `seatHold`.
  const store = await openStore(databaseUrlFor(data.dir));
  try {
    const O = tables.operations;
    const [row] = await store.db.select({ id: O.operationId, plan: O.plan }).from(O).where(eq(O.kind, "order_add"));
    const { seatHolds, ...plan } = JSON.parse(row!.plan!) as { seatHolds: unknown[] };
    expect(seatHolds).toHaveLength(1);
    await store.write(async (tx) => {
      await tx.update(O).set({ plan: JSON.stringify({ ...plan, seatHold: seatHolds[0] }) }).where(eq(O.operationId, row!.id));
    });
  } finally {
    await store.close();
  }

  gw = await startGateway(data.dir);
  const f = await reconciled(data.dir);
  expect(f.openSagas).toEqual([]);
  const mine = await footprint(data.dir, [orderId]);
  expect(mine.sagas.filter((s) => s.sagaId.startsWith("SGA")).map((s) => [s.status, s.errorCode])).toEqual([["compensated", "reconciled"]]);
  expect(mine.liveSeats).toEqual([]);
  expect(mine.pspAuthorised).toEqual([]);
  expect(errorLines(gw)).toEqual([]);
}, 60_000);
