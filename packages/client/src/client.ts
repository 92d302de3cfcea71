import { answer, type SelectedOffer } from "./messages/common";
import { acceptCancelRequest, cancelQuoteRequest, createRequest, historyRequest, listRequest, payRequest, quoteRequest, readHistory, readList, readOrderView, readReshop, readRules, renameRequest, reshopServicesRequest, retrieveRequest, rulesRequest, type CardPayment, type CreateRequest, type ListRequest, type OrderRef } from "./messages/orders";
import { priceRequest, readPrice, readSeats, readServices, readShop, seatsRequest, servicesRequest, shopRequest, type OfferOrOrder, type PriceRequest, type ShopRequest } from "./messages/shopping";
import { newId, NdcTransport } from "./transport";

/**
 * A seller's client for an NDC 24.4 gateway: one method per message it serves, each building the
 * request, sending it through the transport (retries, token, gzip, signing) and reading the answer.
 */
export class NdcClient extends NdcTransport {
  // Typed calls: a builder for the request, a reader for the answer (raw XML in `xml`).

  async shop(r: ShopRequest) {
    const res = await this.call("AirShoppingRQ", shopRequest(r));
    return { ...readShop(res.xml), xml: res.xml };
  }

  async price(r: PriceRequest) {
    const res = await this.call("OfferPriceRQ", priceRequest(r));
    return { ...readPrice(res.xml), xml: res.xml };
  }

  async seats(r: OfferOrOrder & { currency?: string; language?: string }) {
    const res = await this.call("SeatAvailabilityRQ", seatsRequest(r));
    return { ...readSeats(res.xml), xml: res.xml };
  }

  async services(r: OfferOrOrder & { taxonomyCodes?: string[]; currency?: string; language?: string }) {
    const res = await this.call("ServiceListRQ", servicesRequest(r));
    return { ...readServices(res.xml), xml: res.xml };
  }

  /**
   * OrderCreateRQ. The CorrelationID and TrxID are made once (or given, to resume a booking
   * whose answer was lost) and every retry sends the same bytes, so the gateway books once and
   * replays its answer. Signed when the client has a signing key (`sign` overrides).
   */
  async create(r: CreateRequest & { correlationId?: string; trxId?: string; sign?: boolean }) {
    const ids = { correlationId: r.correlationId ?? newId("ORDER"), trxId: r.trxId ?? newId("TRX") };
    const res = await this.call("OrderCreateRQ", createRequest(r), { ...ids, sign: r.sign });
    return { ...readOrderView(res.xml), xml: res.xml, request: res.request, ...ids, exchange: res.exchange };
  }

  async retrieve(r: OrderRef) {
    const res = await this.call("OrderRetrieveRQ", retrieveRequest(r));
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  async list(r: ListRequest = {}) {
    const res = await this.call("OrderListRQ", listRequest(r));
    return { ...readList(res.xml), xml: res.xml };
  }

  async history(r: OrderRef) {
    const res = await this.call("OrderHistoryRQ", historyRequest(r));
    return { ...readHistory(res.xml), xml: res.xml };
  }

  /** OrderChangeRQ paying a held order (idempotent under its CorrelationID and TrxID, like create). */
  async pay(r: OrderRef & { payment: CardPayment; correlationId?: string; trxId?: string }) {
    const res = await this.call("OrderChangeRQ", payRequest(r), { correlationId: r.correlationId ?? newId("PAY"), trxId: r.trxId ?? newId("TRX") });
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  /** OrderChangeRQ correcting a passenger's name. */
  async rename(r: Parameters<typeof renameRequest>[0]) {
    const res = await this.call("OrderChangeRQ", renameRequest(r), { correlationId: newId("RENAME"), trxId: newId("TRX") });
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  /** OrderReshopRQ: what cancelling the order refunds, as an offer to accept. */
  async cancelQuote(r: OrderRef) {
    const res = await this.call("OrderReshopRQ", cancelQuoteRequest(r));
    return { ...readReshop(res.xml), xml: res.xml };
  }

  /** OrderReshopRQ: extras (by taxonomy code) that can be added to the order. */
  async reshopServices(r: Parameters<typeof reshopServicesRequest>[0]) {
    const res = await this.call("OrderReshopRQ", reshopServicesRequest(r));
    return { ...readReshop(res.xml), xml: res.xml };
  }

  async quote(r: OrderRef & { offer: SelectedOffer }) {
    const res = await this.call("OrderQuoteRQ", quoteRequest(r), { correlationId: newId("QUOTE"), trxId: newId("TRX") });
    return { ...readReshop(res.xml), xml: res.xml };
  }

  async rules(r: OrderRef) {
    const res = await this.call("OrderRulesRQ", rulesRequest(r));
    return { ...readRules(res.xml), xml: res.xml };
  }

  /** OrderChangeRQ accepting a cancel quote. */
  async acceptCancel(r: OrderRef & { offerId: string }) {
    const res = await this.call("OrderChangeRQ", acceptCancelRequest(r), { correlationId: newId("CANCEL"), trxId: newId("TRX") });
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  /** Cancels the whole order: the cancel quote, then its acceptance. */
  async cancel(r: OrderRef) {
    const quote = await this.cancelQuote(r);
    const offer = quote.offers[0];
    if (!offer) throw new Error(`OrderReshopRS for ${r.orderId} holds no cancel offer`);
    const view = await this.acceptCancel({ ...r, offerId: offer.offerId });
    return { quote, view };
  }

  /** Reads the Warnings of any answer. */
  static warnings(xml: string) {
    return answer(xml).warnings;
  }
}
