import type { AuthService } from "@ndc/auth";
import { isMovable, type Clock } from "@ndc/clock";
import type { GatewayMode } from "@ndc/config";
import { GatewayError } from "@ndc/errors";
import { json, jsonError, notFound, readJsonObject } from "./json";
import { subscriberOf } from "./notifications";
import { sandboxOrderControl, type SandboxOrders } from "./sandbox-orders";

/** A sweep the sandbox can run now: its name and what one run did. */
export type SandboxJobs = Record<string, () => Promise<Record<string, number>>>;

const MAX_ADVANCE_SECONDS = 400 * 86_400;

/**
 * The sandbox controls (docs/sandbox-controls.md): local and sandbox modes only; production
 * answers 404 as for any path it does not serve. Any authenticated seller may call them.
 */
export async function sandboxEndpoint(request: Request, path: string, deps: { mode: GatewayMode; auth: AuthService; clock: Clock; jobs: SandboxJobs; orders?: SandboxOrders }): Promise<Response> {
  if (deps.mode === "production") return notFound();
  try {
    const who = await subscriberOf(request, deps.auth, "");
    if (request.method !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
    const body = await readJsonObject(request);
    if (path === "/clock") {
      // Local mode moves the whole gateway's clock; sandbox mode is shared by many sellers, so it refuses.
      if (deps.mode !== "local" || !isMovable(deps.clock)) throw new GatewayError("sandbox_clock_local_only");
      const s = body.advanceSeconds;
      if (typeof s !== "number" || !Number.isInteger(s) || s < 0 || s > MAX_ADVANCE_SECONDS)
        throw new GatewayError("request_invalid", { detail: `advanceSeconds must be a whole number from 0 to ${MAX_ADVANCE_SECONDS}.`, element: "advanceSeconds" });
      deps.clock.advance(s * 1000);
      // Then every due sweep, in order: expiry writes notifications, dispatch sends them.
      const ran: Record<string, Record<string, number>> = {};
      for (const [name, run] of Object.entries(deps.jobs)) ran[name] = await run();
      return json(200, { now: new Date(deps.clock.now()).toISOString(), jobs: ran });
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
      const answer = await sandboxOrderControl(parts, body, { agencyId: who.agencyId, clientId: who.clientId }, { orders: deps.orders, jobs: deps.jobs });
      if (answer) return answer;
    }
    return notFound();
  } catch (e) {
    if (e instanceof GatewayError) return jsonError(e);
    throw e;
  }
}

/** Path segments decoded, or null when one is not valid percent-encoding (answered 404 like any unknown path). */
function decodedParts(rest: string): string[] | null {
  try {
    return rest.split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
}
