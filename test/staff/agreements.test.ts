import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { errorCode } from "../support/gateway";
import { orderCreateRQ, shopOffer } from "../orders-http/helpers";
import { makeKey } from "../signatures/support";
import { staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 12 item 8 over HTTP: an agency's commission agreement (viewed by supervisors, set by
 * admins with the validation putCommissionAgreement applies; an order already sold keeps the
 * commission frozen on it) and its signing agreement (keys registered and revoked, the policy
 * set, with the rules @ndc/signatures enforces, effective on the next call). Every change audited
 * with its reason.
 */
let w: StaffWorld;
let agent: Session;
let supervisor: Session;
let admin: Session;
let agency: string;
beforeAll(async () => {
  // On the real now: a certificate made by openssl below starts then, and the offer the signing
  // test shops must be on sale at the world's clock (it sells from its first day).
  w = await staffWorld({}, { startAt: Date.now() });
  for (const [n, r] of [["agnes", "agent"], ["sue", "supervisor"], ["adam", "admin"]]) await w.addStaff(n!, r!);
  agency = w.t.gw.sandbox!.agency_id;
}, 60_000);
afterAll(() => w.t.close());

async function logInAll(): Promise<void> {
  agent = await w.login("agnes");
  supervisor = await w.login("sue");
  admin = await w.login("adam");
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (s: Session, path: string, body: unknown) => s.call(path, { method: "POST", body }).then(json);
const WHY = "Agreement signed with the agency on 1 Dec";

describe("commission agreements", () => {
  test("supervisors and admins see it, an agent does not; an admin replaces it; the order already sold keeps its commission, the next order gets the new one", async () => {
    await logInAll();
    const path = `/staff/api/agencies/${agency}/agreements`;
    expect((await json(await agent.call(path))).status).toBe(403);
    const seen = await json(await supervisor.call(path));
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ agencyId: agency, active: true, commission: { kind: "percentage", basisPoints: 500 }, signing: { policy: "none", airlineSigns: false, keys: [] } });
    expect((await json(await supervisor.call(`/staff/api/agencies/NO-SUCH-AGENCY/agreements`))).status).toBe(404);

    const before = await w.book("Frozen", "FR1234567");
    const commissionOf = async (orderId: string) => (await json(await supervisor.call(`/staff/api/orders/${orderId}`))).body.commission;
    const [sold] = await commissionOf(before);
    expect(sold.rule).toBe("percentage 5.00%");

    const set = `/staff/api/agencies/${agency}/commission`;
    const refused = await post(supervisor, set, { kind: "percentage", basisPoints: 1000, reason: WHY });
    expect([refused.status, refused.body.error]).toEqual([403, "staff_forbidden"]);
    const ok = await post(admin, set, { kind: "percentage", basisPoints: 1000, reason: WHY });
    expect([ok.status, ok.body]).toEqual([200, { agencyId: agency, commission: { kind: "percentage", basisPoints: 1000 } }]);
    expect((await json(await supervisor.call(path))).body.commission).toEqual({ kind: "percentage", basisPoints: 1000 });

    // Frozen: the order sold under 5% still shows exactly what it did; a new order is sold under 10%.
    expect(await commissionOf(before)).toEqual([sold]);
    const after = await w.book("Fresh", "FR7654321");
    const [fresh] = await commissionOf(after);
    expect(fresh.rule).toBe("percentage 10.00%");
    expect(Number(fresh.amount)).toBeCloseTo(Number(fresh.basis) * 0.1, 2);

    const tiered = await post(admin, set, { kind: "tiered", currency: "EUR", tiers: [{ from: 0, basisPoints: 300 }, { from: 100000, basisPoints: 500 }], reason: WHY });
    expect(tiered.status).toBe(200);
    expect(tiered.body.commission).toEqual({ kind: "tiered", currency: "EUR", tiers: [{ from: 0, fromAmount: "0.00", basisPoints: 300 }, { from: 100000, fromAmount: "1000.00", basisPoints: 500 }] });
    const flat = await post(admin, set, { kind: "flat", currency: "EUR", amountMinor: 1500, reason: WHY });
    expect(flat.body.commission).toEqual({ kind: "flat", currency: "EUR", amountMinor: 1500, amount: "15.00" });

    const audit = (await json(await supervisor.call("/staff/api/audit?action=commission.set"))).body.entries;
    expect(audit.map((e: { username: string; outcome: string; reason?: string; detail: string }) => [e.username, e.outcome, e.reason ?? "", e.detail])).toEqual([
      ["sue", "refused", "", "role supervisor lacks sellers.register"],
      ["adam", "ok", WHY, `agency ${agency} commission percentage 1000 bp; was percentage 500 bp`],
      ["adam", "ok", WHY, `agency ${agency} commission tiered EUR 0:300bp 100000:500bp; was percentage 1000 bp`],
      ["adam", "ok", WHY, `agency ${agency} commission flat 1500 EUR minor units; was tiered EUR 0:300bp 100000:500bp`],
    ]);
  }, 90_000);

  test("what the agreements table refuses is refused naming the field, and nothing changes", async () => {
    await logInAll();
    const set = `/staff/api/agencies/${agency}/commission`;
    const before = (await json(await supervisor.call(`/staff/api/agencies/${agency}/agreements`))).body.commission;
    const cases: [unknown, string, string][] = [
      [{ kind: "percentage", basisPoints: 10001 }, "request_invalid", "basisPoints"],
      [{ kind: "percentage", basisPoints: "five" }, "request_invalid", "basisPoints"],
      [{ kind: "tiered", currency: "EUR", tiers: [] }, "request_invalid", "tiers"],
      [{ kind: "tiered", currency: "EUR" }, "request_invalid", "tiers"],
      [{ kind: "tiered", currency: "EUR", tiers: [{ from: -1, basisPoints: 100 }] }, "request_invalid", "tiers"],
      [{ kind: "flat", currency: "XXX", amountMinor: 100 }, "request_invalid", "currency"],
      [{ kind: "flat", currency: "EUR" }, "request_invalid", "amountMinor"],
      [{ kind: "bonus", basisPoints: 100 }, "request_invalid", "kind"],
    ];
    for (const [body, error, element] of cases) {
      const r = await post(admin, set, { ...(body as object), reason: WHY });
      expect([r.status, r.body.error, r.body.element]).toEqual([400, error, element]);
    }
    const noReason = await post(admin, set, { kind: "percentage", basisPoints: 100, reason: "new" });
    expect([noReason.status, noReason.body.error, noReason.body.element]).toEqual([400, "staff_reason_invalid", "reason"]);
    expect((await post(admin, `/staff/api/agencies/NO-SUCH-AGENCY/commission`, { kind: "percentage", basisPoints: 100, reason: WHY })).status).toBe(404);
    expect((await json(await supervisor.call(`/staff/api/agencies/${agency}/agreements`))).body.commission).toEqual(before);
  }, 60_000);
});

describe("signing agreements and certificates", () => {
  test("an admin registers a certificate and a public key, revokes one, sets the policy (the next unsigned OrderCreateRQ is refused); the package's rules refuse bad keys; each change audited", async () => {
    // openssl dates the certificate from the real clock: the gateway's moves there first.
    w.clock.advance(Math.max(0, Date.now() + 60_000 - w.clock.now()));
    await logInAll();
    const keys = `/staff/api/agencies/${agency}/signing/keys`;
    const cert = makeKey("staff-console-ec", "ec").cert;
    const pub = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    expect((await post(supervisor, keys, { pem: cert, reason: WHY })).status).toBe(403);
    const added = await post(admin, keys, { pem: cert, reason: WHY });
    expect(added.status).toBe(200);
    expect(added.body.key).toMatchObject({ kind: "certificate", algorithm: "ecdsa-p256-sha256", state: "active", subject: "CN=staff-console-ec" });
    const fp = added.body.key.fingerprint as string;
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    w.clock.advance(1000);
    const bare = await post(admin, keys, { pem: pub, notAfter: "2099-12-31", reason: WHY });
    expect(bare.body.key).toMatchObject({ kind: "public_key", state: "active", notAfter: "2099-12-31T23:59:59.000Z" });

    const refusals: [unknown, string][] = [
      [{ pem: cert }, "pem"], // already registered
      [{ pem: makeKey("staff-console-sha1", "rsa", "sha1").cert }, "pem"],
      [{ pem: makeKey("staff-console-priv", "ec").key }, "pem"],
      [{ pem: "not a key" }, "pem"],
      [{ pem: pub.replace("PUBLIC", "PUBLIK") }, "pem"],
      [{ pem: generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ type: "spki", format: "pem" }).toString(), notAfter: "31/12/2099" }, "notAfter"],
      [{ pem: generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ type: "spki", format: "pem" }).toString(), notAfter: "2001-01-01" }, "pem"],
    ];
    for (const [body, element] of refusals) {
      const r = await post(admin, keys, { ...(body as object), reason: WHY });
      expect([r.status, r.body.error, r.body.element]).toEqual([400, "request_invalid", element]);
    }
    // Nothing of a refused key's PEM comes back, nor of a registered one.
    const listed = (await json(await supervisor.call(`/staff/api/agencies/${agency}/agreements`))).body.signing;
    expect(listed.keys.map((k: { fingerprint: string; state: string }) => [k.fingerprint, k.state])).toEqual([
      [fp, "active"],
      [bare.body.key.fingerprint, "active"],
    ]);
    expect(JSON.stringify(listed)).not.toContain("BEGIN");

    const revoke = `/staff/api/agencies/${agency}/signing/keys/${fp}/revoke`;
    const revoked = await post(admin, revoke, { reason: "The agency reported the key lost" });
    expect([revoked.status, revoked.body.key.state]).toEqual([200, "revoked"]);
    const twice = await post(admin, revoke, { reason: "The agency reported the key lost" });
    expect([twice.status, twice.body.error, twice.body.element]).toEqual([400, "request_invalid", "fingerprint"]);

    const policy = `/staff/api/agencies/${agency}/signing/policy`;
    const badPolicy = await post(admin, policy, { policy: "always", reason: WHY });
    expect([badPolicy.status, badPolicy.body.element]).toEqual([400, "policy"]);
    const req = await post(admin, policy, { policy: "required", airlineSigns: true, reason: WHY });
    expect([req.status, req.body]).toEqual([200, { agencyId: agency, policy: "required", airlineSigns: true }]);
    // From the next call: an unsigned OrderCreateRQ of the agency's seller is refused.
    const shopped = await shopOffer(w.t, { pax: 1 });
    const unsigned = await w.t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "Unsigned" }], correlationId: "STAFF-SIGN-1", trxId: "TRX-1" }));
    expect(errorCode(unsigned.body)).toBe("signature_required");
    expect((await post(admin, policy, { policy: "none", airlineSigns: false, reason: "Back to the default after the test" })).body.policy).toBe("none");
    expect((await json(await supervisor.call(`/staff/api/agencies/${agency}/agreements`))).body.signing).toMatchObject({ policy: "none", airlineSigns: false });

    const audit = (await json(await supervisor.call("/staff/api/audit?limit=1000"))).body.entries.filter((e: { action: string; outcome: string }) => e.action.startsWith("signing.") && e.outcome === "ok");
    expect(audit.map((e: { action: string; username: string; reason: string; detail: string }) => [e.action, e.username, e.reason, e.detail])).toEqual([
      ["signing.key_add", "adam", WHY, `agency ${agency} key ${fp} (certificate, ecdsa-p256-sha256)`],
      ["signing.key_add", "adam", WHY, `agency ${agency} key ${bare.body.key.fingerprint} (public_key, ecdsa-p256-sha256)`],
      ["signing.key_revoke", "adam", "The agency reported the key lost", `agency ${agency} key ${fp}`],
      ["signing.policy", "adam", WHY, `agency ${agency} policy required, airline signs yes`],
      ["signing.policy", "adam", "Back to the default after the test", `agency ${agency} policy none, airline signs no`],
    ]);
  }, 90_000);
});
