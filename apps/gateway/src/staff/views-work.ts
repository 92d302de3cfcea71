import { ALL_SCOPES } from "@ndc/messages";
import { may } from "@ndc/staff";
import type { StaffCaller } from "./guard";
import { csrfInput, esc, page, table, type PageChrome } from "./html";
import type { deliveriesQueue, reconcileQueue, sellers } from "./work";

/** The work queue and sellers pages, rendered from the work actions' results (pages.ts routes to them). */

/** Who holds an item, and a Take button for those who may act on it and do not hold it already. */
export function takeCell(queuePath: string, id: string, item: { takenBy?: string; takenAt?: string }, caller: StaffCaller, csrf: string): string {
  const holder = item.takenBy ? `${esc(item.takenBy)} since ${esc(item.takenAt)}` : "nobody";
  if (!may(caller.session.role, "queue.resolve") || item.takenBy === caller.session.username) return holder;
  return `${holder}<form method="post" action="/staff/queues/${queuePath}/${esc(id)}/take">${csrfInput(csrf)}<button type="submit">Take</button></form>`;
}

export function age(seconds: number): string {
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`;
}

export function queuePage(q: Awaited<ReturnType<typeof reconcileQueue>>, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const canResolve = may(caller.session.role, "queue.resolve");
  const rows = q.items.map((i) => [
    esc(i.operationId),
    esc(i.kind),
    i.orderId ? `<a href="/staff/orders/${esc(i.orderId)}">${esc(i.orderId)}</a>` : "",
    esc(i.phase),
    esc(i.attempts),
    esc(i.lastError),
    `${esc(age(i.ageSeconds))} (raised ${esc(i.raisedAt)})`,
    takeCell("reconcile-failed", i.operationId, i, caller, csrf),
    canResolve
      ? `<form method="post" action="/staff/queues/reconcile-failed/${esc(i.operationId)}/resolve">${csrfInput(csrf)}
<label for="res-${esc(i.operationId)}">Resolution</label><select id="res-${esc(i.operationId)}" name="resolution"><option value="retry">retry: the cause is fixed</option><option value="close">close: settled outside the gateway</option><option value="capture">capture: take the authorised payment (the change was made)</option><option value="void">void: release the authorised payment</option></select>
<label for="note-${esc(i.operationId)}">Note (at least 10 characters)</label><textarea id="note-${esc(i.operationId)}" name="note" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Mark resolved</button></p></form>`
      : "Senior agents, supervisors and admins",
  ]);
  return page(200, "Work queue: reconcile_failed", `<p>Payment steps the reconciler could not finish after its last attempt (spec 3), oldest first.</p>${table(["Operation", "Kind", "Order", "Phase", "Attempts", "Last error", "Age", "Taken by", "Resolve"], rows, "Open items")}`, chrome);
}

export function sellersPage(s: Awaited<ReturnType<typeof sellers>>, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const admin = may(caller.session.role, "sellers.register");
  const scopeOptions = ALL_SCOPES.map((sc) => `<option>${esc(sc)}</option>`).join("");
  const rows = s.clients.map((c) => {
    const to = c.suspended ? "resume" : "suspend";
    return [
      esc(c.clientId),
      esc(c.name ?? ""),
      esc(c.agencyId),
      `${esc(c.scopes.join(" "))}${c.aggregatorAgencies.length ? `<br>sells as ${esc(c.aggregatorAgencies.join(", "))}` : ""}`,
      c.suspended ? "<strong>Suspended</strong>" : "Active",
      `<form method="post" action="/staff/sellers/${esc(c.clientId)}/${to}">${csrfInput(csrf)}
<label for="why-${esc(c.clientId)}">Reason (at least 10 characters)</label><textarea id="why-${esc(c.clientId)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">${to === "suspend" ? "Suspend" : "Resume"}</button></p></form>
<form method="post" action="/staff/sellers/${esc(c.clientId)}/rotate-secret">${csrfInput(csrf)}
<label for="rot-${esc(c.clientId)}">Reason (at least 10 characters)</label><textarea id="rot-${esc(c.clientId)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">New secret</button></p></form>${
        admin
          ? `<form method="post" action="/staff/sellers/${esc(c.clientId)}/scopes/grant">${csrfInput(csrf)}
<label for="sc-${esc(c.clientId)}">Scope</label><select id="sc-${esc(c.clientId)}" name="scope">${scopeOptions}</select>
<label for="scr-${esc(c.clientId)}">Reason (at least 10 characters)</label><textarea id="scr-${esc(c.clientId)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Grant scope</button> <button type="submit" formaction="/staff/sellers/${esc(c.clientId)}/scopes/revoke">Revoke scope</button></p></form>${
              c.scopes.includes("ndc:aggregator")
                ? `<form method="post" action="/staff/sellers/${esc(c.clientId)}/agencies/grant">${csrfInput(csrf)}
<label for="agg-${esc(c.clientId)}">Agency it may sell as</label><input id="agg-${esc(c.clientId)}" name="agency" required maxlength="64">
<label for="aggr-${esc(c.clientId)}">Reason (at least 10 characters)</label><textarea id="aggr-${esc(c.clientId)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Grant agency</button> <button type="submit" formaction="/staff/sellers/${esc(c.clientId)}/agencies/revoke">Revoke agency</button></p></form>`
                : ""
            }`
          : ""
      }`,
    ];
  });
  const agencyRows = s.agencies.map((a) => {
    const to = a.active ? "deactivate" : "activate";
    return [
      `<a href="/staff/agencies/${esc(a.agencyId)}/agreements">${esc(a.agencyId)}</a>`,
      esc(a.iataNumber),
      esc(a.name),
      a.active ? "Active" : "<strong>Inactive</strong>",
      `<form method="post" action="/staff/agencies/${esc(a.agencyId)}/${to}">${csrfInput(csrf)}
<label for="ag-${esc(a.agencyId)}">Reason (at least 10 characters)</label><textarea id="ag-${esc(a.agencyId)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">${to === "activate" ? "Activate" : "Deactivate"}</button></p></form>`,
    ];
  });
  const registerAgency = admin
    ? `<form method="post" action="/staff/agencies">${csrfInput(csrf)}<fieldset><legend>Register an agency</legend>
<label for="ra-id">Agency id</label><input id="ra-id" name="agencyId" required maxlength="64">
<label for="ra-iata">IATA number (eight digits)</label><input id="ra-iata" name="iataNumber" required pattern="[0-9]{8}" maxlength="8">
<label for="ra-name">Name</label><input id="ra-name" name="name" required maxlength="200">
<label for="ra-reason">Reason (at least 10 characters)</label><textarea id="ra-reason" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Register agency</button></p></fieldset></form>`
    : "";
  const register = admin
    ? `<form method="post" action="/staff/sellers">${csrfInput(csrf)}<fieldset><legend>Register a seller client</legend>
<label for="reg-agency">Agency id (registered)</label><input id="reg-agency" name="agencyId" required maxlength="64">
<label for="reg-name">Name</label><input id="reg-name" name="name" maxlength="200">
<label for="reg-scopes">Scopes</label><select id="reg-scopes" name="scopes" multiple required size="6">${scopeOptions}</select>
<label for="reg-reason">Reason (at least 10 characters)</label><textarea id="reg-reason" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Register client</button></p></fieldset></form>`
    : "";
  return page(200, "Sellers", `<p>Suspension refuses the client's next NDC call, tokens already issued included; a resumed client fetches a new token. A new secret refuses the old one and its tokens. Deactivating an agency refuses every client of it from the next call.</p><p><a href="/staff/sellers/traffic">Traffic and rate-limit figures per client, last hour</a></p>${table(["Agency", "IATA number", "Name", "State", "Change"], agencyRows, "Agencies")}${registerAgency}${table(["Client", "Name", "Agency", "Scopes", "State", "Change"], rows, "Seller clients")}${register}`, chrome);
}

export function deliveriesPage(q: Awaited<ReturnType<typeof deliveriesQueue>>, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const canRedeliver = may(caller.session.role, "queue.resolve");
  const rows = q.items.map((d) => [
    esc(d.deliveryId),
    esc(d.event),
    d.orderId ? `<a href="/staff/orders/${esc(d.orderId)}">${esc(d.orderId)}</a>` : "",
    `${esc(d.agencyId)}<br>${esc(d.url)}`,
    esc(d.attempts),
    esc([d.lastHttpStatus, d.lastError].filter((v) => v !== undefined).join(" ")),
    `${esc(age(d.ageSeconds))} (failed ${esc(d.failedAt)})`,
    takeCell("failed-deliveries", d.deliveryId, d, caller, csrf),
    canRedeliver
      ? `<form method="post" action="/staff/queues/failed-deliveries/${esc(d.deliveryId)}/redeliver">${csrfInput(csrf)}
<label for="dn-${esc(d.deliveryId)}">Note (at least 10 characters)</label><textarea id="dn-${esc(d.deliveryId)}" name="note" required minlength="10" maxlength="500" rows="2"></textarea>
<p><button type="submit">Redeliver</button></p></form>`
      : "Senior agents, supervisors and admins",
  ]);
  return page(200, "Work queue: failed deliveries", `<p>Notifications whose retries ran out, oldest first. Redelivering sends the same message (same webhook-id) again now.</p>${table(["Delivery", "Event", "Order", "Seller and endpoint", "Attempts", "Last answer", "Age", "Taken by", "Redeliver"], rows, "Failed deliveries")}`, chrome);
}

/** The one page that shows a client secret (new client, or new secret): no-store, shown once, never logged or audited. */
export function secretPage(r: { clientId: string; clientSecret: string; secretGeneration?: number }, chrome: PageChrome): Response {
  const what = r.secretGeneration === undefined ? "registered" : `secret generation ${esc(r.secretGeneration)}; the old secret and every token issued under it are refused from now on`;
  return page(
    200,
    "Client secret",
    `<p>Client ${esc(r.clientId)}, ${what}. Give this secret to the seller now: it is shown once and kept only as a hash.</p>
<p class="number">${esc(r.clientSecret)}</p>
<p><a href="/staff/sellers">Back to sellers</a></p>`,
    { ...chrome, headers: { pragma: "no-cache" } },
  );
}
