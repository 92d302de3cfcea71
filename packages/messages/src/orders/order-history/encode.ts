import { NS, c, el, type Child, type XNode } from "@ndc/xml";
import { formatMoney } from "../../shopping/shared/view/money";
import { orderDataLists } from "../shared/encode/data-lists";
import { order } from "../shared/encode/order";
import { paymentFunctionsContent } from "../shared/encode/payment";
import type { ChangeActorView, ChangeDetailsView, OrderChangeOperationView, OrderHistoryView, OrderVersionView } from "./view";

/**
 * IATA_OrderHistoryRS declares its Response content in the message namespace itself (no
 * prefix: the root's default namespace), while New and Old are ChangeDetailsType of the
 * *FullyOptional* common types; that prefix is declared on each New/Old element.
 */
const o = (name: string, ...children: Child[]): XNode => el(`opt:${name}`, null, ...children);

/**
 * The common-types tree OrderViewRS writes, moved into the FullyOptional namespace New and Old
 * are declared in (ChangeDetailsType: DataLists, then Order as OrderedOrderType): the same
 * elements in the same order, so the one OrderViewRS encoder serves both answers.
 */
function fullyOptional(n: XNode | null): XNode | null {
  if (!n) return null;
  const kids = (n.children as unknown[]).flat(Infinity).map((k) => (k && typeof k === "object" ? fullyOptional(k as XNode) : k)) as Child[];
  // A copy, never `shared`: the text cached for a shared node is the common-types one.
  return { name: n.name.startsWith("cns:") ? `opt:${n.name.slice(4)}` : n.name, ...(n.attrs ? { attrs: n.attrs } : {}), children: kids };
}

function details(name: "New" | "Old", d: ChangeDetailsView, orderId: string): XNode {
  if (d.order) {
    // ChangeDetailsType: DataLists, Order, then the change's own PaymentFunctions (PaymentFunctionsOrderType).
    const payments = (d.payments ?? []).map((p) => fullyOptional(c("PaymentFunctions", paymentFunctionsContent(orderId, p))));
    return el(name, { "xmlns:opt": NS.commonFullyOptional }, fullyOptional(orderDataLists(d.order.dataLists)), fullyOptional(order(d.order)), payments);
  }
  const pax = d.passengers?.length
    ? o(
        "DataLists",
        o(
          "PaxList",
          d.passengers.map((p) =>
            o(
              "Pax",
              o("Individual", p.gender ? o("GenderCode", p.gender) : null, p.givenNames.map((g) => o("GivenName", g)), o("Surname", p.surname), p.title ? o("TitleName", p.title) : null),
              o("PaxID", p.paxId),
              o("PTC", p.ptc),
            ),
          ),
        ),
      )
    : null;
  return el(
    name,
    { "xmlns:opt": NS.commonFullyOptional },
    pax,
    o(
      "Order",
      o("OrderID", orderId),
      (d.items ?? []).map((i) =>
        o("OrderItem", o("OrderItemID", i.orderItemId), i.description ? o("Service", o("DescText", i.description)) : null, i.statusCode ? o("StatusCode", i.statusCode) : null),
      ),
      d.statusCode ? o("StatusCode", d.statusCode) : null,
      d.totalPrice ? o("TotalPrice", el("opt:TotalAmount", { CurCode: d.totalPrice.currency }, formatMoney(d.totalPrice))) : null,
    ),
  );
}

function operation(c: OrderChangeOperationView, orderId: string): XNode {
  return el(
    "ChangeOperation",
    null,
    el("ChangeDateTime", null, c.at),
    el("ChangeTypeCode", null, c.typeCode),
    c.new ? details("New", c.new, orderId) : null,
    c.old ? details("Old", c.old, orderId) : null,
    el("ReasonCode", null, c.reasonCode),
  );
}

/** Who made the change: one DistributionChainLink (the seller's agency, or the carrier with its staff agent). */
function actor(a: ChangeActorView): XNode {
  return el(
    "DistributionChain",
    null,
    c("DistributionChainLink", c("Ordinal", 1), c("OrgRole", a.role), c("ParticipatingOrg", c("OrgID", a.orgId)), a.salesAgentId ? c("SalesAgent", c("SalesAgentID", a.salesAgentId)) : null),
  );
}

function version(v: OrderVersionView, orderId: string): XNode {
  if (v.changes.length === 0) throw new Error(`Version ${v.versionNumber} lists no change.`);
  return el(
    "ChangeGroup",
    null,
    el("ChangeOperationGroup", null, v.changes.map((op) => operation(op, orderId)), v.actor ? actor(v.actor) : null, el("OrderVersionNumber", null, v.versionNumber)),
  );
}

/** The Response element of IATA_OrderHistoryRS: one ChangeGroup per version, oldest first. */
export function encodeOrderHistoryRS(v: OrderHistoryView): XNode {
  return el("Response", null, v.versions.map((ver) => version(ver, v.orderId)), el("OrderRefID", null, v.orderId));
}
