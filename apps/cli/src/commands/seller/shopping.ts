import type { Offer, SelectedOffer } from "@ndc-gateway/client";
import { positional, required, Usage, type Parsed } from "../args";
import { client, type SellerContext } from "./context";
import { money } from "./format";
import { partyOf } from "./party";

/** `seller token`, `seller shop`, `seller price`, `seller seats`. */


/** An offer item as the CLI prints it and reads it back: ITEM_ID:PAX1,PAX2 */
export const itemArg = (i: { offerItemId: string; paxRefIds: string[] }) => `${i.offerItemId}:${i.paxRefIds.join(",")}`;

function date(p: Parsed): string {
  const d = required(p, "date");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d))) throw new Usage(`--date must be YYYY-MM-DD, got ${d}`);
  return d;
}

export function shopRequestOf(p: Parsed) {
  return { origin: required(p, "from").toUpperCase(), destination: required(p, "to").toUpperCase(), date: date(p), passengers: partyOf(p), cabin: p.flags.get("cabin"), currency: p.flags.get("currency") };
}

export async function token(ctx: SellerContext): Promise<void> {
  positional(ctx.p, 0, "no arguments");
  const c = client(ctx);
  const t = await ctx.progress("token", c.tokens!.get());
  const expiresIn = Math.round((t.expiresAt - Date.now()) / 1000);
  ctx.print([`access_token: ${t.accessToken}`, `scope: ${t.scope}`, `expires_in: ${expiresIn} s`], { access_token: t.accessToken, scope: t.scope, expires_in: expiresIn });
}

export function offerLines(offers: Offer[]): string[] {
  return [["OFFER_ID", "BRAND", "TOTAL", "ITEMS (ITEM_ID:PAX)"].join("\t"), ...offers.map((o) => [o.offerId, o.brand ?? "-", money(o.total), o.items.map(itemArg).join(" ")].join("\t"))];
}

export async function shop(ctx: SellerContext): Promise<void> {
  positional(ctx.p, 0, "no positional arguments");
  const r = await ctx.progress("AirShoppingRQ", client(ctx).shop(shopRequestOf(ctx.p)));
  ctx.print(r.offers.length ? [`${r.offers.length} offers`, ...offerLines(r.offers)] : "no offers", { offers: r.offers, warnings: r.warnings });
}

/** `OFFER_ID ITEM_ID:PAX1,PAX2 ...` as the shop output prints them. */
function selection(args: string[]): SelectedOffer {
  const [offerId, ...items] = args;
  if (!offerId || !items.length) throw new Usage("expected OFFER_ID and one or more ITEM_ID:PAX1,PAX2 (as `seller shop` prints them)");
  return {
    offerId,
    ownerCode: "",
    items: items.map((i) => {
      const [id, pax] = i.split(":");
      if (!id || !pax) throw new Usage(`item "${i}" must be ITEM_ID:PAX1[,PAX2...]`);
      return { offerItemId: id, paxRefIds: pax.split(",") };
    }),
  };
}

export async function price(ctx: SellerContext): Promise<void> {
  const c = client(ctx);
  const sel = selection(ctx.p.positional);
  sel.ownerCode = await c.carrier();
  const r = await ctx.progress("OfferPriceRQ", c.price({ offers: [sel], currency: ctx.p.flags.get("currency") }));
  ctx.print([`priced offer ${r.offer.offerId}: ${money(r.offer.total)} (expires ${r.offer.expiresAt ?? "-"})`, ...r.warnings.map((w) => `warning ${w.code}: ${w.text}`)], { offer: r.offer, warnings: r.warnings });
}

export async function seats(ctx: SellerContext): Promise<void> {
  const c = client(ctx);
  const order = ctx.p.flags.get("order");
  const [offerId] = order ? positional(ctx.p, 0, "no positional argument with --order") : positional(ctx.p, 1, "an OFFER_ID (or --order ORDER_ID)");
  const ownerCode = await c.carrier();
  const r = await ctx.progress("SeatAvailabilityRQ", c.seats(order ? { orderId: order, ownerCode } : { offerId: offerId!, ownerCode }));
  const prices = new Map(r.offers.flatMap((o) => o.items.map((i) => [i.offerItemId, { offerId: o.offerId, price: i.price }] as const)));
  const free = r.seats.filter((s) => s.status === "F" && s.offerItemId);
  ctx.print(
    [`${free.length} seats for sale of ${r.seats.length}`, ["SEAT", "PRICE", "OFFER_ID", "ITEM_ID"].join("\t"), ...free.map((s) => [`${s.row}${s.column}`, money(prices.get(s.offerItemId!)?.price), prices.get(s.offerItemId!)?.offerId ?? "-", s.offerItemId].join("\t"))],
    { seats: r.seats, offers: r.offers },
  );
}

/** The shop of `seller book` (and certify): the first offer, or the first of a brand. */
export function pickOffer(offers: Offer[], brand?: string): Offer {
  const o = brand ? offers.find((x) => x.brand === brand.toUpperCase()) : offers[0];
  if (!o) throw new Error(brand ? `no ${brand.toUpperCase()} offer in the answer (brands: ${[...new Set(offers.map((x) => x.brand))].join(", ")})` : "no offer in the answer");
  return o;
}

