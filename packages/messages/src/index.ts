export { MESSAGES, ALL_SCOPES, messageByName, type MessageSpec, type Scope, type RateClass } from "./catalogue";
export type { SellerContext, HandlerInput, HandlerResult, MessageHandler, AnswerOutcome } from "./handler";
export { CAPABILITIES, enabledCapabilities } from "./capabilities";
export * from "./shopping";
export * from "./orders";
