import { GatewayError } from "@ndc/errors";
import { fromDecimalString, isCurrencyCode } from "@ndc/money";
import { checkText, NS, type Envelope, type XmlElement } from "@ndc/xml";

/**
 * The decoded IATA_PaymentClearanceRQ (2022.1, docs/messages/PaymentClearanceRQ.md): one
 * Clearance asking to clear one settlement-plan payment, named by the ClearanceID its
 * payment.clearance notification gave, for exactly its amount. The root is read by its own form
 * (no DistributionChain: the seller is the token's agency); every element below it is checked
 * against IATA_PaymentClearanceRQ.xsd's sequences here, at decode, with the element at fault.
 */
export interface PaymentClearanceRequest {
  clearanceId: string;
  amountMinor: number;
  currency: string;
  /** The payee Carrier's codes (checked against this airline by the handler). */
  payee: { accountingCode: string; designator: string };
}

interface Part {
  name: string;
  required?: boolean;
  /** A choice: exactly one of these names. */
  choice?: readonly string[];
}

const invalid = (path: string, detail: string) => new GatewayError("request_invalid", { detail, element: path });

/** Children of `el` against the schema's sequence: known names only, in order, each once, the required present. */
function sequence(el: XmlElement, path: string, parts: readonly Part[], ns: string = NS.clearanceCommon): Map<string, { el: XmlElement; path: string }> {
  const found = new Map<string, { el: XmlElement; path: string }>();
  let last = -1;
  for (const c of el.children) {
    const at = parts.findIndex((p) => (p.choice ? p.choice.includes(c.name) : p.name === c.name));
    const here = `${path}/${c.name.slice(0, 64)}`;
    if (at < 0 || c.ns !== ns) throw invalid(here, `${el.name} holds ${parts.map((p) => p.choice?.join(" or ") ?? p.name).join(", ")} (in that order, in the 2022.1 clearance namespace).`);
    if (at <= last) throw invalid(here, `${c.name} is out of place or repeated: ${el.name} holds ${parts.map((p) => p.choice?.join(" or ") ?? p.name).join(", ")}, in that order, each once.`);
    last = at;
    found.set(parts[at]!.name, { el: c, path: here });
  }
  for (const p of parts) if (p.required && !found.has(p.name)) throw invalid(`${path}/${p.choice?.[0] ?? p.name}`, `${p.choice?.join(" or ") ?? p.name} is required.`);
  return found;
}

function text(node: { el: XmlElement; path: string } | undefined): string | undefined {
  if (!node) return undefined;
  const t = node.el.text.trim();
  if (!t) throw invalid(node.path, `${node.el.name} must not be empty.`);
  return checkText(node.el.name, t, node.path);
}

const CARRIER: readonly Part[] = [{ name: "AirlineAccountingCode", required: true }, { name: "AirlineDesigCode", required: true }, { name: "Name" }];
const ORG: readonly Part[] = [{ name: "Name" }, { name: "OrgID", required: true }];
const AGENCY: readonly Part[] = [{ name: "IATA_Number", required: true }, { name: "Name" }];

/** ClearancePayeeData / ClearancePayerData: the party (Carrier, Org or TravelAgency) and its reconciliation id. */
function party(node: { el: XmlElement; path: string }, role: "Payee" | "Payer"): { carrier?: { accountingCode: string; designator: string } } {
  const data = sequence(node.el, node.path, [{ name: `Clearance${role}`, required: true }, { name: `Clearance${role}ReconciliationID` }]);
  text(data.get(`Clearance${role}ReconciliationID`));
  const who = data.get(`Clearance${role}`)!;
  const one = sequence(who.el, who.path, [{ name: "party", required: true, choice: ["Carrier", "Org", "TravelAgency"] }]).get("party")!;
  const fields = sequence(one.el, one.path, one.el.name === "Carrier" ? CARRIER : one.el.name === "Org" ? ORG : AGENCY);
  for (const f of fields.values()) text(f);
  const iata = fields.get("IATA_Number");
  // TravelAgency/IATA_Number is a NumberType (xs:decimal) here, not the NDC ID_Type.
  if (iata && !/^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(iata.el.text.trim())) throw invalid(iata.path, "IATA_Number must be a number (2022.1 NumberType).");
  if (one.el.name !== "Carrier") return {};
  return { carrier: { accountingCode: text(fields.get("AirlineAccountingCode"))!, designator: text(fields.get("AirlineDesigCode"))! } };
}

export function decodePaymentClearanceRQ(envelope: Envelope): PaymentClearanceRequest {
  const root = envelope.root;
  const clearances = root.children.filter((c) => c.name === "Clearance" && c.ns === NS.clearanceRQ);
  // One payment per request (spec 4.7): a batch would need an answer per clearance the gateway does not give.
  if (clearances.length !== 1) throw invalid("Clearance[2]", "The gateway clears one payment per PaymentClearanceRQ: send one Clearance.");
  const countEl = root.children.find((c) => c.name === "ClearanceCount" && c.ns === NS.clearanceRQ);
  const count = countEl?.text.trim() ?? "";
  if (!/^[+-]?[0-9]+$/.test(count) || Number(count) !== clearances.length) throw invalid("ClearanceCount", "ClearanceCount must be the number of Clearance elements, 1.");

  const cl = sequence(clearances[0]!, "Clearance", [
    { name: "AgreementID" },
    { name: "ClearanceData", required: true },
    { name: "CommitmentID" },
    { name: "IATA_EasyPay" },
    { name: "PaymentBrandCode", required: true },
  ]);
  text(cl.get("AgreementID"));
  text(cl.get("CommitmentID"));
  if (cl.has("IATA_EasyPay")) throw invalid(cl.get("IATA_EasyPay")!.path, "Only settlement-plan payments (PaymentBrandCode IB) are cleared here; EasyPay is not.");
  const brand = text(cl.get("PaymentBrandCode"))!;
  if (brand !== "IB") throw invalid(cl.get("PaymentBrandCode")!.path, "Only settlement-plan payments are cleared here: PaymentBrandCode IB.");

  const dataNode = cl.get("ClearanceData")!;
  const data = sequence(dataNode.el, dataNode.path, [
    { name: "ClearanceID", required: true },
    { name: "ClearancePayeeData", required: true },
    { name: "ClearancePayeeSignature" },
    { name: "ClearancePayerData", required: true },
    { name: "ClearancePayerSignature" },
    { name: "NetClearanceAmount", required: true },
    { name: "PaymentCommitmentDateTime", required: true },
    { name: "ProcessRuleCode", required: true },
    { name: "RemittanceDate" },
  ]);
  for (const sig of ["ClearancePayeeSignature", "ClearancePayerSignature"]) {
    if (data.has(sig)) throw invalid(data.get(sig)!.path, "Signed clearance data is not accepted: the gateway verifies no SwO signature.");
  }
  const clearanceId = text(data.get("ClearanceID"))!;
  const payee = party(data.get("ClearancePayeeData")!, "Payee");
  party(data.get("ClearancePayerData")!, "Payer");
  if (!payee.carrier) throw invalid(`${data.get("ClearancePayeeData")!.path}/ClearancePayee/Carrier`, "The payee is the airline: ClearancePayee/Carrier with its accounting and designator codes.");
  text(data.get("PaymentCommitmentDateTime"));
  text(data.get("ProcessRuleCode"));
  text(data.get("RemittanceDate"));

  const amountNode = data.get("NetClearanceAmount")!;
  const currency = amountNode.el.attrs.CurCode?.trim() ?? "";
  if (!isCurrencyCode(currency)) throw invalid(amountNode.path, "NetClearanceAmount needs CurCode, an ISO 4217 currency the airline sells in.");
  let amountMinor: number;
  try {
    amountMinor = fromDecimalString(amountNode.el.text.trim(), currency).amount;
  } catch {
    throw invalid(amountNode.path, `NetClearanceAmount must be a decimal amount with at most the ${currency} minor digits.`);
  }
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw invalid(amountNode.path, "NetClearanceAmount must be positive.");
  return { clearanceId, amountMinor, currency, payee: payee.carrier };
}
