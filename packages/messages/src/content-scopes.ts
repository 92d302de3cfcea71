import { child, type Envelope } from "@ndc/xml";
import type { Scope } from "@ndc/auth";
import { mayCarryPayment, PAYMENT_SCOPE, type MessageSpec } from "./catalogue";

/**
 * Scopes a message needs for what it carries, on top of its own (spec 4.3, 5.5): an OrderCreateRQ
 * or OrderChangeRQ with PaymentFunctions pays, so it needs ndc:payment. Read from the envelope,
 * before any decoding or domain call, so a refusal has reserved nothing.
 */
export function contentScopes(spec: MessageSpec, envelope: Envelope): Scope[] {
  if (mayCarryPayment(spec) && child(envelope.request, "PaymentFunctions")) return [PAYMENT_SCOPE];
  return [];
}
