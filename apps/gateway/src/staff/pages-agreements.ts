import { addKey, agencyAgreements, revokeKey, setCommission, setPolicy } from "./agreements";
import { actOnClearance, clearancesQueue } from "./clearances";
import type { StaffDeps } from "./deps";
import type { StaffCaller } from "./guard";
import type { PageChrome } from "./html";
import { AGREEMENT_PATHS as P } from "./paths";
import { agreementsPage, clearancesPage } from "./views-agreements";
import { closeAccount, openAccount } from "./settlement-accounts";

const redirect = (to: string) => new Response(null, { status: 303, headers: { location: to, "cache-control": "no-store" } });

/** Tiers typed one a line as `from:basisPoints` (the page's textarea), as the API's list. */
const tiersOf = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [from, basisPoints] = l.split(":").map((v) => v.trim());
      return { from: from ?? "", basisPoints: basisPoints ?? "" };
    });

/**
 * The pages of the unclear-clearances queue and of an agency's agreements (views-agreements.ts),
 * on the same actions as the JSON API (api-queues.ts, api-agreements.ts). Undefined for any other
 * path; refusals are thrown for staffPages to render. Taking a clearance goes through the queues'
 * shared take route.
 */
export async function agreementPages(request: Request, path: string, deps: StaffDeps, form: URLSearchParams, caller: StaffCaller, csrf: string, chrome: PageChrome): Promise<Response | undefined> {
  const m = request.method;
  const f = (k: string) => form.get(k) ?? "";
  if (path === "/queues/unclear-clearances" && m === "GET") return clearancesPage(await clearancesQueue(deps, caller), caller, csrf, chrome);
  let r = P.clearance.exec(path);
  if (r && m === "POST") {
    await actOnClearance(deps, caller, r[1]!, r[2] as "clear" | "rerequest", { note: f("note") });
    return redirect("/staff/queues/unclear-clearances?done=1");
  }
  if ((r = P.agreements.exec(path)) && m === "GET") return agreementsPage(await agencyAgreements(deps, caller, r[1]!), caller, csrf, chrome);
  if (m !== "POST") return undefined;
  const back = (agencyId: string) => redirect(`/staff/agencies/${encodeURIComponent(agencyId)}/agreements`);
  if ((r = P.commission.exec(path))) {
    await setCommission(deps, caller, r[1]!, { kind: f("kind"), basisPoints: f("basisPoints"), amountMinor: f("amountMinor"), currency: f("currency"), tiers: tiersOf(f("tiers")), reason: f("reason") });
    return back(r[1]!);
  }
  if ((r = P.addKey.exec(path))) {
    await addKey(deps, caller, r[1]!, { pem: f("pem"), notAfter: f("notAfter"), reason: f("reason") });
    return back(r[1]!);
  }
  if ((r = P.revokeKey.exec(path))) {
    await revokeKey(deps, caller, r[1]!, r[2]!, { reason: f("reason") });
    return back(r[1]!);
  }
  if ((r = P.settlementAccounts.exec(path))) {
    await openAccount(deps, caller, r[1]!, { method: f("method"), currency: f("currency"), creditLimit: f("creditLimit"), reason: f("reason") });
    return back(r[1]!);
  }
  if ((r = P.closeAccount.exec(path))) {
    await closeAccount(deps, caller, r[1]!, r[2]!, { reason: f("reason") });
    return back(r[1]!);
  }
  if ((r = P.policy.exec(path))) {
    const signs = f("airlineSigns");
    await setPolicy(deps, caller, r[1]!, { policy: f("policy"), ...(signs ? { airlineSigns: signs === "yes" } : {}), reason: f("reason") });
    return back(r[1]!);
  }
  return undefined;
}
