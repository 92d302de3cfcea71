import { describe, expect, test } from "bun:test";
import { decodeOrderChangeRQ, decodeOrderHistoryRQ, decodeOrderListRQ, decodeOrderRetrieveRQ } from "@ndc/messages";
import { decodeFixture, expectRefused } from "./helpers";

const change = (name: string, ...edits: [string | RegExp, string][]) => decodeFixture(decodeOrderChangeRQ, name, ...edits);
const DOC = "<cns:IdentityDoc><cns:IdentityDocID>NUMBER123</cns:IdentityDocID><cns:IdentityDocTypeCode>P</cns:IdentityDocTypeCode><cns:Surname>X</cns:Surname></cns:IdentityDoc>";

describe("OrderChangeRQ decoder", () => {
  test("payment retry: PaymentFunctions for an existing order", () => {
    const r = change("order-change-payment.xml");
    expect(r.order).toEqual({ orderId: "ORD-1", ownerCode: "XB", orderVersion: 2 });
    expect(r.change).toEqual({ form: "paymentRetry" });
    expect(r.paymentLegs).toEqual([{ kind: "card", token: "tok_approve_mastercard", amount: { amount: 36555, currency: "EUR" } }]);
  });

  test("seat change: one SelectedSeat for one passenger, paid by the settlement plan", () => {
    const r = change("order-change-seat.xml");
    expect(r.change).toEqual({
      form: "seat",
      offerId: "RS-9",
      ownerCode: "XB",
      paxId: "PAX2",
      item: { offerItemId: "RS-9-SEAT", paxIds: ["PAX2"], seat: { row: 21, column: "F" } },
    });
    expect(r.paymentLegs).toEqual([{ kind: "settlement", agencyId: "12345675", method: "MS", amount: { amount: 1800, currency: "EUR" } }]);
  });

  test("a seat for two passengers, or with extras, is refused", () => {
    expectRefused(
      () => change("order-change-seat.xml", ["<cns:PaxRefID>PAX2</cns:PaxRefID>", "<cns:PaxRefID>PAX2</cns:PaxRefID><cns:PaxRefID>PAX1</cns:PaxRefID>"]),
      "request_invalid",
      "Request/ChangeOrderChoice",
    );
  });

  test("service add: the quoted a-la-carte items", () => {
    const r = change("order-change-services.xml");
    expect(r.change).toEqual({
      form: "services",
      selection: { form: "AcceptSelectedQuotedOfferList", quotedOffers: [{ offerId: "RS-10", ownerCode: "XB", items: [{ offerItemId: "RS-10-BAG", paxIds: ["PAX1", "PAX2"], service: { qty: 1 } }] }] },
    });
    expect(r.paymentLegs).toEqual([]);
  });

  test("an IdentityDoc in DataLists is refused with its path, never dropped", () => {
    expectRefused(
      () => change("order-change-services.xml", ["<cns:PaxID>PAX1</cns:PaxID>", `${DOC}<cns:PaxID>PAX1</cns:PaxID>`]),
      "identity_document_not_updatable",
      "Request/DataLists/PaxList/Pax/IdentityDoc",
    );
  });

  test("an IdentityDoc inside UpdatePax is refused with its path", () => {
    const e = expectRefused(
      () =>
        change(
          "order-change-services.xml",
          [/<cns:ChangeOrderChoice>[\s\S]*<\/cns:ChangeOrderChoice>/, `<cns:ChangeOrderChoice><cns:UpdatePax><cns:New><cns:PaxRefID>PAX1</cns:PaxRefID>${DOC}</cns:New></cns:UpdatePax></cns:ChangeOrderChoice>`],
        ),
      "identity_document_not_updatable",
      "Request/ChangeOrderChoice/UpdatePax/New/IdentityDoc",
    );
    expect(JSON.stringify({ m: e.message, d: e.detail })).not.toContain("NUMBER123");
  });

  test("UpdatePax whose New names no DataLists Pax is refused, naming where", () => {
    expectRefused(
      () =>
        change("order-change-services.xml", [
          /<cns:ChangeOrderChoice>[\s\S]*<\/cns:ChangeOrderChoice>/,
          "<cns:ChangeOrderChoice><cns:UpdatePax><cns:Current><cns:PaxRefID>PAX1</cns:PaxRefID></cns:Current><cns:New><cns:PaxRefID>PAX9</cns:PaxRefID></cns:New></cns:UpdatePax></cns:ChangeOrderChoice>",
        ]),
      "request_invalid",
      "Request/ChangeOrderChoice/UpdatePax/New/PaxRefID",
    );
  });

  test("card data is refused on OrderChangeRQ too", () => {
    expectRefused(
      () => change("order-change-payment.xml", ["<cns:TokenizedCardID>", "<cns:CardNumber>4111111111111111</cns:CardNumber><cns:TokenizedCardID>"]),
      "card_data_refused",
      "Request/PaymentFunctions/PaymentProcessingDetails/PaymentMethod/PaymentCard/CardNumber",
    );
  });

  test("neither a change nor a payment is refused", () => {
    expectRefused(() => change("order-change-payment.xml", [/<cns:PaymentFunctions>[\s\S]*<\/cns:PaymentFunctions>/, ""]), "request_invalid", "Request/ChangeOrderChoice");
  });
});

describe("OrderRetrieveRQ, OrderHistoryRQ, OrderListRQ decoders", () => {
  test("OrderRetrieveRQ reads OrderID and OwnerCode", () => {
    expect(decodeFixture(decodeOrderRetrieveRQ, "order-retrieve.xml")).toEqual({ order: { orderId: "ORD-1", ownerCode: "XB" }, languages: [] });
  });
  test("OrderRetrieveRQ reads the content languages: every LangUsage, else PrimaryLangID", () => {
    expect(
      decodeFixture(decodeOrderRetrieveRQ, "order-retrieve.xml", [/<\/cns:OrderValidationFilterCriteria>/, "</cns:OrderValidationFilterCriteria><cns:ResponseParameters><cns:LangUsage><cns:LangCode>de</cns:LangCode></cns:LangUsage><cns:LangUsage><cns:LangCode>fr</cns:LangCode></cns:LangUsage></cns:ResponseParameters>"]).languages,
    ).toEqual(["de", "fr"]);
  });
  test("OrderRetrieveRQ by passenger is refused naming the filter", () => {
    expectRefused(
      () => decodeFixture(decodeOrderRetrieveRQ, "order-retrieve.xml", [/<cns:OrderFilterCriteria>.*<\/cns:OrderFilterCriteria>/, "<cns:PaxFilterCriteria><cns:Individual><cns:Surname>X</cns:Surname></cns:Individual></cns:PaxFilterCriteria>"]),
      "request_invalid",
      "Request/OrderValidationFilterCriteria/PaxFilterCriteria",
    );
  });
  test("OrderHistoryRQ reads the order", () => {
    expect(decodeFixture(decodeOrderHistoryRQ, "order-history.xml")).toEqual({ order: { orderId: "ORD-1", ownerCode: "XB" } });
  });
  test("OrderListRQ: date ranges, carrier, status and paging", () => {
    expect(decodeFixture(decodeOrderListRQ, "order-list.xml")).toEqual({
      // Paging is by cursor since keyset paging (docs/decisions/0009): the fixture asks for the page after one.
      page: { size: 10, after: "MTc5OTk5OTk5OTk5OS5PUkQtOQ.AAAAAAAAAAAAAAAAAAAAAA" },
      statusCodes: ["ORDWPM"],
      carrier: "XB",
      created: { from: "2027-01-01T00:00:00Z", to: "2027-01-31T23:59:59Z" },
      lastModified: { from: "2027-01-15T00:00:00Z" },
      travelDates: { from: "2027-03-01", to: "2027-03-31" },
    });
  });
  test("OrderListRQ defaults to the first page of 20", () => {
    const r = decodeFixture(decodeOrderListRQ, "order-list.xml", [/<AugmentationPoint>.*<\/AugmentationPoint>/, ""]);
    expect(r.page).toEqual({ size: 20 });
    expect(r.statusCodes).toEqual([]);
  });
  test("OrderListRQ refuses a page number other than 1 (pages follow a cursor) and a cursor not as issued", () => {
    expectRefused(() => decodeFixture(decodeOrderListRQ, "order-list.xml", ['size="10"', 'number="3" size="10"']), "request_invalid", "AugmentationPoint/Page/@number");
    expect(decodeFixture(decodeOrderListRQ, "order-list.xml", ['size="10"', 'number="1" size="10"']).page.size).toBe(10);
    expectRefused(() => decodeFixture(decodeOrderListRQ, "order-list.xml", ['after="MTc', 'after="%MTc']), "request_invalid", "AugmentationPoint/Page/@after");
  });
  test("OrderListRQ refuses a page size over 100 and a passenger filter", () => {
    expectRefused(() => decodeFixture(decodeOrderListRQ, "order-list.xml", ['size="10"', 'size="500"']), "request_invalid", "AugmentationPoint/Page/@size");
    expectRefused(
      () => decodeFixture(decodeOrderListRQ, "order-list.xml", ["</cns:OrderSearchFilterCriteria>", "<cns:PaxFilterCriteria><cns:Individual><cns:Surname>X</cns:Surname></cns:Individual></cns:PaxFilterCriteria></cns:OrderSearchFilterCriteria>"]),
      "request_invalid",
      "Request/OrderSearchFilterCriteria/PaxFilterCriteria",
    );
  });
  test("OrderListRQ refuses a malformed date", () => {
    expectRefused(() => decodeFixture(decodeOrderListRQ, "order-list.xml", ["2027-03-31", "2027-02-31"]), "request_invalid", "Request/OrderSearchFilterCriteria/TravelDateFilterCriteria/ExpirationDate");
  });
});
