import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import { migrate, openStore, type Store } from "@ndc/store";
import { OfferRepository } from "@ndc/shopping";

let dir: string;
let store: Store;
const clock = new ManualClock();
let repo: OfferRepository;
const A = { clientId: "c-a", agencyId: "AGENCY-A" };
const B = { clientId: "c-b", agencyId: "AGENCY-B" };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ndc-offers-"));
  store = await openStore(`file:${join(dir, "g.db")}`);
  await migrate(store);
  repo = new OfferRepository(store, clock);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const offer = (id: string, owner = A, ttl = 60_000) => ({
  offerId: id,
  source: "air_shopping" as const,
  owner,
  createdAt: clock.now(),
  expiresAt: clock.now() + ttl,
  payload: { items: [id] },
});

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GatewayError) return e.code;
    throw e;
  }
  return "resolved";
}

test("an offer resolves for its seller with its payload until it expires", async () => {
  await repo.save([offer("O1")]);
  expect((await repo.resolve<{ items: string[] }>("O1", A)).payload.items).toEqual(["O1"]);
  clock.advance(60_000);
  expect(await refusal(repo.resolve("O1", A))).toBe("offer_expired");
});

test("another seller's offer is answered like a missing one", async () => {
  await repo.save([offer("O2", A)]);
  expect(await refusal(repo.resolve("O2", B))).toBe("offer_not_found");
  expect(await refusal(repo.resolve("NOPE", B))).toBe("offer_not_found");
});

test("re-issuing an id replaces the older issue; expired offers are purged", async () => {
  await repo.save([offer("O3", A, 10)]);
  await repo.save([offer("O3", B, 120_000)]);
  expect((await repo.resolve("O3", B)).owner).toEqual(B);
  expect(await refusal(repo.resolve("O3", A))).toBe("offer_not_found");
  await repo.save(Array.from({ length: 250 }, (_, i) => offer(`bulk-${i}`, A, 5)));
  clock.advance(10);
  expect(await repo.purgeExpired()).toBeGreaterThanOrEqual(250);
  expect((await repo.resolve("O3", B)).offerId).toBe("O3");
});
