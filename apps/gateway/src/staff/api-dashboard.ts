import { readDashboard, readTraffic } from "./dashboard";
import { reply, type StaffRoute } from "./api-route";

/** GET /staff/api/dashboard and GET /staff/api/sellers/traffic (docs/staff-api.md). */
export const DASHBOARD_ROUTES: StaffRoute[] = [
  { method: "GET", path: "/dashboard", answer: async ({ deps, caller }) => reply(200, await readDashboard(deps, caller)) },
  { method: "GET", path: "/sellers/traffic", answer: async ({ deps, caller }) => reply(200, await readTraffic(deps, caller)) },
];
