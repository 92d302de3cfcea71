import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { killAll } from "../binary/processes";
import { T0 } from "../support/dates";
import { multiDataDir, startWorker, type Worker } from "./support";

/**
 * One business clock across processes (issue 22): SANDBOX_CLOCK_START says what business time
 * was at the real instant SANDBOX_CLOCK_STARTED_AT, so gateway processes started seconds apart
 * on one data directory read the same time. Without the anchor each starts the clock at its own
 * boot, and a later process runs behind by the seconds between the starts.
 */
const data = multiDataDir();
const workers: Worker[] = [];
afterAll(async () => {
  for (const w of workers) await w.stop();
  killAll();
  data.remove();
});

/** Business time minus real time, as the answer to GET /sandbox/clock reads it. */
async function offsetOf(w: Worker): Promise<number> {
  const { api_key } = JSON.parse(readFileSync(join(data.dir, "sandbox-credentials.json"), "utf8")) as { api_key: string };
  const before = Date.now();
  const r = await fetch(`${w.url}/sandbox/clock`, { headers: { "x-api-key": api_key } });
  expect(r.status).toBe(200);
  const { now } = (await r.json()) as { now: string };
  return Date.parse(now) - (before + Date.now()) / 2;
}

test("two processes started seconds apart with the same SANDBOX_CLOCK_START and SANDBOX_CLOCK_STARTED_AT read the same business time", async () => {
  const first = await startWorker(data.dir);
  workers.push(first);
  await Bun.sleep(3_000);
  const second = await startWorker(data.dir);
  workers.push(second);
  const a = await offsetOf(first);
  const b = await offsetOf(second);
  expect(Math.abs(a - b)).toBeLessThan(300);
  // Business time is T0 plus the real time since the anchor: before T0 it never reads.
  expect(Date.now() + a).toBeGreaterThanOrEqual(T0);

  // Control: the same start without the anchor begins at this process's boot, seconds behind.
  const unanchored = await startWorker(data.dir, { SANDBOX_CLOCK_STARTED_AT: "" });
  workers.push(unanchored);
  expect(a - (await offsetOf(unanchored))).toBeGreaterThan(2_500);
}, 60_000);
