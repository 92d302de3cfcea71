export { NS, NDC_CONTENT_NAMESPACES } from "./namespaces";
export { type XmlElement, child, children, at, all, textAt } from "./tree";
export { parseXml, refuseDeclarations, type ParseLimits } from "./parse";
export { el, c, cOpt, shared, prewritten, writtenNode, writtenText, writtenBytes, isWrittenBytes, serialize, serializeBytes, escapeText, escapeAttr, type XNode, type Child } from "./build";
export { TEXT_LIMITS, checkText, checkOccurs, type TextLimit } from "./text-limits";
export { decodeEnvelope, requireRootParts, type Envelope, type ChainLink, type PayloadAttributes } from "./envelope";
export { ROOT_FORMS, rootFormOf, type RootForm, type RootChild } from "./root-forms";
export {
  errorDocument,
  responseDocument,
  responseBody,
  acknowledgementDocument,
  warningNode,
  flagSimulatedNotification,
  SIMULATED_SUPPLY_NOTE,
  type ResponseRoot,
  type ResponseContext,
  type ErrorItem,
  type ResponseFamily,
} from "./responses";
export { ByteWriter, fragmentBytes, writeKept, type KeptBytes } from "./byte-writer";
