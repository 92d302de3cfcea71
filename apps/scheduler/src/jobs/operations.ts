import type { ScheduledJob } from "../job";

/**
 * The operations jobs (issue 10; docs/scheduler.md): the simulated operations feed, the delivery
 * of flights that departed, and the partner read-back. Each changes orders through the actors of
 * the process that runs it (the scheduler app, or a worker whose sandbox control runs it by name):
 * every change goes through the order's actor, its notification written in the same transaction. Delivery and the
 * read-back judge each order at its owner's business time (its seller's sandbox clock,
 * docs/sandbox-controls.md), not the scheduler's clock, so what is due agrees with what the
 * orders' views show.
 */
export const operationsFeed: ScheduledJob = {
  name: "operations.feed",
  schedule: "0 * * * * *",
  description: "the simulated operations feed: retime or cancel flights (OPERATIONS_FEED_PER_MILLE, from the supply seed) and change the orders on them",
  async run({ orders, config }) {
    // Off in production: the setting is read as 0 there (packages/config).
    return orders.operationsFeed(config.operationsFeedPerMille, config.shopping.supplySeed);
  },
};

export const deliveryFlown: ScheduledJob = {
  name: "delivery.flown",
  schedule: "15 * * * * *",
  description: "record departed flights on their booked orders: their seats sold for nothing and other ticketless services delivered",
  async run({ orders }) {
    return orders.deliverFlown();
  },
};

export const partnersReadBack: ScheduledJob = {
  name: "partners.read-back",
  schedule: (config) => `45 */${config.partnerReadbackMinutes} * * * *`,
  description: "read the simulated partners back: partner products they fulfilled are delivered",
  async run({ orders }) {
    return orders.partnerReadBack();
  },
};
