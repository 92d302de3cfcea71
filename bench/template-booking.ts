// The template of the bulk path (bench/bulk-orders.ts) for order-read, memory and retrieve-cold:
// one paid order over HTTP (two passengers, a passport, a card), and the rows it inserted.
import type { Database } from "bun:sqlite";
import { orderCreateRQ, orderIdOf, shopOffer } from "../test/orders-http/helpers";
import type { NdcReply } from "../test/support/gateway";
import { inserted, snapshot, type TableRows, type TemplateIds } from "./bulk-orders";

export const TEMPLATE_PAX = [
  { id: "PAX1", surname: "LOVELACE", doc: { number: "QZ7731XK0946" }, email: "ada@example.com" },
  { id: "PAX2", surname: "BYRON" },
];

/** Books the template through the real path; `db` is a second connection to the gateway's file. */
export async function bookTemplate(ndc: (message: string, body: string) => Promise<Pick<NdcReply, "status" | "body">>, db: Database, prefix = "SEED"): Promise<{ rows: TableRows; ids: TemplateIds }> {
  const shopped = await shopOffer({ ndc } as never, { pax: 2 });
  const before = snapshot(db);
  const template = { correlationId: `${prefix}-C`, trxId: `${prefix}-T` };
  const booked = await ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: TEMPLATE_PAX, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], ...template }));
  if (booked.status !== 200) throw new Error(`template booking: ${booked.status} ${booked.body.slice(0, 500)}`);
  return { rows: inserted(before, snapshot(db)), ids: { ...template, orderId: orderIdOf(booked.body) } };
}
