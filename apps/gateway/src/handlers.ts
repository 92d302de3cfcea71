import type { MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./handlers/deps";

/**
 * Message handlers by message name. A message without one answers message_not_available
 * (501) with its paired root; each business issue adds its handlers here, one line each.
 */
export function messageHandlers(deps: HandlerDeps): Map<string, MessageHandler> {
  const handlers = new Map<string, MessageHandler>();
  void deps;
  return handlers;
}
