import type { Envelope, XNode, Child } from "@ndc/xml";
import type { MessageSpec } from "./catalogue";

/** Who is calling, after authentication and the DistributionChain checks. */
export interface SellerContext {
  clientId: string;
  /** The agency the caller sells as for this message (its own, or one granted to an aggregator). */
  agencyId: string;
  iataNumber: string;
  scopes: ReadonlySet<string>;
}

export interface HandlerInput {
  spec: MessageSpec;
  envelope: Envelope;
  seller: SellerContext;
}

/** What a handler returns: the Response element, optional trailing root content, and the HTTP status. */
export type HandlerResult =
  | {
      response: XNode;
      trailing?: Child;
      status?: number;
    }
  | {
      /**
       * A whole document already serialised: an idempotent replay answers the first answer's
       * exact bytes (OrderCreate, DESIGN 5), so the pipeline must not rebuild it.
       */
      document: string;
      status: number;
    };

/** A message handler is small: decode, call the domain, encode (DESIGN 3). Failures throw GatewayError. */
export type MessageHandler = (input: HandlerInput) => Promise<HandlerResult> | HandlerResult;
