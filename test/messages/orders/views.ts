import { money, type OrderHistoryView, type OrderListView, type OrderView, type PriceView } from "@ndc/messages";
import { dataLists } from "../shopping/views";

const eur = (minor: number) => money(minor, "EUR", 2);

export const DOC_NUMBERS = ["PAE1234567", "CHD998877"];

function priced(base: number, extra: Partial<PriceView> = {}): PriceView {
  return { base: eur(base), taxes: [], total: eur(base), ...extra };
}

/** Two passengers with masked documents, seats, services, a ride, a partner product, four legs. */
export function richOrder(): OrderView {
  const shopping = dataLists();
  return {
    orderId: "ORD-1",
    ownerCode: "XB",
    statusCode: "BOOKED",
    versionNumber: 3,
    createdAt: "2027-02-01T09:30:00Z",
    lastModifiedAt: "2027-02-01T09:31:00Z",
    paymentTimeLimit: "2027-02-02T09:30:00Z",
    totalPrice: {
      base: eur(50000),
      taxes: [{ code: "GB", amount: eur(2600), name: "Air passenger duty" }],
      discounts: [{ ruleId: "PROMO-NDC10", name: "NDC launch", amount: eur(1200), percent: 10 }],
      surcharges: [{ ruleId: "SUR-PEAK", name: "Peak day", amount: eur(1500) }],
      total: eur(52900),
    },
    commissions: [{ amount: eur(2645), code: "AGR-1", percent: 5, base: eur(52900) }],
    items: [
      {
        orderItemId: "OI-FLT",
        ownerCode: "XB",
        kind: "flight",
        statusCode: "ACTIVE",
        price: priced(40000),
        services: [
          { serviceId: "SV-1", paxId: "PAX1", association: { kind: "segment", paxSegmentId: "S1" }, statusCode: "CONFIRMED" },
          { serviceId: "SV-2", paxId: "PAX2", association: { kind: "segment", paxSegmentId: "S1" } },
        ],
      },
      {
        orderItemId: "OI-SEAT",
        ownerCode: "XB",
        kind: "seat",
        price: priced(1800),
        services: [
          { serviceId: "SV-3", paxId: "PAX1", association: { kind: "seat", row: 12, column: "C", characteristics: ["A"], seatProfileId: "SP-XL", legIds: ["S1-LEG"], serviceDefinitionId: "SD-SEAT" } },
          { serviceId: "SV-4", paxId: "PAX2", association: { kind: "seat", row: 12, column: "D", paxSegmentId: "S1" } },
        ],
      },
      {
        orderItemId: "OI-LOUNGE",
        ownerCode: "XB",
        kind: "service",
        price: priced(2500),
        taxonomy: [{ code: "1B58", path: "Airport services > Lounge access" }],
        services: [{ serviceId: "SV-5", paxId: "PAX1", association: { kind: "serviceDefinition", serviceDefinitionId: "SD-LOUNGE", paxSegmentIds: ["S1"] }, taxonomy: [{ code: "1B58" }] }],
      },
      {
        orderItemId: "OI-RIDE",
        ownerCode: "XB",
        kind: "ride",
        price: priced(3500),
        taxonomy: [{ code: "6A01", path: "Ground transport > Airport transfer" }],
        services: [{ serviceId: "SV-6", paxId: "PAX1", description: "Airport transfer to the city centre", association: { kind: "serviceDefinition", serviceDefinitionId: "SD-RIDE" } }],
      },
      {
        orderItemId: "OI-TOUR",
        ownerCode: "XB",
        kind: "partner_product",
        price: priced(4500),
        taxonomy: [{ code: "7C10", path: "Destination > Tours" }],
        services: [{ serviceId: "SV-7", paxId: "PAX1", deliveryStatusCode: "READY_TO_PROCEED", association: { kind: "serviceDefinition", serviceDefinitionId: "SD-TOUR-AM" } }],
      },
    ],
    dataLists: {
      ...shopping,
      serviceDefinitions: [
        ...shopping.serviceDefinitions,
        { serviceDefinitionId: "SD-RIDE", ownerCode: "XB", name: "Airport transfer", descriptions: [], taxonomy: [{ code: "6A01", path: "Ground transport > Airport transfer" }] },
      ],
      passengers: [
        {
          paxId: "PAX1",
          ptc: "ADT",
          birthDate: "1985-04-12",
          citizenship: "ES",
          title: "MS",
          givenNames: ["Ana"],
          middleNames: ["Luisa"],
          surname: "GARCIA",
          contactInfoId: "CI1",
          loyalty: [{ programme: "XB", accountNumber: "XB1000000001", tierCode: "GOLD" }],
          identityDocs: [{ type: "P", typeName: "Passport", citizenship: "ES", issuingCountry: "ES", expiry: "2031-05-01", holderSurname: "GARCIA" }],
        },
        { paxId: "PAX2", ptc: "CHD", givenNames: ["Leo"], surname: "GARCIA", identityDocs: [{ type: "I", typeName: "Identity card", holderSurname: "GARCIA" }] },
      ],
      contacts: [{ contactInfoId: "CI1", emails: ["ana.garcia@example.test"], phones: ["+34 600111222"] }],
    },
    payments: [
      { paymentId: "LEG-1", status: "captured", direction: "payment", amount: eur(20050), at: "2027-02-01T09:31:00Z", method: { kind: "card", brand: "VI", lastFour: "4242", pspReference: "psp_ref_001" } },
      { paymentId: "LEG-2", status: "captured", direction: "payment", amount: eur(2500), orderItemIds: ["OI-LOUNGE"], method: { kind: "voucher", maskedVoucher: "****************0025" } },
      { paymentId: "LEG-3", status: "captured", direction: "payment", amount: eur(26345), method: { kind: "settlement", method: "CA", methodName: "BSP cash" } },
      { paymentId: "LEG-4", status: "captured", direction: "payment", amount: eur(4005), method: { kind: "loyalty", programme: "XB", points: 4005, maskedMemberAccount: "********0001" } },
      { paymentId: "LEG-1-R1", status: "refunded", direction: "refund", amount: eur(1000), method: { kind: "card", brand: "VI", lastFour: "4242", pspReference: "psp_ref_002" } },
    ],
    processing: { currency: { code: "EUR", decimals: 2 }, contentLanguages: ["en"] },
    warnings: [{ code: "identity_document_not_shown", detail: "One document of PAX2 is not shown." }],
  };
}

/** The least an order view can hold: one item with one service, no passengers' extras, no payment. */
export function minimalOrder(): OrderView {
  return {
    orderId: "ORD-2",
    ownerCode: "XB",
    statusCode: "ORDWPM",
    versionNumber: 1,
    commissions: [],
    items: [{ orderItemId: "OI-1", ownerCode: "XB", kind: "flight", services: [{ serviceId: "SV-1", paxId: "PAX1", association: { kind: "segment", paxSegmentId: "S1" } }] }],
    dataLists: {
      passengers: [],
      contacts: [],
      segments: [],
      journeys: [],
      originDests: [],
      baggageAllowances: [],
      serviceDefinitions: [],
      seatProfiles: [],
      priceClasses: [],
      media: [],
    },
    payments: [],
    warnings: [],
  };
}

export function orderList(): OrderListView {
  return {
    orders: [
      { orderId: "ORD-1", statusCode: "BOOKED", createdAt: "2027-02-01T09:30:00Z", departure: { station: "LHR", date: "2027-03-14" }, arrival: { station: "VIE", date: "2027-03-14" } },
      { orderId: "ORD-2", statusCode: "ORDWPM" },
    ],
    page: { size: 2, next: "CURSOR-2" },
    warnings: [],
  };
}

export function orderHistory(): OrderHistoryView {
  return {
    orderId: "ORD-1",
    versions: [
      { versionNumber: 1, changes: [{ at: "2027-02-01T09:30:00Z", typeCode: "ORDER_CREATED", reasonCode: "SELLER_REQUEST", new: { statusCode: "ORDWPM", totalPrice: eur(52900), items: [{ orderItemId: "OI-FLT", statusCode: "ACTIVE", description: "LHR-FRA XB101 for 2 passengers" }] } }] },
      {
        versionNumber: 2,
        changes: [
          { at: "2027-02-01T10:00:00Z", typeCode: "PAYMENT_CAPTURED", reasonCode: "SELLER_REQUEST", old: { statusCode: "ORDWPM" }, new: { statusCode: "BOOKED" } },
          { at: "2027-02-01T10:00:01Z", typeCode: "ITEM_ADDED", reasonCode: "SELLER_REQUEST", new: { items: [{ orderItemId: "OI-SEAT", description: "Seat 12C for PAX1" }] } },
        ],
      },
    ],
  };
}
