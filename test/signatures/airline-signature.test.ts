import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { ManualClock } from "@ndc/clock";
import { SANDBOX_AGENCY_ID, setSigningPolicy } from "@ndc/auth";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { CNS, DSIG, keyDir, makeKey, sellerSign } from "./support";

/**
 * Issue 11 items 4 and 5: the airline signs OrderViewRS answers when the agreement asks, with the
 * certificate the discovery document publishes, and xmlsec1 (a standard tool) verifies them; the
 * other way, a request in the 24.4 form put back into a standard ds:Signature verifies in xmlsec1.
 */
let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1" }, new ManualClock(Date.now()));
}, 30_000);
afterAll(() => t.close());

function xmlsecVerifies(xml: string, pem: string, name: string): boolean {
  const file = join(keyDir, `${name}.xml`);
  const keyFile = join(keyDir, `${name}.pem`);
  writeFileSync(file, xml);
  writeFileSync(keyFile, pem);
  const flag = pem.includes("BEGIN CERTIFICATE") ? "--pubkey-cert-pem" : "--pubkey-pem";
  try {
    execFileSync("xmlsec1", ["--verify", flag, keyFile, file], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

async function discoveryCertificate(): Promise<string> {
  const d = (await (await t.fetch("/24.4")).json()) as { signatures: { requests: { messages: string[] }; airline: { certificate: string; messages: string[] } } };
  expect(d.signatures.requests.messages).toEqual(["OrderCreateRQ", "OrderChangeRQ"]);
  expect(d.signatures.airline.messages).toEqual(["OrderViewRS"]);
  return d.signatures.airline.certificate;
}

test("OrderViewRS answers carry the airline's signature only when the agreement asks; xmlsec1 verifies them with the discovery certificate", async () => {
  const cert = await discoveryCertificate();
  const shopped = await shopOffer(t, { n: 1 });
  const create = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "AIR-1", trxId: "T1" });
  const unsigned = await t.ndc("OrderCreateRQ", create);
  expect(unsigned.status).toBe(200);
  expect(unsigned.body).not.toContain("SignatureValue");

  await setSigningPolicy(t.gw.store, SANDBOX_AGENCY_ID, "none", true);
  const retrieve = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(unsigned.body)));
  expect(retrieve.status).toBe(200); // t.ndc checked it against the OrderViewRS XSD, signature included
  expect(retrieve.body).toContain("<ds:SignatureValue>");
  expect(xmlsecVerifies(retrieve.body, cert, "answer")).toBe(true);
  // Changed after signing: xmlsec1 refuses it, so the check above can fail.
  expect(xmlsecVerifies(retrieve.body.replace(orderIdOf(unsigned.body), "ORDER-FORGED"), cert, "forged")).toBe(false);

  // The stored OrderCreate answer replayed for the same ids is signed too.
  const replay = await t.ndc("OrderCreateRQ", create);
  expect(xmlsecVerifies(replay.body, cert, "replay")).toBe(true);
  await setSigningPolicy(t.gw.store, SANDBOX_AGENCY_ID, "none", false);
  expect((await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(unsigned.body)))).body).not.toContain("SignatureValue");
}, 60_000);

test("a request signed in the 24.4 form, put back into a standard ds:Signature, verifies in xmlsec1", async () => {
  const k = makeKey("reverse", "rsa");
  const shopped = await shopOffer(t, { n: 1 });
  const signed = sellerSign(orderCreateRQ({ shopped, correlationId: "REV-1", trxId: "T1" }), k);
  const doc = new DOMParser().parseFromString(signed, "text/xml");
  const wrapper = doc.getElementsByTagNameNS(CNS, "SignatureType")[0]!;
  const sig = doc.createElementNS(DSIG, "ds:Signature");
  while (wrapper.firstChild) sig.appendChild(wrapper.firstChild);
  wrapper.appendChild(sig);
  const standard = new XMLSerializer().serializeToString(doc);
  expect(xmlsecVerifies(standard, k.cert, "reverse")).toBe(true);
  expect(xmlsecVerifies(standard.replace("REV-1", "REV-2"), k.cert, "reverse-forged")).toBe(false);
}, 30_000);
