import type { ProcessingView, WarningView } from "./common";
import type { DataListsView } from "./data-lists";
import type { ALaCarteOfferView } from "./offers";

/**
 * What the domain hands the SeatAvailabilityRS encoder. Seat prices live in `aLaCarteOffer`:
 * a seat for sale lists the OfferItemIDs that sell it; a seat sold for nothing refers to an
 * item whose UnitPrice total is zero. No passenger data beyond PaxID/PTC is ever in here.
 */
export interface SeatAvailabilityView {
  aLaCarteOffer?: ALaCarteOfferView;
  dataLists: DataListsView;
  /** One per flight; 24.4 requires at least one (with no seat map to show, answer an Error). */
  seatMaps: SeatMapView[];
  processing?: ProcessingView;
  warnings: WarningView[];
}

export interface SeatMapView {
  paxSegmentId: string;
  datedOperatingLegIds?: string[];
  cabins: CabinView[];
}

export interface CabinView {
  cabinTypeCode: string;
  /** Cabin name in the content language (airline content). */
  cabinName?: string;
  deck?: "Lower" | "Main" | "Upper";
  firstRow: number;
  lastRow: number;
  columns: { id: string; characteristics: string[] }[];
  rows: SeatRowView[];
  /** Galleys, lavatories, exits: CabinComponent (PADIS 9978 code, the row, Before/After it, the columns beside). */
  components?: CabinComponentView[];
}

export interface CabinComponentView {
  code: string;
  row: number;
  position?: "Before" | "After";
  columns: string[];
}

export interface SeatRowView {
  number: number;
  /** PADIS 9825-style row characteristics, e.g. E (exit row). */
  characteristics: string[];
  seats: SeatView[];
}

/**
 * Availability is rendered as OccupationStatusCode (PADIS 9865): Available F, Occupied O,
 * Blocked Z (not for sale on this channel).
 */
export interface SeatView {
  column: string;
  availability: "Available" | "Occupied" | "Blocked";
  /** PADIS 9825 seat characteristics, e.g. W window, A aisle, L extra legroom. */
  characteristics: string[];
  seatProfileId?: string;
  offerItemIds: string[];
}
