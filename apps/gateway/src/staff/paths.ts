/**
 * The id of a staff path, for the pages (under /staff, the regular expressions below) and the JSON
 * API (under /staff/api, its declared routes: api-route.ts): 1 to 64 characters of letters,
 * digits and `_.:-` (order, document, operation and client ids all are); anything else matches
 * no route. A settlement account's id is SA-<agency id>-<method>-<currency>, longer than an ID.
 */
export const ID_TEXT = "[A-Za-z0-9_.:-]{1,64}";
export const ACCOUNT_ID_TEXT = "[A-Za-z0-9_.:-]{1,80}";
/** A signature's seq on its order. */
export const SEQ_TEXT = "[0-9]{1,12}";
const ID = `(${ID_TEXT})`;

/**
 * The pages' routes with an id in them: order, document reveal, erase, taking a work item of
 * either queue, resolving a reconcile_failed item, redelivering a failed delivery, seller switch.
 */

export const STAFF_PATHS = {
  order: new RegExp(`^/orders/${ID}$`),
  reveal: new RegExp(`^/orders/${ID}/documents/${ID}/reveal$`),
  erase: new RegExp(`^/orders/${ID}/documents/erase$`),
  resolve: new RegExp(`^/queues/reconcile-failed/${ID}/resolve$`),
  take: new RegExp(`^/queues/(reconcile-failed|failed-deliveries|unclear-clearances)/${ID}/take$`),
  redeliver: new RegExp(`^/queues/failed-deliveries/${ID}/redeliver$`),
  seller: new RegExp(`^/sellers/${ID}/(suspend|resume)$`),
  rotate: new RegExp(`^/sellers/${ID}/rotate-secret$`),
  scopes: new RegExp(`^/sellers/${ID}/scopes/(grant|revoke)$`),
  aggregator: new RegExp(`^/sellers/${ID}/agencies/(grant|revoke)$`),
  agency: new RegExp(`^/agencies/${ID}/(activate|deactivate)$`),
  // Servicing an order as the airline (api-servicing.ts): quote, then accept.
  servicing: new RegExp(`^/orders/${ID}/servicing/(options|cancel/quote|cancel|change/quote|change|add/quote|add|rename)$`),
  original: new RegExp(`^/orders/${ID}/signatures/(${SEQ_TEXT})/original$`),
} as const;

/** The unclear-clearances queue's actions and an agency's agreements (api-queues.ts, api-agreements.ts and their pages). */
export const AGREEMENT_PATHS = {
  clearance: new RegExp(`^/queues/unclear-clearances/${ID}/(clear|rerequest)$`),
  agreements: new RegExp(`^/agencies/${ID}/agreements$`),
  commission: new RegExp(`^/agencies/${ID}/commission$`),
  addKey: new RegExp(`^/agencies/${ID}/signing/keys$`),
  revokeKey: new RegExp(`^/agencies/${ID}/signing/keys/${ID}/revoke$`),
  policy: new RegExp(`^/agencies/${ID}/signing/policy$`),
  // Settlement accounts (settlement-accounts.ts).
  settlementAccounts: new RegExp(`^/agencies/${ID}/settlement-accounts$`),
  closeAccount: new RegExp(`^/agencies/${ID}/settlement-accounts/(${ACCOUNT_ID_TEXT})/close$`),
} as const;
