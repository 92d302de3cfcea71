import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DOCUMENT_TYPE_NAMES, IDENTITY_DOC_LIMITS } from "@ndc/pii";

const doc = readFileSync(join(import.meta.dir, "../../docs/identity-documents.md"), "utf8");

test("the display-name table in docs/identity-documents.md is the airline's table", () => {
  const section = doc.split("## The airline's display names")[1]!.split("\n## ")[0]!;
  const rows = [...section.matchAll(/^\| (\S+) \| (.+) \|$/gm)].map((m) => [m[1], m[2]]).filter(([c]) => c !== "Code" && c !== "---");
  expect(rows).toEqual([...DOCUMENT_TYPE_NAMES]);
});

test("the documented limits are the enforced ones", () => {
  const L = IDENTITY_DOC_LIMITS;
  expect([L.number, L.surname, L.givenNames, L.givenName, L.middleNames, L.middleName, L.suffix, L.title, L.birthplace]).toEqual([60, 64, 5, 64, 3, 64, 16, 16, 200]);
  for (const s of ["max 60 characters", "max 64", "At most 5 entries, each max 64", "At most 3 entries, each max 64", "Max 16 each", "Max 200"]) expect(doc).toContain(s);
});
