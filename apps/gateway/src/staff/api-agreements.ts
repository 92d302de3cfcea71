import { addKey, agencyAgreements, revokeKey, setCommission, setPolicy } from "./agreements";
import { reply, type StaffRoute } from "./api-route";
import { closeAccount, openAccount, settlementAccounts } from "./settlement-accounts";

/** An agency's commission, signing and settlement agreements under /staff/api (docs/staff-api.md). */
export const AGREEMENT_ROUTES: StaffRoute[] = [
  { method: "GET", path: "/agencies/:agencyId/agreements", answer: async ({ deps, caller, params }) => reply(200, await agencyAgreements(deps, caller, params.agencyId!)) },
  { method: "GET", path: "/agencies/:agencyId/settlement-accounts", answer: async ({ deps, caller, params }) => reply(200, await settlementAccounts(deps, caller, params.agencyId!)) },
  { method: "POST", path: "/agencies/:agencyId/settlement-accounts", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(201, await openAccount(deps, caller, params.agencyId!, body)) },
  { method: "POST", path: "/agencies/:agencyId/settlement-accounts/:accountId/close", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await closeAccount(deps, caller, params.agencyId!, params.accountId!, body)) },
  { method: "POST", path: "/agencies/:agencyId/commission", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await setCommission(deps, caller, params.agencyId!, body)) },
  { method: "POST", path: "/agencies/:agencyId/signing/keys", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await addKey(deps, caller, params.agencyId!, body)) },
  { method: "POST", path: "/agencies/:agencyId/signing/keys/:fingerprint/revoke", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await revokeKey(deps, caller, params.agencyId!, params.fingerprint!, body)) },
  { method: "POST", path: "/agencies/:agencyId/signing/policy", body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await setPolicy(deps, caller, params.agencyId!, body)) },
];
