import { INTENDED_METHODS, isIntendedTypeCode, type IntendedPayment } from "@ndc/payments";
import { invalid, list, optText, req, reqText, type Cursor } from "../../../shopping/shared/cursor";

const CODES = Object.keys(INTENDED_METHODS).join(", ");

/**
 * One PaymentFunctions naming only the method the passenger will pay by (24.4
 * PaymentFunctionsCreateType: OfferAssociation*, PaymentMethodCriteria, no
 * PaymentProcessingDetails): PaymentTypeCode (PAYT), optionally PaymentBrandCode, and the offers
 * it is for. Other preferences (ClearanceCriteria, PrefLevel...) are not read.
 */
export function intendedPayment(pf: Cursor): IntendedPayment & { at: string } {
  const criteria = req(pf, "PaymentMethodCriteria");
  const typeCode = reqText(criteria, "PaymentTypeCode");
  if (!isIntendedTypeCode(typeCode)) {
    throw invalid(`${criteria.path}/PaymentTypeCode`, `PaymentTypeCode ${typeCode.slice(0, 8)} is not a method this airline takes a later payment by: ${CODES}.`);
  }
  const brand = optText(criteria, "PaymentBrandCode");
  if (brand !== undefined && (INTENDED_METHODS[typeCode].kind !== "card" || !/^[A-Z0-9]{2}$/.test(brand))) {
    throw invalid(`${criteria.path}/PaymentBrandCode`, "PaymentBrandCode names a card brand (two letters, e.g. VI), with PaymentTypeCode CC.");
  }
  const offerIds = list(pf, "OfferAssociation").map((a) => reqText(a, "OfferRefID"));
  return { typeCode, ...(brand ? { brand } : {}), offerIds, at: pf.path };
}
