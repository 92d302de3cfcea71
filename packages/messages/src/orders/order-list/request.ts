/** A closed or half-open range of instants or dates; each bound inclusive, as the seller wrote it. */
export interface RangeFilter {
  from?: string;
  to?: string;
}

/**
 * The decoded IATA_OrderListRQ. Only filters that name no person are served (dates, carrier,
 * status); the result is always limited to the caller's own orders. Paging and the status filter
 * have no 24.4 element, so they travel in AugmentationPoint (docs/messages/order-xml-shapes.md).
 */
export interface OrderListRequest {
  created?: RangeFilter;
  lastModified?: RangeFilter;
  /** Travel dates (YYYY-MM-DD): orders with a flight departing within the range. */
  travelDates?: RangeFilter;
  carrier?: string;
  statusCodes: string[];
  /** `after`: the cursor the previous page's gw:NextPage gave (keyset paging); absent: the first page. */
  page: { size: number; after?: string };
}

export const ORDER_LIST_DEFAULT_PAGE_SIZE = 20;
export const ORDER_LIST_MAX_PAGE_SIZE = 100;
