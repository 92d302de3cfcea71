import type { OrderState } from "@ndc/orders";

/**
 * The order's state as OrderViewRS/OrderListRS/OrderHistoryRS StatusCode. One table so every
 * order message (OrderCreate, OrderRetrieve, OrderChange, OrderList, OrderHistory) names a state
 * the same way; ORDWPM is the capability code a held unpaid order is known by (spec 1).
 */
export const ORDER_STATUS_CODES: Readonly<Record<OrderState, string>> = {
  held_unpaid: "ORDWPM",
  held_payment_declined: "PAYMENT_DECLINED",
  booked: "BOOKED",
  cancelled: "CANCELLED",
  closed: "CLOSED",
};
