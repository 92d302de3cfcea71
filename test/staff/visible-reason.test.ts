import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { REASON, addEveryRole, documentRefOf, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * A reason counts only what a reader of the audit can see (issue 19 item 6): twelve zero-width
 * spaces, spaces of other widths, bidi marks or combining marks alone reveal nothing, over the
 * JSON API and the console's form alike.
 */
const NUMBER = "ZW4471920QK";
let w: StaffWorld;
let senior: Session;
let supervisor: Session;
let orderId: string;
let ref: string;

beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ senior, supervisor } = await logInEveryRole(w));
  orderId = await w.book("Hopper", NUMBER);
  ref = await documentRefOf(senior, orderId);
}, 60_000);
afterAll(() => w.t.close());

const INVISIBLE = {
  "twelve zero-width spaces": "\u200b".repeat(12),
  "zero-width joiners and a BOM": "\u200d\u200c\ufeff".repeat(5),
  "no-break, em and ideographic spaces": "\u00a0\u2003\u3000\u2028".repeat(4),
  "bidi controls": "\u202e\u2066\u2069\u200f".repeat(4),
  "combining marks alone": "\u0301\u0308\u0323".repeat(5),
  "Hangul fillers": "\u3164\u115f".repeat(6),
  "nine letters padded with zero-width spaces": "passenger" + "\u200b".repeat(20),
};

const revealPath = () => `/staff/api/orders/${orderId}/documents/${ref}/reveal`;
const reveals = async () => ((await (await supervisor.call(`/staff/api/audit?action=pii.reveal&orderId=${orderId}&limit=1000`)).json()) as { entries: { outcome: string }[] }).entries.filter((e) => e.outcome === "ok").length;

describe("a reason is counted in visible characters", () => {
  for (const [name, reason] of Object.entries(INVISIBLE))
    test(`the API refuses a reveal whose reason is ${name}`, async () => {
      const before = await reveals();
      const res = await senior.call(revealPath(), { method: "POST", body: { reason, category: "passenger_request" } });
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(JSON.parse(text)).toMatchObject({ error: "staff_reason_invalid", element: "reason" });
      expect(text).not.toContain(NUMBER);
      expect(await reveals()).toBe(before);
    });

  test("the console's reveal form and the erase refuse an invisible reason too", async () => {
    const form = new URLSearchParams({ reason: INVISIBLE["twelve zero-width spaces"], category: "passenger_request", csrf_token: senior.csrf });
    const page = await w.t.fetch(`/staff/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", headers: { cookie: senior.cookie, "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
    expect(page.status).toBe(400);
    expect(await page.text()).not.toContain(NUMBER);
    const erase = await supervisor.call(`/staff/api/orders/${orderId}/documents/erase`, { method: "POST", body: { reason: "\u200b".repeat(30) } });
    expect([erase.status, ((await erase.json()) as { error: string }).error]).toEqual([400, "staff_reason_invalid"]);
    const detail = (await (await senior.call(`/staff/api/orders/${orderId}`)).json()) as { documents: { erasedAt?: string }[] };
    expect(detail.documents[0]!.erasedAt).toBeUndefined();
  });

  test("ten visible characters are a reason, accents and all; the number is revealed once, audited", async () => {
    const before = await reveals();
    const accented = "Ce\u0301line a\u0300 l\u2019accueil";
    const ok = await senior.call(revealPath(), { method: "POST", body: { reason: accented, category: "passenger_request" } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ number: NUMBER });
    const plain = await senior.call(revealPath(), { method: "POST", body: REASON });
    expect(plain.status).toBe(200);
    expect(await reveals()).toBe(before + 2);
  });
});
