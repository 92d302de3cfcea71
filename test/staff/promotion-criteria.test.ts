import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { promotionsCommand } from "../../apps/cli/src/commands/promotions";
import { airShoppingRQ, all, blocks, day, offerPriceRQ, type PriceOpts } from "../shopping/shop-requests";
import { staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 19 item 18 over HTTP (spec 4.5 rule 4): the operator's switch of the promotion criteria.
 * Switched off by an admin (staff API or CLI), OfferPrice asks the promotions engine nothing: no
 * discount and no surcharge, and a promotions_unavailable Warning saying the criteria are off;
 * switched on again, the NDC auto-apply rules apply again. Supervisors read the switch, only
 * admins change it, with a reason, audited.
 */
let w: StaffWorld;
let supervisor: Session;
let admin: Session;
beforeAll(async () => {
  w = await staffWorld();
  for (const [n, r] of [["sue", "supervisor"], ["adam", "admin"]]) await w.addStaff(n!, r!);
}, 60_000);
afterAll(() => w.t.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const WHY = "Spring campaign criteria not yet approved";

/** OfferPriceRQ over NDC for the FLEX offer of a LHR-FRA shop (10% off and the fuel surcharge when the criteria are on). */
async function priceFlex(): Promise<string> {
  const shop = await w.t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(w.t.gw.supply.startDate, 30) }], pax: [["A", "ADT"]], currency: "EUR" }));
  const offer = blocks(shop.body, "Offer").find((o) => o.includes("<cns:PriceClassRefID>PC-FLEX</cns:PriceClassRefID>"))!;
  const sel: PriceOpts["offers"] = [{ offerId: all(offer, "OfferID")[0]!, items: blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: all(blocks(i, "FareDetail")[0]!, "PaxRefID") })) }];
  const r = await w.t.ndc("OfferPriceRQ", offerPriceRQ({ offers: sel, currency: "EUR" }));
  expect(r.status).toBe(200);
  return r.body;
}
const warnings = (xml: string) => blocks(xml, "Warning").map((b) => [all(b, "Code")[0], all(b, "DescText")[0]]);

describe("the promotion criteria switch", () => {
  test("on by default; an admin switches it off over the staff API: OfferPrice has no adjustment and warns; on again, the rules apply", async () => {
    supervisor = await w.login("sue");
    admin = await w.login("adam");
    expect((await json(await supervisor.call("/staff/api/promotions"))).body).toEqual({ criteria: "on" });
    const on = await priceFlex();
    expect(on).toContain("<cns:Discount>");
    expect(on).toContain("<cns:Surcharge>");
    expect(warnings(on).map(([c]) => c)).not.toContain("promotions_unavailable");

    const refused = await json(await supervisor.call("/staff/api/promotions/criteria", { method: "POST", body: { criteria: "off", reason: WHY } }));
    expect([refused.status, refused.body.error]).toEqual([403, "staff_forbidden"]);
    const bad = await json(await admin.call("/staff/api/promotions/criteria", { method: "POST", body: { criteria: "maybe", reason: WHY } }));
    expect([bad.status, bad.body.error, bad.body.element]).toEqual([400, "request_invalid", "criteria"]);
    const off = await json(await admin.call("/staff/api/promotions/criteria", { method: "POST", body: { criteria: "off", reason: WHY } }));
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ criteria: "off", changedAt: new Date(w.clock.now()).toISOString(), changedBy: "staff:adam" });

    const priced = await priceFlex();
    expect(priced).not.toContain("<cns:Discount>");
    expect(priced).not.toContain("<cns:Surcharge>");
    expect(warnings(priced).find(([c]) => c === "promotions_unavailable")?.[1]).toContain("The airline has not switched its promotion criteria on.");
    // The engine itself is fine: it was not asked.
    expect(w.t.gw.supply.promotions.mode).toBe("ok");

    expect((await json(await admin.call("/staff/api/promotions/criteria", { method: "POST", body: { criteria: "on", reason: WHY } }))).body.criteria).toBe("on");
    const back = await priceFlex();
    expect(back).toContain("<cns:Discount>");
    expect(back).toContain("<cns:Surcharge>");

    const audit = (await json(await supervisor.call("/staff/api/audit?action=promotions.criteria"))).body.entries;
    expect(audit.map((e: { username: string; outcome: string; reason?: string; detail: string }) => [e.username, e.outcome, e.reason ?? "", e.detail])).toEqual([
      ["sue", "refused", "", "role supervisor lacks promotions.configure"],
      ["adam", "ok", WHY, "promotion criteria switched off; was on"],
      ["adam", "ok", WHY, "promotion criteria switched on; was off"],
    ]);
  }, 90_000);

  test("ndc-gateway promotions off|on|status on the gateway's store: the next OfferPrice sees it", async () => {
    const out: string[] = [];
    const run = (...args: string[]) => promotionsCommand(args, { out: (l) => out.push(l), err: (l) => out.push(l), env: {} }, { store: w.t.gw.store, now: () => w.clock.now() });
    expect(await run("off")).toBe(0);
    expect(out.at(-1)).toBe(`promotion criteria off: changed ${new Date(w.clock.now()).toISOString()} by cli`);
    const priced = await priceFlex();
    expect(priced).not.toContain("<cns:Discount>");
    expect(warnings(priced).map(([c]) => c)).toContain("promotions_unavailable");
    expect((await json(await (await w.login("sue")).call("/staff/api/promotions"))).body).toMatchObject({ criteria: "off", changedBy: "cli" });
    expect(await run("on")).toBe(0);
    expect(await run("status")).toBe(0);
    expect(out.at(-1)).toStartWith("promotion criteria on: changed");
    expect(await priceFlex()).toContain("<cns:Discount>");
    await expect(run("sideways")).rejects.toThrow('promotions: unknown command "sideways"');
  }, 60_000);
});
