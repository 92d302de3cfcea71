import { expect, test } from "bun:test";
import { KeyedLock } from "@ndc/actors";

/**
 * The one per-operation lock (issue 8 §1): reentrant, so the request layer, the saga it runs and
 * a step the saga shares with the reconciler take the same lock without waiting for themselves;
 * other work on the key still waits its turn.
 */
test("work holding a key runs again under it at once; other work on the key waits until it is done", async () => {
  const lock = new KeyedLock();
  const order: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const outer = lock.run("op", async () => {
    order.push("outer");
    await lock.run("op", async () => order.push("inner, reentered"));
    expect(lock.holds("op")).toBe(true);
    await held;
    order.push("outer done");
  });
  const other = lock.run("op", async () => order.push("other"));
  await new Promise((r) => setTimeout(r, 5));
  expect(order).toEqual(["outer", "inner, reentered"]);
  expect(lock.holds("op")).toBe(false);
  release();
  await Promise.all([outer, other]);
  expect(order).toEqual(["outer", "inner, reentered", "outer done", "other"]);
});
