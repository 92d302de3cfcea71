import { readFileSync } from "node:fs";
import { RegistryError, setSigningPolicy } from "@ndc/auth";
import { addSigningKey, listSigningKeys, revokeSigningKey } from "@ndc/signatures";
import type { Store } from "@ndc/store";

/**
 * `ndc-gateway agency signing add|list|revoke|policy` (issue 11 item 1, docs/signatures.md).
 * Every change is a registry change: the next call of the agency's sellers sees it.
 */
export const SIGNING_USAGE = `  ndc-gateway agency signing add AGENCY --cert PEM_FILE [--not-after YYYY-MM-DD]
  ndc-gateway agency signing list AGENCY
  ndc-gateway agency signing revoke AGENCY FINGERPRINT
  ndc-gateway agency signing policy AGENCY none|optional|required [--airline-signs yes|no]`;

export class SigningUsage extends Error {}

interface Io {
  store: Store;
  out: (line: string) => void;
}

const day = (ms: number | undefined) => (ms === undefined ? "-" : new Date(ms).toISOString().slice(0, 10));

function flags(args: readonly string[], allowed: readonly string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const name = a.slice(2);
    if (!allowed.includes(name)) throw new SigningUsage(`unknown option ${a}`);
    const value = args[++i];
    if (value === undefined) throw new SigningUsage(`${a} needs a value`);
    out.set(name, value);
  }
  return { positional, flags: out };
}

export async function agencySigningCommand(args: string[], io: Io): Promise<void> {
  const [verb, ...rest] = args;
  if (verb === "add") {
    const p = flags(rest, ["cert", "not-after"]);
    if (p.positional.length !== 1 || !p.flags.get("cert")) throw new SigningUsage("expected an agency and --cert PEM_FILE");
    let pem: string;
    try {
      pem = readFileSync(p.flags.get("cert")!, "utf8");
    } catch {
      throw new RegistryError("invalid_argument", `Cannot read ${p.flags.get("cert")!.slice(0, 200)}.`);
    }
    const notAfterText = p.flags.get("not-after");
    const notAfter = notAfterText === undefined ? undefined : Date.parse(`${notAfterText}T23:59:59Z`);
    if (notAfter !== undefined && Number.isNaN(notAfter)) throw new SigningUsage("--not-after must be a date YYYY-MM-DD");
    const k = await addSigningKey(io.store, p.positional[0]!, pem, { notAfter });
    io.out(`key ${k.fingerprint} added for agency ${k.agencyId}: ${k.kind}, ${k.algorithm}, valid ${day(k.notBefore)} to ${day(k.notAfter)}`);
    return;
  }
  if (verb === "list") {
    const p = flags(rest, []);
    if (p.positional.length !== 1) throw new SigningUsage("expected an agency");
    const { agency, keys } = await listSigningKeys(io.store, p.positional[0]!);
    io.out(`agency ${agency.agencyId}: policy ${agency.signing?.policy ?? "none"}, airline signs answers: ${agency.signing?.airlineSigns ? "yes" : "no"}`);
    if (!keys.length) return io.out("no signing keys registered");
    io.out(["FINGERPRINT", "KIND", "ALGORITHM", "NOT_BEFORE", "NOT_AFTER", "STATUS", "SUBJECT"].join("\t"));
    for (const k of keys) {
      const status = k.revokedAt !== undefined ? `revoked ${day(k.revokedAt)}` : k.notAfter !== undefined && k.notAfter < Date.now() ? "expired" : "active";
      io.out([k.fingerprint, k.kind, k.algorithm, day(k.notBefore), day(k.notAfter), status, k.subject ?? "-"].join("\t"));
    }
    return;
  }
  if (verb === "revoke") {
    const p = flags(rest, []);
    if (p.positional.length !== 2) throw new SigningUsage("expected an agency and a key fingerprint");
    const k = await revokeSigningKey(io.store, p.positional[0]!, p.positional[1]!);
    io.out(`key ${k.fingerprint} of agency ${k.agencyId} revoked: signatures made with it are refused from the next call`);
    return;
  }
  if (verb === "policy") {
    const p = flags(rest, ["airline-signs"]);
    if (p.positional.length !== 2) throw new SigningUsage("expected an agency and none|optional|required");
    const signs = p.flags.get("airline-signs");
    if (signs !== undefined && signs !== "yes" && signs !== "no") throw new SigningUsage("--airline-signs must be yes or no");
    const a = await setSigningPolicy(io.store, p.positional[0]!, p.positional[1]!, signs === undefined ? undefined : signs === "yes");
    io.out(`agency ${a.agencyId}: signing policy ${a.signing!.policy}, airline signs answers: ${a.signing!.airlineSigns ? "yes" : "no"} (from the next call)`);
    return;
  }
  throw new SigningUsage(`unknown command: agency signing ${verb ?? ""}`.trim());
}
