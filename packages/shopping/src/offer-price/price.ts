import { GatewayError } from "@ndc/errors";
import type { OfferItemView, OfferPriceRequest, OfferPriceView, WarningView } from "../model";
import { fareBrand, type Journey, type Supply } from "@ndc/supply";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import { acceptedMethods } from "@ndc/payments";
import { pendingSave, type Issued, type SellerRef, type ShoppingContext } from "../context";
import { Localiser } from "../localisation";
import { ids } from "../common/ids";
import { priceFlights, type PricedFlights } from "../common/fares";
import { mergeTaxes, priceView, scaleTaxes } from "../common/money";
import { paxIdsByType, resolveCurrency, requestedLanguages } from "../common/request";
import type { FlightOfferPayload, StoredJourney } from "../offers/payload";
import { DataListsBuilder } from "../views/data-lists";
import { baggage, flightItems } from "../views/flight-offer";
import { priceExtras } from "./extras";
import { adjust, offerAdjustments, type Adjustable } from "./promotions";
import { resolveSelection } from "./selection";

/** A stored journey back as the supply's journey (same id), or flight_not_found when no longer sold. */
function journeyOf(supply: Supply, j: StoredJourney): Journey {
  const first = supply.flight(j.flightKeys[0]!);
  const last = supply.flight(j.flightKeys[j.flightKeys.length - 1]!);
  const found = first && last ? supply.journeys(first.origin, last.destination, first.date).find((x) => x.id === j.paxJourneyId) : undefined;
  if (!found) throw new GatewayError("flight_not_found", { detail: `Journey ${j.paxJourneyId.slice(0, 64)} is no longer sold.` });
  return found;
}

function repriceFlights(supply: Supply, payload: FlightOfferPayload, currency: CurrencyCode): PricedFlights {
  const brand = fareBrand(payload.journeys[0]!.brandCode);
  if (!brand) throw new GatewayError("flight_not_found", { detail: `Fare brand ${payload.journeys[0]!.brandCode} is no longer sold.` });
  const byType = paxIdsByType(payload.pax);
  const counts = Object.fromEntries([...byType].map(([t, list]) => [t, list.length]));
  return priceFlights(supply, payload.journeys.map((j) => journeyOf(supply, j)), brand, counts, byType, currency);
}

/**
 * OfferPrice (spec 4.5): the selected flight offer and extras re-priced into a firm price in the
 * requested currency, with the brand's conditions, taxes and the NDC-channel promotion
 * adjustments per item and per offer. The priced offer is stored (source offer_price) so
 * OrderCreate can bind it.
 */
export async function price(ctx: ShoppingContext, request: OfferPriceRequest, seller: SellerRef): Promise<OfferPriceView> {
  const { view, durable } = await issuePrice(ctx, request, seller);
  await durable;
  return view;
}

/** `price` without waiting for the priced offer's save: the view with the save's promise (as issueShop). */
export async function issuePrice(ctx: ShoppingContext, request: OfferPriceRequest, seller: SellerRef): Promise<Issued<OfferPriceView>> {
  const { supply, ownerCode } = ctx;
  const { flight, extras } = await resolveSelection(ctx, request, seller);
  const stored = flight.payload;
  const currency = request.preferences.currency ? resolveCurrency(request.preferences) : resolveCurrency({ currency: stored.currency, langUsage: [] });
  const langs = requestedLanguages(request.preferences);
  const loc = new Localiser(langs.length ? langs : [stored.language]);
  const lists = new DataListsBuilder(loc, ownerCode);
  lists.passengers(stored.pax);
  const warnings: WarningView[] = [];

  const f = repriceFlights(supply, stored, currency);
  stored.journeys.forEach((j, i) => lists.journey(f.journeys[i]!, `OD${i + 1}`));
  const pricedExtras = priceExtras(supply, extras, currency, lists);
  const now = ctx.clock.now();
  const expiresAtMs = now + ctx.settings.offerTtlMinutes * 60_000;
  const expiresAt = new Date(expiresAtMs).toISOString();
  const signature = [...pricedExtras.map((x) => `${x.offerItemId}:${x.paxIds.join("+")}:${x.stored.qty}:${x.stored.seat ? `${x.stored.seat.row}${x.stored.seat.column}` : ""}`)];
  const offerId = ids.pricedOffer(supply.seed, [seller.agencyId, flight.offerId, currency, loc.language, ...signature]);

  const origin = f.journeys[0]!.origin;
  const adjustables: Adjustable[] = [
    ...f.items.map((it) => ({
      item: { itemId: ids.offerItem(offerId, it.ptc), kind: "flight" as const, amount: it.basePerPax, brand: f.brand.code, cabin: f.brand.cabin, origin },
      units: it.count,
    })),
    ...pricedExtras.map((x) => ({ item: { itemId: x.offerItemId, kind: x.kind, amount: { amount: x.unitMinor, currency } }, units: x.units })),
  ];
  const adjusted = await adjust(supply, currency, adjustables, ctx.settings.promotionsTimeoutMs, loc, await ctx.promotionCriteria.switchedOn());

  const items: OfferItemView[] = [
    ...flightItems(offerId, ownerCode, f, lists, now, adjusted.byItem, expiresAt),
    ...pricedExtras.map((x) => ({
      offerItemId: x.offerItemId,
      ownerCode,
      price: priceView(currency, x.chargeMinor, [], adjusted.byItem.get(x.offerItemId)),
      services: [x.service],
      ...(x.taxonomy.length ? { taxonomy: x.taxonomy } : {}),
      priceGuaranteeUntil: expiresAt,
    })),
  ];
  const baseMinor = f.items.reduce((s, it) => s + it.basePerPax.amount * it.count, 0) + pricedExtras.reduce((s, x) => s + x.chargeMinor, 0);
  const taxes = mergeTaxes(f.items.flatMap((it) => scaleTaxes(it.taxesPerPax, it.count)));
  const totalPrice = priceView(currency, baseMinor, taxes, offerAdjustments(adjusted.byItem));

  if (f.conditions.source === "supplier") warnings.push({ code: "fare_conditions_supplier", detail: `Brand ${f.brand.code}.` });
  warnings.push(...adjusted.warnings);

  const payload: FlightOfferPayload = {
    kind: "flight",
    currency,
    language: loc.language,
    pax: stored.pax,
    journeys: stored.journeys,
    items: items.map((it, i) => {
      const x = i >= f.items.length ? pricedExtras[i - f.items.length] : undefined;
      return x
        ? { offerItemId: it.offerItemId, kind: x.stored.item.kind, paxIds: x.paxIds, totalMinor: it.price.total.minor, unitMinor: x.unitMinor, qty: x.stored.qty, ...pick(x.stored.item) }
        : { offerItemId: it.offerItemId, kind: "flight" as const, paxIds: f.items[i]!.paxIds, totalMinor: it.price.total.minor, ref: f.items[i]!.ptc };
    }),
    totalMinor: totalPrice.total.minor,
    pricedFrom: [flight.offerId, ...new Set(extras.map((x) => x.offerId))],
    adjustments: adjusted.applied,
  };
  const durable = pendingSave(ctx.offers.save([{ offerId, source: "offer_price", owner: seller, createdAt: now, expiresAt: expiresAtMs, payload }]));

  const fallback = loc.fallbackDetail();
  if (fallback) warnings.push({ code: "content_language_fallback", detail: fallback });
  const view: OfferPriceView = {
    pricedOffer: {
      offerId,
      ownerCode,
      expiresAt,
      journeys: f.journeys.map((j) => ({ paxJourneyId: j.id, priceClassId: ids.priceClass(f.brand.code) })),
      baggage: baggage(f, lists),
      items,
      totalPrice,
    },
    // The methods the airline takes for an amount in this currency (@ndc/payments, one list).
    paymentMethods: acceptedMethods(currency).map((m) => ({ typeCode: m.typeCode, remark: m.remark })),
    dataLists: lists.build(),
    processing: { currency: { code: currency, decimals: minorUnits(currency) }, contentLanguages: loc.contentLanguages() },
    warnings,
  };
  return { view, durable };
}

function pick(it: { ref?: string; flightKeys?: string[]; paxType?: string }) {
  return { ...(it.ref ? { ref: it.ref } : {}), ...(it.flightKeys ? { flightKeys: it.flightKeys } : {}), ...(it.paxType ? { paxType: it.paxType } : {}) };
}
