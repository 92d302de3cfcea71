import type { Principal } from "../types";
import { insufficientScope } from "./challenge";

/** Spec 5.4: the scope is checked before the message is read; 403 insufficient_scope otherwise. */
export function requireScope(principal: Principal, scope: string): void {
  if (!principal.scopes.has(scope)) throw insufficientScope(scope);
}
