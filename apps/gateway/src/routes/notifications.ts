import type { AuthService, Principal } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import { pageLimit, type Subscriber, type Subscriptions } from "@ndc/notifications";
import { json, jsonError, notFound, readJsonObject } from "./json";

const SCOPE = "ndc:notif:subscribe";

/** The caller's bearer token or API key, with the subscription scope. */
export async function subscriberOf(request: Request, auth: AuthService, scope = SCOPE): Promise<Subscriber & { principal: Principal }> {
  const principal = await auth.authenticate({ authorization: request.headers.get("authorization"), apiKey: request.headers.get("x-api-key") });
  if (scope) auth.requireScope(principal, scope);
  return { principal, agencyId: principal.agency.agencyId, clientId: principal.clientId, scopes: principal.scopes };
}

/**
 * The subscription management endpoints of issue 10 (JSON, docs/notifications.md), `path` being
 * what follows /notifications/subscriptions. Every refusal is a catalogue code.
 */
export async function subscriptionsEndpoint(request: Request, path: string, deps: { auth: AuthService; subscriptions: Subscriptions }): Promise<Response> {
  try {
    const who = await subscriberOf(request, deps.auth);
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    const m = request.method;
    const s = deps.subscriptions;
    if (parts.length === 0) {
      if (m === "POST") {
        const body = await readJsonObject(request);
        return json(201, await s.create(who, { url: body.url, events: body.events }));
      }
      if (m === "GET") {
        const q = new URL(request.url).searchParams;
        return json(200, await s.list(who, { limit: pageLimit(q.get("limit")), after: q.get("after") ?? undefined }));
      }
      throw new GatewayError("method_not_allowed", { allowedMethods: ["GET", "POST"] });
    }
    const [id, sub, deliveryId, action] = parts as [string, string?, string?, string?];
    if (parts.length === 1) {
      if (m === "GET") return json(200, await s.get(who, id));
      if (m === "DELETE") return (await s.delete(who, id), json(204, null));
      throw new GatewayError("method_not_allowed", { allowedMethods: ["GET", "DELETE"] });
    }
    if (parts.length === 2 && sub === "rotate-secret") {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      return json(200, await s.rotateSecret(who, id));
    }
    if (parts.length === 2 && sub === "deliveries") {
      if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
      return json(200, { deliveries: await s.deliveries(who, id) });
    }
    if (parts.length === 4 && sub === "deliveries" && action === "redeliver") {
      if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
      await s.redeliver(who, id, deliveryId!);
      return json(202, { id: deliveryId, status: "pending" });
    }
    return notFound();
  } catch (e) {
    if (e instanceof GatewayError) return jsonError(e);
    throw e;
  }
}
