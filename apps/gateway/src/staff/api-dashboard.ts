import { GatewayError } from "@ndc/errors";
import { json } from "../routes/json";
import { readDashboard, readTraffic } from "./dashboard";
import type { StaffDeps } from "./deps";
import { staffCaller } from "./guard";

/** GET /staff/api/dashboard and GET /staff/api/sellers/traffic (docs/staff-api.md); undefined for any other path. Refusals are thrown to staffApi. */
export async function dashboardApi(request: Request, path: string, deps: StaffDeps): Promise<Response | undefined> {
  if (path !== "/dashboard" && path !== "/sellers/traffic") return undefined;
  const caller = await staffCaller(request, deps);
  if (request.method !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
  const body = path === "/dashboard" ? await readDashboard(deps, caller) : await readTraffic(deps, caller);
  return json(200, body, { "cache-control": "no-store", pragma: "no-cache" });
}
