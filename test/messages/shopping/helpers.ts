import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { decodeEnvelope, parseXml, type Envelope } from "@ndc/xml";

export const FIXTURES = resolve(import.meta.dir, "../../fixtures/ndc");

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}

export function envelopeOf(xml: string): Envelope {
  return decodeEnvelope(parseXml(xml, { maxDepth: 64, maxElements: 10_000 }));
}

/** Runs a decoder on a fixture, optionally edited (a plain string replacement that must match). */
export function decodeFixture<T>(decode: (e: Envelope) => T, name: string, edit?: [string | RegExp, string]): T {
  let xml = fixture(name);
  if (edit) {
    const before = xml;
    xml = xml.replace(edit[0], edit[1]);
    if (xml === before) throw new Error(`edit ${String(edit[0])} did not match ${name}`);
  }
  return decode(envelopeOf(xml));
}

/** Asserts the call fails with request_invalid naming exactly this element path. */
export function expectInvalid(fn: () => unknown, element: string): GatewayError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    const g = e as GatewayError;
    expect(g.code).toBe("request_invalid");
    expect(g.element).toBe(element);
    return g;
  }
  throw new Error(`expected request_invalid at ${element}, but decoding succeeded`);
}
