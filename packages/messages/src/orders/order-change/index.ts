export { decodeOrderChangeRQ } from "./decode";
export { addInput } from "./add-input";
export type { OrderChange, OrderChangeRequest } from "./request";
