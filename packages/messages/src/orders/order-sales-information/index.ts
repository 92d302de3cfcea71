export { encodeOrderSalesInformationNotifRQ } from "./encode";
export { orderSalesInformationOf, internalValues, type OrderSalesInformationView, type AccountedItemView, type AccountedServiceView } from "./view-of";
export { orderServiceStatusOf } from "./service-status-of";
