import { MAX_LEGS, SETTLEMENT_METHODS, type IntendedPayment, type LegRequest, type SettlementMethod } from "@ndc/payments";
import type { Money } from "@ndc/money";
import { checkText, type Envelope } from "@ndc/xml";
import { invalid, list, opt, optText, req, reqText, type Cursor } from "../../../shopping/shared/cursor";
import { amountOf } from "./amount";
import { intendedPayment } from "./intended-payment";
import { securePayment } from "./secure-payment";

// PaymentMethod choices the gateway cannot take (spec 2.5 names four kinds of leg).
const NOT_ACCEPTED = ["AccountableDoc", "IATA_EasyPay", "OfflinePayment"] as const;

function cardLeg(card: Cursor, amount: Money): LegRequest {
  // A 24.4 PaymentCard carries a PSP token in TokenizedCardID; card numbers were refused earlier.
  const token = optText(card, "TokenizedCardID");
  if (!token) throw invalid(`${card.path}/TokenizedCardID`, "A card is paid with a PSP token in TokenizedCardID.");
  // PAY3D2: the seller authenticated the payer and sends the results with the card.
  const authentication = securePayment(card);
  return { kind: "card", token, amount, ...(authentication ? { authentication } : {}) };
}

function settlementLeg(plan: Cursor, amount: Money, envelope: Envelope): LegRequest {
  const code = reqText(plan, "PaymentTypeCode");
  if (!(SETTLEMENT_METHODS as readonly string[]).includes(code)) {
    throw invalid(`${plan.path}/PaymentTypeCode`, "PaymentTypeCode of a SettlementPlan is CA (BSP), DP (ARC) or MS (direct bill).");
  }
  // The agency is the plan's IATA_Number, else the Seller of the DistributionChain (the auth
  // layer has already checked the caller may sell as that agency).
  const agencyId = optText(plan, "IATA_Number") ?? envelope.distributionChain?.find((l) => l.role === "Seller")?.orgId;
  if (!agencyId) throw invalid(`${plan.path}/IATA_Number`, "A settlement plan needs the agency: IATA_Number or a Seller in DistributionChain.");
  return { kind: "settlement", agencyId, method: code as SettlementMethod, amount };
}

function loyaltyLeg(r: Cursor, amount: Money): LegRequest {
  const account = req(r, "LoyaltyProgramAccount");
  const prog = req(account, "LoyaltyProgram");
  const programme = optText(opt(prog, "Carrier"), "AirlineDesigCode") ?? optText(prog, "ProgramCode");
  if (!programme) throw invalid(`${prog.path}/Carrier`, "The loyalty programme is named by Carrier/AirlineDesigCode or ProgramCode.");
  const memberAccount = reqText(account, "AccountNumber");
  // Points are redeemed only with the certificate the member issued (spec 4.4 rule 5).
  const certs = list(r, "CertificateNumber");
  if (certs.length === 0) throw invalid(`${r.path}/CertificateNumber`, "Points are redeemed with the member's redemption certificate (CertificateNumber).");
  if (certs.length > 1) throw invalid(certs[1]!.path, "One redemption certificate per loyalty leg.");
  const certificateId = certs[0]!.el.text.trim();
  if (!certificateId) throw invalid(certs[0]!.path, "CertificateNumber must not be empty.");
  checkText("CertificateNumber", certificateId, certs[0]!.path);
  return { kind: "loyalty", programme, memberAccount, certificateId, amount };
}

function leg(pf: Cursor, envelope: Envelope): LegRequest {
  const details = req(pf, "PaymentProcessingDetails");
  // 0.00 is read: a seller's system pays a change that costs nothing that way, and the domain
  // judges every amount against what is due (legsTaken, validateLegs), never the decoder.
  const amount = amountOf(req(details, "Amount"));
  const method = req(details, "PaymentMethod");
  const card = opt(method, "PaymentCard");
  if (card) return cardLeg(card, amount);
  const voucher = opt(method, "Voucher");
  if (voucher) return { kind: "voucher", code: reqText(voucher, "VoucherID"), amount };
  const plan = opt(method, "SettlementPlan");
  if (plan) return settlementLeg(plan, amount, envelope);
  const points = opt(method, "LoyaltyRedemption");
  if (points) return loyaltyLeg(points, amount);
  const other = NOT_ACCEPTED.map((n) => opt(method, n)).find((c) => c !== undefined);
  if (other) throw invalid(other.path, "The airline accepts PaymentCard (token), Voucher, SettlementPlan and LoyaltyRedemption.");
  throw invalid(method.path, "PaymentMethod needs PaymentCard, Voucher, SettlementPlan or LoyaltyRedemption.");
}

/** What Request/PaymentFunctions asks: legs paying now, or the one method named for paying later. */
export interface PaymentFunctionsRequest {
  legs: LegRequest[];
  intended?: IntendedPayment & { at: string };
}

/**
 * Request/PaymentFunctions (spec 2.5, 4.4 rule 4): one leg per PaymentFunctions with
 * PaymentProcessingDetails, at most four (the fifth is named in the error); or, for an order held
 * for payment, one PaymentFunctions naming only PaymentMethodCriteria (intended-payment.ts). The
 * two are not mixed: a request pays now or says how it will pay later.
 */
export function paymentFunctions(request: Cursor, envelope: Envelope): PaymentFunctionsRequest {
  const pfs = list(request, "PaymentFunctions");
  if (pfs.length > MAX_LEGS) throw invalid(pfs[MAX_LEGS]!.path, `A request combines at most ${MAX_LEGS} payment legs.`);
  const paying = pfs.filter((pf) => opt(pf, "PaymentProcessingDetails") || !opt(pf, "PaymentMethodCriteria"));
  const naming = pfs.filter((pf) => !paying.includes(pf));
  if (naming.length === 0) return { legs: paying.map((pf) => leg(pf, envelope)) };
  if (paying.length > 0) {
    throw invalid(`${naming[0]!.path}/PaymentProcessingDetails`, "A request pays now (PaymentProcessingDetails in every PaymentFunctions) or names the method it will pay by later (PaymentMethodCriteria alone), not both.");
  }
  if (naming.length > 1) throw invalid(naming[1]!.path, "An order held for payment names one intended method: one PaymentFunctions with PaymentMethodCriteria.");
  return { legs: [], intended: intendedPayment(naming[0]!) };
}

/**
 * Request/PaymentFunctions -> payment legs, where only paying now is meaningful (OrderChangeRQ:
 * a method named without paying would pay nothing). Empty when the request carries none.
 */
export function paymentLegs(request: Cursor, envelope: Envelope): LegRequest[] {
  const { legs, intended } = paymentFunctions(request, envelope);
  if (intended) throw invalid(`${intended.at}/PaymentProcessingDetails`, "PaymentMethodCriteria alone pays nothing: pay with PaymentProcessingDetails (Amount and PaymentMethod).");
  return legs;
}
