import {
  emptyDataLists,
  money,
  type ALaCarteOfferView,
  type DataListsView,
  type OfferView,
  type PriceView,
  type SeatMapView,
} from "@ndc/messages";

/** Rich view models for the encoder tests: 3 passengers, a return trip with a connection, brands, services. */
const eur = (minor: number) => money(minor, "EUR", 2);

export function price(base: number, taxes: [string, number][], extra: Partial<PriceView> = {}): PriceView {
  const taxTotal = taxes.reduce((s, [, a]) => s + a, 0);
  const disc = (extra.discounts ?? []).reduce((s, d) => s + d.amount.minor, 0);
  const sur = (extra.surcharges ?? []).reduce((s, d) => s + d.amount.minor, 0);
  return {
    base: eur(base),
    taxes: taxes.map(([code, a]) => ({ code, amount: eur(a), name: `${code} tax` })),
    ...extra,
    total: eur(base + taxTotal - disc + sur),
  };
}

export function dataLists(): DataListsView {
  return {
    ...emptyDataLists(),
    passengers: [
      { paxId: "PAX1", ptc: "ADT" },
      { paxId: "PAX2", ptc: "ADT" },
      { paxId: "PAX3", ptc: "CHD" },
    ],
    segments: [
      { paxSegmentId: "S1", origin: "LHR", destination: "FRA", originName: "Londres Heathrow", departure: "2027-03-14T08:30:00", arrival: "2027-03-14T11:05:00", marketing: { code: "XB", name: "Example Air", flightNumber: "101" }, aircraft: { iataCode: "32N", name: "Airbus A320neo 'Sky'" }, cabin: { code: "M", name: "Economía" }, rbd: "Y", duration: "PT1H35M" },
      { paxSegmentId: "S2", origin: "FRA", destination: "VIE", departure: "2027-03-14T12:30:00", arrival: "2027-03-14T13:50:00", marketing: { code: "XB", flightNumber: "7201" }, operating: { code: "ZZ", name: "Partner Regional & Co", flightNumber: "88" }, cabin: { code: "M" } },
      { paxSegmentId: "S3", origin: "VIE", destination: "LHR", departure: "2027-03-21T18:00:00", arrival: "2027-03-21T19:40:00", marketing: { code: "XB", flightNumber: "102" } },
    ],
    journeys: [
      { paxJourneyId: "J1", paxSegmentIds: ["S1", "S2"], duration: "PT4H20M" },
      { paxJourneyId: "J2", paxSegmentIds: ["S3"] },
    ],
    originDests: [
      { originDestId: "OD1", origin: "LHR", destination: "VIE", paxJourneyIds: ["J1"] },
      { originDestId: "OD2", origin: "VIE", destination: "LHR", paxJourneyIds: ["J2"] },
    ],
    baggageAllowances: [
      { baggageAllowanceId: "BA-C2", type: "Checked", pieces: 2, kgPerPiece: 23, rfisc: "0GO", taxonomy: { code: "3B0A", path: "Baggage > Checked" } },
      { baggageAllowanceId: "BA-H1", type: "CarryOn", pieces: 1, kgPerPiece: 8 },
    ],
    priceClasses: [
      { priceClassId: "PC-LIGHT", name: "Ligera", code: "LIGHT", descriptions: ["Solo equipaje de mano"], cabin: { code: "M", name: "Economía" }, displayOrder: 1 },
      { priceClassId: "PC-FLEX", name: "Flex", descriptions: ["Cambios gratis", "Reembolsable"], fareBasisCode: "YFLEX", mediaIds: ["M-FLEX"] },
    ],
    seatProfiles: [{ seatProfileId: "SP-XL", characteristics: ["L", "W"], descriptions: ["Extra legroom"], pitchInches: 34, mediaIds: ["M-SEAT"] }],
    serviceDefinitions: [
      { serviceDefinitionId: "SD-BAG", ownerCode: "XB", name: "Extra bag 23 kg", descriptions: ["One more checked bag"], rfic: "C", rfisc: "0CC", taxonomy: [{ code: "3B0A", path: "Baggage > Checked" }], association: { kind: "baggage", baggageAllowanceIds: ["BA-C2"] } },
      { serviceDefinitionId: "SD-LOUNGE", ownerCode: "XB", name: "Lounge access", descriptions: [], rfic: "E", rfisc: "0BX", taxonomy: [{ code: "1B58", path: "Airport services > Lounge access" }], mediaIds: ["M-LOUNGE"] },
      { serviceDefinitionId: "SD-SEAT", ownerCode: "XB", name: "Seat", descriptions: [], rfic: "A", rfisc: "0B5", taxonomy: [], association: { kind: "seatProfiles", seatProfileIds: ["SP-XL"] } },
      { serviceDefinitionId: "SD-TOUR", ownerCode: "XB", name: "City tour", descriptions: ["Choose your options"], taxonomy: [], association: { kind: "bundle", serviceDefinitionIds: ["SD-TOUR-AM", "SD-TOUR-PM"], maxQty: 1 } },
      { serviceDefinitionId: "SD-TOUR-AM", ownerCode: "XB", name: "Morning tour", descriptions: [], taxonomy: [] },
      { serviceDefinitionId: "SD-TOUR-PM", ownerCode: "XB", name: "Afternoon tour", descriptions: [], taxonomy: [] },
    ],
    media: [
      { mediaId: "M-FLEX", uri: "https://media.example.test/flex.jpg", contentType: "image/jpeg", caption: "Tarifa Flex" },
      { mediaId: "M-SEAT", uri: "https://media.example.test/xl.jpg", caption: "Asiento XL" },
      { mediaId: "M-LOUNGE", uri: "https://media.example.test/lounge.jpg", caption: "Sala VIP" },
    ],
  };
}

const PAX = ["PAX1", "PAX2", "PAX3"];

function flightOffer(id: string, brand: string, opts: { baggage: boolean; adjusted: boolean }): OfferView {
  const adult = price(12000, [["GB", 2600], ["YQ", 1500]], opts.adjusted ? { discounts: [{ ruleId: "PROMO-NDC10", name: "Descuento NDC", amount: eur(1200), percent: 10 }] } : {});
  const child = price(9000, [["GB", 1300]], opts.adjusted ? { surcharges: [{ ruleId: "SUR-PEAK", name: "Temporada alta", amount: eur(500) }] } : {});
  const item = (itemId: string, pax: string[], p: PriceView) => ({
    offerItemId: itemId,
    ownerCode: "XB",
    price: p,
    fare: {
      paxIds: pax,
      components: [
        { paxSegmentIds: ["S1", "S2"], priceClassId: brand, fareBasisCode: "YLIGHT", cabin: { code: "M", name: "Economía" } },
        { paxSegmentIds: ["S3"], priceClassId: brand },
      ],
    },
    conditions: brand === "PC-FLEX"
      ? { changeable: true, refundable: true, cancellable: true, renameable: false, changeFee: eur(0) }
      : { changeable: false, refundable: false, cancellable: true, renameable: false, cancelFee: eur(5000) },
    services: pax.flatMap((p) => [
      { serviceId: `${itemId}-${p}-J1`, paxIds: [p], association: { kind: "journeys" as const, paxJourneyIds: ["J1"] } },
      { serviceId: `${itemId}-${p}-J2`, paxIds: [p], association: { kind: "journeys" as const, paxJourneyIds: ["J2"] } },
    ]),
    priceGuaranteeUntil: "2027-03-01T12:00:00Z",
  });
  return {
    offerId: id,
    ownerCode: "XB",
    expiresAt: "2027-03-01T12:30:00Z",
    journeys: [
      { paxJourneyId: "J1", priceClassId: brand },
      { paxJourneyId: "J2", priceClassId: brand },
    ],
    baggage: opts.baggage ? [{ baggageAllowanceIds: ["BA-C2", "BA-H1"], paxIds: PAX, paxJourneyIds: ["J1", "J2"] }] : [],
    items: [item(`${id}-ADT`, ["PAX1", "PAX2"], adult), item(`${id}-CHD`, ["PAX3"], child)],
    totalPrice: price(33000, [["GB", 6500], ["YQ", 3000]], opts.adjusted ? { discounts: [{ ruleId: "PROMO-NDC10", name: "Descuento NDC", amount: eur(2400) }], surcharges: [{ ruleId: "SUR-PEAK", name: "Temporada alta", amount: eur(500) }] } : {}),
    mediaIds: brand === "PC-FLEX" ? ["M-FLEX"] : undefined,
  };
}

/** Two offers: Flex with baggage and adjustments, Light (a brand with no allowance: states nothing). */
export function offers(): OfferView[] {
  return [flightOffer("OF-1", "PC-FLEX", { baggage: true, adjusted: true }), flightOffer("OF-2", "PC-LIGHT", { baggage: false, adjusted: false })];
}

export function servicesOffer(id = "ALC-1"): ALaCarteOfferView {
  return {
    offerId: id,
    ownerCode: "XB",
    expiresAt: "2027-03-01T12:30:00Z",
    description: "Services for offer OF-1.",
    items: [
      { offerItemId: `${id}-BAG`, serviceId: `${id}-SV-BAG`, serviceDefinitionId: "SD-BAG", paxIds: PAX, flights: { kind: "paxJourneys", ids: ["J1"] }, unitPrice: price(3000, [], {}), taxonomy: [{ code: "3B0A", path: "Baggage > Checked" }] },
      { offerItemId: `${id}-LOUNGE`, serviceId: `${id}-SV-LOUNGE`, serviceDefinitionId: "SD-LOUNGE", paxIds: ["PAX1", "PAX2"], flights: { kind: "paxSegments", ids: ["S1"] }, priceClassIds: ["PC-FLEX"], unitPrice: price(2500, [["VAT", 500]], { discounts: [{ ruleId: "PROMO-LNG", name: "Lounge promo", amount: eur(500) }] }), taxonomy: [{ code: "1B58", path: "Airport services > Lounge access" }], mediaIds: ["M-LOUNGE"] },
      { offerItemId: `${id}-TOUR`, serviceId: `${id}-SV-TOUR`, serviceDefinitionId: "SD-TOUR", paxIds: ["PAX1"], unitPrice: price(4500, []) },
    ],
  };
}

/** Seat offer: 12A priced, 12C sold for nothing (zero unit price), 14A occupied, 14C blocked. */
export function seatOffer(): ALaCarteOfferView {
  return {
    offerId: "SEAT-1",
    ownerCode: "XB",
    items: [
      { offerItemId: "SEAT-XL", serviceId: "SV-SEAT-XL", serviceDefinitionId: "SD-SEAT", paxIds: ["PAX1", "PAX2"], flights: { kind: "paxSegments", ids: ["S1"] }, unitPrice: price(1800, [["VAT", 360]]) },
      { offerItemId: "SEAT-FREE", serviceId: "SV-SEAT-FREE", serviceDefinitionId: "SD-SEAT", paxIds: PAX, flights: { kind: "paxSegments", ids: ["S1"] }, unitPrice: price(0, []) },
    ],
  };
}

export function seatMap(): SeatMapView {
  return {
    paxSegmentId: "S1",
    datedOperatingLegIds: ["S1-LEG"],
    cabins: [
      {
        cabinTypeCode: "M",
        cabinName: "Economía",
        deck: "Main",
        firstRow: 12,
        lastRow: 14,
        columns: [{ id: "A", characteristics: ["W"] }, { id: "C", characteristics: ["A"] }],
        rows: [
          { number: 12, characteristics: ["E"], seats: [
            { column: "A", availability: "Available", characteristics: ["W", "L"], seatProfileId: "SP-XL", offerItemIds: ["SEAT-XL"] },
            { column: "C", availability: "Available", characteristics: ["A"], offerItemIds: ["SEAT-FREE"] },
          ] },
          { number: 13, characteristics: [], seats: [] },
          { number: 14, characteristics: [], seats: [
            { column: "A", availability: "Occupied", characteristics: ["W"], offerItemIds: [] },
            { column: "C", availability: "Blocked", characteristics: ["A"], offerItemIds: [] },
          ] },
        ],
      },
    ],
  };
}
