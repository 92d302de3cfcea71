import { Elysia } from "elysia";
import type { GatewayConfig } from "@ndc/config";
import type { AuthService, FailureBudget, RateLimiter, StoreSellerClocks } from "@ndc/auth";
import { logRequest, type Logger } from "@ndc/log";
import { nanoid } from "nanoid";
import type { MessageHandler } from "@ndc/messages";
import { faviconResponse } from "./staff/favicon";
import { clientGone } from "./ndc/client-gone";
import { handleNdc, type NdcDeps } from "./ndc/pipeline";
import type { SignatureStep } from "./ndc/signature-step";
import type { AirlineKey } from "@ndc/signatures";
import { discoveryDocument } from "./routes/discovery";
import { tokenEndpoint } from "./routes/token";
import { subscriptionsEndpoint } from "./routes/notifications";
import { sandboxEndpoint, type SandboxJobs } from "./routes/sandbox";
import type { SandboxOrders } from "./routes/sandbox-orders";
import type { Clock, SellerClocks } from "@ndc/clock";
import type { Subscriptions } from "@ndc/notifications";
import { arrivedUrl, remoteAddress } from "./edge";
import { pathOf } from "./http/url-path";
import { staffApi } from "./staff/api";
import { staffPages } from "./staff/pages";
import type { StaffDeps } from "./staff/deps";
import type { FigureSources } from "./metrics/figures";
import { metricsEndpoint } from "./metrics/route";

export interface GatewayDeps {
  config: GatewayConfig;
  auth: AuthService;
  rateLimiter: RateLimiter;
  /** Failed client authentications per source, counted in the store (every process spends one budget). */
  failures: FailureBudget;
  handlers: ReadonlyMap<string, MessageHandler>;
  logger: Logger;
  /** The signing agreement applied to a request's Signature (ndc/signature-step.ts). */
  signatures?: SignatureStep;
  /** The airline's signing key, published in the discovery document and used on OrderViewRS answers. */
  airlineKey?: () => AirlineKey | undefined;
  /** Readiness: resolves when the store answers. */
  ready: () => Promise<boolean>;
  /** More for /health/ready when ready (serve: the scheduler's jobs, last and next run); absent: status only. */
  readyDetail?: () => Promise<Record<string, unknown>>;
  /** The notification endpoints and sandbox controls (issue 10); absent in gateways built without them. */
  notifications?: { subscriptions: Subscriptions; clock: Clock; securityClock: Clock; sellerClocks: StoreSellerClocks | null; jobs: SandboxJobs; orders?: SandboxOrders };
  /** Each seller's sandbox clock: an NDC request is handled on its seller's business time (absent: real time). */
  sellerClocks?: SellerClocks;
  /** The staff console and its JSON API (issue 12); absent in gateways built without them (404). */
  staff?: StaffDeps;
  /** GET /metrics' figures (metrics/figures.ts); absent: 404. */
  figures?: FigureSources;
}

/** POST /24.4/<MessageName> as one function: Elysia's route and the edge's direct path (edge.ts) both call it. */
export type NdcEntry = (request: Request, messageName: string) => Promise<Response>;

export function ndcEntry(deps: NdcDeps): NdcEntry {
  // The pipeline answers every failure itself; what still escapes it is answered as Elysia's onError does.
  return (request, messageName) => handleNdc(request, messageName, deps).catch((e: unknown) => unhandled(deps.logger, "UNKNOWN", e));
}

/** A failure no route answered: logged, and a generic 500 that is never cached. */
function unhandled(logger: Logger, code: string, error: unknown): Response {
  logger.error("http_unhandled", { code, error: error instanceof Error ? error.message.slice(0, 300) : "unknown" });
  return Response.json({ error: "internal_error" }, { status: 500, headers: { "cache-control": "no-store", "x-simulated-supply": "true" } });
}

/**
 * The HTTP surface. Bodies are never parsed by Elysia (parse: "none"): the NDC pipeline reads
 * them itself, within its limits, after authentication.
 */
export function createGateway(deps: GatewayDeps, ndc: NdcEntry = ndcEntry(deps)) {
  // A route under `prefix`, with its own log line like the token endpoint's.
  const logged = async (request: Request, prefix: string, handle: (rest: string) => Promise<Response>) => {
    const path = pathOf(request.url);
    const rest = path.slice(prefix.length);
    const started = performance.now();
    const res = rest === "" || rest.startsWith("/") ? await handle(rest) : Response.json({ error: "not_found" }, { status: 404, headers: { "cache-control": "no-store" } });
    logRequest(deps.logger, {
      requestId: nanoid(12),
      message: prefix.slice(1),
      method: request.method.slice(0, 16),
      path: path.slice(0, 128),
      status: res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      errorCode: res.headers.get("x-error-code") ?? undefined,
    });
    res.headers.delete("x-error-code");
    return res;
  };
  const missing = async () => Response.json({ error: "not_found" }, { status: 404, headers: { "cache-control": "no-store" } });
  const routed = (request: Request, prefix: string, handle: (rest: string, n: NonNullable<GatewayDeps["notifications"]>) => Promise<Response>) =>
    logged(request, prefix, (rest) => (deps.notifications ? handle(rest, deps.notifications) : missing()));
  const staff = (request: Request, prefix: string, handle: (rest: string, s: StaffDeps) => Promise<Response>) =>
    logged(request, prefix, (rest) => (deps.staff ? handle(rest, deps.staff) : missing()));
  // The staff JSON API's own Elysia app (staff/api.ts), built once; its unexpected failures answered as onError's below.
  const staffApiHandle = deps.staff ? staffApi(deps.staff, (e) => unhandled(deps.logger, "UNKNOWN", e)) : undefined;
  return new Elysia()
    // Spec 1: every answer says the supply is simulated (docs/simulated-supply.md). JSON, HTML and
    // refusals get the header here, for every route at once; NDC answers carry it from the pipeline,
    // which the edge's direct path reaches without this app.
    .onRequest(({ set }) => {
      set.headers["x-simulated-supply"] = "true";
    })
    .get("/health/live", () => Response.json({ status: "live" }))
    .get("/health/ready", async () => {
      const ok = await deps.ready().catch(() => false);
      // The detail is extra: failing to read it never makes a ready gateway unready.
      const detail = ok && deps.readyDetail ? await deps.readyDetail().catch(() => ({})) : {};
      return Response.json({ status: ok ? "ready" : "not_ready", ...detail }, { status: ok ? 200 : 503 });
    })
    .get("/24.4", ({ request }) => Response.json(discoveryDocument(deps.config, arrivedUrl(request), deps.handlers, deps.airlineKey?.())))
    .all(
      "/oauth/token",
      async ({ request, server }) => {
        const started = performance.now();
        const remote = remoteAddress(request) ?? server?.requestIP(request)?.address;
        // A client that left mid-body is its abort (499, as in the NDC pipeline), not our failure.
        const res = await tokenEndpoint(request, deps.auth, deps.rateLimiter, deps.failures, remote).catch((e: unknown) => {
          if (!clientGone(request)) throw e;
          return Response.json({ error: "client_abort" }, { status: 499, headers: { "x-error-code": "client_abort" } });
        });
        // The token request gets its log line too; the client is named only once it authenticated.
        logRequest(deps.logger, {
          requestId: nanoid(12),
          client: res.headers.get("x-authenticated-client") ?? undefined,
          message: "token",
          method: request.method,
          path: "/oauth/token",
          status: res.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          errorCode: res.headers.get("x-error-code") ?? undefined,
        });
        res.headers.delete("x-authenticated-client");
        res.headers.delete("x-error-code");
        return res;
      },
      { parse: "none" },
    )
    .all("/24.4/:message", ({ request, params }) => ndc(request, params.message), { parse: "none" })
    .all("/notifications/subscriptions*", ({ request }) => routed(request, "/notifications/subscriptions", (rest, n) => subscriptionsEndpoint(request, rest, { auth: deps.auth, subscriptions: n.subscriptions })), { parse: "none" })
    // The staff console (issue 12): its JSON API, and the pages built on it. Session cookie only.
    // Browsers ask every site for /favicon.ico: the console's icon, not a 404 (issue 19 item 27).
    .get("/favicon.ico", () => faviconResponse())
    .all("/staff/api/*", ({ request }) => staff(request, "/staff/api", () => staffApiHandle!(request)), { parse: "none" })
    .all("/staff", ({ request }) => staff(request, "/staff", (rest, s) => staffPages(request, rest, s)), { parse: "none" })
    .all("/staff/*", ({ request }) => staff(request, "/staff", (rest, s) => staffPages(request, rest, s)), { parse: "none" })
    // Prometheus exposition for the operators' scraper (docs/operations.md): METRICS_TOKEN or local mode.
    .all("/metrics", ({ request }) => logged(request, "/metrics", async () => (deps.figures ? metricsEndpoint(request, deps.config.mode, deps.config.metricsToken, deps.figures) : missing())), { parse: "none" })
    .all("/sandbox/*", ({ request }) => routed(request, "/sandbox", (rest, n) => sandboxEndpoint(request, rest, { mode: deps.config.mode, auth: deps.auth, clock: n.clock, securityClock: n.securityClock, sellerClocks: n.sellerClocks, jobs: n.jobs, orders: n.orders })), { parse: "none" })
    .onError(({ code, error, request }) => {
      // Refusals are never cached, whatever the layer that answers them.
      const headers = { "cache-control": "no-store" };
      if (code === "NOT_FOUND") {
        // A path the gateway does not serve is a refusal like any other: it gets its log line.
        logRequest(deps.logger, {
          requestId: nanoid(12),
          message: "not_found",
          method: request.method.slice(0, 16),
          path: pathOf(request.url).slice(0, 128),
          status: 404,
          durationMs: 0,
          errorCode: "not_found",
        });
        return Response.json({ error: "not_found" }, { status: 404, headers });
      }
      return unhandled(deps.logger, String(code), error);
    });
}

export type GatewayApp = ReturnType<typeof createGateway>;
