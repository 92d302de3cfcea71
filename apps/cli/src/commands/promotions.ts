import { PromotionCriteria } from "@ndc/shopping";
import type { Store } from "@ndc/store";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const PROMOTIONS_USAGE = `usage: ndc-gateway promotions <command>
  status    whether the promotion criteria are switched on, and who changed them last
  on        switch the criteria on: OfferPrice applies the NDC auto-apply rules again
  off       switch them off: OfferPrice asks the promotions engine nothing (no discount, no surcharge) and warns`;

/**
 * `promotions status|on|off` (issue 19 item 18; spec 4.5 rule 4): the operator's switch of the
 * promotion criteria, the one the staff API's /staff/api/promotions sets (@ndc/shopping
 * offer-price/criteria.ts). Works beside a running gateway: its next OfferPrice sees the change.
 */
export async function promotionsCommand(args: string[], io: CliIo, deps: { store?: Store; now?: () => number } = {}): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(PROMOTIONS_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== "status" && sub !== "on" && sub !== "off") throw new UsageError(`promotions: unknown command "${sub}"\n${PROMOTIONS_USAGE}`);
  if (rest.length) throw new UsageError(`promotions ${sub}: unexpected argument ${rest[0]}`);
  return withStaffStore(io, deps.store, async (store) => {
    const criteria = new PromotionCriteria(store);
    if (sub !== "status") await criteria.set(sub === "on", "cli", (deps.now ?? Date.now)());
    const s = await criteria.state();
    const last = s.changedAt === undefined ? "never changed (on by default)" : `changed ${new Date(s.changedAt).toISOString()} by ${s.changedBy}`;
    io.out(`promotion criteria ${s.switchedOn ? "on" : "off"}: ${last}`);
    return 0;
  });
}
