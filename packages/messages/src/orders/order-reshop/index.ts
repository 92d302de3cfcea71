export { decodeOrderReshopRQ } from "./decode";
export { encodeOrderReshopRS, type OrderReshopView } from "./encode";
export type { OrderReshopRequest, ReshopForm } from "./request";
