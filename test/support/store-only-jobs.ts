import type { JobContext } from "@ndc/scheduler";

/**
 * The domain part of a JobContext for runner tests whose jobs read only the store (leases,
 * overlaps, the retention sweep): every field throws when touched, so a job that reached for
 * orders, clearances or the dispatcher would fail the test rather than pass on a stand-in.
 */
export function storeOnlyDomain(): Pick<JobContext, "orders" | "clearances" | "notifications"> {
  const absent = (name: string) =>
    new Proxy({}, { get: (_t, p) => { throw new Error(`this test's job touched ${name}.${String(p)}: it has no domain`); } }) as never;
  return { orders: absent("orders"), clearances: absent("clearances"), notifications: absent("notifications") };
}
