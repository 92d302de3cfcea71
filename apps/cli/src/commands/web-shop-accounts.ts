import { systemClock, type Clock } from "@ndc/clock";
import { addAccount, deleteAccount, listAccounts, WebShopAccountError } from "@ndc/orders";
import type { Store } from "@ndc/store";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const WEB_SHOP_ACCOUNT_USAGE = `  account add --email EMAIL --name NAME           a customer account of the web shop; prints its id
  account list                                    the accounts (a deleted one without email or name)
  account delete ACCOUNT_ID                       delete it and erase the identity documents of its orders
                                                  (again: finishes an interrupted deletion)`;

/**
 * `web-shop account ...`: the web shop's customer accounts (spec 8; decision 0029). Deleting one
 * erases the documents of its orders through the one erasure path; guest orders are untouched.
 * Works on the database beside a running gateway.
 */
export async function webShopAccountCommand(args: string[], io: CliIo, deps: { store?: Store; clock?: Clock } = {}): Promise<number> {
  const [sub, ...rest] = args;
  const now = (deps.clock ?? systemClock).now();
  const run = (fn: (store: Store) => Promise<number>) =>
    withStaffStore(io, deps.store, async (store) => {
      try {
        return await fn(store);
      } catch (e) {
        if (!(e instanceof WebShopAccountError)) throw e;
        io.err(`web-shop: ${e.code}: ${e.message}`);
        return 1;
      }
    });
  if (sub === "add") {
    const flags = parseFlags(rest, ["--email", "--name"]);
    if (flags.positional.length || !flags.values["--email"] || !flags.values["--name"]) throw new UsageError("web-shop account add takes --email EMAIL --name NAME");
    return run(async (store) => {
      const a = await addAccount(store, { email: flags.values["--email"]!, name: flags.values["--name"]! }, now);
      io.out(`account ${a.accountId} added`);
      return 0;
    });
  }
  if (sub === "list") {
    if (rest.length) throw new UsageError(`web-shop account list: unexpected argument ${rest[0]}`);
    return run(async (store) => {
      const accounts = await listAccounts(store.db);
      if (accounts.length === 0) io.out("no accounts");
      for (const a of accounts) {
        io.out(a.deletedAt === null ? `${a.accountId}  ${a.email}  ${a.name}  created ${new Date(a.createdAt).toISOString()}` : `${a.accountId}  deleted ${new Date(a.deletedAt).toISOString()}`);
      }
      return 0;
    });
  }
  if (sub === "delete") {
    if (rest.length !== 1 || rest[0]!.startsWith("--")) throw new UsageError("web-shop account delete takes ACCOUNT_ID");
    return run(async (store) => {
      const r = await deleteAccount(store, rest[0]!, now);
      io.out(`account ${rest[0]} deleted: ${r.documents} identity document(s) erased on ${r.orders} order(s)`);
      return 0;
    });
  }
  throw new UsageError(`web-shop account: unknown command "${sub ?? ""}"\n${WEB_SHOP_ACCOUNT_USAGE}`);
}

/** `--name value` pairs among the names allowed, and what else was given. */
export function parseFlags(args: string[], names: readonly string[]): { values: Record<string, string>; positional: string[] } {
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    if (!names.includes(a)) throw new UsageError(`web-shop: unknown option ${a}`);
    const v = args[++i];
    if (v === undefined || v === "") throw new UsageError(`web-shop: ${a} needs a value`);
    values[a] = v;
  }
  return { values, positional };
}
