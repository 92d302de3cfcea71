import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { validateXml } from "../../support/xsd";
import { FIXTURES, fixture } from "./helpers";

// The decoders are only as good as their fixtures: each must be a request the 24.4 schema accepts.
describe("shopping request fixtures are valid 24.4 requests", () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".xml"));
  test("there is a fixture for every form", () => expect(files.length).toBeGreaterThanOrEqual(11));
  for (const f of files) {
    test(f, () => {
      const v = validateXml(fixture(f));
      expect(v.output).toContain("validates");
      expect(v.ok).toBe(true);
    });
  }
  test("a fixture path resolves", () => expect(join(FIXTURES, files[0]!)).toContain("fixtures/ndc"));
});
