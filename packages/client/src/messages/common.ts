import { all, amountOf, at, kids, parseXml, text, textAt, type Amount, type Element } from "../xml/dom";
import { el } from "../xml/envelope";

/** A Warning of an answer: the code (from the gateway's catalogue) and its English text. */
export interface Warning {
  code: string;
  text: string;
}

/** Every answer's root element and its Warnings. */
export interface Answer {
  root: Element;
  warnings: Warning[];
}

export function answer(xml: string): Answer {
  const root = parseXml(xml).documentElement!;
  const response = at(root, "Response") ?? root;
  const warnings = kids(response, "Warning").map((w) => ({ code: textAt(w, "Code") ?? "", text: textAt(w, "DescText") ?? "" }));
  return { root, warnings };
}

/** The first Error of an answer, if it is one. */
export function errorOf(xml: string): { code: string; text: string; element?: string } | undefined {
  if (!/<(?:\w+:)?Error[\s>]/.test(xml)) return undefined;
  const root = parseXml(xml).documentElement!;
  const e = all(root, "Error")[0];
  if (!e) return undefined;
  return { code: textAt(e, "Code") ?? "", text: textAt(e, "DescText") ?? "", element: textAt(e, "TagText") };
}

/** An item the seller selects from an offer, for the passengers it names. */
export interface SelectedItem {
  offerItemId: string;
  paxRefIds: string[];
  /** A-la-carte quantity (services); omitted for flights and seats. */
  qty?: number;
}

export interface SelectedOffer {
  offerId: string;
  ownerCode: string;
  items: SelectedItem[];
}

export function selectedItems(items: readonly SelectedItem[]): string {
  return items
    .map(
      (i) =>
        `<cns:SelectedOfferItem>${el("OfferItemRefID", i.offerItemId)}${i.paxRefIds.map((p) => el("PaxRefID", p)).join("")}${
          i.qty === undefined ? "" : `<cns:SelectedALaCarteOfferItem>${el("Qty", i.qty)}</cns:SelectedALaCarteOfferItem>`
        }</cns:SelectedOfferItem>`,
    )
    .join("");
}

export function responseParameters(o: { currency?: string; language?: string }): string {
  if (!o.currency && !o.language) return "";
  return `<cns:ResponseParameters>${o.currency ? `<cns:CurParameter>${el("CurCode", o.currency)}</cns:CurParameter>` : ""}${
    o.language ? `<cns:LangUsage>${el("LangCode", o.language)}</cns:LangUsage>` : ""
  }</cns:ResponseParameters>`;
}

/** An offer item as the answers show it: its id, its passengers, its price. */
export interface OfferItem {
  offerItemId: string;
  paxRefIds: string[];
  /** Total for a flight item, unit price for an a-la-carte one. */
  price?: Amount;
}

export function readOfferItem(item: Element): OfferItem {
  const price = amountOf(at(item, "Price", "TotalAmount") ?? at(item, "UnitPrice", "TotalAmount"));
  const paxRefIds = [...new Set([...kids(item, "FareDetail"), ...kids(item, "Service"), ...kids(item, "Eligibility")].flatMap((e) => kids(e, "PaxRefID").map((p) => text(p)!)))];
  return { offerItemId: textAt(item, "OfferItemID") ?? "", paxRefIds, price };
}

/** The last TotalAmount of a TotalPrice: the total, after any fee or tax amounts nested before it. */
export function totalOf(parent: Element | undefined): Amount | undefined {
  const tp = at(parent, "TotalPrice");
  return tp ? amountOf(kids(tp, "TotalAmount").at(-1)) : undefined;
}

export type { Amount };
