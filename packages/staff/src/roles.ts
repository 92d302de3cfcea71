/** The airline's staff roles (issue 12), from least to most trusted for personal data. */
export const STAFF_ROLES = ["agent", "senior_agent", "supervisor", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (v: unknown): v is StaffRole => typeof v === "string" && (STAFF_ROLES as readonly string[]).includes(v);

/**
 * What each right needs, in one table (docs/staff-console.md, decision 0034). A reveal is a senior
 * agent's or a supervisor's (spec 2.4 rule 5): an admin runs the console, not the passengers'
 * files, so an admin reveals nothing. Erasure is a supervisor's (spec 8). The audit trail is read
 * by those who answer for it: supervisors and admins. Resolving a reconcile_failed item and
 * suspending a seller are below.
 */
export const RIGHTS = {
  "orders.read": ["agent", "senior_agent", "supervisor", "admin"],
  "pii.reveal": ["senior_agent", "supervisor"],
  "pii.erase": ["supervisor"],
  "audit.read": ["supervisor", "admin"],
  // The work queues (reconcile_failed items, spec 3; failed deliveries; unclear clearances): everyone sees them;
  // acting on one settles money (capture, void, a clearance cleared by hand) or tells a seller, so not an agent.
  "queue.read": ["agent", "senior_agent", "supervisor", "admin"],
  "queue.resolve": ["senior_agent", "supervisor", "admin"],
  // Sellers: suspension and a new secret take a seller off the air at once, so supervisors and admins only;
  // they also read an agency's commission and signing agreements.
  "sellers.read": ["supervisor", "admin"],
  "sellers.suspend": ["supervisor", "admin"],
  "sellers.rotate": ["supervisor", "admin"],
  // The dashboard's figures are aggregates with no personal data: every role sees how the gateway is doing.
  "dashboard.read": ["agent", "senior_agent", "supervisor", "admin"],
  // Servicing an order as the airline (SHPOR1 rule 4, decision 0035): anyone at the desk may price a
  // change for the customer (a quote changes nothing); accepting one moves money and may override
  // the fare, so it is a senior agent's or a supervisor's. An admin runs the console, not the orders.
  "orders.service.quote": ["agent", "senior_agent", "supervisor"],
  "orders.service": ["senior_agent", "supervisor"],
  // The signed original of an OrderCreateRQ carries the passengers' documents in clear: a
  // supervisor's, like erasure (decision 0035); the evidence's digests are on the order page for all.
  "signatures.original": ["supervisor"],
  // Changing what a seller may do or is owed (a new client, its scopes, an agency's commission agreement, its
  // signing keys and policy) is the registry's administration: admins only.
  "sellers.register": ["admin"],
  // The promotion criteria switch (spec 4.5 rule 4): what every seller is charged changes at once, so
  // an admin's, like the registry's administration; supervisors see how it stands.
  "promotions.read": ["supervisor", "admin"],
  "promotions.configure": ["admin"],
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffRight = keyof typeof RIGHTS;

export function may(role: StaffRole, right: StaffRight): boolean {
  return (RIGHTS[right] as readonly StaffRole[]).includes(role);
}
