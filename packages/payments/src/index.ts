// @ndc/payments: the payment ledger domain (spec 2.5, 3, 4.4 rules 4-7). No HTTP, no XML.
export type { LegKind, LegRequest, LegState, PaymentLeg, SettlementMethod } from "./legs/types";
export { SETTLEMENT_METHODS } from "./legs/types";
export { refuseCardData, containsCardNumber, luhnValid } from "./legs/card-data";
export { validateLeg, validateLegs, MAX_LEGS } from "./legs/validate";
export { DECLINE_REASONS, isDeclineReason, type DeclineReason } from "./psp/decline-reasons";
export { TEST_TOKENS, lookupToken, type TestToken, type TokenBehaviour } from "./psp/tokens";
export { PspSimulator, PspTimeoutError, type PspAuthorisation, type PspOutcome } from "./psp/simulator";
export { PaymentLedger, type AuthoriseOutcome } from "./ledger/ledger";
export { OrderPayments, declineError, type AuthoriseAllResult, type RefundResult } from "./ledger/order-payments";
export { verifyChain, entryHash, GENESIS_HASH, type ChainCheck, type EntryType, type EntryInput } from "./ledger/hash-chain";
export { OWN_PROGRAMME, REDEMPTION_RATES, pointsNeeded, pointsValue } from "./loyalty/programme";
export { issueCertificate } from "./loyalty/certificates";
export { saleCommission, chargeCommission, commissionBase, type CommissionAgreement, type Commission } from "./commission/commission";
export { commissionAgreementFor, putCommissionAgreement, agreementRow } from "./commission/agreements";
export { paymentSummary, maskTail, SETTLEMENT_METHOD_NAMES, type PaymentSummary } from "./masking";
export { seedPayments, SANDBOX_AGENCY, SANDBOX_VOUCHERS, SANDBOX_SETTLEMENT_ACCOUNTS, SANDBOX_MEMBERS, SANDBOX_CERTIFICATES, SANDBOX_COMMISSION } from "./seed/sandbox";
export { SalePayments, type PlannedLeg, type SaleAuthorisation } from "./ledger/phased";
export { orderLegs } from "./ledger/leg-rows";
