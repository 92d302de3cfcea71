import { afterAll, beforeAll, expect, test } from "bun:test";
import { migrate, openStore, type Store } from "@ndc/store";
import { ManualClock } from "@ndc/clock";
import { SANDBOX_AGENCY_ID, SANDBOX_IATA_NUMBER } from "@ndc/auth";
import { runClientCommand } from "../../apps/cli/src/commands/clients";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { orderCreateRQ, shopOffer } from "../orders-http/helpers";
import { makeKey, sellerSign, type TestKey } from "./support";

/**
 * Issue 11 item 1: `ndc-gateway agency signing add|list|revoke|policy`, on a second connection to
 * the gateway's database (as the CLI in another process), and each change biting on the very next
 * call through the caller cache (registry version, decision 0008).
 */
let t: TestGateway;
let admin: Store;
let key: TestKey;
let sha1: TestKey;

beforeAll(async () => {
  key = makeKey("cli-agency", "rsa");
  sha1 = makeKey("cli-sha1", "rsa", "sha1");
  // An hour ahead of the wall clock the CLI stamps revocations with: a revocation is in the past for the gateway.
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1" }, new ManualClock(Date.now() + 3_600_000));
  admin = await openStore(t.gw.config.databaseUrl);
  await migrate(admin);
}, 30_000);
afterAll(async () => {
  await admin.close();
  await t.close();
});

async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runClientCommand(args, { store: admin, config: t.gw.config, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

let n = 0;
async function book(sign: boolean) {
  const shopped = await shopOffer(t, { n: 1 });
  n++;
  const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `CLI-${n}`, trxId: `T${n}` });
  return t.ndc("OrderCreateRQ", sign ? sellerSign(rq, key) : rq);
}

test("add, list, policy, revoke: each bites on the next call; SHA-1 certificates and unknown agencies are refused", async () => {
  const added = await cli("agency", "signing", "add", SANDBOX_IATA_NUMBER, "--cert", key.certFile);
  expect(added.code).toBe(0);
  const fingerprint = added.out[0]!.match(/key ([0-9a-f]{64})/)![1]!;
  expect((await cli("agency", "signing", "add", SANDBOX_AGENCY_ID, "--cert", sha1.certFile)).err.join(" ")).toContain("SHA-1");
  expect((await cli("agency", "signing", "add", "NOPE-AGENCY", "--cert", key.certFile)).code).toBe(1);
  expect((await cli("agency", "signing", "policy", SANDBOX_AGENCY_ID, "sometimes")).code).toBe(1);

  expect((await book(false)).status).toBe(200); // policy none: unsigned is fine
  expect((await cli("agency", "signing", "policy", SANDBOX_AGENCY_ID, "required")).code).toBe(0);
  const refused = await book(false);
  expect(errorCode(refused.body)).toBe("signature_required");
  expect((await book(true)).status).toBe(200);

  const list = await cli("agency", "signing", "list", SANDBOX_AGENCY_ID);
  expect(list.out[0]).toContain("policy required");
  expect(list.out.join("\n")).toContain(`${fingerprint}\tcertificate\trsa-sha256`);

  expect((await cli("agency", "signing", "revoke", SANDBOX_AGENCY_ID, fingerprint)).code).toBe(0);
  const afterRevoke = await book(true);
  expect(afterRevoke.status).toBe(401);
  expect(errorCode(afterRevoke.body)).toBe("signature_key_unknown");
  expect((await cli("agency", "signing", "list", SANDBOX_AGENCY_ID)).out.join("\n")).toContain("revoked");

  expect((await cli("agency", "signing", "policy", SANDBOX_AGENCY_ID, "none")).code).toBe(0);
  expect((await book(false)).status).toBe(200);
}, 60_000);
