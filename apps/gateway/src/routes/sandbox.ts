import type { AuthService, StoreSellerClocks } from "@ndc/auth";
import { atSellerOffset, type Clock } from "@ndc/clock";
import type { GatewayMode } from "@ndc/config";
import { GatewayError } from "@ndc/errors";
import { CLOCK_SWEEPS } from "@ndc/scheduler";
import { json, jsonError, notFound, readJsonObject } from "./json";
import { subscriberOf } from "./notifications";
import { sandboxOrderControl, type SandboxOrders } from "./sandbox-orders";

/** The scheduler's jobs by name (@ndc/scheduler jobsByName), each run once here: what one run did. */
export type SandboxJobs = Record<string, () => Promise<Record<string, unknown>>>;

const MAX_ADVANCE_SECONDS = 400 * 86_400;

/**
 * The sandbox controls (docs/sandbox-controls.md): local and sandbox modes only; production
 * answers 404 as for any path it does not serve. Any authenticated seller may call them.
 */
export async function sandboxEndpoint(
  request: Request,
  path: string,
  deps: { mode: GatewayMode; auth: AuthService; clock: Clock; securityClock: Clock; sellerClocks: StoreSellerClocks | null; jobs: SandboxJobs; orders?: SandboxOrders },
): Promise<Response> {
  if (deps.mode === "production" || !deps.sellerClocks) return notFound();
  const clocks = deps.sellerClocks;
  try {
    const who = await subscriberOf(request, deps.auth, "");
    if (path === "/clock" && request.method === "GET") return json(200, await clockOf(deps, clocks, who.clientId));
    if (request.method !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: path === "/clock" ? ["GET", "POST"] : ["POST"] });
    const body = await readJsonObject(request);
    if (path === "/clock") {
      // Local mode only: a sandbox's sellers share seat and partner-stock holds, and a hold made on a
      // clock moved ahead would keep another seller's seats that long (docs/sandbox-controls.md).
      if (deps.mode !== "local") throw new GatewayError("sandbox_clock_local_only");
      // The caller's own clock: its offset moves, real time and every other seller's clock do not.
      const at = deps.securityClock.now();
      if (body.offsetSeconds !== undefined) await clocks.set(who.clientId, seconds(body, "offsetSeconds") * 1000, at);
      else await clocks.advance(who.clientId, seconds(body, "advanceSeconds") * 1000, at);
      // Then every due sweep, in order, each order at its owner's time: expiry writes notifications, dispatch sends them.
      const ran: Record<string, Record<string, unknown>> = {};
      for (const name of CLOCK_SWEEPS) if (deps.jobs[name]) ran[name] = await atSellerOffset(0, deps.jobs[name]);
      return json(200, { ...(await clockOf(deps, clocks, who.clientId)), jobs: ran });
    }
    if (path === "/scheduler/run") {
      const job = body.job;
      if (typeof job !== "string" || !Object.hasOwn(deps.jobs, job))
        throw new GatewayError("scheduler_job_unknown", { detail: `Known jobs: ${Object.keys(deps.jobs).join(", ")}.`, element: "job" });
      return json(200, { job, result: await deps.jobs[job]!() });
    }
    if (path.startsWith("/orders/") && deps.orders) {
      const parts = decodedParts(path.slice("/orders/".length));
      if (!parts) return notFound();
      // On the caller's business time, as its NDC requests are.
      const offsetMs = await clocks.offsetOf(who.clientId);
      const orders = deps.orders;
      const answer = await atSellerOffset(offsetMs, () => sandboxOrderControl(parts, body, { agencyId: who.agencyId, clientId: who.clientId }, { orders, jobs: deps.jobs }));
      if (answer) return answer;
    }
    return notFound();
  } catch (e) {
    if (e instanceof GatewayError) return jsonError(e);
    throw e;
  }
}

/**
 * The caller's clock: its business now (the gateway's business clock, which SANDBOX_CLOCK_START may
 * have started elsewhere than real time, at the caller's offset) and how far the offset moved it.
 */
async function clockOf(deps: { clock: Clock }, clocks: StoreSellerClocks, clientId: string): Promise<{ now: string; offsetSeconds: number }> {
  const offsetMs = await clocks.offsetOf(clientId);
  return { now: new Date(atSellerOffset(offsetMs, () => deps.clock.now())).toISOString(), offsetSeconds: offsetMs / 1000 };
}

/** A body field that must be a whole number of seconds from 0 to MAX_ADVANCE_SECONDS. */
function seconds(body: Record<string, unknown>, field: "advanceSeconds" | "offsetSeconds"): number {
  const s = body[field];
  if (typeof s !== "number" || !Number.isInteger(s) || s < 0 || s > MAX_ADVANCE_SECONDS)
    throw new GatewayError("request_invalid", { detail: `${field} must be a whole number from 0 to ${MAX_ADVANCE_SECONDS}.`, element: field });
  return s;
}

/** Path segments decoded, or null when one is not valid percent-encoding (answered 404 like any unknown path). */
function decodedParts(rest: string): string[] | null {
  try {
    return rest.split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
}
