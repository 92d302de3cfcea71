import { isRegistryError, requireAgency, RegistryError } from "@ndc/auth";
import { closeSettlementAccount, openSettlementAccount, SettlementAccountInvalid, settlementAccountsOf } from "@ndc/payments";
import type { Store } from "@ndc/store";

/**
 * `ndc-gateway agency settlement open|list|close` (issue 19 item 15): an agency's settlement
 * accounts (CA BSP cash, DP ARC, MS direct bill; docs/payments.md "Settlement accounts"), by the
 * rules of @ndc/payments that the staff console uses too. A refusal is the registry's exit 1.
 */
export const SETTLEMENT_USAGE = `  ndc-gateway agency settlement open AGENCY --method CA|DP|MS --currency CUR --credit-limit AMOUNT
  ndc-gateway agency settlement list AGENCY
  ndc-gateway agency settlement close AGENCY ACCOUNT_ID`;

export class SettlementUsage extends Error {}

interface Io {
  store: Store;
  out: (line: string) => void;
}

function parse(args: readonly string[], allowed: readonly string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!allowed.includes(name)) throw new SettlementUsage(`unknown option --${name}`);
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) throw new SettlementUsage(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { positional, flags };
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
    const need = (n: string): string => {
      const v = p.flags.get(n);
      if (!v) throw new SettlementUsage(`--${n} is required`);
      return v;
    };
    if (p.positional.length !== 1) throw new SettlementUsage("expected an agency");
    const input = { method: need("method"), currency: need("currency"), creditLimit: need("credit-limit") };
    const { account: a, reopened } = await refused(() =>
      io.store.write(async (tx) => openSettlementAccount(tx, (await requireAgency(tx, p.positional[0]!)).agencyId, input)),
    );
    io.out(`settlement account ${a.accountId} ${reopened ? "reopened" : "opened"} for agency ${a.agencyId}: ${a.method} (${a.methodName}) in ${a.currency}, credit limit ${a.creditLimit}, headroom ${a.headroom}`);
    return;
  }
  if (verb === "list") {
    const p = parse(rest, []);
    if (p.positional.length !== 1) throw new SettlementUsage("expected an agency");
    const agency = await requireAgency(io.store.db, p.positional[0]!);
    const accounts = await settlementAccountsOf(io.store.db, agency.agencyId);
    if (!accounts.length) return io.out(`agency ${agency.agencyId} holds no settlement account`);
    io.out(["ACCOUNT_ID", "METHOD", "CURRENCY", "CREDIT_LIMIT", "USED", "PENDING", "HEADROOM", "STATE"].join("\t"));
    for (const a of accounts) io.out([a.accountId, a.method, a.currency, a.creditLimit, a.used, a.pending, a.headroom, a.state].join("\t"));
    return;
  }
  if (verb === "close") {
    const p = parse(rest, []);
    if (p.positional.length !== 2) throw new SettlementUsage("expected an agency and an account id");
    const a = await refused(() => io.store.write(async (tx) => closeSettlementAccount(tx, (await requireAgency(tx, p.positional[0]!)).agencyId, p.positional[1]!)));
    io.out(`settlement account ${a.accountId} of agency ${a.agencyId} closed: its next settlement-plan payment is refused (used ${a.used}, pending ${a.pending} ${a.currency} stay as they are)`);
    return;
  }
  throw new SettlementUsage(`unknown command: agency settlement ${verb ?? ""}`.trim());
}
