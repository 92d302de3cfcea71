import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Server } from "bun";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { bootGateway, listen, type BootedGateway } from "@ndc/gateway";
import type { GatewayApp } from "../../apps/gateway/src/app";
import { edgeFetch } from "../../apps/gateway/src/edge";
import { ndcRequest } from "../support/requests";

/**
 * POST /24.4/<MessageName> goes from Bun.serve straight to the NDC pipeline (apps/gateway/src/edge.ts),
 * skipping Elysia. The answer must be what the Elysia route gives, byte for byte: checked over real
 * sockets against a second server that hands every request to Elysia, and in process with a count of
 * the requests Elysia saw.
 */
let gw: BootedGateway;
let direct: { url: string; stop(graceMs?: number): Promise<void> };
let viaElysia: Server<unknown>;
let dataDir: string;
let body: string;
let key: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "ndc-direct-"));
  const config = loadConfig({ GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", PORT: "0" });
  gw = await bootGateway({ config, logger: createLogger({ level: "silent" }) });
  direct = listen(gw);
  viaElysia = Bun.serve({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: Number.MAX_SAFE_INTEGER, fetch: (r) => gw.app.handle(r) });
  key = gw.sandbox!.api_key;
  body = ndcRequest("AirShoppingRQ", { seller: gw.sandbox!.iata_number, correlationId: "c&amp;1", trxId: "t1" });
});
afterAll(async () => {
  await direct.stop(100);
  viaElysia.stop(true);
  await gw.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The whole answer as sent, with the two parts that differ on every call blanked. */
function rawAnswer(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect({ host: "127.0.0.1", port }, () => s.write(request));
    s.on("data", (d: Buffer) => chunks.push(d));
    s.on("error", reject);
    s.on("close", () =>
      resolve(
        Buffer.concat(chunks)
          .toString("latin1")
          .replace(/\r\nDate: [^\r]*/i, "\r\nDate: -")
          .replace(/\r\nx-request-id: [A-Za-z0-9_-]{12}/i, "\r\nx-request-id: -"),
      ),
    );
  });
}

function post(path: string, headers: Record<string, string>, payload: string | Buffer): Buffer {
  const b = typeof payload === "string" ? Buffer.from(payload) : payload;
  const h = Object.entries({ host: "gw.test", connection: "close", ...headers, "content-length": String(b.length) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${h}\r\n`), b]);
}

const xml = () => ({ "x-api-key": key, "iata-message-name": "IATA_AirShoppingRQ", "content-type": "application/xml" });
const cases: [string, () => Buffer | string][] = [
  ["request_invalid from the decoder", () => post("/24.4/AirShoppingRQ", xml(), body)],
  ["gzip answer", () => post("/24.4/AirShoppingRQ", { ...xml(), "accept-encoding": "gzip" }, body)],
  ["gzip request body", () => post("/24.4/AirShoppingRQ", { ...xml(), "content-encoding": "gzip" }, gzipSync(body))],
  ["a query string", () => post("/24.4/AirShoppingRQ?x=1", xml(), body)],
  ["no credentials", () => post("/24.4/AirShoppingRQ", { "iata-message-name": "IATA_AirShoppingRQ", "content-type": "application/xml" }, body)],
  ["a wrong IATA-Message-Name", () => post("/24.4/AirShoppingRQ", { ...xml(), "iata-message-name": "IATA_OfferPriceRQ" }, body)],
  ["malformed XML", () => post("/24.4/AirShoppingRQ", xml(), body.slice(0, -3))],
  ["a DOCTYPE", () => post("/24.4/AirShoppingRQ", xml(), `<!DOCTYPE x [<!ENTITY a "b">]><x/>`)],
  ["an empty body", () => post("/24.4/AirShoppingRQ", xml(), "")],
  ["an unknown message (IATA_Acknowledgement)", () => post("/24.4/FlyMeRQ", xml(), body)],
  ["a message its decoder refuses (OrderQuoteRQ with Request, not Payload)", () => post("/24.4/OrderQuoteRQ", { ...xml(), "iata-message-name": "IATA_OrderQuoteRQ" }, ndcRequest("OrderQuoteRQ", { seller: gw.sandbox!.iata_number }))],
  ["a chunked body", () => `POST /24.4/AirShoppingRQ HTTP/1.1\r\nhost: gw.test\r\nconnection: close\r\nx-api-key: ${key}\r\niata-message-name: IATA_AirShoppingRQ\r\ncontent-type: application/xml\r\ntransfer-encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`],
  ["a body over the limit", () => post("/24.4/AirShoppingRQ", xml(), "x".repeat(2_000_000))],
];

describe("POST /24.4/<MessageName> without Elysia answers exactly what the Elysia route answers", () => {
  for (const [name, request] of cases) {
    test(name, async () => {
      const viaEdge = await rawAnswer(Number(new URL(direct.url).port), request());
      const viaApp = await rawAnswer(viaElysia.port!, request());
      expect(viaEdge.startsWith("HTTP/1.1 ")).toBe(true);
      expect(viaEdge).toBe(viaApp);
    });
  }
});

describe("which requests take the direct path", () => {
  const seen: string[] = [];
  const counting = { handle: (r: Request) => (seen.push(`${r.method} ${new URL(r.url).pathname}`), gw.app.handle(r)) } as unknown as GatewayApp;
  const server = { requestIP: () => ({ address: "127.0.0.1", family: "IPv4", port: 1 }) } as unknown as Server<unknown>;
  const call = (method: string, path: string) =>
    edgeFetch({ app: counting, ndc: gw.ndc })(new Request(`http://gw.test${path}`, { method, headers: xml(), body: method === "POST" ? body : undefined }), server);

  test("POST to a message path never reaches Elysia, and answers the pipeline's refusal", async () => {
    seen.length = 0;
    const r = await call("POST", "/24.4/AirShoppingRQ");
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("<cns:Code>request_invalid</cns:Code>");
    expect(seen).toEqual([]);
  });

  test("everything else goes through Elysia: other methods, discovery, escaped or odd message paths", async () => {
    seen.length = 0;
    expect((await call("GET", "/24.4/AirShoppingRQ")).status).toBe(405);
    expect((await call("GET", "/24.4")).status).toBe(200);
    expect((await call("POST", "/24.4/Air%53hoppingRQ")).status).toBeGreaterThanOrEqual(400);
    await call("POST", "/24.4/AirShoppingRQ/");
    await call("POST", "/x/24.4/AirShoppingRQ");
    expect(seen).toEqual(["GET /24.4/AirShoppingRQ", "GET /24.4", "POST /24.4/Air%53hoppingRQ", "POST /24.4/AirShoppingRQ/", "POST /x/24.4/AirShoppingRQ"]);
  });
});
