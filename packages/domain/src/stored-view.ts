import { createHash, randomUUID } from "node:crypto";
import type { GatewayConfig } from "@ndc/config";
import { encodeOrderViewRS, orderViewOf } from "@ndc/messages";
import type { OrderDetails, StoredView } from "@ndc/orders";
import { writtenText, type XNode } from "@ndc/xml";

/** How many OrderViewRS this process has encoded for orders (a test pins one per paid booking). */
export const viewEncodes = { count: 0 };

/**
 * The encoded view as text: what the orders domain stores with each write of the order
 * (OrdersServiceOptions.viewEncoder), in the default language (no `languages`): a request that
 * names content languages is never answered from a stored view (OrdersService.retrieveView).
 * Here, below both apps, because an order changed by the scheduler app stores its view too.
 */
export function storedViewOf(details: OrderDetails, designator: string, languages: readonly string[] = []): StoredView {
  viewEncodes.count++;
  const { view, decline } = orderViewOf(details, designator, languages);
  const built = encodeOrderViewRS(view);
  const text = (node: XNode) => ({ name: node.name, text: writtenText(node) });
  return { response: text(built.response), trailing: built.trailing.map(text), ...(decline ? { decline } : {}) };
}

// Defined by scripts/build-binary.ts in the compiled binary; absent when run from source.
declare const NDC_BUILD_COMMIT: string | undefined;
declare const NDC_BUILD_TIME: string | undefined;

/** This process, when nothing names its build. */
const PROCESS = `process ${randomUUID()}`;

/**
 * The key stored views are written and served under (OrdersServiceOptions.viewKey): what an
 * encoded view is a function of besides the committed order, which the store's triggers keep
 * true. That is the code (the compiled binary's commit and build time; from source,
 * GATEWAY_BUILD_ID, which `serve` gives its workers; else this process alone) and the
 * configuration the view shows (designator, airline name, supply seed). Processes of one build
 * share their stored views, so a worker restarted under load serves what the others stored
 * instead of emptying the table under them; a process of another build never serves them.
 * Here, with the encoder, because the scheduler app stores views under the same key.
 */
export function storedViewKey(config: GatewayConfig): string {
  const build = typeof NDC_BUILD_COMMIT === "string" ? `binary ${NDC_BUILD_COMMIT} ${typeof NDC_BUILD_TIME === "string" ? NDC_BUILD_TIME : ""}` : config.buildId ? `source ${config.buildId}` : PROCESS;
  const shown = [build, config.airline.designator, config.airline.name, config.shopping.supplySeed];
  return createHash("sha256").update(JSON.stringify(shown)).digest("base64url").slice(0, 22);
}
