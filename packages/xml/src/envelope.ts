import { GatewayError } from "@ndc/errors";
import { NS } from "./namespaces";
import { checkText } from "./text-limits";
import { all, child, textAt, type XmlElement } from "./tree";

/** DistributionChainLink (spec 2.2): Ordinal, OrgRole (Carrier, Seller, Distributor), ParticipatingOrg/OrgID. */
export interface ChainLink {
  ordinal: number;
  role: string;
  orgId: string;
  name?: string;
}

export interface PayloadAttributes {
  correlationId?: string;
  trxId?: string;
  primaryLangId?: string;
  altLangId?: string;
}

/** The decoded top level of a request message (spec 2.2). Message content stays as elements for its handler. */
export interface Envelope {
  root: XmlElement;
  distributionChain?: ChainLink[];
  payload: PayloadAttributes;
  pos?: XmlElement;
  request?: XmlElement;
  signature?: XmlElement;
  augmentationPoint?: XmlElement;
}

/** Correlation ids are echoed in responses and logged: short printable tokens (TEXT_LIMITS). */
function id(pa: XmlElement, name: string): string | undefined {
  const v = textAt(pa, name);
  return v === undefined ? undefined : checkText(name, v, `${pa.name}/${name}`);
}

function links(chain: XmlElement): ChainLink[] {
  return all(chain, "DistributionChainLink").map((l, i) => {
    const ordinalText = textAt(l, "Ordinal");
    const role = textAt(l, "OrgRole");
    const orgId = textAt(l, "ParticipatingOrg/OrgID");
    const where = `DistributionChain/DistributionChainLink[${i + 1}]`;
    if (!ordinalText || !/^\d+$/.test(ordinalText)) {
      throw new GatewayError("distribution_chain_invalid", { detail: "Each link needs an integer Ordinal.", element: `${where}/Ordinal` });
    }
    if (!role || !["Carrier", "Seller", "Distributor"].includes(role)) {
      throw new GatewayError("distribution_chain_invalid", { detail: "OrgRole must be Carrier, Seller or Distributor.", element: `${where}/OrgRole` });
    }
    if (!orgId) {
      throw new GatewayError("distribution_chain_invalid", { detail: "Each link needs ParticipatingOrg/OrgID.", element: `${where}/ParticipatingOrg/OrgID` });
    }
    const name = textAt(l, "ParticipatingOrg/Name");
    checkText("OrgID", orgId, `${where}/ParticipatingOrg/OrgID`);
    if (name !== undefined) checkText("Name", name, `${where}/ParticipatingOrg/Name`);
    return { ordinal: Number(ordinalText), role, orgId, name };
  });
}

/**
 * Decodes the envelope common to every request. `rootNs` is the namespace the root must be in
 * (the NDC message namespace, or the clearance one for PaymentClearanceRQ).
 */
export function decodeEnvelope(root: XmlElement): Envelope {
  const chain = child(root, "DistributionChain");
  const pa = child(root, "PayloadAttributes") ?? child(root, "PayloadStandardAttributes");
  return {
    root,
    distributionChain: chain ? links(chain) : undefined,
    payload: {
      correlationId: pa ? id(pa, "CorrelationID") : undefined,
      trxId: pa ? id(pa, "TrxID") : undefined,
      primaryLangId: pa ? id(pa, "PrimaryLangID") : undefined,
      altLangId: pa ? id(pa, "AltLangID") : undefined,
    },
    pos: child(root, "POS"),
    request: child(root, "Request"),
    signature: root.children.find((c) => c.name === "Signature" && (c.ns === NS.dsig || c.ns === NS.message)),
    augmentationPoint: child(root, "AugmentationPoint"),
  };
}
