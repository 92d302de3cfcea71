// @ndc/staff: the airline's staff (issue 12): accounts, TOTP, sessions, rights and the audit trail. No HTTP.
export { STAFF_ROLES, RIGHTS, may, isStaffRole, type StaffRole, type StaffRight } from "./roles";
export { base32Encode, base32Decode, hotp, totpAt, matchingStep, newTotpSecret, otpauthUri, stepAt, TOTP_STEP_SECONDS } from "./totp";
export { addStaff, listStaff, disableStaff, resetStaffPassword, StaffAccountError, PASSWORD_MIN, type StaffAccount } from "./accounts";
export { openSession, liveSession, endSession, csrfMatches, csrfTokenOf, SESSION_IDLE_MS, SESSION_ABSOLUTE_MS, type StaffSession } from "./sessions";
export { login, LOCK_AFTER_FAILURES, LOCK_MS, type LoggedIn, type LoginInput } from "./login";
export { appendAudit, recordAudit, queryAudit, verifyAudit, type AuditEntry, type AuditRow, type AuditAction, type AuditOutcome, type AuditQuery, type AuditCheck } from "./audit";
export { auditChain, auditMac, legacyAuditHash, type AuditChain } from "./audit-chain";
export { readAnchor, type Anchor } from "./audit-anchor";
export { statedReason, reasonText, visibleLength, REASON_CATEGORIES, REASON_MIN, REASON_MAX, type ReasonCategory, type StatedReason } from "./reason";
export { presentStaff, spendTotpStep, presentWho, CLI_REMOTE, type PresentStaff } from "./present";
export { auditClearOriginal, documentsInOriginal } from "./clear-original";
export { qrModules, terminalQr } from "./enrolment-qr";
export { takeItem, claimsOf, type Claim, type StaffQueue } from "./claims";
export { staffAccounts, staffSessions, staffAudit, staffQueueClaims } from "./tables/staff";
