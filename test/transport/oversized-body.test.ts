import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { rawRequest, startListeningGateway, type ListeningGateway } from "../support/raw-http";
import { assertSchemaValid } from "../support/xsd";

// Bun.serve's maxRequestBodySize answered an empty 413 of its own above MAX_BODY_BYTES + 64 KiB.
// Every size refusal must be the documented body: the NDC Error document on message paths, the
// OAuth JSON error on /oauth/token, each with Cache-Control: no-store. Real socket throughout.
const MAX = 4096;
let g: ListeningGateway;
beforeAll(async () => {
  g = await startListeningGateway({ MAX_BODY_BYTES: String(MAX) });
});
afterAll(() => g.close());

// Past the old hard stop (MAX + 64 KiB), then far past anything Bun could buffer.
const DECLARED = [MAX + 64 * 1024 + 1, 10 * 1024 * 1024 * 1024, 1_000_000_000_000];

function head(path: string, headers: Record<string, string>): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}Connection: close\r\n\r\n`;
}

function ndcHeaders(): Record<string, string> {
  return { "content-type": "application/xml", "iata-message-name": "IATA_AirShoppingRQ", "x-api-key": g.gw.sandbox!.api_key };
}

function expectNdc413(r: Awaited<ReturnType<typeof rawRequest>>): void {
  expect(r.status).toBe(413);
  expect(r.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  expect(r.headers.get("cache-control")).toBe("no-store");
  assertSchemaValid(r.body);
  expect(r.body).toContain("<IATA_AirShoppingRS ");
  expect(errorCode(r.body)).toBe("payload_too_large");
}

function expectOAuth413(r: Awaited<ReturnType<typeof rawRequest>>): void {
  expect(r.status).toBe(413);
  expect(r.headers.get("content-type")).toBe("application/json");
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(JSON.parse(r.body)).toEqual({ error: "invalid_request", error_description: "The token request body is too large." });
}

describe("oversized bodies get the documented refusal (real socket)", () => {
  for (const n of DECLARED) {
    test(`NDC message path, Content-Length ${n}: 413 payload_too_large in IATA_AirShoppingRS`, async () => {
      const r = await rawRequest(g.port, head("/24.4/AirShoppingRQ", { ...ndcHeaders(), "content-length": String(n) }) + "<IATA_AirShoppingRQ");
      expectNdc413(r);
    });

    test(`/oauth/token, Content-Length ${n}: 413 OAuth JSON error`, async () => {
      const r = await rawRequest(
        g.port,
        head("/oauth/token", { "content-type": "application/x-www-form-urlencoded", "content-length": String(n) }) + "grant_type=",
      );
      expectOAuth413(r);
    });
  }

  test("NDC message path, chunked body past the limit without Content-Length: 413 payload_too_large", async () => {
    const chunk = "x".repeat(1024);
    const chunks = Array.from({ length: 80 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join("") + "0\r\n\r\n";
    const r = await rawRequest(g.port, head("/24.4/AirShoppingRQ", { ...ndcHeaders(), "transfer-encoding": "chunked" }) + chunks);
    expectNdc413(r);
  });

  test("/oauth/token, chunked body past 8 KiB without Content-Length: 413 OAuth JSON error", async () => {
    const chunk = "a".repeat(1024);
    const chunks = Array.from({ length: 80 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join("") + "0\r\n\r\n";
    const r = await rawRequest(
      g.port,
      head("/oauth/token", { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" }) + chunks,
    );
    expectOAuth413(r);
  });

  test("NDC message path, huge Content-Length and no credentials: 401 invalid_token Error document, body never read", async () => {
    const { "x-api-key": _, ...anonymous } = ndcHeaders();
    const r = await rawRequest(g.port, head("/24.4/AirShoppingRQ", { ...anonymous, "content-length": String(1_000_000_000_000) }));
    expect(r.status).toBe(401);
    expect(r.headers.get("cache-control")).toBe("no-store");
    assertSchemaValid(r.body);
    expect(errorCode(r.body)).toBe("invalid_token");
  });

  test("an unknown path with a huge Content-Length is the 404 JSON, no-store", async () => {
    const r = await rawRequest(g.port, head("/nowhere", { "content-length": String(1_000_000_000_000) }));
    expect(r.status).toBe(404);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(r.body)).toEqual({ error: "not_found" });
  });

  test("a body within the limit is still read and processed", async () => {
    const body = `<IATA_AirShoppingRQ xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage"><Request/></IATA_AirShoppingRQ>`;
    const r = await rawRequest(g.port, head("/24.4/AirShoppingRQ", { ...ndcHeaders(), "content-length": String(body.length) }) + body);
    // Read and parsed: refused for its content, not its size.
    expect(r.status).toBe(400);
    assertSchemaValid(r.body);
    expect(errorCode(r.body)).toBe("distribution_chain_invalid");
  });
});
