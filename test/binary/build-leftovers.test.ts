import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build-binary";
import { COMPILE_BUDGET_MS } from "./binary";
import { ROOT } from "./processes";

/**
 * Issue 19 item 25: `bun build --compile` writes a temporary .bun-build file of about 107 MB into
 * its working directory and leaves it there when killed (a test hook timing out killed it and
 * left it in the checkout). The build script compiles in the output's folder, removes what a
 * stopped compile left, and has its own time budget with its own message.
 */
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "ndc-build-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".bun-build"));

test("the compile's temporary file is written in the output's folder, never in the checkout, and is gone after", async () => {
  const before = leftovers(ROOT);
  const out = tempDir();
  const seen = { root: new Set<string>(), out: new Set<string>() };
  let building = true;
  const watch = (async () => {
    while (building) {
      for (const f of leftovers(ROOT)) if (!before.includes(f)) seen.root.add(f);
      for (const f of leftovers(out)) seen.out.add(f);
      await Bun.sleep(20);
    }
  })();
  const built = await buildBinary(join(out, "ndc-gateway"), { budgetMs: COMPILE_BUDGET_MS }).finally(() => (building = false));
  await watch;
  expect(built.bytes).toBeGreaterThan(1_000_000);
  expect([...seen.root]).toEqual([]);
  expect(seen.out.size).toBeGreaterThan(0);
  expect(leftovers(out)).toEqual([]);
  expect(leftovers(ROOT)).toEqual(before);
}, COMPILE_BUDGET_MS + 30_000);

test("past its budget the compile is stopped with a message that says so, and leaves no file behind", async () => {
  const before = leftovers(ROOT);
  const out = tempDir();
  const err = await buildBinary(join(out, "ndc-gateway"), { budgetMs: 1_000 }).then(
    () => null,
    (e: Error) => e.message,
  );
  expect(err).toBe("bun build --compile did not finish within its budget of 1 s and was stopped (a loaded machine: run again when it is quieter)");
  expect(readdirSync(out).filter((f) => f.endsWith(".bun-build") || f.startsWith("ndc-gateway"))).toEqual([]);
  expect(leftovers(ROOT)).toEqual(before);
}, 60_000);
