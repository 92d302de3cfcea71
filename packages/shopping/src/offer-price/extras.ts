import { GatewayError } from "@ndc/errors";
import {
  catalogueService,
  convert,
  partnerProduct,
  priceBundle,
  pricePartnerProduct,
  priceRide,
  priceService,
  rideByCode,
  serviceBundle,
  type AdjustableKind,
  type Flight,
  type PaxType,
  type Supply,
} from "@ndc/supply";
import type { CurrencyCode } from "@ndc/money";
import type { OfferServiceView, TaxonomyView } from "../model";
import { ids } from "../common/ids";
import { chargedUnits, extraCharge } from "../offers/extra-charge";
import type { DataListsBuilder } from "../views/data-lists";
import { taxonomyView } from "../views/data-lists";
import type { ChosenExtra } from "./selection";

/** An extra re-priced for this request: unit price now, units bought, and how to show it. */
export interface PricedExtra {
  offerItemId: string;
  kind: AdjustableKind;
  unitMinor: number;
  /** Units charged (offers/extra-charge.ts): quantity x passengers (per-passenger products), else quantity. */
  units: number;
  /** unitMinor x units: what the extra costs before promotions. */
  chargeMinor: number;
  paxIds: string[];
  service: OfferServiceView;
  taxonomy: TaxonomyView[];
  stored: ChosenExtra;
}

const KIND: Readonly<Record<string, AdjustableKind>> = { service: "service", bundle: "bundle", seat: "seat", ride: "ride", partner_product: "partner" };

function flightsOf(supply: Supply, keys: readonly string[] | undefined, itemId: string): Flight[] {
  const flights = (keys ?? []).map((k) => supply.flight(k));
  if (flights.some((f) => !f)) throw new GatewayError("flight_not_found", { detail: `A flight of item ${itemId.slice(0, 64)} is no longer sold.` });
  return flights as Flight[];
}

/**
 * The firm unit price of an extra: re-priced from the catalogue (or the seat map) in the
 * requested currency, never taken from what the seller sends. An item stored without the facts
 * needed to re-price it keeps its stored unit price, converted when the currency differs.
 */
function unitPrice(supply: Supply, x: ChosenExtra, currency: CurrencyCode): number {
  const it = x.item;
  const ptc = it.paxType as PaxType | undefined;
  const flights = it.flightKeys ? flightsOf(supply, it.flightKeys, it.offerItemId) : undefined;
  if (it.ref && flights?.length) {
    switch (it.kind) {
      case "service":
        if (catalogueService(it.ref)) return priceService(supply.seed, it.ref, flights, ptc ?? "ADT", currency).unitPrice.amount;
        break;
      case "bundle":
        if (serviceBundle(it.ref)) return priceBundle(supply.seed, it.ref, flights, ptc ?? "ADT", currency).unitPrice.amount;
        break;
      case "ride":
        if (rideByCode(it.ref)) return priceRide(supply.seed, it.ref, flights[0]!, ptc, currency).unitPrice.amount;
        break;
      case "partner_product":
        if (partnerProduct(it.ref)) return pricePartnerProduct(supply.seed, it.ref, flights, currency).unitPrice.amount;
        break;
      case "seat": {
        const map = supply.seatMap(flights[0]!.key, currency);
        const seat = map?.cabins.flatMap((c) => c.seats).find((s) => s.id === it.ref);
        if (seat) return seat.price.amount;
        break;
      }
    }
  }
  const stored = it.unitMinor ?? it.totalMinor;
  return convert({ amount: stored, currency: x.currency as CurrencyCode }, currency).amount;
}

function definition(x: ChosenExtra, lists: DataListsBuilder): { id?: string; taxonomy: TaxonomyView[] } {
  const ref = x.item.ref ?? "";
  if (x.item.kind === "service") {
    const s = catalogueService(ref);
    if (s) return { id: lists.service(s), taxonomy: taxonomyView(s.taxonomyCode) };
  }
  if (x.item.kind === "bundle" && serviceBundle(ref)) return { id: ids.serviceDefinition(ref), taxonomy: [] };
  if (x.item.kind === "ride") return { id: ids.serviceDefinition(ref), taxonomy: taxonomyView(rideByCode(ref)?.taxonomyCode) };
  if (x.item.kind === "partner_product") return { id: ids.serviceDefinition(ref), taxonomy: taxonomyView(partnerProduct(ref)?.taxonomyCode) };
  return { taxonomy: [] };
}

export function priceExtras(supply: Supply, extras: readonly ChosenExtra[], currency: CurrencyCode, lists: DataListsBuilder): PricedExtra[] {
  return extras.map((x) => {
    // The rule OrderCreateRQ applies to a direct booking too (offers/extra-charge.ts).
    const units = chargedUnits(x.item, x.paxIds, x.qty);
    const unitMinor = unitPrice(supply, x, currency);
    const def = definition(x, lists);
    const segment = x.item.flightKeys?.[0];
    const association: OfferServiceView["association"] =
      x.seat && segment
        ? { kind: "seat", row: x.seat.row, column: x.seat.column, paxSegmentId: ids.segment(segment) }
        : { kind: "serviceDefinition", serviceDefinitionId: def.id ?? ids.serviceDefinition(x.item.ref ?? x.item.kind) };
    return {
      offerItemId: x.item.offerItemId,
      kind: KIND[x.item.kind] ?? "service",
      unitMinor,
      units,
      chargeMinor: extraCharge(unitMinor, x.item, x.paxIds, x.qty),
      paxIds: x.paxIds,
      service: { serviceId: `${x.item.offerItemId}-SV`, paxIds: x.paxIds, association },
      taxonomy: def.taxonomy,
      stored: x,
    };
  });
}
