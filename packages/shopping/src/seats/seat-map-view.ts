import type { CabinView, SeatMapView, SeatProfileView, SeatRowView, SeatView } from "../model";
import type { PricedSeatMap, Seat } from "@ndc/supply";
import type { Money } from "@ndc/money";
import type { Localiser } from "../localisation";
import { cabinName, cabinTypeCode } from "../services/flight-lists";

/** A seat offered for sale: the a-la-carte item that sells it and its price. */
export interface SeatForSale {
  offerItemId: string;
  seat: Seat;
  price: Money;
}

/** A seat the booked order being shown holds: the order item that sells it and its passengers. */
export interface OwnSeat {
  orderItemId: string;
  paxIds: string[];
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

  /**
   * The profile of a booked order's own seat: the seat's characteristics, plus SeatKeywords naming
   * the order item that holds it and its passengers (docs/messages/SeatAvailabilityRQ.md). 24.4
   * has no "yours" seat status, and a profile is what a Seat can refer to.
   */
  ownFor(characteristics: readonly string[], own: OwnSeat): string {
    const id = `SP-OWN-${own.orderItemId}`;
    if (!this.byKey.has(id)) {
      this.byKey.set(id, {
        seatProfileId: id,
        characteristics: [...characteristics],
        descriptions: characteristics.map((c) => this.lang.text(`seat.${c}`)),
        keywords: [{ key: "OrderItemRefID", value: own.orderItemId }, ...own.paxIds.map((p) => ({ key: "PaxRefID", value: p }))],
      });
    }
    return id;
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
  /** A booked order's own seats: shown occupied (O), with their own-seat profile, never for sale. */
  own: (seat: Seat) => OwnSeat | undefined = () => undefined,
): SeatMapView {
  const cabins: CabinView[] = map.cabins.map((cabin) => {
    const code = cabinTypeCode(cabin.cabin);
    const rows: SeatRowView[] = [];
    for (let row = cabin.firstRow; row <= cabin.lastRow; row++) {
      const seats = cabin.seats.filter((s) => s.row === row);
      const seatViews: SeatView[] = seats.map((s) => {
        const mine = own(s);
        if (mine) return { column: s.column, availability: "Occupied", characteristics: [...s.characteristics], seatProfileId: profiles.ownFor(s.characteristics, mine), offerItemIds: [] };
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
      components: cabin.components.map((k) => ({ code: k.code, row: k.row, position: k.position, columns: [...(k.columns ?? [])] })),
    };
  });
  return { paxSegmentId, datedOperatingLegIds: [legId], cabins };
}
