import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ManualClock } from "@ndc/clock";
import { loadFieldKey } from "@ndc/pii";
import * as tables from "../../packages/auth/src/tables";
import { registerAgency, registerClient, setAgencyActive } from "@ndc/auth";
import { loadSigningKey } from "../../packages/auth/src/token/signing-key";
import { signToken, type TokenClaims } from "../../packages/auth/src/token/format";
import { bearer, bearerError, bootAuthGateway, fetchToken, type AuthGateway } from "./harness";

/**
 * Spec 5.1: the token states the agency it sells as (claim agy), and the registry is still asked
 * on every call: a token whose agency is no longer the client's, or is suspended, is 401.
 */
let g: AuthGateway;
const clock = new ManualClock(Date.parse("2026-11-23T12:00:00Z"));

beforeAll(async () => {
  g = await bootAuthGateway({ RATE_LIMIT_TOKEN_PER_MINUTE: "1000" }, { clock });
  await registerAgency(g.gw.store, { agencyId: "AGY-A", iataNumber: "11111111", name: "Agency A" });
  await registerAgency(g.gw.store, { agencyId: "AGY-B", iataNumber: "22222222", name: "Agency B" });
});
afterAll(() => g.close());

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as TokenClaims;
const another = bearerError("The access token was issued for another agency; request a new one.");

describe("the token's agency (agy)", () => {
  test("an issued token names the client's agency", async () => {
    const c = await registerClient(g.gw.store, { agency: "AGY-A", scopes: "ndc:shop" });
    const t = await fetchToken(g, c.clientId, c.clientSecret);
    expect(claimsOf(t).agy).toBe("AGY-A");
    expect((await g.ndc("AirShoppingRQ", bearer(t))).status).toBe(501);
  });

  test("a correctly signed token naming another agency than the client's is 401", async () => {
    const c = await registerClient(g.gw.store, { agency: "AGY-A", scopes: "ndc:shop" });
    const real = claimsOf(await fetchToken(g, c.clientId, c.clientSecret));
    const key = await loadSigningKey(g.gw.store, loadFieldKey(g.gw.config));
    const r = await g.ndc("AirShoppingRQ", bearer(signToken({ ...real, agy: "AGY-B" }, key)));
    expect(r.status).toBe(401);
    expect(r.code).toBe("invalid_token");
    expect(r.headers.get("www-authenticate")).toBe(another);
  });

  test("the client moved to another agency in the registry: its earlier token is 401", async () => {
    const c = await registerClient(g.gw.store, { agency: "AGY-A", scopes: "ndc:shop" });
    const t = await fetchToken(g, c.clientId, c.clientSecret);
    // The registry row changed by another process (no CLI command moves a client today).
    await g.gw.store.write((tx) => tx.update(tables.clients).set({ agencyId: "AGY-B" }).where(eq(tables.clients.clientId, c.clientId)));
    const r = await g.ndc("AirShoppingRQ", bearer(t));
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(another);
    // A new token states the new agency and works.
    const fresh = await fetchToken(g, c.clientId, c.clientSecret);
    expect(claimsOf(fresh).agy).toBe("AGY-B");
    expect((await g.ndc("AirShoppingRQ", bearer(fresh))).status).toBe(501);
  });

  test("the token's agency suspended: 401", async () => {
    await registerAgency(g.gw.store, { agencyId: "AGY-S", iataNumber: "33333333", name: "Agency S" });
    const c = await registerClient(g.gw.store, { agency: "AGY-S", scopes: "ndc:shop" });
    const t = await fetchToken(g, c.clientId, c.clientSecret);
    await setAgencyActive(g.gw.store, "AGY-S", false);
    const r = await g.ndc("AirShoppingRQ", bearer(t));
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The client's agency is not active with the airline."));
  });
});
