import { GatewayError } from "@ndc/errors";
import { PromotionCriteria, type CriteriaState } from "@ndc/shopping";
import { appendAudit, recordAudit, statedReason } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";
import { reply, type StaffRoute } from "./api-route";

/**
 * The operator's switch of the promotion criteria (issue 19 item 18; spec 4.5 rule 4) under
 * /staff/api/promotions: supervisors and admins read it, admins switch it (with a reason, audited
 * `promotions.criteria` in the switch's own write). Off, OfferPrice asks the promotions engine
 * nothing: no discounts, no surcharges, and a promotions_unavailable Warning saying the criteria
 * are off (@ndc/shopping offer-price/criteria.ts). `ndc-gateway promotions` does the same.
 */
const view = (s: CriteriaState) => ({
  criteria: s.switchedOn ? "on" : "off",
  ...(s.changedAt !== undefined ? { changedAt: new Date(s.changedAt).toISOString(), changedBy: s.changedBy } : {}),
});

async function readState(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "promotions.read", { action: "promotions.view" });
  const state = await new PromotionCriteria(deps.store).state();
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "promotions.view", outcome: "ok", detail: `criteria ${state.switchedOn ? "on" : "off"}` });
  return view(state);
}

async function setCriteria(deps: StaffDeps, caller: StaffCaller, body: Record<string, unknown>) {
  await requireRight(deps, caller, "promotions.configure", { action: "promotions.criteria" });
  const { reason } = statedReason(body, false);
  const on = body.criteria;
  if (on !== "on" && on !== "off") throw new GatewayError("request_invalid", { detail: "criteria is on or off.", element: "criteria" });
  const now = deps.clock.now();
  const by = `staff:${caller.session.username}`;
  await new PromotionCriteria(deps.store).set(on === "on", by, now, (tx, before) =>
    appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "promotions.criteria", outcome: "ok", reason, detail: `promotion criteria switched ${on}; was ${before.switchedOn ? "on" : "off"}` }),
  );
  return view({ switchedOn: on === "on", changedAt: now, changedBy: by });
}

/** GET /staff/api/promotions and POST /staff/api/promotions/criteria. */
export const PROMOTION_ROUTES: StaffRoute[] = [
  { method: "GET", path: "/promotions", answer: async ({ deps, caller }) => reply(200, await readState(deps, caller)) },
  { method: "POST", path: "/promotions/criteria", body: "json-object", answer: async ({ deps, caller, body }) => reply(200, await setCriteria(deps, caller, body)) },
];
