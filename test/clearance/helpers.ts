import { expect } from "bun:test";
import { verifyWebhook } from "@ndc/notifications";
import { NS } from "@ndc/xml";
import type { Receiver } from "../notifications/helpers";
import { assertSchemaValid } from "../support/xsd";

/** A schema-valid IATA_PaymentClearanceRQ clearing one settlement-plan payment (2022.1; docs/messages/PaymentClearanceRQ.md). */
export function paymentClearanceRQ(o: { clearanceId: string; amount: string; currency?: string; payeeCode?: string; payeeDesig?: string; payerIata?: string; correlationId?: string; trxId?: string; count?: number; clearances?: number }): string {
  const one = `<Clearance><cns:ClearanceData><cns:ClearanceID>${o.clearanceId}</cns:ClearanceID><cns:ClearancePayeeData><cns:ClearancePayee><cns:Carrier><cns:AirlineAccountingCode>${o.payeeCode ?? "999"}</cns:AirlineAccountingCode><cns:AirlineDesigCode>${o.payeeDesig ?? "XB"}</cns:AirlineDesigCode></cns:Carrier></cns:ClearancePayee></cns:ClearancePayeeData><cns:ClearancePayerData><cns:ClearancePayer><cns:TravelAgency><cns:IATA_Number>${o.payerIata ?? "99999999"}</cns:IATA_Number></cns:TravelAgency></cns:ClearancePayer></cns:ClearancePayerData><cns:NetClearanceAmount CurCode="${o.currency ?? "EUR"}">${o.amount}</cns:NetClearanceAmount><cns:PaymentCommitmentDateTime>2026-11-21T09:00:00Z</cns:PaymentCommitmentDateTime><cns:ProcessRuleCode>IATAC00</cns:ProcessRuleCode></cns:ClearanceData><cns:PaymentBrandCode>IB</cns:PaymentBrandCode></Clearance>`;
  const n = o.clearances ?? 1;
  return `<IATA_PaymentClearanceRQ xmlns="${NS.clearanceRQ}" xmlns:cns="${NS.clearanceCommon}">${one.repeat(n)}<ClearanceCount>${o.count ?? n}</ClearanceCount><PayloadStandardAttributes><cns:CorrelationID>${o.correlationId ?? "clr-1"}</cns:CorrelationID>${o.trxId ? `<cns:TrxID>${o.trxId}</cns:TrxID>` : ""}</PayloadStandardAttributes></IATA_PaymentClearanceRQ>`;
}

/** The pushes of one message the receiver got, each checked: path, headers, signature with `secret`, and its XSD. */
export function pushesOf(rx: Receiver, message: string, secret: string): string[] {
  return rx.requests
    .filter((r) => r.path === `/24.4/${message}`)
    .map((r) => {
      expect(r.headers.get("iata-message-name")).toBe(`IATA_${message}`);
      expect(r.headers.get("content-type")).toBe("application/xml");
      const h = { id: r.headers.get("webhook-id")!, timestamp: r.headers.get("webhook-timestamp")!, signature: r.headers.get("webhook-signature")! };
      expect(verifyWebhook(secret, h, r.body)).toBe(true);
      assertSchemaValid(r.body);
      return r.body;
    });
}

/** The text of the first element of this local name. */
export const textOf = (xml: string, name: string) => new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([^<]*)</`).exec(xml)?.[1];

/**
 * Pushes compared without their order of arrival, where several were due at once: the dispatcher
 * has up to four attempts in flight per subscription and promises no order among them
 * (docs/notifications.md, "One endpoint never delays another"). With bun:sqlite's synchronous
 * reads they happened to arrive as they started; on PostgreSQL, whose reads go through a pool,
 * they arrive in any order, as they may on either engine after a retry.
 */
export const inAnyOrder = <T>(pushes: T[]): string[] => pushes.map((p) => JSON.stringify(p)).sort();
