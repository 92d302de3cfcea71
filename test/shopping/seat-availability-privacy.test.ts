import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ManualClock } from "@ndc/clock";
import type { OfferOwner, OfferRepository } from "@ndc/shopping";
import type { TestGateway } from "../support/gateway";
import { everyRow } from "../support/stored-rows";
import { SECRET_DOC, SECRET_SURNAME, day, gateway, saveFlightOffer, seatAvailabilityRQ, serviceListRQ } from "./seat-availability-helpers";

let t: TestGateway;
let clock: ManualClock;
let owner: OfferOwner;
let repo: OfferRepository;

beforeAll(async () => {
  ({ t, clock, owner, repo } = await gateway());
  await saveFlightOffer(repo, clock, owner, { offerId: "OFR-PII", journeys: [t.gw.supply.journeys("LHR", "FRA", day(t, 9))[0]!] });
});
afterAll(() => t.close());

/**
 * Every byte the store holds: the database file, its -wal and -shm, anything else in the data dir;
 * on PostgreSQL (no file of ours) every row of every table as well.
 */
async function storedBytes(): Promise<string> {
  const rows = t.gw.store.dialect === "postgres" ? JSON.stringify(await everyRow(t.gw.store)) : "";
  return rows + readdirSync(t.dataDir, { recursive: true })
    .map((f) => join(t.dataDir, String(f)))
    .filter((p) => {
      try {
        return readFileSync(p).length >= 0;
      } catch {
        return false; // a directory
      }
    })
    .map((p) => readFileSync(p).toString("latin1"))
    .join("\n");
}

// Spec 4.6 rule 2 and 7.3: a PaxList IdentityDoc on a shopping message is ignored, never refused.
for (const [message, body] of [
  ["SeatAvailabilityRQ", () => seatAvailabilityRQ({ offerId: "OFR-PII", identityDoc: true })],
  ["ServiceListRQ", () => serviceListRQ({ offerId: "OFR-PII", identityDoc: true })],
] as const) {
  test(`${message}: an IdentityDoc is ignored: not stored, not returned, not logged`, async () => {
    const sent = body();
    expect(sent).toContain(SECRET_DOC);
    const r = await t.ndc(message, sent);
    expect(r.status).toBe(200);
    // Not returned.
    expect(r.body).not.toContain(SECRET_DOC);
    expect(r.body).not.toContain(SECRET_SURNAME);
    expect(r.body).not.toContain("IdentityDoc");
    // Not logged (and something was logged, so the check can fail).
    expect(t.logs.some((l) => l.includes(message))).toBe(true);
    expect(t.logs.join("\n")).not.toContain(SECRET_DOC);
    expect(t.logs.join("\n")).not.toContain(SECRET_SURNAME);
    // Not stored: the a-la-carte offer was written, the document was not.
    const bytes = await storedBytes();
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).toContain("OFR-PII");
    expect(bytes).not.toContain(SECRET_DOC);
    expect(bytes).not.toContain(SECRET_SURNAME);
  });
}
