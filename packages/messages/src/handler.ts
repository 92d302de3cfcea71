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
  /** What the pipeline did with the request's Signature (docs/signatures.md); absent: nothing to say. */
  signature?: SignatureOutcome;
}

/**
 * A verified signature (the envelope was then decoded from the signed canonical bytes, and the
 * handler keeps `evidence` with the order), or one ignored under policy none (a Warning says so).
 */
export type SignatureOutcome = { status: "verified"; evidence: SignatureEvidenceInput } | { status: "not_checked" };

/** What non-repudiation keeps of a verified request (issue 11 item 3). */
export interface SignatureEvidenceInput {
  message: string;
  form: string;
  agencyId: string;
  clientId: string;
  fingerprint: string;
  signatureMethod: string;
  canonicalization: string;
  referenceUri: string;
  /** The request body exactly as received (after any gzip), which holds identity documents. */
  original: string;
  verifiedAt: number;
}

/**
 * What the request's log line says of an answer that is not an Error the pipeline raised: a
 * refusal answered as a document (OrderCreate stores its refusals), or a declined payment that
 * still answers 200 with the order held (the PSP's reason, docs/payments.md).
 */
export interface AnswerOutcome {
  errorCode?: string;
  declineReason?: string;
}

/** What a handler returns: the Response element, optional trailing root content, and the HTTP status. */
export type HandlerResult = (
  | {
      response: XNode;
      trailing?: Child;
      /** Gateway-namespace elements for the root's AugmentationPoint (OrderListRS: gw:NextPage). */
      augmentation?: XNode[];
      status?: number;
      /**
       * Settles once what the Response names is durable (the offers of AirShoppingRS and
       * OfferPriceRS, saved while the answer is written): the pipeline writes the document, then
       * waits for it before sending; if it fails, the answer is the error, never the Response.
       */
      durable?: Promise<void>;
    }
  | {
      /**
       * A whole document already serialised: an idempotent replay answers the first answer's
       * exact bytes (OrderCreate, DESIGN 5), so the pipeline must not rebuild it.
       */
      document: string;
      status: number;
    }
) & { outcome?: AnswerOutcome };

/** A message handler is small: decode, call the domain, encode (DESIGN 3). Failures throw GatewayError. */
export type MessageHandler = (input: HandlerInput) => Promise<HandlerResult> | HandlerResult;
