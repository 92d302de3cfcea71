import { createRequest, envelope, newId, NdcError, readOrderView, selectAll, signXml } from "@ndc-gateway/client";
import { notRun, passenger, type Journey, type NotRun } from "./certify-journey";

/**
 * Where discovery lists OrderCreateRQ under `signatures.requests.messages`: first a copy changed
 * after signing, which a verifying gateway must refuse (400 or 401), then the unchanged request,
 * which must book. A gateway whose policy for this seller is `none` may book the changed copy
 * only if it says so (`signature_not_checked`), never silently.
 */
export async function signedOrderCreate(j: Journey): Promise<string | NotRun> {
  const signedMessages = j.discovery?.signatures?.requests?.messages ?? [];
  if (!signedMessages.includes("OrderCreateRQ")) return notRun("discovery lists no signed OrderCreateRQ (signatures.requests.messages)");
  if (!j.signingKey) return notRun("no --key and --cert to sign with");
  if (!j.offer) return notRun("no offer from the shop step");
  const fresh = await j.client.shop({ ...j.route!, passengers: [{ paxId: "PAX1", ptc: "ADT" }] });
  const offer = fresh.offers[0]!;
  const ids = { correlationId: newId("CERT-SIGNED"), trxId: newId("TRX") };
  const xml = signXml(envelope("OrderCreateRQ", { carrier: j.discovery!.airline.designator, ...ids }, createRequest({ offers: [selectAll(offer)], passengers: [passenger] })), j.signingKey);
  const tampered = xml.replace("<cns:GivenName>Certify</cns:GivenName>", "<cns:GivenName>Forged</cns:GivenName>");
  const tamperedIds = { correlationId: newId("CERT-TAMPERED"), trxId: newId("TRX") };
  const outcome = await j.client.send("OrderCreateRQ", tampered, tamperedIds).then(
    (r) => ({ accepted: readOrderView(r.xml) }),
    (e) => ({ refused: e as unknown }),
  );
  if ("accepted" in outcome) {
    // A gateway whose agreement with this seller is `none` books and says it did not check: honest, and shown as such.
    if (outcome.accepted.warnings.some((w) => w.code === "signature_not_checked")) {
      return `policy none: a request changed after signing booked ${outcome.accepted.orderId} with signature_not_checked (the gateway says it did not verify)`;
    }
    throw new Error("a request changed after signing was accepted without signature_not_checked; it must be refused 400 or 401");
  }
  const refusal = outcome.refused;
  if (!(refusal instanceof NdcError) || (refusal.status !== 400 && refusal.status !== 401)) {
    throw new Error(`a request changed after signing was answered ${(refusal as Error).message}; it must be refused 400 or 401`);
  }
  const booked = readOrderView((await j.client.send("OrderCreateRQ", xml, ids)).xml);
  return `changed copy refused ${refusal.status} ${refusal.code}; signed request booked ${booked.orderId}`;
}
