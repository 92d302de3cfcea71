import { grantAgencies, grantScopes, isRegistryError, registerAgency, registerClient, revokeAgencies, revokeScopes, setAgencyActive, type RegistryError } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import { appendAudit, statedReason } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";
import { optionalText, requiredText, textList } from "./fields";

/**
 * Registry administration from the console (admins only): a new seller client for an agency, and
 * a client's scopes granted or revoked, through @ndc/auth's registry (the rules of `ndc-gateway
 * client ...`), each with its audit row in the registry's transaction. A new client's secret is in
 * the answer only.
 */

/** A registry refusal as a console answer: an unknown client or agency in the path is not found; the rest name the field at fault. */
function refusal(e: RegistryError, pathTarget?: "agencyId"): GatewayError {
  if (e.code === "unknown_client") return new GatewayError("staff_target_not_found", { element: "clientId" });
  if (e.code === "unknown_agency" && pathTarget) return new GatewayError("staff_target_not_found", { element: pathTarget });
  const element = e.code === "unknown_scope" ? "scopes" : e.code === "unknown_agency" || e.code === "agency_inactive" || e.code === "agency_exists" || e.code === "not_aggregator" ? "agencyId" : undefined;
  return new GatewayError("request_invalid", { detail: e.message, ...(element ? { element } : {}) });
}

const SCOPES_MAX = 20;
const AGENCIES_MAX = 20;
const ID_MAX = 64;
const NAME_MAX = 200;
// Absent fields reach the registry as "": its own rules then name what is missing.
const given = (body: Record<string, unknown>, key: string, max: number) => optionalText(body, key, max) ?? "";

export async function registerSeller(deps: StaffDeps, caller: StaffCaller, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "seller.register" });
  const { reason } = statedReason(body, false);
  const agency = requiredText(body, "agencyId", ID_MAX, "agencyId names a registered agency.");
  const scopes = textList(body, "scopes", SCOPES_MAX, ID_MAX);
  const name = optionalText(body, "name", NAME_MAX);
  const now = deps.clock.now();
  try {
    const issued = await registerClient(deps.store, { agency, scopes, ...(name !== undefined ? { name } : {}) }, now, (tx, c) =>
      appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "seller.register", outcome: "ok", reason, detail: `client ${c.clientId} for agency ${c.agencyId}` }),
    );
    return { clientId: issued.clientId, clientSecret: issued.clientSecret, agencyId: issued.agencyId, scopes: issued.scopes };
  } catch (e) {
    if (isRegistryError(e)) throw refusal(e);
    throw e;
  }
}

export async function changeSellerScopes(deps: StaffDeps, caller: StaffCaller, clientId: string, change: "grant" | "revoke", body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "seller.scopes" });
  const { reason } = statedReason(body, false);
  const scopes = textList(body, "scopes", SCOPES_MAX, ID_MAX);
  const now = deps.clock.now();
  const audit = (tx: Parameters<typeof appendAudit>[0], after: string[]) =>
    appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "seller.scopes", outcome: "ok", reason, detail: `client ${clientId} ${change} ${scopes.join(" ")}; now ${after.join(" ") || "none"}` });
  try {
    const after = change === "grant" ? await grantScopes(deps.store, clientId, scopes, now, audit) : await revokeScopes(deps.store, clientId, scopes, now, audit);
    return { clientId, scopes: after };
  } catch (e) {
    if (isRegistryError(e)) throw refusal(e);
    throw e;
  }
}

/** An admin registers an agency (the registry's rules: id, eight-digit IATA number, name); active from the start. */
export async function registerSellerAgency(deps: StaffDeps, caller: StaffCaller, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "agency.register" });
  const { reason } = statedReason(body, false);
  const now = deps.clock.now();
  const input = { agencyId: given(body, "agencyId", ID_MAX), iataNumber: given(body, "iataNumber", 8), name: given(body, "name", NAME_MAX) };
  try {
    return await registerAgency(deps.store, input, now, (tx) => appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "agency.register", outcome: "ok", reason, detail: `agency ${input.agencyId} IATA ${input.iataNumber}` }));
  } catch (e) {
    if (isRegistryError(e)) throw refusal(e);
    throw e;
  }
}

/** Deactivate (every client of the agency refused from its next call) or activate an agency: supervisors and admins, like suspending a client. */
export async function switchAgency(deps: StaffDeps, caller: StaffCaller, agencyId: string, to: "activate" | "deactivate", body: Record<string, unknown>) {
  const action = to === "activate" ? "agency.activate" : "agency.deactivate";
  await requireRight(deps, caller, "sellers.suspend", { action });
  const { reason } = statedReason(body, false);
  const now = deps.clock.now();
  try {
    return await setAgencyActive(deps.store, agencyId, to === "activate", (tx, id) => appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action, outcome: "ok", reason, detail: `agency ${id}` }));
  } catch (e) {
    if (isRegistryError(e)) throw refusal(e, "agencyId");
    throw e;
  }
}

/** An aggregator client (scope ndc:aggregator) granted or refused the right to sell as an agency; effective on its next call. */
export async function changeAggregatorAgencies(deps: StaffDeps, caller: StaffCaller, clientId: string, change: "grant" | "revoke", body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "seller.agencies" });
  const { reason } = statedReason(body, false);
  const agencies = textList(body, "agencies", AGENCIES_MAX, ID_MAX);
  const now = deps.clock.now();
  const audit = (tx: Parameters<typeof appendAudit>[0], ids: string[]) =>
    appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "seller.agencies", outcome: "ok", reason, detail: `client ${clientId} ${change} ${ids.join(" ")}` });
  try {
    const ids = change === "grant" ? await grantAgencies(deps.store, clientId, agencies, now, audit) : await revokeAgencies(deps.store, clientId, agencies, audit);
    return { clientId, [change === "grant" ? "granted" : "revoked"]: ids };
  } catch (e) {
    if (isRegistryError(e)) throw refusal(e);
    throw e;
  }
}
