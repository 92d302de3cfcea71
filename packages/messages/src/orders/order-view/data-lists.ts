import type { OrderDetails } from "@ndc/orders";
import { priceClassView, shoppingIds, type Localiser } from "@ndc/shopping";
import { catalogueService, fareBrand, partnerProduct, secureFlightApplies, serviceBundle, type Flight } from "@ndc/supply";
import type { BaggageAllowanceView } from "../../shopping/shared/view/common";
import type { PriceClassView, SegmentView, ServiceDefinitionView } from "../../shopping/shared/view/data-lists";
import type { OrderDataListsView } from "../shared/view/order";
import type { OrderContactView, OrderPaxView } from "../shared/view/pax";
import { fareDefinitionId, SEAT_DEFINITION_ID, serviceDefinitionIdOf } from "./service-definition";

const SERVICE_NAMES: Record<string, string> = {
  service: "Airline service",
  ride: "Ground ride",
  partner_product: "Partner product",
  bundle: "Partner product bundle",
};

/**
 * DataLists of an OrderViewRS: the order's flights (as the domain read them from the supply
 * schedule, so a view shows what flies, not what the seller sent), its journeys, the
 * definitions every Service refers to (each fare brand flown, with its frozen allowance by
 * reference; the seat assignment; each extra), and the passengers and contacts already built by
 * orderViewOf.
 */
export function orderDataLists({ order, flights, servicing }: OrderDetails, ownerCode: string, passengers: OrderPaxView[], contacts: OrderContactView[], loc: Localiser): OrderDataListsView {
  const segments = flights.map((f) => segmentOf(f, loc));
  const definitions = new Map<string, ServiceDefinitionView>();
  // Each fare brand flown as a PriceClass, as AirShoppingRS named it (issue 20 item 9: OrderHistoryRS Old/New carry it with the order).
  const priceClasses = new Map<string, PriceClassView>();
  for (const d of servicing.conditions.directions) {
    const id = fareDefinitionId(d.brandCode);
    if (definitions.has(id)) continue;
    const allowances = (d.allowances ?? []).map(allowanceId);
    const brand = fareBrand(d.brandCode);
    if (brand) priceClasses.set(brand.code, priceClassView(brand, loc));
    definitions.set(id, {
      serviceDefinitionId: id,
      ownerCode,
      // The brand's name in the seller's language where translated (airline content, spec 4.8 rule 1).
      name: brand ? loc.text(brand.nameKey) : d.brandCode,
      descriptions: [`Flights in fare brand ${d.brandCode}${allowances.length ? ", with the baggage allowance frozen onto the order" : ""}.`],
      taxonomy: [],
      ...(allowances.length ? { association: { kind: "baggage" as const, baggageAllowanceIds: [...new Set(allowances)] } } : {}),
    });
  }
  // A journey whose conditions were not frozen still names its brand's definition.
  for (const j of order.journeys) {
    const id = fareDefinitionId(j.brandCode);
    if (!definitions.has(id)) definitions.set(id, { serviceDefinitionId: id, ownerCode, name: j.brandCode, descriptions: [`Flights in fare brand ${j.brandCode}.`], taxonomy: [] });
  }
  if (order.items.some((i) => i.kind === "seat")) {
    definitions.set(SEAT_DEFINITION_ID, { serviceDefinitionId: SEAT_DEFINITION_ID, ownerCode, name: "Seat assignment", descriptions: ["A seat on one flight for one passenger."], taxonomy: [] });
  }
  for (const it of order.items) {
    if (it.kind === "flight" || it.kind === "seat") continue;
    for (const code of it.bundleOptions ?? []) {
      const id = shoppingIds.serviceDefinition(code);
      if (!definitions.has(id)) definitions.set(id, { serviceDefinitionId: id, ownerCode: ownerCode, name: `Bundle option ${code}`, descriptions: [], taxonomy: [] });
    }
    const id = serviceDefinitionIdOf(it);
    if (!definitions.has(id)) {
      definitions.set(id, {
        serviceDefinitionId: id,
        ownerCode: ownerCode,
        // The catalogue's name in the seller's language where the item is a catalogue product; else composed English.
        name: catalogueName(it.kind, it.ref, loc) ?? `${SERVICE_NAMES[it.kind] ?? "Service"}${it.ref ? ` ${it.ref}` : ""}`,
        descriptions: [],
        taxonomy: [],
      });
    }
  }
  return {
    passengers,
    contacts,
    segments,
    journeys: order.journeys.map((j) => ({ paxJourneyId: j.paxJourneyId, paxSegmentIds: j.flightKeys.map(shoppingIds.segment) })),
    originDests: [],
    baggageAllowances: baggageAllowances(servicing.conditions.directions),
    serviceDefinitions: [...definitions.values()],
    seatProfiles: [],
    priceClasses: [...priceClasses.values()],
    media: [],
  };
}

/**
 * The allowances frozen onto the order (or, for an order booked before freezing, its brands'
 * current ones), once each: directions of the same brand share them. A zero-piece line ("no
 * checked bag") is stated too, so a seller does not read absence as unknown.
 */
function baggageAllowances(directions: OrderDetails["servicing"]["conditions"]["directions"]): BaggageAllowanceView[] {
  const out = new Map<string, BaggageAllowanceView>();
  for (const d of directions) {
    for (const a of d.allowances ?? []) {
      const id = allowanceId(a);
      if (!out.has(id)) out.set(id, { baggageAllowanceId: id, type: a.kind, pieces: a.pieces, ...(a.kgPerPiece > 0 ? { kgPerPiece: a.kgPerPiece } : {}) });
    }
  }
  return [...out.values()];
}

type Allowance = NonNullable<OrderDetails["servicing"]["conditions"]["directions"][number]["allowances"]>[number];

/** An allowance's BaggageAllowanceID (the list's, and the fare definitions' references to it). */
function allowanceId(a: Allowance): string {
  return `BAG-${a.kind === "Checked" ? "CHK" : "CAB"}-${a.pieces}X${a.kgPerPiece}-${a.paxTypes.join("")}`;
}

function duration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h ? `${h}H` : ""}${m || !h ? `${m}M` : ""}`;
}

/** Airline content: a catalogue service's, partner product's or bundle's name (spec 4.8 rule 1). */
function catalogueName(kind: string, ref: string | undefined, loc: Localiser): string | undefined {
  if (!ref) return undefined;
  const key = kind === "service" ? catalogueService(ref)?.nameKey : kind === "partner_product" ? partnerProduct(ref)?.nameKey : kind === "bundle" ? serviceBundle(ref)?.nameKey : undefined;
  return key ? loc.text(key) : undefined;
}

/** A flight as DataLists show it (PaxSegment and its dated segments and leg); also the new flights of a flight-change offer. */
export function segmentOf(f: Flight, loc: Localiser): SegmentView {
  const own = f.operating.carrier.code === f.marketing.carrier.code && f.operating.number === f.marketing.number;
  return {
    paxSegmentId: shoppingIds.segment(f.key),
    origin: f.origin,
    destination: f.destination,
    originName: loc.text(`station.${f.origin}`),
    destinationName: loc.text(`station.${f.destination}`),
    departure: `${f.departure.local}:00`.slice(0, 19),
    arrival: `${f.arrival.local}:00`.slice(0, 19),
    // Carrier and aircraft names are proper names: never translated (spec 4.8 rule 3).
    marketing: { code: f.marketing.carrier.code, name: f.marketing.carrier.name, flightNumber: String(f.marketing.number) },
    ...(own ? {} : { operating: { code: f.operating.carrier.code, name: f.operating.carrier.name, flightNumber: String(f.operating.number) } }),
    aircraft: { iataCode: f.aircraft.code, name: f.aircraft.name },
    duration: duration(f.durationMinutes),
    ...(secureFlightApplies(f.origin, f.destination) ? { secureFlight: true } : {}),
  };
}
