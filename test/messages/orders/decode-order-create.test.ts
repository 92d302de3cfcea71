import { describe, expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { decodeOrderCreateRQ } from "@ndc/messages";
import { decodeFixture, expectRefused, fixture } from "./helpers";

const decode = (name: string, ...edits: [string | RegExp, string][]) => decodeFixture(decodeOrderCreateRQ, name, ...edits);
const PF = "Request/PaymentFunctions";
const CARD = "<cns:PaymentCard><cns:CardBrandCode>VI</cns:CardBrandCode>";

describe("OrderCreateRQ decoder: AcceptOrderItemList", () => {
  const r = decode("order-create-items.xml");

  test("items: flight, seat with its place, other service, bare reference; seller prices unread", () => {
    expect(r.selection).toEqual({
      form: "AcceptOrderItemList",
      orderItems: [
        { ownerCode: "XB", offerItemId: "OF-1-ADT", item: { kind: "flight", originDestIds: ["OD1", "OD2"] } },
        {
          ownerCode: "XB",
          offerItemId: "ALC-1-SEAT",
          item: { kind: "seat", paxId: "PAX1", paxSegmentId: "S1", datedOperatingLegIds: ["S1-LEG"], seatProfileIds: ["SP-XL"], seat: { row: 12, column: "C" } },
        },
        { ownerCode: "XB", offerItemId: "ALC-1-LOUNGE", item: { kind: "other", description: "Lounge access" } },
        { ownerCode: "XB", offerItemId: "OF-1-CHD" },
      ],
    });
  });

  test("passengers fully described, identity documents as IdentityDocInput", () => {
    expect(r.passengers[0]).toEqual({
      paxId: "PAX1",
      ptc: "ADT",
      birthDate: "1985-04-12",
      citizenship: "ES",
      title: "MS",
      givenNames: ["Ana"],
      middleNames: ["Luisa"],
      surname: "GARCIA",
      contactInfoId: "CI1",
      loyalty: [{ programme: "XB", accountNumber: "XB1000000001", tierCode: "GOLD" }],
      identityDocs: [
        {
          IdentityDocTypeCode: "P",
          IdentityDocID: "PAE1234567",
          CitizenshipCountryCode: "ES",
          IssuingCountryCode: "ES",
          ResidenceCountryCode: "FR",
          IssueDate: "2021-05-02",
          ExpiryDate: "2031-05-01",
          Birthdate: "1985-04-12",
          BirthplaceText: "Sevilla",
          GenderCode: "F",
          Surname: "GARCIA",
          GivenName: ["Ana", "Maria"],
          MiddleName: ["Luisa"],
          SuffixName: "JR",
          TitleName: "MS",
        },
      ],
    });
    expect(r.passengers[1]!.identityDocs).toEqual([{ IdentityDocTypeCode: "I", IdentityDocID: "CHD998877", Surname: "GARCIA" }]);
    expect(r.contacts).toEqual([{ contactInfoId: "CI1", emails: ["ana.garcia@example.test"], phones: ["34 600111222"] }]);
  });

  test("Visa, AddlName, RedressCase and FOID are never read", () => {
    const all = JSON.stringify(r);
    for (const secret of ["VISASECRET99", "2029-01-01", "ADDLNAMESECRET", "INDADDLSECRET", "REDRESSSECRET42", "FOIDSECRET777"]) {
      expect(all).not.toContain(secret);
    }
    expect(fixture("order-create-items.xml")).toContain("VISASECRET99");
  });

  test("four payment legs of each kind in LegRequest shape, amounts in exact minor units", () => {
    expect(r.paymentLegs).toEqual([
      { kind: "card", token: "tok_approve_visa", amount: { amount: 20050, currency: "EUR" } },
      { kind: "voucher", code: "VCH-SANDBOX-EUR-0025", amount: { amount: 2500, currency: "EUR" } },
      { kind: "settlement", agencyId: "SANDBOX-AGENCY", method: "CA", amount: { amount: 10000, currency: "EUR" } },
      { kind: "loyalty", programme: "XB", memberAccount: "XB1000000001", certificateId: "700100200", amount: { amount: 4005, currency: "EUR" } },
    ]);
  });

  test("envelope parts: ids, POS, signature presence, preferences", () => {
    expect(r.correlationId).toBe("corr-oc-1");
    expect(r.trxId).toBe("trx-oc-1");
    expect(r.pos).toEqual({ city: "MAD", country: "ES", agentDuty: "Counter 4", online: true, requestTime: "2027-02-01T09:30:00Z" });
    expect(r.signed).toBe(true);
    expect(r.preferences.currency).toBe("EUR");
  });
});

describe("OrderCreateRQ decoder: AcceptSelectedQuotedOfferList", () => {
  test("offers by OfferID with seat, service quantity (a ride) and bundle choices; no payment = held", () => {
    const r = decode("order-create-quoted.xml");
    expect(r.selection).toEqual({
      form: "AcceptSelectedQuotedOfferList",
      quotedOffers: [
        { offerId: "OF-7", ownerCode: "XB", items: [{ offerItemId: "OF-7-ADT", paxIds: ["PAX1"] }] },
        {
          offerId: "ALC-7",
          ownerCode: "XB",
          items: [
            { offerItemId: "ALC-7-SEAT", paxIds: ["PAX1"], seat: { row: 3, column: "A" } },
            { offerItemId: "ALC-7-RIDE", paxIds: ["PAX1"], service: { qty: 2, flights: { kind: "paxSegments", ids: ["S1"] } } },
            { offerItemId: "ALC-7-TOUR", paxIds: ["PAX1"], bundle: { serviceId: "SRV-TOUR", serviceDefinitionIds: ["SD-TOUR-AM"] } },
          ],
        },
      ],
    });
    expect(r.paymentLegs).toEqual([]);
    expect(r.signed).toBe(false);
    expect(r.contacts[0]!.emails).toEqual(["traveller@example.test"]);
    expect(r.passengers[0]).toMatchObject({ paxId: "PAX1", givenNames: ["Tom"], surname: "BAKER", identityDocs: [] });
  });
});

describe("OrderCreateRQ decoder: card data is refused first and never echoed", () => {
  const PAN = "4111111111111111";
  const cases: [string, [string, string][], string][] = [
    ["CardNumber", [[CARD, `${CARD}<cns:CardNumber>${PAN}</cns:CardNumber>`]], `${PF}[1]/PaymentProcessingDetails/PaymentMethod/PaymentCard/CardNumber`],
    ["CardSecurityCode", [[CARD, `${CARD}<cns:CardSecurityCode>737</cns:CardSecurityCode>`]], `${PF}[1]/PaymentProcessingDetails/PaymentMethod/PaymentCard/CardSecurityCode`],
    ["SeriesCode", [[CARD, `${CARD}<cns:SeriesCode>737</cns:SeriesCode>`]], `${PF}[1]/PaymentProcessingDetails/PaymentMethod/PaymentCard/SeriesCode`],
    ["a card number as the token", [["tok_approve_visa", PAN]], `${PF}[1]/PaymentProcessingDetails/PaymentMethod/PaymentCard/TokenizedCardID`],
  ];
  for (const [name, edits, element] of cases) {
    test(name, () => {
      const e = expectRefused(() => decode("order-create-items.xml", ...edits), "card_data_refused", element);
      expect(JSON.stringify({ m: e.message, d: e.detail, el: e.element })).not.toMatch(/4111111111111111|737/);
    });
  }

  test("card data wins over every other fault in the same request", () => {
    // The request is also malformed (no CreateOrder): card data is still what is reported.
    expectRefused(
      () => decode("order-create-items.xml", [CARD, `${CARD}<cns:CardNumber>${PAN}</cns:CardNumber>`], ["<cns:CreateOrder>", "<cns:CreateOrderX>"], ["</cns:CreateOrder>", "</cns:CreateOrderX>"]),
      "card_data_refused",
      `${PF}[1]/PaymentProcessingDetails/PaymentMethod/PaymentCard/CardNumber`,
    );
  });
});

describe("OrderCreateRQ decoder: payment legs refused", () => {
  const leg = '<cns:PaymentFunctions><cns:PaymentProcessingDetails><cns:Amount CurCode="EUR">1.00</cns:Amount><cns:PaymentMethod><cns:Voucher><cns:VoucherID>V5</cns:VoucherID></cns:Voucher></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>\n    <cns:ResponseParameters>';
  test("a fifth leg is refused naming it", () => {
    expectRefused(() => decode("order-create-items.xml", ["<cns:ResponseParameters>", leg]), "request_invalid", `${PF}[5]`);
  });
  test.each([
    ["200.505", "more decimals than EUR has"],
    ["-5.00", "negative"],
    ["1e3", "not a decimal"],
  ])("amount %s is refused (%s)", (text) => {
    expectRefused(() => decode("order-create-items.xml", [">200.50<", `>${text}<`]), "request_invalid", `${PF}[1]/PaymentProcessingDetails/Amount`);
  });
  test("an amount of 0.00 is read: the domain judges it against what is due (issue 20 item 2; a booking refuses it, payment_legs_invalid)", () => {
    expect(decode("order-create-items.xml", [">200.50<", ">0.00<"]).paymentLegs[0]!.amount).toEqual({ amount: 0, currency: "EUR" });
  });
  test("an unknown currency is refused", () => {
    expectRefused(() => decode("order-create-items.xml", ['CurCode="EUR">200.50', 'CurCode="XXX">200.50']), "request_invalid", `${PF}[1]/PaymentProcessingDetails/Amount`);
  });
  test("a card without a token is refused", () => {
    expectRefused(() => decode("order-create-items.xml", ["<cns:TokenizedCardID>tok_approve_visa</cns:TokenizedCardID>", ""]), "request_invalid", `${PF}[1]/PaymentProcessingDetails/PaymentMethod/PaymentCard/TokenizedCardID`);
  });
  test("a settlement method other than CA, DP, MS is refused", () => {
    expectRefused(() => decode("order-create-items.xml", ["<cns:PaymentTypeCode>CA<", "<cns:PaymentTypeCode>CC<"]), "request_invalid", `${PF}[3]/PaymentProcessingDetails/PaymentMethod/SettlementPlan/PaymentTypeCode`);
  });
  test("points without a redemption certificate are refused", () => {
    expectRefused(() => decode("order-create-items.xml", ["<cns:CertificateNumber>700100200</cns:CertificateNumber>", ""]), "request_invalid", `${PF}[4]/PaymentProcessingDetails/PaymentMethod/LoyaltyRedemption/CertificateNumber`);
  });
});

describe("OrderCreateRQ decoder: structure", () => {
  test("CreateOrder needs one of its two lists", () => {
    expectRefused(
      () => decode("order-create-quoted.xml", ["<cns:AcceptSelectedQuotedOfferList>", "<cns:Other>"], ["</cns:AcceptSelectedQuotedOfferList>", "</cns:Other>"]),
      "request_invalid",
      "Request/CreateOrder",
    );
  });
  test("a duplicated PaxID is refused", () => {
    expectRefused(() => decode("order-create-items.xml", ["<cns:PaxID>PAX2</cns:PaxID>", "<cns:PaxID>PAX1</cns:PaxID>"]), "request_invalid", "Request/DataLists/PaxList/Pax[2]/PaxID");
  });
  test("errors are GatewayErrors with the request_invalid code (400 in the catalogue)", () => {
    try {
      decode("order-create-items.xml", ["<cns:OwnerCode>XB</cns:OwnerCode>", "<cns:OwnerCode></cns:OwnerCode>"]);
      throw new Error("no error");
    } catch (e) {
      expect(e).toBeInstanceOf(GatewayError);
      expect((e as GatewayError).code).toBe("request_invalid");
    }
  });
});
