import type { AirShoppingRequest, AirShoppingView, ALaCarteOfferView, OfferView, WarningView } from "../model";
import { filterByCriteria, type CatalogueService, type ServiceBundle } from "@ndc/supply";
import { minorUnits } from "@ndc/money";
import { DURABLE, pendingSave, type Issued, type ShoppingContext, type SellerRef } from "../context";
import { Localiser } from "../localisation";
import type { StoredOffer } from "../offers/repository";
import type { FlightOfferPayload, OfferPayload, StoredPax } from "../offers/payload";
import { ids } from "../common/ids";
import { party, paxIdsByType, requestedLanguages, resolveCurrency } from "../common/request";
import type { JourneyPriceCache, PricedFlights } from "../common/fares";
import { brandExcluded, textBundleNamed, toCriteria } from "../catalogue/criteria";
import { catalogueFaults } from "../catalogue/faults";
import { missingDetail, readCatalogue } from "../catalogue/reader";
import { DataListsBuilder } from "../views/data-lists";
import { flightItems, listAllowances } from "../views/flight-offer";
import { aLaCarteOffer, aLaCarteRequest } from "./a-la-carte";
import { AnswerCache, answerCache, keepAnswer } from "./answer-cache";
import { brandsFor, combinations, legsOf } from "./legs";
import { offerParts, type OfferParts } from "./offer-parts";

/**
 * AirShopping (spec 4.7): offers per journey combination and fare brand, one item per passenger
 * type, with the brand's conditions and allowance and prices with taxes; with ServiceCriteria, an
 * a-la-carte offer of catalogue services for the first servicesMaxOffers offers. Every offer is
 * stored for the seller with its expiry, so OfferPrice and OrderCreate can resolve it. With
 * SHOP_ANSWER_CACHE on, the same seller's identical request within half the offers' validity gets
 * the answer already issued (answer-cache.ts).
 */
export async function shop(ctx: ShoppingContext, request: AirShoppingRequest, seller: SellerRef): Promise<AirShoppingView> {
  const { view, durable } = await issueShop(ctx, request, seller);
  await durable;
  return view;
}

/**
 * `shop` without waiting for the offers' save: the view with the save's promise, so the answer is
 * written while the commit (and its fsync, off the event loop) runs, and sent once it settled.
 */
export async function issueShop(ctx: ShoppingContext, request: AirShoppingRequest, seller: SellerRef): Promise<Issued<AirShoppingView>> {
  const now = ctx.clock.now();
  // Never while a catalogue fault is switched on: a cached answer would hide the failure.
  const cacheKey = ctx.settings.answerCache && !catalogueFaults(ctx.supply).any ? AnswerCache.key(seller, request) : undefined;
  if (cacheKey) {
    const hit = answerCache(ctx.supply).get(cacheKey, now);
    if (hit) return { view: hit, durable: DURABLE };
  }
  const { view, durable } = await issue(ctx, request, seller, now);
  const complete = !view.warnings.some((w) => w.code === "services_not_listed") && !catalogueFaults(ctx.supply).any;
  if (cacheKey && complete) {
    const expiresAtMs = now + ctx.settings.offerTtlMinutes * 60_000;
    keepAnswer(view);
    // Kept only once its offers are durable: a hit must never name an offer that is not stored.
    void durable.then(
      () => answerCache(ctx.supply).set(cacheKey, view, Math.min(expiresAtMs, now + (ctx.settings.offerTtlMinutes * 60_000) / 2)),
      () => {},
    );
  }
  return { view, durable };
}

async function issue(ctx: ShoppingContext, request: AirShoppingRequest, seller: SellerRef, now: number): Promise<Issued<AirShoppingView>> {
  const { supply, ownerCode } = ctx;
  const currency = resolveCurrency(request.preferences);
  const { pax, counts } = party(request.passengers);
  const byType = paxIdsByType(pax);
  const loc = new Localiser(requestedLanguages(request.preferences));
  const lists = new DataListsBuilder(loc, ownerCode);
  lists.passengers(pax);
  // One frozen copy shared by every stored offer of the answer: its JSON is made once (payloadJson).
  const storedPax = Object.freeze(pax.map((p) => Object.freeze({ ...p }))) as StoredPax[];
  const warnings: WarningView[] = [];
  const criteria = toCriteria(request.serviceCriteria);
  const expiresAtMs = now + ctx.settings.offerTtlMinutes * 60_000;
  const expiresAt = new Date(expiresAtMs).toISOString();

  const legs = legsOf(supply, request);
  const journeyCache: JourneyPriceCache = new Map();
  const built: { offerId: string; flights: PricedFlights; parts: OfferParts }[] = [];
  const partyKey = pax.map((p) => `${p.paxId}:${p.ptc}`).join(",");
  for (const combo of combinations(legs)) {
    for (const brand of brandsFor(legs, combo)) {
      if (brandExcluded(brand, criteria)) continue;
      // Priced once per process for this party, currency and language (offer-parts.ts).
      const parts = offerParts(supply, combo, brand, counts, byType, partyKey, currency, loc.language, journeyCache);
      const offerId = ids.flightOffer(supply.seed, [seller.agencyId, currency, loc.language, partyKey, brand.code, ...combo.map((j) => j.id)]);
      built.push({ offerId, flights: parts.flights, parts });
    }
  }

  const named = textBundleNamed([...new Set(built.map((b) => b.flights.brand))], criteria);
  if (named.length) warnings.push({ code: "bundle_content_not_filtered", detail: `Not filtered (bundled as text): ${named.join(", ")}.` });
  const supplierBrands = [...new Set(built.filter((b) => b.flights.conditions.source === "supplier").map((b) => b.flights.brand.code))];
  if (supplierBrands.length) warnings.push({ code: "fare_conditions_supplier", detail: `Brands: ${supplierBrands.join(", ")}.` });

  // Catalogue services only when asked for (OfferCriteria/ServiceCriteria), for the first N offers.
  const withServices = request.serviceCriteria.length > 0 ? built.slice(0, ctx.settings.servicesMaxOffers) : [];
  let catalogue: { services: CatalogueService[]; bundles: ServiceBundle[] } = { services: [], bundles: [] };
  if (withServices.length) {
    const read = await readCatalogue(catalogueFaults(supply), { readTimeoutMs: ctx.settings.catalogueReadTimeoutMs, deadlineMs: ctx.settings.catalogueDeadlineMs });
    if (read.missing.length) warnings.push({ code: "services_not_listed", detail: missingDetail(read.missing) });
    // Bundles carry no taxonomy node: a node, RFIC or RFISC criterion never selects them.
    catalogue = { services: filterByCriteria(read.services, criteria), bundles: criteria.include?.length ? [] : read.bundles };
  }

  const offers: OfferView[] = [];
  const aLaCarte: ALaCarteOfferView[] = [];
  const stored: StoredOffer<OfferPayload>[] = [];
  const aLaCarteShared = aLaCarteRequest(catalogue);
  const allowancesListed = new Set<string>();
  built.forEach((b, i) => {
    const f = b.flights;
    legs.forEach((leg, li) => lists.journey(f.journeys[li]!, leg.originDestId));
    const items = flightItems(b.offerId, ownerCode, f, lists, now, undefined, expiresAt, b.parts.items);
    // Once per brand: the party is the request's, so a brand's allowances are the same in every offer.
    if (!allowancesListed.has(f.brand.code)) {
      allowancesListed.add(f.brand.code);
      listAllowances(f, lists);
    }
    const totalMinor = b.parts.totalMinor;
    offers.push({
      offerId: b.offerId,
      ownerCode,
      expiresAt,
      journeys: b.parts.journeys,
      baggage: b.parts.baggage,
      items,
      totalPrice: b.parts.totalPrice,
    });
    const payload: FlightOfferPayload = {
      kind: "flight",
      currency,
      language: loc.language,
      pax: storedPax,
      journeys: b.parts.storedJourneys,
      items: f.items.map((it, k) => ({ offerItemId: items[k]!.offerItemId, kind: "flight", paxIds: it.paxIds, totalMinor: items[k]!.price.total.minor, ref: it.ptc })),
      totalMinor,
    };
    stored.push({ offerId: b.offerId, source: "air_shopping", owner: seller, createdAt: now, expiresAt: expiresAtMs, payload });
    if (i < withServices.length) {
      const alc = aLaCarteOffer(supply, ownerCode, b.offerId, f, catalogue, lists, aLaCarteShared, expiresAt, loc.language);
      if (alc) {
        aLaCarte.push(alc.view);
        stored.push({ offerId: alc.view.offerId, source: "air_shopping", owner: seller, createdAt: now, expiresAt: expiresAtMs, payload: alc.payload });
      }
    }
  });
  const durable = pendingSave(ctx.offers.save(stored));

  const fallback = loc.fallbackDetail();
  if (fallback) warnings.push({ code: "content_language_fallback", detail: fallback });
  const view: AirShoppingView = {
    ownerCode,
    offers,
    aLaCarteOffers: aLaCarte,
    dataLists: lists.build(),
    processing: { currency: { code: currency, decimals: minorUnits(currency) }, contentLanguages: loc.contentLanguages() },
    warnings,
  };
  return { view, durable };
}
