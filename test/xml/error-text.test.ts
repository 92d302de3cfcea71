import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CATALOGUE, type ErrorCode } from "@ndc/errors";
import { MESSAGES } from "@ndc/messages";
import { errorDocument, type ErrorItem, type ResponseContext, type ResponseRoot } from "@ndc/xml";
import { errorTree } from "../../packages/xml/src/responses";
import { assertSchemaValid } from "../support/xsd";

/**
 * A one-Error answer in an NDC root is written as text (errorText in packages/xml/src/responses.ts)
 * instead of through the tree; it must be the tree's output byte for byte, for every root, code,
 * element and context, escaping included.
 */
const roots: ResponseRoot[] = [...new Map(MESSAGES.filter((m) => m.response.family === "ndc").map((m) => [m.response.root, m.response])).values()];
const codes = Object.keys(CATALOGUE) as ErrorCode[];
const awkward = ["", "plain", "a & b < c > d", 'quote " and apos \'', "tab\tnew\nline\r", "ctl \u0001\u0008\u000B\u001F end", "\uFFFE\uFFFF", "émoji 🛫 ünïcode", "]]>", "&amp; already", " "];
const contexts: ResponseContext[] = [
  { simulated: true },
  { simulated: false },
  { simulated: true, correlationId: "corr-1" },
  { simulated: true, trxId: "t&1" },
  { simulated: true, correlationId: "c<1>", trxId: "t1", carrier: "XB" },
  { simulated: false, correlationId: "", trxId: "" },
  { simulated: true, correlationId: "", trxId: "only-trx", carrier: "A&B" },
];

describe("the one-Error answer written as text is the tree's, byte for byte", () => {
  test("the roots cover the chain-carrying one", () => {
    expect(roots.length).toBeGreaterThanOrEqual(8);
    expect(roots.some((r) => r.chainRequired)).toBe(true);
  });

  test("every root x every code x each context", () => {
    let n = 0;
    for (const root of roots) {
      for (const code of codes) {
        for (const ctx of contexts) {
          const item: ErrorItem = { code, description: `${CATALOGUE[code].text} (x)`, element: n % 3 === 0 ? undefined : "Request/FlightRequest" };
          expect(errorDocument(root, [item], ctx)).toBe(errorTree(root, [item], ctx));
          n++;
        }
      }
    }
    expect(n).toBe(roots.length * codes.length * contexts.length);
  });

  test("awkward descriptions, elements and ids", () => {
    for (const root of roots) {
      for (const a of awkward) {
        for (const b of awkward) {
          const item: ErrorItem = { code: "request_invalid", description: a, element: b };
          const ctx: ResponseContext = { simulated: true, correlationId: b, trxId: a, carrier: a || undefined };
          expect(errorDocument(root, [item], ctx)).toBe(errorTree(root, [item], ctx));
        }
      }
    }
  });

  test("random text (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...roots),
        fc.constantFrom(...codes),
        fc.string({ unit: "binary" }),
        fc.option(fc.string({ unit: "binary" }), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.string({ unit: "binary" }), { nil: undefined }),
        fc.boolean(),
        (root, code, description, element, correlationId, trxId, simulated) => {
          const item: ErrorItem = { code, description, element };
          const ctx: ResponseContext = { simulated, correlationId, trxId, carrier: "XB" };
          return errorDocument(root, [item], ctx) === errorTree(root, [item], ctx);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test("several Errors, and the clearance family, still go through the tree", () => {
    const root = roots[0]!;
    const two: ErrorItem[] = [
      { code: "request_invalid", description: "a" },
      { code: "xml_malformed", description: "b", element: "X" },
    ];
    expect(errorDocument(root, two, { simulated: true })).toBe(errorTree(root, two, { simulated: true }));
    const clearance: ResponseRoot = { root: "IATA_PaymentClearanceRS", family: "clearance" };
    expect(errorDocument(clearance, [two[0]!], { simulated: true })).toBe(errorTree(clearance, [two[0]!], { simulated: true }));
  });

  test("what it writes is valid 24.4 (xmllint), the chain-carrying root included", () => {
    const item: ErrorItem = { code: "request_invalid", description: "A & B <x>", element: "Request" };
    const ctx: ResponseContext = { simulated: true, correlationId: "c&1", trxId: "t1", carrier: "XB" };
    for (const root of [roots[0]!, roots.find((r) => r.chainRequired)!]) assertSchemaValid(errorDocument(root, [item], ctx));
  });
});
