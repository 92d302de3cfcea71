import type { CommissionAgreement, IntendedPayment, LegRequest } from "@ndc/payments";
import type { IdentityDocInput } from "@ndc/pii";
import type { ItemPick } from "@ndc/shopping";
import type { StoreDb } from "@ndc/store";
import type { Seller } from "../state";

/**
 * OrderCreateRQ as the domain takes it: what the XML decoder hands over, already shaped.
 * Every form CreateOrder allows (AcceptOrderItemList/CreateOrderItem, AcceptSelectedQuotedOfferList)
 * comes down to a list of selected offers, each with its OwnerCode and the items taken from it.
 */
export interface OrderCreateInput {
  seller: Seller;
  /** PayloadAttributes/CorrelationID and TrxID: with the seller, they identify the creation. */
  correlationId: string;
  trxId: string;
  selections: OfferSelection[];
  /**
   * AcceptOrderItemList: the items named by OfferItemRefID alone (24.4 carries no OfferID there),
   * traced to their offers by the domain before anything is booked (create/item-list.ts); the
   * selections are then left empty by the caller.
   */
  orderItems?: OrderItemRef[];
  passengers: PassengerInput[];
  /** The order's contact (ContactInfo); a partner product is delivered to its email. */
  contact?: { email?: string; phone?: string };
  /** PaymentFunctions; absent or empty: held unpaid (ORDWPM). */
  payment?: LegRequest[];
  /** PaymentMethodCriteria alone: held for payment (ORDWPM) with the method the passenger will pay by recorded. */
  intendedPayment?: IntendedPayment;
  /** The seller's commission agreement (from its registration), for PAYCOM. */
  commissionAgreement?: CommissionAgreement;
  /**
   * Written in the order's own commit write, with the order's id (a verified request's signature
   * evidence, docs/signatures.md): both commit or neither does. Not part of what makes two
   * requests the same creation.
   */
  alsoInCommit?: (tx: StoreDb, orderId: string) => Promise<unknown>;
}

export interface OfferSelection {
  offerId: string;
  ownerCode: string;
  /**
   * The offer items taken, each with the PaxRefIDs given and the element naming it (one rule
   * for OfferPrice and OrderCreate: shopping's checkItemPicks). Absent takes every item once.
   */
  items?: ItemPick[];
  /** SelectedBundleServices per bundle item taken: the ServiceDefinition ids of the options chosen. */
  bundleOptions?: { offerItemId: string; serviceDefinitionIds: string[] }[];
}

/** One CreateOrderItem: its OfferItemRefID (absent when only OfferItemType was sent), its OwnerCode, and the element naming it. */
export interface OrderItemRef {
  offerItemId?: string;
  ownerCode: string;
  at: string;
}

export interface PassengerInput {
  /** The PaxID of the offer this passenger is. */
  paxId: string;
  title?: string;
  givenNames?: string[];
  surname: string;
  birthdate?: string;
  /** Individual/GenderCode as booked (F, M, U, X). */
  gender?: string;
  email?: string;
  phone?: string;
  loyalty?: { programme: string; account: string };
  identityDocs?: IdentityDocInput[];
}
