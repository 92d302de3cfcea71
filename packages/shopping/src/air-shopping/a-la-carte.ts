import { Memo, priceBundle, priceService, type CatalogueService, type Flight, type PaxType, type ServiceBundle, type Supply } from "@ndc/supply";
import type { CurrencyCode } from "@ndc/money";
import { SERVICE_TERMS } from "../views/extra-terms";
import type { ALaCarteItemView, ALaCarteOfferView, FlightAssociation } from "../model";
import type { PricedFlights } from "../common/fares";
import { ids } from "../common/ids";
import { priceView } from "../common/money";
import type { ALaCartePayload, StoredOfferItem } from "../offers/payload";
import { taxonomyView, type DataListsBuilder } from "../views/data-lists";

/** An a-la-carte item as listed: its view and what is stored with the offer. */
export interface Listed {
  view: ALaCarteItemView;
  stored: StoredOfferItem;
}

/** Every item of the a-la-carte offer sold with a set of flights, in listing order. */
export interface ListedItems {
  items: ALaCarteItemView[];
  stored: StoredOfferItem[];
}

/**
 * Bounds of the cross-request memo of a-la-carte items (per supply). An item is a pure function of
 * the product, its flights, the passengers of a type, the currency and the owner; a list, of the
 * flights, the party, the currency, the owner and the products the catalogue listed. The benchmark
 * search lists 48 items in 4 lists; an item is about 1 KB on the heap, a list about 0.5 KB plus
 * its items (shared): under 10 MB when full.
 */
export const A_LA_CARTE_MEMO_MAX = { items: 8_192, lists: 1_024 } as const;

interface ALaCarteMemos {
  items: Memo<Listed>;
  lists: Memo<ListedItems>;
  /** Lists asked for once by an earlier request: kept (frozen) from the second request that asks. */
  seen: Memo<true>;
}

const memos = new WeakMap<Supply, ALaCarteMemos>();

/** The memos of this supply (sizes and bounds are what test/shopping/shop-memo.test.ts reads). */
export function aLaCarteMemo(supply: Supply): ALaCarteMemos {
  let m = memos.get(supply);
  if (!m) memos.set(supply, (m = { items: new Memo(A_LA_CARTE_MEMO_MAX.items), lists: new Memo(A_LA_CARTE_MEMO_MAX.lists), seen: new Memo(A_LA_CARTE_MEMO_MAX.lists) }));
  return m;
}

/**
 * What one request shares across its a-la-carte offers: whether the products are in DataLists yet,
 * the key of the catalogue's products, and the lists and items it built that are not kept across
 * requests (a list asked for the first time), so each is still built once per request and its
 * items are the same objects wherever they recur (the writer writes each once per answer).
 */
export interface ALaCarteRequest {
  listed: boolean;
  productsKey: string;
  lists: Map<string, ListedItems>;
  items: Map<string, Listed>;
}

export function aLaCarteRequest(catalogue: { services: readonly CatalogueService[]; bundles: readonly ServiceBundle[] }): ALaCarteRequest {
  return { listed: false, productsKey: `${catalogue.services.map((s) => s.code).join(",")}/${catalogue.bundles.map((b) => b.code).join(",")}`, lists: new Map(), items: new Map() };
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

/**
 * Enters every product in DataLists, in the order the first a-la-carte offer refers to them
 * (services, then bundles: every product is sold on every offer's flights), also when its items
 * were kept from an earlier request.
 */
function listProducts(catalogue: { services: readonly CatalogueService[]; bundles: readonly ServiceBundle[] }, lists: DataListsBuilder): void {
  for (const s of catalogue.services) lists.service(s);
  for (const b of catalogue.bundles) lists.bundle(b, bundleContents(b));
}

const bundleContents = (b: ServiceBundle) => [...b.components.map((c) => c.serviceCode), ...b.options.flatMap((o) => o.choices)].map(ids.serviceDefinition);

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
  request: ALaCarteRequest,
  expiresAt: string,
  language: string,
): { view: ALaCarteOfferView; payload: ALaCartePayload } | undefined {
  const offerId = ids.aLaCarteOffer(supply.seed, flightOfferId);
  if (!request.listed) {
    listProducts(catalogue, lists);
    request.listed = true;
  }
  const party = f.items.map((it) => `${it.ptc}:${it.paxIds.join(",")}`).join(";");
  const key = `${f.journeys.map((j) => j.id).join(",")}|${party}|${f.currency}|${ownerCode}|${request.productsKey}`;
  const { items, stored } = listFor(supply, key, request, (keep) => listItems(supply, ownerCode, f, catalogue, request, keep));
  if (items.length === 0) return undefined;
  return {
    view: { offerId, ownerCode, expiresAt, description: `Services sold with offer ${flightOfferId}.`, items },
    payload: { kind: "a_la_carte", currency: f.currency, language, flightOfferId, items: stored },
  };
}

/**
 * The list under this key: kept from an earlier request, built earlier in this one, or built now;
 * kept across requests (frozen, with its items) only from the second request that asks for it, as
 * offer parts are (offer-parts.ts): a list of a search that never comes again is not frozen.
 */
function listFor(supply: Supply, key: string, request: ALaCarteRequest, build: (keep: boolean) => ListedItems): ListedItems {
  const m = aLaCarteMemo(supply);
  const kept = m.lists.find(key) ?? request.lists.get(key);
  if (kept) return kept;
  if (m.seen.find(key)) return m.lists.add(key, build(true));
  m.seen.add(key, true);
  const built = build(false);
  request.lists.set(key, built);
  return built;
}

/** The items of the a-la-carte offer for these flights: each product, where it is sold, per passenger type. */
function listItems(
  supply: Supply,
  ownerCode: string,
  f: PricedFlights,
  catalogue: { services: readonly CatalogueService[]; bundles: readonly ServiceBundle[] },
  request: ALaCarteRequest,
  keep: boolean,
): ListedItems {
  const memo = aLaCarteMemo(supply).items;
  const items: ALaCarteItemView[] = [];
  const stored: StoredOfferItem[] = [];
  for (const x of sellables(f, catalogue.services, catalogue.bundles)) {
    const code = x.product.kind === "service" ? x.product.s.code : x.product.b.code;
    const flightKeys = x.flights.map((fl) => fl.key).join(",");
    for (const it of f.items) {
      if (it.ptc === "INF" && (x.product.kind === "bundle" || !x.product.s.infantsAllowed)) continue;
      // One object per item, shared by every list (and answer) that lists it: the encoder writes
      // an item once per answer however many offers list it.
      const key = `${x.product.kind}:${code}|${flightKeys}|${it.ptc}|${it.paxIds.join(",")}|${x.association.kind}:${x.association.ids.join(",")}|${f.currency}|${ownerCode}`;
      let listed = memo.find(key) ?? request.items.get(key);
      if (!listed) {
        listed = listItem(supply, ownerCode, x, it.ptc, it.paxIds, f.currency);
        if (keep) listed = memo.add(key, listed);
        else request.items.set(key, listed);
      } else if (keep && !Object.isFrozen(listed)) listed = memo.add(key, listed);
      items.push(listed.view);
      stored.push(listed.stored);
    }
  }
  return { items, stored };
}

function listItem(supply: Supply, ownerCode: string, x: Sellable, ptc: PaxType, paxIds: string[], currency: CurrencyCode): Listed {
  const p =
    x.product.kind === "service" ? priceService(supply.seed, x.product.s.code, x.flights, ptc, currency) : priceBundle(supply.seed, x.product.b.code, x.flights, ptc, currency);
  const taxonomy = x.product.kind === "service" ? taxonomyView(x.product.s.taxonomyCode) : [];
  return {
    view: {
      offerItemId: p.itemId,
      ownerCode,
      serviceId: `${p.itemId}-SV`,
      serviceDefinitionId: ids.serviceDefinition(p.code),
      paxIds: [...paxIds],
      flights: x.association,
      unitPrice: priceView(currency, p.unitPrice.amount, []),
      terms: SERVICE_TERMS,
      ...(taxonomy.length ? { taxonomy } : {}),
      ...(x.product.kind === "service" && x.product.s.pictureIds.length ? { mediaIds: [...x.product.s.pictureIds] } : {}),
    },
    stored: { offerItemId: p.itemId, kind: x.product.kind, paxIds: [...paxIds], totalMinor: p.unitPrice.amount, unitMinor: p.unitPrice.amount, ref: p.code, flightKeys: p.flightKeys, paxType: ptc },
  };
}
