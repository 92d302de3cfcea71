import { CATALOGUE, type ErrorCode } from "@ndc/errors";
import { c, cOpt, el, escapeText, isWrittenBytes, serialize, serializeBytes, shared, type Child, type XNode } from "./build";
import { NS } from "./namespaces";

/**
 * Response documents. Every one carries the simulated-supply flag (docs/simulated-supply.md):
 * in the NDC message family an AugmentationPoint holding <gw:SimulatedSupply>, in the
 * payment-clearance family PayloadStandardAttributes/EchoTokenText, and on IATA_Acknowledgement
 * Notification/WarningCode simulated_supply, the only slots those schemas leave us.
 */
export type ResponseFamily = "ndc" | "clearance";

export interface ResponseRoot {
  root: string;
  family: ResponseFamily;
  /** The root's schema requires DistributionChain (IATA_ServiceDeliveryRS). */
  chainRequired?: boolean;
}

export interface ResponseContext {
  correlationId?: string;
  trxId?: string;
  simulated: boolean;
  /** This airline's designator, for the Carrier link of a required DistributionChain. */
  carrier?: string;
}

export interface ErrorItem {
  code: ErrorCode;
  description: string;
  element?: string;
}

/** The Error element (ErrorType): Code, DescText, LangCode EN, TagText, TypeCode = catalogue kind. */
function errorNode(e: ErrorItem): XNode {
  return el(
    "Error",
    null,
    c("Code", e.code),
    c("DescText", e.description),
    c("LangCode", "EN"),
    cOpt("TagText", e.element),
    c("TypeCode", CATALOGUE[e.code].kind),
  );
}

/** A Warning (WarningType) for use inside a message's Response. Text composed by the gateway is English. */
export function warningNode(code: ErrorCode, detail?: string): XNode {
  const text = detail ? `${CATALOGUE[code].text} ${detail}` : CATALOGUE[code].text;
  return c("Warning", c("Code", code), c("DescText", text), c("LangCode", "EN"), c("TypeCode", CATALOGUE[code].kind));
}

export const SIMULATED_SUPPLY_NOTE = "Inventory, payment, settlement and operations are simulated.";

// The simulation flag is the same on every answer: built and written once per process.
const SIMULATED_SUPPLY = shared(el("gw:SimulatedSupply", { "xmlns:gw": NS.gateway, simulated: "true" }, SIMULATED_SUPPLY_NOTE));
const SIMULATION_FLAG = shared(el("AugmentationPoint", null, SIMULATED_SUPPLY));

/** The root's AugmentationPoint: the simulation flag and whatever the message adds (OrderListRS: gw:NextPage). */
function augmentationPoint(simulated: boolean, extra: readonly XNode[]): XNode | null {
  if (extra.length === 0) return simulated ? SIMULATION_FLAG : null;
  return el("AugmentationPoint", null, simulated ? SIMULATED_SUPPLY : null, ...extra);
}

function payloadAttributes(ctx: ResponseContext): XNode | null {
  // No timestamp: two answers to the same request differ only in the ids the caller chose.
  if (!ctx.correlationId && !ctx.trxId) return null;
  return el("PayloadAttributes", null, cOpt("CorrelationID", ctx.correlationId), cOpt("TrxID", ctx.trxId), c("VersionNumber", "24.4"));
}

/** The responding airline as the only link: what a response that must carry a chain can truthfully say. */
function carrierChain(ctx: ResponseContext): XNode {
  return el(
    "DistributionChain",
    null,
    c("DistributionChainLink", c("Ordinal", 1), c("OrgRole", "Carrier"), c("ParticipatingOrg", c("OrgID", ctx.carrier ?? "XB"))),
  );
}

function ndcTree(root: ResponseRoot, main: Child, ctx: ResponseContext, trailing: Child = null, augmentation: readonly XNode[] = []): XNode {
  return el(
    root.root,
    { xmlns: NS.message, "xmlns:cns": NS.common },
    main,
    augmentationPoint(ctx.simulated, augmentation),
    root.chainRequired ? carrierChain(ctx) : null,
    payloadAttributes(ctx),
    trailing,
  );
}

function ndcDocument(root: ResponseRoot, main: Child, ctx: ResponseContext, trailing: Child = null, augmentation: readonly XNode[] = []): string {
  return serialize(ndcTree(root, main, ctx, trailing, augmentation));
}

function clearanceDocument(root: string, main: Child, ctx: ResponseContext): string {
  const attrs =
    ctx.simulated || ctx.correlationId || ctx.trxId
      ? el(
          "PayloadStandardAttributes",
          null,
          cOpt("CorrelationID", ctx.correlationId),
          ctx.simulated ? c("EchoTokenText", "simulated-supply") : null,
          cOpt("TrxID", ctx.trxId),
        )
      : null;
  return serialize(el(root, { xmlns: NS.clearanceRS, "xmlns:cns": NS.clearanceCommon }, main, attrs));
}

/**
 * The paired response root holding one or more Error elements. The common answer, one Error in
 * an NDC root, is written as text straight away (errorText); the rest go through the tree.
 */
export function errorDocument(root: ResponseRoot, errors: ErrorItem[], ctx: ResponseContext): string {
  if (errors.length === 1 && root.family === "ndc") return errorText(root, errors[0]!, ctx);
  return errorTree(root, errors, ctx);
}

/** The tree form of errorDocument: the reference errorText is tested against, byte for byte. */
export function errorTree(root: ResponseRoot, errors: ErrorItem[], ctx: ResponseContext): string {
  const nodes = errors.map(errorNode);
  return root.family === "clearance" ? clearanceDocument(root.root, nodes, ctx) : ndcDocument(root, nodes, ctx);
}

// What a one-Error answer shares with every other, written once per process by the tree writer.
const DECLARATION = serialize(el("x")).slice(0, -"<x/>".length);
const SIMULATION_FLAG_TEXT = serialize(SIMULATION_FLAG).slice(DECLARATION.length);
const SIMULATED_SUPPLY_TEXT = serialize(SIMULATED_SUPPLY).slice(DECLARATION.length);

/** The opening tag of a pushed NDC notification (IATA_...NotifRQ in the 24.4 message namespace). */
const NDC_NOTIFICATION_ROOT = /<IATA_\w+NotifRQ\b[^>]*>/;

/**
 * A pushed notification flagged like the answers (docs/simulated-supply.md): an NDC 24.4
 * notification root gets <gw:SimulatedSupply> in its AugmentationPoint, which every 24.4
 * notification schema allows as the root's first child (its sequences are alphabetical). Any other
 * document (IATA_PaymentClearanceNotif already says it in EchoTokenText) and a body already
 * flagged are returned as they are. Pushes are built by several encoders and flagged in the one
 * place they are written (packages/notifications/src/outbox.ts).
 */
export function flagSimulatedNotification(xml: string): string {
  const open = NDC_NOTIFICATION_ROOT.exec(xml);
  if (!open || !open[0].includes(`xmlns="${NS.message}"`) || xml.includes("<gw:SimulatedSupply")) return xml;
  const at = open.index + open[0].length;
  const point = "<AugmentationPoint>";
  if (xml.startsWith(point, at)) return xml.slice(0, at + point.length) + SIMULATED_SUPPLY_TEXT + xml.slice(at + point.length);
  return xml.slice(0, at) + SIMULATION_FLAG_TEXT + xml.slice(at);
}
const openings = new Map<string, string>();

function opening(root: string): string {
  let text = openings.get(root);
  if (text === undefined) {
    text = serialize(el(root, { xmlns: NS.message, "xmlns:cns": NS.common }, "")).slice(0, -`</${root}>`.length);
    openings.set(root, text);
  }
  return text;
}

/**
 * One Error in an NDC root, as text: the refusal floor of every call (docs/decisions/0008),
 * where building and walking a tree of a dozen nodes cost more than the rest of the answer.
 * Byte-identical to errorTree (test/xml/error-text.test.ts); codes and kinds need no escaping.
 */
function errorText(root: ResponseRoot, e: ErrorItem, ctx: ResponseContext): string {
  let out =
    opening(root.root) +
    "<Error><cns:Code>" +
    e.code +
    "</cns:Code><cns:DescText>" +
    escapeText(e.description) +
    "</cns:DescText><cns:LangCode>EN</cns:LangCode>";
  if (e.element) out += "<cns:TagText>" + escapeText(e.element) + "</cns:TagText>";
  out += "<cns:TypeCode>" + CATALOGUE[e.code].kind + "</cns:TypeCode></Error>";
  if (ctx.simulated) out += SIMULATION_FLAG_TEXT;
  if (root.chainRequired) out += serialize(carrierChain(ctx)).slice(DECLARATION.length);
  if (ctx.correlationId || ctx.trxId) {
    out += "<PayloadAttributes>";
    if (ctx.correlationId) out += "<cns:CorrelationID>" + escapeText(ctx.correlationId) + "</cns:CorrelationID>";
    if (ctx.trxId) out += "<cns:TrxID>" + escapeText(ctx.trxId) + "</cns:TrxID>";
    out += "<cns:VersionNumber>24.4</cns:VersionNumber></PayloadAttributes>";
  }
  return out + "</" + root.root + ">";
}

/**
 * The paired response root holding a Response. `trailing` is what the root's schema puts after
 * PayloadAttributes (OrderViewRS: PaymentFunctions); `augmentation`, elements of the gateway's
 * namespace for the root's AugmentationPoint where 24.4 has no element (OrderListRS paging).
 */
export function responseDocument(root: ResponseRoot, response: XNode, ctx: ResponseContext, trailing: Child = null, augmentation: readonly XNode[] = []): string {
  return root.family === "clearance" ? clearanceDocument(root.root, response, ctx) : ndcDocument(root, response, ctx, trailing, augmentation);
}

/**
 * The same document as `responseDocument`, as the body to send: when the Response was written
 * straight to bytes (`writtenBytes`: AirShoppingRS, OfferPriceRS), the envelope is written around
 * those bytes as bytes, the same bytes as the text encoded (test/xml/response-bytes.test.ts).
 */
export function responseBody(root: ResponseRoot, response: XNode, ctx: ResponseContext, trailing: Child = null, augmentation: readonly XNode[] = []): string | Uint8Array<ArrayBuffer> {
  if (root.family === "ndc" && isWrittenBytes(response)) return serializeBytes(ndcTree(root, response, ctx, trailing, augmentation));
  return responseDocument(root, response, ctx, trailing, augmentation);
}

/**
 * IATA_Acknowledgement: used where no paired response exists (an unknown message name).
 * StatusCode is our wire code, StatusMessageText its English text.
 */
export function acknowledgementDocument(status: ErrorItem | { code: string; description: string }, ctx: ResponseContext): string {
  return serialize(
    el(
      "IATA_Acknowledgement",
      { xmlns: NS.message, "xmlns:cns": NS.common },
      el(
        "Notification",
        null,
        c("StatusCode", status.code),
        c("StatusMessageText", status.description),
        ctx.simulated ? c("WarningCode", "simulated_supply") : null,
      ),
      payloadAttributes(ctx),
    ),
  );
}
