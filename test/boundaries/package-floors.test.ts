import { describe, expect, test } from "bun:test";
import { allImports, declaredFloors, importsOf, violations, workspaces } from "../support/package-imports";

/**
 * Issue 21, section 5: the packages stand on the floors the README's layout table declares, and an
 * import only goes down, through the other package's name. An import up or sideways (shopping
 * reaching messages' views, the scheduler importing the gateway app) or into another package's
 * `src/` (messages reading shopping's id scheme by path) fails here with the file that makes it.
 */
const all = workspaces();
const floors = declaredFloors();

describe("the packages import only downwards", () => {
  const imports = allImports(all);

  test("the scan reads the packages and the README's floors (a scan of nothing proves nothing)", () => {
    expect(imports.length).toBeGreaterThan(800);
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((w) => !floors.has(w.dir)).map((w) => w.dir)).toEqual([]);
  });

  test("no import goes up or sideways, and none reaches into another package's files", () => {
    expect(violations(imports, floors, all)).toEqual([]);
  });

  test("the check itself: each planted violation is reported, and a plain import down is not", () => {
    const planted = (file: string, text: string) => violations(importsOf(file, text, all), floors, all);
    expect(planted("packages/shopping/src/x.ts", `import type { OfferView } from "@ndc/messages";`)).toHaveLength(1);
    expect(planted("apps/scheduler/src/x.ts", `import { postWebhook } from "@ndc/gateway";`)).toHaveLength(1);
    expect(planted("packages/messages/src/x.ts", `import { segmentId } from "@ndc/shopping/src/common/ids";`)).toHaveLength(1);
    expect(planted("packages/orders/src/x.ts", `export * from "../../shopping/src/common/ids";`)).toHaveLength(1);
    expect(planted("packages/auth/src/x.ts", `const m = await import("@ndc/messages");`)).toHaveLength(1);
    expect(planted("packages/messages/src/x.ts", `import { supplyOf } from "@ndc/supply";\nimport type { Order } from "@ndc/orders";`)).toEqual([]);
  });
});
