import { findAgency, isRegistryError, requireAgency, setSigningPolicy, SIGNING_POLICIES } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import { toDecimalString } from "@ndc/money";
import { commissionAgreementFor, CommissionAgreementInvalid, putCommissionAgreement, settlementAccountsOf, type CommissionAgreement } from "@ndc/payments";
import { addSigningKey, revokeSigningKey, signingKeysOf, type SigningKeyRow } from "@ndc/signatures";
import { appendAudit, recordAudit, statedReason } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";
import { objectList, requiredText } from "./fields";

/**
 * An agency's agreements from the console (issue 12 item 8): its commission agreement
 * (@ndc/payments commission_agreements, the rules putCommissionAgreement enforces) and its signing
 * agreement (@ndc/signatures keys, @ndc/auth policy: the rules of `ndc-gateway agency signing`).
 * Supervisors and admins see them (sellers.read); only admins change them (sellers.register, the
 * registry's administration). Each change's audit row, with its reason, commits in the change's write.
 */

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** An agency named in the path that is not registered. */
const unknownAgency = () => new GatewayError("staff_target_not_found", { detail: "No agency with this id is registered.", element: "agencyId" });

/** The agreement as the console shows it: minor units as decimals in their currency, a rate as basis points. */
function commissionView(a: CommissionAgreement | undefined) {
  if (!a) return null;
  if (a.kind === "percentage") return { kind: a.kind, basisPoints: a.basisPoints };
  if (a.kind === "tiered") return { kind: a.kind, currency: a.currency, tiers: a.tiers.map((t) => ({ from: t.from, fromAmount: toDecimalString({ amount: t.from, currency: a.currency }), basisPoints: t.basisPoints })) };
  return { kind: a.kind, currency: a.amount.currency, amountMinor: a.amount.amount, amount: toDecimalString(a.amount) };
}

/** A key's state now: revoked, not valid yet, expired, or active. */
function keyState(k: SigningKeyRow, now: number): "active" | "revoked" | "expired" | "not_yet_valid" {
  if (k.revokedAt !== undefined) return "revoked";
  if (k.notBefore !== undefined && now < k.notBefore) return "not_yet_valid";
  if (k.notAfter !== undefined && now > k.notAfter) return "expired";
  return "active";
}

/** Never the PEM itself on a page: the fingerprint names the key (what evidence and revoke use). */
const keyView = (k: SigningKeyRow, now: number) => ({
  fingerprint: k.fingerprint, kind: k.kind, algorithm: k.algorithm, ...(k.subject ? { subject: k.subject } : {}),
  ...(k.notBefore !== undefined ? { notBefore: iso(k.notBefore) } : {}), ...(k.notAfter !== undefined ? { notAfter: iso(k.notAfter) } : {}),
  addedAt: iso(k.addedAt)!, ...(k.revokedAt !== undefined ? { revokedAt: iso(k.revokedAt) } : {}), state: keyState(k, now),
});

export async function agencyAgreements(deps: StaffDeps, caller: StaffCaller, agencyId: string) {
  await requireRight(deps, caller, "sellers.read", { action: "agreements.view" });
  const agency = await findAgency(deps.store.db, agencyId);
  if (!agency || agency.agencyId !== agencyId) throw unknownAgency();
  const [commission, keys, accounts] = await Promise.all([commissionAgreementFor(deps.store, agency.agencyId), signingKeysOf(deps.store.db, agency.agencyId), settlementAccountsOf(deps.store.db, agency.agencyId)]);
  const now = deps.clock.now();
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: now, action: "agreements.view", outcome: "ok", detail: `agency ${agency.agencyId}` });
  return {
    agencyId: agency.agencyId, iataNumber: agency.iataNumber, name: agency.name, active: agency.active,
    commission: commissionView(commission),
    signing: { policy: agency.signing?.policy ?? "none", airlineSigns: agency.signing?.airlineSigns ?? false, keys: keys.map((k) => keyView(k, now)) },
    // Issue 19 item 15: the credit the agency may pay with (settlement-accounts.ts opens and closes them).
    settlementAccounts: accounts,
  };
}

const TIERS_MAX = 20;
/** A certificate chain's worth of PEM; a longer text is refused, not cut. */
const PEM_MAX = 16_000;

const int = (v: unknown): number | undefined => (typeof v === "number" ? v : typeof v === "string" && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : undefined);

/** The body's agreement, as the table's row would hold it; putCommissionAgreement then checks it as for any row. */
function agreementOf(body: Record<string, unknown>): CommissionAgreement {
  const currency = typeof body.currency === "string" ? body.currency.trim().toUpperCase() : "";
  switch (body.kind) {
    case "percentage":
      return { kind: "percentage", basisPoints: int(body.basisPoints) ?? NaN };
    case "tiered": {
      const tiers = objectList(body, "tiers", TIERS_MAX, "a list of {from, basisPoints}", (t) => ({ from: int(t.from) ?? NaN, basisPoints: int(t.basisPoints) ?? NaN }));
      return { kind: "tiered", currency: currency as never, tiers };
    }
    case "flat":
      return { kind: "flat", amount: { amount: int(body.amountMinor) ?? NaN, currency: currency as never } };
    default:
      throw new GatewayError("request_invalid", { detail: "kind is percentage, tiered or flat.", element: "kind" });
  }
}

const describe = (a: CommissionAgreement | undefined): string =>
  !a ? "none" : a.kind === "percentage" ? `percentage ${a.basisPoints} bp` : a.kind === "tiered" ? `tiered ${a.currency} ${a.tiers.map((t) => `${t.from}:${t.basisPoints}bp`).join(" ")}` : `flat ${a.amount.amount} ${a.amount.currency} minor units`;

/**
 * Sets (or replaces) the agency's commission agreement: the next order it books is computed on it;
 * an order already sold keeps the commission frozen on it at booking.
 */
export async function setCommission(deps: StaffDeps, caller: StaffCaller, agencyId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "commission.set" });
  const { reason } = statedReason(body, false);
  const agreement = agreementOf(body);
  const now = deps.clock.now();
  try {
    await deps.store.write(async (tx) => {
      const agency = await requireAgency(tx, agencyId);
      if (agency.agencyId !== agencyId) throw unknownAgency();
      const before = await commissionAgreementFor({ db: tx }, agencyId).catch(() => undefined);
      await putCommissionAgreement(tx, agencyId, agreement, now);
      await appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "commission.set", outcome: "ok", reason, detail: `agency ${agencyId} commission ${describe(agreement)}; was ${describe(before)}` });
    });
  } catch (e) {
    if (e instanceof CommissionAgreementInvalid) throw new GatewayError("request_invalid", { detail: e.message.replace(/^commission_agreements row of agency [^:]*: /, ""), element: e.field });
    if (isRegistryError(e) && e.code === "unknown_agency") throw unknownAgency();
    throw e;
  }
  return { agencyId, commission: commissionView(agreement) };
}

/** A registry refusal about a signing key: an unknown agency is not found, the rest name the field at fault. */
function signingRefusal(e: unknown, element: string): unknown {
  if (!isRegistryError(e)) return e;
  if (e.code === "unknown_agency") return unknownAgency();
  return new GatewayError("request_invalid", { detail: e.message, element });
}

/** Registers a certificate or public key (PEM) the agency signs with, from the next call on. */
export async function addKey(deps: StaffDeps, caller: StaffCaller, agencyId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "signing.key_add" });
  const { reason } = statedReason(body, false);
  const pem = requiredText(body, "pem", PEM_MAX, "pem is a PEM certificate or public key.");
  let notAfter: number | undefined;
  if (typeof body.notAfter === "string" && body.notAfter.trim()) {
    notAfter = /^\d{4}-\d{2}-\d{2}$/.test(body.notAfter.trim()) ? Date.parse(`${body.notAfter.trim()}T23:59:59Z`) : NaN;
    if (Number.isNaN(notAfter)) throw new GatewayError("request_invalid", { detail: "notAfter is a date YYYY-MM-DD.", element: "notAfter" });
  }
  if ((await findAgency(deps.store.db, agencyId))?.agencyId !== agencyId) throw unknownAgency();
  const now = deps.clock.now();
  try {
    const k = await addSigningKey(deps.store, agencyId, pem, notAfter === undefined ? {} : { notAfter }, now, (tx, row) =>
      appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "signing.key_add", outcome: "ok", reason, detail: `agency ${agencyId} key ${row.fingerprint} (${row.kind}, ${row.algorithm})` }),
    );
    return { agencyId, key: keyView(k, now) };
  } catch (e) {
    throw signingRefusal(e, "pem");
  }
}

/** Revokes a key from the next call on; it stays listed (evidence names it). */
export async function revokeKey(deps: StaffDeps, caller: StaffCaller, agencyId: string, fingerprint: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "signing.key_revoke" });
  const { reason } = statedReason(body, false);
  if ((await findAgency(deps.store.db, agencyId))?.agencyId !== agencyId) throw unknownAgency();
  const now = deps.clock.now();
  try {
    const k = await revokeSigningKey(deps.store, agencyId, fingerprint, now, (tx, row) =>
      appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "signing.key_revoke", outcome: "ok", reason, detail: `agency ${agencyId} key ${row.fingerprint}` }),
    );
    return { agencyId, key: keyView(k, now) };
  } catch (e) {
    throw signingRefusal(e, "fingerprint");
  }
}

/** The agency's signing policy (none, optional, required) and whether the airline signs its answers. */
export async function setPolicy(deps: StaffDeps, caller: StaffCaller, agencyId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.register", { action: "signing.policy" });
  const { reason } = statedReason(body, false);
  const policy = typeof body.policy === "string" ? body.policy : "";
  if (!(SIGNING_POLICIES as readonly string[]).includes(policy)) throw new GatewayError("request_invalid", { detail: `policy is one of ${SIGNING_POLICIES.join(", ")}.`, element: "policy" });
  const signs = body.airlineSigns;
  if (signs !== undefined && typeof signs !== "boolean") throw new GatewayError("request_invalid", { detail: "airlineSigns is true or false.", element: "airlineSigns" });
  if ((await findAgency(deps.store.db, agencyId))?.agencyId !== agencyId) throw unknownAgency();
  const now = deps.clock.now();
  try {
    const a = await setSigningPolicy(deps.store, agencyId, policy, signs, (tx, after) =>
      appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "signing.policy", outcome: "ok", reason, detail: `agency ${agencyId} policy ${after.signing!.policy}, airline signs ${after.signing!.airlineSigns ? "yes" : "no"}` }),
    );
    return { agencyId, policy: a.signing!.policy, airlineSigns: a.signing!.airlineSigns };
  } catch (e) {
    throw signingRefusal(e, "policy");
  }
}
