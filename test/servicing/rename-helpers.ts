import { ndcRequest } from "../support/requests";

/**
 * OrderChangeRQ ChangeOrderChoice/UpdatePax (24.4 OrderChangeUpdatePaxType): Current names the
 * order's passenger, New a DataLists Pax carrying the corrected name. `extra` goes inside the
 * new Pax (before Individual), e.g. an IdentityDoc the gateway must refuse.
 */
export function updatePaxRQ(orderId: string, o: { paxId?: string; given?: string; surname?: string; trxId?: string; correlationId?: string; extra?: string; flexibility?: boolean } = {}): string {
  const pax = `<cns:Pax>${o.extra ?? ""}<cns:Individual><cns:GivenName>${o.given ?? "Alexandra"}</cns:GivenName><cns:Surname>${o.surname ?? "TRAVELLER"}</cns:Surname><cns:TitleName>MS</cns:TitleName></cns:Individual><cns:PaxID>PAXN</cns:PaxID></cns:Pax>`;
  const request =
    `<cns:ChangeOrderChoice><cns:UpdatePax><cns:Current><cns:PaxRefID>${o.paxId ?? "PAX1"}</cns:PaxRefID></cns:Current><cns:New><cns:PaxRefID>PAXN</cns:PaxRefID></cns:New></cns:UpdatePax></cns:ChangeOrderChoice>` +
    `<cns:DataLists><cns:PaxList>${pax}</cns:PaxList></cns:DataLists>` +
    `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>` +
    // How a request asks to spend the order's Flexibility service (docs/servicing.md "Flexibility").
    (o.flexibility ? "<cns:OrderChangeParameters><cns:ReasonCode>FLEXIBILITY</cns:ReasonCode></cns:OrderChangeParameters>" : "");
  return ndcRequest("OrderChangeRQ", { request, correlationId: o.correlationId ?? "corr-rename", trxId: o.trxId ?? "trx-rename" });
}
