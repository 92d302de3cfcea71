import { eq } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import { promotionCriteria as T } from "../tables/promotion-criteria";

/**
 * The operator's switch of the promotion criteria (spec 4.5 rule 4: "criteria not switched on" is
 * one of the ways the promotions engine cannot be asked; issue 19 item 18). Off, OfferPrice asks
 * the engine nothing: prices carry no adjustments at all, surcharges included, and a Warning
 * (promotions_unavailable) says the criteria are switched off. Kept in the store, so every gateway
 * process sees a change on its next OfferPrice; with no row yet the criteria are on, as they were
 * before the switch existed.
 */
export interface CriteriaState {
  switchedOn: boolean;
  /** Absent until an operator first set it. */
  changedAt?: number;
  changedBy?: string;
}

export class PromotionCriteria {
  constructor(private readonly store: Pick<Store, "db" | "write">) {}

  async state(db: StoreDb = this.store.db): Promise<CriteriaState> {
    const [row] = await db.select().from(T).where(eq(T.id, 1));
    return row ? { switchedOn: row.switchedOn === 1, changedAt: row.changedAt, changedBy: row.changedBy } : { switchedOn: true };
  }

  async switchedOn(): Promise<boolean> {
    return (await this.state()).switchedOn;
  }

  /**
   * Sets the switch; `by` names who (a staff member, the CLI). `alsoInTransaction` writes the
   * record of the change (the staff audit row) in the same transaction. Returns the state before.
   */
  async set(switchedOn: boolean, by: string, now: number, alsoInTransaction?: (tx: StoreDb, before: CriteriaState) => Promise<unknown>): Promise<CriteriaState> {
    return this.store.write(async (tx) => {
      const before = await this.state(tx);
      const row = { id: 1, switchedOn: switchedOn ? 1 : 0, changedAt: now, changedBy: by };
      await tx.insert(T).values(row).onConflictDoUpdate({ target: T.id, set: { switchedOn: row.switchedOn, changedAt: now, changedBy: by } });
      await alsoInTransaction?.(tx, before);
      return before;
    });
  }
}
