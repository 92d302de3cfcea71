import { may, type StaffSession } from "@ndc/staff";

/** Text placed in HTML: every value from the store or the request goes through this. */
export function esc(v: unknown): string {
  return String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * Escaped text whose long unbroken runs (a key's fingerprint, a ticket's address, an IPv6 address)
 * may wrap: a <wbr> every 12 characters of a run longer than 20. Words wrap where words do, so a
 * table column is never narrower than its longest ordinary word (issue 19 item 27).
 */
export function breakable(v: unknown): string {
  return String(v ?? "")
    .split(/(\s+)/)
    .map((run) => (run.length > 20 ? (run.match(/.{1,12}/gsu) ?? []).map(esc).join("<wbr>") : esc(run)))
    .join("");
}

/**
 * No inline script or style, no frame, no form to another origin: the pages are plain HTML, one
 * stylesheet and one small script of the console's own (the reveal page's 60-second timer).
 */
const CSP = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** What a page shows around its body once the caller is known: who is logged in, and the logout form's CSRF token. */
export interface PageChrome {
  session?: StaffSession;
  csrfToken?: string;
  head?: string;
  headers?: Record<string, string>;
}

export function page(status: number, title: string, body: string, opts: PageChrome = {}): Response {
  const nav = opts.session
    ? `<nav aria-label="Console"><ul>
  <li><a href="/staff/dashboard">Dashboard</a></li>
  <li><a href="/staff/orders">Orders</a></li>
  <li><a href="/staff/queues/reconcile-failed">Work queue</a></li>
  <li><a href="/staff/queues/failed-deliveries">Failed deliveries</a></li>
  <li><a href="/staff/queues/unclear-clearances">Unclear clearances</a></li>
  ${may(opts.session.role, "sellers.read") ? `<li><a href="/staff/sellers">Sellers</a></li>` : ""}
  ${may(opts.session.role, "audit.read") ? `<li><a href="/staff/audit">Audit trail</a></li>` : ""}
</ul>
<form method="post" action="/staff/logout" class="logout">${csrfInput(opts.csrfToken)}<span>${esc(opts.session.username)} (${esc(opts.session.role)})</span> <button type="submit">Log out</button></form></nav>`
    : "";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} - Staff console</title>
<link rel="stylesheet" href="/staff/console.css">
<link rel="icon" href="/staff/favicon.ico">
${opts.head ?? ""}
</head>
<body>
<header><p class="brand">Staff console</p>${nav}</header>
<main>
<h1>${esc(title)}</h1>
${body}
</main>
</body>
</html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "same-origin", ...opts.headers },
  });
}

/**
 * The CSRF token of a page's forms. The pages do not keep the token anywhere a script could read
 * it across requests: each page that has a form gets a token it can prove, derived below.
 */
export const csrfInput = (token: string | undefined) => (token ? `<input type="hidden" name="csrf_token" value="${esc(token)}">` : "");

/**
 * A table in a box of its own width that scrolls sideways when the table cannot fit (issue 19
 * item 27: the audit trail was 1,481 px wide in a 1,280 px window), so the page never does. The
 * box is a named region that takes the keyboard's focus, so it can be scrolled without a mouse.
 */
export function table(headers: string[], rows: string[][], caption: string): string {
  if (rows.length === 0) return `<p>No ${esc(caption.toLowerCase())}.</p>`;
  return `<div class="table-box" role="region" aria-label="${esc(caption)}" tabindex="0"><table><caption>${esc(caption)}</caption><thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n")}</tbody></table></div>`;
}

/**
 * The reveal page's timer (issue 12 item 4: the number is shown for 60 seconds): takes the number
 * out of the page, not just out of sight. The page itself is no-store, so Back does not bring it back.
 */
export const REVEAL_JS = `"use strict";
(function () {
  var n = document.querySelector("[data-hide-after]");
  if (!n) return;
  setTimeout(function () {
    var p = document.createElement("p");
    p.className = "notice";
    p.setAttribute("role", "status");
    p.textContent = "The number was shown for " + n.getAttribute("data-hide-after") + " seconds and is no longer on this page.";
    n.replaceWith(p);
  }, Number(n.getAttribute("data-hide-after")) * 1000);
})();
`;

export const CONSOLE_CSS = `body{font-family:system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.45}
header{background:#0b3d6e;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem}
header a,header span{color:#fff}.brand{font-weight:700;margin:0}
nav{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;flex:1 1 auto;min-width:0}nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}
.logout{margin-left:auto}main{padding:1rem;max-width:90rem;min-width:0}
.table-box{max-width:100%;overflow-x:auto;margin:.5rem 0 1.5rem}.table-box:focus{outline:2px solid #0b3d6e}
table{border-collapse:collapse;width:100%}caption{text-align:left;font-weight:700;padding:.25rem 0}
th,td{border:1px solid #8a8a8a;padding:.25rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}th{background:#e8eef5}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}input,select,textarea{font:inherit;padding:.3rem;border:1px solid #555;border-radius:3px}
textarea{width:100%;max-width:40rem}button{font:inherit;padding:.35rem .9rem;border:1px solid #0b3d6e;background:#0b3d6e;color:#fff;border-radius:3px;cursor:pointer}
.error{background:#fde8e8;border:1px solid #a61b1b;color:#7a1010;padding:.5rem}.notice{background:#e7f4e4;border:1px solid #2d6a1f;color:#1d4a12;padding:.5rem}
.number{font-family:ui-monospace,monospace;font-size:1.6rem;letter-spacing:.1em;border:2px solid #0b3d6e;padding:.5rem 1rem;display:inline-block}
.inline{display:inline;font-weight:400}ul.plain{list-style:none;padding-left:0}code{overflow-wrap:anywhere}
.fp{font-family:ui-monospace,monospace;word-break:break-all}
fieldset{border:1px solid #8a8a8a;margin:1rem 0;padding:.5rem 1rem}.search{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end}.search div{display:flex;flex-direction:column}
`;
