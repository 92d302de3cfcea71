export { decodeServiceDeliveryRQ, type ServiceDeliveryRequest } from "./decode";
export { encodeServiceDeliveryRS, encodeDeliveredOrder } from "./encode";
export { serviceDeliveryViewOf } from "./view-of";
export type { ServiceDeliveryView } from "./view";
