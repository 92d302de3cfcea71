import type { ProcessingView, WarningView } from "./common";
import type { DataListsView } from "./data-lists";
import type { ALaCarteOfferView, OfferView } from "./offers";

/**
 * What the domain hands the OfferPriceRS encoder: the re-priced offer (flights, seats and
 * services as its items, with firm prices, conditions and adjustments) and, optionally,
 * services still on sale with it (OtherOffers/ALaCarteOffer). Failures are an Error, not a view.
 */
/** A method a seller may pay the offer by: its IATA form-of-payment code and how (composed English). */
export interface PaymentMethodView {
  typeCode: string;
  remark: string;
}

export interface OfferPriceView {
  pricedOffer: OfferView;
  otherALaCarteOffers?: ALaCarteOfferView[];
  /** The methods the airline takes for this offer (PaymentFunctions/PaymentSupportedMethod), one PaymentFunctions each. */
  paymentMethods?: PaymentMethodView[];
  dataLists: DataListsView;
  processing?: ProcessingView;
  warnings: WarningView[];
}
