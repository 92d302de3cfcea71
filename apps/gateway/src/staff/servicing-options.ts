import type { SeatAvailabilityRequest, ServiceListRequest } from "@ndc/messages";
import { recordAudit } from "@ndc/staff";
import { SeatAvailability, ServiceList, type ALaCartePayload } from "@ndc/shopping";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";
import { amountOf } from "./servicing-json";

/**
 * What the airline's staff may add to a booked order (issue 12 item 6, ORDRE2): its airline
 * extras and the seats for sale on its flights, listed by the same domains as ServiceListRQ and
 * SeatAvailabilityRQ naming the order (same items, same prices), as a-la-carte offers of the
 * staff's own for the order (OrdersService.staffOfferOwner), which the add quote then takes.
 */
export async function servicingOptions(deps: StaffDeps, caller: StaffCaller, orderId: string) {
  await requireRight(deps, caller, "orders.service.quote", { action: "order.options", orderId });
  const { ctx } = deps.orders;
  const owner = await deps.orders.staffOfferOwner(orderId, caller.session.staffId);
  const base = { supply: ctx.supply, offers: ctx.offers, clock: ctx.clock, orders: (id: string) => deps.orders.bookedOrderAsStaff(id) };
  // ServiceListRQ and SeatAvailabilityRQ naming the order, every item, in the order's currency and English.
  const target = { form: "order" as const, order: { orderId, ownerCode: ctx.ownerCode, items: [] } };
  const preferences = { langUsage: [] };
  const extras = await new ServiceList(base).list({ target, serviceCriteria: [], passengers: [], preferences } satisfies ServiceListRequest, owner);
  const inventory = {
    async takenSeats(flightKey: string) {
      const a = await ctx.inventory.seatAvailability(flightKey);
      return new Set(a.seats.filter((s) => s.status === "held" || s.status === "sold").map((s) => s.seatId));
    },
  };
  const seats = await new SeatAvailability({ ...base, inventory }).seatMaps({ target, passengers: [], preferences } satisfies SeatAvailabilityRequest, owner);
  const names = new Map(extras.dataLists.serviceDefinitions.map((d) => [d.serviceDefinitionId, d.name]));
  const extrasOffer = extras.aLaCarteOffer ? await ctx.offers.resolve<ALaCartePayload>(extras.aLaCarteOffer.offerId, owner) : undefined;
  const seatsOffer = seats.aLaCarteOffer?.items.length ? await ctx.offers.resolve<ALaCartePayload>(seats.aLaCarteOffer.offerId, owner) : undefined;
  const viewed = new Map((extras.aLaCarteOffer?.items ?? []).map((i) => [i.offerItemId, i]));
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "order.options", outcome: "ok", orderId, detail: `${extrasOffer?.payload.items.length ?? 0} extras, ${seatsOffer?.payload.items.length ?? 0} seats listed` });
  const cur = (p: ALaCartePayload | undefined) => p?.currency ?? "";
  return {
    orderId,
    extras: extrasOffer
      ? {
          offerId: extrasOffer.offerId,
          expiresAt: new Date(extrasOffer.expiresAt).toISOString(),
          currency: cur(extrasOffer.payload),
          items: extrasOffer.payload.items.map((i) => {
            const v = viewed.get(i.offerItemId);
            return { offerItemId: i.offerItemId, kind: i.kind, name: (v && names.get(v.serviceDefinitionId)) ?? i.ref ?? i.kind, ...(i.ref ? { ref: i.ref } : {}), paxIds: i.paxIds, flightKeys: i.flightKeys ?? [], unitPrice: amountOf(i.unitMinor ?? i.totalMinor, cur(extrasOffer.payload)) };
          }),
        }
      : null,
    seats: seatsOffer
      ? {
          offerId: seatsOffer.offerId,
          expiresAt: new Date(seatsOffer.expiresAt).toISOString(),
          currency: cur(seatsOffer.payload),
          // One item per seat for sale; a seat is bought for one of `paxIds`.
          items: seatsOffer.payload.items.map((i) => ({ offerItemId: i.offerItemId, seatId: i.ref ?? "", flightKey: i.flightKeys?.[0] ?? "", paxIds: i.paxIds, price: amountOf(i.totalMinor, cur(seatsOffer.payload)) })),
        }
      : null,
  };
}
export type ServicingOptions = Awaited<ReturnType<typeof servicingOptions>>;
