import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import type { Order } from "@ndc/orders";
import { startTestGateway } from "../support/gateway";
import { dropDatabaseFor } from "../support/database";
import { T0 } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { quote } from "./cancel-helpers";
import { bookBrand } from "./helpers";
import { rewriteCreated, storeOf } from "./journal-helpers";

/**
 * The cancel quote reads the conditions frozen onto the order at booking (SHPOR1 rule 1), not the
 * brand policy now. The brand policy is published data this process cannot change, so the order
 * is made to have been sold under other terms: its frozen conditions are rewritten in the journal
 * between two boots (FLEX, refundable today, frozen as not refundable). And an order that could
 * not be frozen (COMFORT, its conditions taken out as for an order older than migration 0016) is
 * quoted under the current policy with the warning the rules path gives.
 */
// Each test books over HTTP: an explicit budget, so a loaded machine does not fail it on Bun's 5 s default.
const dir = mkdtempSync(join(tmpdir(), "ndc-cancel-frozen-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  dropDatabaseFor(dir);
});

const env = { SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0", GATEWAY_DATA_DIR: dir };

test("FLEX frozen as not refundable keeps its flights; an unfrozen order is quoted under the current policy with fare_conditions_current_policy", async () => {
  const clock = new ManualClock(T0);
  const first = await startTestGateway(env, clock);
  const flex = await bookBrand(first, "FLEX");
  const control = await bookBrand(first, "FLEX");
  const comfort = await bookBrand(first, "COMFORT");
  // Under today's FLEX policy: everything back less the 72 h band's 25.00.
  const before = await quote(first, flex.orderId);
  expect(before.penalty).toBe("25.00");
  await first.close();

  const store = await storeOf(dir);
  await rewriteCreated(store, flex.orderId, (o) => ({ ...o, fareConditions: { ...o.fareConditions!, directions: o.fareConditions!.directions.map((d) => ({ ...d, refundable: false })) } }));
  await rewriteCreated(store, comfort.orderId, ({ fareConditions: _gone, ...o }) => o as Order);
  await store.close();

  const second = await startTestGateway(env, clock);
  try {
    const frozen = await quote(second, flex.orderId);
    // Not refundable as frozen: the flight is kept whole (no extras were bought), nothing comes back.
    expect(frozen.refund).toBe("0.00");
    expect(frozen.body).toContain("The outbound fare is cancellable but not refundable");
    expect(frozen.body).not.toContain("<cns:Warning>");
    // The same brand, frozen as sold: still refundable less the fee.
    expect((await quote(second, control.orderId)).penalty).toBe("25.00");

    const fallback = await quote(second, comfort.orderId);
    expect(all(blocks(fallback.body, "Warning")[0]!, "Code")).toEqual(["fare_conditions_current_policy"]);
  } finally {
    await second.close();
  }
}, 60_000);
