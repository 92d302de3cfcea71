import { writeKept, type ByteWriter, type KeptBytes } from "@ndc/xml";
import type { AdjustmentView, PriceView } from "../view/common";
import { formatMoney, type Money } from "../view/money";
import { sumLines } from "../encode/price";

// The streaming twin of ../encode/price.ts (same elements, order and bytes).

/** An AmountType element: the decimal string with CurCode. */
export function amount(w: ByteWriter, name: string, m: Money): void {
  w.start(name, { CurCode: m.currency });
  w.raw(formatMoney(m));
  w.end(name);
}

/** DesigText is CodesetValueTextType, 1 to 15 characters: a longer code is left out, not cut. */
function desig(w: ByteWriter, code: string | undefined): void {
  if (code && code.length <= 15) w.leaf("cns:DesigText", code);
}

function discount(w: ByteWriter, ds: AdjustmentView[], like: Money): void {
  if (ds.length === 0) return;
  const single = ds.length === 1 ? ds[0]! : undefined;
  w.start("cns:Discount");
  w.leaf("cns:DescText", ds.map((d) => d.name).join("; "));
  amount(w, "cns:DiscountAmount", sumLines(ds.map((d) => d.amount), like));
  for (const d of ds) {
    w.start("cns:DiscountContext");
    w.leaf("cns:KeyText", d.ruleId);
    w.leaf("cns:ValueText", `${d.name}: ${formatMoney(d.amount)} ${d.amount.currency}`);
    w.end("cns:DiscountContext");
  }
  if (single?.percent !== undefined) w.leaf("cns:DiscountPercent", single.percent);
  w.end("cns:Discount");
}

/** Bytes of frozen prices (an offer's, kept with its parts across requests), per element name. */
const kept = new Map<string, KeptBytes<PriceView>>();
const writers = new Map<string, (w: ByteWriter, p: PriceView) => void>();

/** PriceType under the given element name (cns:Price, cns:TotalPrice, cns:UnitPrice). */
export function price(w: ByteWriter, name: string, p: PriceView): void {
  let byView = kept.get(name);
  if (!byView) {
    kept.set(name, (byView = new WeakMap() as KeptBytes<PriceView>));
    writers.set(name, (x, v) => writePrice(x, name, v));
  }
  writeKept(w, byView, p, writers.get(name)!);
}

function writePrice(w: ByteWriter, name: string, p: PriceView): void {
  w.start(name);
  if (p.base) amount(w, "cns:BaseAmount", p.base);
  discount(w, p.discounts ?? [], p.total);
  for (const f of p.fees ?? []) {
    w.start("cns:Fee");
    amount(w, "cns:Amount", f.amount);
    w.leaf("cns:DescText", f.label);
    desig(w, f.code);
    w.end("cns:Fee");
  }
  for (const s of p.surcharges ?? []) {
    w.start("cns:Surcharge");
    w.start("cns:Breakdown");
    amount(w, "cns:Amount", s.amount);
    w.leaf("cns:DescText", s.name);
    desig(w, s.ruleId);
    if (s.percent !== undefined) w.leaf("cns:Percent", s.percent);
    w.end("cns:Breakdown");
    amount(w, "cns:TotalAmount", s.amount);
    w.end("cns:Surcharge");
  }
  if (p.taxes.length > 0) {
    w.start("cns:TaxSummary");
    for (const t of p.taxes) {
      w.start("cns:Tax");
      amount(w, "cns:Amount", t.amount);
      w.leaf("cns:TaxCode", t.code);
      w.opt("cns:TaxName", t.name);
      w.end("cns:Tax");
    }
    amount(w, "cns:TotalTaxAmount", sumLines(p.taxes.map((t) => t.amount), p.total));
    w.end("cns:TaxSummary");
  }
  amount(w, "cns:TotalAmount", p.total);
  w.end(name);
}
