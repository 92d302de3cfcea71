import { GatewayError } from "@ndc/errors";
import { may, REASON_CATEGORIES } from "@ndc/staff";
import { readAudit, searchOrders, type OrderPage } from "./actions";
import type { StaffDeps } from "./deps";
import type { StaffCaller } from "./guard";
import { breakable, csrfInput, esc, page, table, type PageChrome } from "./html";
import { evidenceSection, servicingSection } from "./views-servicing";

/** The pages about orders and the audit trail, rendered from the actions' results (pages.ts routes to them). */

/** How long a revealed number stays on the page (issue 12 item 4): reveal.js then removes it. */
export const REVEAL_SHOWN_SECONDS = 60;

export function loginPage(status: number, error?: string): Response {
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

const FIELDS: [string, string, string][] = [
  ["orderId", "Order id", "text"],
  ["surname", "Passenger surname", "text"],
  ["agency", "Agency id", "text"],
  ["flight", "Flight (e.g. XB100)", "text"],
  ["date", "Date", "date"],
];
const STATES = ["held_unpaid", "held_payment_declined", "booked", "cancelled", "closed"];

export async function searchPage(deps: StaffDeps, caller: StaffCaller, params: URLSearchParams, chrome: PageChrome): Promise<Response> {
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

export function orderPage(o: OrderPage, caller: StaffCaller, csrf: string, chrome: PageChrome, flash?: string | null): Response {
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
  const body = `${flash ? `<p class="notice" role="status">${esc(flash)}</p>` : ""}
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
<h2>Notifications sent</h2>${table(["When", "Event", "Message", "Subscription", "Status", "Attempts", "Last answer"], o.notifications.map((n) => [esc(n.createdAt), esc(n.event), esc(n.message), esc(n.subscriptionId), esc(n.status), esc(n.attempts), esc([n.lastHttpStatus, n.lastError].filter((v) => v !== undefined).join(" "))]), "Notifications")}
${evidenceSection(o, caller, csrf)}
${servicingSection(o, caller, csrf)}`;
  return page(200, `Order ${o.orderId}`, body, chrome);
}

export async function auditPage(deps: StaffDeps, caller: StaffCaller, params: URLSearchParams, chrome: PageChrome): Promise<Response> {
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
        // Free text and ids may hold long unbroken runs: they wrap inside their cells (html.ts breakable).
        entries.map((e) => [esc(e.seq), esc(new Date(e.at).toISOString()), esc(e.username), esc(e.role), breakable(e.remote), esc(e.action), esc(e.outcome), breakable(e.orderId ?? ""), breakable(e.documentRef ?? ""), breakable([e.reasonCategory, e.reason].filter(Boolean).join(": ")), breakable(e.detail ?? "")]),
        "Audit entries, oldest first",
      ),
    chrome,
  );
}

/** The one page that carries a number: never stored, and the number taken out of it after a minute. */
export function revealPage(orderId: string, number: string, chrome: PageChrome): Response {
  return page(
    200,
    "Document number",
    `<p>Shown once, for ${REVEAL_SHOWN_SECONDS} seconds. The reveal is on the audit trail.</p>
<p class="number" data-hide-after="${REVEAL_SHOWN_SECONDS}">${esc(number)}</p>
<p><a href="/staff/orders/${esc(orderId)}">Back to order ${esc(orderId)}</a></p>`,
    { ...chrome, head: `<script src="/staff/reveal.js" defer></script>`, headers: { pragma: "no-cache" } },
  );
}
