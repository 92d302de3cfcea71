import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { rawRequest, startListeningGateway, type ListeningGateway } from "../support/raw-http";
import { ndcRequest } from "../support/requests";
import { assertSchemaValid } from "../support/xsd";

// Routing is on the request path alone, over a real Bun.serve socket: the Host header (short,
// long, an IP, or none at all) never moves where a request goes.
let g: ListeningGateway;
beforeAll(async () => {
  g = await startListeningGateway();
});
afterAll(() => g.close());

const HOSTS: [string, string][] = [
  ["Host: ab", "Host: ab\r\n"],
  ["Host: a", "Host: a\r\n"],
  ["Host: abc", "Host: abc\r\n"],
  ["an IPv6 literal", "Host: [::1]\r\n"],
  ["a 300-character Host", `Host: ${"h".repeat(300)}\r\n`],
  ["the listening address", "Host: 127.0.0.1\r\n"],
];

function get(path: string, host: string) {
  return rawRequest(g.port, `GET ${path} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
}

function post(path: string, host: string, headers: Record<string, string>, body: string) {
  const h = Object.entries({ ...headers, "content-length": String(Buffer.byteLength(body)) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return rawRequest(g.port, `POST ${path} HTTP/1.1\r\n${host}${h}Connection: close\r\n\r\n${body}`);
}

describe("routing ignores the Host header (real socket)", () => {
  for (const [name, host] of HOSTS) {
    test(`${name}: /health/ready answers, /zzzz/health/ready is 404`, async () => {
      const ok = await get("/health/ready", host);
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body)).toEqual({ status: "ready" });
      const nf = await get("/zzzz/health/ready", host);
      expect(nf.status).toBe(404);
      expect(JSON.parse(nf.body)).toEqual({ error: "not_found" });
      expect(nf.headers.get("cache-control")).toBe("no-store");
    });

    test(`${name}: POST /admin/24.4/AirShoppingRQ is 404, never processed as AirShopping`, async () => {
      const headers = {
        "content-type": "application/xml",
        "iata-message-name": "IATA_AirShoppingRQ",
        "x-api-key": g.gw.sandbox!.api_key,
      };
      const body = ndcRequest("AirShoppingRQ");
      const nf = await post("/admin/24.4/AirShoppingRQ", host, headers, body);
      expect(nf.status).toBe(404);
      expect(JSON.parse(nf.body)).toEqual({ error: "not_found" });
      // The real path still reaches the message (no handler is released in this gateway: 501).
      const real = await post("/24.4/AirShoppingRQ", host, headers, body);
      expect(real.status).toBe(501);
      assertSchemaValid(real.body);
      expect(real.body).toContain("<IATA_AirShoppingRS ");
      expect(errorCode(real.body)).toBe("message_not_available");
    });
  }

  test("under Host: ab, discovery answers and names the caller's own origin", async () => {
    const r = await get("/24.4?x=1", "Host: ab\r\n");
    expect(r.status).toBe(200);
    const doc = JSON.parse(r.body) as { endpoints?: Record<string, string>; [k: string]: unknown };
    expect(r.body).toContain("http://ab/");
    expect(r.body).not.toContain("gateway.invalid");
    expect(doc.version).toBe("24.4");
  });

  test("a request without Host is refused by the HTTP layer, never routed", async () => {
    const r = await rawRequest(g.port, "GET /health/ready HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(r.status).toBe(400);
  });
});
