import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { grantAgencies, registerAgency, registerClient } from "@ndc/auth";
import { bearer, bootAuthGateway, chainBody, fetchToken, type AuthGateway, type Link } from "./harness";

/** DistributionChain checks (spec 5.6, 7.2), after authentication and scope. */
let g: AuthGateway;
const t = { seller: "", aggregator: "", aggregatorNoScope: "" };

beforeAll(async () => {
  g = await bootAuthGateway({ RATE_LIMIT_TOKEN_PER_MINUTE: "1000" });
  const s = g.gw.store;
  await registerAgency(s, { agencyId: "AGY-A", iataNumber: "11111111", name: "Own agency" });
  await registerAgency(s, { agencyId: "AGY-B", iataNumber: "22222222", name: "Granted agency" });
  await registerAgency(s, { agencyId: "AGY-C", iataNumber: "33333333", name: "Not granted" });
  await registerAgency(s, { agencyId: "AGG", iataNumber: "44444444", name: "Aggregator's own agency" });
  const seller = await registerClient(s, { agency: "AGY-A", scopes: "ndc:shop" });
  const agg = await registerClient(s, { agency: "AGG", scopes: "ndc:shop ndc:aggregator" });
  await grantAgencies(s, agg.clientId, ["AGY-B"]);
  t.seller = await fetchToken(g, seller.clientId, seller.clientSecret);
  t.aggregator = await fetchToken(g, agg.clientId, agg.clientSecret);
  // The same aggregator with a token that left ndc:aggregator out: its grants do not apply.
  t.aggregatorNoScope = await fetchToken(g, agg.clientId, agg.clientSecret, "ndc:shop");
});
afterAll(() => g.close());

const carrier: Link = { role: "Carrier", orgId: "XB" };
const seller = (orgId: string): Link => ({ role: "Seller", orgId });

const cases: { name: string; who: keyof typeof t; links: Link[]; status: number; code: string }[] = [
  { name: "Seller omitted: own agency", who: "seller", links: [carrier], status: 501, code: "message_not_available" },
  { name: "own agency by IATA number", who: "seller", links: [seller("11111111"), carrier], status: 501, code: "message_not_available" },
  { name: "own agency by agency id", who: "seller", links: [seller("AGY-A"), carrier], status: 501, code: "message_not_available" },
  { name: "Distributor link alongside", who: "seller", links: [seller("AGY-A"), { role: "Distributor", orgId: "GDS1" }, carrier], status: 501, code: "message_not_available" },
  { name: "wrong carrier", who: "seller", links: [seller("AGY-A"), { role: "Carrier", orgId: "LH" }], status: 400, code: "distribution_chain_invalid" },
  { name: "no carrier link", who: "seller", links: [seller("AGY-A")], status: 400, code: "distribution_chain_invalid" },
  { name: "two Seller links", who: "seller", links: [seller("AGY-A"), seller("11111111"), carrier], status: 400, code: "distribution_chain_invalid" },
  { name: "another agency as Seller", who: "seller", links: [seller("AGY-B"), carrier], status: 403, code: "seller_not_authorised" },
  { name: "unknown agency as Seller", who: "seller", links: [seller("99999998"), carrier], status: 403, code: "seller_not_authorised" },
  { name: "aggregator: granted agency by IATA number", who: "aggregator", links: [seller("22222222"), carrier], status: 501, code: "message_not_available" },
  { name: "aggregator: granted agency by agency id", who: "aggregator", links: [seller("AGY-B"), carrier], status: 501, code: "message_not_available" },
  { name: "aggregator: Seller omitted, own agency", who: "aggregator", links: [carrier], status: 501, code: "message_not_available" },
  { name: "aggregator: agency not granted", who: "aggregator", links: [seller("AGY-C"), carrier], status: 403, code: "seller_not_authorised" },
  { name: "aggregator token without ndc:aggregator", who: "aggregatorNoScope", links: [seller("AGY-B"), carrier], status: 403, code: "seller_not_authorised" },
];

describe("DistributionChain", () => {
  for (const k of cases) {
    test(`${k.name} -> ${k.status} ${k.code}`, async () => {
      const r = await g.ndc("AirShoppingRQ", bearer(t[k.who]), chainBody(k.links));
      expect(r.status).toBe(k.status);
      expect(r.code).toBe(k.code);
      expect(r.headers.get("www-authenticate")).toBeNull();
    });
  }

  test("a revoked aggregator grant applies on the next call", async () => {
    const { revokeAgencies } = await import("@ndc/auth");
    const aggId = JSON.parse(Buffer.from(t.aggregator.split(".")[1]!, "base64url").toString()).cid as string;
    expect((await g.ndc("AirShoppingRQ", bearer(t.aggregator), chainBody([seller("AGY-B"), carrier]))).status).toBe(501);
    await revokeAgencies(g.gw.store, aggId, ["AGY-B"]);
    const r = await g.ndc("AirShoppingRQ", bearer(t.aggregator), chainBody([seller("AGY-B"), carrier]));
    expect(r.status).toBe(403);
    expect(r.code).toBe("seller_not_authorised");
  });

  test("the resolved seller is the agency named (what handlers receive)", async () => {
    const { createAuthService } = await import("@ndc/auth");
    const { systemClock } = await import("@ndc/clock");
    const { loadFieldKey } = await import("@ndc/pii");
    const auth = await createAuthService({ store: g.gw.store, config: g.gw.config, clock: systemClock, fieldKey: loadFieldKey(g.gw.config) });
    const link = (l: Link, ordinal: number) => ({ ...l, ordinal });
    const p = await auth.authenticate({ authorization: `Bearer ${t.aggregatorNoScope}`, apiKey: null });
    expect(auth.resolveSeller(p, [link(carrier, 1)])).toMatchObject({ agencyId: "AGG", iataNumber: "44444444" });
    const s = await auth.authenticate({ authorization: `Bearer ${t.seller}`, apiKey: null });
    expect(auth.resolveSeller(s, [link(seller("11111111"), 1), link(carrier, 2)])).toMatchObject({ agencyId: "AGY-A", iataNumber: "11111111" });
    expect([...auth.resolveSeller(s, [link(carrier, 1)]).scopes]).toEqual(["ndc:shop"]);
  });
});
