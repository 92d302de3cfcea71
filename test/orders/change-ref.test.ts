import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { orderIds } from "@ndc/orders";

/**
 * Issue 21 item 3: a change's reference is built in one place (ids.changeRef). Journals, ledger
 * legs and history entries already hold these forms, so they are pinned here; and no other file
 * of packages/orders builds one by hand.
 */
test("each kind of change keeps the reference form journals already hold", () => {
  const op = "SGA0123456789ABCDEF0123456789";
  expect(orderIds.changeRef("addition", op)).toBe("add-0123456789AB");
  expect(orderIds.changeRef("flightChange", op)).toBe("chg-0123456789AB");
  expect(orderIds.changeRef("itemsCancellation", op)).toBe("cxi-0123456789AB");
  expect(orderIds.changeRef("retainedLapse", op)).toBe("rvl-0123456789AB");
  expect(orderIds.changeRef("paymentRetry", op)).toBe("retry-0123456789AB");
  expect(orderIds.changeRef("rename", op)).toBe(op);
});

test("no file of packages/orders but ids.ts builds a change reference from an operation id", () => {
  const root = join(import.meta.dir, "../../packages/orders/src");
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts") && f !== "ids.ts");
  const built = files.filter((f) => /`[a-z]+-\$\{\w+\.slice\(3, 15\)\}`/.test(readFileSync(join(root, f), "utf8")));
  expect(built).toEqual([]);
});
