import { GatewayError } from "@ndc/errors";
import { json, readJsonObject } from "../routes/json";
import { actOnClearance, clearancesQueue } from "./clearances";
import type { StaffDeps } from "./deps";
import { staffCaller } from "./guard";
import { AGREEMENT_PATHS } from "./paths";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/**
 * The unclear-clearances queue under /staff/api (docs/staff-api.md): the listing and an action on
 * one clearance (taking one goes through the queues' shared take route). Undefined for any other
 * path; refusals are thrown for staffApi to answer.
 */
export async function queuesApi(request: Request, path: string, deps: StaffDeps): Promise<Response | undefined> {
  const m = request.method;
  if (path === "/queues/unclear-clearances") {
    const caller = await staffCaller(request, deps);
    if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
    return json(200, await clearancesQueue(deps, caller), NO_STORE);
  }
  const r = AGREEMENT_PATHS.clearance.exec(path);
  if (r) {
    if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
    const caller = await staffCaller(request, deps);
    return json(200, await actOnClearance(deps, caller, r[1]!, r[2] as "clear" | "rerequest", await readJsonObject(request)), NO_STORE);
  }
  return undefined;
}
