import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "@ndc/config";
import { systemClock } from "@ndc/clock";
import { registerAgency, registerClient } from "@ndc/auth";
import { createLogger } from "@ndc/log";
import { Dispatcher, Subscriptions, verifyWebhook } from "@ndc/notifications";
import { registryGrants } from "@ndc/auth";
import { postWebhook } from "@ndc/scheduler";
import { startReceiver, type Receiver } from "../notifications/helpers";
import { listErasures, loadFieldKey } from "@ndc/pii";
import { migrate, openStore, type Store } from "@ndc/store";
import { addDays, createSupply } from "@ndc/supply";
import { runWebShopCommand } from "../../apps/cli/src/commands/web-shop";
import { tempDir } from "../inventory/helpers";
import { assertSchemaValid } from "../support/xsd";

/**
 * The web shop's bookings in process, on a data directory of their own: a booking for an account
 * that is deleted while the booking runs (after its account check, before its order commits) has
 * its documents erased once it commits; its sale is reported to accounting like any order's,
 * delivered over HTTP to accounting's receiver.
 */
const tmp = tempDir("ndc-web-shop-race-");
const env = { GATEWAY_MODE: "local", GATEWAY_DATA_DIR: tmp.dir, SUPPLY_SEED: "test-seed", LOG_LEVEL: "silent" };
const NUMBER = "RACE4417PQ0021";
let store: Store;
let flightKey: string;
let subs: Subscriptions;
let secret: string;
let rx: Receiver;
const lines: string[] = [];
const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), env };

beforeAll(async () => {
  const config = loadConfig(env);
  store = await openStore(config.databaseUrl);
  await migrate(store);
  const supply = createSupply({ seed: "test-seed", startDate: new Date().toISOString().slice(0, 10), designator: config.airline.designator, airlineName: config.airline.name });
  flightKey = supply.journeys("LHR", "CDG", addDays(supply.startDate, 25)).find((j) => j.segments.length === 1)!.segments[0]!.key;
  // The airline's accounting listens on a port of its own: a client of its own agency holding ndc:accounting.
  rx = startReceiver();
  await registerAgency(store, { agencyId: "ACCOUNTING", iataNumber: "99999994", name: "Airline accounting" });
  const client = await registerClient(store, { agency: "ACCOUNTING", scopes: "ndc:notif:subscribe ndc:accounting" });
  subs = new Subscriptions({ store, clock: systemClock, fieldKey: loadFieldKey(config), mode: "local", maxPerAgency: config.notifySubscriptionsMax });
  secret = (await subs.create({ agencyId: "ACCOUNTING", clientId: client.clientId, scopes: new Set(["ndc:notif:subscribe", "ndc:accounting"]) }, { url: rx.url, events: ["accounting.sales_info"] })).secret;
});
afterAll(async () => {
  rx.stop();
  await store.close();
  tmp.cleanup();
});

test("an account deleted while its booking runs: the booking commits, then its documents are erased, with the audit row; the sale is reported", async () => {
  expect(await runWebShopCommand(["account", "add", "--email", "race@example.com", "--name", "Race Case"], io)).toBe(0);
  const account = /account (WSA-\S+) added/.exec(lines.join("\n"))![1]!;
  const file = join(tmp.dir, "pax.json");
  writeFileSync(file, JSON.stringify([{ givenNames: ["RUTH"], surname: "RACER", identityDocs: [{ IdentityDocTypeCode: "PT", IdentityDocID: NUMBER, Surname: "RACER", IssuingCountryCode: "FR", ExpiryDate: "2031-05-01" }] }]));

  let deleted = -1;
  const code = await runWebShopCommand(["book", flightKey, "--passengers", file, "--account", account, "--card-token", "tok_approve_visa"], io, {
    // The account passed its check; it is deleted before the order commits.
    afterAccountCheck: async () => {
      deleted = await runWebShopCommand(["account", "delete", account], io);
    },
  });
  expect(deleted).toBe(0);
  expect(code).toBe(0);
  const out = lines.join("\n");
  expect(out).toContain(`account ${account} deleted: 0 identity document(s) erased on 0 order(s)`);
  const orderId = /booked order (\S+) \(booked\)/.exec(out)![1]!;
  expect(out).toContain(`account ${account} was deleted while booking: the order's 1 identity document(s) erased`);
  const docs = (await store.db.all(`SELECT number_ciphertext AS c, erased_at AS e FROM identity_documents WHERE order_id = '${orderId}'`)) as { c: string | null; e: number | null }[];
  expect(docs).toEqual([{ c: null, e: expect.any(Number) }]);
  expect((await listErasures(store.db, orderId)).map((r) => [r.path, r.actor, r.documents])).toEqual([["account_deletion", `web-shop-account:${account}`, 1]]);
  // The order belongs to the web shop's agency and names the account; its sale went to accounting, XSD-valid.
  const owner = (await store.db.all(`SELECT owner_agency_id AS a, owner_client_id AS c FROM orders WHERE order_id = '${orderId}'`)) as { a: string; c: string }[];
  expect(owner).toEqual([{ a: "WEB-SHOP", c: `web-shop:${account}` }]);
  const pushed = (await store.db.all(`SELECT event, body FROM notification_deliveries WHERE order_id = '${orderId}'`)) as { event: string; body: string }[];
  expect(pushed.map((p) => p.event)).toEqual(["accounting.sales_info"]);
  assertSchemaValid(pushed[0]!.body);
  expect(pushed[0]!.body).toContain("<cns:OrgID>WEB-SHOP</cns:OrgID>");
  expect(pushed[0]!.body).toContain("<cns:StatusCode>SALE</cns:StatusCode>");
  expect(out).not.toContain(NUMBER);
  // Delivered over HTTP to accounting's receiver, signed.
  const dispatcher = new Dispatcher({ store, clock: systemClock, logger: createLogger({ level: "silent" }), subscriptions: subs, mode: "local", post: postWebhook, holdsGrant: registryGrants(store) });
  await dispatcher.tick();
  expect(rx.requests).toHaveLength(1);
  const r = rx.requests[0]!;
  expect(r.path).toBe("/24.4/OrderSalesInformationNotifRQ");
  expect(verifyWebhook(secret, { id: r.headers.get("webhook-id")!, timestamp: r.headers.get("webhook-timestamp")!, signature: r.headers.get("webhook-signature")! }, r.body)).toBe(true);
  expect(r.body).toBe(pushed[0]!.body);
}, 120_000);

test("a deletion interrupted after its mark (the process killed before the erasure) is finished by delete again", async () => {
  lines.length = 0;
  expect(await runWebShopCommand(["account", "add", "--email", "cut@example.com", "--name", "Cut Short"], io)).toBe(0);
  const account = /account (WSA-\S+) added/.exec(lines.join("\n"))![1]!;
  const file = join(tmp.dir, "pax-cut.json");
  writeFileSync(file, JSON.stringify([{ surname: "CUTSHORT", identityDocs: [{ IdentityDocTypeCode: "PT", IdentityDocID: "CUT8812LM0044", Surname: "CUTSHORT" }] }]));
  expect(await runWebShopCommand(["book", flightKey, "--passengers", file, "--account", account], io)).toBe(0);
  const orderId = /booked order (\S+) /.exec(lines.join("\n"))![1]!;
  // What `delete` writes first, alone: the account marked deleted, its email and name cleared; then the process dies.
  await store.write((_tx, raw) => raw.exec(`UPDATE web_shop_accounts SET deleted_at = 1, email = NULL, name = NULL WHERE account_id = '${account}'`));
  const held = async () => ((await store.db.all(`SELECT count(*) AS n FROM identity_documents WHERE order_id = '${orderId}' AND erased_at IS NULL`)) as { n: number }[])[0]!.n;
  expect(await held()).toBe(1);
  expect(await runWebShopCommand(["account", "delete", account], io)).toBe(0);
  expect(lines.at(-1)).toBe(`account ${account} deleted: 1 identity document(s) erased on 1 order(s)`);
  expect(await held()).toBe(0);
  expect((await listErasures(store.db, orderId)).map((r) => r.path)).toEqual(["account_deletion"]);
}, 120_000);
