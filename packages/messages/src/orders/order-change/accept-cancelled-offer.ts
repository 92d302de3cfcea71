import { invalid, reqText, type Cursor } from "../../shopping/shared/cursor";
import type { OrderChange } from "./request";

const OWNER = /^[A-Z0-9]{2,3}$/;

/**
 * ChangeOrderChoice/AcceptCancelledOffer (AcceptCancelOfferType: OfferID, OwnerCode): the
 * seller accepts the cancel offer an OrderReshopRS gave (OfferID = its quote id). 24.4 has no
 * OrderCancelRQ; this is how a cancellation is committed (decision 0015).
 */
export function acceptCancelledOffer(accept: Cursor): OrderChange {
  const ownerCode = reqText(accept, "OwnerCode");
  if (!OWNER.test(ownerCode)) throw invalid(`${accept.path}/OwnerCode`, "OwnerCode is an airline designator of 2 or 3 letters or digits.");
  return { form: "acceptCancel", offerId: reqText(accept, "OfferID"), ownerCode };
}
