import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TEXT_LIMITS } from "@ndc/xml";
import { errorCode, type TestGateway } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { MSG_NS, CNS_NS } from "../support/requests";
import { airShoppingRQ, all, blocks } from "../shopping/shop-requests";
import { decimal, gateway, orderIdOf, orderRetrieveRQ, TRAVEL_DATE } from "./helpers";

/**
 * Every text of an OrderCreateRQ is checked against its 24.4 type as it is read (@ndc/xml
 * TEXT_LIMITS; identity documents by @ndc/pii): one request with every field the gateway reads at
 * the most its type allows is booked, and its OrderViewRS (create and retrieve) validates against
 * IATA's XSD; the same request with any one field one past its limit is refused naming it.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const max = (name: string) => TEXT_LIMITS[name]!.maxLength;
/** `n` characters starting with `tag` (letters only, so no digit run can look like a card number). */
const fill = (tag: string, n: number) => (tag + "X".repeat(n)).slice(0, n);
const PAX_ID = fill("PAXLONG", max("PaxID"));
const CONTACT_ID = fill("CILONG", max("ContactInfoID"));
const EMAIL_DOMAIN = "@example.test";
const email = (n: number) => fill("mailbox", n - EMAIL_DOMAIN.length) + EMAIL_DOMAIN;
const digits = (n: number) => "0".repeat(n); // zero-led: never a card number

/** A field of the request: its value at the limit, a value one past it, and the refusal expected. */
interface Field {
  at: string;
  over: string;
  element: string;
  code?: string;
}

const PAX = "Request/DataLists/PaxList/Pax[1]";
const IND = `${PAX}/Individual`;
const CONTACT = "Request/DataLists/ContactInfoList/ContactInfo[1]";
const SELECTED = "Request/CreateOrder/AcceptSelectedQuotedOfferList/SelectedPricedOffer[1]";
const PAY = "Request/PaymentFunctions[1]/PaymentProcessingDetails";
const LINK = "DistributionChain/DistributionChainLink[1]";
const over = (name: string, tag: string) => fill(tag, max(name) + 1);

function fields(offerId: string, itemId: string, totalMinor: number): Record<string, Field> {
  const f: Record<string, Field> = {
    Ordinal: { at: "1", over: "1.5", element: `${LINK}/Ordinal`, code: "distribution_chain_invalid" },
    OrgRole: { at: "Carrier", over: "Carriers", element: `${LINK}/OrgRole`, code: "distribution_chain_invalid" },
    OrgName: { at: fill("AIRLINE", max("Name")), over: over("Name", "AIRLINE"), element: `${LINK}/ParticipatingOrg/Name` },
    OrgID: { at: "XB", over: over("OrgID", "XB"), element: `${LINK}/ParticipatingOrg/OrgID` },
    CorrelationID: { at: fill("CORR-", max("CorrelationID")), over: over("CorrelationID", "CORR-"), element: "PayloadAttributes/CorrelationID" },
    PrimaryLangID: { at: "en", over: over("PrimaryLangID", "en"), element: "PayloadAttributes/PrimaryLangID" },
    TrxID: { at: fill("TRX-", max("TrxID")), over: over("TrxID", "TRX-"), element: "PayloadAttributes/TrxID" },
    AgentDutyText: { at: fill("Desk", max("AgentDutyText")), over: over("AgentDutyText", "Desk"), element: "POS/AgentDutyText" },
    City: { at: "MAD", over: "MADR", element: "POS/City/IATA_LocationCode" },
    Country: { at: "ES", over: "ESP", element: "POS/Country/CountryCode" },
    OnlineTrxInd: { at: "true", over: "truee", element: "POS/OnlineTrxInd" },
    RequestTime: { at: "2026-11-21T09:00:00.123456789+01:00", over: "2026-11-21T09:00:00Z1", element: "POS/RequestTime" },
    OfferRefID: { at: offerId, over: over("OfferRefID", "OFR-"), element: `${SELECTED}/OfferRefID` },
    OwnerCode: { at: "XB", over: "XBXB", element: `${SELECTED}/OwnerCode` },
    OfferItemRefID: { at: itemId, over: over("OfferItemRefID", "OFR-"), element: `${SELECTED}/SelectedOfferItem[1]/OfferItemRefID` },
    PaxRefID: { at: PAX_ID, over: over("PaxRefID", "PAXLONG"), element: `${SELECTED}/SelectedOfferItem[1]/PaxRefID[1]` },
    ContactInfoID: { at: CONTACT_ID, over: over("ContactInfoID", "CILONG"), element: `${CONTACT}/ContactInfoID` },
    EmailAddressText: { at: email(max("EmailAddressText")), over: email(max("EmailAddressText") + 1), element: `${CONTACT}/EmailAddress[1]/EmailAddressText` },
    AreaCodeNumber: { at: digits(max("AreaCodeNumber")), over: digits(max("AreaCodeNumber") + 1), element: `${CONTACT}/Phone[1]/AreaCodeNumber` },
    CountryDialingCode: { at: "+353", over: "+3531", element: `${CONTACT}/Phone[1]/CountryDialingCode` },
    PhoneNumber: { at: digits(max("PhoneNumber")), over: digits(max("PhoneNumber") + 1), element: `${CONTACT}/Phone[1]/PhoneNumber` },
    Birthdate: { at: "1980-02-03", over: "1980-02-031", element: `${PAX}/Birthdate` },
    CitizenshipCountryCode: { at: "IE", over: "IRL", element: `${PAX}/CitizenshipCountryCode` },
    ContactInfoRefID: { at: CONTACT_ID, over: over("ContactInfoRefID", "CILONG"), element: `${PAX}/ContactInfoRefID` },
    DocCitizenship: { at: "IE", over: "IRL", element: "IdentityDoc/CitizenshipCountryCode", code: "identity_document_country_invalid" },
    DocExpiry: { at: "2032-03-01", over: "2032-03-011", element: "IdentityDoc/ExpiryDate", code: "identity_document_invalid" },
    DocBirthdate: { at: "1980-02-03", over: "1980-02-031", element: "IdentityDoc/Birthdate", code: "identity_document_invalid" },
    DocBirthplace: { at: fill("DUBLIN", 200), over: fill("DUBLIN", 201), element: "IdentityDoc/BirthplaceText", code: "identity_document_invalid" },
    DocGender: { at: "F", over: "FF", element: "IdentityDoc/GenderCode", code: "identity_document_invalid" },
    DocID: { at: fill("DOCNO", 60), over: fill("DOCNO", 61), element: "IdentityDoc/IdentityDocID", code: "identity_document_invalid" },
    DocType: { at: "PT", over: "PTT", element: "IdentityDoc/IdentityDocTypeCode", code: "identity_document_type_unknown" },
    DocIssuing: { at: "IE", over: "IRL", element: "IdentityDoc/IssuingCountryCode", code: "identity_document_country_invalid" },
    DocSurname: { at: fill("HOLDER", 64), over: fill("HOLDER", 65), element: "IdentityDoc/Surname", code: "identity_document_invalid" },
    DocTitle: { at: fill("DOCTITLE", 16), over: fill("DOCTITLE", 17), element: "IdentityDoc/TitleName", code: "identity_document_invalid" },
    GenderCode: { at: "F", over: "FF", element: `${IND}/GenderCode` },
    SuffixName: { at: fill("SUFFIX", max("SuffixName")), over: over("SuffixName", "SUFFIX"), element: `${IND}/SuffixName` },
    Surname: { at: fill("SURNAME", max("Surname")), over: over("Surname", "SURNAME"), element: `${IND}/Surname` },
    TitleName: { at: fill("TITLE", max("TitleName")), over: over("TitleName", "TITLE"), element: `${IND}/TitleName` },
    AccountNumber: { at: fill("XBMEMBER", max("AccountNumber")), over: over("AccountNumber", "XBMEMBER"), element: `${PAX}/LoyaltyProgramAccount[1]/AccountNumber` },
    AirlineDesigCode: { at: "XB", over: "XBXB", element: `${PAX}/LoyaltyProgramAccount[1]/LoyaltyProgram/Carrier/AirlineDesigCode` },
    TierCode: { at: fill("TIER", max("TierCode")), over: over("TierCode", "TIER"), element: `${PAX}/LoyaltyProgramAccount[1]/TierCode` },
    PaxID: { at: PAX_ID, over: over("PaxID", "PAXLONG"), element: `${PAX}/PaxID` },
    PTC: { at: "ADT", over: "ADTS", element: `${PAX}/PTC` },
    ResidenceCountryCode: { at: "IE", over: "IRL", element: `${PAX}/ResidenceCountryCode` },
    Amount: { at: decimal(totalMinor), over: `${decimal(totalMinor)}1`, element: `${PAY}/Amount` },
    TokenizedCardID: { at: "tok_approve_visa", over: over("TokenizedCardID", "tok_approve_visa"), element: `${PAY}/PaymentMethod/PaymentCard/TokenizedCardID` },
  };
  // Repeated names: the schema's maxOccurs of each, every one at its maximum length.
  for (let i = 1; i <= 5; i++) f[`GivenName${i}`] = { at: fill(`GIVEN${i}`, max("GivenName")), over: over("GivenName", `GIVEN${i}`), element: `${IND}/GivenName[${i}]` };
  for (let i = 1; i <= 3; i++) f[`MiddleName${i}`] = { at: fill(`MIDDLE${i}`, max("MiddleName")), over: over("MiddleName", `MIDDLE${i}`), element: `${IND}/MiddleName[${i}]` };
  for (let i = 1; i <= 5; i++) f[`DocGiven${i}`] = { at: fill(`DOCGIVEN${i}`, 64), over: fill(`DOCGIVEN${i}`, 65), element: "IdentityDoc/GivenName", code: "identity_document_invalid" };
  for (let i = 1; i <= 3; i++) f[`DocMiddle${i}`] = { at: fill(`DOCMIDDLE${i}`, 64), over: fill(`DOCMIDDLE${i}`, 65), element: "IdentityDoc/MiddleName", code: "identity_document_invalid" };
  return f;
}

const leaf = (el: string, key: string) => `<cns:${el}>{{${key}}}</cns:${el}>`;
const repeat = (el: string, key: string, n: number) => Array.from({ length: n }, (_, i) => leaf(el, `${key}${i + 1}`)).join("");

/** Every element OrderCreateRQ reads, in schema order, each text a {{placeholder}}. */
const TEMPLATE = `<?xml version="1.0" encoding="UTF-8"?>
<IATA_OrderCreateRQ xmlns="${MSG_NS}" xmlns:cns="${CNS_NS}"><DistributionChain><cns:DistributionChainLink>${leaf("Ordinal", "Ordinal")}${leaf("OrgRole", "OrgRole")}<cns:ParticipatingOrg>${leaf("Name", "OrgName")}${leaf("OrgID", "OrgID")}</cns:ParticipatingOrg></cns:DistributionChainLink></DistributionChain>\
<PayloadAttributes>${leaf("CorrelationID", "CorrelationID")}${leaf("PrimaryLangID", "PrimaryLangID")}${leaf("TrxID", "TrxID")}</PayloadAttributes>\
<POS>${leaf("AgentDutyText", "AgentDutyText")}<cns:City>${leaf("IATA_LocationCode", "City")}</cns:City><cns:Country>${leaf("CountryCode", "Country")}</cns:Country>${leaf("OnlineTrxInd", "OnlineTrxInd")}${leaf("RequestTime", "RequestTime")}</POS>\
<Request><cns:CreateOrder><cns:AcceptSelectedQuotedOfferList><cns:SelectedPricedOffer>${leaf("OfferRefID", "OfferRefID")}${leaf("OwnerCode", "OwnerCode")}<cns:SelectedOfferItem>${leaf("OfferItemRefID", "OfferItemRefID")}${leaf("PaxRefID", "PaxRefID")}</cns:SelectedOfferItem></cns:SelectedPricedOffer></cns:AcceptSelectedQuotedOfferList></cns:CreateOrder>\
<cns:DataLists><cns:ContactInfoList><cns:ContactInfo>${leaf("ContactInfoID", "ContactInfoID")}<cns:EmailAddress>${leaf("EmailAddressText", "EmailAddressText")}</cns:EmailAddress><cns:Phone>${leaf("AreaCodeNumber", "AreaCodeNumber")}${leaf("CountryDialingCode", "CountryDialingCode")}${leaf("PhoneNumber", "PhoneNumber")}</cns:Phone></cns:ContactInfo></cns:ContactInfoList>\
<cns:PaxList><cns:Pax>${leaf("Birthdate", "Birthdate")}${leaf("CitizenshipCountryCode", "CitizenshipCountryCode")}${leaf("ContactInfoRefID", "ContactInfoRefID")}\
<cns:IdentityDoc>${leaf("Birthdate", "DocBirthdate")}${leaf("BirthplaceText", "DocBirthplace")}${leaf("CitizenshipCountryCode", "DocCitizenship")}${leaf("ExpiryDate", "DocExpiry")}${leaf("GenderCode", "DocGender")}${repeat("GivenName", "DocGiven", 5)}${leaf("IdentityDocID", "DocID")}${leaf("IdentityDocTypeCode", "DocType")}${leaf("IssuingCountryCode", "DocIssuing")}${repeat("MiddleName", "DocMiddle", 3)}${leaf("Surname", "DocSurname")}${leaf("TitleName", "DocTitle")}</cns:IdentityDoc>\
<cns:Individual>${leaf("GenderCode", "GenderCode")}${repeat("GivenName", "GivenName", 5)}${repeat("MiddleName", "MiddleName", 3)}${leaf("SuffixName", "SuffixName")}${leaf("Surname", "Surname")}${leaf("TitleName", "TitleName")}</cns:Individual>\
<cns:LoyaltyProgramAccount>${leaf("AccountNumber", "AccountNumber")}<cns:LoyaltyProgram><cns:Carrier>${leaf("AirlineDesigCode", "AirlineDesigCode")}</cns:Carrier></cns:LoyaltyProgram>${leaf("TierCode", "TierCode")}</cns:LoyaltyProgramAccount>\
${leaf("PaxID", "PaxID")}${leaf("PTC", "PTC")}${leaf("ResidenceCountryCode", "ResidenceCountryCode")}</cns:Pax></cns:PaxList></cns:DataLists>\
<cns:PaymentFunctions><cns:PaymentProcessingDetails><cns:Amount CurCode="EUR">{{Amount}}</cns:Amount><cns:PaymentMethod><cns:PaymentCard>${leaf("TokenizedCardID", "TokenizedCardID")}</cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions></Request></IATA_OrderCreateRQ>`;

function build(values: Record<string, string>): string {
  return TEMPLATE.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`no value for ${key}`);
    return v;
  });
}

let shopped: { offerId: string; itemId: string; totalMinor: number };
let f: Record<string, Field>;
const atLimit = (changes: Record<string, string> = {}) => build({ ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.at])), ...changes });

beforeAll(async () => {
  // A seller's own PaxID at its limit, shopped first so the order can name it.
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: TRAVEL_DATE }], pax: [[PAX_ID, "ADT"]], currency: "EUR" }));
  expect(shop.status).toBe(200);
  const offer = blocks(shop.body, "Offer")[0]!;
  shopped = { offerId: all(offer, "OfferID")[0]!, itemId: all(offer, "OfferItemID")[0]!, totalMinor: Math.round(Number(all(blocks(offer, "TotalPrice")[0]!, "TotalAmount")[0]!) * 100) };
  f = fields(shopped.offerId, shopped.itemId, shopped.totalMinor);
});

test("the request below has a case for every text it carries", () => {
  const placeholders = [...TEMPLATE.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!);
  expect(new Set(placeholders).size).toBe(placeholders.length);
  expect(placeholders.sort()).toEqual(Object.keys(f).sort());
  // No text in the template that is not a placeholder: every leaf is covered.
  expect([...TEMPLATE.matchAll(/>([^<{]+)</g)].map((m) => m[1]!.trim()).filter(Boolean)).toEqual([]);
});

describe("every text field at its limit: booked, and OrderViewRS is XSD-valid on create and retrieve", () => {
  test("create, then retrieve", async () => {
    const created = await t.ndc("OrderCreateRQ", atLimit());
    expect(created.status).toBe(200);
    assertSchemaValid(created.body);
    const read = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(created.body)));
    expect(read.status).toBe(200);
    assertSchemaValid(read.body);
    for (const body of [created.body, read.body]) {
      const ind = blocks(blocks(body, "PaxList")[0]!, "Individual")[0]!;
      expect(all(ind, "GivenName")).toEqual([1, 2, 3, 4, 5].map((i) => f[`GivenName${i}`]!.at));
      expect(all(ind, "Surname")).toEqual([f.Surname!.at]);
      expect(all(ind, "TitleName")).toEqual([f.TitleName!.at]);
      expect(all(blocks(body, "PaxList")[0]!, "PaxID")).toEqual([PAX_ID]);
      expect(all(body, "StatusCode")).toContain("BOOKED");
    }
    expect(all(created.body, "CorrelationID")).toEqual([f.CorrelationID!.at]);
  });
});

describe("every text field one past its limit: refused naming the element", () => {
  // Tests are registered before beforeAll shops, so the keys come from a placeholder offer.
  const KEYS = Object.keys(fields("OFR", "ITEM", 100));
  KEYS.forEach((key, i) => {
    test(key, async () => {
      const field = f[key]!;
      // Each case under its own CorrelationID, so no case replays another's stored answer.
      const corr = key === "CorrelationID" ? field.over : fill(`LIM-${i}-`, 64);
      const r = await t.ndc("OrderCreateRQ", atLimit({ CorrelationID: corr, [key]: field.over }));
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe(field.code ?? "request_invalid");
      expect(all(r.body, "TagText")).toEqual([field.element]);
      // The refusal never echoes the value (it may be a name or an address).
      expect(r.body).not.toContain(field.over);
    });
  });
});

describe("payment methods other than a card, one past their limits", () => {
  const method = (xml: string, corr: string) => atLimit({ CorrelationID: fill(corr, 64) }).replace(/<cns:PaymentCard>.*<\/cns:PaymentCard>/, xml);
  const cases: [string, string, string][] = [
    ["VoucherID", `<cns:Voucher><cns:VoucherID>${fill("VCH-", 65)}</cns:VoucherID></cns:Voucher>`, `${PAY}/PaymentMethod/Voucher/VoucherID`],
    ["IATA_Number", `<cns:SettlementPlan><cns:IATA_Number>${fill("AGY", 65)}</cns:IATA_Number><cns:PaymentTypeCode>CA</cns:PaymentTypeCode></cns:SettlementPlan>`, `${PAY}/PaymentMethod/SettlementPlan/IATA_Number`],
    [
      "CertificateNumber",
      `<cns:LoyaltyRedemption><cns:CertificateNumber>${fill("CERT", 65)}</cns:CertificateNumber><cns:LoyaltyProgramAccount><cns:AccountNumber>XB1</cns:AccountNumber><cns:LoyaltyProgram><cns:Carrier><cns:AirlineDesigCode>XB</cns:AirlineDesigCode></cns:Carrier></cns:LoyaltyProgram></cns:LoyaltyProgramAccount></cns:LoyaltyRedemption>`,
      `${PAY}/PaymentMethod/LoyaltyRedemption/CertificateNumber[1]`,
    ],
    [
      "the member's AccountNumber",
      `<cns:LoyaltyRedemption><cns:CertificateNumber>CERT1</cns:CertificateNumber><cns:LoyaltyProgramAccount><cns:AccountNumber>${fill("XB", 33)}</cns:AccountNumber><cns:LoyaltyProgram><cns:Carrier><cns:AirlineDesigCode>XB</cns:AirlineDesigCode></cns:Carrier></cns:LoyaltyProgram></cns:LoyaltyProgramAccount></cns:LoyaltyRedemption>`,
      `${PAY}/PaymentMethod/LoyaltyRedemption/LoyaltyProgramAccount/AccountNumber`,
    ],
  ];
  cases.forEach(([name, xml, element], i) => {
    test(name, async () => {
      const r = await t.ndc("OrderCreateRQ", method(xml, `PAYLIM-${i}-`));
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe("request_invalid");
      expect(all(r.body, "TagText")).toEqual([element]);
    });
  });
});

test("the issue's cases: a 1.5 MB name and a 300 KB e-mail are refused, and no order is stored for them", async () => {
  const huge = await t.ndc("OrderCreateRQ", atLimit({ CorrelationID: fill("HUGE-NAME-", 64), GivenName1: "A".repeat(1_500_000) }));
  expect(errorCode(huge.body)).toBe("request_invalid");
  expect(all(huge.body, "TagText")).toEqual([`${IND}/GivenName[1]`]);
  expect(huge.body.length).toBeLessThan(4_000);
  const mail = await t.ndc("OrderCreateRQ", atLimit({ CorrelationID: fill("HUGE-MAIL-", 64), EmailAddressText: email(300_000) }));
  expect(errorCode(mail.body)).toBe("request_invalid");
  expect(all(mail.body, "TagText")).toEqual([`${CONTACT}/EmailAddress[1]/EmailAddressText`]);
  const sixth = await t.ndc("OrderCreateRQ", atLimit({ CorrelationID: fill("SIX-NAMES-", 64) }).replace(`<cns:MiddleName>${f.MiddleName1!.at}`, `<cns:GivenName>SIXTH</cns:GivenName><cns:MiddleName>${f.MiddleName1!.at}`));
  expect(errorCode(sixth.body)).toBe("request_invalid");
  expect(all(sixth.body, "TagText")).toEqual([`${IND}/GivenName[6]`]);
});
