import { describe, expect, test } from "bun:test";
import { MASKED_DOCUMENT_ID, MESSAGES, encodeOrderHistoryRS, encodeOrderListRS, encodeOrderViewRS, orderListAugmentation } from "@ndc/messages";
import { responseDocument, type Child, type XNode } from "@ndc/xml";
import { validateXml } from "../../support/xsd";
import { DOC_NUMBERS, minimalOrder, orderHistory, orderList, richOrder } from "./views";

function doc(message: string, response: XNode, trailing: Child = null): string {
  const spec = MESSAGES.find((m) => m.name === message)!;
  return responseDocument(spec.response, response, { simulated: true, correlationId: "corr-ord", trxId: "trx-ord" }, trailing);
}

function expectValid(xml: string): void {
  const v = validateXml(xml);
  if (!v.ok) throw new Error(`${v.output}\n${xml.slice(0, 4000)}`);
  expect(v.ok).toBe(true);
}

function orderViewXml(v = richOrder()): string {
  const r = encodeOrderViewRS(v);
  return doc("OrderCreateRQ", r.response, r.trailing);
}

describe("OrderViewRS encoder", () => {
  test("rich order: 2 passengers with masked documents, seats, services, ride, partner product, adjustments, 4 legs and a refund", () => {
    const xml = orderViewXml();
    expectValid(xml);
    expect(xml).toContain("<cns:OrderID>ORD-1</cns:OrderID>");
    expect(xml).toContain("<cns:OrderVersionNumber>3</cns:OrderVersionNumber><cns:OwnerCode>XB</cns:OwnerCode><cns:StatusCode>BOOKED</cns:StatusCode>");
    expect(xml).toContain('<cns:DiscountAmount CurCode="EUR">12.00</cns:DiscountAmount>');
    expect(xml).toContain("<cns:DesigText>SUR-PEAK</cns:DesigText>");
    expect(xml).toContain('<cns:TotalAmount CurCode="EUR">529.00</cns:TotalAmount>');
    expect(xml).toContain("<cns:PaymentTimeLimitDateTime>2027-02-02T09:30:00Z</cns:PaymentTimeLimitDateTime>");
    expect(xml).toContain("<cns:Seat><cns:ColumnID>C</cns:ColumnID><cns:RowNumber>12</cns:RowNumber>");
    expect(xml).toContain("<cns:TaxonomyCode>6A01</cns:TaxonomyCode>");
    expect(xml).toContain("<cns:ServiceDefinitionRefID>SD-TOUR-AM</cns:ServiceDefinitionRefID>");
    expect(xml).toContain("<cns:RFISC>0BX</cns:RFISC>");
    expect(xml).toContain("<cns:EmailAddressText>ana.garcia@example.test</cns:EmailAddressText>");
    expect(xml).toContain("<cns:Code>identity_document_not_shown</cns:Code>");
  });

  test("PAYCOM: commission amount, rate and base", () => {
    expect(orderViewXml()).toContain(
      '<cns:Commission><cns:Amount CurCode="EUR">26.45</cns:Amount><cns:CommissionCode>AGR-1</cns:CommissionCode><cns:Percentage>5</cns:Percentage><cns:PercentageAppliedToAmount CurCode="EUR">529.00</cns:PercentageAppliedToAmount></cns:Commission>',
    );
  });

  test("PAYSUM: one root PaymentFunctions per entry after PayloadAttributes, masked", () => {
    const xml = orderViewXml();
    expect(xml.indexOf("</PayloadAttributes><PaymentFunctions>")).toBeGreaterThan(0);
    expect(xml.match(/<PaymentFunctions>/g)?.length).toBe(5);
    expect(xml).toContain("<cns:CardBrandCode>VI</cns:CardBrandCode><cns:MaskedCardID>XXXXXXXXXXXX4242</cns:MaskedCardID>");
    expect(xml).toContain("<cns:TrxID>psp_ref_001</cns:TrxID>");
    expect(xml).toContain("<cns:VoucherID>****************0025</cns:VoucherID>");
    expect(xml).toContain("<cns:SettlementPlan><cns:PaymentTypeCode>CA</cns:PaymentTypeCode></cns:SettlementPlan>");
    expect(xml).toContain("<cns:LoyaltyCurAmount>4005</cns:LoyaltyCurAmount><cns:LoyaltyProgramAccount><cns:AccountNumber>********0001</cns:AccountNumber>");
    expect(xml).toContain("<cns:TrxTypeText>Refund</cns:TrxTypeText>");
    expect(xml).toContain("Refund to Card VI ending 4242: 10.00 EUR.");
    expect(xml).not.toContain("VCH-SANDBOX");
  });

  test("identity documents: masked fields only, the number nowhere", () => {
    const xml = orderViewXml();
    const docs = xml.match(/<cns:IdentityDoc>.*?<\/cns:IdentityDoc>/g) ?? [];
    expect(docs).toHaveLength(2);
    expect(docs[0]).toBe(
      `<cns:IdentityDoc><cns:CitizenshipCountryCode>ES</cns:CitizenshipCountryCode><cns:ExpiryDate>2031-05-01</cns:ExpiryDate><cns:IdentityDocID>${MASKED_DOCUMENT_ID}</cns:IdentityDocID><cns:IdentityDocTypeCode>P</cns:IdentityDocTypeCode><cns:IssuingCountryCode>ES</cns:IssuingCountryCode><cns:Surname>GARCIA</cns:Surname></cns:IdentityDoc>`,
    );
    // The schema requires IdentityDocID; the only value it ever holds is the fixed mask.
    const ids = [...xml.matchAll(/<cns:IdentityDocID>([^<]*)<\/cns:IdentityDocID>/g)].map((m) => m[1]);
    expect(ids).toEqual([MASKED_DOCUMENT_ID, MASKED_DOCUMENT_ID]);
    for (const n of DOC_NUMBERS) expect(xml).not.toContain(n);
    for (const f of ["Visa", "AddlName", "RedressCase", "FOID", "BirthplaceText", "IssueDate", "GenderCode"]) expect(docs.join("")).not.toContain(`cns:${f}`);
  });

  test("the view model has no place for a document number", () => {
    const v = richOrder();
    // @ts-expect-error MaskedIdentityDoc has no number field
    v.dataLists.passengers[0]!.identityDocs[0]!.number = "PAE1234567";
    expect(orderViewXml(v)).not.toContain("PAE1234567");
  });

  test("minimal order: one item, no passengers, no payment (held unpaid)", () => {
    const xml = orderViewXml(minimalOrder());
    expectValid(xml);
    expect(xml).toContain("<cns:StatusCode>ORDWPM</cns:StatusCode>");
    expect(xml).not.toContain("PaymentFunctions");
    expect(xml).not.toContain("cns:DataLists");
  });

  test("an order without items is a caller bug, not a document", () => {
    expect(() => encodeOrderViewRS({ ...minimalOrder(), items: [] })).toThrow("no order item");
  });
});

describe("OrderListRS and OrderHistoryRS encoders", () => {
  test("OrderListRS: matched orders and the page in a Warning; the next page's cursor for the AugmentationPoint", () => {
    const xml = doc("OrderListRQ", encodeOrderListRS(orderList()));
    expectValid(xml);
    expect(xml).toContain("<cns:OrderRefID>ORD-1</cns:OrderRefID><cns:OrderStatusCode>BOOKED</cns:OrderStatusCode>");
    expect(xml).toContain("2 orders on this page, at most 2 per page. More orders match");
    expect(orderListAugmentation(orderList()).map((n) => n.attrs)).toEqual([{ "xmlns:gw": "urn:x-ndc-gateway:simulation:1", after: "CURSOR-2", size: 2 }]);
  });

  test("OrderListRS: an empty list is valid", () => {
    const xml = doc("OrderListRQ", encodeOrderListRS({ orders: [], page: { size: 20 }, warnings: [] }));
    expectValid(xml);
    expect(xml).toContain("0 orders on this page, at most 20 per page. This is the last page.");
    expect(orderListAugmentation({ orders: [], page: { size: 20 }, warnings: [] })).toEqual([]);
  });

  test("OrderHistoryRS: each version with what changed (New/Old in the FullyOptional namespace)", () => {
    const xml = doc("OrderHistoryRQ", encodeOrderHistoryRS(orderHistory()));
    expectValid(xml);
    expect(xml.match(/<ChangeGroup>/g)?.length).toBe(2);
    expect(xml).toContain('<New xmlns:opt="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypesFullyOptional">');
    expect(xml).toContain("<opt:StatusCode>BOOKED</opt:StatusCode>");
    expect(xml).toContain('<opt:TotalAmount CurCode="EUR">529.00</opt:TotalAmount>');
    expect(xml).toContain("<OrderVersionNumber>2</OrderVersionNumber>");
    expect(xml).toContain("<OrderRefID>ORD-1</OrderRefID>");
  });

  test("OrderHistoryRS: an order with no versions yet is valid", () => {
    expectValid(doc("OrderHistoryRQ", encodeOrderHistoryRS({ orderId: "ORD-9", versions: [] })));
  });
});
