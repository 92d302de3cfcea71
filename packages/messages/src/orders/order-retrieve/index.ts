export { decodeOrderRetrieveRQ, type OrderRetrieveRequest } from "./decode";
