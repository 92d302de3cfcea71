import { afterAll, expect, test } from "bun:test";

import { T0 } from "../support/dates";
import { businessOffset, multiDataDir } from "./support";

/**
 * One business clock across processes (issue 22): SANDBOX_CLOCK_START says what business time
 * was at the real instant SANDBOX_CLOCK_STARTED_AT, so gateway processes started seconds apart
 * on one data directory read the same time. Without the anchor each starts the clock at its own
 * boot, and a later process runs behind by the seconds between the starts.
 */
const data = multiDataDir();
afterAll(() => data.close());

test("two processes started seconds apart with the same SANDBOX_CLOCK_START and SANDBOX_CLOCK_STARTED_AT read the same business time", async () => {
  const first = await data.startWorker();
  await Bun.sleep(3_000);
  const second = await data.startWorker();
  const a = await businessOffset(first, data.dir);
  const b = await businessOffset(second, data.dir);
  expect(Math.abs(a - b)).toBeLessThan(300);
  // Business time is T0 plus the real time since the anchor: before T0 it never reads.
  expect(Date.now() + a).toBeGreaterThanOrEqual(T0);

  // Control: the same start without the anchor begins at this process's boot, seconds behind.
  const unanchored = await data.startWorker({ SANDBOX_CLOCK_STARTED_AT: "" });
  expect(a - (await businessOffset(unanchored, data.dir))).toBeGreaterThan(2_500);
}, 60_000);
