import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { listen } from "@ndc/gateway";
import { startTestGateway, errorCode, type TestGateway } from "../support/gateway";
import { orderCreateRQ } from "../orders-http/helpers";

/**
 * What the request log line says (issue 7 item 9): every refusal carries its errorCode, OrderCreate's
 * business refusals included (they are answered as stored documents, not thrown), and a client
 * that leaves before its answer is logged as client_abort with status 499, never as an unhandled
 * 500. The abort tests use a real listening socket: a raw TCP client that sends headers and part
 * of the body then closes, and a fetch whose body stream is aborted mid-way.
 */
let t: TestGateway;
let server: { url: string; stop(graceMs?: number): Promise<void> };
beforeAll(async () => {
  t = await startTestGateway({ PORT: "0" });
  server = listen(t.gw);
});
afterAll(async () => {
  await server.stop(100);
  await t.close();
});

const lines = () => t.logs.map((l) => JSON.parse(l));
const requestLines = () => lines().filter((l) => l.event === "request");

/** Waits (bounded) until a request line shows up: the server logs after the client has gone. */
async function nextRequestLine(): Promise<any> {
  for (let i = 0; i < 100 && requestLines().length === 0; i++) await Bun.sleep(20);
  return requestLines()[0];
}

describe("OrderCreateRQ business refusals are logged with their errorCode", () => {
  test("offer_not_found (404): the first answer and its byte-for-byte replay both log it", async () => {
    const shopped = { offerId: "OFR-NOSUCHOFFER", itemIds: ["OFR-NOSUCHOFFER-ADT"], totalMinor: 1000 };
    const rq = orderCreateRQ({ shopped, correlationId: "LOG-OC-1", trxId: "TRX-1" });
    for (const round of ["first", "replay"]) {
      t.logs.length = 0;
      const r = await t.ndc("OrderCreateRQ", rq);
      expect(r.status).toBe(404);
      expect(errorCode(r.body)).toBe("offer_not_found");
      const [line] = requestLines();
      expect({ round, ...line }).toMatchObject({ round, message: "OrderCreateRQ", correlationId: "LOG-OC-1", status: 404, errorCode: "offer_not_found" });
      expect(line.declineReason).toBeUndefined();
    }
  });

  test("a refusal thrown before the idempotent section (request_invalid) is logged too", async () => {
    t.logs.length = 0;
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped: { offerId: "OFR-X", itemIds: ["OFR-X-ADT"], totalMinor: 1 }, correlationId: "LOG-OC-2", trxId: "T", pax: [{ id: "PAX1", surname: "" }] }));
    expect(r.status).toBe(400);
    expect(requestLines()[0]).toMatchObject({ status: 400, errorCode: "request_invalid" });
  });
});

describe("a client that leaves before its answer", () => {
  const headers = () => ({
    "content-type": "application/xml",
    "iata-message-name": "IATA_AirShoppingRQ",
    "x-api-key": t.gw.sandbox!.api_key,
  });

  test("raw socket: headers and part of the body, then close -> one line, status 499, client_abort, no unhandled", async () => {
    t.logs.length = 0;
    const u = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const s = connect(Number(u.port), u.hostname, () => {
        const head = Object.entries({ host: u.host, ...headers(), "content-length": "5000" }).map(([k, v]) => `${k}: ${v}\r\n`).join("");
        s.write(`POST /24.4/AirShoppingRQ HTTP/1.1\r\n${head}\r\n<IATA_AirShoppingRQ xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage">`);
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 150);
      });
      s.on("error", reject);
    });
    const line = await nextRequestLine();
    expect(line).toMatchObject({ event: "request", message: "AirShoppingRQ", status: 499, errorCode: "client_abort", client: t.gw.sandbox!.client_id });
    expect(requestLines()).toHaveLength(1);
    expect(lines().filter((l) => l.event === "unhandled" || l.level === "error")).toEqual([]);
  });

  test("fetch aborted while its body is still streaming -> status 499, client_abort, no unhandled", async () => {
    t.logs.length = 0;
    const ac = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("<IATA_AirShoppingRQ "));
      },
    });
    const sent = fetch(`${server.url}/24.4/AirShoppingRQ`, { method: "POST", body, signal: ac.signal, headers: headers(), duplex: "half" } as RequestInit).then(
      () => "answered",
      (e: Error) => e.name,
    );
    await Bun.sleep(150);
    ac.abort();
    expect(await sent).toBe("AbortError");
    const line = await nextRequestLine();
    expect(line).toMatchObject({ event: "request", message: "AirShoppingRQ", status: 499, errorCode: "client_abort" });
    expect(lines().filter((l) => l.event === "unhandled" || l.level === "error")).toEqual([]);
  });

  test("a token request aborted mid-body is the client's abort too, not http_unhandled", async () => {
    t.logs.length = 0;
    const ac = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("grant_type=client_cre"));
      },
    });
    const sent = fetch(`${server.url}/oauth/token`, {
      method: "POST",
      body,
      signal: ac.signal,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit).then(
      () => "answered",
      (e: Error) => e.name,
    );
    await Bun.sleep(150);
    ac.abort();
    expect(await sent).toBe("AbortError");
    const line = await nextRequestLine();
    expect(line).toMatchObject({ event: "request", status: 499, errorCode: "client_abort", path: "/oauth/token" });
    expect(lines().filter((l) => l.level === "error")).toEqual([]);
  });

  test("a request that completes normally over the same socket path is still logged as itself", async () => {
    t.logs.length = 0;
    const r = await fetch(`${server.url}/24.4/AirShoppingRQ`, { method: "POST", body: "<broken", headers: headers() });
    expect(r.status).toBe(400);
    expect((await nextRequestLine())).toMatchObject({ status: 400, errorCode: "xml_malformed" });
  });
});

test("a client that stops sending is cut after HTTP_IDLE_TIMEOUT_SECONDS and logged as client_abort (499)", async () => {
  const g = await startTestGateway({ PORT: "0", HTTP_IDLE_TIMEOUT_SECONDS: "1" });
  const srv = listen(g.gw);
  try {
    const u = new URL(srv.url);
    const s = connect(Number(u.port), u.hostname);
    await new Promise<void>((resolve, reject) => {
      s.on("connect", () => resolve());
      s.on("error", reject);
    });
    const closed = new Promise<number>((resolve) => {
      const t0 = performance.now();
      s.on("close", () => resolve(performance.now() - t0));
    });
    s.write(`POST /24.4/AirShoppingRQ HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: application/xml\r\niata-message-name: IATA_AirShoppingRQ\r\nx-api-key: ${g.gw.sandbox!.api_key}\r\ncontent-length: 5000\r\n\r\n<IATA_AirShoppingRQ>`);
    // The client stays connected and silent: the server, not the client, ends it.
    const after = await Promise.race([closed, Bun.sleep(8_000).then(() => -1)]);
    expect(after).toBeGreaterThan(500);
    for (let i = 0; i < 100 && !g.logs.some((l) => l.includes('"event":"request"')); i++) await Bun.sleep(20);
    const logged = g.logs.map((l) => JSON.parse(l));
    expect(logged.filter((l) => l.event === "request")).toMatchObject([{ message: "AirShoppingRQ", status: 499, errorCode: "client_abort" }]);
    expect(logged.filter((l) => l.level === "error")).toEqual([]);
  } finally {
    await srv.stop(100);
    await g.close();
  }
}, 15_000);
