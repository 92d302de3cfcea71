import type { ProcessingView, WarningView } from "../../shopping/shared/view/common";

/** One order of a list (MatchedOrder): its id, state, creation and first flight. No passengers. */
export interface MatchedOrderView {
  orderId: string;
  statusCode: string;
  createdAt?: string;
  departure?: { station: string; date: string };
  arrival?: { station: string; date: string };
}

/** The view model of IATA_OrderListRS: one page of the caller's own orders. */
export interface OrderListView {
  orders: MatchedOrderView[];
  /** Rendered as an English Warning (order_list_page) so a seller knows whether to ask for more. */
  page: { number: number; size: number; totalOrders: number };
  processing?: ProcessingView;
  warnings: WarningView[];
}
