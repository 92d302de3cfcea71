import { GatewayError } from "@ndc/errors";
import { MAX_SANDBOX_RETIME_MINUTES, type OrdersService, type Seller } from "@ndc/orders";
import { json } from "./json";
import type { SandboxJobs } from "./sandbox";

/** The order domain's calls behind the sandbox's order controls. */
export type SandboxOrders = Pick<OrdersService, "sandboxScheduleChange" | "fly" | "retrieve">;

/**
 * The closing check's job, run by name after a flight is flown when it is registered (the
 * scheduler's job of the same name; docs/sandbox-controls.md).
 */
export const CLOSING_JOB = "orders.closing";

function scheduleAsk(body: Record<string, unknown>): { minutes?: number; cancelFlight?: boolean } {
  const { minutes, cancelFlight } = body;
  if (cancelFlight === true && minutes === undefined) return { cancelFlight: true };
  if (cancelFlight === undefined && typeof minutes === "number" && Number.isInteger(minutes) && minutes !== 0 && Math.abs(minutes) <= MAX_SANDBOX_RETIME_MINUTES) return { minutes };
  throw new GatewayError("request_invalid", {
    detail: `Send {"minutes": N} (a whole number from -${MAX_SANDBOX_RETIME_MINUTES} to ${MAX_SANDBOX_RETIME_MINUTES}, not 0) or {"cancelFlight": true}.`,
    element: minutes === undefined ? "cancelFlight" : "minutes",
  });
}

/**
 * POST /sandbox/orders/{orderId}/schedule-change and /fly (docs/sandbox-controls.md), `parts`
 * being what follows /sandbox/orders. The seller's own orders only: another seller's is
 * order_not_found, the same as a missing one.
 */
export async function sandboxOrderControl(parts: string[], body: Record<string, unknown>, seller: Seller, deps: { orders: SandboxOrders; jobs: SandboxJobs }): Promise<Response | null> {
  const [orderId, action] = parts;
  if (parts.length !== 2 || !orderId) return null;
  if (action === "schedule-change") {
    const order = await deps.orders.sandboxScheduleChange(orderId, seller, scheduleAsk(body));
    return json(200, {
      orderId: order.orderId,
      orderVersion: order.version,
      scheduleChanges: (order.scheduleChanges ?? []).map((c) => ({ flightKey: c.flightKey, kind: c.kind, ...(c.minutes !== undefined ? { minutes: c.minutes } : {}), reasonCode: c.reasonCode, at: new Date(c.at).toISOString() })),
      reaccommodation: order.reaccommodation ? { flightKeys: order.reaccommodation.flightKeys, since: new Date(order.reaccommodation.since).toISOString() } : null,
    });
  }
  if (action === "fly") {
    const flown = await deps.orders.fly(orderId, seller);
    const closing = deps.jobs[CLOSING_JOB];
    // The closing check, when this gateway has one: its run's summary, and the order as it left it
    // (closed, when delivered and settled: issue 19 item 19), so a repeat answers the same version.
    const summary = closing ? await closing() : undefined;
    const order = summary ? await deps.orders.retrieve(orderId, seller) : flown;
    return json(200, {
      orderId: order.orderId,
      orderVersion: order.version,
      state: order.state,
      flown: (order.flown ?? []).map((f) => f.flightKey),
      partnerDelivered: (order.partnerDelivered ?? []).map((d) => d.orderItemId),
      ...(summary ? { [CLOSING_JOB]: summary } : {}),
    });
  }
  return null;
}
