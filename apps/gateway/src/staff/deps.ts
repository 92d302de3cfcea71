import type { FailureBudget } from "@ndc/auth";
import type { Clock } from "@ndc/clock";
import type { GatewayMode } from "@ndc/config";
import type { Logger } from "@ndc/log";
import type { OrdersService } from "@ndc/orders";
import type { FieldKey } from "@ndc/pii";
import type { AuditChain } from "@ndc/staff";
import type { Store } from "@ndc/store";
import type { FigureSources } from "../metrics/figures";

/** What the staff console works with; built once by bootGateway. */
export interface StaffDeps {
  store: Store;
  fieldKey: FieldKey;
  /** The staff audit chain's key and anchor (outside the database: @ndc/staff audit-chain.ts). */
  auditChain: AuditChain;
  /** Business time: what staff see and do to orders moves with the sandbox clock. */
  clock: Clock;
  /** Real time for TOTP codes and session lifetimes: a staff member's authenticator never follows the sandbox clock. */
  securityClock: Clock;
  orders: OrdersService;
  /** Failed logins per source address: the token endpoint's failure budget, under keys of their own. */
  failures: FailureBudget;
  mode: GatewayMode;
  logger: Logger;
  /** The dashboard's and the traffic page's figures (metrics/figures.ts). */
  figures: FigureSources;
}
