export { MESSAGES, ALL_SCOPES, PAYMENT_SCOPE, messageByName, type MessageSpec, type Scope, type RateClass } from "./catalogue";
export { contentScopes } from "./content-scopes";
export type { SellerContext, HandlerInput, HandlerResult, MessageHandler, AnswerOutcome, SignatureOutcome, SignatureEvidenceInput } from "./handler";
export { refuseCardDataIn } from "./card-data";
export { CAPABILITIES, liveCapabilities, type Capability } from "./capabilities";
export * from "./shopping";
export * from "./orders";
export * from "./clearance";
