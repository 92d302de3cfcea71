import { CATALOGUE, GatewayError } from "@ndc/errors";
import { csrfTokenOf, endSession, may, REASON_CATEGORIES, recordAudit, SESSION_ABSOLUTE_MS } from "@ndc/staff";
import { statusOf } from "../http/error-mapping";
import { readWithin } from "../http/read-within";
import { eraseDocuments, orderDetail, readAudit, revealDocument, searchOrders, type OrderPage } from "./actions";
import { loggedIn } from "./api";
import { reconcileQueue, resolveReconcileItem, sellers, switchSeller } from "./work";
import { clearedCookie, sessionCookie, sessionToken } from "./cookie";
import type { StaffDeps } from "./deps";
import { sameOrigin, staffCaller, who, type StaffCaller } from "./guard";
import { CONSOLE_CSS, csrfInput, esc, page, REVEAL_JS, table } from "./html";

const ID = "([A-Za-z0-9_.:-]{1,64})";
const ORDER = new RegExp(`^/orders/${ID}$`);
const REVEAL = new RegExp(`^/orders/${ID}/documents/${ID}/reveal$`);
const ERASE = new RegExp(`^/orders/${ID}/documents/erase$`);
const RESOLVE = new RegExp(`^/queues/reconcile-failed/${ID}/resolve$`);
const SELLER = new RegExp(`^/sellers/${ID}/(suspend|resume)$`);
/** How long a revealed number stays on the page (issue 12 item 4): reveal.js then removes it. */
const REVEAL_SHOWN_SECONDS = 60;

const redirect = (to: string, headers: Record<string, string> = {}) => new Response(null, { status: 303, headers: { location: to, "cache-control": "no-store", ...headers } });

/**
 * The console's server-rendered pages under /staff/ (docs/staff-console.md), built on the same
 * actions as the JSON API. Forms post urlencoded with the session's CSRF token in a hidden field;
 * every page is no-store and under a Content-Security-Policy that allows no script at all.
 */
export async function staffPages(request: Request, path: string, deps: StaffDeps): Promise<Response> {
  const m = request.method;
  if (path === "/console.css") return new Response(CONSOLE_CSS, { headers: { "content-type": "text/css; charset=utf-8", "cache-control": "no-cache" } });
  if (path === "/reveal.js") return new Response(REVEAL_JS, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" } });
  if (path === "/login") return m === "POST" ? loginPost(request, deps) : loginPage(200);
  // The page's header (who is logged in, the logout form) once the caller is known, refusals included.
  let chrome: Parameters<typeof page>[3] = {};
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
    if (path === "/logout" && m === "POST") {
      await endSession(deps.store, caller.session.sessionHash, deps.clock.now());
      await recordAudit(deps.store, { ...who(caller), at: deps.clock.now(), action: "staff.logout", outcome: "ok" });
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
    let r = ORDER.exec(path);
    if (r && m === "GET") return orderPage(await orderDetail(deps, caller, r[1]!), caller, csrf, chrome);
    if ((r = REVEAL.exec(path)) && m === "POST") {
      const orderId = r[1]!;
      const { number } = await revealDocument(deps, caller, orderId, r[2]!, { reason: form.get("reason") ?? "", category: form.get("category") ?? "" });
      // The one page that carries a number: never stored, and gone from the screen after a minute.
      return page(
        200,
        "Document number",
        `<p>Shown once, for ${REVEAL_SHOWN_SECONDS} seconds. The reveal is on the audit trail.</p>
<p class="number" data-hide-after="${REVEAL_SHOWN_SECONDS}">${esc(number)}</p>
<p><a href="/staff/orders/${esc(orderId)}">Back to order ${esc(orderId)}</a></p>`,
        { ...chrome, head: `<script src="/staff/reveal.js" defer></script>`, headers: { pragma: "no-cache" } },
      );
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
    if (path === "/sellers" && m === "GET") return sellersPage(await sellers(deps, caller), csrf, chrome);
    if ((r = SELLER.exec(path)) && m === "POST") {
      await switchSeller(deps, caller, r[1]!, r[2] as "suspend" | "resume", { reason: form.get("reason") ?? "" });
      return redirect("/staff/sellers");
    }
    return errorPage(new GatewayError("request_invalid", { detail: "No such page." }), 404, chrome);
  } catch (e) {
    if (e instanceof GatewayError) return errorPage(e, statusOf(e.code), chrome);
    throw e;
  }
}

function errorPage(e: GatewayError, status = statusOf(e.code), chrome: Parameters<typeof page>[3] = {}): Response {
  const login = e.code === "staff_session_required" ? `<p><a href="/staff/login">Log in</a></p>` : "";
  return page(status, status === 404 ? "Not found" : "Refused", `<p class="error" role="alert">${esc(e.description)}</p>${login}`, chrome);
}

async function readForm(request: Request): Promise<URLSearchParams> {
  const buf = await readWithin(request, 16 * 1024);
  if (!buf) throw new GatewayError("payload_too_large");
  return new URLSearchParams(new TextDecoder().decode(buf));
}

function loginPage(status: number, error?: string): Response {
  return page(
    status,
    "Log in",
    `${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post" action="/staff/login">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required maxlength="64">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<label for="totp">Code from your authenticator app</label><input id="totp" name="totp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required maxlength="6">
<p><button type="submit">Log in</button></p>
</form>`,
  );
}

async function loginPost(request: Request, deps: StaffDeps): Promise<Response> {
  if (!sameOrigin(request)) return loginPage(403, CATALOGUE.staff_csrf_invalid.text);
  const form = await readForm(request);
  try {
    const s = await loggedIn(request, deps, { username: form.get("username") ?? "", password: form.get("password") ?? "", totp: form.get("totp") ?? "" });
    return redirect("/staff/orders", { "set-cookie": sessionCookie(s.token, deps.mode, SESSION_ABSOLUTE_MS / 1000) });
  } catch (e) {
    if (e instanceof GatewayError) return loginPage(statusOf(e.code), e.description);
    throw e;
  }
}

const FIELDS: [string, string, string][] = [
  ["orderId", "Order id", "text"],
  ["surname", "Passenger surname", "text"],
  ["agency", "Agency id", "text"],
  ["flight", "Flight (e.g. XB100)", "text"],
  ["date", "Date", "date"],
];
const STATES = ["held_unpaid", "held_payment_declined", "booked", "cancelled", "closed"];

async function searchPage(deps: StaffDeps, caller: StaffCaller, params: URLSearchParams, chrome: Parameters<typeof page>[3]): Promise<Response> {
  const asked = [...params.values()].some((v) => v.trim());
  let results = "";
  if (asked) {
    try {
      const { orders } = await searchOrders(deps, caller, params);
      results = table(
        ["Order", "State", "Agency", "Travel", "Passengers", "Total", "Created"],
        orders.map((o) => [`<a href="/staff/orders/${esc(o.orderId)}">${esc(o.orderId)}</a>`, esc(o.state), esc(o.agencyId), esc([o.travelFrom, o.travelTo].filter(Boolean).join(" to ")), esc(o.passengers), `${esc(o.total.amount)} ${esc(o.total.currency)}`, esc(o.createdAt)]),
        "Orders found",
      );
    } catch (e) {
      if (!(e instanceof GatewayError)) throw e;
      results = `<p class="error" role="alert">${esc(e.description)}</p>`;
    }
  }
  const inputs = FIELDS.map(([name, label, type]) => `<div><label for="f-${name}">${esc(label)}</label><input id="f-${name}" name="${name}" type="${type}" value="${esc(params.get(name) ?? "")}" maxlength="64"></div>`).join("");
  const state = `<div><label for="f-state">State</label><select id="f-state" name="state"><option value="">any</option>${STATES.map((s) => `<option${params.get("state") === s ? " selected" : ""}>${s}</option>`).join("")}</select></div>`;
  return page(200, "Find orders", `<form method="get" action="/staff/orders" class="search" role="search">${inputs}${state}<div><button type="submit">Search</button></div></form>${results}`, chrome);
}

function orderPage(o: OrderPage, caller: StaffCaller, csrf: string, chrome: Parameters<typeof page>[3]): Response {
  const role = caller.session.role;
  const canReveal = may(role, "pii.reveal");
  const categories = REASON_CATEGORIES.map((c) => `<option value="${c}">${c.replace(/_/g, " ")}</option>`).join("");
  const docRows = o.documents.map((d) => {
    if ("erasedAt" in d) return [esc(d.documentRef), esc(d.paxId), `Erased on ${esc(d.erasedAt.slice(0, 10))}`, "", "", "", "", ""];
    if ("omitted" in d) return [esc(d.documentRef), esc(d.paxId), "A type the airline cannot name (not shown)", "", "", "", "", ""];
    const reveal = canReveal
      ? `<form method="post" action="/staff/orders/${esc(o.orderId)}/documents/${esc(d.documentRef)}/reveal">${csrfInput(csrf)}
<label for="r-${esc(d.documentRef)}">Reason (at least 10 characters)</label><textarea id="r-${esc(d.documentRef)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<label for="c-${esc(d.documentRef)}">Reason category</label><select id="c-${esc(d.documentRef)}" name="category" required>${categories}</select>
<p><button type="submit">Reveal number</button></p></form>`
      : "Senior agents and supervisors only";
    return [esc(d.documentRef), esc(d.paxId), esc(d.typeName), esc(d.citizenship ?? ""), esc(d.issuingCountry ?? ""), esc(d.expiry ?? ""), esc(d.holderSurname), reveal];
  });
  const erase =
    may(role, "pii.erase") && o.documents.some((d) => !("erasedAt" in d))
      ? `<form method="post" action="/staff/orders/${esc(o.orderId)}/documents/erase">${csrfInput(csrf)}<fieldset><legend>Erase this order's identity documents</legend>
<label for="erase-reason">Reason (at least 10 characters)</label><textarea id="erase-reason" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Erase documents</button></p></fieldset></form>`
      : "";
  const body = `
<dl>
<dt>State</dt><dd>${esc(o.stateName)}</dd>
<dt>Agency and client</dt><dd>${esc(o.agencyId)} / ${esc(o.clientId)}</dd>
<dt>Total</dt><dd>${esc(o.total.amount)} ${esc(o.total.currency)}</dd>
<dt>Created</dt><dd>${esc(o.createdAt)}</dd>
${o.paymentTimeLimit ? `<dt>Payment time limit</dt><dd>${esc(o.paymentTimeLimit)}</dd>` : ""}
${o.documentsErasedAt ? `<dt>Identity documents</dt><dd><strong>Erased on ${esc(o.documentsErasedAt.slice(0, 10))}</strong></dd>` : ""}
</dl>
<h2>Items</h2>${table(["Item", "Kind", "Passengers", "Flights", "Price"], o.items.map((i) => [esc(i.orderItemId), esc(i.kind), esc(i.paxIds.join(", ")), esc((i.flightKeys ?? []).join(", ")), `${esc(i.price)} ${esc(o.total.currency)}`]), "Order items")}
${table(["Flight", "From", "To", "Departs (UTC)", "Arrives (UTC)"], o.flights.map((f) => [esc(f.key), esc(f.origin), esc(f.destination), esc(f.departureUtc), esc(f.arrivalUtc)]), "Flights")}
<h2>Passengers</h2>${table(["Passenger", "Type", "Name"], o.passengers.map((p) => [esc(p.paxId), esc(p.ptc), esc([p.title, ...p.givenNames, p.surname].filter(Boolean).join(" "))]), "Passengers")}
<h2>Identity documents</h2>${table(["Reference", "Passenger", "Type", "Citizenship", "Issued by", "Expiry", "Holder surname", "Number"], docRows, "Identity documents (masked)")}
${erase}
<h2>Payments (PAYSUM)</h2>${table(["Leg", "Kind", "State", "Authorised", "Captured", "Refunded", "Card or account", "PSP reference"], o.payments.map((l) => [esc(l.legId), esc(l.kind), esc(l.state), `${esc(l.authorised)} ${esc(l.currency)}`, esc(l.captured), esc(l.refunded), esc([l.cardBrand, l.cardLast4 ? `ending ${l.cardLast4}` : "", l.voucherCode, l.settlementAccountId].filter(Boolean).join(" ")), esc(l.pspReference ?? "")]), "Payment legs")}
<h2>Commission</h2>${table(["On", "Amount", "Basis", "Rule"], o.commission.map((c) => [esc(c.on), esc(c.amount), esc(c.basis), esc(c.rule)]), "Commission")}
<h2>History</h2>${table(["Version", "When", "Change", "State", "Changed", "Staff"], o.history.map((h) => [esc(h.version), esc(h.at), esc(h.kind), esc(h.state), esc(h.changed.join(", ")), esc(h.staffId ?? "")]), "Order history")}
<h2>Notifications sent</h2>${table(["When", "Event", "Message", "Subscription", "Status", "Attempts", "Last answer"], o.notifications.map((n) => [esc(n.createdAt), esc(n.event), esc(n.message), esc(n.subscriptionId), esc(n.status), esc(n.attempts), esc([n.lastHttpStatus, n.lastError].filter((v) => v !== undefined).join(" "))]), "Notifications")}`;
  return page(200, `Order ${o.orderId}`, body, chrome);
}

async function auditPage(deps: StaffDeps, caller: StaffCaller, params: URLSearchParams, chrome: Parameters<typeof page>[3]): Promise<Response> {
  const { entries } = await readAudit(deps, caller, params);
  const q = new URLSearchParams([...params].filter(([k]) => k === "action" || k === "orderId"));
  const filters = `<form method="get" action="/staff/audit" class="search" role="search">
<div><label for="a-action">Action</label><input id="a-action" name="action" value="${esc(params.get("action") ?? "")}" maxlength="64"></div>
<div><label for="a-order">Order id</label><input id="a-order" name="orderId" value="${esc(params.get("orderId") ?? "")}" maxlength="64"></div>
<div><button type="submit">Filter</button></div></form>
<p><a href="/staff/audit/export?${esc(q.toString())}">Export as JSON lines</a></p>`;
  return page(
    200,
    "Audit trail",
    filters +
      table(
        ["#", "When", "Who", "Role", "From", "Action", "Outcome", "Order", "Document", "Why", "Detail"],
        entries.map((e) => [esc(e.seq), esc(new Date(e.at).toISOString()), esc(e.username), esc(e.role), esc(e.remote), esc(e.action), esc(e.outcome), esc(e.orderId ?? ""), esc(e.documentRef ?? ""), esc([e.reasonCategory, e.reason].filter(Boolean).join(": ")), esc(e.detail ?? "")]),
        "Audit entries, oldest first",
      ),
    chrome,
  );
}

function age(seconds: number): string {
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`;
}

function queuePage(q: Awaited<ReturnType<typeof reconcileQueue>>, caller: StaffCaller, csrf: string, chrome: Parameters<typeof page>[3]): Response {
  const canResolve = may(caller.session.role, "queue.resolve");
  const rows = q.items.map((i) => [
    esc(i.operationId),
    esc(i.kind),
    i.orderId ? `<a href="/staff/orders/${esc(i.orderId)}">${esc(i.orderId)}</a>` : "",
    esc(i.phase),
    esc(i.attempts),
    esc(i.lastError),
    `${esc(age(i.ageSeconds))} (raised ${esc(i.raisedAt)})`,
    canResolve
      ? `<form method="post" action="/staff/queues/reconcile-failed/${esc(i.operationId)}/resolve">${csrfInput(csrf)}
<label for="res-${esc(i.operationId)}">Resolution</label><select id="res-${esc(i.operationId)}" name="resolution"><option value="retry">retry: the cause is fixed</option><option value="close">close: settled outside the gateway</option></select>
<label for="note-${esc(i.operationId)}">Note (at least 10 characters)</label><textarea id="note-${esc(i.operationId)}" name="note" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Mark resolved</button></p></form>`
      : "Senior agents, supervisors and admins",
  ]);
  return page(200, "Work queue: reconcile_failed", `<p>Payment steps the reconciler could not finish after its last attempt (spec 3), oldest first.</p>${table(["Operation", "Kind", "Order", "Phase", "Attempts", "Last error", "Age", "Resolve"], rows, "Open items")}`, chrome);
}

function sellersPage(s: Awaited<ReturnType<typeof sellers>>, csrf: string, chrome: Parameters<typeof page>[3]): Response {
  const rows = s.clients.map((c) => {
    const to = c.suspended ? "resume" : "suspend";
    return [
      esc(c.clientId),
      esc(c.name ?? ""),
      esc(c.agencyId),
      esc(c.scopes.join(" ")),
      c.suspended ? "<strong>Suspended</strong>" : "Active",
      `<form method="post" action="/staff/sellers/${esc(c.clientId)}/${to}">${csrfInput(csrf)}
<label for="why-${esc(c.clientId)}">Reason (at least 10 characters)</label><textarea id="why-${esc(c.clientId)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">${to === "suspend" ? "Suspend" : "Resume"}</button></p></form>`,
    ];
  });
  return page(200, "Sellers", `<p>Suspension refuses the client's next NDC call, tokens already issued included; a resumed client fetches a new token.</p>${table(["Client", "Name", "Agency", "Scopes", "State", "Change"], rows, "Seller clients")}`, chrome);
}
