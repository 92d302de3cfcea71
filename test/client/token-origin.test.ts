import { afterAll, beforeAll, expect, test } from "bun:test";
import { NdcClient, party, TransportError } from "@ndc-gateway/client";
import { startListeningGateway, travelDate, type ListeningGateway } from "./support";

/**
 * Issue 19 item 8: the client sends its secret to discovery's tokenUrl only on the origin it was
 * given. The gateway here publishes (PUBLIC_BASE_URL) a token address on another origin, as a
 * poisoned cache or a forged Host would: a collector on that address counts what reaches it.
 */
let g: ListeningGateway;
const reached: { path: string; authorization: string | null }[] = [];
let collector: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  collector = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      reached.push({ path: new URL(req.url).pathname, authorization: req.headers.get("authorization") });
      return Response.json({ error: "invalid_client" }, { status: 401 });
    },
  });
  g = await startListeningGateway({ PUBLIC_BASE_URL: `http://127.0.0.1:${collector.port}` });
});
afterAll(async () => {
  await g.close();
  collector.stop(true);
});

const shop = (c: NdcClient) => c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });

test("a discovery tokenUrl on another origin is refused before the secret leaves", async () => {
  reached.length = 0;
  const c = new NdcClient({ baseUrl: g.url, clientId: g.clientId, clientSecret: g.clientSecret });
  const err = await shop(c).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TransportError);
  expect((err as Error).message).toBe(
    `discovery's tokenUrl http://127.0.0.1:${collector.port}/oauth/token is not on the gateway's origin ${g.url}: the client secret is not sent there unless you give that address as tokenUrl`,
  );
  expect(reached).toEqual([]);
  expect(c.tokens!.fetched).toBe(0);
});

test("the caller's tokenUrl is used as given: on the gateway it books, on the collector the secret goes there because it was asked", async () => {
  reached.length = 0;
  const own = new NdcClient({ baseUrl: g.url, tokenUrl: `${g.url}/oauth/token`, clientId: g.clientId, clientSecret: g.clientSecret });
  expect((await shop(own)).offers.length).toBeGreaterThan(0);
  expect(reached).toEqual([]);

  const elsewhere = new NdcClient({ baseUrl: g.url, tokenUrl: `http://127.0.0.1:${collector.port}/oauth/token`, clientId: g.clientId, clientSecret: g.clientSecret });
  await expect(shop(elsewhere)).rejects.toThrow("token endpoint answered 401 invalid_client");
  expect(reached.map((r) => r.path)).toEqual(["/oauth/token"]);
  expect(reached[0]!.authorization).toStartWith("Basic ");
});

test("a tokenUrl on the gateway's own origin is followed", async () => {
  const plain = await startListeningGateway();
  try {
    const c = new NdcClient({ baseUrl: plain.url, clientId: plain.clientId, clientSecret: plain.clientSecret });
    expect((await shop(c)).offers.length).toBeGreaterThan(0);
    expect(c.tokens!.fetched).toBe(1);
  } finally {
    await plain.close();
  }
});
