import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { envelope, party, selectAll, createRequest } from "@ndc-gateway/client";
import { sellerKey } from "./keys";
import { cli } from "./cli";
import { sandboxClient, startListeningGateway, travelDate, type ListeningGateway } from "./support";

/**
 * Issue 11 item 7: `ndc-gateway seller ...` against the real gateway over HTTP, built on
 * @ndc-gateway/client: human output by default, `--json` for scripts, the party checked before
 * anything is sent (exit 2), sign and verify, the listen receiver, the progress line.
 */
let g: ListeningGateway;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), "ndc-seller-cli-"));
beforeAll(async () => {
  g = await startListeningGateway();
  env = { NDC_CLIENT_ID: g.clientId, NDC_CLIENT_SECRET: g.clientSecret };
});
afterAll(async () => {
  await g.close();
  rmSync(dir, { recursive: true, force: true });
});

const seller = (args: string[], extra: Record<string, string> = {}) => cli(["seller", ...args, "--base-url", g.url], { ...env, ...extra });
const json = async (args: string[]) => {
  const r = await seller([...args, "--json"]);
  expect(r.err.filter((l) => !l.startsWith("…"))).toEqual([]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

test("token: credentials from the environment or the options; none is exit 2", async () => {
  const human = await seller(["token"]);
  expect(human.code).toBe(0);
  expect(human.out[0]).toMatch(/^access_token: ndc1\./);
  expect(human.out[2]).toMatch(/^expires_in: 1[78]\d\d s$/);
  const opts = await cli(["seller", "token", "--base-url", g.url, "--client-id", g.clientId, "--client-secret", g.clientSecret, "--json"]);
  expect(JSON.parse(opts.stdout).scope).toContain("ndc:order:write");
  const none = await cli(["seller", "token", "--base-url", g.url], {});
  expect(none.code).toBe(2);
  expect(none.err[0]).toContain("NDC_CLIENT_ID");
  const wrong = await cli(["seller", "token", "--base-url", g.url, "--client-id", g.clientId, "--client-secret", "wrong"], {});
  expect(wrong.code).toBe(1);
  expect(wrong.err[0]).toContain("401 invalid_client");
}, 60_000);

test("shop, price (items as shop prints them), seats", async () => {
  const human = await seller(["shop", "--from", "LHR", "--to", "CDG", "--date", travelDate(), "--adults", "2", "--infants", "1"]);
  expect(human.code).toBe(0);
  expect(human.out[1]).toBe("OFFER_ID\tBRAND\tTOTAL\tITEMS (ITEM_ID:PAX)");
  expect(human.out[2]).toMatch(/^OFR-\S+\tSAVER\t\d+\.\d\d EUR\tOFR-\S+-ADT:PAX1,PAX2 OFR-\S+-INF:PAX3$/);
  const shopped = await json(["shop", "--from", "LHR", "--to", "CDG", "--date", travelDate()]);
  const offer = shopped.offers[0];
  const priced = await seller(["price", offer.offerId, ...offer.items.map((i: { offerItemId: string; paxRefIds: string[] }) => `${i.offerItemId}:${i.paxRefIds.join(",")}`)]);
  expect(priced.code).toBe(0);
  expect(priced.out[0]).toMatch(/^priced offer OPR-\S+: \d+\.\d\d EUR/);
  const seats = await seller(["seats", offer.offerId]);
  expect(seats.code).toBe(0);
  expect(seats.out[0]).toMatch(/^\d+ seats for sale of \d+$/);
  expect(seats.out[2]).toMatch(/^\d+[A-K]\t\d+\.\d\d EUR\tALC-\S+\tSEAT-\S+$/);
}, 60_000);

test("book (a party with a child, paid), retrieve, list, cancel", async () => {
  const booked = await json(["book", "--from", "LHR", "--to", "CDG", "--date", travelDate(), "--adults", "1", "--children", "1", "--names", "Ada LOVELACE, Byron LOVELACE", "--birthdates", "1985-12-10,2018-03-01", "--brand", "FLEX", "--card-token", "tok_approve_visa"]);
  expect(booked.status).toBe("BOOKED");
  expect(booked.passengers.map((p: { ptc: string; givenName: string }) => `${p.ptc} ${p.givenName}`)).toEqual(["ADT Ada", "CHD Byron"]);
  expect(booked.correlationId).toMatch(/^ORDER-/);
  const read = await seller(["retrieve", booked.orderId]);
  expect(read.out[0]).toBe(`order ${booked.orderId}: BOOKED, total ${booked.total.amount} EUR`);
  const listed = await seller(["list"]);
  expect(listed.out[0]).toBe("ORDER_ID\tSTATUS\tCREATED\tROUTE\tDEPARTS");
  expect(listed.out.some((l) => l.startsWith(`${booked.orderId}\tBOOKED\t`))).toBe(true);
  const cancelled = await seller(["cancel", booked.orderId]);
  expect(cancelled.code).toBe(0);
  expect(cancelled.out[0]).toMatch(/^refund \d+\.\d\d EUR \(quote CXQ\./);
  expect(cancelled.out[1]).toBe(`order ${booked.orderId}: CANCELLED, total ${booked.total.amount} EUR`);
  const gone = await seller(["retrieve", "ORD-000000000000"]);
  expect(gone.code).toBe(1);
  expect(gone.err[0]).toContain("404 order_not_found");
}, 60_000);

describe("a party that cannot fly is refused before anything is sent (exit 2)", () => {
  const hits: string[] = [];
  let server: { port?: number; stop(force?: boolean): unknown };
  beforeAll(() => {
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => (hits.push(new URL(r.url).pathname), new Response("{}", { status: 500 })) });
  });
  afterAll(() => void server.stop(true));
  const cases: [string, string[], RegExp][] = [
    ["ten seated passengers", ["--adults", "6", "--children", "4", "--names", "x"], /at most 9 seated/],
    ["more infants than adults", ["--adults", "1", "--infants", "2", "--names", "x"], /lap/],
    ["no adult or child", ["--adults", "0", "--infants", "0", "--names", "x"], /at least one adult or child/],
    ["names do not match the party", ["--adults", "2", "--names", "Ada LOVELACE"], /1 name\(s\) for 2 passenger/],
    ["a name without a surname", ["--names", "Ada"], /given name and a surname/],
    ["a date that does not exist", ["--names", "Ada LOVELACE", "--birthdates", "1985-02-30"], /not a date/],
    ["a birth date in the future", ["--names", "Ada LOVELACE", "--birthdates", "2999-01-01"], /in the future/],
    ["an 'infant' of eight", ["--adults", "1", "--infants", "1", "--names", "Ada LOVELACE, Baby LOVELACE", "--birthdates", "1985-12-10,2018-03-01"], /INF.*under 2/],
    ["an 'adult' of five", ["--names", "Ada LOVELACE", "--birthdates", "2021-06-01"], /ADT.*12 or over/],
    ["a child without a birth date", ["--adults", "1", "--children", "1", "--names", "Ada LOVELACE, Byron LOVELACE"], /--birthdates is required/],
    ["--adults not a number", ["--adults", "two", "--names", "x"], /whole number/],
  ];
  for (const [name, args, message] of cases) {
    test(name, async () => {
      const r = await cli(["seller", "book", "--base-url", `http://127.0.0.1:${server.port}`, "--from", "LHR", "--to", "CDG", "--date", travelDate(), ...args], env);
      expect(r.code).toBe(2);
      expect(r.err.join("\n")).toMatch(message);
      expect(hits).toEqual([]);
    });
  }
});

test("sign FILE and verify FILE: the signed request verifies, a changed one does not (exit 1)", async () => {
  for (const kind of ["rsa", "ec"] as const) {
    const k = sellerKey(kind);
    writeFileSync(join(dir, `${kind}.key`), k.privateKeyPem);
    writeFileSync(join(dir, `${kind}.crt`), k.certificatePem);
    const request = envelope("OrderCreateRQ", { carrier: "XB", correlationId: "C1", trxId: "T1" }, createRequest({ offers: [{ offerId: "OFR-1", ownerCode: "XB", items: [{ offerItemId: "OFR-1-ADT", paxRefIds: ["PAX1"] }] }], passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE" }] }));
    writeFileSync(join(dir, "rq.xml"), request);
    const signed = await cli(["seller", "sign", join(dir, "rq.xml"), "--key", join(dir, `${kind}.key`), "--cert", join(dir, `${kind}.crt`), "--out", join(dir, "signed.xml")]);
    expect(signed.code).toBe(0);
    const ok = await cli(["seller", "verify", join(dir, "signed.xml"), "--cert", join(dir, `${kind}.crt`)]);
    expect(ok.code).toBe(0);
    expect(ok.out[0]).toMatch(new RegExp(`^valid: ${kind === "rsa" ? "RSA" : "ECDSA"}-SHA256 signature by key [0-9A-F:]{95}`));
    writeFileSync(join(dir, "changed.xml"), readFileSync(join(dir, "signed.xml"), "utf8").replace("LOVELACE", "LOVELACF"));
    const bad = await cli(["seller", "verify", join(dir, "changed.xml"), "--cert", join(dir, `${kind}.crt`), "--json"]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false });
  }
  const noKey = await cli(["seller", "sign", join(dir, "rq.xml")]);
  expect(noKey.code).toBe(2);
  // Without --cert: the airline certificate from discovery. A seller's signature is not the airline's: exit 1 either way.
  const fromDiscovery = await seller(["verify", join(dir, "signed.xml")]);
  expect(fromDiscovery.code).toBe(1);
  const airline = ((await (await fetch(`${g.url}/24.4`)).json()) as { signatures?: { airline?: { certificate?: string } | null } }).signatures?.airline?.certificate;
  expect(fromDiscovery.out[0]).toBe(airline ? "NOT valid: the signature value does not match the certificate" : `cannot verify: ${g.url} publishes no airline certificate in discovery (signatures.airline.certificate)`);
}, 60_000);

test("listen: prints each push with its verdicts, acknowledges a good one and refuses a forged one, then exits 1 for the refusal", async () => {
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((r) => (listening = r));
  const running = cli(["seller", "listen", "--port", "0", "--subscribe", "order.payment_expired", "--count", "2", "--base-url", g.url], env, (line) => {
    const m = line.match(/^listening on (http:\S+)/);
    if (m) listening(m[1]!);
  });
  const at = await url;
  // A forged push: no valid webhook signature.
  const forged = await fetch(`${at}/24.4/OrderChangeNotifRQ`, { method: "POST", headers: { "webhook-id": "msg_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" }, body: "<x/>" });
  expect(forged.status).toBe(400);
  // A real one: a held order expires unpaid.
  const c = sandboxClient(g);
  const shop = await c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });
  const held = await c.create({ offers: [selectAll(shop.offers[0]!)], passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE", title: "MS" }] });
  // The sandbox clock moves business time past the limit; the push's webhook-timestamp stays on real time (issue 19 item 22).
  const moved = await c.json("POST", "/sandbox/clock", { advanceSeconds: Math.ceil((Date.parse(held.paymentTimeLimit!) - Date.now()) / 1000) + 60 });
  expect(moved.status).toBe(200);
  const r = await running;
  // A refused push makes the exit status 1, so a script never takes it for a pass.
  expect(r.code).toBe(1);
  expect(r.err.at(-1)).toBe("1 push refused");
  expect(r.err.some((l) => /^subscribed http:\/\/127\.0\.0\.1:\d+ to order\.payment_expired/.test(l))).toBe(true);
  expect(r.out[0]).toMatch(/\? msg_forged: webhook signature INVALID .* -> refused 400$/);
  expect(r.out[1]).toMatch(/ IATA_OrderChangeNotifRQ msg_\S+: webhook signature valid; XML signature none; XSD valid \(IATA_OrderChangeNotifRQ.xsd\) -> acknowledged$/);
}, 60_000);

test("listen --secret: a well-signed push that is not valid 24.4 is refused on its XSD", async () => {
  const secret = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((r) => (listening = r));
  const running = cli(["seller", "listen", "--port", "0", "--secret", secret, "--count", "1", "--json"], {}, (line) => {
    const m = line.match(/^listening on (http:\S+)/);
    if (m) listening(m[1]!);
  });
  const at = await url;
  expect((await fetch(at)).status).toBe(405);
  const body = `<IATA_OrderChangeNotifRQ xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage"><Bogus/></IATA_OrderChangeNotifRQ>`;
  const ts = String(Math.floor(Date.now() / 1000));
  const mac = createHmac("sha256", Buffer.from(secret.slice(6), "base64")).update(`msg_badxsd.${ts}.${body}`).digest("base64");
  const res = await fetch(at, { method: "POST", headers: { "webhook-id": "msg_badxsd", "webhook-timestamp": ts, "webhook-signature": `v1,${mac}` }, body });
  expect(res.status).toBe(400);
  const r = await running;
  expect(r.code).toBe(1);
  // --json: one JSON line per push.
  expect(r.out).toHaveLength(1);
  expect(JSON.parse(r.out[0]!)).toMatchObject({ webhookId: "msg_badxsd", message: "IATA_OrderChangeNotifRQ", signature: "valid", xmlSignature: "none", xsd: expect.stringMatching(/^INVALID \(IATA_OrderChangeNotifRQ.xsd: /), ok: false });
}, 30_000);

test("a call that takes over a second shows a progress line on stderr", async () => {
  const slow: { port?: number; stop(force?: boolean): unknown } = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req): Promise<Response> {
      const path = new URL(req.url).pathname;
      if (path === "/24.4") return Response.json({ airline: { designator: "XB" }, version: "24.4", tokenUrl: `http://127.0.0.1:${slow.port}/oauth/token`, messages: [] });
      await Bun.sleep(1600);
      return Response.json({ access_token: "t", token_type: "Bearer", expires_in: 1800, scope: "ndc:shop" });
    },
  });
  try {
    const r = await cli(["seller", "token", "--base-url", `http://127.0.0.1:${slow.port}`, "--json"], env);
    expect(r.code).toBe(0);
    expect(r.err).toEqual(["… token (1 s)", expect.stringMatching(/^… token: done in 1\.\d s$/)]);
    // stdout stays the JSON document alone, for scripts.
    expect(JSON.parse(r.stdout).access_token).toBe("t");
  } finally {
    slow.stop(true);
  }
}, 30_000);
