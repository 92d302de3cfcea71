/**
 * Capability codes of spec 1 and what each one needs before it may be advertised. A code is
 * published in the discovery document only when every message it needs has a live handler on
 * this gateway and no rule behind it is still unfinished; nothing here is switched on by hand,
 * so the advertised list cannot drift from the handler registry.
 */
export interface Capability {
  description: string;
  /** Messages whose handlers must all be live (apps/gateway/src/handlers.ts). */
  messages: readonly string[];
  /** Rules behind the code that no handler implements yet; any entry withholds the code. */
  unfinished?: readonly string[];
}

const SHOP = ["AirShoppingRQ", "OfferPriceRQ"] as const;
const BOOK = ["OrderCreateRQ", "OrderRetrieveRQ"] as const;

export const CAPABILITIES: Readonly<Record<string, Capability>> = {
  SHPFLT: { description: "flight shopping", messages: SHOP },
  SHPITL: { description: "flights of other airlines", messages: SHOP },
  SHPANC: { description: "ancillaries", messages: [...SHOP, "ServiceListRQ"] },
  SHPAN2: { description: "airline ancillaries", messages: [...SHOP, "ServiceListRQ"] },
  SHPAN3: { description: "partner ancillaries", messages: [...SHOP, "ServiceListRQ"] },
  SHPMOD: { description: "ground rides", messages: SHOP },
  SHPSRV: { description: "airline taxonomy", messages: [...SHOP, "ServiceListRQ"] },
  SHPSTO: { description: "seats", messages: [...SHOP, "SeatAvailabilityRQ"] },
  SHPLOC: {
    description: "localisation",
    // Spec 4.8 rule 1 names six responses; all must answer in the requested language.
    // OrderViewRS answers OrderCreateRQ, OrderChangeRQ and OrderRetrieveRQ; OrderReshopRS answers OrderReshopRQ and OrderQuoteRQ.
    messages: [...SHOP, "ServiceListRQ", "SeatAvailabilityRQ", "OrderCreateRQ", "OrderChangeRQ", "OrderRetrieveRQ", "OrderReshopRQ", "OrderQuoteRQ"],
  },
  SHPBND: { description: "bundled offers", messages: SHOP },
  SHPREV: { description: "price adjustments", messages: [...SHOP, ...BOOK] },
  SHPDSC: { description: "discounts", messages: SHOP },
  SHPRMD: { description: "rich media", messages: SHOP },
  SHPOR1: {
    description: "offer conditions",
    messages: [...SHOP, "OrderRulesRQ", "OrderReshopRQ", "OrderQuoteRQ", "OrderChangeRQ"],
    // Every rule built (docs/servicing.md "SHPOR1, rule by rule"): 1 frozen conditions with the current-policy warning on every quote; 2 per direction, whole-order terms from the outbound; 3 fare_not_changeable; 4 the staff override on renames, flight changes and cancellations (on the quote, the change and the audit trail), Flexibility spent only when asked; 5 the fee bands; 6 commission on post-sale charges.
  },
  ORDWPM: { description: "order without payment", messages: BOOK },
  ORDCRE: { description: "order with instant payment", messages: BOOK },
  ORDRE2: {
    description: "adding extras and seats to a booked order",
    messages: [...BOOK, "OrderReshopRQ", "OrderQuoteRQ", "OrderChangeRQ"],
  },
  PAYSET: { description: "settlement platform", messages: BOOK },
  PAYMIX: { description: "mixed payment", messages: BOOK },
  PAYSUM: { description: "payment summary", messages: BOOK },
  PAYCOM: { description: "commission disclosure", messages: BOOK },
  PAYCPC: { description: "customer card", messages: BOOK },
  PAYVCH: { description: "vouchers", messages: BOOK },
  // Built: PaymentCard/SecurePaymentVersion2 read on OrderCreateRQ and OrderChangeRQ, judged by the PSP, kept with the leg (test/orders-http/payer-authentication.test.ts).
  PAY3D2: { description: "seller authenticates payer", messages: BOOK },
  PAYRCV: { description: "payment recovery", messages: [...BOOK, "OrderChangeRQ"] },
  STTCAP: { description: "clearance capture", messages: ["PaymentClearanceRQ"] },
  STTCAN: { description: "clearance cancellation", messages: ["PaymentClearanceRQ"] },
  // Built: service.delivered for a free seat flown and a partner product or ride read back (test/notifications/operations.test.ts).
  ORDDEL: { description: "fulfilment notification", messages: ["ServiceDeliveryRQ"] },
  ORDST2: { description: "fulfilment notification", messages: ["ServiceDeliveryRQ"] },
  // accounting.sales_info: every sale, change, refund and void of every order, web shop included (docs/notifications.md); no orders, nothing to report.
  ACCREP: { description: "sales reporting", messages: BOOK },
  ACCRE2: { description: "sales reporting", messages: BOOK },
  // accounting.service_status: services flown, delivered by their partner, refunded, forfeited or exchanged (docs/notifications.md, test/notifications/service-status.test.ts).
  ACCSTS: { description: "status change for revenue recognition", messages: BOOK },
  // Built: order.changed from the operations feed, the sandbox's schedule-change (test/notifications/operations*.test.ts)
  // and the airline's staff (test/staff/servicing-notifications.test.ts), with the changed order as OrderViewRS shows it.
  ORDOCN: { description: "airline-initiated change notification", messages: ["OrderRetrieveRQ"] },
  ORDOC2: { description: "airline-initiated change notification", messages: ["OrderRetrieveRQ"] },
  // The subscription endpoints (docs/notifications.md "Subscriptions"); every event they offer is about orders, so it needs them booked.
  STPNTF: { description: "notification setup", messages: BOOK },
};

/** The codes whose every message is live (by `isLive`, the handler registry) and whose rules are all done. */
export function liveCapabilities(isLive: (message: string) => boolean): string[] {
  return Object.entries(CAPABILITIES)
    .filter(([, c]) => c.messages.every(isLive) && (c.unfinished?.length ?? 0) === 0)
    .map(([code]) => code);
}
