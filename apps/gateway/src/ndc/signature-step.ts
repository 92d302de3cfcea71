import type { Seller } from "@ndc/auth";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { SignatureOutcome } from "@ndc/messages";
import { signingKeysOf, verifySignedMessage } from "@ndc/signatures";
import type { Store } from "@ndc/store";
import type { Envelope } from "@ndc/xml";

/** The messages whose 24.4 root carries a Signature (docs/signatures.md); policy required demands it of OrderCreateRQ only. */
const VERIFIED: ReadonlySet<string> = new Set(["OrderCreateRQ", "OrderChangeRQ"]);

export interface SignatureCheck {
  outcome?: SignatureOutcome;
  /** Verified: the canonical bytes the digest covered; the pipeline decodes these instead of the body. */
  canonical?: string;
}

/** Undefined when there is nothing to do (the usual call): the pipeline then awaits nothing. */
export type SignatureStep = (message: string, seller: Seller, envelope: Envelope, body: string) => Promise<SignatureCheck> | undefined;

/**
 * The agency's policy applied to a request's Signature, before the handler reads or reserves
 * anything (issue 11 item 2). Policy none and no Signature (the usual call) costs nothing: the
 * policy comes with the cached registry row and no key is read.
 */
export function signatureStep(deps: { store: Store; clock: Clock }): SignatureStep {
  return (message, seller, envelope, body) => {
    if (!VERIFIED.has(message)) return undefined;
    const policy = seller.signing?.policy ?? "none";
    // A SignedInfo anywhere counts as signed: a signature moved out of its place is refused by
    // the verifier, never read as an unsigned request (a substring test: no tree walk per call).
    const signed = envelope.signature !== undefined || body.includes("SignedInfo");
    if (!signed && (policy !== "required" || message !== "OrderCreateRQ")) return undefined;
    return check(deps, message, seller, policy, signed, body);
  };
}

async function check(deps: { store: Store; clock: Clock }, message: string, seller: Seller, policy: string, signed: boolean, body: string): Promise<SignatureCheck> {
  if (policy === "none") return { outcome: { status: "not_checked" } };
  if (!signed) throw new GatewayError("signature_required", { detail: `Agency ${seller.agencyId} signs its orders: add an enveloped Signature (docs/signatures.md).`, element: "Signature" });
  const keys = await signingKeysOf(deps.store.db, seller.agencyId);
  const verifiedAt = deps.clock.now();
  const v = verifySignedMessage(body, keys, verifiedAt);
  if (!v.ok) throw new GatewayError(v.code, { detail: v.reason, element: "Signature" });
  return {
    canonical: v.canonical,
    outcome: {
      status: "verified",
      evidence: {
        message,
        form: v.form,
        agencyId: seller.agencyId,
        clientId: seller.clientId,
        fingerprint: v.fingerprint,
        signatureMethod: v.signatureMethod,
        canonicalization: v.canonicalization,
        referenceUri: v.referenceUri,
        original: body,
        verifiedAt,
      },
    },
  };
}
