import { serviceFlightKeys, type OrderDetails } from "@ndc/orders";
import { shoppingIds } from "@ndc/shopping";
import type { OrderItemView, OrderServiceView } from "../shared/view/order";
import { fareDefinitionId } from "./service-definition";

/**
 * A flight item's included baggage, as IATA's OrderViewRS examples associate it (issue 20 item
 * 9): per passenger and flight, a Service naming the fare brand's definition `SD-FARE-<brand>`
 * (whose ServiceDefinitionAssociation/BaggageAllowanceRef names the allowances frozen onto the
 * order, DataLists/BaggageAllowanceList) with the flight in OrderFlightAssociations/PaxSegmentRef.
 * None for a direction whose brand states no allowance (SAVER) or grants nothing to the
 * passenger's type. It is delivered with its flight (the flight service's state) and carries no
 * value of its own (`included`: accounting leaves it out).
 */
export function withIncludedBaggage(details: OrderDetails, item: OrderItemView): OrderItemView {
  const { order, servicing } = details;
  const it = order.items.find((i) => i.orderItemId === item.orderItemId);
  if (!it || it.kind !== "flight") return item;
  const added: OrderServiceView[] = [];
  const keys = serviceFlightKeys(order, it) as string[];
  for (const paxId of it.paxIds) {
    const ptc = order.passengers.find((p) => p.paxId === paxId)?.ptc;
    keys.forEach((key, i) => {
      const journey = order.journeys.find((j) => j.flightKeys.includes(key));
      const direction = servicing.conditions.directions.find((d) => d.paxJourneyId === journey?.paxJourneyId);
      if (!direction || !(direction.allowances ?? []).some((a) => ptc !== undefined && a.paxTypes.includes(ptc))) return;
      const paxSegmentId = shoppingIds.segment(key);
      const flight = item.services.find((s) => s.paxId === paxId && s.association.kind === "segment" && s.association.paxSegmentId === paxSegmentId);
      added.push({
        serviceId: `${it.orderItemId}-${paxId}-${i + 1}-BAG`,
        paxId,
        ...(flight?.statusCode ? { statusCode: flight.statusCode } : {}),
        ...(flight?.deliveryStatusCode ? { deliveryStatusCode: flight.deliveryStatusCode, deliveryText: flight.deliveryText } : {}),
        description: `Baggage included in fare brand ${direction.brandCode}.`,
        included: true,
        association: { kind: "serviceDefinition", serviceDefinitionId: fareDefinitionId(direction.brandCode), paxSegmentIds: [paxSegmentId] },
      });
    });
  }
  return added.length ? { ...item, services: [...item.services, ...added] } : item;
}
