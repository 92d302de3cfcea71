import { expect, test } from "bun:test";
import { join } from "node:path";

// Bun runs TypeScript without checking types; this keeps the whole tree type-correct (strict).
test("the project type-checks (tsc --noEmit, strict)", () => {
  const root = join(import.meta.dir, "..");
  const r = Bun.spawnSync([join(root, "node_modules/.bin/tsc"), "--noEmit", "-p", root], { cwd: root });
  const out = r.stdout.toString() + r.stderr.toString();
  expect(out).toBe("");
  expect(r.exitCode).toBe(0);
  // tsc over the whole tree takes 2 s alone and much longer on a busy 2-core machine.
}, 120_000);
