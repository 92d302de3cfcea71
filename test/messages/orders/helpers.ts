import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { refuseCardDataIn } from "@ndc/messages";
import { decodeEnvelope, parseXml, type Envelope } from "@ndc/xml";

export const ORDER_FIXTURES = resolve(import.meta.dir, "../../fixtures/ndc/orders");

export function fixture(name: string): string {
  return readFileSync(join(ORDER_FIXTURES, name), "utf8");
}

/** Parsed and card-scanned, then decoded: the transport pipeline's order (card data before anything). */
export function envelopeOf(xml: string): Envelope {
  const root = parseXml(xml, { maxDepth: 64, maxElements: 10_000 });
  refuseCardDataIn(root);
  return decodeEnvelope(root);
}

/** Runs a decoder on a fixture, optionally edited (each replacement must match). */
export function decodeFixture<T>(decode: (e: Envelope) => T, name: string, ...edits: [string | RegExp, string][]): T {
  let xml = fixture(name);
  for (const [from, to] of edits) {
    const before = xml;
    xml = xml.replace(from, to);
    if (xml === before) throw new Error(`edit ${String(from)} did not match ${name}`);
  }
  return decode(envelopeOf(xml));
}

/** Asserts the call fails with this code naming exactly this element; returns the error. */
export function expectRefused(fn: () => unknown, code: string, element: string): GatewayError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    const g = e as GatewayError;
    expect(g.code).toBe(code as GatewayError["code"]);
    expect(g.element).toBe(element);
    return g;
  }
  throw new Error(`expected ${code} at ${element}, but decoding succeeded`);
}
