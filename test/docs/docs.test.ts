import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderErrorsDoc } from "../../scripts/gen-error-docs";

const root = join(import.meta.dir, "../..");

test("docs/errors.md is the catalogue as it is now", () => {
  expect(readFileSync(join(root, "docs/errors.md"), "utf8")).toBe(renderErrorsDoc());
});

test("every environment variable the config reads is documented in docs/configuration.md", () => {
  const src = readFileSync(join(root, "packages/config/src/index.ts"), "utf8");
  const names = new Set([...src.matchAll(/env(?:\.|, ")([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
  expect(names.size).toBeGreaterThan(10);
  const doc = readFileSync(join(root, "docs/configuration.md"), "utf8");
  for (const n of names) expect(doc).toContain(`\`${n}\``);
});
