import { describe, expect, test } from "bun:test";
import { instances } from "@ndc/orders";
import { openStore } from "@ndc/store";
import { databaseUrlFor } from "../support/database";
import { errorCode } from "../support/gateway";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { cleanupAfterAll, errorLines, exitedWithin, footprint, reconciled, startGateway, tempDataDir, type Gateway } from "./support";

/**
 * Issue 4 "crash safety" and issue 7 item 3, against the real `serve` process:
 * NDC_ORDERS_CRASH_AT makes the gateway SIGKILL itself at one step of an OrderCreateRQ (a seat
 * and a card leg). Then the seller retries with the same CorrelationID, TrxID and body:
 * - on a gateway restarted without its reconciler the saga is unfinished: 409
 *   request_in_progress with Retry-After, and nothing is taken;
 * - on one that reconciles, the order is complete (booked, seat sold, leg captured) when the
 *   crash came after the commit point, and absent with nothing held or authorised (seat
 *   released, leg voided) when it came before, and the dead request's lock went with that
 *   decision;
 * - the retry is then the order: the same one past the commit, a new one (booked, the card
 *   captured once, the first attempt's leg left voided) short of it; never a 5xx. Asked again,
 *   the stored answer, byte for byte.
 */
const POINTS = [
  // step: the operation's phase at the kill; seat/legs: what the kill left behind; undone: the
  // first run's legs once compensated. Issue 8 (atomic phases): open = the holds, the operation
  // and the planned card leg in one write; the PSP authorises; commit = the order, its seat
  // confirmed and the leg's answer in one write; the PSP captures; close = the capture and `done`.
  { at: "after_holds", complete: false, step: "open", seat: "held", legs: ["authorising"], undone: ["declined"] },
  { at: "after_authorise", complete: false, step: "open", seat: "held", legs: ["authorising"], undone: ["voided"] },
  { at: "after_commit", complete: true, step: "committed", seat: "sold", legs: ["authorised"], undone: [] },
  { at: "before_capture", complete: true, step: "committed", seat: "sold", legs: ["authorised"], undone: [] },
  { at: "after_capture", complete: true, step: "committed", seat: "sold", legs: ["authorised"], undone: [] },
  // Closed, not answered: nothing is left to decide, the retry is served at once.
  { at: "after_close", complete: true, step: "done", seat: "sold", legs: ["captured"], undone: [] },
] as const;

const cleanup = cleanupAfterAll();

/** Log lines at error level: an answer that went wrong unseen would leave one (or should have). */

describe("OrderCreateRQ: the real gateway SIGKILLed at each saga step, restarted, reconciled and retried with the same ids", () => {
  for (const p of POINTS) {
    test(`${p.at}: 409 while the saga is unfinished; reconciled ${p.complete ? "complete" : "to nothing"}; then the retry is the ${p.complete ? "same" : "new"} booked order`, async () => {
      const data = tempDataDir();
      cleanup.push(data.remove);
      let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at });
      cleanup.push(() => gw.kill());
      const shopped = await shopOffer(gw, { seat: true });
      const correlationId = `CRASH-${p.at}`;
      const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId, trxId: "T1" });

      // The connection drops with the process: no answer at all, not an error document.
      const sent = await gw.ndcUnchecked("OrderCreateRQ", rq).then(
        (r) => `answered ${r.status}`,
        () => "connection dropped",
      );
      expect(sent).toBe("connection dropped");
      expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");

      // The kill came where it was asked to: the saga's recovery point and what it had taken,
      // and the request's lock, naming the process that died.
      const left = await footprint(data.dir);
      const closed = p.step === "done";
      expect(left.sagas.map((s) => [s.status, s.step])).toEqual([[closed ? "done" : "running", p.step]]);
      const firstOrderId = left.sagas[0]!.orderId;
      expect(left.liveSeats.map((s) => [s.holder, s.status])).toEqual([[firstOrderId, p.seat]]);
      expect(left.legs.map((l) => l.state)).toEqual([...p.legs]);
      expect(left.orders.get(firstOrderId)).toBe(p.complete ? "booked" : undefined);
      expect(left.idempotency.map((i) => [i.correlationId, i.state, typeof i.owner])).toEqual([[correlationId, closed ? "unanswered" : "in_flight", "string"]]);

      // Restarted without its background pass: nobody has decided the operation yet, so the
      // retry is told to come back, and takes nothing (a closed one is simply answered). The dead
      // process's liveness row is removed first, as if it had never announced itself: an owner not
      // known dead is waited for (decision 0040); a known-dead one's retry settles it at once
      // (test/crash/dead-owner-retry.test.ts).
      await forgetInstances(data.dir);
      if (!closed) {
        gw = await startGateway(data.dir, { ORDERS_BACKGROUND_MS: "0" });
        const waiting = await gw.ndc("OrderCreateRQ", rq);
        expect([waiting.status, errorCode(waiting.body), waiting.headers.get("retry-after")]).toEqual([409, "request_in_progress", "1"]);
        expect(errorLines(gw)).toEqual([]);
        await gw.stop();
        expect(await footprint(data.dir)).toEqual(left);
      }

      // Restarted with it: the reconciler finishes or compensates the operation; settled, the
      // dead request's lock on it holds nothing up any more.
      gw = await startGateway(data.dir);
      const f = await reconciled(data.dir);
      expect(f.openSagas).toEqual([]);
      // Nor does the PSP (which outlives the crash) hold money for it: captured or voided there too.
      expect(f.pspAuthorised).toEqual([]);
      expect(f.idempotency.map((i) => [i.correlationId, i.state])).toEqual([[correlationId, "unanswered"]]);
      const retrieved = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(firstOrderId));
      if (p.complete) {
        expect(f.sagas.map((s) => s.status)).toEqual(["done"]);
        expect(f.orders.get(firstOrderId)).toBe("booked");
        expect(f.liveSeats.map((s) => [s.holder, s.status])).toEqual([[firstOrderId, "sold"]]);
        expect(f.legs.map((l) => [l.kind, l.state])).toEqual([["card", "captured"]]);
        expect(retrieved.status).toBe(200);
        expect(retrieved.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
      } else {
        expect(f.sagas.map((s) => [s.status, s.errorCode])).toEqual([["compensated", "reconciled"]]);
        expect(f.orders.size).toBe(0);
        expect(f.liveSeats).toEqual([]);
        // A leg authorised at the PSP before the kill is voided; one the PSP never saw is declined.
        expect(f.legs.map((l) => l.state)).toEqual([...p.undone]);
        expect(retrieved.status).toBe(404);
        expect(errorCode(retrieved.body)).toBe("order_not_found");
      }

      // The retry with the same ids is the order: past the commit the one the dead request
      // booked, short of it a new run of the saga (the first left nothing) that books now.
      const retry = await gw.ndc("OrderCreateRQ", rq);
      expect(retry.status).toBe(200);
      expect(retry.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
      const orderId = orderIdOf(retry.body);
      if (p.complete) expect(orderId).toBe(firstOrderId);
      else expect(orderId).not.toBe(firstOrderId);
      const after = await footprint(data.dir);
      // Exactly one saga and one order for these ids, its seat sold, its card captured once.
      expect(after.sagas.map((s) => [s.orderId, s.status])).toEqual([[orderId, "done"]]);
      expect([...after.orders]).toEqual([[orderId, "booked"]]);
      expect(after.liveSeats.map((s) => [s.holder, s.status])).toEqual([[orderId, "sold"]]);
      expect(after.legs.filter((l) => l.state === "captured").map((l) => [l.orderId, l.kind])).toEqual([[orderId, "card"]]);
      // The first attempt's leg stays voided or declined (never captured, never revived).
      expect(after.legs.filter((l) => l.orderId !== orderId).map((l) => l.state)).toEqual([...p.undone]);
      expect(after.pspAuthorised).toEqual([]);
      expect(after.idempotency.map((i) => [i.correlationId, i.state, i.responseStatus, i.owner])).toEqual([[correlationId, "done", 200, null]]);
      const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(view.status).toBe(200);
      expect(view.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
      expect(blocks(view.body, "SeatOnLeg")).toHaveLength(1);
      // PAYSUM: the order's own leg, captured; the first attempt's voided leg is not this order's.
      expect(all(blocks(view.body, "PaymentFunctions")[0]!, "PaymentStatusCode")).toEqual(["CAPTURED"]);

      // Asked again: the stored answer, byte for byte, and nothing more taken.
      const again = await gw.ndc("OrderCreateRQ", rq);
      expect(again.status).toBe(200);
      expect(again.body).toBe(retry.body);
      expect(await footprint(data.dir)).toEqual(after);
      expect(errorLines(gw)).toEqual([]);
      await gw.stop();
    }, 30_000);
  }
});

/** Removes every process's liveness row (schemas/migrations/0065_instances.sql). */
async function forgetInstances(dir: string): Promise<void> {
  const store = await openStore(databaseUrlFor(dir));
  try {
    await store.write((tx) => tx.delete(instances).run());
  } finally {
    await store.close();
  }
}
