import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CATALOGUE, GatewayError, type ErrorCode, type ErrorFacts } from "@ndc/errors";
import type { MessageHandler } from "@ndc/messages";
import { factHeaders, statusOf } from "../../apps/gateway/src/http/error-mapping";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";

/**
 * The edge's one mapping from a domain error (code + facts) to HTTP: status from the catalogue,
 * headers from the facts. Checked as a table, then over the real app with a handler that throws
 * each refusal code, so the status a seller sees is the catalogue's for every code.
 */
describe("error mapping (apps/gateway/src/http/error-mapping.ts)", () => {
  test("every code's status is the catalogue's", () => {
    for (const code of Object.keys(CATALOGUE) as ErrorCode[]) expect([code, statusOf(code)]).toEqual([code, CATALOGUE[code].status]);
  });

  const table: [string, ErrorFacts, Record<string, string>][] = [
    ["no facts, no headers", {}, {}],
    ["retry later", { retryAfterSeconds: 1 }, { "retry-after": "1" }],
    ["retry after zero seconds is still said", { retryAfterSeconds: 0 }, { "retry-after": "0" }],
    ["a bearer challenge", { challenge: 'Bearer realm="ndc-gateway"' }, { "www-authenticate": 'Bearer realm="ndc-gateway"' }],
    ["the methods taken", { allowedMethods: ["POST"] }, { allow: "POST" }],
    ["several methods", { allowedMethods: ["GET", "HEAD"] }, { allow: "GET, HEAD" }],
    [
      "all at once, after the answer's own headers",
      { retryAfterSeconds: 30, challenge: "Basic", allowedMethods: ["POST"] },
      { "content-type": "x", allow: "POST", "retry-after": "30", "www-authenticate": "Basic" },
    ],
  ];
  for (const [name, facts, headers] of table) {
    test(`facts to headers: ${name}`, () => {
      const base: Record<string, string> = name.startsWith("all") ? { "content-type": "x" } : {};
      const out = factHeaders(facts, base);
      expect(out).toEqual(headers);
      expect(Object.keys(out)).toEqual(Object.keys(headers));
    });
  }
});

describe("over HTTP: a handler's refusal answers the catalogue's status and the facts' headers", () => {
  let t: TestGateway;
  let thrown: GatewayError = new GatewayError("request_invalid");
  const throwing: MessageHandler = async () => {
    throw thrown;
  };
  beforeAll(async () => {
    t = await startTestGateway({}, undefined, new Map([["AirShoppingRQ", throwing]]));
  });
  afterAll(() => t.close());

  const codes = (Object.keys(CATALOGUE) as ErrorCode[]).filter((c) => CATALOGUE[c].status >= 400 && c !== "internal_error" && c !== "client_abort");
  test("the table covers the refusal codes", () => expect(codes.length).toBeGreaterThan(60));
  for (const code of codes) {
    test(`${code} -> ${CATALOGUE[code].status}`, async () => {
      thrown = new GatewayError(code, { detail: "(mapped)", element: "Request" });
      const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ"));
      expect(r.status).toBe(CATALOGUE[code].status);
      expect(errorCode(r.body)).toBe(code);
      expect(r.body).toContain("<cns:TagText>Request</cns:TagText>");
      for (const h of ["retry-after", "www-authenticate", "allow"]) expect(r.headers.get(h)).toBeNull();
    });
  }

  test("a busy actor's retryAfterSeconds is the Retry-After header", async () => {
    thrown = new GatewayError("actor_busy", { detail: "(order mailbox full)", retryAfterSeconds: 1 });
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ"));
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("1");
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  test("a request in flight says when to retry, with its catalogue status 409", async () => {
    thrown = new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ"));
    expect([r.status, r.headers.get("retry-after"), errorCode(r.body)]).toEqual([409, "1", "request_in_progress"]);
  });
});
