import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CAPABILITIES, MESSAGES, type MessageHandler } from "@ndc/messages";
import { el } from "@ndc/xml";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { paymentClearanceRQ } from "../clearance/helpers";

/**
 * GET /24.4 says per message whether it is live, and advertises a capability code only when every
 * message behind it is live and none of its rules is unfinished. "Live" is checked on the wire:
 * a planned message answers 501 message_not_available, a live one never does.
 */
interface Discovery {
  messages: { name: string; status: string }[];
  capabilities: string[];
}

/** The codes spec 1 allows once `live` messages are served: derived here from the capability table, independently of discovery. */
const expectedCodes = (live: Set<string>) =>
  Object.entries(CAPABILITIES)
    .filter(([, c]) => c.messages.every((m) => live.has(m)) && !c.unfinished?.length)
    .map(([code]) => code);

/** PaymentClearanceRQ lives in the 2022.1 clearance namespace, not the NDC message one, and has no DistributionChain. */
const CLEARANCE_RQ = paymentClearanceRQ({ clearanceId: "2026999ABCDEFGH", amount: "1.00" });

async function discovery(t: TestGateway): Promise<Discovery> {
  const res = await t.fetch("/24.4");
  expect(res.status).toBe(200);
  return (await res.json()) as Discovery;
}

describe("the gateway as shipped", () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(() => t.close());

  test("every message is live or planned, and exactly the planned ones answer 501 message_not_available", async () => {
    const doc = await discovery(t);
    expect(doc.messages.map((m) => m.name)).toEqual(MESSAGES.map((m) => m.name));
    for (const m of doc.messages) {
      expect(["live", "planned"]).toContain(m.status);
      const r = await t.ndc(m.name, m.name === "PaymentClearanceRQ" ? CLEARANCE_RQ : ndcRequest(m.name, { correlationId: "disc-1", trxId: "disc-1" }));
      if (m.status === "planned") {
        expect(r.status).toBe(501);
        expect(errorCode(r.body)).toBe("message_not_available");
      } else {
        expect({ message: m.name, status: r.status }).not.toEqual({ message: m.name, status: 501 });
        expect(errorCode(r.body)).not.toBe("message_not_available");
      }
    }
    // Live is exactly what the handler registry registers (apps/gateway/src/handlers.ts, one line per message).
    const registry = readFileSync(join(import.meta.dir, "../../apps/gateway/src/handlers.ts"), "utf8");
    const registered = [...registry.matchAll(/handlers\.set\("(\w+)"/g)].map((m) => m[1]!);
    expect(registered.length).toBeGreaterThan(0);
    const live = doc.messages.filter((m) => m.status === "live").map((m) => m.name);
    expect(live.sort()).toEqual(registered.sort());
  });

  test("capabilities are exactly those whose messages are all live and whose rules are all done", async () => {
    const doc = await discovery(t);
    const live = new Set(doc.messages.filter((m) => m.status === "live").map((m) => m.name));
    expect(doc.capabilities).toEqual(expectedCodes(live));
    // Every SHPOR1 rule is built, rule 4 on cancellations included (test/servicing/cancel-staff.test.ts).
    expect(doc.capabilities).toContain("SHPOR1");
    // Every response spec 4.8 rule 1 names answers in the requested language (test/servicing/*-localisation*.test.ts).
    expect(doc.capabilities).toContain("SHPLOC");
    // OrderReshopRQ is live for its cancel-quote and ORDRE2 forms: ORDRE2 is advertised, nothing that needs a flight change.
    expect(doc.messages.find((m) => m.name === "OrderReshopRQ")?.status).toBe("live");
    for (const code of ["SHPFLT", "SHPSTO", "SHPSRV", "ORDCRE", "ORDWPM", "PAYRCV", "ORDRE2"]) expect(doc.capabilities).toContain(code);
    // Sales reporting (accounting.sales_info, test/notifications/sales-info.test.ts): every rule behind it is built.
    for (const code of ["ACCREP", "ACCRE2"]) expect(doc.capabilities).toContain(code);
    // order.changed and service.delivered are pushed (test/notifications/operations*.test.ts).
    for (const code of ["ORDOCN", "ORDOC2", "ORDDEL", "ORDST2"]) expect(doc.capabilities).toContain(code);
    // Subscriptions work, and revenue accounting hears of service status changes (test/notifications/service-status.test.ts).
    for (const code of ["STPNTF", "ACCSTS"]) expect(doc.capabilities).toContain(code);
  });
});

describe("a gateway whose registry holds only AirShoppingRQ and OfferPriceRQ", () => {
  let t: TestGateway;
  // Never called: discovery reads only which names the registry holds.
  const handler: MessageHandler = async () => ({ response: el("Response") });
  beforeAll(async () => {
    t = await startTestGateway({}, undefined, new Map([["AirShoppingRQ", handler], ["OfferPriceRQ", handler]]));
  });
  afterAll(() => t.close());

  test("lists the others as planned and advertises only the shopping codes that need nothing more", async () => {
    const doc = await discovery(t);
    const live = doc.messages.filter((m) => m.status === "live").map((m) => m.name);
    expect(live).toEqual(["AirShoppingRQ", "OfferPriceRQ"]);
    const r = await t.ndc("SeatAvailabilityRQ", ndcRequest("SeatAvailabilityRQ"));
    expect(r.status).toBe(501);
    expect(errorCode(r.body)).toBe("message_not_available");
    // ORDOCN/ORDOC2, STPNTF and ACCSTS are about orders: they need the booking messages too.
    expect(doc.capabilities).toEqual(["SHPFLT", "SHPITL", "SHPMOD", "SHPBND", "SHPDSC", "SHPRMD"]);
  });
});
