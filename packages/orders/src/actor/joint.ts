import { jointAsk, type JointAsk } from "@ndc/actors";
import type { OrdersContext } from "../context";
import type { OrderCommand, OrderReply } from "./commands";

/**
 * The order actor's command as an ask for a joint write (askTogether), as inventory's `joint`
 * builds its own: the command is checked against OrderCommand here, so a misspelt op or field
 * does not compile.
 */
export function orderAsk(ctx: Pick<OrdersContext, "orders">, orderId: string, command: OrderCommand): JointAsk<OrderReply> {
  return jointAsk(ctx.orders, orderId, command);
}
