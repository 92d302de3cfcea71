import type { CurrencyCode } from "@ndc/money";
import type { AuthoriseAllResult, CommissionAgreement } from "@ndc/payments";
import { saleCommission } from "@ndc/payments";
import type { NewIdentityDocument, ValidIdentityDoc } from "@ndc/pii";
import type { NewOrder } from "../actor/commands";
import { freezeAtBooking } from "../conditions/frozen";
import { ids } from "../ids";
import type { OrderLegRef, OrderPax } from "../state";
import type { OrderCreateInput } from "./input";
import type { CreatePlan } from "./plan";
import { SALE_CHANGE_REF } from "./plan";
import type { Resolution } from "./resolve";
import { contactEmail } from "./rules";

/** The order the commit step creates, with its identity documents (encrypted in the same transaction). */
export function buildOrder(
  sagaId: string,
  orderId: string,
  input: OrderCreateInput,
  r: Resolution,
  plan: CreatePlan,
  docs: Map<string, ValidIdentityDoc[]>,
  auth: AuthoriseAllResult | undefined,
  commission: NewOrder["commission"],
): { order: NewOrder; documents: NewIdentityDocument[] } {
  const documents: NewIdentityDocument[] = [];
  const passengers: OrderPax[] = r.pax.map((sp) => {
    const p = input.passengers.find((x) => x.paxId === sp.paxId)!;
    const mine = (docs.get(p.paxId) ?? []).map((doc, i) => ({ documentId: ids.document(orderId, p.paxId, i), paxId: p.paxId, doc }));
    documents.push(...mine);
    return {
      paxId: p.paxId,
      ptc: sp.ptc,
      ...(p.title ? { title: p.title } : {}),
      givenNames: p.givenNames ?? [],
      surname: p.surname.trim(),
      ...(p.birthdate ? { birthdate: p.birthdate } : {}),
      ...(p.gender ? { gender: p.gender } : {}),
      ...(p.email ? { email: p.email } : {}),
      ...(p.phone ? { phone: p.phone } : {}),
      ...(p.loyalty ? { loyalty: p.loyalty } : {}),
      documentIds: mine.map((d) => d.documentId),
    };
  });
  const legs: OrderLegRef[] = [];
  let state: NewOrder["state"] = "held_unpaid";
  let declineCode: string | undefined;
  if (auth?.status === "authorised") {
    state = "booked";
    legs.push(...auth.legs.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "authorised" as const, changeRef: SALE_CHANGE_REF })));
  } else if (auth?.status === "declined") {
    state = "held_payment_declined";
    declineCode = auth.code;
    legs.push({ legId: auth.declined.legId, kind: auth.declined.kind, amountMinor: auth.declined.requested, state: "declined", changeRef: SALE_CHANGE_REF });
    legs.push(...auth.voided.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "voided" as const, changeRef: SALE_CHANGE_REF })));
  }
  const email = contactEmail(input);
  const order: NewOrder = {
    orderId,
    owner: input.seller,
    state,
    createdAt: plan.createdAt,
    ...(state === "booked" ? {} : { paymentTimeLimit: plan.paymentTimeLimit }),
    currency: r.currency,
    totalMinor: r.totalMinor,
    ...(commission ? { commission } : {}),
    offers: r.offers,
    items: r.items,
    adjustments: r.adjustments,
    journeys: r.journeys,
    passengers,
    ...(email ? { contactEmail: email } : {}),
    seatHolds: plan.seatHolds,
    partnerHolds: plan.partnerHolds,
    legs,
    ...(declineCode ? { declineCode } : {}),
    // Recorded with the order (its created event), so the named method outlives the request.
    ...(input.intendedPayment ? { intendedPayment: input.intendedPayment } : {}),
    sagaId,
    // Frozen now, from the brands as sold: a later policy change does not change a sold fare.
    fareConditions: freezeAtBooking(r.journeys),
  };
  return { order, documents };
}

/**
 * PAYCOM on the order total (spec 4.4 rule 7). Each item's total is the one its offer was priced
 * at, so it already holds every surcharge and, by the payments rule (commissionBase), less every
 * discount: the order total is the commission base as it stands, and adding r.adjustments again
 * would count them twice. The rate's rounding is the payments package's (half away from zero).
 */
export function commissionOf(agreement: CommissionAgreement, r: Resolution): NonNullable<NewOrder["commission"]> {
  const c = saleCommission(agreement, { amount: r.totalMinor, currency: r.currency as CurrencyCode });
  return { amountMinor: c.amount.amount, basisMinor: c.basis.amount, rule: c.rule };
}
