import { Elysia } from "elysia";
import { GatewayError } from "@ndc/errors";
import { json, jsonError, notFound, readJsonObject } from "../routes/json";
import type { StaffDeps } from "./deps";
import { sameOrigin, staffCaller, type StaffCaller } from "./guard";
import { ACCOUNT_ID_TEXT, ID_TEXT, SEQ_TEXT } from "./paths";

/** Nothing of a staff answer is stored by a browser or a proxy; a reveal's least of all. */
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/** A staff API answer: JSON, never stored. */
export const reply = (status: number, value: unknown) => json(status, value, NO_STORE);

/** What a route's answer is given once every check passed. */
export interface StaffCall {
  deps: StaffDeps;
  request: Request;
  /** The path's ids, each already checked against its pattern. */
  params: Record<string, string>;
  /** The body as a JSON object; {} for a route that reads none. */
  body: Record<string, unknown>;
}

/**
 * One call of the staff JSON API, declared: method, path (Elysia's, under /staff/api), whether it
 * reads a body, and its answer. `answer` gets the session's caller; `open` is the login, the one
 * call made without a session.
 */
export type StaffRoute = { method: "GET" | "POST" | "DELETE"; path: string; body?: "json-object" } & (
  | { answer: (call: StaffCall & { caller: StaffCaller }) => Promise<Response> }
  | { open: (call: StaffCall) => Promise<Response> }
);

/**
 * A path's ids (paths.ts): order, document, operation, delivery, clearance, client and agency ids
 * and key fingerprints are IDs, a settlement account's id is longer, a signature's seq a number.
 * A path whose id is anything else is a path the API does not serve (404), whatever the method.
 */
const ID = new RegExp(`^${ID_TEXT}$`);
const PARAM_PATTERNS: Record<string, RegExp> = { accountId: new RegExp(`^${ACCOUNT_ID_TEXT}$`), seq: new RegExp(`^${SEQ_TEXT}$`) };
const paramsServed = (params: Record<string, string> | undefined) => Object.entries(params ?? {}).every(([k, v]) => (PARAM_PATTERNS[k] ?? ID).test(v));

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The one order of checks of every staff API call (docs/staff-api.md "Order of checks"):
 * 1. the path: an unknown path, or an id outside its pattern, is not_found (404);
 * 2. the method: a served path asked with another method is method_not_allowed (405, Allow),
 *    before anything about the caller is read;
 * 3. the origin: a state-changing call from a page of another site is staff_csrf_invalid (403),
 *    the login included;
 * 4. the session cookie (staff_session_required, 401), then a state-changing call's CSRF token
 *    (staff_csrf_invalid, 403): staffCaller;
 * 5. the body, for a call that takes one: a JSON object within 16 KiB (request_invalid, 400;
 *    payload_too_large, 413);
 * 6. the answer: the role's right first (staff_forbidden, 403, audited naming the target: the
 *    action knows it), then the fields (request_invalid naming the field: fields.ts, one reader
 *    shared with the pages' forms), then the target.
 * The body is read by this guard, not by Elysia's body validation: Elysia validates before its
 * beforeHandle hooks, so a bad body would be answered 400 before a missing session's 401.
 */
async function guarded(request: Request, params: Record<string, string>, route: StaffRoute, allowed: string[], deps: StaffDeps): Promise<Response> {
  try {
    if (!paramsServed(params)) return notFound();
    // Elysia answers HEAD with a GET route: a HEAD would run the GET's action (and its audit row).
    if (request.method !== route.method) throw new GatewayError("method_not_allowed", { allowedMethods: allowed });
    if (STATE_CHANGING.has(request.method) && !sameOrigin(request)) throw new GatewayError("staff_csrf_invalid", { detail: "The request came from another origin." });
    const caller = "answer" in route ? await staffCaller(request, deps) : undefined;
    const body = route.body ? await readJsonObject(request) : {};
    const call = { deps, request, params, body };
    return "answer" in route ? await route.answer({ ...call, caller: caller! }) : await route.open(call);
  } catch (e) {
    if (e instanceof GatewayError) return jsonError(e);
    throw e;
  }
}

/** A served path asked with a method none of its routes has: 405 naming the ones it has (or 404 for an id outside its pattern). */
function notAllowed(params: Record<string, string>, allowed: string[]): Response {
  if (!paramsServed(params)) return notFound();
  return jsonError(new GatewayError("method_not_allowed", { allowedMethods: allowed }));
}

/**
 * The staff JSON API as an Elysia app: each route declared with its method, and each served
 * path's other methods answered 405 with Allow. `unhandled` answers a failure no check expected
 * (the gateway's generic 500, logged), as the gateway's own onError does.
 */
export function staffRouter(routes: readonly StaffRoute[], deps: StaffDeps, unhandled: (error: unknown) => Response) {
  const allowedOf = new Map<string, string[]>();
  for (const r of routes) allowedOf.set(r.path, [...(allowedOf.get(r.path) ?? []), r.method].sort());
  // strictPath: /orders/X/ is not /orders/X, as the API has always answered.
  // Elysia's route methods add to the app itself (their returned type only widens it): a loop may declare them.
  // The error hook first: Elysia applies a hook to the routes declared after it.
  const app = new Elysia({ prefix: "/staff/api", strictPath: true }).onError(({ code, error }) => (code === "NOT_FOUND" ? notFound() : unhandled(error)));
  for (const r of routes) {
    const allowed = allowedOf.get(r.path)!;
    app.route(r.method, r.path, ({ request, params }) => guarded(request, (params ?? {}) as Record<string, string>, r, allowed, deps), { parse: "none" });
  }
  for (const [path, allowed] of allowedOf) app.all(path, ({ params }) => notAllowed(params as Record<string, string>, allowed), { parse: "none" });
  return app;
}
