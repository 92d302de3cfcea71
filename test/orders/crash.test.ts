import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "./helpers";

/**
 * SIGKILL a process at each phase boundary of the OrderCreate saga (open, authorise, commit,
 * capture, close: packages/orders/src/create/saga.ts), restart on the same database and run
 * the reconciler: the order is either complete (booked, holds sold, every leg captured) or
 * absent with nothing held and nothing authorised (every leg voided, settlement pending back
 * to zero).
 */
const WORKER = join(import.meta.dir, "../fixtures/orders-crash-worker.ts");
const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));

async function runWorker(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; signal: unknown; out: string; err: string }> {
  const child = Bun.spawn([process.execPath, WORKER, ...args], { stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  await child.exited;
  clearTimeout(watchdog);
  return { code: child.exitCode, signal: child.signalCode, out, err };
}

const POINTS = [
  { at: "after_holds", complete: false },
  { at: "after_authorise", complete: false },
  { at: "after_commit", complete: true },
  { at: "before_capture", complete: true },
  { at: "after_capture", complete: true },
  // Closed before the process died: nothing left for the reconciler.
  { at: "after_close", complete: true },
] as const;

describe("OrderCreate killed at each step", () => {
  for (const p of POINTS) {
    test(`${p.at}: after restart and reconcile the order is ${p.complete ? "complete with its legs captured" : "absent with nothing held or authorised"}`, async () => {
      const tmp = tempDir();
      dirs.push(tmp);
      const run = await runWorker(["run", tmp.dir, p.at], { NDC_ORDERS_CRASH_AT: p.at });
      expect(run.signal).toBe("SIGKILL");
      expect(run.out).toBe("ready\n");
      const v = await runWorker(["verify", tmp.dir, p.at]);
      expect(v.err).toBe("");
      expect(v.code).toBe(0);
      const r = JSON.parse(v.out);
      expect(r.again).toEqual({ finished: [], compensated: [], failed: [], raised: [] });
      const f = r.footprint;
      if (p.complete) {
        expect(r.report.finished).toHaveLength(p.at === "after_close" ? 0 : 1);
        expect(r.order.state).toBe("booked");
        expect(r.order.inventoryConfirmed).toBe(true);
        expect(r.order.legs.map((l: { state: string }) => l.state)).toEqual(["captured", "captured"]);
        expect(f.seats.map((s: { status: string }) => s.status)).toEqual(["sold", "sold"]);
        expect(f.partners).toEqual([{ product_code: "PP-ESIM", status: "sold" }]);
        expect(f.legs.map((l: { state: string }) => l.state)).toEqual(["captured", "captured"]);
        expect(r.settlement.used).toBe(5_000);
      } else {
        expect(r.report.compensated).toHaveLength(1);
        expect(r.order).toBeNull();
        expect(f.order).toBeUndefined();
        expect(f.seats).toEqual([]);
        expect(f.partners).toEqual([]);
        expect(f.legs.every((l: { state: string }) => l.state === "voided" || l.state === "declined")).toBe(true);
        if (p.at === "after_authorise") expect(f.legs).toHaveLength(2);
        expect(r.settlement.used).toBe(0);
      }
      expect(r.settlement.pending).toBe(0);
    }, 30_000);
  }
});
