import { priceBundle, priceService, type CatalogueService, type CurrencyCode, type Flight, type PaxType, type PricedItem, type ServiceBundle, type Supply } from "@ndc/supply";
import type { ALaCarteItemView, ALaCarteOfferView, FlightAssociation } from "@ndc/messages";
import type { PricedFlights } from "../common/fares";
import { ids } from "../common/ids";
import { priceView } from "../common/money";
import type { ALaCartePayload, StoredOfferItem } from "../offers/payload";
import { taxonomyView, type DataListsBuilder } from "../views/data-lists";

/**
 * Priced items are shared across the offers of one response: the same flights give the same item,
 * and the same item for the same passengers is the same view and stored item (one object listed
 * in several a-la-carte offers, so the encoder builds and writes it once).
 */
export interface ItemPriceCache {
  priced: Map<string, PricedItem>;
  listed: Map<string, { view: ALaCarteItemView; stored: StoredOfferItem }>;
  /**
   * Every item of an a-la-carte offer, per set of journeys: within one request the items follow
   * from the journeys alone (the brand does not enter, the passengers and currency are the
   * request's), so the offers of one combination in several brands share one list, built once,
   * and the encoder writes its bytes once.
   */
  byJourneys: Map<string, { items: ALaCarteItemView[]; stored: StoredOfferItem[] }>;
}

export function itemPriceCache(): ItemPriceCache {
  return { priced: new Map(), listed: new Map(), byJourneys: new Map() };
}

interface Sellable {
  product: { kind: "service"; s: CatalogueService } | { kind: "bundle"; b: ServiceBundle };
  flights: Flight[];
  association: FlightAssociation;
}

/** Where each product is sold in an offer: per flight (segment) or once per direction (journey). */
function sellables(f: PricedFlights, services: readonly CatalogueService[], bundles: readonly ServiceBundle[]): Sellable[] {
  const out: Sellable[] = [];
  for (const s of services) {
    if (s.per === "segment") {
      for (const j of f.journeys) for (const fl of j.segments) out.push({ product: { kind: "service", s }, flights: [fl], association: { kind: "paxSegments", ids: [ids.segment(fl.key)] } });
    } else {
      for (const j of f.journeys) out.push({ product: { kind: "service", s }, flights: j.segments, association: { kind: "paxJourneys", ids: [j.id] } });
    }
  }
  for (const b of bundles) {
    for (const j of f.journeys) out.push({ product: { kind: "bundle", b }, flights: j.segments, association: { kind: "paxJourneys", ids: [j.id] } });
  }
  return out;
}

function priced(supply: Supply, x: Sellable, ptc: PaxType, currency: CurrencyCode, cache: ItemPriceCache): PricedItem {
  const code = x.product.kind === "service" ? x.product.s.code : x.product.b.code;
  const key = `${code}|${x.flights.map((f) => f.key).join(",")}|${ptc}`;
  let p = cache.priced.get(key);
  if (!p) {
    p = x.product.kind === "service" ? priceService(supply.seed, code, x.flights, ptc, currency) : priceBundle(supply.seed, code, x.flights, ptc, currency);
    cache.priced.set(key, p);
  }
  return p;
}

/**
 * The a-la-carte offer sold with one flight offer (spec 4.7): each listed product, per flight or
 * direction, per passenger type that may buy it, at its unit price. Ids follow the scheme in
 * common/ids.ts, so ServiceList for the same offer names the same items.
 */
export function aLaCarteOffer(
  supply: Supply,
  ownerCode: string,
  flightOfferId: string,
  f: PricedFlights,
  catalogue: { services: readonly CatalogueService[]; bundles: readonly ServiceBundle[] },
  lists: DataListsBuilder,
  cache: ItemPriceCache,
  expiresAt: string,
  language: string,
): { view: ALaCarteOfferView; payload: ALaCartePayload } | undefined {
  const offerId = ids.aLaCarteOffer(supply.seed, flightOfferId);
  const journeysKey = f.journeys.map((j) => j.id).join(",");
  let listedItems = cache.byJourneys.get(journeysKey);
  if (!listedItems) cache.byJourneys.set(journeysKey, (listedItems = listItems(supply, ownerCode, f, catalogue, lists, cache)));
  const { items, stored } = listedItems;
  if (items.length === 0) return undefined;
  return {
    view: { offerId, ownerCode, expiresAt, description: `Services sold with offer ${flightOfferId}.`, items },
    payload: { kind: "a_la_carte", currency: f.currency, language, flightOfferId, items: stored },
  };
}

/** The items of the a-la-carte offer for these flights: each product, where it is sold, per passenger type. */
function listItems(
  supply: Supply,
  ownerCode: string,
  f: PricedFlights,
  catalogue: { services: readonly CatalogueService[]; bundles: readonly ServiceBundle[] },
  lists: DataListsBuilder,
  cache: ItemPriceCache,
): { items: ALaCarteItemView[]; stored: StoredOfferItem[] } {
  const items: ALaCarteItemView[] = [];
  const stored: StoredOfferItem[] = [];
  for (const x of sellables(f, catalogue.services, catalogue.bundles)) {
    const definitionId =
      x.product.kind === "service"
        ? lists.service(x.product.s)
        : lists.bundle(x.product.b, [...x.product.b.components.map((c) => c.serviceCode), ...x.product.b.options.flatMap((o) => o.choices)].map(ids.serviceDefinition));
    for (const it of f.items) {
      if (it.ptc === "INF" && (x.product.kind === "bundle" || !x.product.s.infantsAllowed)) continue;
      const p = priced(supply, x, it.ptc, f.currency, cache);
      // The item id names product, flights and passenger type; the passengers of a type and the
      // association follow from them within one request.
      const listKey = `${p.itemId}|${it.paxIds.join(",")}|${x.association.kind}:${x.association.ids.join(",")}`;
      let listed = cache.listed.get(listKey);
      if (!listed) {
        const taxonomy = x.product.kind === "service" ? taxonomyView(x.product.s.taxonomyCode) : [];
        listed = {
          view: {
            offerItemId: p.itemId,
            ownerCode,
            serviceId: `${p.itemId}-SV`,
            serviceDefinitionId: definitionId,
            paxIds: it.paxIds,
            flights: x.association,
            unitPrice: priceView(f.currency, p.unitPrice.amount, []),
            ...(taxonomy.length ? { taxonomy } : {}),
            ...(x.product.kind === "service" && x.product.s.pictureIds.length ? { mediaIds: [...x.product.s.pictureIds] } : {}),
          },
          stored: { offerItemId: p.itemId, kind: x.product.kind, paxIds: it.paxIds, totalMinor: p.unitPrice.amount, unitMinor: p.unitPrice.amount, ref: p.code, flightKeys: p.flightKeys, paxType: it.ptc },
        };
        cache.listed.set(listKey, listed);
      }
      items.push(listed.view);
      stored.push(listed.stored);
    }
  }
  return { items, stored };
}
