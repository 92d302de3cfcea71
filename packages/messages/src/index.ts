export { MESSAGES, PAYMENT_SCOPE, messageByName, type MessageSpec, type RateClass } from "./catalogue";
// The scopes are the seller registry's; handed on here for the readers of the catalogue.
export { ALL_SCOPES, type Scope } from "@ndc/auth";
export { contentScopes } from "./content-scopes";
export type { SellerContext, HandlerInput, HandlerResult, MessageHandler, AnswerOutcome, SignatureOutcome, SignatureEvidenceInput } from "./handler";
export { refuseCardDataIn } from "./card-data";
export { CAPABILITIES, liveCapabilities, type Capability } from "./capabilities";
export * from "./shopping";
export * from "./orders";
export * from "./clearance";
