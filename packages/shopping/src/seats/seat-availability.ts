import type { Clock } from "@ndc/clock";
import { SEAT_TERMS } from "../views/extra-terms";
import { GatewayError } from "@ndc/errors";
import { emptyDataLists, type PaxView, type SeatAvailabilityRequest, type SeatAvailabilityView, type SeatMapView, type SegmentView, type ServiceDefinitionView, type WarningView } from "../model";
import { stableId, type Flight, type Seat, type Supply } from "@ndc/supply";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import type { Localiser } from "../localisation";
import type { OfferOwner, OfferRepository } from "../offers/repository";
import type { ALaCartePayload } from "../offers/payload";
import { responseCurrency, viewMoney } from "../services/currency";
import { loadFlightOffer } from "../services/flight-offer";
import { cabinTypeCode, offerFlightLists, segmentView } from "../services/flight-lists";
import { aLaCarteOfferId } from "../services/ids";
import type { StoredServiceItem } from "../services/service-list";
import { localiserFor } from "../services/request-language";
import { bookedOrderContext, type BookedOrderLookup } from "../services/booked-order";
import { requestedFlights } from "./requested-flights";
import { SeatProfiles, seatMapView, type OwnSeat, type SeatForSale } from "./seat-map-view";

const SEAT_DEFINITION = "SD-SEAT";
const ORDER_ELEMENT = "Request/SeatAvailCoreRequest/OrderRequest/Order";

interface Target {
  paxSegmentId: string;
  flight: Flight;
  /** The cabin booked: seats of other cabins are not sold with this fare. Undefined: any cabin. */
  cabinCode?: string;
}

/**
 * SeatAvailabilityRQ (spec 4.6): the seat map of every flight of an offer (or of flights named
 * by PaxSegmentRequest) with per-seat availability and price. For an offer, the seats for sale
 * are an a-la-carte offer tied to the flight offer, stored so OfferPrice and OrderCreate sell
 * them with the flight (rule 1). Passengers are PaxID and PTC only: an IdentityDoc is never
 * read (rule 2), so it cannot reach the store, the response or a log line.
 */
/** Seats taken through the gateway's own channels (NDC, the web shop): the seat-inventory actors. */
export interface LiveSeatInventory {
  /** Seat ids held or sold on the flight. */
  takenSeats(flightKey: string): Promise<ReadonlySet<string>>;
}

export class SeatAvailability {
  constructor(private readonly deps: { supply: Supply; offers: OfferRepository; clock: Clock; inventory?: LiveSeatInventory; orders?: BookedOrderLookup; offerTtlMinutes?: number }) {}

  async seatMaps(request: SeatAvailabilityRequest, owner: OfferOwner): Promise<SeatAvailabilityView> {
    const { target } = request;
    const lang = localiserFor(request.preferences);
    const designator = this.deps.supply.carrier.code;

    let targets: Target[];
    let pax: PaxView[];
    let segments: SegmentView[];
    let journeys = emptyDataLists().journeys;
    let currency: CurrencyCode;
    let flightOffer: { offerId: string; expiresAt: number } | undefined;
    // A booked order's own seats, by flight key and seat id (the booked-order form only).
    let ownSeats = new Map<string, OwnSeat>();
    let bookedOrderId: string | undefined;
    if (target.form === "order") {
      // Ownership is the order domain's: another seller's order is order_not_found, like a missing one.
      const { context, order } = await bookedOrderContext(this.deps.orders, this.deps.supply, target.order, owner, this.deps.clock.now(), `${ORDER_ELEMENT}/OrderID`);
      bookedOrderId = order.orderId;
      currency = responseCurrency(request.preferences.currency, order.currency);
      ({ passengers: pax, segments, journeys } = offerFlightLists(context, lang));
      targets = context.segments.map((s) => ({ paxSegmentId: s.paxSegmentId, flight: s.flight, cabinCode: s.journey.cabin }));
      ownSeats = new Map((order.seats ?? []).map((o) => [`${o.flightKey}/${o.seatId}`, { orderItemId: o.orderItemId, paxIds: o.paxIds }]));
      // OrderItem/PaxSegmentRefID narrows the maps to those flights of the order.
      const wanted = new Set(target.order.items.flatMap((i) => i.paxSegmentIds));
      if (wanted.size > 0) {
        const unknown = [...wanted].find((id) => !targets.some((t) => t.paxSegmentId === id));
        if (unknown) throw new GatewayError("request_invalid", { detail: `PaxSegmentRefID ${unknown.slice(0, 64)} is not a flight of the order.`, element: `${ORDER_ELEMENT}/OrderItem/PaxSegmentRefID` });
        targets = targets.filter((t) => wanted.has(t.paxSegmentId));
        segments = segments.filter((s) => wanted.has(s.paxSegmentId));
      }
    } else if (target.form === "offer") {
      const { context, ref } = await loadFlightOffer(this.deps.offers, this.deps.supply, target.offers, owner, "Request/SeatAvailCoreRequest/OfferRequest");
      flightOffer = context.offer;
      currency = responseCurrency(request.preferences.currency, context.offer.payload.currency);
      const lists = offerFlightLists(context, lang);
      ({ passengers: pax, segments, journeys } = lists);
      targets = context.segments.map((s) => ({ paxSegmentId: s.paxSegmentId, flight: s.flight, cabinCode: s.journey.cabin }));
      // OfferItem/PaxSegmentRefID narrows the maps to those flights of the offer.
      const wanted = new Set(ref.items.flatMap((i) => i.paxSegmentIds));
      if (wanted.size > 0) {
        const unknown = [...wanted].find((id) => !targets.some((t) => t.paxSegmentId === id));
        if (unknown) throw new GatewayError("request_invalid", { detail: `PaxSegmentRefID ${unknown.slice(0, 64)} is not a flight of the offer.`, element: "Request/SeatAvailCoreRequest/OfferRequest/Offer/OfferItem/PaxSegmentRefID" });
        targets = targets.filter((t) => wanted.has(t.paxSegmentId));
        segments = segments.filter((s) => wanted.has(s.paxSegmentId));
      }
    } else {
      targets = requestedFlights(this.deps.supply, target.segments);
      currency = responseCurrency(request.preferences.currency, "EUR");
      pax = request.passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc }));
      segments = targets.map((t) => segmentView(t.paxSegmentId, t.flight, t.cabinCode, lang));
    }

    // A lap infant has no seat of its own, so it is never eligible for one.
    const seated = pax.filter((p) => p.ptc !== "INF").map((p) => p.paxId);
    const profiles = new SeatProfiles(lang);
    const forSale: (SeatForSale & { target: Target })[] = [];
    // The supply's map knows what other channels sold; the inventory actors know what we sold.
    const taken = await Promise.all(targets.map((t) => this.deps.inventory?.takenSeats(t.flight.key) ?? new Set<string>()));
    const maps: SeatMapView[] = targets.map((t, i) => {
      const map = withTaken(this.deps.supply.seatMap(t.flight.key, currency)!, taken[i]!);
      const booked = t.cabinCode ? cabinTypeCode(t.cabinCode) : undefined;
      const sellable = (s: Seat) => {
        if (booked && cabinTypeCode(s.cabin) !== booked) return undefined;
        return map.seatItemIds[s.id];
      };
      const sold: SeatForSale[] = [];
      const own = (seat: Seat) => ownSeats.get(`${t.flight.key}/${seat.id}`);
      const view = seatMapView(map, t.paxSegmentId, `${t.paxSegmentId}-LEG`, profiles, lang, sellable, sold, own);
      forSale.push(...sold.map((s) => ({ ...s, target: t })));
      return view;
    });

    // A booked order's seats are sold with the order (ORDRE2: OrderChangeRQ buys one by this
    // offer), for the offer lifetime ServiceList gives a booked order's extras.
    const sellsWith = flightOffer ?? (bookedOrderId ? { offerId: bookedOrderId, expiresAt: this.deps.clock.now() + (this.deps.offerTtlMinutes ?? 30) * 60_000 } : undefined);
    const offerId = flightOffer
      ? aLaCarteOfferId(this.deps.supply.seed, flightOffer.offerId, "seats", currency)
      : bookedOrderId
        ? aLaCarteOfferId(this.deps.supply.seed, `order:${bookedOrderId}`, "seats", currency)
        : stableId("ALC", this.deps.supply.seed, "seat_availability", currency, ...targets.map((t) => t.flight.key));
    if (sellsWith && forSale.length > 0) await this.store(offerId, sellsWith, owner, currency, lang, seated, forSale);

    const definition: ServiceDefinitionView = {
      serviceDefinitionId: SEAT_DEFINITION,
      ownerCode: designator,
      // Composed by the gateway (there is no catalogue text for "a seat"), so English.
      name: "Seat reservation",
      descriptions: ["A reserved seat on one flight; see the seat map for its characteristics."],
      taxonomy: [],
      association: { kind: "seatProfiles", seatProfileIds: profiles.all().map((p) => p.seatProfileId) },
    };
    const warnings: WarningView[] = [];
    const fellBack = lang.fallbackDetail();
    if (fellBack) warnings.push({ code: "content_language_fallback", detail: fellBack });
    return {
      aLaCarteOffer: {
        offerId,
        ownerCode: designator,
        expiresAt: sellsWith ? new Date(sellsWith.expiresAt).toISOString() : undefined,
        description: flightOffer
          ? `Seats sold with flight offer ${flightOffer.offerId}.`
          : bookedOrderId
            ? `Seats for booked order ${bookedOrderId}: buy one for one passenger with OrderChangeRQ (SelectedSeat).`
            : "Seat prices for information: seats are bought with a flight offer (SeatAvailabilityRQ naming its OfferID).",
        items: forSale.map((s) => {
          const price = viewMoney(s.price);
          return {
            offerItemId: s.offerItemId,
            ownerCode: designator,
            serviceId: `${s.offerItemId}-1`,
            serviceDefinitionId: SEAT_DEFINITION,
            paxIds: seated,
            flights: { kind: "paxSegments", ids: [s.target.paxSegmentId] },
            unitPrice: { base: price, taxes: [], total: price },
            terms: SEAT_TERMS,
          };
        }),
      },
      dataLists: { ...emptyDataLists(), passengers: pax, segments, journeys, seatProfiles: profiles.all(), serviceDefinitions: [definition] },
      processing: { currency: { code: currency, decimals: minorUnits(currency) }, contentLanguages: lang.contentLanguages() },
      seatMaps: maps,
      warnings,
    };
  }

  /** The seats for sale, as an a-la-carte offer that lives as long as its flight offer. */
  private async store(
    offerId: string,
    flightOffer: { offerId: string; expiresAt: number },
    owner: OfferOwner,
    currency: CurrencyCode,
    lang: Localiser,
    seated: string[],
    forSale: (SeatForSale & { target: Target })[],
  ): Promise<void> {
    const items: StoredServiceItem[] = forSale.map((s) => ({
      offerItemId: s.offerItemId,
      kind: "seat",
      paxIds: seated,
      totalMinor: s.price.amount,
      unitMinor: s.price.amount,
      ref: s.seat.id,
      flightKeys: [s.target.flight.key],
      paxSegmentIds: [s.target.paxSegmentId],
    }));
    const payload: ALaCartePayload = { kind: "a_la_carte", currency, language: lang.language, flightOfferId: flightOffer.offerId, items };
    await this.deps.offers.save([{ offerId, source: "seat_availability", owner, createdAt: this.deps.clock.now(), expiresAt: flightOffer.expiresAt, payload }]);
  }
}

/** The map with seats held or sold through the gateway shown as occupied. */
function withTaken<M extends { cabins: { seats: Seat[] }[] }>(map: M, taken: ReadonlySet<string>): M {
  if (taken.size === 0) return map;
  return {
    ...map,
    cabins: map.cabins.map((c) => ({ ...c, seats: c.seats.map((s) => (taken.has(s.id) ? { ...s, availability: "occupied" as const } : s)) })),
  };
}
