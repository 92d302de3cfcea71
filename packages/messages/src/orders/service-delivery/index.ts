export { decodeServiceDeliveryRQ, type ServiceDeliveryRequest } from "./decode";
export { encodeServiceDeliveryRS } from "./encode";
export { serviceDeliveryViewOf } from "./view-of";
export type { ServiceDeliveryView } from "./view";
