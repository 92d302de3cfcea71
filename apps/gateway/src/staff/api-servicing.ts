import type { StaffDeps } from "./deps";
import { signedOriginal } from "./evidence";
import type { StaffCaller } from "./guard";
import { NO_STORE, reply, type StaffRoute } from "./api-route";
import { acceptAddition, acceptCancellation, acceptFlightChange, quoteAddition, quoteCancellation, quoteFlightChange } from "./servicing";
import { servicingOptions } from "./servicing-options";
import { renamePassenger } from "./rename";

type Step = (deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) => Promise<unknown>;

/** Each servicing step's POST: a quote (200, firm terms) or an acceptance (200, the order as changed). */
const STEPS: Record<string, Step> = {
  "cancel/quote": quoteCancellation,
  cancel: acceptCancellation,
  "change/quote": quoteFlightChange,
  change: acceptFlightChange,
  "add/quote": quoteAddition,
  add: acceptAddition,
  // A name correction moves no money: no quote, accepted at once (rename.ts).
  rename: renamePassenger,
};

/**
 * The staff JSON API of servicing an order as the airline (docs/staff-api.md "Servicing"), and
 * the signed original's download.
 */
export const SERVICING_ROUTES: StaffRoute[] = [
  { method: "GET", path: "/orders/:orderId/servicing/options", answer: async ({ deps, caller, params }) => reply(200, await servicingOptions(deps, caller, params.orderId!)) },
  ...Object.entries(STEPS).map(([step, run]): StaffRoute => ({ method: "POST", path: `/orders/:orderId/servicing/${step}`, body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await run(deps, caller, params.orderId!, body)) })),
  { method: "POST", path: "/orders/:orderId/signatures/:seq/original", body: "json-object", answer: async ({ deps, caller, params, body }) => originalResponse(await signedOriginal(deps, caller, params.orderId!, params.seq!, body)) },
];

/**
 * The signed original (or its masked copy): a download, never stored by a browser or a proxy.
 * `X-Evidence-Form` says which: `masked` (document numbers masked, the signature no longer
 * verifies) or `signed-original` (the bytes as received).
 */
export function originalResponse(o: { xml: string; filename: string; masked: boolean }): Response {
  return new Response(o.xml, {
    headers: { "content-type": "application/xml; charset=utf-8", "content-disposition": `attachment; filename="${o.filename.replace(/[^A-Za-z0-9_.-]/g, "_")}"`, "x-content-type-options": "nosniff", "x-evidence-form": o.masked ? "masked" : "signed-original", ...NO_STORE },
  });
}
