import type { Clock } from "@ndc/clock";
import { GatewayError, isGatewayError } from "@ndc/errors";
import { SERVICE_TERMS } from "../views/extra-terms";
import { emptyDataLists, type ALaCarteItemView, type MediaView, type ServiceDefinitionView, type ServiceListRequest, type ServiceListView, type WarningView } from "../model";
import { filterByCriteria, type Supply } from "@ndc/supply";
import { minorUnits } from "@ndc/money";
import type { OfferOwner, OfferRepository, StoredOffer } from "../offers/repository";
import type { ALaCartePayload, FlightOfferPayload, StoredOfferItem } from "../offers/payload";
import { responseCurrency, viewMoney } from "./currency";
import { bundleParts, definitionOf, taxonomyOf } from "./definitions";
import { loadFlightOffer } from "./flight-offer";
import { offerFareLists, offerFlightLists } from "./flight-lists";
import { aLaCarteOfferId, servicesOfferId } from "./ids";
import { priceItems, type ListedItem } from "./items";
import { definitionId, productsForOffer, type Product } from "./products";
import { supplyCriteria } from "./criteria";
import { localiserFor } from "./request-language";
import { airlineExtrasOnly, bookedOrderContext, type BookedOrderLookup } from "./booked-order";

const ELEMENT = "Request/ServiceListCoreRequest/OfferRequest";
const KIND: Readonly<Record<Product["kind"], StoredOfferItem["kind"]>> = { service: "service", bundle: "bundle", ride: "ride", partner_product: "partner_product" };

/** What the a-la-carte offer remembers of an item beyond the shared contract, so OfferPrice can re-price it. */
export interface StoredServiceItem extends StoredOfferItem {
  /** Price of one unit for the item's passenger (or the party, for per-vehicle and per-order items). */
  unitMinor: number;
  flightKeys: string[];
  /** The passenger type priced (ADT, CHD, INF); absent for per-vehicle and per-order items. */
  paxType?: string;
  paxSegmentIds?: string[];
  paxJourneyIds?: string[];
  taxonomyCode?: string;
}

/**
 * ServiceListRQ for an offer (spec 4.7): every definition the criteria select, priced
 * a-la-carte items per segment or journey and passenger, stored as an a-la-carte offer tied to
 * the flight offer so OfferPrice and OrderCreate can sell them.
 */
export class ServiceList {
  constructor(
    private readonly deps: { supply: Supply; offers: OfferRepository; clock: Clock; orders?: BookedOrderLookup; offerTtlMinutes?: number },
  ) {}

  async list(request: ServiceListRequest, owner: OfferOwner): Promise<ServiceListView> {
    const { target } = request;
    if (target.form === "order") return this.listForOrder(request, target.order, owner);
    if (target.form !== "offer") {
      throw new GatewayError("request_invalid", {
        detail: "ServiceListRQ lists services for an offer (OfferRequest) or a booked order (OrderRequest).",
        element: "Request/ServiceListCoreRequest",
      });
    }
    const { context } = await loadFlightOffer(this.deps.offers, this.deps.supply, target.offers, owner, ELEMENT);
    const flightOffer = context.offer;
    const currency = responseCurrency(request.preferences.currency, flightOffer.payload.currency);
    const lang = localiserFor(request.preferences);
    const designator = this.deps.supply.carrier.code;

    const products = filterByCriteria(productsForOffer(context), supplyCriteria(request.serviceCriteria));
    const items = priceItems(context, products, this.deps.supply.seed, currency);
    const { definitions, media } = this.definitions(products, designator, lang);

    const seed = this.deps.supply.seed;
    // In the offer's currency the list adds to the a-la-carte offer AirShopping issued for this
    // flight offer (same id, same item ids); in another currency it is an offer of its own.
    const offerId = currency === flightOffer.payload.currency ? servicesOfferId(seed, flightOffer.offerId) : aLaCarteOfferId(seed, flightOffer.offerId, "services", currency);
    if (items.length > 0) await this.save(offerId, flightOffer, owner, currency, lang.language, items.map(stored));

    const dataLists = { ...emptyDataLists(), ...offerFlightLists(context, lang), ...offerFareLists(context, lang, designator), serviceDefinitions: definitions, media };
    const warnings: WarningView[] = [];
    const fellBack = lang.fallbackDetail();
    if (fellBack) warnings.push({ code: "content_language_fallback", detail: fellBack });
    return {
      aLaCarteOffer: {
        offerId,
        ownerCode: designator,
        expiresAt: new Date(flightOffer.expiresAt).toISOString(),
        description: `Services sold with flight offer ${flightOffer.offerId}.`,
        items: items.map((i) => itemView(i, designator)),
      },
      dataLists,
      processing: { currency: { code: currency, decimals: minorUnits(currency) }, contentLanguages: lang.contentLanguages() },
      warnings,
    };
  }

  /**
   * The booked-order form (spec 4.7): airline extras only, for the order's flights and
   * passengers, priced in the order's currency unless another is asked for. The items are stored
   * as an a-la-carte offer of their own, tied to the order (its flightOfferId is the OrderID), so
   * no OrderCreate can take them with a flight offer, and post-sale ORDRE2 can resolve them.
   */
  private async listForOrder(request: ServiceListRequest, ref: Parameters<typeof bookedOrderContext>[2], owner: OfferOwner): Promise<ServiceListView> {
    const now = this.deps.clock.now();
    const { context, order } = await bookedOrderContext(this.deps.orders, this.deps.supply, ref, owner, now);
    const currency = responseCurrency(request.preferences.currency, order.currency);
    const lang = localiserFor(request.preferences);
    const designator = this.deps.supply.carrier.code;
    const seed = this.deps.supply.seed;
    const products = filterByCriteria(airlineExtrasOnly(productsForOffer(context)), supplyCriteria(request.serviceCriteria));
    const items = priceItems(context, products, seed, currency);
    const { definitions, media } = this.definitions(products, designator, lang);
    const offerId = aLaCarteOfferId(seed, `order:${order.orderId}`, "services", currency);
    const expiresAt = now + (this.deps.offerTtlMinutes ?? 30) * 60_000;
    if (items.length > 0) {
      const payload: ALaCartePayload = { kind: "a_la_carte", currency, language: lang.language, flightOfferId: order.orderId, items: items.map(stored) };
      await this.deps.offers.save([{ offerId, source: "service_list", owner, createdAt: now, expiresAt, payload }]);
    }
    const dataLists = { ...emptyDataLists(), ...offerFlightLists(context, lang), ...offerFareLists(context, lang, designator), serviceDefinitions: definitions, media };
    const warnings: WarningView[] = [];
    const fellBack = lang.fallbackDetail();
    if (fellBack) warnings.push({ code: "content_language_fallback", detail: fellBack });
    return {
      ...(items.length > 0
        ? {
            aLaCarteOffer: {
              offerId,
              ownerCode: designator,
              expiresAt: new Date(expiresAt).toISOString(),
              description: `Airline extras for order ${order.orderId}.`,
              items: items.map((i) => itemView(i, designator)),
            },
          }
        : {}),
      dataLists,
      processing: { currency: { code: currency, decimals: minorUnits(currency) }, contentLanguages: lang.contentLanguages() },
      warnings,
    };
  }

  /**
   * Stores the items under the a-la-carte offer id, keeping items an earlier issue of the same
   * offer holds (AirShopping's, or a wider list), so narrowing a list never unsells an item.
   */
  private async save(offerId: string, flightOffer: StoredOffer<FlightOfferPayload>, owner: OfferOwner, currency: string, language: string, items: StoredOfferItem[]): Promise<void> {
    const merged = new Map<string, StoredOfferItem>();
    const earlier = await this.deps.offers.resolve<ALaCartePayload>(offerId, owner).catch((e: unknown) => {
      if (isGatewayError(e) && (e.code === "offer_not_found" || e.code === "offer_expired")) return undefined;
      throw e;
    });
    if (earlier?.payload.kind === "a_la_carte" && earlier.payload.currency === currency) for (const i of earlier.payload.items) merged.set(i.offerItemId, i);
    for (const i of items) merged.set(i.offerItemId, i);
    const payload: ALaCartePayload = { kind: "a_la_carte", currency, language, flightOfferId: flightOffer.offerId, items: [...merged.values()] };
    await this.deps.offers.save([{ offerId, source: "service_list", owner, createdAt: this.deps.clock.now(), expiresAt: flightOffer.expiresAt, payload }]);
  }

  /** Definitions of the listed products, plus the catalogue services their bundles refer to. */
  private definitions(products: readonly Product[], owner: string, lang: ReturnType<typeof localiserFor>): { definitions: ServiceDefinitionView[]; media: MediaView[] } {
    const all = new Map<string, Product>();
    for (const p of products) all.set(p.code, p);
    for (const p of products) for (const part of bundleParts(p)) if (!all.has(part.code)) all.set(part.code, part);
    const definitions: ServiceDefinitionView[] = [];
    const media = new Map<string, MediaView>();
    for (const p of all.values()) {
      const d = definitionOf(p, owner, lang);
      definitions.push(d.definition);
      for (const m of d.media) media.set(m.mediaId, m);
    }
    return { definitions, media: [...media.values()] };
  }
}

function itemView(i: ListedItem, owner: string): ALaCarteItemView {
  const price = viewMoney(i.priced.unitPrice);
  return {
    offerItemId: i.offerItemId,
    ownerCode: owner,
    serviceId: `${i.offerItemId}-1`,
    serviceDefinitionId: definitionId(i.product.code),
    paxIds: i.paxIds,
    flights: i.flights,
    unitPrice: { base: price, taxes: [], total: price },
    taxonomy: taxonomyOf(i.product.taxonomyCode),
    terms: SERVICE_TERMS,
  };
}

function stored(i: ListedItem): StoredServiceItem {
  const s: StoredServiceItem = {
    offerItemId: i.offerItemId,
    kind: KIND[i.product.kind],
    paxIds: i.paxIds,
    totalMinor: i.priced.unitPrice.amount,
    unitMinor: i.priced.unitPrice.amount,
    ref: i.product.code,
    flightKeys: i.priced.flightKeys,
  };
  if (i.paxType) s.paxType = i.paxType;
  if (i.flights.kind === "paxSegments") s.paxSegmentIds = i.flights.ids;
  if (i.flights.kind === "paxJourneys") s.paxJourneyIds = i.flights.ids;
  if (i.product.taxonomyCode) s.taxonomyCode = i.product.taxonomyCode;
  return s;
}
