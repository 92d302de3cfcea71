import { GatewayError } from "@ndc/errors";
import { may, REASON_CATEGORIES } from "@ndc/staff";
import type { OrderPage } from "./actions";
import type { StaffDeps } from "./deps";
import { signedOriginal } from "./evidence";
import type { StaffCaller } from "./guard";
import { csrfInput, esc, page, table, type PageChrome } from "./html";
import { STAFF_PATHS } from "./paths";
import { acceptAddition, acceptCancellation, acceptFlightChange, quoteAddition, quoteCancellation, quoteFlightChange } from "./servicing";
import { servicingOptions, type ServicingOptions } from "./servicing-options";
import type { AddQuoteView, CancelQuoteView, FlightQuoteView } from "./servicing-json";
import { originalResponse } from "./api-servicing";
import { renamePassenger } from "./rename";

/**
 * The console's servicing pages (issue 12 item 6) and the order page's signature evidence (item
 * 3): forms on the order page ask for a quote; the quote's page shows its terms and the rule the
 * airline overrides before anyone accepts, and carries the accept form (reason required; only for
 * the roles that may accept). Plain forms, no script; the actions are servicing.ts's, the same as
 * the JSON API's.
 */

const REASON_FIELD = (id: string) =>
  `<label for="${id}">Reason (at least 10 characters; on the audit trail)</label><textarea id="${id}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>`;
const CARD_FIELD = (id: string) =>
  `<label for="${id}">Customer's card (PSP token, e.g. tok_approve_visa)</label><input id="${id}" name="cardToken" pattern="tok_[A-Za-z0-9_]{1,60}" maxlength="64" autocomplete="off">`;
const money = (m: { amount: string; currency: string }) => `${esc(m.amount)} ${esc(m.currency)}`;
const redirect = (to: string) => new Response(null, { status: 303, headers: { location: to, "cache-control": "no-store" } });
const orderUrl = (orderId: string) => `/staff/orders/${encodeURIComponent(orderId)}`;

/** How the page states the override: the rule a seller would have been refused with, or that the fare allows it. */
function overrideLine(o: { ruleCode: string; ruleText: string } | null, by?: string): string {
  if (o) return `<p class="error" role="note"><strong>Fare rule overridden: ${esc(o.ruleCode)}.</strong> ${esc(o.ruleText)} A seller would be refused; as the airline you are not. Accepting records the override on the change and on both audit trails.</p>`;
  if (by === "flexibility") return `<p class="notice">Allowed by the customer's Flexibility service, which accepting spends.</p>`;
  return `<p class="notice">The fare allows this: no override.</p>`;
}

/** The order page's "Service this order" section: the quote forms (a quote changes nothing). */
export function servicingSection(o: OrderPage, caller: StaffCaller, csrf: string): string {
  if (!may(caller.session.role, "orders.service.quote")) return "";
  if (o.state !== "booked") return `<h2>Service this order</h2><p>The order is ${esc(o.stateName)}: nothing to service.</p>`;
  const base = `${orderUrl(o.orderId)}/servicing`;
  const items = o.items
    .map((i) => `<li><input type="checkbox" id="ci-${esc(i.orderItemId)}" name="orderItemIds" value="${esc(i.orderItemId)}"> <label class="inline" for="ci-${esc(i.orderItemId)}">${esc(i.kind)} ${esc(i.orderItemId)} (${esc(i.price)} ${esc(o.total.currency)})</label></li>`)
    .join("");
  return `<h2>Service this order</h2>
<p>As the airline: never refused by the fare; a quote first, then accept it${may(caller.session.role, "orders.service") ? "" : " (accepting is for senior agents and supervisors)"}.</p>
<form method="post" action="${base}/cancel/quote">${csrfInput(csrf)}<fieldset><legend>Cancel the whole order</legend><p><button type="submit">Quote the cancellation</button></p></fieldset></form>
<form method="post" action="${base}/cancel/quote">${csrfInput(csrf)}<input type="hidden" name="scope" value="items"><fieldset><legend>Cancel items</legend><ul class="plain">${items}</ul><p><button type="submit">Quote cancelling the items</button></p></fieldset></form>
<form method="post" action="${base}/change/quote">${csrfInput(csrf)}<fieldset><legend>Change a flight</legend>
<label for="ch-direction">Direction</label><select id="ch-direction" name="direction">${o.journeys.map((j, n) => `<option value="${n}">${n === 0 ? "Outbound" : "Return"}: ${esc(j.flightKeys.join(", "))} (${esc(j.brandCode)})</option>`).join("")}</select>
<label for="ch-date">New date</label><input id="ch-date" name="date" type="date" required>
<p><button type="submit">Quote the change</button></p></fieldset></form>
<p><a href="${base}/options">Add a seat or an extra</a></p>${renameForm(o, caller, csrf)}`;
}

/**
 * Correct a passenger's name (SHPOR1 rule 4: never refused by the fare): no money moves, so no
 * quote; the form says beforehand when the fare's rule is overridden, and only the roles that may
 * accept a change see it.
 */
function renameForm(o: OrderPage, caller: StaffCaller, csrf: string): string {
  if (!may(caller.session.role, "orders.service")) return "";
  const pax = o.passengers.map((p) => `<option value="${esc(p.paxId)}">${esc(p.paxId)}: ${esc([p.title, ...p.givenNames, p.surname].filter(Boolean).join(" "))}</option>`).join("");
  return `<form method="post" action="${orderUrl(o.orderId)}/servicing/rename">${csrfInput(csrf)}<input type="hidden" name="version" value="${o.version}"><fieldset><legend>Correct a passenger's name</legend>
<p>As the airline the fare's name-change rule never refuses it; where a seller would be refused, the override is recorded on the change and on both audit trails.</p>
<label for="rn-pax">Passenger</label><select id="rn-pax" name="paxId">${pax}</select>
<label for="rn-title">Title</label><input id="rn-title" name="title" maxlength="16">
<label for="rn-given">Given names (one or more, separated by spaces)</label><input id="rn-given" name="givenNames" maxlength="320">
<label for="rn-surname">Surname</label><input id="rn-surname" name="surname" required maxlength="64">
<p><input type="checkbox" id="rn-flex" name="useFlexibility"> <label class="inline" for="rn-flex">Spend the customer's Flexibility service instead of overriding</label></p>
${REASON_FIELD("rn-reason")}
<p><button type="submit">Correct the name</button></p></fieldset></form>`;
}

/** The order page's signature evidence (docs/signatures.md): digests for all; the signed original for a supervisor, with a reason. */
export function evidenceSection(o: OrderPage, caller: StaffCaller, csrf: string): string {
  if (!o.signatures.length) return `<h2>Signature evidence</h2><p>No signed request for this order.</p>`;
  const canDownload = may(caller.session.role, "signatures.original");
  const categories = REASON_CATEGORIES.map((c) => `<option value="${c}">${c.replace(/_/g, " ")}</option>`).join("");
  const rows = o.signatures.map((e) => {
    const original = e.original === "held" ? "Held" : e.original === "missing" ? "Missing" : `Erased on ${esc(e.original.erasedAt.slice(0, 10))}`;
    const download =
      e.original !== "held"
        ? ""
        : canDownload
          ? `<form method="post" action="${orderUrl(o.orderId)}/signatures/${esc(e.seq)}/original">${csrfInput(csrf)}
<label for="so-r-${esc(e.seq)}">Reason (at least 10 characters)</label><textarea id="so-r-${esc(e.seq)}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>
<label for="so-c-${esc(e.seq)}">Reason category</label><select id="so-c-${esc(e.seq)}" name="category" required>${categories}</select>
<p><input type="checkbox" id="so-x-${esc(e.seq)}" name="clear" value="on"><label for="so-x-${esc(e.seq)}">In clear: the document numbers as signed (a reveal of each document, audited); otherwise they are masked and the signature no longer verifies</label></p>
<p><button type="submit">Download the signed original</button></p></form>`
          : "Supervisors only";
    return [esc(e.seq), esc(e.message), esc(e.form), esc(`${e.agencyId} / ${e.clientId}`), esc(e.verifiedAt), esc(e.signatureMethod), `<code>${esc(e.fingerprint)}</code>`, `<code>${esc(e.originalSha256)}</code>`, original, download];
  });
  return `<h2>Signature evidence</h2>${table(["#", "Message", "Form", "Agency / client", "Verified", "Method", "Key fingerprint", "Original SHA-256", "Original", "Download"], rows, "Verified signed requests")}`;
}

function quotePage(title: string, body: string, chrome: PageChrome): Response {
  return page(200, title, body, chrome);
}

function acceptForm(caller: StaffCaller, csrf: string, action: string, inner: string, id: string, label: string): string {
  if (!may(caller.session.role, "orders.service")) return `<p>Senior agents and supervisors accept servicing quotes.</p>`;
  return `<form method="post" action="${action}">${csrfInput(csrf)}<fieldset><legend>Accept</legend>${inner}${REASON_FIELD(`${id}-reason`)}<p><button type="submit">${esc(label)}</button></p></fieldset></form>`;
}

function cancelQuotePage(orderId: string, q: CancelQuoteView, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const items = q.items ? table(["Item", "Kind", "Passengers", "Price"], q.items.map((i) => [esc(i.orderItemId), esc(i.kind), esc(i.paxIds.join(", ")), `${esc(i.price)} ${esc(q.currency)}`]), "Items cancelled") : "";
  const body = `${overrideLine(q.override)}
<dl><dt>Quote</dt><dd><code>${esc(q.quoteId)}</code></dd><dt>Firm until</dt><dd>${esc(q.expiresAt)}</dd>
<dt>Paid</dt><dd>${money(q.paid)}</dd><dt>Refund</dt><dd><strong>${money(q.refund)}</strong></dd><dt>Kept by the airline</dt><dd>${money(q.penalty)}</dd>
<dt>Fare refundable</dt><dd>${q.refundable ? "yes" : "no"}</dd><dt>Fee band</dt><dd>${esc(q.band)}</dd></dl>
${items}${table(["Payment leg", "Refund"], q.refundTo.map((s) => [esc(s.legId), `${esc(s.amount)} ${esc(q.currency)}`]), "Refunded to")}
${acceptForm(caller, csrf, `${orderUrl(orderId)}/servicing/cancel`, `<input type="hidden" name="quoteId" value="${esc(q.quoteId)}">`, "cx", q.kind === "cancel" ? "Cancel the order" : "Cancel the items")}
<p><a href="${orderUrl(orderId)}">Back to the order</a></p>`;
  return quotePage(q.kind === "cancel" ? "Cancellation quote" : "Items cancellation quote", body, chrome);
}

function flightQuotePage(orderId: string, q: FlightQuoteView, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const radios = q.alternatives
    .map((a, n) => `<li><input type="radio" id="alt-${n}" name="quoteId" value="${esc(a.quoteId)}"${n === 0 ? " checked" : ""} required> <label class="inline" for="alt-${n}">${esc(a.flights.map((f) => `${f.key} ${f.origin}-${f.destination} ${f.departureLocal}`).join(", "))}: price ${money(a.price)}, due ${money(a.due)}</label></li>`)
    .join("");
  const inner = `<fieldset><legend>Alternative</legend><ul class="plain">${radios}</ul></fieldset>${CARD_FIELD("fc-card")}
<p><input type="checkbox" id="fc-flex" name="useFlexibility"> <label class="inline" for="fc-flex">Use the customer's Flexibility service instead of overriding</label></p>`;
  const body = `${overrideLine(q.allowance.override, q.allowance.by)}
<dl><dt>Direction</dt><dd>${esc(q.direction.flightKeys.join(", "))} (${esc(q.direction.brandCode)})</dd><dt>Firm until</dt><dd>${esc(q.expiresAt)}</dd>
<dt>Change fee</dt><dd>${money(q.fee)} (band ${esc(q.band)})</dd><dt>Direction as paid</dt><dd>${money(q.paid)}</dd></dl>
<p>A positive amount due is charged to the customer's card; a negative one is refunded to the legs that paid.</p>
${q.alternatives.length ? acceptForm(caller, csrf, `${orderUrl(orderId)}/servicing/change`, inner, "fc", "Change the flight") : "<p>No alternative that day.</p>"}
<p><a href="${orderUrl(orderId)}">Back to the order</a></p>`;
  return quotePage("Flight change quote", body, chrome);
}

function addQuotePage(orderId: string, q: AddQuoteView, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const body = `${overrideLine(null)}
<dl><dt>Quote</dt><dd><code>${esc(q.quoteId)}</code></dd><dt>Firm until</dt><dd>${esc(q.expiresAt)}</dd><dt>Charge</dt><dd><strong>${money(q.charge)}</strong>, to the customer's card</dd></dl>
${table(["Item", "Kind", "Passengers", "Seat or code", "Price"], q.items.map((i) => [esc(i.offerItemId), esc(i.kind), esc(i.paxIds.join(", ")), esc(i.ref ?? ""), `${esc(i.price)} ${esc(q.currency)}`]), "Items added")}
${acceptForm(caller, csrf, `${orderUrl(orderId)}/servicing/add`, `<input type="hidden" name="quoteId" value="${esc(q.quoteId)}">${Number(q.charge.amount) > 0 ? CARD_FIELD("ad-card") : ""}`, "ad", "Add to the order")}
<p><a href="${orderUrl(orderId)}">Back to the order</a></p>`;
  return quotePage("Addition quote", body, chrome);
}

function optionsPage(o: ServicingOptions, csrf: string, chrome: PageChrome): Response {
  const base = `${orderUrl(o.orderId)}/servicing/add/quote`;
  const paxOf = (items: { paxIds: string[] }[]) => [...new Set(items.flatMap((i) => i.paxIds))];
  const seats = o.seats
    ? `<form method="post" action="${base}">${csrfInput(csrf)}<input type="hidden" name="form" value="seat"><input type="hidden" name="offerId" value="${esc(o.seats.offerId)}"><fieldset><legend>Add a seat</legend>
<label for="ad-seat">Seat</label><select id="ad-seat" name="offerItemId" required>${o.seats.items.map((s) => `<option value="${esc(s.offerItemId)}">${esc(s.flightKey)} seat ${esc(s.seatId)}: ${esc(s.price)} ${esc(o.seats!.currency)}</option>`).join("")}</select>
<label for="ad-seat-pax">Passenger</label><select id="ad-seat-pax" name="paxId">${paxOf(o.seats.items).map((p) => `<option>${esc(p)}</option>`).join("")}</select>
<p><button type="submit">Quote the seat</button></p></fieldset></form>`
    : "<p>No seat for sale on the order's flights.</p>";
  const extras = o.extras
    ? `<form method="post" action="${base}">${csrfInput(csrf)}<input type="hidden" name="form" value="services"><input type="hidden" name="offerId" value="${esc(o.extras.offerId)}"><fieldset><legend>Add an extra</legend>
<label for="ad-extra">Extra</label><select id="ad-extra" name="offerItemId" required>${o.extras.items.map((i) => `<option value="${esc(i.offerItemId)}">${esc(i.name)} (${esc(i.flightKeys.join(", ") || "whole order")}, for ${esc(i.paxIds.join(", "))}): ${esc(i.unitPrice)} ${esc(o.extras!.currency)}</option>`).join("")}</select>
<label for="ad-extra-pax">Passenger</label><select id="ad-extra-pax" name="paxId">${paxOf(o.extras.items).map((p) => `<option>${esc(p)}</option>`).join("")}</select>
<label for="ad-extra-qty">Quantity</label><input id="ad-extra-qty" name="qty" type="number" min="1" max="9" value="1">
<p><button type="submit">Quote the extra</button></p></fieldset></form>`
    : "<p>No airline extra for sale on this order.</p>";
  return page(200, `Add to order ${o.orderId}`, `${seats}${extras}<p><a href="${orderUrl(o.orderId)}">Back to the order</a></p>`, chrome);
}

/** The servicing and evidence page routes (pages.ts asks here first): a Response for their paths, undefined for others. */
export async function servicingPages(request: Request, path: string, form: URLSearchParams, deps: StaffDeps, caller: StaffCaller, csrf: string, chrome: PageChrome): Promise<Response | undefined> {
  const m = request.method;
  let r = STAFF_PATHS.servicing.exec(path);
  if (r) {
    const orderId = r[1]!;
    const step = r[2]!;
    if (step === "options") {
      if (m !== "GET") return undefined;
      return optionsPage(await servicingOptions(deps, caller, orderId), csrf, chrome);
    }
    if (m !== "POST") return undefined;
    const reason = form.get("reason") ?? "";
    const cardToken = form.get("cardToken") ?? "";
    switch (step) {
      case "cancel/quote": {
        const ids = form.getAll("orderItemIds");
        // The items form with nothing ticked is not a whole-order cancellation.
        if (form.get("scope") === "items" && !ids.length) throw new GatewayError("request_invalid", { detail: "Tick at least one item to cancel.", element: "orderItemIds" });
        return cancelQuotePage(orderId, await quoteCancellation(deps, caller, orderId, ids.length ? { orderItemIds: ids } : {}), caller, csrf, chrome);
      }
      case "cancel":
        await acceptCancellation(deps, caller, orderId, { quoteId: form.get("quoteId") ?? "", reason });
        return redirect(`${orderUrl(orderId)}?serviced=cancel`);
      case "change/quote": {
        return flightQuotePage(orderId, await quoteFlightChange(deps, caller, orderId, { direction: Number(form.get("direction") ?? "0"), date: form.get("date") ?? "" }), caller, csrf, chrome);
      }
      case "change":
        await acceptFlightChange(deps, caller, orderId, { quoteId: form.get("quoteId") ?? "", reason, cardToken, useFlexibility: form.get("useFlexibility") === "on" });
        return redirect(`${orderUrl(orderId)}?serviced=change`);
      case "add/quote": {
        const kind = form.get("form");
        const offerId = form.get("offerId") ?? "";
        const offerItemId = form.get("offerItemId") ?? "";
        const paxId = form.get("paxId") ?? "";
        const qty = Number(form.get("qty") ?? "1");
        const body = kind === "seat" ? { form: "seat", offerId, offerItemId, paxId } : { form: "services", offerId, items: [{ offerItemId, paxIds: [paxId], ...(qty > 1 ? { qty } : {}) }] };
        return addQuotePage(orderId, await quoteAddition(deps, caller, orderId, body), caller, csrf, chrome);
      }
      case "rename": {
        // One given name per word typed: the form has one field for them.
        const givenNames = (form.get("givenNames") ?? "").split(/\s+/).filter(Boolean);
        await renamePassenger(deps, caller, orderId, { paxId: form.get("paxId") ?? "", title: form.get("title") ?? "", givenNames, surname: form.get("surname") ?? "", version: form.get("version") ?? "", reason, useFlexibility: form.get("useFlexibility") === "on" });
        return redirect(`${orderUrl(orderId)}?serviced=rename`);
      }
      case "add":
        await acceptAddition(deps, caller, orderId, { quoteId: form.get("quoteId") ?? "", reason, cardToken });
        return redirect(`${orderUrl(orderId)}?serviced=add`);
    }
    throw new GatewayError("request_invalid", { detail: "No such page." });
  }
  if ((r = STAFF_PATHS.original.exec(path)) && m === "POST") {
    return originalResponse(await signedOriginal(deps, caller, r[1]!, r[2]!, { reason: form.get("reason") ?? "", category: form.get("category") ?? "", clear: form.get("clear") ?? "" }));
  }
  return undefined;
}

/** The notice the order page shows after a servicing acceptance redirected to it. */
export const SERVICED: Record<string, string> = {
  cancel: "Done: the cancellation was made and is on the audit trail.",
  change: "Done: the flight was changed and the change is on the audit trail.",
  add: "Done: added to the order and on the audit trail.",
  rename: "Done: the name was corrected and the correction is on the audit trail.",
};
