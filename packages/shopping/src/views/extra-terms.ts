import type { ExtraTermsView } from "../model";

/**
 * What a seller may do with an extra once bought, stated on every a-la-carte offer item
 * (ALaCarteOfferItem CancelRestrictions/ChangeRestrictions, issue 20 item 9). The rules are the
 * orders domain's (docs/servicing.md, "Cancelling items" and "Changing a seat"): an extra is
 * cancelled alone with its whole amount back and no fee, when the order's fare allows
 * cancellation at all (so the flag is not stated: it depends on the fare it is bought with); a
 * service is not changed, a seat is replaced by buying another (the old one's price kept).
 * Frozen and shared, so the response writers keep their bytes.
 */
export const SERVICE_TERMS: ExtraTermsView = Object.freeze({
  cancel: Object.freeze({ text: "Cancelled alone with a full refund and no fee, while the fare it is bought with allows cancellation." }),
  change: Object.freeze({ allowed: false, text: "Not changed once bought: cancel it and buy another." }),
});

export const SEAT_TERMS: ExtraTermsView = Object.freeze({
  cancel: SERVICE_TERMS.cancel,
  change: Object.freeze({ allowed: true, text: "Replaced by buying another seat on the same flight; the replaced seat's price is not refunded." }),
});
