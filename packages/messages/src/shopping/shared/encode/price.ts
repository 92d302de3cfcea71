import { c, cOpt, el, type XNode } from "@ndc/xml";
import type { AdjustmentView, FeeView, PriceView, TaxView } from "../view/common";
import { formatMoney, type Money } from "../view/money";

/** An AmountType element: the decimal string with CurCode. */
export function amount(name: string, m: Money): XNode {
  return el(`cns:${name}`, { CurCode: m.currency }, formatMoney(m));
}

/** The total of one price's lines (TotalTaxAmount, DiscountAmount); all lines share its currency. */
export function sumLines(items: Money[], like: Money): Money {
  let minor = 0;
  for (const m of items) {
    if (m.currency !== like.currency || m.decimals !== like.decimals) {
      throw new RangeError(`Price lines mix ${m.currency} and ${like.currency}.`);
    }
    minor += m.minor;
  }
  return { minor, currency: like.currency, decimals: like.decimals };
}

/** DesigText is CodesetValueTextType, 1 to 15 characters: a longer code is left out, not cut. */
function desig(code: string | undefined): XNode | null {
  return code && code.length <= 15 ? c("DesigText", code) : null;
}

function fee(f: FeeView): XNode {
  return c("Fee", amount("Amount", f.amount), c("DescText", f.label), desig(f.code));
}

function tax(t: TaxView): XNode {
  return c("Tax", amount("Amount", t.amount), c("TaxCode", t.code), cOpt("TaxName", t.name));
}

/**
 * PriceType holds a single Discount, so several discount rules become one Discount whose
 * DiscountAmount is their sum and whose DiscountContext lists each rule (KeyText rule id,
 * ValueText "<name>: <amount>"). Surcharge repeats, so each rule is its own Surcharge.
 */
function discount(ds: AdjustmentView[], like: Money): XNode | null {
  if (ds.length === 0) return null;
  const total = sumLines(ds.map((d) => d.amount), like);
  const single = ds.length === 1 ? ds[0]! : undefined;
  return c(
    "Discount",
    c("DescText", ds.map((d) => d.name).join("; ")),
    amount("DiscountAmount", total),
    ds.map((d) => c("DiscountContext", c("KeyText", d.ruleId), c("ValueText", `${d.name}: ${formatMoney(d.amount)} ${d.amount.currency}`))),
    single?.percent !== undefined ? c("DiscountPercent", single.percent) : null,
  );
}

function surcharge(s: AdjustmentView): XNode {
  return c(
    "Surcharge",
    c("Breakdown", amount("Amount", s.amount), c("DescText", s.name), desig(s.ruleId), s.percent !== undefined ? c("Percent", s.percent) : null),
    amount("TotalAmount", s.amount),
  );
}

/** PriceType under the given element name (Price, TotalPrice, UnitPrice). Children in schema order. */
export function price(name: string, p: PriceView): XNode {
  return c(
    name,
    p.base ? amount("BaseAmount", p.base) : null,
    discount(p.discounts ?? [], p.total),
    (p.fees ?? []).map(fee),
    (p.surcharges ?? []).map(surcharge),
    p.taxes.length > 0 ? c("TaxSummary", p.taxes.map(tax), amount("TotalTaxAmount", sumLines(p.taxes.map((t) => t.amount), p.total))) : null,
    amount("TotalAmount", p.total),
  );
}
