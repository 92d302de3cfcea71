import { expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { orderCreateRQ, orderIdOf, shopOffer } from "../orders-http/helpers";
import { cleanupAfterAll, exitedWithin, footprint, startGateway, tempDataDir, type Gateway } from "./support";

/**
 * Liveness (issue 22 item 1, docs/decisions/0040): a gateway SIGKILLed inside an OrderCreate saga
 * leaves its operation running under its instance id, and its row in `instances` names a pid of
 * this host that no longer runs. The seller's retry, on a gateway restarted WITHOUT any reconciler,
 * does not wait for one (no request_in_progress): it settles the dead process's operation itself,
 * as the reconciler would, and is answered with the order: the same one past the commit point,
 * a new run short of it (the first attempt's leg voided). Nothing is left held or authorised.
 */
const cleanup = cleanupAfterAll();

for (const p of [
  { at: "after_authorise", complete: false },
  { at: "before_capture", complete: true },
] as const) {
  test(`killed ${p.at}: the retry on a restarted gateway without a reconciler takes the dead process's operation over and is the ${p.complete ? "same" : "new"} booked order`, async () => {
    const data = tempDataDir();
    cleanup.push(data.remove);
    let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at });
    cleanup.push(() => gw.kill());
    const shopped = await shopOffer(gw, { seat: true });
    const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `DEAD-${p.at}`, trxId: "T1" });
    expect(await gw.ndcUnchecked("OrderCreateRQ", rq).then(() => "answered", () => "connection dropped")).toBe("connection dropped");
    expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");
    const left = await footprint(data.dir);
    expect(left.openSagas).toHaveLength(1);
    const firstOrderId = left.sagas[0]!.orderId;

    gw = await startGateway(data.dir, { ORDERS_BACKGROUND_MS: "0" });
    const retry = await gw.ndc("OrderCreateRQ", rq);
    expect([retry.status, retry.status === 200 ? undefined : errorCode(retry.body)]).toEqual([200, undefined]);
    expect(retry.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    const orderId = orderIdOf(retry.body);
    if (p.complete) expect(orderId).toBe(firstOrderId);
    else expect(orderId).not.toBe(firstOrderId);

    const after = await footprint(data.dir);
    expect(after.openSagas).toEqual([]);
    expect([...after.orders]).toEqual([[orderId, "booked"]]);
    expect(after.liveSeats.map((s) => [s.holder, s.status])).toEqual([[orderId, "sold"]]);
    expect(after.legs.filter((l) => l.state === "captured").map((l) => l.orderId)).toEqual([orderId]);
    expect(after.legs.filter((l) => l.orderId !== orderId).map((l) => l.state)).toEqual(p.complete ? [] : ["voided"]);
    expect(after.pspAuthorised).toEqual([]);
    await gw.stop();
  }, 60_000);
}
