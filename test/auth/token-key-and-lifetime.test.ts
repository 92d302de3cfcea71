import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { ManualClock } from "@ndc/clock";
import { loadFieldKey } from "@ndc/pii";
import * as tables from "../../packages/auth/src/tables";
import { registerAgency, registerClient } from "@ndc/auth";
import { loadSigningKey } from "../../packages/auth/src/token/signing-key";
import { signToken, type TokenClaims } from "../../packages/auth/src/token/format";
import { bearer, bearerError, bootAuthGateway, fetchToken, type AuthGateway } from "./harness";

/**
 * The token signing key is not in the database in clear (a local user reading gateway.db could
 * mint tokens), and a token lives 30 minutes from its issue time whatever it claims (spec 5.2).
 * Forged tokens here are signed with the gateway's real key, taken the way only the gateway can
 * (the field key opens it), so the signature passes and the claims are what is judged.
 */
let g: AuthGateway;
const clock = new ManualClock(Date.parse("2026-11-23T12:00:00Z"));
const c = { id: "", secret: "" };
let key: Uint8Array;

beforeAll(async () => {
  g = await bootAuthGateway({ RATE_LIMIT_TOKEN_PER_MINUTE: "1000" }, { clock });
  await registerAgency(g.gw.store, { agencyId: "AGY-A", iataNumber: "11111111", name: "Agency A" });
  await registerAgency(g.gw.store, { agencyId: "AGY-B", iataNumber: "22222222", name: "Agency B" });
  const r = await registerClient(g.gw.store, { agency: "AGY-A", scopes: "ndc:shop" });
  Object.assign(c, { id: r.clientId, secret: r.clientSecret });
  key = await loadSigningKey(g.gw.store, loadFieldKey(g.gw.config));
});
afterAll(() => g.close());

/** The claims the issuer would write now for client c, with `over` replacing some. */
async function claims(over: Partial<TokenClaims> = {}): Promise<TokenClaims> {
  const issued = await fetchToken(g, c.id, c.secret);
  const real = JSON.parse(Buffer.from(issued.split(".")[1]!, "base64url").toString()) as TokenClaims;
  return { ...real, ...over };
}

async function call(token: string) {
  return g.ndc("AirShoppingRQ", bearer(token));
}

describe("the token signing key", () => {
  test("the database holds it sealed: its column neither is the key nor signs an accepted token", async () => {
    const rows = await g.gw.store.db.select().from(tables.tokenSigningKeys);
    expect(rows.length).toBe(1);
    const stored = rows[0]!.secret;
    expect(stored).toStartWith("aesgcm1.1.");
    expect(stored).not.toContain(Buffer.from(key).toString("base64url"));
    // What an attacker reading gateway.db would try: the column as key material.
    const fromDb = signToken(await claims(), new Uint8Array(Buffer.from(stored, "base64url")));
    const r = await call(fromDb);
    expect(r.status).toBe(401);
    expect(r.code).toBe("invalid_token");
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The access token signature is not valid."));
  });

  test("a token signed with a wrong key is 401", async () => {
    const r = await call(signToken(await claims(), new Uint8Array(randomBytes(32))));
    expect(r.status).toBe(401);
    expect(r.code).toBe("invalid_token");
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The access token signature is not valid."));
  });

  test("control: the same claims signed with the real key pass authentication (501: no handler here)", async () => {
    const r = await call(signToken(await claims(), key));
    expect(r.status).toBe(501);
    expect(r.code).toBe("message_not_available");
  });
});

describe("a token lives 30 minutes from its issue time, whatever it claims", () => {
  const nowS = () => Math.floor(clock.now() / 1000);
  const lifetime = bearerError("The access token claims a lifetime other than 30 minutes; request a new one.");
  const cases: [string, () => Partial<TokenClaims>, string][] = [
    ["correctly signed, claiming 10 years", () => ({ iat: nowS(), exp: nowS() + 10 * 365 * 86_400 }), lifetime],
    ["correctly signed, claiming 30 minutes and 1 second", () => ({ iat: nowS(), exp: nowS() + 1801 }), lifetime],
    ["correctly signed, exp before iat", () => ({ iat: nowS(), exp: nowS() - 1 }), lifetime],
    ["correctly signed, issued 10 years from now", () => ({ iat: nowS() + 10 * 365 * 86_400, exp: nowS() + 10 * 365 * 86_400 + 1800 }), bearerError("The access token is issued in the future.")],
  ];
  for (const [name, over, challenge] of cases) {
    test(`${name}: 401 invalid_token`, async () => {
      const r = await call(signToken(await claims(over()), key));
      expect(r.status).toBe(401);
      expect(r.code).toBe("invalid_token");
      expect(r.headers.get("www-authenticate")).toBe(challenge);
    });
  }

  test("an issued token works until 30 minutes after its issue, not a second longer", async () => {
    const t = await fetchToken(g, c.id, c.secret);
    clock.advance(1799_000);
    expect((await call(t)).status).toBe(501);
    clock.advance(1_000);
    const r = await call(t);
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The access token has expired; request a new one."));
  });
});
