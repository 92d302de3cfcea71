import type { CabinView, SeatMapView, SeatProfileView, SeatRowView, SeatView } from "@ndc/messages";
import type { Money, PricedSeatMap, Seat } from "@ndc/supply";
import type { Localiser } from "../localisation";
import { cabinName, cabinTypeCode } from "../services/flight-lists";

/** A seat offered for sale: the a-la-carte item that sells it and its price. */
export interface SeatForSale {
  offerItemId: string;
  seat: Seat;
  price: Money;
}

/** Seat characteristics that describe where a seat is; the rest describe the row or the sale. */
const POSITION = new Set(["W", "A", "9"]);

/**
 * Seat profiles group seats with the same characteristics; each carries the characteristics'
 * descriptions in the content language (seat descriptions are airline content, spec 4.8 rule 1).
 */
export class SeatProfiles {
  private readonly byKey = new Map<string, SeatProfileView>();
  constructor(private readonly lang: Localiser) {}

  idFor(characteristics: readonly string[]): string {
    const key = characteristics.join("-");
    let p = this.byKey.get(key);
    if (!p) {
      p = { seatProfileId: `SP-${key}`, characteristics: [...characteristics], descriptions: characteristics.map((c) => this.lang.text(`seat.${c}`)) };
      this.byKey.set(key, p);
    }
    return p.seatProfileId;
  }

  all(): SeatProfileView[] {
    return [...this.byKey.values()];
  }
}

/**
 * One flight's SeatMap view. `sellable(seat)` decides whether a free seat is sold here
 * (a seat of another cabin than the one booked is shown Blocked: not for sale with this fare)
 * and names the item that sells it; occupied seats have no item.
 */
export function seatMapView(
  map: PricedSeatMap,
  paxSegmentId: string,
  legId: string,
  profiles: SeatProfiles,
  lang: Localiser,
  sellable: (seat: Seat) => string | undefined,
  forSale: SeatForSale[],
): SeatMapView {
  const cabins: CabinView[] = map.cabins.map((cabin) => {
    const code = cabinTypeCode(cabin.cabin);
    const rows: SeatRowView[] = [];
    for (let row = cabin.firstRow; row <= cabin.lastRow; row++) {
      const seats = cabin.seats.filter((s) => s.row === row);
      const seatViews: SeatView[] = seats.map((s) => {
        const itemId = s.availability === "available" ? sellable(s) : undefined;
        if (itemId) forSale.push({ offerItemId: itemId, seat: s, price: s.price });
        return {
          column: s.column,
          availability: s.availability === "occupied" ? "Occupied" : itemId ? "Available" : "Blocked",
          characteristics: [...s.characteristics],
          seatProfileId: profiles.idFor(s.characteristics),
          offerItemIds: itemId ? [itemId] : [],
        };
      });
      rows.push({ number: row, characteristics: seats.some((s) => s.characteristics.includes("E")) ? ["E"] : [], seats: seatViews });
    }
    const first = cabin.seats.filter((s) => s.row === cabin.firstRow);
    return {
      cabinTypeCode: code,
      cabinName: cabinName(code, lang),
      deck: "Main",
      firstRow: cabin.firstRow,
      lastRow: cabin.lastRow,
      columns: cabin.columns.map((id) => ({ id, characteristics: (first.find((s) => s.column === id)?.characteristics ?? []).filter((c) => POSITION.has(c)) })),
      rows,
    };
  });
  return { paxSegmentId, datedOperatingLegIds: [legId], cabins };
}
