import { GatewayError } from "@ndc/errors";
import { paxNameOf } from "@ndc/orders";
import type { StaffDeps } from "./deps";
import type { StaffCaller } from "./guard";
import { optionalText, requiredText, textList } from "./fields";
import { accept } from "./servicing";
import { servicedView } from "./servicing-json";

/**
 * A passenger's name corrected by the airline's staff (issue 19 item 17; spec 4.7 SHPOR1 rule 4):
 * the order domain's rename saga (OrderChangeRQ UpdatePax's) on its staff channel, so the fare's
 * name-change rule never refuses it: where a seller would get fare_not_renameable the change
 * records the override (history, servicing_overrides) and the staff audit row `order.rename` in
 * its one commit write. No money moves, so there is no quote: the acceptance's rights and reason
 * (servicing.ts accept), and `useFlexibility` to spend the customer's Flexibility instead.
 */
export async function renamePassenger(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) {
  const useFlexibility = body.useFlexibility === true || body.useFlexibility === "on";
  const staffId = caller.session.staffId;
  const r = await accept(deps, caller, "order.rename", orderId, body, async () => {
    const paxId = requiredText(body, "paxId", 200);
    const read = paxNameOf({ title: optionalText(body, "title", 64), givenNames: textList(body, "givenNames", 5, 64), surname: optionalText(body, "surname", 64) ?? "" });
    if ("field" in read) throw new GatewayError("request_invalid", { detail: read.detail, element: read.field });
    const seen = body.version;
    if (seen !== undefined && seen !== "" && !(Number.isSafeInteger(Number(seen)) && Number(seen) > 0)) throw new GatewayError("request_invalid", { detail: "version is the order's version the correction was typed on.", element: "version" });
    const version = seen === undefined || seen === "" ? (await deps.orders.airlineDetails(orderId)).order.version : Number(seen);
    return {
      // The passenger, never the name: the audit trail holds no more personal data than it must.
      detail: `passenger ${paxId}${useFlexibility ? "; Flexibility asked" : ""}`,
      // Keyed by the order's version the caller saw (the page's, else the current one): a form sent twice is one correction, made once.
      run: (alsoInCommit) =>
        deps.orders.renamePax({
          orderId, by: { channel: "airline_staff", staffId }, request: { clientId: `staff:${staffId}`, correlationId: `console:${orderId}`, trxId: `v${version}:${paxId}` },
          paxId, name: read.name, useFlexibility, alsoInCommit,
        }),
    };
  });
  return servicedView(r.order, r.made);
}
