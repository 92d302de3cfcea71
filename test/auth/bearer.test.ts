import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { openStore, type Store } from "@ndc/store";
import { registerAgency, registerClient } from "@ndc/auth";
import { runClientCommand } from "../../apps/cli/src/commands/clients";
import { basic, bearer, bearerError, bootAuthGateway, fetchToken, form, REALM_CHALLENGE, type AuthGateway } from "./harness";

/**
 * Bearer authentication of NDC calls (RFC 6750, spec 5). A message without a handler answers
 * 501 message_not_available once authentication and scope pass: that is the success path here.
 */
let g: AuthGateway;
const clock = new ManualClock();
const c = { id: "", secret: "" };

beforeAll(async () => {
  g = await bootAuthGateway({ RATE_LIMIT_TOKEN_PER_MINUTE: "1000" }, { clock });
  await registerAgency(g.gw.store, { agencyId: "AGY-A", iataNumber: "11111111", name: "Agency A" });
  const r = await registerClient(g.gw.store, { agency: "AGY-A", scopes: "ndc:shop ndc:order" });
  Object.assign(c, { id: r.clientId, secret: r.clientSecret });
});
afterAll(() => g.close());

function tamper(token: string): string {
  const [p, claims, sig] = token.split(".");
  const forged = JSON.parse(Buffer.from(claims!, "base64url").toString());
  forged.scp = "ndc:shop ndc:order ndc:settle ndc:aggregator";
  return `${p}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${sig}`;
}

interface Case {
  name: string;
  headers: () => Promise<Record<string, string>>;
  message?: string;
  body?: string;
  status: number;
  code: string;
  challenge: string | null;
}

const cases: Case[] = [
  { name: "valid token", headers: async () => bearer(await fetchToken(g, c.id, c.secret)), status: 501, code: "message_not_available", challenge: null },
  { name: "no credentials", headers: async () => ({}), status: 401, code: "invalid_token", challenge: REALM_CHALLENGE },
  { name: "another scheme (Basic)", headers: async () => ({ authorization: basic(c.id, c.secret) }), status: 401, code: "invalid_token", challenge: REALM_CHALLENGE },
  { name: "Bearer without a token", headers: async () => ({ authorization: "Bearer" }), status: 401, code: "invalid_token", challenge: bearerError("The Authorization header is not Bearer <ACCESS_TOKEN>.") },
  { name: "malformed token", headers: async () => bearer("abc.def"), status: 401, code: "invalid_token", challenge: bearerError("The access token is malformed.") },
  { name: "tampered token", headers: async () => bearer(tamper(await fetchToken(g, c.id, c.secret))), status: 401, code: "invalid_token", challenge: bearerError("The access token signature is not valid.") },
  {
    name: "token signed with another key",
    headers: async () => {
      const t = await fetchToken(g, c.id, c.secret);
      return bearer(`${t.slice(0, t.lastIndexOf(".") + 1)}${Buffer.alloc(32, 7).toString("base64url")}`);
    },
    status: 401,
    code: "invalid_token",
    challenge: bearerError("The access token signature is not valid."),
  },
  { name: "unknown API key", headers: async () => ({ "x-api-key": "ndck_not-a-key" }), status: 401, code: "invalid_token", challenge: bearerError("The API key is not valid.") },
  {
    name: "token and API key together",
    headers: async () => ({ ...bearer(await fetchToken(g, c.id, c.secret)), "x-api-key": g.gw.sandbox!.api_key }),
    status: 401,
    code: "invalid_token",
    challenge: bearerError("Send either Authorization or X-API-Key, not both."),
  },
  { name: "sandbox API key in local mode", headers: async () => ({ "x-api-key": g.gw.sandbox!.api_key }), status: 501, code: "message_not_available", challenge: null },
  {
    name: "missing scope, refused before the body is read",
    headers: async () => bearer(await fetchToken(g, c.id, c.secret, "ndc:order")),
    body: "this is not XML at all",
    status: 403,
    code: "insufficient_scope",
    challenge: 'Bearer realm="ndc-gateway", error="insufficient_scope", scope="ndc:shop"',
  },
  {
    name: "scope held for another message",
    headers: async () => bearer(await fetchToken(g, c.id, c.secret, "ndc:shop")),
    message: "OrderCreateRQ",
    body: "<not-xml",
    status: 403,
    code: "insufficient_scope",
    challenge: 'Bearer realm="ndc-gateway", error="insufficient_scope", scope="ndc:order:write"',
  },
];

describe("bearer authentication", () => {
  for (const k of cases) {
    test(`${k.name} -> ${k.status} ${k.code}`, async () => {
      const r = await g.ndc(k.message ?? "AirShoppingRQ", await k.headers(), k.body);
      expect(r.status).toBe(k.status);
      expect(r.code).toBe(k.code);
      expect(r.headers.get("www-authenticate")).toBe(k.challenge);
      expect(r.headers.get("cache-control")).toBe("no-store");
    });
  }
});

describe("token lifetime", () => {
  test("a token works for 1800 s and is refused from then on", async () => {
    const t = await fetchToken(g, c.id, c.secret);
    clock.advance(1799_000);
    expect((await g.ndc("AirShoppingRQ", bearer(t))).status).toBe(501);
    clock.advance(1000);
    const r = await g.ndc("AirShoppingRQ", bearer(t));
    expect(r.status).toBe(401);
    expect(r.code).toBe("invalid_token");
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The access token has expired; request a new one."));
  });

  test("tokens survive a restart (the signing key is kept in the store)", async () => {
    const first = await bootAuthGateway({}, { clock });
    await registerAgency(first.gw.store, { agencyId: "AGY-R", iataNumber: "31313131", name: "Restart" });
    const r = await registerClient(first.gw.store, { agency: "AGY-R", scopes: "ndc:shop" });
    const t = await fetchToken(first, r.clientId, r.clientSecret);
    await first.close({ keepDir: true });
    const second = await bootAuthGateway({}, { clock, dataDir: first.dataDir });
    try {
      expect((await second.ndc("AirShoppingRQ", bearer(t))).status).toBe(501);
    } finally {
      await second.close();
    }
  });
});

/**
 * Changes made by the CLI in another process must bite on the very next call. The CLI here runs
 * on its own store connection to the same database file, as `ndc-gateway client ...` would.
 */
describe("revocation from another process", () => {
  let admin: Store;
  const out: string[] = [];
  const cli = (...args: string[]) => runClientCommand(args, { store: admin, config: g.gw.config, out: (l) => out.push(l), err: (l) => out.push(l) });
  let id = "";
  let secret = "";

  beforeAll(async () => {
    admin = await openStore(g.gw.config.databaseUrl);
    const r = await registerClient(g.gw.store, { agency: "AGY-A", scopes: "ndc:shop ndc:order" });
    id = r.clientId;
    secret = r.clientSecret;
  });
  afterAll(() => admin.close());

  test("suspension refuses an issued token on the next call; resuming does not revive it", async () => {
    const t = await fetchToken(g, id, secret);
    expect((await g.ndc("AirShoppingRQ", bearer(t))).status).toBe(501);
    expect(await cli("client", "suspend", id)).toBe(0);
    const r = await g.ndc("AirShoppingRQ", bearer(t));
    expect(r.status).toBe(401);
    expect(r.code).toBe("invalid_token");
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The client is suspended."));
    expect(await cli("client", "resume", id)).toBe(0);
    expect((await g.ndc("AirShoppingRQ", bearer(t))).status).toBe(401);
    expect((await g.ndc("AirShoppingRQ", bearer(await fetchToken(g, id, secret)))).status).toBe(501);
  });

  test("rotation refuses issued tokens and the old secret; the new secret works", async () => {
    const t = await fetchToken(g, id, secret);
    out.length = 0;
    expect(await cli("client", "rotate-secret", id)).toBe(0);
    const newSecret = out.find((l) => l.startsWith("client_secret: "))!.slice("client_secret: ".length);
    const r = await g.ndc("AirShoppingRQ", bearer(t));
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The access token was revoked: the client secret was rotated."));
    const old = await g.token({ authorization: basic(id, secret), body: form({ grant_type: "client_credentials" }) });
    expect(old.status).toBe(401);
    expect(old.json.error).toBe("invalid_client");
    secret = newSecret;
    expect((await g.ndc("AirShoppingRQ", bearer(await fetchToken(g, id, secret)))).status).toBe(501);
  });

  test("a revoked scope leaves issued tokens at once", async () => {
    const t = await fetchToken(g, id, secret);
    expect(await cli("client", "revoke-scope", id, "ndc:shop")).toBe(0);
    const r = await g.ndc("AirShoppingRQ", bearer(t));
    expect(r.status).toBe(403);
    expect(r.code).toBe("insufficient_scope");
    expect(await cli("client", "grant-scope", id, "ndc:shop")).toBe(0);
  });

  test("deactivating the agency refuses issued tokens", async () => {
    await registerAgency(g.gw.store, { agencyId: "AGY-D", iataNumber: "41414141", name: "To deactivate" });
    const d = await registerClient(g.gw.store, { agency: "AGY-D", scopes: "ndc:shop" });
    const t = await fetchToken(g, d.clientId, d.clientSecret);
    expect(await cli("agency", "deactivate", "41414141")).toBe(0);
    const r = await g.ndc("AirShoppingRQ", bearer(t));
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The client's agency is not active with the airline."));
  });
});
