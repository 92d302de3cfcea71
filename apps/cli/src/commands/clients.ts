import type { GatewayConfig } from "@ndc/config";
import type { Store } from "@ndc/store";
import {
  grantAgencies,
  grantScopes,
  isRegistryError,
  listAgencies,
  listClients,
  registerAgency,
  registerClient,
  resumeClient,
  revokeAgencies,
  revokeScopes,
  rotateSecret,
  rotateSigningKey,
  setAgencyActive,
  suspendClient,
} from "@ndc/auth";
import { loadFieldKey } from "@ndc/pii";
import { agencySigningCommand, SigningUsage, SIGNING_USAGE } from "./agency-signing";
import { agencySettlementCommand, SETTLEMENT_USAGE } from "./agency-settlement";
import { parse, positional, required, Usage, type Parsed } from "./args";

export { Usage };

/**
 * `ndc-gateway agency ...` and `ndc-gateway client ...`: the airline's seller registry
 * (spec 2.1). `args` starts with the word agency or client. Exit codes: 0 done, 1 refused by
 * the registry (unknown agency, unknown scope...), 2 the command line is wrong.
 * Secrets are printed once, here, and nowhere else.
 */
export interface ClientCommandIo {
  store: Store;
  config: GatewayConfig;
  out: (line: string) => void;
  err: (line: string) => void;
}

export const CLIENT_USAGE = `usage:
  ndc-gateway agency register --agency-id ID --iata NNNNNNNN --name "Agency name"
  ndc-gateway agency list
  ndc-gateway agency deactivate ID
  ndc-gateway agency activate ID
${SIGNING_USAGE}
${SETTLEMENT_USAGE}
  ndc-gateway client register --agency ID --scopes "ndc:shop ndc:order" [--name "Client name"]
  ndc-gateway client rotate-secret CLIENT_ID
  ndc-gateway client suspend CLIENT_ID
  ndc-gateway client resume CLIENT_ID
  ndc-gateway client grant-scope CLIENT_ID SCOPE...
  ndc-gateway client revoke-scope CLIENT_ID SCOPE...
  ndc-gateway client grant-agency CLIENT_ID AGENCY...
  ndc-gateway client revoke-agency CLIENT_ID AGENCY...
  ndc-gateway client list
  ndc-gateway client rotate-token-key
An agency (ID or AGENCY) is named by its agency id or its eight-digit IATA number.`;


type Handler = (args: string[], io: ClientCommandIo) => Promise<void>;

const AGENCY: Record<string, Handler> = {
  register: async (args, io) => {
    const p = parse(args, ["agency-id", "iata", "name"]);
    positional(p, 0, "no positional arguments");
    const a = await registerAgency(io.store, { agencyId: required(p, "agency-id"), iataNumber: required(p, "iata"), name: required(p, "name") });
    io.out(`agency ${a.agencyId} registered (IATA ${a.iataNumber}, active)`);
  },
  list: async (args, io) => {
    positional(parse(args, []), 0, "no arguments");
    const rows = await listAgencies(io.store);
    if (!rows.length) return io.out("no agencies registered");
    io.out(["AGENCY_ID", "IATA", "STATUS", "NAME"].join("\t"));
    for (const a of rows) io.out([a.agencyId, a.iataNumber, a.active ? "active" : "inactive", a.name].join("\t"));
  },
  deactivate: async (args, io) => {
    const [ref] = positional(parse(args, []), 1, "an agency id or IATA number");
    const a = await setAgencyActive(io.store, ref!, false);
    io.out(`agency ${a.agencyId} deactivated: its clients are refused from their next call`);
  },
  activate: async (args, io) => {
    const [ref] = positional(parse(args, []), 1, "an agency id or IATA number");
    const a = await setAgencyActive(io.store, ref!, true);
    io.out(`agency ${a.agencyId} activated`);
  },
  // Signing agreements (agency-signing.ts): keys and policy.
  signing: async (args, io) => {
    try {
      await agencySigningCommand(args, io);
    } catch (e) {
      if (e instanceof SigningUsage) throw new Usage(e.message);
      throw e;
    }
  },
  // Settlement accounts (agency-settlement.ts): open, list, close.
  settlement: (args, io) => agencySettlementCommand(args, io),
};

function printSecret(io: ClientCommandIo, clientId: string, secret: string): void {
  io.out(`client_id: ${clientId}`);
  io.out(`client_secret: ${secret}`);
  io.out("This client_secret cannot be shown again: only its hash is stored. Store it now; a lost secret needs `client rotate-secret`.");
}

const CLIENT: Record<string, Handler> = {
  register: async (args, io) => {
    const p = parse(args, ["agency", "scopes", "name"]);
    positional(p, 0, "no positional arguments");
    const c = await registerClient(io.store, { agency: required(p, "agency"), scopes: required(p, "scopes"), name: p.flags.get("name") });
    io.out(`client registered for agency ${c.agencyId} with scopes: ${c.scopes.join(" ")}`);
    printSecret(io, c.clientId, c.clientSecret);
  },
  "rotate-secret": async (args, io) => {
    const [id] = positional(parse(args, []), 1, "a client id");
    const r = await rotateSecret(io.store, id!);
    io.out(`secret rotated (generation ${r.secretGeneration}): the old secret and its tokens are refused from now on`);
    printSecret(io, r.clientId, r.clientSecret);
  },
  // Every client's tokens at once (a leaked signing key): each gateway process re-reads the key at its next call.
  "rotate-token-key": async (args, io) => {
    positional(parse(args, []), 0, "no arguments");
    await rotateSigningKey(io.store, loadFieldKey(io.config));
    io.out("token signing key replaced: every access token issued so far is refused from the next call; clients request new ones");
  },
  suspend: async (args, io) => {
    const [id] = positional(parse(args, []), 1, "a client id");
    await suspendClient(io.store, id!);
    io.out(`client ${id} suspended: its tokens are refused from the next call`);
  },
  resume: async (args, io) => {
    const [id] = positional(parse(args, []), 1, "a client id");
    await resumeClient(io.store, id!);
    io.out(`client ${id} resumed: it must request new tokens`);
  },
  "grant-scope": async (args, io) => {
    const [id, ...scopes] = positional(parse(args, []), 2, "a client id and one or more scopes", true);
    const now = await grantScopes(io.store, id!, scopes);
    io.out(`client ${id} scopes: ${now.join(" ") || "(none)"}`);
  },
  "revoke-scope": async (args, io) => {
    const [id, ...scopes] = positional(parse(args, []), 2, "a client id and one or more scopes", true);
    const now = await revokeScopes(io.store, id!, scopes);
    io.out(`client ${id} scopes: ${now.join(" ") || "(none)"}`);
  },
  "grant-agency": async (args, io) => {
    const [id, ...refs] = positional(parse(args, []), 2, "a client id and one or more agencies", true);
    const ids = await grantAgencies(io.store, id!, refs);
    io.out(`client ${id} may sell as: ${ids.join(" ")}`);
  },
  "revoke-agency": async (args, io) => {
    const [id, ...refs] = positional(parse(args, []), 2, "a client id and one or more agencies", true);
    const ids = await revokeAgencies(io.store, id!, refs);
    io.out(`client ${id} may no longer sell as: ${ids.join(" ")}`);
  },
  list: async (args, io) => {
    positional(parse(args, []), 0, "no arguments");
    const rows = await listClients(io.store);
    if (!rows.length) return io.out("no clients registered");
    io.out(["CLIENT_ID", "AGENCY", "STATUS", "SCOPES", "SELLS_AS", "NAME"].join("\t"));
    for (const c of rows) {
      const status = c.suspended ? "suspended" : c.localOnly ? "active(local-only)" : "active";
      io.out([c.clientId, c.agencyId, status, c.scopes.join(" ") || "-", c.aggregatorAgencies.join(" ") || "-", c.name ?? "-"].join("\t"));
    }
  },
};

export async function runClientCommand(args: string[], io: ClientCommandIo): Promise<number> {
  const [area, verb, ...rest] = args;
  const table = area === "agency" ? AGENCY : area === "client" ? CLIENT : undefined;
  if (table && (verb === "help" || verb === "--help")) {
    for (const line of CLIENT_USAGE.split("\n")) io.out(line);
    return 0;
  }
  const handler = table && verb !== undefined && Object.hasOwn(table, verb) ? table[verb] : undefined;
  if (!handler) {
    io.err(area === undefined ? "expected agency or client" : `unknown command: ${[area, verb].filter(Boolean).join(" ")}`);
    for (const line of CLIENT_USAGE.split("\n")) io.err(line);
    return 2;
  }
  try {
    await handler(rest, io);
    return 0;
  } catch (e) {
    if (e instanceof Usage) {
      io.err(`${area} ${verb}: ${e.message}`);
      for (const line of CLIENT_USAGE.split("\n")) io.err(line);
      return 2;
    }
    if (isRegistryError(e)) {
      io.err(`${area} ${verb}: ${e.code}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
