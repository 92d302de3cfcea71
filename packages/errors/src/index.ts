export { CATALOGUE, entry, type CatalogueEntry, type ErrorCode, type ErrorKind } from "./catalogue";
export { GatewayError, isGatewayError, type ErrorFacts, type GatewayErrorOptions } from "./gateway-error";
