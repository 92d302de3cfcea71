export { MESSAGES, ALL_SCOPES, messageByName, type MessageSpec, type Scope, type RateClass } from "./catalogue";
export type { SellerContext, HandlerInput, HandlerResult, MessageHandler } from "./handler";
export { CAPABILITIES, liveCapabilities, type Capability } from "./capabilities";
export * from "./shopping";
export * from "./orders";
