export { decodeOrderCreateRQ } from "./decode";
export type { OrderCreateRequest } from "./request";
export { orderCreateInput } from "./input";
export { storedOutcome } from "./stored-outcome";
