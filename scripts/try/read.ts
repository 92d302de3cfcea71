/** Reading the few values `npm run try` carries from one answer to the next (element text by local name). */

/** Every text of an element, in document order, whatever its prefix and attributes. */
export function all(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:cns:)?${name}(?: [^>]*)?>([^<]*)</(?:cns:)?${name}>`, "g"))].map((m) => m[1]!);
}

/** Every block (outer XML) of an element. */
export function blocks(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:cns:)?${name}>[\\s\\S]*?</(?:cns:)?${name}>`, "g"))].map((m) => m[0]);
}

export interface ShoppedOffer {
  offerId: string;
  itemIds: string[];
  total: string;
}

/** The first flight offer of an AirShoppingRS: its id, its items and its total. */
export function firstOffer(airShoppingRS: string): ShoppedOffer {
  const offer = blocks(airShoppingRS, "Offer")[0];
  if (!offer) throw new Error("AirShoppingRS holds no Offer");
  return {
    offerId: all(offer, "OfferID")[0]!,
    itemIds: all(offer, "OfferItemID"),
    total: totalPrice(offer),
  };
}

/** The TotalAmount of the first TotalPrice in `xml`: its last one, after any fee or tax amounts nested before it. */
export function totalPrice(xml: string): string {
  const amounts = all(blocks(xml, "TotalPrice")[0] ?? "", "TotalAmount");
  if (!amounts.length) throw new Error("no TotalPrice");
  return amounts[amounts.length - 1]!;
}

/** Amounts as integer minor units, never binary floats: "143.50" -> 14350. */
export function minor(amount: string): number {
  const [units, cents = ""] = amount.split(".");
  return Number(units) * 100 + Number(cents.padEnd(2, "0").slice(0, 2));
}

export const decimal = (minorUnits: number) => `${Math.trunc(minorUnits / 100)}.${String(minorUnits % 100).padStart(2, "0")}`;
