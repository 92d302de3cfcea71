/**
 * The PostgreSQL migrations folder keeps to its rules (decision 0041), without PostgreSQL:
 * the baseline's generated part is what scripts/pg-baseline.ts prints from SQLite's catalogue
 * today (so nobody edits it by hand and SQLite's 0001-0067 stay its source), it records exactly
 * the SQLite versions it stands for, and every later schema change is one file per engine with
 * the same name.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR, readMigrations } from "@ndc/store";
import { BASELINE, BASELINE_FILE, MARKER, coveredMigrations, generatedPart } from "../../scripts/pg-baseline";

test("the baseline's generated part is what the generator prints from SQLite's 0001-0067", async () => {
  const text = readFileSync(BASELINE_FILE, "utf8");
  const at = text.indexOf(MARKER);
  expect(at).toBeGreaterThan(0);
  expect(text.slice(0, at)).toBe(await generatedPart());
});

test("the baseline covers SQLite's versions up to 0067, recorded as SQLite records them", () => {
  const [baseline] = readMigrations(PG_MIGRATIONS_DIR);
  expect(baseline!.version).toBe(`${BASELINE}_baseline`);
  expect(baseline!.covers).toEqual(coveredMigrations().map((m) => m.version));
  expect(baseline!.covers!.at(-1)).toBe("0067_order_views_key");
});

test("after the baseline, a schema change is one file per engine with the same number and name", () => {
  const later = (dir: string) => readMigrations(dir).map((m) => m.version).filter((v) => v.slice(0, 4) > BASELINE);
  expect(later(PG_MIGRATIONS_DIR)).toEqual(later(MIGRATIONS_DIR));
  // Nothing numbered at or before the baseline but the baseline itself: PostgreSQL has no history before it.
  expect(readMigrations(PG_MIGRATIONS_DIR).filter((m) => m.version.slice(0, 4) <= BASELINE).map((m) => m.version)).toEqual([`${BASELINE}_baseline`]);
});
