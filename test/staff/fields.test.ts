import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addEveryRole, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * The staff API reads its JSON fields one way (apps/gateway/src/staff/fields.ts): too long, of the
 * wrong type or with too many items is refused with request_invalid naming the field, and nothing
 * is written; before, the registry's handlers cut such values to fit, so a nine-digit IATA number
 * was registered as another agency's eight.
 */
let w: StaffWorld;
let admin: Session;
beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ admin } = await logInEveryRole(w));
}, 60_000);
afterAll(() => w.t.close());

const WHY = "Registry housekeeping after the audit";

async function refused(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await admin.call(path, { method: "POST", body: { ...body, reason: WHY } });
  const answer = (await res.json()) as { error: string; element?: string };
  expect([res.status, answer.error]).toEqual([400, "request_invalid"]);
  return answer.element ?? "";
}

async function agencies(): Promise<{ agencyId: string; iataNumber: string }[]> {
  return ((await (await admin.call("/staff/api/sellers")).json()) as { agencies: { agencyId: string; iataNumber: string }[] }).agencies;
}

describe("staff API fields are refused, never cut to fit", () => {
  test("an agency with a nine-digit IATA number or a 65-character id is refused naming the field, and not registered", async () => {
    const before = await agencies();
    expect(await refused("/staff/api/agencies", { agencyId: "AGY-NINE", iataNumber: "123456789", name: "Nine Digits Travel" })).toBe("iataNumber");
    expect(await refused("/staff/api/agencies", { agencyId: `AGY-${"X".repeat(61)}`, iataNumber: "23456789", name: "Long Id Travel" })).toBe("agencyId");
    expect(await refused("/staff/api/agencies", { agencyId: "AGY-NAME", iataNumber: "34567890", name: "N".repeat(201) })).toBe("name");
    expect(await refused("/staff/api/agencies", { agencyId: 42, iataNumber: "45678901", name: "Number Id" })).toBe("agencyId");
    expect(await agencies()).toEqual(before);
    // The same agency within the limits is registered as given.
    const ok = await admin.call("/staff/api/agencies", { method: "POST", body: { agencyId: "AGY-FIELDS", iataNumber: "12345678", name: "Fields Travel", reason: WHY } });
    expect(ok.status).toBe(201);
    expect((await agencies()).find((a) => a.agencyId === "AGY-FIELDS")?.iataNumber).toBe("12345678");
  });

  test("scopes and agencies: more than 20, or an item that is not text, are refused naming the list", async () => {
    const agency = w.t.gw.sandbox!.agency_id;
    const scopes = Array.from({ length: 21 }, () => "ndc:shop");
    expect(await refused("/staff/api/sellers", { agencyId: agency, scopes })).toBe("scopes");
    expect(await refused("/staff/api/sellers", { agencyId: agency, scopes: ["ndc:shop", 7] })).toBe("scopes");
    expect(await refused("/staff/api/sellers", { agencyId: agency, scopes: ["ndc:shop"], name: "C".repeat(201) })).toBe("name");
    const clientId = w.t.gw.sandbox!.client_id;
    expect(await refused(`/staff/api/sellers/${clientId}/scopes/grant`, { scopes: { "ndc:shop": true } })).toBe("scopes");
    expect(await refused(`/staff/api/sellers/${clientId}/agencies/grant`, { agencies: Array.from({ length: 21 }, (_, i) => `AGY-${i}`) })).toBe("agencies");
  });

  test("agreements: 21 commission tiers or a PEM over 16,000 characters are refused, and the agreement is unchanged", async () => {
    const agency = w.t.gw.sandbox!.agency_id;
    const agreements = async () => (await (await admin.call(`/staff/api/agencies/${agency}/agreements`)).json()) as { commission: unknown; signing: { keys: unknown[] } };
    const before = await agreements();
    const tiers = Array.from({ length: 21 }, (_, i) => ({ from: i * 1000, basisPoints: 100 }));
    expect(await refused(`/staff/api/agencies/${agency}/commission`, { kind: "tiered", currency: "EUR", tiers })).toBe("tiers");
    expect(await refused(`/staff/api/agencies/${agency}/commission`, { kind: "tiered", currency: "EUR", tiers: [7] })).toBe("tiers");
    const pem = `-----BEGIN CERTIFICATE-----\n${"A".repeat(16_000)}\n-----END CERTIFICATE-----\n`;
    expect(await refused(`/staff/api/agencies/${agency}/signing/keys`, { pem })).toBe("pem");
    expect(await agreements()).toEqual(before);
  });
});
