import { CATALOGUE, GatewayError } from "@ndc/errors";
import { csrfTokenOf, SESSION_ABSOLUTE_MS } from "@ndc/staff";
import { faviconResponse } from "./favicon";
import { statusOf } from "../http/error-mapping";
import { readWithin } from "../http/read-within";
import { eraseDocuments, orderDetail, readAudit, revealDocument } from "./actions";
import { clearedCookie, sessionCookie, sessionToken } from "./cookie";
import type { StaffDeps } from "./deps";
import { sameOrigin, staffCaller, type StaffCaller } from "./guard";
import { CONSOLE_CSS, esc, page, REVEAL_JS, type PageChrome } from "./html";
import { logIn, logOut } from "./login";
import { STAFF_PATHS } from "./paths";
import { dashboardPages } from "./pages-dashboard";
import { agreementPages } from "./pages-agreements";
import { auditPage, loginPage, orderPage, revealPage, searchPage } from "./views-orders";
import { SERVICED, servicingPages } from "./views-servicing";
import { deliveriesPage, queuePage, secretPage, sellersPage } from "./views-work";
import { changeAggregatorAgencies, changeSellerScopes, registerSeller, registerSellerAgency, switchAgency } from "./registry";
import { deliveriesQueue, QUEUE_OF_PATH, reconcileQueue, redeliverItem, resolveReconcileItem, rotateSellerSecret, sellers, switchSeller, takeWorkItem } from "./work";

const { order: ORDER, reveal: REVEAL, erase: ERASE, resolve: RESOLVE, take: TAKE, redeliver: REDELIVER, seller: SELLER, rotate: ROTATE, scopes: SCOPES, agency: AGENCY, aggregator: AGGREGATOR } = STAFF_PATHS;

const redirect = (to: string, headers: Record<string, string> = {}) => new Response(null, { status: 303, headers: { location: to, "cache-control": "no-store", ...headers } });

/**
 * The console's server-rendered pages under /staff/ (docs/staff-console.md), built on the same
 * actions as the JSON API (views in views-orders.ts and views-work.ts). Forms post urlencoded with
 * the session's CSRF token in a hidden field; every page is no-store under a strict
 * Content-Security-Policy (html.ts).
 */
export async function staffPages(request: Request, path: string, deps: StaffDeps): Promise<Response> {
  const m = request.method;
  if (path === "/console.css") return new Response(CONSOLE_CSS, { headers: { "content-type": "text/css; charset=utf-8", "cache-control": "no-cache" } });
  if (path === "/favicon.ico") return faviconResponse();
  if (path === "/reveal.js") return new Response(REVEAL_JS, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" } });
  if (path === "/login") return m === "POST" ? loginPost(request, deps) : loginPage(200);
  // The page's header (who is logged in, the logout form) once the caller is known, refusals included.
  let chrome: PageChrome = {};
  try {
    if (m === "POST" && !sameOrigin(request)) throw new GatewayError("staff_csrf_invalid", { detail: "The form was posted from another origin." });
    const form = m === "POST" ? await readForm(request) : new URLSearchParams();
    let caller: StaffCaller;
    try {
      caller = await staffCaller(request, deps, form.get("csrf_token"));
    } catch (e) {
      if (e instanceof GatewayError && e.code === "staff_session_required" && m === "GET") return redirect("/staff/login");
      throw e;
    }
    const csrf = csrfTokenOf(sessionToken(request));
    chrome = { session: caller.session, csrfToken: csrf };
    if (path === "" || path === "/") return redirect("/staff/orders");
    const dashboard = await dashboardPages(request, path, deps, caller, chrome);
    if (dashboard) return dashboard;
    if (path === "/logout" && m === "POST") {
      await logOut(deps, caller);
      return redirect("/staff/login", { "set-cookie": clearedCookie(deps.mode) });
    }
    if (path === "/orders" && m === "GET") return await searchPage(deps, caller, new URL(request.url).searchParams, chrome);
    if (path === "/audit" && m === "GET") return await auditPage(deps, caller, new URL(request.url).searchParams, chrome);
    if (path === "/audit/export" && m === "GET") {
      const { entries } = await readAudit(deps, caller, new URL(request.url).searchParams, true);
      return new Response(entries.map((e) => JSON.stringify(e)).join("\n") + (entries.length ? "\n" : ""), {
        headers: { "content-type": "application/x-ndjson", "content-disposition": 'attachment; filename="staff-audit.jsonl"', "cache-control": "no-store" },
      });
    }
    const serviced = await servicingPages(request, path, form, deps, caller, csrf, chrome);
    if (serviced) return serviced;
    let r = ORDER.exec(path);
    if (r && m === "GET") return orderPage(await orderDetail(deps, caller, r[1]!), caller, csrf, chrome, SERVICED[new URL(request.url).searchParams.get("serviced") ?? ""]);
    if ((r = REVEAL.exec(path)) && m === "POST") {
      const orderId = r[1]!;
      const { number } = await revealDocument(deps, caller, orderId, r[2]!, { reason: form.get("reason") ?? "", category: form.get("category") ?? "" });
      return revealPage(orderId, number, chrome);
    }
    if ((r = ERASE.exec(path)) && m === "POST") {
      await eraseDocuments(deps, caller, r[1]!, { reason: form.get("reason") ?? "" });
      return redirect(`/staff/orders/${encodeURIComponent(r[1]!)}`);
    }
    if (path === "/queues/reconcile-failed" && m === "GET") return queuePage(await reconcileQueue(deps, caller), caller, csrf, chrome);
    if ((r = RESOLVE.exec(path)) && m === "POST") {
      await resolveReconcileItem(deps, caller, r[1]!, { resolution: form.get("resolution") ?? "", note: form.get("note") ?? "" });
      return redirect("/staff/queues/reconcile-failed?resolved=1");
    }
    if ((r = TAKE.exec(path)) && m === "POST") {
      await takeWorkItem(deps, caller, QUEUE_OF_PATH[r[1]!]!, r[2]!);
      return redirect(`/staff/queues/${r[1]}`);
    }
    if (path === "/queues/failed-deliveries" && m === "GET") return deliveriesPage(await deliveriesQueue(deps, caller), caller, csrf, chrome);
    if ((r = REDELIVER.exec(path)) && m === "POST") {
      await redeliverItem(deps, caller, r[1]!, { note: form.get("note") ?? "" });
      return redirect("/staff/queues/failed-deliveries?redelivered=1");
    }
    if (path === "/sellers" && m === "GET") return sellersPage(await sellers(deps, caller), caller, csrf, chrome);
    if (path === "/agencies" && m === "POST") {
      await registerSellerAgency(deps, caller, { agencyId: form.get("agencyId") ?? "", iataNumber: form.get("iataNumber") ?? "", name: form.get("name") ?? "", reason: form.get("reason") ?? "" });
      return redirect("/staff/sellers");
    }
    if ((r = AGENCY.exec(path)) && m === "POST") {
      await switchAgency(deps, caller, r[1]!, r[2] as "activate" | "deactivate", { reason: form.get("reason") ?? "" });
      return redirect("/staff/sellers");
    }
    if (path === "/sellers" && m === "POST") {
      const issued = await registerSeller(deps, caller, { agencyId: form.get("agencyId") ?? "", name: form.get("name") ?? "", scopes: form.getAll("scopes"), reason: form.get("reason") ?? "" });
      return secretPage(issued, chrome);
    }
    if ((r = AGGREGATOR.exec(path)) && m === "POST") {
      await changeAggregatorAgencies(deps, caller, r[1]!, r[2] as "grant" | "revoke", { agencies: [form.get("agency") ?? ""], reason: form.get("reason") ?? "" });
      return redirect("/staff/sellers");
    }
    if ((r = SCOPES.exec(path)) && m === "POST") {
      await changeSellerScopes(deps, caller, r[1]!, r[2] as "grant" | "revoke", { scopes: [form.get("scope") ?? ""], reason: form.get("reason") ?? "" });
      return redirect("/staff/sellers");
    }
    if ((r = SELLER.exec(path)) && m === "POST") {
      await switchSeller(deps, caller, r[1]!, r[2] as "suspend" | "resume", { reason: form.get("reason") ?? "" });
      return redirect("/staff/sellers");
    }
    if ((r = ROTATE.exec(path)) && m === "POST") return secretPage(await rotateSellerSecret(deps, caller, r[1]!, { reason: form.get("reason") ?? "" }), chrome);
    const more = await agreementPages(request, path, deps, form, caller, csrf, chrome);
    if (more) return more;
    return errorPage(new GatewayError("request_invalid", { detail: "No such page." }), 404, chrome);
  } catch (e) {
    if (e instanceof GatewayError) return errorPage(e, statusOf(e.code), chrome);
    throw e;
  }
}

function errorPage(e: GatewayError, status = statusOf(e.code), chrome: PageChrome = {}): Response {
  const login = e.code === "staff_session_required" ? `<p><a href="/staff/login">Log in</a></p>` : "";
  return page(status, status === 404 ? "Not found" : "Refused", `<p class="error" role="alert">${esc(e.description)}</p>${login}`, chrome);
}

async function readForm(request: Request): Promise<URLSearchParams> {
  const buf = await readWithin(request, 16 * 1024);
  if (!buf) throw new GatewayError("payload_too_large");
  return new URLSearchParams(new TextDecoder().decode(buf));
}

async function loginPost(request: Request, deps: StaffDeps): Promise<Response> {
  if (!sameOrigin(request)) return loginPage(403, CATALOGUE.staff_csrf_invalid.text);
  const form = await readForm(request);
  try {
    const s = await logIn(request, deps, { username: form.get("username") ?? "", password: form.get("password") ?? "", totp: form.get("totp") ?? "" });
    return redirect("/staff/orders", { "set-cookie": sessionCookie(s.token, deps.mode, SESSION_ABSOLUTE_MS / 1000) });
  } catch (e) {
    if (e instanceof GatewayError) return loginPage(statusOf(e.code), e.description);
    throw e;
  }
}

