import { GatewayError } from "@ndc/errors";
import { toDecimalString } from "@ndc/money";
import { commissionAsItStands, STATE_NAMES, type AirlineSearch, type OrderState } from "@ndc/orders";
import { eraseIdentityDocuments, heldDocuments, IdentityDocumentUnavailable, isOmitted, revealNumber } from "@ndc/pii";
import { orderDeliveries } from "@ndc/notifications";
import { appendAudit, queryAudit, recordAudit, statedReason, type AuditRow } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { signatureEvidence } from "./evidence";
import { requireRight, who, type StaffCaller } from "./guard";

/**
 * What the console does, once for the JSON API and the pages alike: each step checks the right,
 * does the thing through its owning domain, and writes the audit row. No HTTP here beyond the
 * caller's identity; the routes turn the results into JSON or HTML.
 */

const amount = (minor: number, currency: string) => toDecimalString({ amount: minor, currency: currency as never });
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

const SEARCH_FIELDS = ["orderId", "surname", "agency", "flight", "date", "state"] as const;
const ORDER_STATES = Object.keys(STATE_NAMES) as OrderState[];

/** GET orders: at least one filter; the audit names the filters used, never their values (a surname is personal data). */
export async function searchOrders(deps: StaffDeps, caller: StaffCaller, params: URLSearchParams) {
  await requireRight(deps, caller, "orders.read", { action: "orders.search" });
  const q: AirlineSearch = {};
  for (const f of SEARCH_FIELDS) {
    const v = params.get(f)?.trim();
    if (!v) continue;
    if (v.length > 64) throw new GatewayError("request_invalid", { detail: `${f} is at most 64 characters.`, element: f });
    if (f === "state") {
      if (!(ORDER_STATES as string[]).includes(v)) throw new GatewayError("request_invalid", { detail: `state is one of ${ORDER_STATES.join(", ")}.`, element: "state" });
      q.state = v as OrderState;
    } else q[f] = v;
  }
  const used = Object.keys(q);
  if (used.length === 0) throw new GatewayError("request_invalid", { detail: `Give at least one of ${SEARCH_FIELDS.join(", ")}.` });
  const rows = await deps.orders.airlineSearch(q);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "orders.search", outcome: "ok", ...(q.orderId ? { orderId: q.orderId } : {}), detail: `filters: ${used.join(", ")}; ${rows.length} found` });
  return {
    orders: rows.map((r) => ({
      orderId: r.orderId, state: r.state, agencyId: r.ownerAgencyId, clientId: r.ownerClientId, createdAt: iso(r.createdAt)!,
      total: { amount: amount(r.totalMinor, r.currency), currency: r.currency }, passengers: r.paxCount,
      ...(r.travelFrom ? { travelFrom: r.travelFrom } : {}), ...(r.travelTo ? { travelTo: r.travelTo } : {}),
    })),
  };
}

export type OrderPage = Awaited<ReturnType<typeof orderDetail>>;

/**
 * GET one order: items, passengers, documents masked (each with its documentRef, or when it was
 * erased), payment legs (PAYSUM), commission, history and the notifications sent about it. Never a
 * document number.
 */
export async function orderDetail(deps: StaffDeps, caller: StaffCaller, orderId: string) {
  await requireRight(deps, caller, "orders.read", { action: "order.view", orderId });
  const details = await deps.orders.airlineDetails(orderId);
  const { order } = details;
  const [held, deliveries, signatures] = await Promise.all([heldDocuments(deps.store.db, orderId), orderDeliveries(deps.store.db, orderId), signatureEvidence(deps, orderId)]);
  const masked = new Map(details.documents.map((d) => [d.documentId, d.view]));
  const documents = held.map((h) => {
    const base = { documentRef: h.documentId, paxId: h.paxId };
    if (h.erasedAt !== undefined) return { ...base, erasedAt: iso(h.erasedAt)! };
    const view = masked.get(h.documentId);
    if (!view || isOmitted(view)) return { ...base, omitted: true as const };
    return { ...base, ...view };
  });
  const erasedAt = held.map((h) => h.erasedAt).filter((t): t is number => t !== undefined);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "order.view", outcome: "ok", orderId });
  const cur = order.currency;
  // The sale's commission as it stands after refunds, as PAYCOM shows it (issue 19 item 13c).
  const sale = commissionAsItStands(order);
  return {
    orderId: order.orderId,
    state: order.state,
    stateName: STATE_NAMES[order.state],
    agencyId: order.owner.agencyId,
    clientId: order.owner.clientId,
    version: order.version,
    createdAt: iso(order.createdAt)!,
    updatedAt: iso(order.updatedAt)!,
    ...(order.paymentTimeLimit !== undefined ? { paymentTimeLimit: iso(order.paymentTimeLimit) } : {}),
    total: { amount: amount(order.totalMinor, cur), currency: cur },
    // "Erased on <date>": the latest erasure, once every document the order held is erased.
    ...(held.length && erasedAt.length === held.length ? { documentsErasedAt: iso(Math.max(...erasedAt)) } : {}),
    items: order.items.map((it) => ({
      orderItemId: it.orderItemId, kind: it.kind, paxIds: it.paxIds, price: amount(it.totalMinor, cur),
      ...(it.flightKeys ? { flightKeys: it.flightKeys } : {}), ...(it.ref ? { ref: it.ref } : {}), ...(it.qty ? { qty: it.qty } : {}),
    })),
    journeys: order.journeys.map((j) => ({ paxJourneyId: j.paxJourneyId, flightKeys: j.flightKeys, brandCode: j.brandCode })),
    flights: details.flights.map((f) => ({ key: f.key, origin: f.origin, destination: f.destination, departureUtc: iso(f.departureUtcMs)!, arrivalUtc: iso(f.arrivalUtcMs)! })),
    passengers: order.passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc, ...(p.title ? { title: p.title } : {}), givenNames: p.givenNames, surname: p.surname })),
    documents,
    payments: details.legs.map((l) => ({
      legId: l.legId, kind: l.kind, state: l.state, currency: l.currency,
      authorised: amount(l.authorised, l.currency), captured: amount(l.captured, l.currency), refunded: amount(l.refunded, l.currency),
      ...(l.cardBrand ? { cardBrand: l.cardBrand } : {}), ...(l.cardLast4 ? { cardLast4: l.cardLast4 } : {}), ...(l.pspReference ? { pspReference: l.pspReference } : {}),
      ...(l.voucherCode ? { voucherCode: l.voucherCode } : {}), ...(l.settlementAccountId ? { settlementAccountId: l.settlementAccountId } : {}),
      ...(l.declineReason ? { declineReason: l.declineReason } : {}),
      changeRef: l.changeRef,
    })),
    commission: [
      ...(sale ? [{ on: "booking", amount: amount(sale.amountMinor, cur), basis: amount(sale.basisMinor, cur), rule: sale.rule }] : []),
      ...(order.charges ?? []).flatMap((c) => (c.commission ? [{ on: c.changeRef, amount: amount(c.commission.amountMinor, cur), basis: amount(c.commission.basisMinor, cur), rule: c.commission.rule }] : [])),
    ],
    history: order.history.map((h) => ({ version: h.version, at: iso(h.at)!, kind: h.kind, state: h.state, changed: h.changed, ...(h.staffId ? { staffId: h.staffId } : {}) })),
    notifications: deliveries.map((d) => ({
      deliveryId: d.deliveryId, subscriptionId: d.subscriptionId, event: d.event, message: d.messageName, status: d.status, attempts: d.attempts,
      ...(d.lastHttpStatus !== undefined ? { lastHttpStatus: d.lastHttpStatus } : {}), ...(d.lastError ? { lastError: d.lastError } : {}),
      createdAt: iso(d.createdAt)!, updatedAt: iso(d.updatedAt)!,
    })),
    signatures,
  };
}

/**
 * POST reveal (spec 2.4 rule 5): the role first (an agent's request is refused and audited before
 * anything about the document is read), then the reason, then the document of this order. The
 * audit row `pii.reveal` names the document, never its value, and commits before the number is
 * handed back: no audit, no number.
 */
export async function revealDocument(deps: StaffDeps, caller: StaffCaller, orderId: string, documentRef: string, body: Record<string, unknown>): Promise<{ number: string }> {
  await requireRight(deps, caller, "pii.reveal", { action: "pii.reveal", orderId, documentRef });
  const { reason, category } = statedReason(body, true);
  const held = (await heldDocuments(deps.store.db, orderId)).find((d) => d.documentId === documentRef);
  if (!held) throw new GatewayError("identity_document_not_found", { element: "documentRef" });
  let number: string;
  try {
    number = await revealNumber(deps.store, deps.fieldKey, documentRef);
  } catch (e) {
    if (e instanceof IdentityDocumentUnavailable) throw new GatewayError(e.reason === "erased" ? "identity_document_erased" : "identity_document_not_found", { element: "documentRef" });
    throw e;
  }
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "pii.reveal", outcome: "ok", orderId, documentRef, reason, reasonCategory: category });
  return { number };
}

/**
 * POST erase (spec 8): a supervisor erases every document of the order through the one erasure
 * path (numbers gone from the file and its WAL), the audit row `pii.erase` in the same transaction.
 */
export async function eraseDocuments(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>): Promise<{ erased: number; erasedAt: string }> {
  await requireRight(deps, caller, "pii.erase", { action: "pii.erase", orderId });
  const { reason } = statedReason(body, false);
  await deps.orders.airlineDetails(orderId); // order_not_found for an unknown order, before any write
  const now = deps.clock.now();
  const erased = await eraseIdentityDocuments(deps.store, [orderId], now, { path: "supervisor", actor: caller.session.staffId, reason }, (tx, n) =>
    appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "pii.erase", outcome: "ok", orderId, reason, detail: `${n} documents erased` }),
  );
  return { erased, erasedAt: iso(now)! };
}

/** GET audit (supervisors and admins): rows oldest first; viewing it is itself audited. */
export async function readAudit(deps: StaffDeps, caller: StaffCaller, params: URLSearchParams, exported = false): Promise<{ entries: AuditRow[] }> {
  const action = exported ? "audit.export" : "audit.view";
  await requireRight(deps, caller, "audit.read", { action });
  const after = params.get("after");
  const limit = params.get("limit");
  const q = {
    ...(params.get("action") ? { action: params.get("action")!.slice(0, 64) } : {}),
    ...(params.get("orderId") ? { orderId: params.get("orderId")!.slice(0, 64) } : {}),
    ...(after && /^\d{1,15}$/.test(after) ? { after: Number(after) } : {}),
    ...(limit && /^\d{1,4}$/.test(limit) ? { limit: Number(limit) } : {}),
  };
  const entries = await queryAudit(deps.store.db, q);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action, outcome: "ok", ...(q.orderId ? { orderId: q.orderId } : {}), detail: `${entries.length} rows` });
  return { entries };
}
