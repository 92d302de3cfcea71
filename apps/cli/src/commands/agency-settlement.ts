import { isRegistryError, requireAgency, RegistryError } from "@ndc/auth";
import { closeSettlementAccount, openSettlementAccount, SettlementAccountInvalid, settlementAccountsOf } from "@ndc/payments";
import type { Store } from "@ndc/store";
import { parse, positional, required, Usage } from "./args";

/**
 * `ndc-gateway agency settlement open|list|close` (issue 19 item 15): an agency's settlement
 * accounts (CA BSP cash, DP ARC, MS direct bill; docs/payments.md "Settlement accounts"), by the
 * rules of @ndc/payments that the staff console uses too. A refusal is the registry's exit 1.
 */
export const SETTLEMENT_USAGE = `  ndc-gateway agency settlement open AGENCY --method CA|DP|MS --currency CUR --credit-limit AMOUNT
  ndc-gateway agency settlement list AGENCY
  ndc-gateway agency settlement close AGENCY ACCOUNT_ID`;

interface Io {
  store: Store;
  out: (line: string) => void;
}

/** The payments domain's refusal as the registry's (exit 1 with its message). */
async function refused<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof SettlementAccountInvalid) throw new RegistryError("invalid_argument", e.message);
    throw e;
  }
}

export async function agencySettlementCommand(args: string[], io: Io): Promise<void> {
  const [verb, ...rest] = args;
  if (verb === "open") {
    const p = parse(rest, ["method", "currency", "credit-limit"]);
    const [agencyRef] = positional(p, 1, "an agency");
    const input = { method: required(p, "method"), currency: required(p, "currency"), creditLimit: required(p, "credit-limit") };
    const { account: a, reopened } = await refused(() =>
      io.store.write(async (tx) => openSettlementAccount(tx, (await requireAgency(tx, agencyRef!)).agencyId, input)),
    );
    io.out(`settlement account ${a.accountId} ${reopened ? "reopened" : "opened"} for agency ${a.agencyId}: ${a.method} (${a.methodName}) in ${a.currency}, credit limit ${a.creditLimit}, headroom ${a.headroom}`);
    return;
  }
  if (verb === "list") {
    const [agencyRef] = positional(parse(rest, []), 1, "an agency");
    const agency = await requireAgency(io.store.db, agencyRef!);
    const accounts = await settlementAccountsOf(io.store.db, agency.agencyId);
    if (!accounts.length) return io.out(`agency ${agency.agencyId} holds no settlement account`);
    io.out(["ACCOUNT_ID", "METHOD", "CURRENCY", "CREDIT_LIMIT", "USED", "PENDING", "HEADROOM", "STATE"].join("\t"));
    for (const a of accounts) io.out([a.accountId, a.method, a.currency, a.creditLimit, a.used, a.pending, a.headroom, a.state].join("\t"));
    return;
  }
  if (verb === "close") {
    const [agencyRef, accountId] = positional(parse(rest, []), 2, "an agency and an account id");
    const a = await refused(() => io.store.write(async (tx) => closeSettlementAccount(tx, (await requireAgency(tx, agencyRef!)).agencyId, accountId!)));
    io.out(`settlement account ${a.accountId} of agency ${a.agencyId} closed: its next settlement-plan payment is refused (used ${a.used}, pending ${a.pending} ${a.currency} stay as they are)`);
    return;
  }
  throw new Usage(`unknown command: agency settlement ${verb ?? ""}`.trim());
}
