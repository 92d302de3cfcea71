import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { validateXml } from "../../support/xsd";
import { ORDER_FIXTURES, fixture } from "./helpers";

// The decoders are only as good as their fixtures: each must be a request the 24.4 schema accepts.
describe("order request fixtures are valid 24.4 requests", () => {
  const files = readdirSync(ORDER_FIXTURES).filter((f) => f.endsWith(".xml"));
  test("a fixture for every form", () => expect(files.length).toBeGreaterThanOrEqual(8));
  for (const f of files) {
    test(f, () => {
      const v = validateXml(fixture(f));
      expect(v.output).toContain("validates");
      expect(v.ok).toBe(true);
    });
  }
});
