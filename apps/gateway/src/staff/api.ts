import { GatewayError } from "@ndc/errors";
import { SESSION_ABSOLUTE_MS } from "@ndc/staff";
import { json, jsonError, notFound, readJsonObject } from "../routes/json";
import { servicingApi } from "./api-servicing";
import { eraseDocuments, orderDetail, readAudit, revealDocument, searchOrders } from "./actions";
import { clearedCookie, sessionCookie } from "./cookie";
import type { StaffDeps } from "./deps";
import { sameOrigin, staffCaller, type StaffCaller } from "./guard";
import { logIn, logOut } from "./login";
import { agreementsApi } from "./api-agreements";
import { queuesApi } from "./api-queues";
import { promotionsApi } from "./promotions";
import { STAFF_PATHS } from "./paths";
import { dashboardApi } from "./api-dashboard";
import { changeAggregatorAgencies, changeSellerScopes, registerSeller, registerSellerAgency, switchAgency } from "./registry";
import { deliveriesQueue, QUEUE_OF_PATH, reconcileQueue, redeliverItem, resolveReconcileItem, rotateSellerSecret, sellers, switchSeller, takeWorkItem } from "./work";

const { order: ORDER, reveal: REVEAL, erase: ERASE, resolve: RESOLVE, take: TAKE, redeliver: REDELIVER, seller: SELLER, rotate: ROTATE, scopes: SCOPES, agency: AGENCY, aggregator: AGGREGATOR } = STAFF_PATHS;

/** The GET listings of the work pages: the two queues and the sellers. */
const LISTINGS: Record<string, (deps: StaffDeps, caller: StaffCaller) => Promise<unknown>> = {
  "/queues/reconcile-failed": reconcileQueue,
  "/queues/failed-deliveries": deliveriesQueue,
  "/sellers": sellers,
};

/** Nothing of a staff answer is stored by a browser or a proxy; a reveal's least of all. */
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/**
 * The staff JSON API under /staff/api (docs/staff-api.md): the console's pages are built on the
 * same actions (actions.ts), and scripts can call it with the session cookie and X-CSRF-Token.
 */
export async function staffApi(request: Request, path: string, deps: StaffDeps): Promise<Response> {
  try {
    const m = request.method;
    if (m !== "GET" && m !== "HEAD" && !sameOrigin(request)) throw new GatewayError("staff_csrf_invalid", { detail: "The request came from another origin." });
    if (path === "/session") {
      if (m === "POST") return await openSession(request, deps);
      if (m === "DELETE") {
        await logOut(deps, await staffCaller(request, deps));
        return json(204, null, { ...NO_STORE, "set-cookie": clearedCookie(deps.mode) });
      }
      if (m === "GET") {
        const { session } = await staffCaller(request, deps);
        return json(200, { username: session.username, role: session.role, expiresAt: new Date(session.expiresAt).toISOString() }, NO_STORE);
      }
      throw new GatewayError("method_not_allowed", { allowedMethods: ["GET", "POST", "DELETE"] });
    }
    const dashboard = await dashboardApi(request, path, deps);
    if (dashboard) return dashboard;
    const serviced = await servicingApi(request, path, deps);
    if (serviced) return serviced;
    if (path === "/orders") {
      const caller = await staffCaller(request, deps);
      if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
      return json(200, await searchOrders(deps, caller, new URL(request.url).searchParams), NO_STORE);
    }
    if (path === "/audit") {
      const caller = await staffCaller(request, deps);
      if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
      return json(200, await readAudit(deps, caller, new URL(request.url).searchParams), NO_STORE);
    }
    if (path === "/agencies") {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(201, await registerSellerAgency(deps, caller, await readJsonObject(request)), NO_STORE);
    }
    const agency = AGENCY.exec(path);
    if (agency) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await switchAgency(deps, caller, agency[1]!, agency[2] as "activate" | "deactivate", await readJsonObject(request)), NO_STORE);
    }
    if (path === "/sellers" && m === "POST") {
      const caller = await staffCaller(request, deps);
      // A new client's secret is in this answer only: no-store, like the token endpoint's.
      return json(201, await registerSeller(deps, caller, await readJsonObject(request)), NO_STORE);
    }
    const listing = LISTINGS[path];
    if (listing) {
      const caller = await staffCaller(request, deps);
      if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: path === "/sellers" ? ["GET", "POST"] : ["GET"] });
      return json(200, await listing(deps, caller), NO_STORE);
    }
    let r = ORDER.exec(path);
    if (r) {
      const caller = await staffCaller(request, deps);
      if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
      return json(200, await orderDetail(deps, caller, r[1]!), NO_STORE);
    }
    if ((r = REVEAL.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await revealDocument(deps, caller, r[1]!, r[2]!, await readJsonObject(request)), NO_STORE);
    }
    if ((r = ERASE.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await eraseDocuments(deps, caller, r[1]!, await readJsonObject(request)), NO_STORE);
    }
    if ((r = RESOLVE.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await resolveReconcileItem(deps, caller, r[1]!, await readJsonObject(request)), NO_STORE);
    }
    if ((r = TAKE.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await takeWorkItem(deps, caller, QUEUE_OF_PATH[r[1]!]!, r[2]!), NO_STORE);
    }
    if ((r = REDELIVER.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await redeliverItem(deps, caller, r[1]!, await readJsonObject(request)), NO_STORE);
    }
    if ((r = SELLER.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await switchSeller(deps, caller, r[1]!, r[2] as "suspend" | "resume", await readJsonObject(request)), NO_STORE);
    }
    if ((r = SCOPES.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await changeSellerScopes(deps, caller, r[1]!, r[2] as "grant" | "revoke", await readJsonObject(request)), NO_STORE);
    }
    if ((r = AGGREGATOR.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      return json(200, await changeAggregatorAgencies(deps, caller, r[1]!, r[2] as "grant" | "revoke", await readJsonObject(request)), NO_STORE);
    }
    if ((r = ROTATE.exec(path))) {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      const caller = await staffCaller(request, deps);
      // The secret is in this answer only: no-store, like the token endpoint's.
      return json(200, await rotateSellerSecret(deps, caller, r[1]!, await readJsonObject(request)), NO_STORE);
    }
    const more = (await queuesApi(request, path, deps)) ?? (await agreementsApi(request, path, deps)) ?? (await promotionsApi(request, path, deps));
    if (more) return more;
    return notFound();
  } catch (e) {
    if (e instanceof GatewayError) return jsonError(e);
    throw e;
  }
}

/** POST /staff/api/session: the login, throttled per source address like the token endpoint's failures. */
async function openSession(request: Request, deps: StaffDeps): Promise<Response> {
  const body = await readJsonObject(request);
  const text = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : "");
  const session = await logIn(request, deps, { username: text("username"), password: text("password"), totp: text("totp") });
  return json(
    200,
    { csrfToken: session.csrfToken, role: session.role, expiresAt: new Date(session.expiresAt).toISOString() },
    { ...NO_STORE, "set-cookie": sessionCookie(session.token, deps.mode, SESSION_ABSOLUTE_MS / 1000) },
  );
}
