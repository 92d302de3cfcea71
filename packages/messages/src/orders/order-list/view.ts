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
  /**
   * `next`: the cursor of the following page, absent on the last. Rendered as gw:NextPage in the
   * root's AugmentationPoint (24.4 has no paging element) and stated in an English Warning
   * (order_list_page) so a reader knows whether more follow.
   */
  page: { size: number; next?: string };
  processing?: ProcessingView;
  warnings: WarningView[];
}
