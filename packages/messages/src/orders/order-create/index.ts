export { decodeOrderCreateRQ } from "./decode";
export type { OrderCreateRequest } from "./request";
export { orderCreateInput } from "./input";
export { storedOutcome } from "./stored-outcome";
// The content languages of a decoded OrderCreateRQ: its preferences (spec 4.8 rule 1).
export { requestedLanguages } from "../../shopping/shared/request-common";
