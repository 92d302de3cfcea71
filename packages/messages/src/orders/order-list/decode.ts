import { NS, type Envelope, type XmlElement } from "@ndc/xml";
import { invalid, opt, optText, req, type Cursor } from "../../shopping/shared/cursor";
import { requestCursor } from "../../shopping/shared/request-common";
import { date, wholeNumber } from "../../shopping/shared/values";
import { ORDER_LIST_DEFAULT_PAGE_SIZE, ORDER_LIST_MAX_PAGE_SIZE, type OrderListRequest, type RangeFilter } from "./request";

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

// Filters that search by a person, a document, a payment or a ticket: not served (they would
// turn OrderList into a lookup of personal data), refused rather than ignored so a seller never
// mistakes an unfiltered list for a filtered one.
const UNSUPPORTED = [
  "BookingRefFilterCriteria",
  "DocFilterCriteria",
  "FlightFilterCriteria",
  "OrderCancellationDateFilterCriteria",
  "PaxFilterCriteria",
  "PaxGroupFilterCriteria",
  "PaymentFilterCriteria",
  "ServiceFilterCriteria",
  "TicketFilterCriteria",
] as const;

function dateTimeRange(c: Cursor | undefined): RangeFilter | undefined {
  if (!c) return undefined;
  const out: RangeFilter = {};
  for (const [name, key] of [["FromDateTime", "from"], ["ToDateTime", "to"]] as const) {
    const v = optText(c, name);
    if (v === undefined) continue;
    if (!DATETIME.test(v) || Number.isNaN(Date.parse(v))) throw invalid(`${c.path}/${name}`, "A date and time is written YYYY-MM-DDTHH:MM:SSZ.");
    out[key] = v;
  }
  return out;
}

function dateRange(c: Cursor | undefined): RangeFilter | undefined {
  if (!c) return undefined;
  const out: RangeFilter = {};
  for (const [name, key] of [["EffectiveDate", "from"], ["ExpirationDate", "to"]] as const) {
    const v = optText(c, name);
    if (v !== undefined) out[key] = date(v, `${c.path}/${name}`);
  }
  return out;
}

/**
 * Our elements in AugmentationPoint (NS.gateway): <gw:Page size="20" after="cursor"/>, <gw:StatusCode>.
 * Pages follow a cursor (the previous answer's gw:NextPage), not a number: `number` is accepted
 * as 1 only, so a seller still asking for page 3 is told how to page instead of getting page 1.
 */
function augmentation(ap: XmlElement | undefined): Pick<OrderListRequest, "page" | "statusCodes"> {
  const ours = (ap?.children ?? []).filter((c) => c.ns === NS.gateway);
  const page = ours.find((c) => c.name === "Page");
  if (page?.attrs["number"] !== undefined && page.attrs["number"].trim() !== "1") {
    throw invalid("AugmentationPoint/Page/@number", 'Pages follow a cursor: send the after="..." of the previous answer\'s gw:NextPage.');
  }
  const size =
    page?.attrs["size"] !== undefined
      ? wholeNumber(page.attrs["size"], "AugmentationPoint/Page/@size", 1, ORDER_LIST_MAX_PAGE_SIZE)
      : ORDER_LIST_DEFAULT_PAGE_SIZE;
  const after = page?.attrs["after"];
  if (after !== undefined && !/^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{1,64}$/.test(after)) {
    throw invalid("AugmentationPoint/Page/@after", "A page cursor is copied as given in gw:NextPage/@after.");
  }
  const statusCodes = ours.filter((c) => c.name === "StatusCode").map((c, i) => {
    const v = c.text.trim();
    if (!/^[A-Z0-9_]{1,20}$/.test(v)) throw invalid(`AugmentationPoint/StatusCode[${i + 1}]`, "A status code is upper-case letters, digits or _.");
    return v;
  });
  return { page: { size, ...(after !== undefined ? { after } : {}) }, statusCodes };
}

/** IATA_OrderListRQ -> OrderListRequest (OrderSearchFilterCriteria; paging in AugmentationPoint). */
export function decodeOrderListRQ(envelope: Envelope): OrderListRequest {
  const request = requestCursor(envelope);
  const criteria = req(request, "OrderSearchFilterCriteria");
  const refused = UNSUPPORTED.map((n) => opt(criteria, n)).find((c) => c !== undefined);
  if (refused) throw invalid(refused.path, "Orders are listed by creation, last-modified or travel dates, carrier and status only.");
  const out: OrderListRequest = augmentation(envelope.augmentationPoint);
  const created = dateTimeRange(opt(criteria, "CreationDateTimeFilterCriteria"));
  if (created) out.created = created;
  const modified = dateTimeRange(opt(criteria, "LastModifiedDateTimeFilterCriteria"));
  if (modified) out.lastModified = modified;
  const travel = dateRange(opt(criteria, "TravelDateFilterCriteria"));
  if (travel) out.travelDates = travel;
  const carrier = optText(opt(criteria, "CarrierFilterCriteria"), "AirlineDesigCode");
  if (carrier) out.carrier = carrier;
  return out;
}
