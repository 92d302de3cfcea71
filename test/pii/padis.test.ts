import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { PADIS_7365 } from "@ndc/pii";
import { PADIS_TSV, parsePadisTsv, renderPadisModule, PADIS_MODULE } from "../../scripts/gen-padis";

// ../shared is the team's reference folder; a checkout without it still has the embedded list.
test.skipIf(!existsSync(PADIS_TSV))("the embedded code list is ../shared/data/padis-7365.tsv as it is now", () => {
  const rows = parsePadisTsv(readFileSync(PADIS_TSV, "utf8"));
  expect(rows.length).toBe(96);
  expect([...PADIS_7365]).toEqual(rows);
  expect(readFileSync(PADIS_MODULE, "utf8")).toBe(renderPadisModule(rows));
});

test("the embedded code list has 96 distinct codes, 711 and 9PT among them", () => {
  expect(PADIS_7365.size).toBe(96);
  expect(PADIS_7365.has("711")).toBe(true);
  expect(PADIS_7365.has("9PT")).toBe(true);
  expect(PADIS_7365.get("PT")).toBe("Passport");
});

test("the generator refuses a file it does not understand", () => {
  expect(() => parsePadisTsv("code,description\nPT,Passport\n")).toThrow(/header/);
  expect(() => parsePadisTsv("code\tdescription\nPT\n")).toThrow(/malformed/);
  expect(() => parsePadisTsv("code\tdescription\nPT\tPassport\nPT\tAgain\n")).toThrow(/twice/);
});
