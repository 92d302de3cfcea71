export { decodeOrderChangeRQ } from "./decode";
export type { OrderChange, OrderChangeRequest } from "./request";
