import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { registerAgency, registerClient, setAgencyActive, suspendClient } from "@ndc/auth";
import { BASIC_CHALLENGE, basic, bootAuthGateway, form, type AuthGateway } from "./harness";

/** POST /oauth/token (spec 4.2, RFC 6749 4.4, 5.1, 5.2): one row per rule, exact wire results. */
let g: AuthGateway;
const c = { id: "", secret: "", suspendedId: "", suspendedSecret: "", inactiveId: "", inactiveSecret: "" };

beforeAll(async () => {
  g = await bootAuthGateway({ RATE_LIMIT_TOKEN_PER_MINUTE: "1000" });
  const store = g.gw.store;
  await registerAgency(store, { agencyId: "AGY-A", iataNumber: "11111111", name: "Agency A" });
  await registerAgency(store, { agencyId: "AGY-OFF", iataNumber: "12121212", name: "Agency soon inactive" });
  const a = await registerClient(store, { agency: "AGY-A", scopes: "ndc:shop ndc:order" });
  const s = await registerClient(store, { agency: "11111111", scopes: "ndc:shop" });
  await suspendClient(store, s.clientId);
  const i = await registerClient(store, { agency: "AGY-OFF", scopes: "ndc:shop" });
  await setAgencyActive(store, "AGY-OFF", false);
  Object.assign(c, { id: a.clientId, secret: a.clientSecret, suspendedId: s.clientId, suspendedSecret: s.clientSecret, inactiveId: i.clientId, inactiveSecret: i.clientSecret });
});
afterAll(() => g.close());

const CC = { grant_type: "client_credentials" };

interface Case {
  name: string;
  req: () => { authorization?: string; contentType?: string | null; body?: string };
  status: number;
  error?: string;
  /** Expected WWW-Authenticate, or null for none. */
  challenge: string | null;
  scope?: string;
}

const cases: Case[] = [
  { name: "HTTP Basic", req: () => ({ authorization: basic(c.id, c.secret), body: form(CC) }), status: 200, challenge: null, scope: "ndc:shop ndc:order" },
  { name: "form credentials", req: () => ({ body: form({ ...CC, client_id: c.id, client_secret: c.secret }) }), status: 200, challenge: null, scope: "ndc:shop ndc:order" },
  {
    name: "Basic parts are form-urlencoded (RFC 6749 2.3.1)",
    req: () => ({ authorization: `Basic ${Buffer.from(`${c.id.replace("_", "%5F")}:${c.secret}`).toString("base64")}`, body: form(CC) }),
    status: 200,
    challenge: null,
  },
  { name: "charset parameter on the form type", req: () => ({ authorization: basic(c.id, c.secret), contentType: "application/x-www-form-urlencoded; charset=UTF-8", body: form(CC) }), status: 200, challenge: null },
  { name: "scope subset", req: () => ({ authorization: basic(c.id, c.secret), body: form({ ...CC, scope: "ndc:order" }) }), status: 200, challenge: null, scope: "ndc:order" },
  { name: "scope omitted gives every granted scope", req: () => ({ authorization: basic(c.id, c.secret), body: form(CC) }), status: 200, challenge: null, scope: "ndc:shop ndc:order" },
  { name: "scope listed in another order", req: () => ({ authorization: basic(c.id, c.secret), body: form({ ...CC, scope: "ndc:order ndc:shop" }) }), status: 200, challenge: null, scope: "ndc:shop ndc:order" },
  { name: "both Basic and form credentials", req: () => ({ authorization: basic(c.id, c.secret), body: form({ ...CC, client_id: c.id, client_secret: c.secret }) }), status: 400, error: "invalid_request", challenge: null },
  { name: "wrong secret (Basic)", req: () => ({ authorization: basic(c.id, "not-the-secret"), body: form(CC) }), status: 401, error: "invalid_client", challenge: BASIC_CHALLENGE },
  { name: "wrong secret (form)", req: () => ({ body: form({ ...CC, client_id: c.id, client_secret: "not-the-secret" }) }), status: 401, error: "invalid_client", challenge: null },
  { name: "unknown client", req: () => ({ authorization: basic("ndc_nobody", "whatever"), body: form(CC) }), status: 401, error: "invalid_client", challenge: BASIC_CHALLENGE },
  { name: "suspended client", req: () => ({ authorization: basic(c.suspendedId, c.suspendedSecret), body: form(CC) }), status: 401, error: "invalid_client", challenge: BASIC_CHALLENGE },
  { name: "inactive agency", req: () => ({ body: form({ ...CC, client_id: c.inactiveId, client_secret: c.inactiveSecret }) }), status: 401, error: "invalid_client", challenge: null },
  { name: "no credentials at all", req: () => ({ body: form(CC) }), status: 401, error: "invalid_client", challenge: BASIC_CHALLENGE },
  { name: "client_id without client_secret", req: () => ({ body: form({ ...CC, client_id: c.id }) }), status: 401, error: "invalid_client", challenge: null },
  { name: "Basic without a colon", req: () => ({ authorization: `Basic ${Buffer.from(c.id).toString("base64")}`, body: form(CC) }), status: 401, error: "invalid_client", challenge: BASIC_CHALLENGE },
  { name: "missing grant_type", req: () => ({ authorization: basic(c.id, c.secret), body: "" }), status: 400, error: "invalid_request", challenge: null },
  { name: "other grant_type", req: () => ({ authorization: basic(c.id, c.secret), body: form({ grant_type: "password" }) }), status: 400, error: "unsupported_grant_type", challenge: null },
  { name: "repeated grant_type", req: () => ({ authorization: basic(c.id, c.secret), body: "grant_type=client_credentials&grant_type=client_credentials" }), status: 400, error: "invalid_request", challenge: null },
  { name: "repeated client_id", req: () => ({ body: `${form(CC)}&client_id=${c.id}&client_id=${c.id}&client_secret=${c.secret}` }), status: 400, error: "invalid_request", challenge: null },
  { name: "JSON content type", req: () => ({ authorization: basic(c.id, c.secret), contentType: "application/json", body: JSON.stringify(CC) }), status: 400, error: "invalid_request", challenge: null },
  { name: "no content type", req: () => ({ authorization: basic(c.id, c.secret), contentType: null, body: form(CC) }), status: 400, error: "invalid_request", challenge: null },
  { name: "scope outside the grant", req: () => ({ authorization: basic(c.id, c.secret), body: form({ ...CC, scope: "ndc:shop ndc:settle" }) }), status: 400, error: "invalid_scope", challenge: null },
  { name: "unknown scope", req: () => ({ authorization: basic(c.id, c.secret), body: form({ ...CC, scope: "admin" }) }), status: 400, error: "invalid_scope", challenge: null },
  { name: "empty scope", req: () => ({ authorization: basic(c.id, c.secret), body: form({ ...CC, scope: "" }) }), status: 400, error: "invalid_scope", challenge: null },
];

describe("token endpoint", () => {
  for (const k of cases) {
    test(`${k.name} -> ${k.status} ${k.error ?? "token"}`, async () => {
      const r = await g.token(k.req());
      expect(r.status).toBe(k.status);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.headers.get("pragma")).toBe("no-cache");
      expect(r.headers.get("content-type")).toStartWith("application/json");
      expect(r.headers.get("www-authenticate")).toBe(k.challenge);
      if (k.error) {
        expect(r.json.error).toBe(k.error);
        expect(r.json.error_description).toBeString();
        expect(r.json.access_token).toBeUndefined();
      } else {
        expect(Object.keys(r.json).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
        expect(r.json.token_type).toBe("Bearer");
        expect(r.json.expires_in).toBe(1800);
        expect(r.json.access_token).toMatch(/^ndc1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
        if (k.scope) expect(r.json.scope).toBe(k.scope);
      }
    });
  }

  test("a refused client learns why only once its secret verified", async () => {
    const wrong = await g.token({ authorization: basic(c.suspendedId, "nope"), body: form(CC) });
    const right = await g.token({ authorization: basic(c.suspendedId, c.suspendedSecret), body: form(CC) });
    expect(wrong.json.error_description).not.toContain("suspended");
    expect(right.json.error_description).toContain("suspended");
  });

  test("a GET is refused", async () => {
    const res = await g.gw.app.handle(new Request("http://localhost/oauth/token"));
    expect(res.status).toBe(405);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("neither secrets nor tokens reach the log or an error text", async () => {
    const ok = await g.token({ authorization: basic(c.id, c.secret), body: form(CC) });
    const bad = await g.token({ body: form({ ...CC, client_id: c.id, client_secret: `${c.secret}x` }) });
    await g.ndc("AirShoppingRQ", { authorization: `Bearer ${ok.json.access_token}` });
    const all = g.logs.join("\n") + JSON.stringify(bad.json);
    expect(all).not.toContain(c.secret);
    expect(all).not.toContain(String(ok.json.access_token));
  });
});
