import { SESSION_ABSOLUTE_MS } from "@ndc/staff";
import { json } from "../routes/json";
import { SERVICING_ROUTES } from "./api-servicing";
import { eraseDocuments, orderDetail, readAudit, revealDocument, searchOrders } from "./actions";
import { clearedCookie, sessionCookie } from "./cookie";
import type { StaffDeps } from "./deps";
import { logIn, logOut } from "./login";
import { AGREEMENT_ROUTES } from "./api-agreements";
import { QUEUE_ROUTES } from "./api-queues";
import { PROMOTION_ROUTES } from "./promotions";
import { DASHBOARD_ROUTES } from "./api-dashboard";
import { NO_STORE, reply, staffRouter, type StaffCall, type StaffRoute } from "./api-route";
import { changeAggregatorAgencies, changeSellerScopes, registerSeller, registerSellerAgency, switchAgency } from "./registry";
import { deliveriesQueue, QUEUE_OF_PATH, reconcileQueue, redeliverItem, resolveReconcileItem, rotateSellerSecret, sellers, switchSeller, takeWorkItem } from "./work";

const query = (request: Request) => new URL(request.url).searchParams;

/** The session, orders, documents, audit, the work queues and the seller registry. */
const CORE_ROUTES: StaffRoute[] = [
  { method: "POST", path: "/session", body: "json-object", open: openSession },
  { method: "GET", path: "/session", answer: async ({ caller: { session } }) => reply(200, { username: session.username, role: session.role, expiresAt: new Date(session.expiresAt).toISOString() }) },
  {
    method: "DELETE",
    path: "/session",
    answer: async ({ deps, caller }) => {
      await logOut(deps, caller);
      return json(204, null, { ...NO_STORE, "set-cookie": clearedCookie(deps.mode) });
    },
  },
  { method: "GET", path: "/orders", answer: async ({ deps, caller, request }) => reply(200, await searchOrders(deps, caller, query(request))) },
  { method: "GET", path: "/orders/:orderId", answer: async ({ deps, caller, params }) => reply(200, await orderDetail(deps, caller, params.orderId!)) },
  { method: "POST", path: "/orders/:orderId/documents/:documentRef/reveal", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await revealDocument(deps, caller, params.orderId!, params.documentRef!, body)) },
  { method: "POST", path: "/orders/:orderId/documents/erase", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await eraseDocuments(deps, caller, params.orderId!, body)) },
  { method: "GET", path: "/audit", answer: async ({ deps, caller, request }) => reply(200, await readAudit(deps, caller, query(request))) },
  { method: "GET", path: "/queues/reconcile-failed", answer: async ({ deps, caller }) => reply(200, await reconcileQueue(deps, caller)) },
  // Taking an item is the same call for every queue; its id is the queue's own (operation, delivery, clearance).
  ...Object.entries(QUEUE_OF_PATH).map(([name, queue]): StaffRoute => ({ method: "POST", path: `/queues/${name}/:itemId/take`, answer: async ({ deps, caller, params }) => reply(200, await takeWorkItem(deps, caller, queue, params.itemId!)) })),
  { method: "POST", path: "/queues/reconcile-failed/:itemId/resolve", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await resolveReconcileItem(deps, caller, params.itemId!, body)) },
  { method: "GET", path: "/queues/failed-deliveries", answer: async ({ deps, caller }) => reply(200, await deliveriesQueue(deps, caller)) },
  { method: "POST", path: "/queues/failed-deliveries/:itemId/redeliver", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await redeliverItem(deps, caller, params.itemId!, body)) },
  { method: "GET", path: "/sellers", answer: async ({ deps, caller }) => reply(200, await sellers(deps, caller)) },
  // A new client's secret is in this answer only: no-store, like the token endpoint's.
  { method: "POST", path: "/sellers", body: "json-object", answer: async ({ deps, caller, body }) => reply(201, await registerSeller(deps, caller, body)) },
  ...(["suspend", "resume"] as const).map((to): StaffRoute => ({ method: "POST", path: `/sellers/:clientId/${to}`, body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await switchSeller(deps, caller, params.clientId!, to, body)) })),
  // The secret is in this answer only: no-store, like the token endpoint's.
  { method: "POST", path: "/sellers/:clientId/rotate-secret", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await rotateSellerSecret(deps, caller, params.clientId!, body)) },
  ...(["grant", "revoke"] as const).flatMap((change): StaffRoute[] => [
    { method: "POST", path: `/sellers/:clientId/scopes/${change}`, body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await changeSellerScopes(deps, caller, params.clientId!, change, body)) },
    { method: "POST", path: `/sellers/:clientId/agencies/${change}`, body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await changeAggregatorAgencies(deps, caller, params.clientId!, change, body)) },
  ]),
  { method: "POST", path: "/agencies", body: "json-object", answer: async ({ deps, caller, body }) => reply(201, await registerSellerAgency(deps, caller, body)) },
  ...(["activate", "deactivate"] as const).map((to): StaffRoute => ({ method: "POST", path: `/agencies/:agencyId/${to}`, body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await switchAgency(deps, caller, params.agencyId!, to, body)) })),
];

/** Every call of the staff JSON API (docs/staff-api.md): the console's pages are built on the same actions (actions.ts). */
export const STAFF_ROUTES: readonly StaffRoute[] = [...CORE_ROUTES, ...DASHBOARD_ROUTES, ...SERVICING_ROUTES, ...QUEUE_ROUTES, ...AGREEMENT_ROUTES, ...PROMOTION_ROUTES];

/**
 * The staff JSON API under /staff/api: scripts call it with the session cookie and X-CSRF-Token.
 * `handle` answers a request whose path is under /staff/api; `unhandled` answers a failure no
 * check expected (the gateway's generic 500).
 */
export function staffApi(deps: StaffDeps, unhandled: (error: unknown) => Response): (request: Request) => Promise<Response> {
  const app = staffRouter(STAFF_ROUTES, deps, unhandled);
  return (request) => app.handle(request);
}

/** POST /staff/api/session: the login, throttled per source address like the token endpoint's failures. */
async function openSession({ request, deps, body }: StaffCall): Promise<Response> {
  const text = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : "");
  const session = await logIn(request, deps, { username: text("username"), password: text("password"), totp: text("totp") });
  return json(
    200,
    { csrfToken: session.csrfToken, role: session.role, expiresAt: new Date(session.expiresAt).toISOString() },
    { ...NO_STORE, "set-cookie": sessionCookie(session.token, deps.mode, SESSION_ABSOLUTE_MS / 1000) },
  );
}
