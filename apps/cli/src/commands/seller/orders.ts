import { selectAll, type OrderView } from "@ndc-gateway/client";
import { positional } from "../args";
import { client, type SellerContext } from "./context";
import { money } from "./format";
import { passengersOf } from "./party";
import { pickOffer, shopRequestOf } from "./shopping";

/** `seller book`, `seller retrieve`, `seller list`, `seller cancel`. */


function orderLines(o: OrderView): string[] {
  return [
    `order ${o.orderId}: ${o.status}, total ${money(o.total)}${o.paymentTimeLimit ? `, pay by ${o.paymentTimeLimit}` : ""}`,
    ...o.passengers.map((p) => `  ${p.paxId} ${p.ptc} ${p.givenName ?? ""} ${p.surname ?? ""}`.trimEnd()),
    ...o.items.map((i) => `  item ${i.orderItemId} ${i.status ?? ""} ${money(i.price)}`),
    ...o.warnings.map((w) => `  warning ${w.code}: ${w.text}`),
  ];
}

const view = (o: OrderView) => ({ orderId: o.orderId, status: o.status, total: o.total, paymentTimeLimit: o.paymentTimeLimit, passengers: o.passengers, items: o.items, warnings: o.warnings });

/**
 * Shops, takes the first offer (or `--brand`), and books it: held unpaid, or paid with
 * `--card-token` (a PSP token, never a card number). The party is checked before the shop is sent.
 */
export async function book(ctx: SellerContext): Promise<void> {
  positional(ctx.p, 0, "no positional arguments");
  const shopRq = shopRequestOf(ctx.p);
  const passengers = passengersOf(ctx.p, shopRq.passengers, shopRq.date, new Date().toISOString().slice(0, 10));
  const c = client(ctx);
  const shopped = await ctx.progress("AirShoppingRQ", c.shop(shopRq));
  const offer = pickOffer(shopped.offers, ctx.p.flags.get("brand"));
  const card = ctx.p.flags.get("card-token");
  const order = await ctx.progress(
    "OrderCreateRQ",
    c.create({ offers: [selectAll(offer)], passengers, payment: card && offer.total ? { ...offer.total, cardToken: card } : undefined }),
  );
  ctx.print([`booked ${offer.brand ?? ""} offer ${offer.offerId}`.replace("  ", " "), ...orderLines(order), `CorrelationID ${order.correlationId}, TrxID ${order.trxId}`], {
    offerId: offer.offerId,
    ...view(order),
    correlationId: order.correlationId,
    trxId: order.trxId,
  });
}

export async function retrieve(ctx: SellerContext): Promise<void> {
  const [orderId] = positional(ctx.p, 1, "an ORDER_ID");
  const c = client(ctx);
  const o = await ctx.progress("OrderRetrieveRQ", c.retrieve({ orderId: orderId!, ownerCode: await c.carrier() }));
  ctx.print(orderLines(o), view(o));
}

export async function list(ctx: SellerContext): Promise<void> {
  positional(ctx.p, 0, "no positional arguments");
  const r = await ctx.progress("OrderListRQ", client(ctx).list({ createdFrom: ctx.p.flags.get("since") }));
  ctx.print(
    r.orders.length ? [["ORDER_ID", "STATUS", "CREATED", "ROUTE", "DEPARTS"].join("\t"), ...r.orders.map((o) => [o.orderId, o.status ?? "-", o.createdAt ?? "-", `${o.origin ?? "?"}-${o.destination ?? "?"}`, o.departureDate ?? "-"].join("\t"))] : "no orders",
    { orders: r.orders, warnings: r.warnings },
  );
}

/** The cancel quote (what is refunded), then its acceptance. */
export async function cancel(ctx: SellerContext): Promise<void> {
  const [orderId] = positional(ctx.p, 1, "an ORDER_ID");
  const c = client(ctx);
  const r = await ctx.progress("OrderReshopRQ + OrderChangeRQ", c.cancel({ orderId: orderId!, ownerCode: await c.carrier() }));
  const refund = r.quote.offers[0]?.total;
  ctx.print([`refund ${money(refund)} (quote ${r.quote.offers[0]?.offerId})`, ...orderLines(r.view)], { refund, quoteId: r.quote.offers[0]?.offerId, ...view(r.view) });
}
