import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { brokenAt, listOverrides } from "@ndc/orders";
import { overridesCommand } from "../../apps/cli/src/commands/overrides";
import type { TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { gateway } from "../orders-http/helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { updatePaxRQ } from "./rename-helpers";
import { BOOKING_TEST_MS } from "./helpers";

/**
 * Issue 9 item 10, SHPOR1 rule 4: the airline's own staff (a staff call in process) are never
 * refused by the fare; the override is recorded on the change (its history entry, its operation)
 * and in the append-only, hash-chained servicing_overrides trail, in the change's one write. A
 * seller's machine channel (NDC over HTTP) asking the same is refused.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
const name = { givenNames: ["Alexandra"], surname: "STAFFED" };
const staffRename = (orderId: string, trxId: string, staffId = "agent-17") =>
  t.gw.orders.renamePax({ orderId, by: { channel: "airline_staff", staffId }, request: { clientId: `staff:${staffId}`, correlationId: "staff-desk", trxId }, paxId: "PAX1", name, useFlexibility: false });

/** The database's refusal of a statement (drizzle wraps it: the trigger's message is on the cause). */
async function refusal(statement: ReturnType<typeof sql>): Promise<string> {
  try {
    await t.gw.store.write((tx) => tx.run(statement));
    return "not refused";
  } catch (e) {
    return `${String(e)} ${String((e as { cause?: unknown }).cause)}`;
  }
}

async function cli(...args: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await overridesCommand(args, { out: (l) => out.push(l), err: (l) => out.push(l), env: {} }, { store: t.gw.store });
  return { code, out };
}

test("a seller is refused by the fare; the airline's staff are not, and the override is recorded once, in the change's one write", async () => {
  const { orderId, order } = await bookCancellable(t, "OVR-1", { brand: "LIGHT", seat: false });
  const seller = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-ovr-seller" }));
  expect(seller.status).toBe(409);
  expect(seller.body).toContain("fare_not_renameable");
  expect(await listOverrides(t.gw.store)).toEqual([]);

  const w = await countWrites(() => staffRename(orderId, "trx-ovr-1"));
  expect(w.gateway).toBe(1);
  expect(w.result.passengers[0]!.surname).toBe("STAFFED");
  expect(w.result.version).toBe(order.version + 1);
  expect(w.result.history.at(-1)!.changed).toContain("override:fare_not_renameable");

  const rows = await listOverrides(t.gw.store);
  expect(rows.map((r) => [r.staffId, r.channel, r.orderId, r.ruleCode])).toEqual([["agent-17", "airline_staff", orderId, "fare_not_renameable"]]);
  expect(rows[0]!.ruleText).toContain("LIGHT");
  expect(JSON.stringify(rows)).not.toContain("STAFFED");
  expect(brokenAt(rows)).toBeUndefined();

  // A retry of the staff call is the same operation: no second change, no second audit row.
  const again = await countWrites(() => staffRename(orderId, "trx-ovr-1"));
  expect(again.gateway).toBe(0);
  expect(await listOverrides(t.gw.store)).toHaveLength(1);
});

test("a fare that allows the change is no override: nothing is recorded", async () => {
  const { orderId } = await bookCancellable(t, "OVR-FLEX", { brand: "FLEX", seat: false });
  const before = (await listOverrides(t.gw.store)).length;
  await staffRename(orderId, "trx-ovr-flex");
  expect(await listOverrides(t.gw.store)).toHaveLength(before);
}, BOOKING_TEST_MS);

test("the trail is append-only and hash-chained; the CLI lists and verifies it", async () => {
  const { orderId } = await bookCancellable(t, "OVR-2", { brand: "LIGHT", seat: false });
  await staffRename(orderId, "trx-ovr-2", "agent-42");
  const rows = await listOverrides(t.gw.store);
  expect(rows.length).toBeGreaterThanOrEqual(2);
  expect(rows[1]!.prevHash).toBe(rows[0]!.hash);

  expect(await refusal(sql`UPDATE servicing_overrides SET staff_id = 'someone-else'`)).toContain("servicing_overrides is append-only");
  expect(await refusal(sql`DELETE FROM servicing_overrides`)).toContain("servicing_overrides is append-only");
  expect(await listOverrides(t.gw.store)).toEqual(rows);
  // A row altered behind the triggers' back breaks the chain at that row.
  const tampered = rows.map((r, i) => (i === 0 ? { ...r, staffId: "someone-else" } : r));
  expect(brokenAt(tampered)).toBe(rows[0]!.seq);

  const list = await cli("list");
  expect(list.code).toBe(0);
  expect(list.out.join("\n")).toContain(`order ${orderId}`);
  expect(list.out.join("\n")).toContain("airline_staff agent-42");
  expect(list.out.join("\n")).toContain("overrode fare_not_renameable");
  const verify = await cli("verify");
  expect(verify).toEqual({ code: 0, out: [`audit trail holds: ${rows.length} rows`] });
  expect((await cli()).code).toBe(2);
});

test("staff are not bound by ownership, a seller is", async () => {
  const { orderId } = await bookCancellable(t, "OVR-3", { brand: "LIGHT", seat: false });
  const other = { clientId: "x", agencyId: "AGY-OTHER" };
  await expect(t.gw.orders.renamePax({ orderId, by: { channel: "seller", seller: other }, request: { clientId: "x", correlationId: "c", trxId: "t" }, paxId: "PAX1", name, useFlexibility: false })).rejects.toMatchObject({ code: "order_not_found" });
  expect((await staffRename(orderId, "trx-ovr-3")).passengers[0]!.surname).toBe("STAFFED");
  expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).passengers[0]!.surname).toBe("STAFFED");
});
