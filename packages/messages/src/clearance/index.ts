export { decodePaymentClearanceRQ, type PaymentClearanceRequest } from "./decode";
export { paymentClearanceNotif, encodePaymentClearanceRS, clearanceChildren, CLEARANCE_STATUS_CODES, SETTLEMENT_PLAN_BRAND, PROCESS_RULE } from "./encode";
