/**
 * Capability codes of spec 1 and whether this build switches them on. The discovery document
 * publishes the codes switched on; each business issue turns its codes on as it lands.
 */
export const CAPABILITIES: Readonly<Record<string, { description: string; enabled: boolean }>> = {
  SHPFLT: { description: "flight shopping", enabled: true },
  SHPITL: { description: "flights of other airlines", enabled: true },
  SHPANC: { description: "ancillaries", enabled: true },
  SHPAN2: { description: "airline ancillaries", enabled: true },
  SHPAN3: { description: "partner ancillaries", enabled: true },
  SHPMOD: { description: "ground rides", enabled: true },
  SHPSRV: { description: "airline taxonomy", enabled: true },
  SHPSTO: { description: "seats", enabled: true },
  SHPLOC: { description: "localisation", enabled: true },
  SHPBND: { description: "bundled offers", enabled: true },
  SHPREV: { description: "price adjustments", enabled: true },
  SHPDSC: { description: "discounts", enabled: true },
  SHPRMD: { description: "rich media", enabled: true },
  SHPOR1: { description: "offer conditions", enabled: true },
  ORDWPM: { description: "order without payment", enabled: true },
  ORDCRE: { description: "order with instant payment", enabled: true },
  ORDRE2: { description: "adding extras and seats to a booked order", enabled: false },
  PAYSET: { description: "settlement platform", enabled: true },
  PAYMIX: { description: "mixed payment", enabled: true },
  PAYSUM: { description: "payment summary", enabled: true },
  PAYCOM: { description: "commission disclosure", enabled: true },
  PAYCPC: { description: "customer card", enabled: true },
  PAYVCH: { description: "vouchers", enabled: true },
  PAY3D2: { description: "seller authenticates payer", enabled: false },
  PAYRCV: { description: "payment recovery", enabled: true },
  STTCAP: { description: "clearance capture", enabled: false },
  STTCAN: { description: "clearance cancellation", enabled: false },
  ORDDEL: { description: "fulfilment notification", enabled: false },
  ORDST2: { description: "fulfilment notification", enabled: false },
  ACCREP: { description: "sales reporting", enabled: false },
  ACCRE2: { description: "sales reporting", enabled: false },
  ACCSTS: { description: "status change for revenue recognition", enabled: false },
  ORDOCN: { description: "airline-initiated change notification", enabled: false },
  ORDOC2: { description: "airline-initiated change notification", enabled: false },
  STPNTF: { description: "notification setup", enabled: false },
};

export function enabledCapabilities(): string[] {
  return Object.entries(CAPABILITIES)
    .filter(([, c]) => c.enabled)
    .map(([code]) => code);
}
