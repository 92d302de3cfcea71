import { createApiKey, registerAgency, registerClient } from "@ndc/auth";
import type { TestGateway } from "../support/gateway";

/** A receiver on a free local port: records every request; `answer` decides each status. */
export interface Receiver {
  url: string;
  requests: { path: string; headers: Headers; body: string; at: number }[];
  answer: (n: number) => Response | Promise<Response>;
  stop(): void;
}

export function startReceiver(answer: (n: number) => Response | Promise<Response> = () => new Response(null, { status: 204 })): Receiver {
  const r: Receiver = {
    url: "",
    requests: [],
    answer,
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      r.requests.push({ path: new URL(req.url).pathname, headers: req.headers, body: await req.text(), at: Date.now() });
      return r.answer(r.requests.length);
    },
  });
  r.url = `http://127.0.0.1:${server.port}`;
  return r;
}

/** JSON call to the management endpoints with an API key, or "Bearer <token>". */
export async function call(t: TestGateway, method: string, path: string, apiKey: string, body?: unknown): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await t.fetch(path, {
    method,
    headers: { ...(apiKey.startsWith("Bearer ") ? { authorization: apiKey } : { "x-api-key": apiKey }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Another selling agency with its own client and key, holding `scopes`. */
export async function otherSeller(t: TestGateway, agencyId: string, iataNumber: string, scopes: string): Promise<string> {
  await registerAgency(t.gw.store, { agencyId, iataNumber, name: `Agency ${agencyId}` });
  const c = await registerClient(t.gw.store, { agency: agencyId, scopes });
  return (await createApiKey(t.gw.store, c.clientId)).apiKey;
}

/** Another selling agency's client with a bearer token (API keys are local mode's only), as "Bearer <token>". */
export async function otherSellerToken(t: TestGateway, agencyId: string, iataNumber: string, scopes: string): Promise<string> {
  return (await sellerWithToken(t, agencyId, iataNumber, scopes)).token;
}

/** The same, with the client's id (a test revokes its grant). */
export async function sellerWithToken(t: TestGateway, agencyId: string, iataNumber: string, scopes: string): Promise<{ token: string; clientId: string }> {
  await registerAgency(t.gw.store, { agencyId, iataNumber, name: `Agency ${agencyId}` });
  const c = await registerClient(t.gw.store, { agency: agencyId, scopes });
  const res = await t.fetch("/oauth/token", {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${c.clientId}:${c.clientSecret}`)}`, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  return { token: `Bearer ${((await res.json()) as { access_token: string }).access_token}`, clientId: c.clientId };
}
