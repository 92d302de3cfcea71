import { findAgency, isRegistryError, requireAgency } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import { closeSettlementAccount, openSettlementAccount, SettlementAccountInvalid, settlementAccountsOf, type SettlementAccountView } from "@ndc/payments";
import { appendAudit, recordAudit, statedReason } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";
import { optionalText } from "./fields";

/**
 * An agency's settlement accounts from the console (issue 19 item 15; spec 4.4 rule 6): listed
 * by supervisors and admins (sellers.read, like the rest of an agency's agreements), opened and
 * closed by admins (sellers.register: what a seller may buy on credit is the registry's
 * administration, like its commission). The rules are @ndc/payments' (settlement/accounts.ts);
 * each change's audit row, with its reason, commits in the change's own write.
 */

const unknownAgency = () => new GatewayError("staff_target_not_found", { detail: "No agency with this id is registered.", element: "agencyId" });

/** The payments domain's refusal, named for the caller: a missing account is not found, the rest name the field. */
function refusal(e: unknown): unknown {
  if (e instanceof SettlementAccountInvalid) return new GatewayError(e.notFound ? "staff_target_not_found" : "request_invalid", { detail: e.message, element: e.field });
  if (isRegistryError(e) && e.code === "unknown_agency") return unknownAgency();
  return e;
}

const describe = (a: SettlementAccountView) => `${a.accountId} ${a.method} ${a.currency} credit limit ${a.creditLimit}`;

/** GET: every account of the agency, open and closed. */
export async function settlementAccounts(deps: StaffDeps, caller: StaffCaller, agencyId: string) {
  await requireRight(deps, caller, "sellers.read", { action: "settlement.view" });
  const agency = await findAgency(deps.store.db, agencyId);
  if (!agency || agency.agencyId !== agencyId) throw unknownAgency();
  const accounts = await settlementAccountsOf(deps.store.db, agencyId);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "settlement.view", outcome: "ok", detail: `agency ${agencyId}` });
  return { agencyId, accounts };
}

/** POST: opens the agency's account of a method and currency with a credit limit (a closed one is opened again). */
export async function openAccount(deps: StaffDeps, caller: StaffCaller, agencyId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "settlement.open" });
  const { reason } = statedReason(body, false);
  const input = {
    method: optionalText(body, "method", 2) ?? "",
    currency: optionalText(body, "currency", 3) ?? "",
    creditLimit: typeof body.creditLimit === "number" ? String(body.creditLimit) : (optionalText(body, "creditLimit", 20) ?? ""),
  };
  const now = deps.clock.now();
  try {
    return await deps.store.write(async (tx) => {
      // An agency named by its IATA number is not this path's agency: the path names the id.
      if ((await requireAgency(tx, agencyId)).agencyId !== agencyId) throw unknownAgency();
      const { account, reopened } = await openSettlementAccount(tx, agencyId, input);
      await appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "settlement.open", outcome: "ok", reason, detail: `agency ${agencyId} ${reopened ? "reopened" : "opened"} ${describe(account)}` });
      return { agencyId, account, reopened };
    });
  } catch (e) {
    throw refusal(e);
  }
}

/** POST: closes one open account; the agency's next settlement-plan leg on it is declined. */
export async function closeAccount(deps: StaffDeps, caller: StaffCaller, agencyId: string, accountId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "settlement.close" });
  const { reason } = statedReason(body, false);
  const now = deps.clock.now();
  try {
    return await deps.store.write(async (tx) => {
      if ((await requireAgency(tx, agencyId)).agencyId !== agencyId) throw unknownAgency();
      const account = await closeSettlementAccount(tx, agencyId, accountId);
      await appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "settlement.close", outcome: "ok", reason, detail: `agency ${agencyId} closed ${describe(account)}; used ${account.used}, pending ${account.pending}` });
      return { agencyId, account };
    });
  } catch (e) {
    throw refusal(e);
  }
}
