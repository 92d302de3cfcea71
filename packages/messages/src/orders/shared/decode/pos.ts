import { opt, optText, type Cursor } from "../../../shopping/shared/cursor";
import { optBool } from "../../../shopping/shared/values";
import type { Envelope } from "@ndc/xml";

/** POS (POS_Type): where the sale is made. Informational; the seller is known from the token. */
export interface PointOfSale {
  city?: string;
  country?: string;
  agentDuty?: string;
  online?: boolean;
  requestTime?: string;
}

export function pointOfSale(envelope: Envelope): PointOfSale | undefined {
  if (!envelope.pos) return undefined;
  const p: Cursor = { el: envelope.pos, path: "POS" };
  const out: PointOfSale = {};
  const city = optText(opt(p, "City"), "IATA_LocationCode");
  if (city) out.city = city;
  const country = optText(opt(p, "Country"), "CountryCode");
  if (country) out.country = country;
  const duty = optText(p, "AgentDutyText");
  if (duty) out.agentDuty = duty;
  const online = optBool(p, "OnlineTrxInd");
  if (online !== undefined) out.online = online;
  const at = optText(p, "RequestTime");
  if (at) out.requestTime = at;
  return out;
}
