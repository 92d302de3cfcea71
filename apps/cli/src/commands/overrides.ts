import { brokenAt, listOverrides } from "@ndc/orders";
import type { Store } from "@ndc/store";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const OVERRIDES_USAGE = `usage: ndc-gateway overrides <command>
  list      the airline's fare-rule overrides, oldest first: when, who, order, operation, the rule overridden
  verify    checks the hash chain of the audit trail; exit 1 naming the first row that does not hold`;

/**
 * `overrides ...`: the append-only, hash-chained audit trail of the airline's own staff
 * overriding a fare rule (spec 4.7 SHPOR1 rule 4; table servicing_overrides, migration 0030).
 * Reads the database directly, beside a running gateway.
 */
export async function overridesCommand(args: string[], io: CliIo, deps: { store?: Store } = {}): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(OVERRIDES_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== "list" && sub !== "verify") throw new UsageError(`overrides: unknown command "${sub}"\n${OVERRIDES_USAGE}`);
  if (rest.length) throw new UsageError(`overrides ${sub}: unexpected argument ${rest[0]}`);
  return withStaffStore(io, deps.store, async (store) => {
    const rows = await listOverrides(store);
    if (sub === "verify") {
      const broken = brokenAt(rows);
      if (broken !== undefined) {
        io.err(`audit trail broken at seq ${broken}`);
        return 1;
      }
      io.out(`audit trail holds: ${rows.length} rows`);
      return 0;
    }
    if (rows.length === 0) io.out("no overrides recorded");
    for (const r of rows) {
      io.out(`${r.seq}  ${new Date(r.at).toISOString()}  ${r.channel} ${r.staffId}  order ${r.orderId}  operation ${r.operationId}  overrode ${r.ruleCode}: ${r.ruleText}  hash ${r.hash.slice(0, 16)}`);
    }
    return 0;
  });
}
