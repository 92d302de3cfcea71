import { checkText } from "@ndc/xml";
import { invalid, list, opt, optText, req, reqText, type Cursor } from "../shared/cursor";
import { prefLevel } from "../shared/request-common";
import type { CabinPreference } from "../shared/request-types";
import { date, dateTime, location, time, wholeNumber } from "../shared/values";
import { marketingSegments, requestedFlight } from "../shared/dated-segments";
import type { AirShoppingRequest, OriginDestCriterion } from "./request";

/** FlightRequest is a choice of three forms (FlightRequestType); each decodes to the same criteria. */
export function decodeFlightRequest(request: Cursor): Pick<AirShoppingRequest, "form" | "originDestinations"> {
  const fr = req(request, "FlightRequest");
  const od = opt(fr, "FlightRequestOriginDestinationsCriteria");
  if (od) return { form: "OriginDestinations", originDestinations: inOrder(list(od, "OriginDestCriteria"), od) };
  const specific = opt(fr, "FlightRequestSpecificOriginDestinations");
  if (specific) return { form: "SpecificOriginDestinations", originDestinations: specificCriteria(specific, request) };
  const affinity = opt(fr, "AffinityShoppingCriteria");
  if (affinity) return { form: "Affinity", originDestinations: affinityCriteria(affinity) };
  throw invalid(
    fr.path,
    "FlightRequest needs FlightRequestOriginDestinationsCriteria, FlightRequestSpecificOriginDestinations or AffinityShoppingCriteria.",
  );
}

function cabins(parent: Cursor): CabinPreference[] {
  return list(parent, "CabinType").map((c) => ({
    code: reqText(c, "CabinTypeCode"),
    preference: prefLevel(c) ?? invalidPref(c),
  }));
}

function invalidPref(c: Cursor): never {
  throw invalid(`${c.path}/PrefLevel`, "PrefLevel is required.");
}

/** OriginDestCriteria (OriginDestCriteriaType): OriginDepCriteria and DestArrivalCriteria are required. */
function criterion(c: Cursor): OriginDestCriterion & { ordinal?: number } {
  const dep = req(c, "OriginDepCriteria");
  const arr = req(c, "DestArrivalCriteria");
  const out: OriginDestCriterion & { ordinal?: number } = {
    origin: location(reqText(dep, "IATA_LocationCode"), `${dep.path}/IATA_LocationCode`),
    destination: location(reqText(arr, "IATA_LocationCode"), `${arr.path}/IATA_LocationCode`),
    departureDate: date(reqText(dep, "Date"), `${dep.path}/Date`),
    cabins: cabins(c),
    flights: [],
  };
  const id = optText(c, "OriginDestID");
  if (id) out.originDestId = id;
  const depTime = optText(dep, "Time");
  if (depTime) out.departureTime = time(depTime, `${dep.path}/Time`);
  const arrDate = optText(arr, "Date");
  if (arrDate) out.arrivalDate = date(arrDate, `${arr.path}/Date`);
  const cal = opt(c, "CalendarDateCriteria");
  if (cal) {
    const before = optText(cal, "DaysBeforeNumber");
    const after = optText(cal, "DaysAfterNumber");
    out.calendar = {
      daysBefore: before ? wholeNumber(before, `${cal.path}/DaysBeforeNumber`, 0, 30) : 0,
      daysAfter: after ? wholeNumber(after, `${cal.path}/DaysAfterNumber`, 0, 30) : 0,
    };
  }
  const ordinal = optText(c, "Ordinal");
  if (ordinal) out.ordinal = wholeNumber(ordinal, `${c.path}/Ordinal`, 0, 99);
  return out;
}

function inOrder(cursors: Cursor[], parent: Cursor): OriginDestCriterion[] {
  if (cursors.length === 0) throw invalid(`${parent.path}/OriginDestCriteria`, "OriginDestCriteria is required.");
  const all = cursors.map(criterion);
  // Ordinal orders the legs only when every leg has one; a partial numbering is ambiguous, so keep document order.
  const ordered = all.every((c) => c.ordinal !== undefined) ? [...all].sort((a, b) => a.ordinal! - b.ordinal!) : all;
  return ordered.map(({ ordinal: _o, ...rest }) => rest);
}

/** Request/PaxJourneyList/PaxJourney indexed by PaxJourneyID. */
function journeys(request: Cursor): Map<string, Cursor> {
  const map = new Map<string, Cursor>();
  for (const j of list(opt(request, "PaxJourneyList"), "PaxJourney")) map.set(reqText(j, "PaxJourneyID"), j);
  return map;
}

/**
 * SpecificOriginDestCriteria names its flights through PaxJourneyRefID -> Request/PaxJourneyList
 * -> PaxSegment -> Request/DatedMarketingSegmentList. The date of travel comes from the first flight.
 */
function specificCriteria(specific: Cursor, request: Cursor): OriginDestCriterion[] {
  const cursors = list(specific, "SpecificOriginDestCriteria");
  if (cursors.length === 0) throw invalid(`${specific.path}/SpecificOriginDestCriteria`, "SpecificOriginDestCriteria is required.");
  const js = journeys(request);
  const segs = marketingSegments(request);
  return cursors.map((c) => {
    const refs = list(c, "PaxJourneyRefID");
    if (refs.length === 0) {
      throw invalid(`${c.path}/PaxJourneyRefID`, "A specific origin and destination needs PaxJourneyRefID naming the flights to shop.");
    }
    const flights = refs.flatMap((r) => {
      const id = checkText("PaxJourneyRefID", r.el.text.trim(), r.path);
      const j = js.get(id);
      if (!j) throw invalid(r.path, `No PaxJourney ${id} in Request/PaxJourneyList.`);
      return list(j, "PaxSegment").map((s) => requestedFlight(s, segs));
    });
    return {
      originDestId: reqText(c, "OriginDestID"),
      origin: location(reqText(c, "OriginCode"), `${c.path}/OriginCode`),
      destination: location(reqText(c, "DestCode"), `${c.path}/DestCode`),
      departureDate: flights[0]!.departureDate,
      cabins: [],
      flights,
    };
  });
}

/**
 * AffinityOriginDest can describe a region or a price band; the gateway shops stations on a date,
 * so it needs a departure and arrival Station and AffinityDepRequest/DateTimeFrom.
 */
function affinityCriteria(affinity: Cursor): OriginDestCriterion[] {
  const cursors = list(affinity, "AffinityOriginDest");
  if (cursors.length === 0) throw invalid(`${affinity.path}/AffinityOriginDest`, "AffinityOriginDest is required.");
  return cursors.map((c) => {
    const dep = req(c, "AffinityDepRequest");
    const arr = req(c, "AffinityArrivalRequest");
    const depStation = req(dep, "Station");
    const arrStation = req(arr, "Station");
    const from = reqText(dep, "DateTimeFrom");
    const dt = dateTime(from, `${dep.path}/DateTimeFrom`);
    const out: OriginDestCriterion = {
      origin: location(reqText(depStation, "IATA_LocationCode"), `${depStation.path}/IATA_LocationCode`),
      destination: location(reqText(arrStation, "IATA_LocationCode"), `${arrStation.path}/IATA_LocationCode`),
      departureDate: dt.date,
      departureTime: dt.time,
      cabins: cabins(c),
      flights: [],
    };
    return out;
  });
}
