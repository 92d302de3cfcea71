import { ConfigError } from "@ndc/config";
import { registryCommand } from "./commands/clients-dispatch";
import { documentsCommand } from "./commands/documents";
import { migrateCommand } from "./commands/migrate";
import { overridesCommand } from "./commands/overrides";
import { promotionsCommand } from "./commands/promotions";
import { orderCommand } from "./commands/order-evidence";
import { reconcileFailedCommand } from "./commands/reconcile-failed";
import { schedulerCommand } from "./commands/scheduler";
import { seedCommand } from "./commands/seed";
import { serveCommand } from "./commands/serve";
import { workerCommand } from "./commands/worker";
import { staffCommand } from "./commands/staff";
import { runWebShopCommand } from "./commands/web-shop";
import { sellerCommand } from "./commands/seller";
import { UsageError, type CliIo } from "./io";
import { USAGE } from "./usage";
import { versionLine } from "./version";

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  worker: workerCommand,
  scheduler: schedulerCommand,
  migrate: migrateCommand,
  seed: seedCommand,
  // The registry commands read their own first word (agency | client).
  agency: (args, io) => registryCommand(["agency", ...args], io),
  client: (args, io) => registryCommand(["client", ...args], io),
  // The airline's own web shop: the second sales channel on the same seat inventory.
  "web-shop": (args, io) => runWebShopCommand(args, io),
  // Staff: payment steps the reconciler could not finish (reconcile_failed).
  "reconcile-failed": (args, io) => reconcileFailedCommand(args, io),
  // Staff: the audit trail of the airline's fare-rule overrides.
  overrides: (args, io) => overridesCommand(args, io),
  // The operator's switch of the promotion criteria (spec 4.5 rule 4).
  promotions: (args, io) => promotionsCommand(args, io),
  // A seller's side of any NDC 24.4 gateway: client calls, signing, a notification receiver, certify.
  seller: (args, io) => sellerCommand(args, io),
  // Staff: console accounts and the staff audit trail (issue 12).
  staff: (args, io) => staffCommand(args, io),
  // Staff: a supervisor's erase of one order's identity documents, and the erasure audit.
  documents: (args, io) => documentsCommand(args, io),
  // The airline's export of a signed request's evidence (docs/signatures.md).
  order: (args, io) => orderCommand(args, io),
  version: async (_args, io) => (io.out(versionLine()), 0),
  help: async (_args, io) => (io.out(USAGE), 0),
};
const ALIASES: Record<string, string> = { "--version": "version", "-v": "version", "--help": "help", "-h": "help" };

/**
 * Runs one command line and returns the exit code: 0 done, 1 failed (configuration or
 * runtime), 2 the command line itself was wrong. Failures are one line on stderr, because
 * an operator starting a binary needs the cause, not our stack (LOG_LEVEL=debug adds it).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  const name = first === undefined ? undefined : (ALIASES[first] ?? first);
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    io.err(first === undefined ? "ndc-gateway: no command given" : `ndc-gateway: unknown command "${first}"`);
    io.err(USAGE);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`ndc-gateway: ${e.message}`);
      io.err(USAGE);
      return 2;
    }
    if (e instanceof ConfigError) {
      io.err(`ndc-gateway: configuration error: ${e.message}`);
      return 1;
    }
    const message = e instanceof Error ? e.message : String(e);
    io.err(`ndc-gateway: ${name} failed: ${message.split("\n")[0]}`);
    if (io.env.LOG_LEVEL === "debug" && e instanceof Error && e.stack) io.err(e.stack);
    return 1;
  }
}
