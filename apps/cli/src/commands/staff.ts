import { systemClock, type Clock } from "@ndc/clock";
import { loadFieldKey, type FieldKey } from "@ndc/pii";
import { addStaff, auditChain, disableStaff, listStaff, otpauthUri, queryAudit, resetStaffPassword, StaffAccountError, terminalQr, verifyAudit, type AuditChain } from "@ndc/staff";
import type { Store } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const STAFF_USAGE = `usage: ndc-gateway staff <command>
  add USERNAME --role ROLE [--json]     create an account (agent, senior_agent, supervisor, admin); the password is read
                                        from standard input, or generated and printed; the TOTP secret is printed once
  list [--json]                         every account: role, created, disabled, locked
  disable USERNAME                      no more logins; open sessions end now
  reset-password USERNAME [--new-totp] [--json]
                                        a new password (standard input, or generated), the lockout cleared, sessions ended;
                                        --new-totp also issues a new TOTP secret (printed once)
  audit verify                          checks the staff audit trail's keyed chain and its anchor; exit 1 naming the first row
                                        that does not hold, or rows missing from its end
  audit export [--action ACTION] [--order ORDER_ID]
                                        the audit trail as JSON lines, oldest first`;

export interface StaffCommandDeps {
  store?: Store;
  fieldKey?: FieldKey;
  /** The audit chain's key and anchor; default from the field key and GATEWAY_AUDIT_ANCHOR_FILE. */
  auditChain?: AuditChain;
  clock?: Clock;
  /** The TOTP issuer shown by authenticator apps; default the airline's name. */
  issuer?: string;
}

/**
 * `staff ...`: the airline's console accounts (issue 12 item 1) and its audit trail (item 2).
 * Works on the database directly, beside a running gateway. Secrets (a generated password, the
 * TOTP secret) are printed once and kept nowhere in clear.
 */
export async function staffCommand(args: string[], io: CliIo, deps: StaffCommandDeps = {}): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(STAFF_USAGE);
    return sub === undefined ? 2 : 0;
  }
  const { positional, flags } = parse(rest, sub);
  const now = () => (deps.clock ?? systemClock).now();
  const runtime = () => loadRuntime(io).config;
  const fieldKey = () => deps.fieldKey ?? loadFieldKey(runtime());
  const issuer = () => deps.issuer ?? runtime().airline.name;
  try {
    return await withStaffStore(io, deps.store, async (store) => {
      switch (sub) {
        case "add": {
          const username = one(positional, "staff add USERNAME");
          if (typeof flags.role !== "string") throw new UsageError("staff add needs --role (agent, senior_agent, supervisor, admin)");
          const password = await passwordFromStdin(io);
          const r = await addStaff(store, fieldKey(), { username, role: flags.role, ...(password ? { password } : {}) }, now());
          if (flags.json) io.out(JSON.stringify({ username, role: r.account.role, ...(r.password ? { password: r.password } : {}), totpSecret: r.totpSecret }));
          else {
            io.out(`staff ${username} added (${r.account.role})`);
            if (r.password) io.out(`password: ${r.password}`);
            enrolment(io, otpauthUri(issuer(), username, r.totpSecret), r.totpSecret);
          }
          return 0;
        }
        case "list": {
          const rows = await listStaff(store);
          if (flags.json) for (const a of rows) io.out(JSON.stringify(a));
          else {
            if (rows.length === 0) io.out("no staff accounts");
            for (const a of rows) {
              const state = a.disabledAt ? `disabled ${new Date(a.disabledAt).toISOString()}` : a.lockedUntil && a.lockedUntil > now() ? `locked until ${new Date(a.lockedUntil).toISOString()}` : "active";
              io.out(`${a.username}  ${a.role}  ${state}  created ${new Date(a.createdAt).toISOString()}`);
            }
          }
          return 0;
        }
        case "disable": {
          const username = one(positional, "staff disable USERNAME");
          await disableStaff(store, username, now());
          io.out(`staff ${username} disabled; open sessions ended`);
          return 0;
        }
        case "reset-password": {
          const username = one(positional, "staff reset-password USERNAME");
          const password = await passwordFromStdin(io);
          const r = await resetStaffPassword(store, fieldKey(), username, { ...(password ? { password } : {}), newTotp: flags["new-totp"] === true }, now());
          if (flags.json) io.out(JSON.stringify({ username, ...r }));
          else {
            io.out(`staff ${username}: password reset; lockout cleared; open sessions ended`);
            if (r.password) io.out(`password: ${r.password}`);
            if (r.totpSecret) enrolment(io, otpauthUri(issuer(), username, r.totpSecret), r.totpSecret);
          }
          return 0;
        }
        case "audit": {
          const what = one(positional, "staff audit verify|export");
          if (what === "verify") {
            const check = await verifyAudit(store.db, deps.auditChain ?? auditChain(fieldKey(), runtime().staffAuditAnchorFile));
            if (!check.ok) {
              io.err(check.why ? `staff audit trail broken: ${check.why}` : `staff audit trail broken at seq ${check.brokenAt}`);
              return 1;
            }
            io.out(`staff audit trail holds: ${check.rows} rows`);
            if (check.legacy) io.out(`${check.legacy} of them from before the chain was keyed (plain SHA-256), sealed by the first keyed row`);
            io.out(check.anchoredAt === null ? "no anchor yet: the first audited action writes it" : `anchored at seq ${check.anchoredAt}${check.afterAnchor ? `; ${check.afterAnchor} row(s) after it (written since the anchor last moved)` : ""}`);
            return 0;
          }
          if (what === "export") {
            let after = 0;
            for (;;) {
              const rows = await queryAudit(store.db, { after, limit: 1000, ...(typeof flags.action === "string" ? { action: flags.action } : {}), ...(typeof flags.order === "string" ? { orderId: flags.order } : {}) });
              for (const r of rows) io.out(JSON.stringify(r));
              if (rows.length < 1000) return 0;
              after = rows.at(-1)!.seq;
            }
          }
          throw new UsageError(`staff audit: unknown command "${what}"`);
        }
        default:
          throw new UsageError(`staff: unknown command "${sub}"\n${STAFF_USAGE}`);
      }
    });
  } catch (e) {
    if (e instanceof StaffAccountError) {
      io.err(`ndc-gateway staff ${sub}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

/** The TOTP enrolment, shown once: the secret, its otpauth:// URI, and the URI as a QR code to scan. */
function enrolment(io: CliIo, uri: string, secret: string): void {
  io.out(`totp secret: ${secret}  (shown once: scan the QR code below, or enter the secret, in an authenticator app)`);
  io.out(`totp uri: ${uri}`);
  for (const line of terminalQr(uri)) io.out(line);
}

const VALUED = new Set(["role", "action", "order"]);
const BOOLEAN = new Set(["json", "new-totp"]);

function parse(args: string[], sub: string): { positional: string[]; flags: Record<string, string | true> } {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (name in flags) throw new UsageError(`staff ${sub}: --${name} given twice`);
    if (BOOLEAN.has(name) && inline === undefined) flags[name] = true;
    else if (VALUED.has(name)) {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`staff ${sub}: --${name} needs a value`);
      flags[name] = v;
    } else throw new UsageError(`staff ${sub}: unknown option --${name}`);
  }
  return { positional, flags };
}

function one(positional: string[], form: string): string {
  if (positional.length !== 1) throw new UsageError(`${form} takes exactly one name`);
  return positional[0]!;
}

/** The first line of standard input, or undefined when nothing was piped (a password is then generated). */
async function passwordFromStdin(io: CliIo): Promise<string | undefined> {
  const text = io.stdin ? await io.stdin() : "";
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length ? line : undefined;
}
