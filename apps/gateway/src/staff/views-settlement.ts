import type { SettlementAccountView } from "@ndc/payments";
import { csrfInput, esc, table } from "./html";

/**
 * The settlement-accounts section of an agency's agreements page (issue 19 item 15): its accounts,
 * and for an admin the forms that open one and close each open one (settlement-accounts.ts).
 */
const reasonField = (id: string) => `<label for="${id}">Reason (at least 10 characters)</label><textarea id="${id}" name="reason" required minlength="10" maxlength="500" rows="2"></textarea>`;

export function settlementSection(agencyId: string, accounts: readonly SettlementAccountView[], admin: boolean, csrf: string): string {
  const base = `/staff/agencies/${esc(agencyId)}/settlement-accounts`;
  const rows = accounts.map((a) => [
    `<span class="fp">${esc(a.accountId)}</span>`,
    `${esc(a.method)} (${esc(a.methodName)})`,
    esc(a.currency),
    esc(a.creditLimit),
    `${esc(a.used)} used, ${esc(a.pending)} reserved`,
    esc(a.headroom),
    a.state === "open" ? "Open" : "<strong>Closed</strong>",
    admin && a.state === "open"
      ? `<form method="post" action="${base}/${esc(a.accountId)}/close">${csrfInput(csrf)}${reasonField(`sc-${esc(a.accountId)}`)}<p><button type="submit">Close account</button></p></form>`
      : "",
  ]);
  const openForm = admin
    ? `<form method="post" action="${base}">${csrfInput(csrf)}<fieldset><legend>Open a settlement account</legend>
<p>One open account per method and currency. A closed account of the same method and currency is opened again with the new limit.</p>
<label for="sa-method">Method</label><select id="sa-method" name="method"><option value="CA">CA (BSP cash)</option><option value="DP">DP (ARC)</option><option value="MS">MS (direct bill)</option></select>
<label for="sa-cur">Currency</label><input id="sa-cur" name="currency" required maxlength="3">
<label for="sa-limit">Credit limit (a decimal amount, e.g. 50000.00)</label><input id="sa-limit" name="creditLimit" required inputmode="decimal" maxlength="20">
${reasonField("sa-reason")}
<p><button type="submit">Open account</button></p></fieldset></form>`
    : "";
  return `<h2>Settlement accounts</h2><p>A settlement plan (SettlementPlan) pays through the agency's open account of the method and currency, within its headroom (credit limit less what is used and reserved). Closing an account refuses its next settlement-plan payment; what it already took is captured, refunded and cleared as before.</p>
${table(["Account", "Method", "Currency", "Credit limit", "Used", "Headroom", "State", "Close"], rows, "Settlement accounts")}${openForm}`;
}
