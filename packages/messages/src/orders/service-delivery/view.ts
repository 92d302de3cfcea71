import type { OrderItemView } from "../shared/view/order";

/** IATA_ServiceDeliveryRS's Response: the order and, per item, each service's delivery state. */
export interface ServiceDeliveryView {
  orderId: string;
  ownerCode: string;
  items: (OrderItemView & { provider: { id: string; name: string } })[];
}
