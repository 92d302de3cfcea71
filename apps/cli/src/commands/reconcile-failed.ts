import { systemClock, type Clock } from "@ndc/clock";
import { listReconcileFailed, resolveReconcileFailed } from "@ndc/orders";
import type { Store } from "@ndc/store";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const RECONCILE_FAILED_USAGE = `usage: ndc-gateway reconcile-failed <command>
  list                                              open reconcile_failed staff items, oldest first
  resolve OPERATION_ID --retry|--close --by NAME [--note TEXT]
      --retry  the cause is fixed: the reconciler tries the operation again from its recovery point
      --close  settled outside the gateway: the operation is closed (compensated, resolved_by_staff)`;

/**
 * `reconcile-failed ...`: the staff queue of payment steps the reconciler could not finish after
 * its last attempt (spec 3; issue 9 item 11; table reconcile_failures). Works on the database
 * directly, beside a running gateway (the store serialises the writes).
 */
export async function reconcileFailedCommand(args: string[], io: CliIo, deps: { store?: Store; clock?: Clock } = {}): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(RECONCILE_FAILED_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== "list" && sub !== "resolve") throw new UsageError(`reconcile-failed: unknown command "${sub}"\n${RECONCILE_FAILED_USAGE}`);
  const resolve = sub === "resolve" ? parseResolve(rest) : undefined;
  if (sub === "list" && rest.length) throw new UsageError(`reconcile-failed list: unexpected argument ${rest[0]}`);
  return withStaffStore(io, deps.store, async (store) => {
    if (resolve) {
      await resolveReconcileFailed(store, resolve.operationId, resolve.resolution, resolve.by, resolve.note, (deps.clock ?? systemClock).now());
      io.out(`${resolve.operationId} resolved: ${resolve.resolution}`);
      return 0;
    }
    const items = await listReconcileFailed(store);
    if (items.length === 0) io.out("no open reconcile_failed items");
    for (const i of items) {
      io.out(`${i.operationId}  ${i.kind}  order ${i.orderId ?? "-"}  phase ${i.phase}  ${i.attempts} attempts  raised ${new Date(i.raisedAt).toISOString()}  last error: ${i.lastError}`);
    }
    return 0;
  });
}

function parseResolve(args: string[]): { operationId: string; resolution: "retry" | "closed"; by: string; note: string } {
  const [operationId, ...flags] = args;
  let resolution: "retry" | "closed" | undefined;
  let by: string | undefined;
  let note = "";
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i]!;
    if (f === "--retry" || f === "--close") {
      if (resolution) throw new UsageError("reconcile-failed resolve takes one of --retry or --close");
      resolution = f === "--retry" ? "retry" : "closed";
    } else if (f === "--by" || f === "--note") {
      const v = flags[++i];
      if (v === undefined) throw new UsageError(`reconcile-failed resolve: ${f} needs a value`);
      if (f === "--by") by = v;
      else note = v;
    } else throw new UsageError(`reconcile-failed resolve: unexpected argument ${f}`);
  }
  if (!operationId || operationId.startsWith("--")) throw new UsageError(`reconcile-failed resolve takes OPERATION_ID\n${RECONCILE_FAILED_USAGE}`);
  if (!resolution) throw new UsageError("reconcile-failed resolve needs --retry or --close");
  if (!by) throw new UsageError("reconcile-failed resolve needs --by NAME (who resolved it)");
  return { operationId, resolution, by, note };
}
