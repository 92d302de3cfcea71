import { readDashboard, readTraffic } from "./dashboard";
import type { StaffDeps } from "./deps";
import type { StaffCaller } from "./guard";
import type { PageChrome } from "./html";
import { DASHBOARD_CSS, dashboardPage, trafficPage } from "./views-dashboard";

/** GET /staff/dashboard, /staff/sellers/traffic and the dashboard's stylesheet; undefined for any other request. */
export async function dashboardPages(request: Request, path: string, deps: StaffDeps, caller: StaffCaller, chrome: PageChrome): Promise<Response | undefined> {
  if (request.method !== "GET") return undefined;
  if (path === "/dashboard.css") return new Response(DASHBOARD_CSS, { headers: { "content-type": "text/css; charset=utf-8", "cache-control": "no-cache" } });
  if (path === "/dashboard") return dashboardPage(await readDashboard(deps, caller), chrome);
  if (path === "/sellers/traffic") return trafficPage(await readTraffic(deps, caller), chrome);
  return undefined;
}
