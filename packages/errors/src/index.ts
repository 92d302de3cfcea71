export { CATALOGUE, entry, type CatalogueEntry, type ErrorCode, type ErrorKind } from "./catalogue";
export { GatewayError, isGatewayError } from "./gateway-error";
