import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CATALOGUE_SERVICES, PARTNER_PRODUCTS, PROMOTION_RULES, RIDES, TAXONOMY_NODES, coverage } from "@ndc/supply";
import { toDecimalString } from "@ndc/money";

const doc = readFileSync(join(import.meta.dir, "../../docs/supply.md"), "utf8");

test("docs/supply.md lists every catalogue extra with its RFIC, RFISC, node and prices", () => {
  for (const s of CATALOGUE_SERVICES) {
    const section = doc.slice(doc.indexOf("## Catalogue extras"), doc.indexOf("## Ground rides"));
    const row = section.split("\n").find((l) => l.startsWith(`| ${s.code} |`));
    expect(row).toBeDefined();
    expect(row).toContain(`| ${s.rfic} | ${s.rfisc} | ${s.taxonomyCode ?? "none"}`);
    expect(row).toContain(`${toDecimalString(s.price.short)} / ${toDecimalString(s.price.long)}`);
  }
});

test("docs/supply.md lists every partner product, ride, taxonomy node, promotion rule and the translation coverage", () => {
  for (const p of PARTNER_PRODUCTS) expect(doc).toContain(`| ${p.code} |`);
  for (const r of RIDES) expect(doc).toContain(`| ${r.code} |`);
  for (const n of TAXONOMY_NODES) expect(doc).toContain(`| ${n.code} | ${n.name} |`);
  for (const r of PROMOTION_RULES) expect(doc).toContain(`| ${r.id} |`);
  for (const l of ["fr", "de", "es", "zh", "pt"]) {
    const c = coverage(l);
    expect(doc).toContain(`| ${l} | ${c.translated} / ${c.total} |`);
  }
  expect(doc).toContain("page version 3, dated 2026-02-11");
  expect(doc).toContain("cannot be run offline");
});
