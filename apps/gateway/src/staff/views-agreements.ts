import { SIGNING_POLICIES } from "@ndc/auth";
import { may } from "@ndc/staff";
import type { agencyAgreements } from "./agreements";
import type { clearancesQueue } from "./clearances";
import type { StaffCaller } from "./guard";
import { csrfInput, esc, page, table, type PageChrome } from "./html";
import { age, takeCell } from "./views-work";
import { settlementSection } from "./views-settlement";

/** The unclear-clearances queue page and an agency's agreements page (pages-agreements.ts routes to them). */

const reasonField = (id: string, name = "reason", label = "Reason (at least 10 characters)") =>
  `<label for="${id}">${esc(label)}</label><textarea id="${id}" name="${name}" required minlength="10" maxlength="500" rows="2"></textarea>`;

const GROUNDS: Record<string, string> = {
  stalled: "still requested an hour after its request",
  overdue: "past its settlement date",
};

export function clearancesPage(q: Awaited<ReturnType<typeof clearancesQueue>>, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const canAct = may(caller.session.role, "queue.resolve");
  const rows = q.items.map((c) => [
    `<span class="fp">${esc(c.clearanceId)}</span>`,
    `<a href="/staff/orders/${esc(c.orderId)}">${esc(c.orderId)}</a>`,
    esc(c.agencyId),
    `${esc(c.amount)} ${esc(c.currency)} (${esc(c.settlementMethod)})`,
    esc(c.grounds.map((g) => GROUNDS[g] ?? g).join("; ")),
    `${esc(age(c.ageSeconds))} (requested ${esc(c.requestedAt)}; settlement date ${esc(c.settlementDate)})`,
    takeCell("unclear-clearances", c.clearanceId, c, caller, csrf),
    canAct
      ? `<form method="post" action="/staff/queues/unclear-clearances/${esc(c.clearanceId)}/clear">${csrfInput(csrf)}
${reasonField(`cn-${esc(c.clearanceId)}`, "note", "Note (at least 10 characters)")}
<p><button type="submit">Clear by hand</button> <button type="submit" formaction="/staff/queues/unclear-clearances/${esc(c.clearanceId)}/rerequest">Request again</button></p></form>`
      : "Senior agents, supervisors and admins",
  ]);
  return page(
    200,
    "Work queue: unclear clearances",
    `<p>Settlement-plan payments whose clearance is still requested an hour after the request (the Clearance Manager clears within seconds) or past its settlement date, oldest first. Clear one by hand once the money is seen to have arrived, or request it again under a new ClearanceID when the Clearance Manager lost or refused it. The agency is told either way.</p>${table(["Clearance", "Order", "Paying agency", "Amount", "Why unclear", "Age", "Taken by", "Act"], rows, "Unclear clearances")}`,
    chrome,
  );
}

type Agreements = Awaited<ReturnType<typeof agencyAgreements>>;

function commissionText(c: Agreements["commission"]): string {
  if (!c) return "No commission agreement: the agency's orders carry no commission.";
  if (c.kind === "percentage") return `Percentage: ${(c.basisPoints / 100).toFixed(2)}% (${c.basisPoints} basis points) of the order total.`;
  if (c.kind === "tiered") return `Tiered in ${c.currency}: ${c.tiers.map((t) => `from ${t.fromAmount} ${c.currency}, ${(t.basisPoints / 100).toFixed(2)}%`).join("; ")} (the tier reached applies to the whole amount).`;
  return `Flat: ${c.amount} ${c.currency} an order (no post-sale charge can be commissioned under it).`;
}

export function agreementsPage(a: Agreements, caller: StaffCaller, csrf: string, chrome: PageChrome): Response {
  const admin = may(caller.session.role, "sellers.register");
  const base = `/staff/agencies/${esc(a.agencyId)}`;
  const commissionForm = admin
    ? `<form method="post" action="${base}/commission">${csrfInput(csrf)}<fieldset><legend>Set the commission agreement</legend>
<p>Orders already sold keep the commission they were sold with; the next order is computed on this one.</p>
<label for="c-kind">Kind</label><select id="c-kind" name="kind"><option value="percentage">percentage</option><option value="tiered">tiered</option><option value="flat">flat</option></select>
<label for="c-bp">Rate in basis points (percentage; 500 is 5%)</label><input id="c-bp" name="basisPoints" inputmode="numeric" maxlength="5">
<label for="c-tiers">Tiers (tiered): one per line, from (minor units) and basis points, e.g. 0:300</label><textarea id="c-tiers" name="tiers" rows="3" maxlength="500"></textarea>
<label for="c-amount">Amount in minor units (flat; 1500 is 15.00)</label><input id="c-amount" name="amountMinor" inputmode="numeric" maxlength="12">
<label for="c-cur">Currency (tiered, flat)</label><input id="c-cur" name="currency" maxlength="3">
${reasonField("c-reason")}
<p><button type="submit">Set commission</button></p></fieldset></form>`
    : "";
  const keyRows = a.signing.keys.map((k) => [
    `<span class="fp">${esc(k.fingerprint)}</span>`,
    `${esc(k.kind)}, ${esc(k.algorithm)}${k.subject ? `<br>${esc(k.subject)}` : ""}`,
    `${esc(k.notBefore ?? "open")} to ${esc(k.notAfter ?? "open")}`,
    esc(k.addedAt),
    k.state === "active" ? "Active" : `<strong>${esc(k.state.replace(/_/g, " "))}</strong>${k.revokedAt ? ` ${esc(k.revokedAt)}` : ""}`,
    admin && k.state !== "revoked"
      ? `<form method="post" action="${base}/signing/keys/${esc(k.fingerprint)}/revoke">${csrfInput(csrf)}${reasonField(`rv-${esc(k.fingerprint.slice(0, 16))}`)}<p><button type="submit">Revoke</button></p></form>`
      : "",
  ]);
  const policyOptions = SIGNING_POLICIES.map((p) => `<option${p === a.signing.policy ? " selected" : ""}>${esc(p)}</option>`).join("");
  const signingForms = admin
    ? `<form method="post" action="${base}/signing/policy">${csrfInput(csrf)}<fieldset><legend>Signing policy</legend>
<label for="s-policy">Policy</label><select id="s-policy" name="policy">${policyOptions}</select>
<label for="s-signs">The airline signs the agency's OrderViewRS answers</label><select id="s-signs" name="airlineSigns"><option value="yes"${a.signing.airlineSigns ? " selected" : ""}>yes</option><option value="no"${a.signing.airlineSigns ? "" : " selected"}>no</option></select>
${reasonField("s-reason")}
<p><button type="submit">Set policy</button></p></fieldset></form>
<form method="post" action="${base}/signing/keys">${csrfInput(csrf)}<fieldset><legend>Register a certificate or public key</legend>
<label for="k-pem">PEM certificate (BEGIN CERTIFICATE) or public key (BEGIN PUBLIC KEY): RSA 2048 bits or more, or EC P-256; never a private key</label><textarea id="k-pem" name="pem" required rows="6" maxlength="16000"></textarea>
<label for="k-after">Valid until (optional, YYYY-MM-DD)</label><input id="k-after" name="notAfter" type="date">
${reasonField("k-reason")}
<p><button type="submit">Register key</button></p></fieldset></form>`
    : "";
  return page(
    200,
    `Agreements: ${a.agencyId}`,
    `<p>Agency ${esc(a.agencyId)}, IATA number ${esc(a.iataNumber)}, ${esc(a.name)}${a.active ? "" : " (<strong>inactive</strong>)"}. <a href="/staff/sellers">Back to sellers</a></p>
<h2>Commission agreement</h2><p>${esc(commissionText(a.commission))}</p>${commissionForm}
<h2>Signing agreement</h2><p>Policy <strong>${esc(a.signing.policy)}</strong>; the airline ${a.signing.airlineSigns ? "signs" : "does not sign"} this agency's OrderViewRS answers. Changes apply from the agency's next call.</p>
${table(["Fingerprint (SHA-256)", "Key", "Valid", "Registered", "State", "Revoke"], keyRows, "Signing keys")}${signingForms}
${settlementSection(a.agencyId, a.settlementAccounts, admin, csrf)}`,
    chrome,
  );
}
