export { decodeOrderListRQ } from "./decode";
export { encodeOrderListRS, orderListAugmentation } from "./encode";
export { ORDER_LIST_DEFAULT_PAGE_SIZE, ORDER_LIST_MAX_PAGE_SIZE, type OrderListRequest, type RangeFilter } from "./request";
export type { MatchedOrderView, OrderListView } from "./view";
export { orderListFilters, orderListViewOf } from "./view-of";
