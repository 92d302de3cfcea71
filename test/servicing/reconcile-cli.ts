import { reconcileFailedCommand } from "../../apps/cli/src/commands/reconcile-failed";
import type { TestGateway } from "../support/gateway";

/** `ndc-gateway reconcile-failed <args>` on a test gateway's store and clock: its exit code and every line it printed. */
export async function reconcileFailedCli(t: TestGateway, ...args: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await reconcileFailedCommand(args, { out: (l) => out.push(l), err: (l) => out.push(l), env: {} }, { store: t.gw.store, clock: t.gw.orders.ctx.clock });
  return { code, out };
}
