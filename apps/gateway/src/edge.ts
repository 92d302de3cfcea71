import type { Server } from "bun";
import type { GatewayApp, NdcEntry } from "./app";
import { pathOf } from "./http/url-path";

/**
 * The socket's side of a request, which Elysia's context cannot carry: Bun's
 * server.requestIP() answers only for the Request object the socket produced, and the edge
 * may hand Elysia another one (below).
 */
interface Arrival {
  server: Server<unknown>;
  /**
   * The Request the socket produced: its peer address (server.requestIP) and the URL as it
   * arrived (for answers that echo the caller's own origin), read only by routes that need them.
   */
  request: Request;
}

const arrivals = new WeakMap<Request, Arrival>();

/** The remote address of a request that came through the edge; undefined in process (app.handle). */
export function remoteAddress(request: Request): string | undefined {
  const a = arrivals.get(request);
  // Asked only by the routes that use it (the token endpoint), not on every NDC call.
  return a ? a.server.requestIP(a.request)?.address : undefined;
}

/** The URL the caller sent, even when the edge rewrote it for routing. */
export function arrivedUrl(request: Request): string {
  return arrivals.get(request)?.request.url ?? request.url;
}

/**
 * Bun.serve's fetch: routes on the request path only. Elysia reads the path from request.url by
 * position (from the first "/" at index 11 or later, assuming "http://" plus a host of at least
 * four characters), so with a short Host header ("Host: ab") it routed "/zzzz/health/ready" as
 * "/health/ready" and "/admin/24.4/AirShoppingRQ" as AirShopping. When the two readings differ,
 * Elysia gets the same request under a URL whose path it reads exactly.
 */
export function edgeFetch(gw: { app: GatewayApp; ndc: NdcEntry }): (request: Request, server: Server<unknown>) => Promise<Response> {
  const { app, ndc } = gw;
  return (request, server) => {
    // The hot path, POST /24.4/<MessageName>, goes straight to the pipeline: the same function
    // Elysia's route calls, without Elysia's routing and context (about a tenth of an NDC Error
    // answer, docs/decisions/0008). Anything else, or a name Elysia would decode, goes through Elysia.
    if (request.method === "POST") {
      const m = NDC_PATH.exec(pathOf(request.url));
      if (m !== null) return ndc(request, m[1]!);
    }
    const routed = routable(request);
    arrivals.set(routed, { server, request });
    return app.handle(routed);
  };
}

/** A message path as Elysia's "/24.4/:message" reads it, for names with nothing to decode. */
const NDC_PATH = /^\/24\.4\/([A-Za-z0-9_]+)$/;

/** A host that puts the path where Elysia looks for it, whatever the caller's Host was. */
const ROUTING_ORIGIN = "http://gateway.invalid";

function routable(request: Request): Request {
  const url = request.url;
  const s = url.indexOf("/", 11);
  const q = s === -1 ? -1 : url.indexOf("?", s + 1);
  const elysiaPath = s === -1 ? "/" : url.substring(s, q === -1 ? undefined : q);
  if (elysiaPath === pathOf(url)) return request;
  const exact = new URL(url);
  return new Request(`${ROUTING_ORIGIN}${exact.pathname}${exact.search}`, request);
}
