import { GatewayError } from "@ndc/errors";
import { catalogueService, serviceBundle } from "@ndc/supply";
import type { Order, OrderItem } from "../state";
import { conditionsOfOrder, type DirectionConditions } from "./frozen";

/**
 * A customer's Flexibility service (spec 3 "Other rules tied to state", 4.7 SHPOR1 rule 4): an
 * order holding an active, unused one is changeable under its terms whatever its fare says; it
 * is spent once, and only when the request asks to use it. The supply catalogue models it as
 * the service of kind `flexibility` (FLEX, sold a la carte, per journey) and as a component of
 * a bundle (BNDL-WORK). Its terms: changes and name corrections of the directions it covers are
 * allowed, at the fee of the time-to-departure band like a changeable fare.
 */
export const FLEXIBILITY_TERMS = { changeable: true, renameable: true } as const;

export interface FlexibilityHeld {
  orderItemId: string;
  /** FLEX a la carte, or the bundle carrying it. */
  code: string;
  via: "a_la_carte" | "bundle";
  /** Directions (paxJourneyId) it covers: those of its flights, every direction when it names none. */
  paxJourneyIds: string[];
  /** Set once it has been spent: the change that used it. */
  usedBy?: string;
}

/** Whether an item is, or carries, the catalogue's Flexibility service. */
function flexibilityVia(item: OrderItem): FlexibilityHeld["via"] | undefined {
  if (!item.ref) return undefined;
  if (item.kind === "service" && catalogueService(item.ref)?.kind === "flexibility") return "a_la_carte";
  if (item.kind === "bundle" && serviceBundle(item.ref)?.components.some((c) => catalogueService(c.serviceCode)?.kind === "flexibility")) return "bundle";
  return undefined;
}

/** Every Flexibility the order holds, spent or not. */
export function flexibilityOf(order: Pick<Order, "items" | "journeys" | "flexibilityUsed">): FlexibilityHeld[] {
  return order.items.flatMap((item) => {
    const via = flexibilityVia(item);
    if (!via) return [];
    const keys = item.flightKeys ?? [];
    const covered = order.journeys.filter((j) => keys.length === 0 || j.flightKeys.some((k) => keys.includes(k))).map((j) => j.paxJourneyId);
    const used = order.flexibilityUsed?.find((u) => u.orderItemId === item.orderItemId);
    return [{ orderItemId: item.orderItemId, code: item.ref!, via, paxJourneyIds: covered, ...(used ? { usedBy: used.changeRef } : {}) }];
  });
}

export type ChangeWhat = "change" | "rename";

/** How a change was judged allowed: by the fare, by a Flexibility spent on it, or by the airline's override. */
export interface Allowance {
  by: "fare" | "flexibility" | "override";
  /** The Flexibility item spent (by: flexibility). */
  flexibilityItemId?: string;
  /** The fare rule the airline's own channel overrode (by: override): the refusal a seller would get, in English. */
  overridden?: { ruleCode: string; ruleText: string };
}

const allows = (d: DirectionConditions, what: ChangeWhat) => (what === "change" ? d.changeable : d.renameable);

/**
 * The one judgement of changeability servicing uses (renames here; flight changes may call it):
 * the direction's frozen fare first; when the fare says no and the request asks to use
 * Flexibility, an unspent Flexibility covering the direction allows it; otherwise `refusal`
 * (fare_not_changeable / fare_not_renameable). A Flexibility is never spent unasked.
 * `airline`: the airline's own channel (SHPOR1 rule 4) is never refused by the fare: where a
 * seller would be refused it is allowed `by: "override"`, naming the rule, for the caller to
 * record on the change and in the audit trail (servicing/override/audit.ts).
 */
export function judgeChange(order: Order, what: ChangeWhat, o: { paxJourneyId?: string; useFlexibility: boolean; airline?: boolean }): Allowance {
  const directions = conditionsOfOrder(order).conditions.directions;
  const d = (o.paxJourneyId ? directions.find((x) => x.paxJourneyId === o.paxJourneyId) : undefined) ?? directions[0];
  if (d && allows(d, what)) return { by: "fare" };
  const refusal = what === "change" ? "fare_not_changeable" : "fare_not_renameable";
  const detail = `Brand ${d?.brandCode ?? "(none)"} does not allow ${what === "change" ? "changes" : "name changes"}`;
  const unspent = flexibilityOf(order).find((f) => !f.usedBy && (!d || f.paxJourneyIds.includes(d.paxJourneyId)));
  if (o.airline && !(o.useFlexibility && unspent)) return { by: "override", overridden: { ruleCode: refusal, ruleText: `${detail}.` } };
  if (!o.useFlexibility) {
    throw new GatewayError(refusal, { detail: unspent ? `${detail}; the order holds an unused Flexibility service: ask to use it (OrderChangeParameters/ReasonCode FLEXIBILITY).` : `${detail}.` });
  }
  const flex = unspent;
  if (!flex) {
    const spent = flexibilityOf(order).some((f) => f.usedBy);
    throw new GatewayError(spent ? "flexibility_already_used" : "flexibility_not_held", { detail: `${detail}, and the order holds no unused Flexibility service for it.` });
  }
  return { by: "flexibility", flexibilityItemId: flex.orderItemId };
}

/** The actor's check inside the change's own decision: a Flexibility is spent once, whatever raced for it. */
export function assertFlexibilityUnspent(order: Order, orderItemId: string): void {
  if (order.flexibilityUsed?.some((u) => u.orderItemId === orderItemId)) throw new GatewayError("flexibility_already_used");
}
