export { MESSAGES, ALL_SCOPES, messageByName, type MessageSpec, type Scope, type RateClass } from "./catalogue";
export type { SellerContext, HandlerInput, HandlerResult, MessageHandler } from "./handler";
export { refuseCardDataIn } from "./card-data";
export { CAPABILITIES, enabledCapabilities } from "./capabilities";
export * from "./shopping";
export * from "./orders";
