import { describe, expect, test } from "bun:test";
import {
  CATALOGUE_SERVICES,
  PARTNER_PRODUCTS,
  RIDES,
  TAXONOMY_NODES,
  ancestry,
  codesetPath,
  filterByCriteria,
  selectedBy,
  taxonomyNode,
  type Classified,
} from "@ndc/supply";

const REQUIRED = ["1B58", "26AC", "2CEC", "2E7C", "2FA8", "2D50", "3138", "319C", "3200", "0E10"];

describe("airline taxonomy", () => {
  test("the tree holds the ten product codes of spec 4.8, each under a parent node", () => {
    for (const code of REQUIRED) {
      const node = taxonomyNode(code)!;
      expect(node).toBeDefined();
      expect(node.parent).toBeDefined();
      expect(taxonomyNode(node.parent!)).toBeDefined();
    }
  });

  test("the tree is well formed: unique codes, known parents, no cycles", () => {
    expect(new Set(TAXONOMY_NODES.map((n) => n.code)).size).toBe(TAXONOMY_NODES.length);
    for (const n of TAXONOMY_NODES) {
      if (n.parent) expect(taxonomyNode(n.parent)).toBeDefined();
      expect(ancestry(n.code).length).toBeLessThanOrEqual(TAXONOMY_NODES.length);
      expect(ancestry(n.code).at(-1)).toBe(n.code);
    }
  });

  test("each node has its codeset path for DescText", () => {
    expect(codesetPath("2E7C")).toBe("Ground transportation / Transfers / Train transfers");
    expect(codesetPath("1B58")).toBe("Airport services / Lounge access");
    expect(() => codesetPath("FFFF")).toThrow();
  });

  test("a parent criterion matches every node below it, at any depth; a child does not match its parent", () => {
    const train: Classified = { taxonomyCode: "2E7C", rfic: "I", rfisc: "PTN" };
    expect(selectedBy(train, { include: [{ taxonomyCode: "0410" }] })).toBe(true);
    expect(selectedBy(train, { include: [{ taxonomyCode: "0400" }] })).toBe(true);
    expect(selectedBy(train, { include: [{ taxonomyCode: "2e7c" }] })).toBe(true);
    expect(selectedBy({ taxonomyCode: "0410" }, { include: [{ taxonomyCode: "2E7C" }] })).toBe(false);
    const ground = filterByCriteria([...RIDES, ...PARTNER_PRODUCTS], { include: [{ taxonomyCode: "0400" }] });
    expect(new Set(ground.map((p) => p.taxonomyCode))).toEqual(new Set(["2CEC", "2E7C", "2FA8", "2D50"]));
  });

  test("products sold with no node are never returned to a node, RFIC or RFISC criterion", () => {
    const everything: Classified[] = [...CATALOGUE_SERVICES, ...PARTNER_PRODUCTS];
    const unclassified = everything.filter((p) => p.taxonomyCode === undefined);
    expect(unclassified.length).toBeGreaterThanOrEqual(10);
    for (const p of unclassified) {
      expect(selectedBy(p, { include: [{ rfic: p.rfic! }] })).toBe(false);
      expect(selectedBy(p, { include: [{ rfisc: p.rfisc! }] })).toBe(false);
      for (const root of TAXONOMY_NODES.filter((n) => !n.parent)) expect(selectedBy(p, { include: [{ taxonomyCode: root.code }] })).toBe(false);
    }
    // RFIC C selects the classified bags and the pet in the cabin, not the pet shipped as cargo.
    const rficC = filterByCriteria(CATALOGUE_SERVICES, { include: [{ rfic: "C" }] }).map((s) => s.code);
    expect(rficC).toContain("PETC");
    expect(rficC).not.toContain("PETH");
  });

  test("an exclusion keeps unclassified products and removes what it names", () => {
    const kept = filterByCriteria(CATALOGUE_SERVICES, { exclude: [{ rfic: "C" }] }).map((s) => s.code);
    expect(kept).toContain("PETH");
    expect(kept).toContain("CELB");
    expect(kept).not.toContain("BAG1");
    expect(kept).not.toContain("PETC");
    expect(filterByCriteria(CATALOGUE_SERVICES, {}).length).toBe(CATALOGUE_SERVICES.length);
  });

  test("RFISC and node criteria combine: any include selects, any exclude removes", () => {
    const got = filterByCriteria(CATALOGUE_SERVICES, { include: [{ rfisc: "0CL" }, { taxonomyCode: "0300" }], exclude: [{ taxonomyCode: "26AC" }] }).map((s) => s.code);
    expect(got.sort()).toEqual(["LNGE", "PRIO", "WIFI"]);
  });
});
