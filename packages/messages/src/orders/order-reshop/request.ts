/**
 * What an OrderReshopRQ asks for, by request form (Request/UpdateOrder is a choice of two).
 * One decoder file per form read; forms not read here are named so the handler refuses them
 * clearly instead of answering something else.
 */
export type OrderReshopRequest =
  /** UpdateOrder/CancelOrderRef: a quote to cancel the whole order (24.4 names no items here). */
  | { form: "cancelOrder"; orderId: string }
  /** UpdateOrder/ReshopOrder: reshop items of the order (ServiceOrder, flights): not read here. */
  | { form: "reshopOrder"; orderId: string; deletesItems: boolean };
