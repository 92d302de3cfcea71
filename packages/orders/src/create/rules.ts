import { GatewayError } from "@ndc/errors";
import { refuseCardData, validateLegs, type LegRequest } from "@ndc/payments";
import { validateIdentityDoc, type ValidIdentityDoc } from "@ndc/pii";
import type { OrderCreateInput } from "./input";
import type { Resolution } from "./resolve";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks that need no store, run before anything is taken: card data refused (nothing of it is
 * stored), legs well formed (up to four), identity documents valid (spec 2.4). Returns the
 * validated documents per passenger.
 */
export function checkRequest(input: OrderCreateInput): Map<string, ValidIdentityDoc[]> {
  if (input.payment?.length) {
    refuseCardData(input.payment, "PaymentFunctions");
    validateLegs(input.payment);
  }
  const docs = new Map<string, ValidIdentityDoc[]>();
  const seen = new Set<string>();
  for (const p of input.passengers) {
    if (seen.has(p.paxId)) throw new GatewayError("request_invalid", { detail: `Passenger ${p.paxId.slice(0, 64)} is described twice.` });
    seen.add(p.paxId);
    if (!p.surname?.trim()) throw new GatewayError("request_invalid", { detail: `Passenger ${p.paxId.slice(0, 64)} has no surname.`, element: "Pax/Individual/Surname" });
    docs.set(p.paxId, (p.identityDocs ?? []).map(validateIdentityDoc));
  }
  return docs;
}

/** Contact email of the order: its own contact, else the first passenger's. */
export function contactEmail(input: OrderCreateInput): string | undefined {
  const email = input.contact?.email?.trim() || input.passengers.map((p) => p.email?.trim()).find(Boolean);
  return email && EMAIL.test(email) ? email : undefined;
}

/**
 * Step 2, the order's rules against what the offers hold: every passenger of the offers
 * described, a partner product only with a contact email and once per order (spec 4.4 rule 3,
 * section 8), payment legs paying exactly the order total in its currency.
 */
export function checkRules(input: OrderCreateInput, r: Resolution): void {
  const described = new Set(input.passengers.map((p) => p.paxId));
  for (const p of r.pax) if (!described.has(p.paxId)) throw new GatewayError("request_invalid", { detail: `Passenger ${p.paxId.slice(0, 64)} of the offer is not described.`, element: "DataLists/PaxList" });
  for (const id of described) if (!r.pax.some((p) => p.paxId === id)) throw new GatewayError("request_invalid", { detail: `Passenger ${id.slice(0, 64)} is in no selected offer.`, element: "DataLists/PaxList" });

  if (r.partnerUnits.length) {
    if (!contactEmail(input)) throw new GatewayError("partner_product_needs_email", { element: "DataLists/ContactInfoList" });
    const codes = new Set<string>();
    for (const c of r.partnerUnits) {
      if (codes.has(c)) throw new GatewayError("partner_product_once_per_order", { detail: `(${c})` });
      codes.add(c);
    }
  }
  if (input.payment?.length) checkLegsPayTotal(input.payment, r.currency, r.totalMinor);
}

/**
 * The legs a post-sale change takes (issue 20 item 2). PaymentFunctions of 0.00 are what a
 * seller's system sends when nothing is due: when every leg is zero the change takes none (nothing
 * reaches the PSP, no leg is recorded) and is judged as sent without payment; a zero leg among
 * others stays a malformed leg (validateLegs).
 */
export function legsTaken(legs: LegRequest[]): LegRequest[] {
  return legs.length > 0 && legs.every((l) => l.amount.amount === 0) ? [] : legs;
}

export function checkLegsPayTotal(legs: readonly LegRequest[], currency: string, totalMinor: number): void {
  if (legs.length === 0) throw new GatewayError("payment_legs_invalid", { detail: `Nothing is paid of the ${totalMinor} minor units due: PaymentFunctions must pay them.` });
  if (legs.some((l) => l.amount.currency !== currency)) throw new GatewayError("payment_legs_invalid", { detail: `The order is in ${currency}.` });
  const paid = legs.reduce((s, l) => s + l.amount.amount, 0);
  if (paid !== totalMinor) throw new GatewayError("payment_legs_invalid", { detail: `The legs pay ${paid} minor units of an order total of ${totalMinor}.` });
}
