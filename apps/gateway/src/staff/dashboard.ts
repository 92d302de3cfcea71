import { recordAudit } from "@ndc/staff";
import { dashboardFigures, trafficFigures } from "../metrics/figures";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";

/**
 * The dashboard (issue 12 item 9) and the sellers' traffic (item 8), read by the JSON API and the
 * pages alike; each look is on the audit trail like the other listings.
 */
export async function readDashboard(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "dashboard.read", { action: "dashboard.view" });
  const figures = await dashboardFigures(deps.figures);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "dashboard.view", outcome: "ok" });
  return figures;
}

/** Per seller client, the last hour's requests, refusals and errors: supervisors and admins, who answer for the sellers. */
export async function readTraffic(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "sellers.read", { action: "sellers.traffic" });
  const figures = trafficFigures(deps.figures);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "sellers.traffic", outcome: "ok", detail: `${figures.clients.length} clients` });
  return figures;
}
