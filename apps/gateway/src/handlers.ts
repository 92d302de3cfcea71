import type { MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./handlers/deps";
import { airShoppingHandler } from "./handlers/air-shopping";
import { offerPriceHandler } from "./handlers/offer-price";
import { seatAvailabilityHandler } from "./handlers/seat-availability";
import { serviceListHandler } from "./handlers/service-list";
import { orderListHandler } from "./handlers/order-list";
import { orderHistoryHandler } from "./handlers/order-history";
import { orderChangeHandler } from "./handlers/order-change";
import { orderCreateHandler } from "./handlers/order-create";
import { orderRetrieveHandler } from "./handlers/order-retrieve";
import { orderReshopHandler } from "./handlers/order-reshop";
import { orderQuoteHandler } from "./handlers/order-quote";
import { orderRulesHandler } from "./handlers/order-rules";
import { serviceDeliveryHandler } from "./handlers/service-delivery";
import { paymentClearanceHandler } from "./handlers/payment-clearance";

/**
 * Message handlers by message name. A message without one answers message_not_available
 * (501) with its paired root; each business issue adds its handlers here, one line each.
 */
export function messageHandlers(deps: HandlerDeps): Map<string, MessageHandler> {
  const handlers = new Map<string, MessageHandler>();
  void deps;
  handlers.set("AirShoppingRQ", airShoppingHandler(deps));
  handlers.set("OfferPriceRQ", offerPriceHandler(deps));
  handlers.set("SeatAvailabilityRQ", seatAvailabilityHandler(deps));
  handlers.set("ServiceListRQ", serviceListHandler(deps));
  handlers.set("OrderListRQ", orderListHandler(deps));
  handlers.set("OrderHistoryRQ", orderHistoryHandler(deps));
  handlers.set("OrderChangeRQ", orderChangeHandler(deps));
  handlers.set("OrderCreateRQ", orderCreateHandler(deps));
  handlers.set("OrderRetrieveRQ", orderRetrieveHandler(deps));
  handlers.set("OrderReshopRQ", orderReshopHandler(deps));
  handlers.set("OrderQuoteRQ", orderQuoteHandler(deps));
  handlers.set("OrderRulesRQ", orderRulesHandler(deps));
  handlers.set("ServiceDeliveryRQ", serviceDeliveryHandler(deps));
  handlers.set("PaymentClearanceRQ", paymentClearanceHandler(deps));
  return handlers;
}
