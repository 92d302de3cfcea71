import { GatewayError } from "@ndc/errors";

/**
 * The limits of every string the gateway reads from a request and may keep (a name, a contact,
 * an id), by element name, from its 24.4 type in IATA_OffersAndOrdersCommonTypes.xsd. Checked
 * when the value is read (the decoders' cursors, the envelope), so nothing stored can later make
 * an emitted message invalid or oversized. docs/messages/request-limits.md lists this table.
 *
 * `xsd: true`: the limit is the schema's own (ProperNameType maxLength 64...). Otherwise the
 * 24.4 type is unbounded (TextType, ID_Type, CodeType are plain xs:string/xs:token) and the
 * limit is the gateway's, chosen from the standard the value follows (RFC 5321 for e-mail,
 * E.164 for phones, IATA/ICAO codes). Identity documents are not here: @ndc/pii validates them
 * with their own rules and codes (spec 2.4).
 */
export interface TextLimit {
  /** The element's 24.4 type. */
  type: string;
  /** In characters (code points), as XSD counts them. */
  maxLength: number;
  /** The whole value must match; `shape` says in English what it is. */
  pattern?: RegExp;
  shape?: string;
  /** How often the element may repeat where it is read (IndividualType: GivenName 5, MiddleName 3). */
  maxOccurs?: number;
  /** True when the limit is the schema's own facet; false: the gateway's, for an unbounded type. */
  xsd: boolean;
}

const properName: TextLimit = { type: "ProperNameType", maxLength: 64, xsd: true };
const supplementName: TextLimit = { type: "SupplementNameType", maxLength: 16, xsd: true };
// Identifiers a seller chooses (PaxID, ContactInfoID...): short tokens, as CorrelationID.
const sellerId: TextLimit = { type: "ID_Type", maxLength: 64, xsd: false };
// References to identifiers the gateway issued; some embed a seller's PaxID (a flight ServiceID).
const issuedRef: TextLimit = { type: "ID_Type", maxLength: 128, xsd: false };
// Logged and echoed on every answer: printable ASCII without spaces, nothing else.
const envelopeId: TextLimit = { type: "ID_Type", maxLength: 64, pattern: /^[\x21-\x7E]+$/, shape: "printable ASCII characters without spaces", xsd: false };
const airline: TextLimit = { type: "AirlineDesigCodeType", maxLength: 3, pattern: /^(?:[A-Z0-9]{2}|[A-Z]{3})$/, shape: "a 2-character IATA or 3-letter ICAO airline code", xsd: false };
const country: TextLimit = { type: "CountryCodeType", maxLength: 2, pattern: /^[A-Z]{2}$/, shape: "an ISO 3166-1 alpha-2 country code", xsd: false };
const code: TextLimit = { type: "CodeType", maxLength: 32, pattern: /^[\x21-\x7E]+$/, shape: "printable ASCII characters without spaces", xsd: false };
const phonePart: TextLimit = { type: "TextType", maxLength: 20, pattern: /^[0-9][0-9 ()./-]*$/, shape: "digits, optionally grouped with spaces, dots, dashes, slashes or brackets", xsd: false };

export const TEXT_LIMITS: Readonly<Record<string, TextLimit>> = {
  // Individual (PaxType, ContactInfoType)
  GivenName: { ...properName, maxOccurs: 5 },
  MiddleName: { ...properName, maxOccurs: 3 },
  Surname: properName,
  TitleName: supplementName,
  SuffixName: supplementName,
  GenderCode: { type: "GenderCodeType", maxLength: 1, pattern: /^[FMUX]$/, shape: "F, M, U or X", xsd: true },
  CitizenshipCountryCode: country,
  ResidenceCountryCode: country,
  CountryCode: country,
  // Contacts: RFC 5321 caps an address at 254 characters; E.164 numbers have at most 15 digits.
  EmailAddressText: { type: "TextType", maxLength: 254, pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, shape: "an e-mail address (local@domain.tld)", xsd: false },
  CountryDialingCode: { type: "CountryDialingCodeType", maxLength: 4, pattern: /^\+?[0-9]{1,3}$/, shape: "a country calling code of 1 to 3 digits, optionally after +", xsd: false },
  AreaCodeNumber: phonePart,
  PhoneNumber: { ...phonePart, maxLength: 32, pattern: /^\+?[0-9][0-9 ()./-]*$/, shape: "a phone number: digits, optionally after + and grouped with spaces, dots, dashes, slashes or brackets" },
  // LoyaltyProgramAccount
  AccountNumber: code,
  TierCode: code,
  ProgramCode: code,
  AirlineDesigCode: airline,
  OwnerCode: airline,
  CarrierDesigCode: airline,
  // Identifiers the seller chooses
  PaxID: sellerId,
  PaxRefID: sellerId,
  ContactInfoID: sellerId,
  ContactInfoRefID: sellerId,
  OriginDestID: sellerId,
  OrgID: sellerId,
  // Payment references: PSP tokens, voucher codes and certificates are short tokens
  TokenizedCardID: sellerId,
  VoucherID: sellerId,
  IATA_Number: sellerId,
  CertificateNumber: sellerId,
  // References to what the gateway issued
  OfferRefID: issuedRef,
  OfferItemRefID: issuedRef,
  OfferID: issuedRef,
  OrderID: issuedRef,
  OrderRefID: issuedRef,
  OrderItemRefID: issuedRef,
  ServiceID: issuedRef,
  SelectedServiceRefID: issuedRef,
  SelectedServiceDefinitionRefID: issuedRef,
  PaxSegmentRefID: issuedRef,
  PaxSegmentID: issuedRef,
  PaxJourneyRefID: issuedRef,
  PaxJourneyID: issuedRef,
  DatedOperatingLegRefID: issuedRef,
  DatedMarketingSegmentRefId: issuedRef,
  DatedMarketingSegmentId: issuedRef,
  OriginDestRefID: issuedRef,
  SeatProfileRefID: issuedRef,
  BaggageAllowanceRefID: issuedRef,
  // Envelope (PayloadAttributes, DistributionChain, POS)
  CorrelationID: envelopeId,
  TrxID: envelopeId,
  PrimaryLangID: envelopeId,
  AltLangID: envelopeId,
  Name: { type: "NameType", maxLength: 128, xsd: false },
  AgentDutyText: { type: "TextType", maxLength: 64, xsd: false },
  IATA_LocationCode: { type: "IATA_LocationCodeType", maxLength: 3, pattern: /^\S{3}$/, shape: "a 3-character IATA location code", xsd: true },
  RequestTime: {
    type: "DateTimeType",
    maxLength: 35,
    pattern: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/,
    shape: "an xs:dateTime such as 2026-11-21T09:00:00Z",
    xsd: true,
  },
  // Free text the gateway may keep with an item
  DescText: { type: "TextType", maxLength: 256, xsd: false },
  // Payment clearance 2022.1 (IATA_PaymentClearanceCommonTypes.xsd; PaymentClearanceRQ)
  ClearanceID: { type: "ClearanceID_Type", maxLength: 15, pattern: /^[0-9]{7}[A-Za-z0-9]{8}$/, shape: "7 digits then 8 letters or digits", xsd: true },
  ProcessRuleCode: { type: "ClearanceProcessRuleCodeType", maxLength: 7, pattern: /^(?:IATAC|BLTRL)[A-Za-z0-9]{2}$/, shape: "IATAC or BLTRL and 2 letters or digits", xsd: true },
  PaymentBrandCode: { type: "CreditCardVendorCodeType", maxLength: 2, pattern: /^[0-9a-zA-Z]{1,2}$/, shape: "1 or 2 letters or digits", xsd: true },
  AirlineAccountingCode: { type: "CodeType", maxLength: 3, pattern: /^[0-9]{3}$/, shape: "a 3-digit airline accounting code", xsd: false },
  AgreementID: { type: "ID_Type", maxLength: 35, xsd: true },
  CommitmentID: { type: "ID_Type", maxLength: 35, xsd: true },
  ClearancePayeeReconciliationID: { type: "AirlineRefID_Type", maxLength: 15, pattern: /^[A-Za-z0-9]{1,15}$/, shape: "1 to 15 letters or digits", xsd: true },
  ClearancePayerReconciliationID: { type: "AirlineRefID_Type", maxLength: 15, pattern: /^[A-Za-z0-9]{1,15}$/, shape: "1 to 15 letters or digits", xsd: true },
  PaymentCommitmentDateTime: {
    type: "DateTimeType",
    maxLength: 35,
    pattern: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/,
    shape: "an xs:dateTime such as 2026-11-21T09:00:00Z",
    xsd: true,
  },
  RemittanceDate: { type: "DateType", maxLength: 10, pattern: /^\d{4}-\d{2}-\d{2}$/, shape: "an xs:date such as 2026-11-21", xsd: true },
};

/** Characters as XSD counts them (code points); `length` only when it cannot exceed the limit. */
function characters(value: string, max: number): number {
  return value.length <= max ? value.length : [...value].length;
}

/**
 * Checks one trimmed value read from `element` (its local name is the last step of `path`)
 * against TEXT_LIMITS; names not in the table pass. Throws request_invalid naming the element;
 * the value itself is never echoed (it may be a name or an e-mail address).
 */
export function checkText(name: string, value: string, path: string): string {
  const limit = TEXT_LIMITS[name];
  if (!limit) return value;
  const length = characters(value, limit.maxLength);
  if (length > limit.maxLength) {
    throw new GatewayError("request_invalid", {
      detail: `${name} is at most ${limit.maxLength} characters (24.4 ${limit.type}${limit.xsd ? "" : ", gateway limit"}); ${length} were sent.`,
      element: path,
    });
  }
  if (limit.pattern && !limit.pattern.test(value)) {
    throw new GatewayError("request_invalid", { detail: `${name} must be ${limit.shape} (24.4 ${limit.type}).`, element: path });
  }
  return value;
}

/** Refuses the repeat past the table's maxOccurs; `paths` are the repeats' paths, in order. */
export function checkOccurs(name: string, paths: readonly string[]): void {
  const max = TEXT_LIMITS[name]?.maxOccurs;
  if (max !== undefined && paths.length > max) {
    throw new GatewayError("request_invalid", { detail: `${name} may be repeated at most ${max} times (24.4 maxOccurs).`, element: paths[max]! });
  }
}
