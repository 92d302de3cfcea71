import { actOnClearance, clearancesQueue } from "./clearances";
import { reply, type StaffRoute } from "./api-route";

/**
 * The unclear-clearances queue under /staff/api (docs/staff-api.md): the listing and an action on
 * one clearance (taking one goes through the queues' shared take route, api.ts).
 */
export const QUEUE_ROUTES: StaffRoute[] = [
  { method: "GET", path: "/queues/unclear-clearances", answer: async ({ deps, caller }) => reply(200, await clearancesQueue(deps, caller)) },
  ...(["clear", "rerequest"] as const).map((act): StaffRoute => ({ method: "POST", path: `/queues/unclear-clearances/:itemId/${act}`, body: "json-object", answer: async ({ deps, caller, params, body }) => reply(200, await actOnClearance(deps, caller, params.itemId!, act, body)) })),
];
