import type { MessageHandler } from "@ndc/messages";

/**
 * Message handlers by message name. A message without one answers message_not_available
 * (501) with its paired root; business issues add their handlers here.
 */
export function messageHandlers(): Map<string, MessageHandler> {
  return new Map();
}
