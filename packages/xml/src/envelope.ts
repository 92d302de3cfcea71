import { GatewayError } from "@ndc/errors";
import { NS } from "./namespaces";
import { checkText } from "./text-limits";
import { rootFormOf, type RootForm } from "./root-forms";
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
  /**
   * The element that carries the message content: `Request` for most messages, `Payload` for
   * OrderQuoteRQ (its own XSD's name, root-forms.ts). Named `request` because handlers read it as such.
   */
  request?: XmlElement;
  /** The root's form (root-forms.ts); undefined for a root the gateway has no form for. */
  form?: RootForm;
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
 * Decodes the envelope common to every request. The root's children are read by the root's own
 * XSD form (root-forms.ts): a child the form does not name, a child out of the XSD's order or
 * repeated where the XSD allows one is refused with request_invalid naming it. Required children
 * are checked by `requireRootParts`, after this, so a decoder test can read a partial document.
 */
export function decodeEnvelope(root: XmlElement): Envelope {
  const form = rootFormOf(root.name);
  if (form) checkOrder(root, form);
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
    request: child(root, form?.content ?? "Request"),
    form,
    signature: root.children.find((c) => c.name === "Signature" && (c.ns === NS.dsig || c.ns === NS.message)),
    augmentationPoint: child(root, "AugmentationPoint"),
  };
}

function checkOrder(root: XmlElement, form: RootForm): void {
  let last = -1;
  for (const c of root.children) {
    const at = form.children.findIndex((f) => f.name === c.name && (c.ns === NS.message || c.ns === NS.clearanceRQ || (f.dsig === true && c.ns === NS.dsig)));
    const name = c.name.slice(0, 64);
    if (at < 0) {
      throw new GatewayError("request_invalid", {
        detail: `${root.name} has no child ${name} in 24.4; it holds ${form.children.map((f) => f.name).join(", ")}, in that order.`,
        element: name,
      });
    }
    if (at < last || (at === last && !form.children[at]!.repeats)) {
      throw new GatewayError("request_invalid", {
        detail: `${name} is out of place: ${root.name} holds ${form.children.map((f) => f.name).join(", ")}, in that order, each once.`,
        element: name,
      });
    }
    last = at;
  }
}

/**
 * The children the root's XSD requires (spec 2.2: DistributionChain and the content element).
 * A missing or empty chain is distribution_chain_invalid; any other missing child request_invalid.
 */
export function requireRootParts(env: Envelope): void {
  const required = env.form?.children.filter((c) => c.required).map((c) => c.name) ?? ["DistributionChain", "Request"];
  for (const name of required) {
    if (name === "DistributionChain") {
      if (!env.distributionChain || env.distributionChain.length === 0) {
        throw new GatewayError("distribution_chain_invalid", { detail: "DistributionChain is required.", element: "DistributionChain" });
      }
    } else if (!child(env.root, name)) {
      throw new GatewayError("request_invalid", { detail: `The ${name} element is required.`, element: name });
    }
  }
}
