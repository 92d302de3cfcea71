import { bandFeeMinor, cancelPenaltyId, commissionAsItStands, deliveryStateOf, serviceFlightKeys, type Order, type OrderDetails, type OrderItem, type OrderState } from "@ndc/orders";
import { isDeclineReason, maskTail, OWN_PROGRAMME, paymentSummary, type PaymentLeg } from "@ndc/payments";
import { minorUnits } from "@ndc/money";
import { isOmitted, type MaskedIdentityDoc } from "@ndc/pii";
import { Localiser } from "@ndc/shopping";
import { shoppingIds } from "@ndc/shopping";
import type { AnswerOutcome } from "../../handler";
import type { WarningView } from "../../shopping/shared/view/common";
import type { OrderItemView, OrderServiceView, OrderView, RestrictionsView } from "../shared/view/order";
import type { OrderContactView, OrderPaxView } from "../shared/view/pax";
import type { PaymentEntryView } from "../shared/view/payment";
import { ORDER_STATUS_CODES } from "../shared/view/status-codes";
import { orderDataLists } from "./data-lists";
import { fareDefinitionId, SEAT_DEFINITION_ID, serviceDefinitionIdOf } from "./service-definition";
import { intendedPaymentEntry } from "./intended-payment";
import { withIncludedBaggage } from "./included-baggage";

const ITEM_STATUS: Readonly<Record<OrderState, string>> = {
  held_unpaid: "HELD",
  held_payment_declined: "HELD",
  booked: "CONFIRMED",
  cancelled: "CANCELLED",
  closed: "CLOSED",
};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Domain order details -> the codec's OrderView (IATA_OrderViewRS): items, flights, passengers
 * with their identity documents masked, prices and adjustments, commission (PAYCOM), payment
 * time limit, state, version, and PAYSUM from the payment ledger. Pure: everything it shows was
 * read by the domain (@ndc/orders OrdersService.details). Used by OrderCreate, OrderRetrieve and
 * OrderChange; the decline is what the answer's log line says of a declined payment.
 */
export function orderViewOf(details: OrderDetails, ownerCode: string, languages: readonly string[] = []): { view: OrderView; decline?: AnswerOutcome } {
  const { order, documents: docs, legs } = details;
  // Airline content (station and service names) in the seller's language, English where not translated (spec 4.8 rule 1).
  const loc = new Localiser(languages);
  const decimals = minorUnits(order.currency as never);
  const m = (minor: number) => ({ minor, currency: order.currency, decimals });
  const warnings: WarningView[] = [];
  const docsByPax = new Map<string, MaskedIdentityDoc[]>();
  let omitted = 0;
  for (const d of docs) {
    if (isOmitted(d.view)) {
      omitted++;
      continue;
    }
    docsByPax.set(d.paxId, [...(docsByPax.get(d.paxId) ?? []), d.view]);
  }
  // Spec 2.4 rule 4: silence must not read as "no document on file".
  if (omitted > 0) warnings.push({ code: "identity_document_not_shown", detail: `${omitted} document(s) omitted.` });
  // SHPOR1 rule 1: an order serviced under today's policy says so on every answer.
  if (details.servicing.basis === "current_policy") warnings.push({ code: "fare_conditions_current_policy" });
  const decline = order.declineCode ? declineOf(order.declineCode, legs) : undefined;
  if (decline) warnings.push(decline.warning);

  const { passengers, contacts } = people(order, docsByPax);
  const items = orderItemViews(details, ownerCode);
  const surcharges = perRule(order, "surcharge").map((a) => ({ ruleId: a.ruleId.slice(0, 15), name: a.ruleId, amount: m(a.minor) }));
  const discounts = perRule(order, "discount").map((a) => ({ ruleId: a.ruleId.slice(0, 15), name: a.ruleId, amount: m(a.minor) }));

  // Recomputed on what the airline keeps of the sale after refunds (issue 19 item 13c).
  const saleCommission = commissionAsItStands(order);
  const view: OrderView = {
    orderId: order.orderId,
    ownerCode,
    statusCode: ORDER_STATUS_CODES[order.state],
    versionNumber: order.version,
    createdAt: iso(order.createdAt),
    lastModifiedAt: iso(order.updatedAt),
    ...(order.paymentTimeLimit !== undefined && order.state !== "booked" ? { paymentTimeLimit: iso(order.paymentTimeLimit) } : {}),
    totalPrice: { taxes: [], total: m(order.totalMinor), ...(discounts.length ? { discounts } : {}), ...(surcharges.length ? { surcharges } : {}) },
    commissions: saleCommission
      ? [
          {
            amount: m(saleCommission.amountMinor),
            code: "SALE",
            base: m(saleCommission.basisMinor),
            ...percentOf(saleCommission.rule),
          },
        ]
      : [],
    items,
    dataLists: orderDataLists(details, ownerCode, passengers, contacts, loc),
    payments: [...legs.flatMap((l) => paysum(l, decimals)), ...retainedEntry(order, legs, decimals), ...intendedPaymentEntry(order, decimals)],
    processing: { currency: { code: order.currency, decimals }, contentLanguages: loc.contentLanguages() },
    warnings,
  };
  const fellBack = loc.fallbackDetail();
  if (fellBack) warnings.push({ code: "content_language_fallback", detail: fellBack });
  return { view, ...(decline ? { decline: decline.outcome } : {}) };
}

/**
 * The Warning of a held order whose last payment attempt was declined. A card the PSP declined
 * names the PSP's reason as its Code (do_not_honour, insufficient_funds...: docs/payments.md),
 * so a seller can tell "try another card" from "retry the same card"; any other decline (a
 * voucher, points, settlement headroom, a PSP that never answered) names its own wire code.
 */
function declineOf(declineCode: string, legs: readonly PaymentLeg[]): { warning: WarningView; outcome: AnswerOutcome } {
  const declined = legs.filter((l) => l.state === "declined").at(-1);
  const held = "The order is held until its payment time limit.";
  if (declined && isDeclineReason(declined.declineReason)) {
    return {
      warning: { code: declined.declineReason, detail: held, element: "PaymentFunctions" },
      outcome: { errorCode: declineCode, declineReason: declined.declineReason },
    };
  }
  return { warning: { code: "payment_declined", text: `The payment was declined (${declineCode}). ${held}` }, outcome: { errorCode: declineCode } };
}

/**
 * The order's TotalPrice names each rule once, summed over the items it touched, as OfferPrice's
 * TotalPrice does (spec 4.5 rule 3): the order recorded one adjustment per item, and the same
 * rule on an adult and a child item is still one surcharge of the whole order.
 */
function perRule(order: Order, effect: "discount" | "surcharge"): { ruleId: string; minor: number }[] {
  const sums = new Map<string, number>();
  for (const a of order.adjustments) if (a.effect === effect) sums.set(a.ruleId, (sums.get(a.ruleId) ?? 0) + a.minor);
  return [...sums].map(([ruleId, minor]) => ({ ruleId, minor }));
}

function percentOf(rule: string): { percent?: number } {
  // The domain states the rule as text ("percentage 9.50%"); a flat agreement has no rate.
  const pct = /([0-9]+(?:\.[0-9]+)?)%/.exec(rule)?.[1];
  return pct ? { percent: Number(pct) } : {};
}

function people(order: Order, docsByPax: Map<string, MaskedIdentityDoc[]>): { passengers: OrderPaxView[]; contacts: OrderContactView[] } {
  const contacts: OrderContactView[] = [];
  const passengers = order.passengers.map((p): OrderPaxView => {
    let contactInfoId: string | undefined;
    if (p.email || p.phone) {
      contactInfoId = `CI-${p.paxId}`;
      contacts.push({ contactInfoId, emails: p.email ? [p.email] : [], ...(p.phone ? { phones: [p.phone] } : {}) });
    }
    return {
      paxId: p.paxId,
      ptc: p.ptc,
      ...(p.birthdate ? { birthDate: p.birthdate } : {}),
      ...(p.gender ? { gender: p.gender } : {}),
      ...(p.title ? { title: p.title } : {}),
      givenNames: p.givenNames,
      surname: p.surname,
      ...(contactInfoId ? { contactInfoId } : {}),
      // The account number is shown masked like PAYSUM's member accounts: a reader of the order
      // can recognise it, a leaked response cannot be used to redeem points.
      ...(p.loyalty ? { loyalty: [{ programme: p.loyalty.programme, accountNumber: maskTail(p.loyalty.account) }] } : {}),
      identityDocs: docsByPax.get(p.paxId) ?? [],
    };
  });
  // The order's contact (partner products are delivered to it) when no passenger carries it.
  if (order.contactEmail && !order.passengers.some((p) => p.email === order.contactEmail)) {
    contacts.push({ contactInfoId: "CI-ORDER", emails: [order.contactEmail] });
  }
  return { passengers, contacts };
}

type ToMoney = (minor: number) => { minor: number; currency: string; decimals: number };

/**
 * The order's items with their services, each with its delivery state (@ndc/orders
 * deliveryStateOf, as of when the details were read): OrderViewRS and ServiceDeliveryRS show the
 * same items, services and ids.
 */
export function orderItemViews(details: OrderDetails, ownerCode: string): OrderItemView[] {
  const { order } = details;
  const decimals = minorUnits(order.currency as never);
  const m = (minor: number) => ({ minor, currency: order.currency, decimals });
  const flown = new Set(details.flown);
  const restrictions = restrictionsOf(details, m);
  return order.items.map((it) => withIncludedBaggage(details, itemView(details, it, m, flown, ownerCode, it.kind === "flight" ? restrictions : undefined)));
}

/**
 * The order's frozen conditions as a flight item's restrictions: the outbound direction's
 * (SHPOR1 rule 2: cancel refundability and the whole-order terms come from it), the change fee
 * and a refundable fare's cancellation fee being the band a change or cancellation made now falls
 * in (@ndc/orders fee bands, bare integers per passenger): the fee the cancel quote keeps and the
 * penalty OrderRulesRS marks APPLIES_NOW.
 */
function restrictionsOf(details: OrderDetails, m: ToMoney): Omit<RestrictionsView, "paxIds"> | undefined {
  const { conditions, basis } = details.servicing;
  const k = conditions.directions[0];
  if (!k) return undefined;
  const band = details.servicing.changeFeeBand;
  const currency = details.order.currency;
  const policy = basis === "current_policy" ? " (current policy: booked before conditions were frozen)" : "";
  const feeText = band ? ` Fee now ${band.fee} ${currency} per passenger (${band.id}); it changes with time to departure (OrderRulesRQ).` : " Changes closed: the outbound has departed.";
  const cancelText = !k.cancellable
    ? "Not cancellable."
    : !k.refundable
      ? "Cancellable without refund of the flights; extras are refunded."
      : band
        ? `Cancellable with a refund less a fee of ${band.fee} ${currency} per passenger now (${cancelPenaltyId(band)}); it changes with time to departure (OrderRulesRQ).`
        : "Cancellation closed: the outbound has departed.";
  return {
    cancel: {
      allowed: k.cancellable && band !== undefined,
      refundable: k.cancellable && k.refundable,
      ...(k.cancellable && k.refundable && band ? { fee: m(bandFeeMinor(band, currency)) } : {}),
      text: `${cancelText} ${k.brandCode} fare${policy}.`,
    },
    change: {
      allowed: k.changeable && band !== undefined,
      ...(k.changeable && band ? { fee: m(bandFeeMinor(band, currency)) } : {}),
      text: k.changeable ? `Flight changes allowed.${feeText}` : `Flight changes not allowed by the ${k.brandCode} fare${policy}.`,
    },
    name: { allowed: k.renameable, text: k.renameable ? "Name changes allowed." : "Name changes not allowed." },
  };
}

function itemView(details: OrderDetails, it: OrderItem, m: ToMoney, flown: ReadonlySet<string>, ownerCode: string, restrictions: Omit<RestrictionsView, "paxIds"> | undefined): OrderItemView {
  const { order } = details;
  const flight = it.kind === "flight";
  const adj = order.adjustments.filter((a) => a.offerId === it.offerId && a.offerItemId === it.offerItemId);
  const one = (effect: "discount" | "surcharge") => adj.filter((a) => a.effect === effect).map((a) => ({ ruleId: a.ruleId.slice(0, 15), name: a.ruleId, amount: m(a.minor) }));
  const discounts = one("discount");
  const surcharges = one("surcharge");
  const status = ITEM_STATUS[order.state];
  let taxes = (details.taxes[it.orderItemId] ?? []).map((t) => ({ code: t.code, name: t.name, amount: m(t.minor) }));
  // The price before taxes and adjustments: TotalAmount = BaseAmount + taxes - discounts + surcharges.
  const sum = (xs: { amount: { minor: number } }[]) => xs.reduce((n, x) => n + x.amount.minor, 0);
  let base = it.totalMinor - sum(taxes) + sum(discounts) - sum(surcharges);
  // Taxes that would leave a negative base were not part of this price: the split is not stated rather than wrong.
  if (base < 0) [taxes, base] = [[], it.totalMinor + sum(discounts) - sum(surcharges)];
  return {
    orderItemId: it.orderItemId,
    ownerCode: order.offers.find((o) => o.offerId === it.offerId)?.ownerCode ?? ownerCode,
    kind: it.kind === "bundle" ? "partner_product" : it.kind,
    statusCode: status,
    createdAt: iso(itemCreatedAt(order, it)),
    ...(restrictions ? { restrictions: { ...restrictions, paxIds: it.paxIds } } : {}),
    price: { base: m(base), taxes, total: m(it.totalMinor), ...(discounts.length ? { discounts } : {}), ...(surcharges.length ? { surcharges } : {}) },
    services: (flight ? flightServices(order, it, status) : extraServices(it, status)).map(({ flightKey, ...sv }) => {
      const d = deliveryStateOf(order, it, flightKey, flown);
      return { ...sv, deliveryStatusCode: d.code, deliveryText: d.text };
    }),
  };
}

/**
 * When an item joined the order: at booking, or at the post-sale change that added it (its
 * charge). A flight change's charge names the flight items it repriced; they were booked with
 * the order, so a flight item is always the order's own age.
 */
function itemCreatedAt(order: Order, it: OrderItem): number {
  if (it.kind === "flight") return order.createdAt;
  return order.charges?.find((c) => c.orderItemIds.includes(it.orderItemId))?.at ?? order.createdAt;
}

/** A service and the flight it is for (a flight item has one per flight), before its delivery state. */
type PlacedService = OrderServiceView & { flightKey?: string };

/** A flight item: one OrderedService per passenger and flight of every journey of the order. */
function flightServices(order: Order, it: OrderItem, status: string): PlacedService[] {
  const keys = serviceFlightKeys(order, it) as string[];
  return it.paxIds.flatMap((paxId) =>
    keys.map((key, i) => ({
      serviceId: `${it.orderItemId}-${paxId}-${i + 1}`,
      paxId,
      statusCode: status,
      flightKey: key,
      association: { kind: "segment" as const, paxSegmentId: shoppingIds.segment(key) },
    })),
  );
}

const SEAT_ID = /^([0-9]{1,3})([A-Z])$/;

function extraServices(it: OrderItem, status: string): PlacedService[] {
  const segment = it.flightKeys?.[0] ? shoppingIds.segment(it.flightKeys[0]) : undefined;
  const seat = it.kind === "seat" && it.ref ? SEAT_ID.exec(it.ref) : null;
  if (seat && segment) {
    // A seat item is offered to every seated passenger; one seat seats one, the first named.
    return [{ serviceId: `${it.orderItemId}-1`, paxId: it.paxIds[0]!, statusCode: status, description: `Seat ${it.ref}`, association: { kind: "seat", row: Number(seat[1]), column: seat[2]!, paxSegmentId: segment, serviceDefinitionId: SEAT_DEFINITION_ID } }];
  }
  const paxSegmentIds = segment ? { paxSegmentIds: [segment] } : {};
  return it.paxIds.flatMap((paxId, i) => [
    {
      serviceId: `${it.orderItemId}-${i + 1}`,
      paxId,
      statusCode: status,
      ...(it.qty && it.qty > 1 ? { description: `Quantity ${it.qty}` } : {}),
      association: { kind: "serviceDefinition" as const, serviceDefinitionId: serviceDefinitionIdOf(it), ...paxSegmentIds },
    },
    // A bundle's chosen options (SelectedBundleServices) are services of the same item, so the
    // seller reads back which meal it chose, not just that it bought the bundle.
    ...(it.bundleOptions ?? []).map((code, k) => ({
      serviceId: `${it.orderItemId}-${i + 1}-O${k + 1}`,
      paxId,
      statusCode: status,
      description: `Bundle option ${code}`,
      association: { kind: "serviceDefinition" as const, serviceDefinitionId: shoppingIds.serviceDefinition(code), ...paxSegmentIds },
    })),
  ]);
}

/**
 * The masked method of a ledger leg as PAYSUM shows it (spec 2.5); undefined for a card the PSP
 * never named (no brand or last four to show). OrderHistoryRS shows each change's legs with it.
 */
export function entryMethod(leg: PaymentLeg): PaymentEntryView["method"] | undefined {
  const s = paymentSummary(leg);
  switch (s.kind) {
    case "card":
      if (!/^[0-9a-zA-Z]{1,2}$/.test(s.brand) || !/^[0-9]{4}$/.test(s.lastFour)) return undefined;
      return { kind: "card", brand: s.brand, lastFour: s.lastFour, pspReference: s.pspReference };
    case "voucher":
      return { kind: "voucher", maskedVoucher: s.maskedVoucher };
    case "settlement":
      return { kind: "settlement", method: s.method, methodName: s.methodName };
    case "loyalty":
      return { kind: "loyalty", programme: OWN_PROGRAMME, points: s.points, maskedMemberAccount: s.maskedMemberAccount };
  }
}

/**
 * PAYSUM entries of one ledger leg: its payment (the captured amount once captured, else what
 * was authorised or asked) and, if any was paid back, a refund entry. A leg still in flight
 * is not listed: it has no outcome yet. A declined card the PSP never named carries no brand.
 */
/**
 * The value retained by an items cancellation with RespendInd (issue 20 item 6), as one more PAYSUM
 * entry a seller's parser finds beside the payments and refunds: PaymentStatusCode RETAINED, the
 * amount, the method of the leg its lapse refunds first (the newest with money left), the lapse in
 * the description. None when nothing is retained.
 */
function retainedEntry(order: Order, legs: readonly PaymentLeg[], decimals: number): PaymentEntryView[] {
  const kept = order.retained?.amountMinor ?? 0;
  const newest = [...legs].filter((l) => l.captured > l.refunded).sort((a, b) => b.seq - a.seq)[0];
  if (kept <= 0 || !newest) return [];
  const [shown] = paysum(newest, decimals);
  if (!shown) return [];
  return [{ ...shown, paymentId: `${newest.legId}-RV`, status: "RETAINED", direction: "retained", amount: { minor: kept, currency: order.currency, decimals }, at: iso(lastRetention(order)), until: iso(order.retained!.lapsesAt) }];
}

/** When the latest items cancellation with RespendInd retained its value. */
function lastRetention(order: Order): number {
  return (order.itemCancellations ?? []).filter((c) => (c.retainedMinor ?? 0) > 0).at(-1)?.at ?? order.updatedAt;
}

function paysum(leg: PaymentLeg, decimals: number): PaymentEntryView[] {
  if (leg.state === "authorising") return [];
  const method = entryMethod(leg);
  if (!method) return [];
  const money = (minor: number) => ({ minor, currency: leg.currency, decimals });
  const paid = leg.captured > 0 ? leg.captured : leg.authorised > 0 ? leg.authorised : leg.requested;
  const out: PaymentEntryView[] = [
    { paymentId: leg.legId, status: leg.state.toUpperCase(), amount: money(paid), direction: "payment", at: iso(leg.endedAt ?? leg.createdAt), method },
  ];
  if (leg.refunded > 0) out.push({ paymentId: `${leg.legId}-R`, status: "REFUNDED", amount: money(leg.refunded), direction: "refund", at: iso(leg.endedAt ?? leg.createdAt), method });
  return out;
}
