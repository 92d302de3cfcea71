import { afterEach, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { registerAgency, registerClient } from "@ndc/auth";
import { DECOY_HASH, hashSecret } from "../../packages/auth/src/secrets";
import { rawRequest, startListeningGateway, type ListeningGateway, type RawReply } from "../support/raw-http";

/**
 * /oauth/token spraying (random client_ids, each a fresh per-client bucket and an argon2id
 * verify): failed client authentications are limited per source address, over a real socket
 * where the gateway sees the peer address. Here the limit is 5 a minute.
 */
const FAILURES = 5;
let g: ListeningGateway | undefined;
afterEach(async () => {
  await g?.close();
  g = undefined;
});

async function start(): Promise<ListeningGateway> {
  g = await startListeningGateway({ RATE_LIMIT_TOKEN_FAILURES_PER_MINUTE: String(FAILURES), RATE_LIMIT_TOKEN_PER_MINUTE: "1000" });
  return g;
}

function tokenRequest(port: number, id: string, secret: string, localAddress?: string): Promise<RawReply> {
  const body = "grant_type=client_credentials";
  const auth = Buffer.from(`${id}:${secret}`).toString("base64");
  return rawRequest(
    port,
    `POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${auth}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    { localAddress, timeoutMs: 20_000 },
  );
}

const randomClient = () => tokenRequest(g!.port, `ndc_${randomBytes(10).toString("hex")}`, randomBytes(32).toString("base64url"));

function expectInvalidClient(r: RawReply): void {
  expect(r.status).toBe(401);
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(JSON.parse(r.body)).toEqual({ error: "invalid_client", error_description: "Client authentication failed: unknown client or wrong secret." });
}

function expectSourceLimited(r: RawReply): void {
  expect(r.status).toBe(429);
  expect(r.headers.get("content-type")).toBe("application/json");
  expect(r.headers.get("cache-control")).toBe("no-store");
  // 5 a minute: one more every 12 s.
  expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(12);
  expect(JSON.parse(r.body)).toEqual({ error: "rate_limited", error_description: "Too many failed token requests from this address." });
}

describe("token endpoint failures are limited per source address (real socket)", () => {
  test(`random client_ids: ${FAILURES} get 401 invalid_client, the next gets 429 with Retry-After`, async () => {
    await start();
    for (let i = 0; i < FAILURES; i++) expectInvalidClient(await randomClient());
    expectSourceLimited(await randomClient());
    expectSourceLimited(await randomClient());
  });

  test("decided: a valid client from a spent address is refused too (telling it apart would cost the limited verify)", async () => {
    await start();
    const s = g!.gw.sandbox!;
    for (let i = 0; i < FAILURES; i++) expectInvalidClient(await randomClient());
    expectSourceLimited(await tokenRequest(g!.port, s.client_id, s.client_secret));
  });

  test("another source address keeps its own budget", async () => {
    await start();
    const s = g!.gw.sandbox!;
    for (let i = 0; i < FAILURES; i++) expectInvalidClient(await randomClient());
    expectSourceLimited(await randomClient());
    const other = await tokenRequest(g!.port, s.client_id, s.client_secret, "127.0.0.2");
    expect(other.status).toBe(200);
    expect(other.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(other.body).token_type).toBe("Bearer");
  });

  test("successes do not spend the budget", async () => {
    await start();
    const s = g!.gw.sandbox!;
    for (let i = 0; i < 2 * FAILURES; i++) expect((await tokenRequest(g!.port, s.client_id, s.client_secret)).status).toBe(200);
    for (let i = 0; i < FAILURES; i++) expectInvalidClient(await randomClient());
    expectSourceLimited(await randomClient());
  });

  test("30 concurrent random client_ids: at most the budget is verified, the rest are 429", async () => {
    await start();
    const replies = await Promise.all(Array.from({ length: 30 }, () => randomClient()));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401).length).toBe(FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBe(30 - FAILURES);
  });
});

describe("an unknown client costs what a known one does", () => {
  test("the decoy hash is argon2id with the parameters real secrets are hashed with", async () => {
    const params = (h: string) => h.split("$").slice(1, 4).join("$");
    expect(params(DECOY_HASH)).toBe(params(await hashSecret("x")));
  });

  test("an unknown client_id takes as long as a known one with a wrong secret (median of 9, within 2x)", async () => {
    await start();
    await registerAgency(g!.gw.store, { agencyId: "AGY-T", iataNumber: "55555555", name: "Timing" });
    const known = await registerClient(g!.gw.store, { agency: "AGY-T", scopes: "ndc:shop" });
    const time = async (id: string) => {
      const t0 = performance.now();
      const r = await tokenRequest(g!.port, id, "wrong-secret", `127.0.0.${10 + (n++ % 200)}`);
      expect(r.status).toBe(401);
      return performance.now() - t0;
    };
    let n = 0;
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const k: number[] = [];
    const u: number[] = [];
    for (let i = 0; i < 9; i++) {
      k.push(await time(known.clientId));
      u.push(await time(`ndc_${randomBytes(10).toString("hex")}`));
    }
    const ratio = median(u) / median(k);
    console.log(`token 401 median: known client ${median(k).toFixed(1)} ms, unknown client ${median(u).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
