import { GatewayError } from "@ndc/errors";
import { json, readJsonObject } from "../routes/json";
import type { StaffDeps } from "./deps";
import { signedOriginal } from "./evidence";
import { staffCaller } from "./guard";
import { STAFF_PATHS } from "./paths";
import { acceptAddition, acceptCancellation, acceptFlightChange, quoteAddition, quoteCancellation, quoteFlightChange } from "./servicing";
import { servicingOptions } from "./servicing-options";
import { renamePassenger } from "./rename";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/** Each servicing step's POST: a quote (200, firm terms) or an acceptance (200, the order as changed). */
const STEPS = {
  "cancel/quote": quoteCancellation,
  cancel: acceptCancellation,
  "change/quote": quoteFlightChange,
  change: acceptFlightChange,
  "add/quote": quoteAddition,
  add: acceptAddition,
  // A name correction moves no money: no quote, accepted at once (rename.ts).
  rename: renamePassenger,
} as const;

/**
 * The staff JSON API of servicing an order as the airline (docs/staff-api.md "Servicing"), and
 * the signed original's download: a Response for its paths, undefined for any other (api.ts asks
 * here first). Errors are thrown to api.ts, which answers them like every staff call's.
 */
export async function servicingApi(request: Request, path: string, deps: StaffDeps): Promise<Response | undefined> {
  const m = request.method;
  let r = STAFF_PATHS.servicing.exec(path);
  if (r) {
    const [, orderId, step] = r as unknown as [string, string, string];
    if (step === "options") {
      if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
      return json(200, await servicingOptions(deps, await staffCaller(request, deps), orderId), NO_STORE);
    }
    if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
    const caller = await staffCaller(request, deps);
    return json(200, await STEPS[step as keyof typeof STEPS](deps, caller, orderId, await readJsonObject(request)), NO_STORE);
  }
  if ((r = STAFF_PATHS.original.exec(path))) {
    if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
    const caller = await staffCaller(request, deps);
    return originalResponse(await signedOriginal(deps, caller, r[1]!, r[2]!, await readJsonObject(request)));
  }
  return undefined;
}

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
