import { codesetPath, picture, secureFlightApplies, translate, type BaggageAllowance, type CatalogueService, type FareBrand, type Journey, type ServiceBundle } from "@ndc/supply";
import {
  emptyDataLists,
  type BaggageAllowanceView,
  type DataListsView,
  type MediaView,
  type OriginDestView,
  type PriceClassView,
  type SegmentView,
  type ServiceDefinitionView,
  type TaxonomyView,
} from "../model";
import type { Localiser } from "../localisation";
import type { StoredPax } from "../offers/payload";
import { CABIN_WIRE_CODE } from "../common/request";
import { ids } from "../common/ids";
import { isoDuration } from "../common/fares";

export function taxonomyView(code: string | undefined): TaxonomyView[] {
  return code ? [{ code, path: codesetPath(code) }] : [];
}

/** A brand's cabin as DataListsBuilder.cabin gives it, without noting the text's language (pure). */
export function cabinView(b: FareBrand, language: string): { code: string; name: string } {
  return { code: CABIN_WIRE_CODE[b.cabin], name: translate(`cabin.${b.cabin}`, language).text };
}

/** A fare brand as a PriceClass (DataLists/PriceClassList): AirShoppingRS's and OrderViewRS's one shape. Pure but for noting the texts' language. */
export function priceClassView(b: FareBrand, loc: Localiser): PriceClassView {
  return {
    priceClassId: ids.priceClass(b.code),
    name: loc.text(b.nameKey),
    code: b.code,
    descriptions: b.benefitKeys.map((k) => loc.text(k)),
    cabin: { code: CABIN_WIRE_CODE[b.cabin], name: loc.text(`cabin.${b.cabin}`) },
    displayOrder: b.rank,
  };
}

/**
 * One frozen view per picture and caption, shared by every answer: the encoder can then keep the
 * bytes of an a-la-carte item that shows it (packages/messages/src/shopping/shared/write/a-la-carte.ts).
 * Bounded by the catalogue's pictures times the content languages.
 */
const mediaViews = new Map<string, MediaView>();

function mediaView(mediaId: string, uri: string, contentType: string, caption: string): MediaView {
  const key = `${mediaId}|${caption}`;
  let m = mediaViews.get(key);
  if (!m) mediaViews.set(key, (m = Object.freeze({ mediaId, uri, contentType, caption })));
  return m;
}

const ALLOWANCE_NODE = { Checked: "0110", CarryOn: "0120" } as const;

/**
 * Collects everything offers refer to, once each, in first-use order. Airline content goes
 * through the Localiser; carrier, operator and aircraft names pass untouched (spec 4.8 rule 3).
 */
export class DataListsBuilder {
  private readonly segments = new Map<string, SegmentView>();
  private readonly journeys = new Map<string, Journey>();
  private readonly originDests = new Map<string, OriginDestView>();
  private readonly allowances = new Map<string, BaggageAllowanceView>();
  private readonly brands = new Map<string, PriceClassView>();
  private readonly services = new Map<string, ServiceDefinitionView>();
  private readonly media = new Map<string, MediaView>();
  /** Per PaxSegmentID, the one cabin the answer's offers sell on it, or null once two differ. */
  private readonly cabins = new Map<string, { code: string; name: string } | null>();
  private readonly cabinsSeen = new Set<string>();
  private pax: StoredPax[] = [];

  constructor(
    private readonly loc: Localiser,
    private readonly ownerCode: string,
  ) {}

  passengers(pax: StoredPax[]): void {
    this.pax = pax;
  }

  journey(j: Journey, originDestId: string): void {
    if (!this.journeys.has(j.id)) {
      this.journeys.set(j.id, j);
      for (const f of j.segments) {
        const id = ids.segment(f.key);
        if (this.segments.has(id)) continue;
        this.segments.set(id, {
          paxSegmentId: id,
          origin: f.origin,
          destination: f.destination,
          originName: this.loc.text(`station.${f.origin}`),
          destinationName: this.loc.text(`station.${f.destination}`),
          departure: `${f.departure.local}:00`,
          arrival: `${f.arrival.local}:00`,
          marketing: { code: f.marketing.carrier.code, name: f.marketing.carrier.name, flightNumber: String(f.marketing.number) },
          operating: { code: f.operating.carrier.code, name: f.operating.carrier.name, flightNumber: String(f.operating.number) },
          aircraft: { iataCode: f.aircraft.code, name: f.aircraft.name },
          duration: isoDuration(f.durationMinutes),
          ...(secureFlightApplies(f.origin, f.destination) ? { secureFlight: true } : {}),
        });
      }
    }
    let od = this.originDests.get(originDestId);
    if (!od) this.originDests.set(originDestId, (od = { originDestId, origin: j.origin, destination: j.destination, paxJourneyIds: [] }));
    if (!od.paxJourneyIds.includes(j.id)) od.paxJourneyIds.push(j.id);
  }

  brand(b: FareBrand): string {
    const id = ids.priceClass(b.code);
    if (!this.brands.has(id)) this.brands.set(id, priceClassView(b, this.loc));
    return id;
  }

  cabin(b: FareBrand): { code: string; name: string } {
    return { code: CABIN_WIRE_CODE[b.cabin], name: this.loc.text(`cabin.${b.cabin}`) };
  }

  /**
   * Notes the cabin an offer sells on its journeys' flights: a PaxSegment states its cabin
   * (SegmentCabinType) when every offer of the answer on it is in that cabin. Once per journey
   * and cabin, so the work follows the answer's distinct journeys, not its offers.
   */
  segmentCabins(journeys: readonly Journey[], b: FareBrand): void {
    let cabin: { code: string; name: string } | undefined;
    for (const j of journeys) {
      const seen = `${b.cabin}|${j.id}`;
      if (this.cabinsSeen.has(seen)) continue;
      this.cabinsSeen.add(seen);
      cabin ??= this.cabin(b);
      for (const f of j.segments) {
        const id = ids.segment(f.key);
        const had = this.cabins.get(id);
        if (had === undefined) this.cabins.set(id, cabin);
        else if (had && had.code !== cabin.code) this.cabins.set(id, null);
      }
    }
  }

  get language(): string {
    return this.loc.language;
  }

  allowance(a: BaggageAllowance): string {
    const id = ids.allowance(a);
    if (!this.allowances.has(id)) {
      this.allowances.set(id, { baggageAllowanceId: id, type: a.kind, pieces: a.pieces, ...(a.pieces > 0 ? { kgPerPiece: a.kgPerPiece } : {}), taxonomy: taxonomyView(ALLOWANCE_NODE[a.kind])[0] });
    }
    return id;
  }

  service(s: CatalogueService): string {
    const id = ids.serviceDefinition(s.code);
    if (!this.services.has(id)) {
      this.services.set(id, {
        serviceDefinitionId: id,
        ownerCode: this.ownerCode,
        name: this.loc.text(s.nameKey),
        descriptions: [this.loc.text(s.descriptionKey)],
        rfic: s.rfic,
        rfisc: s.rfisc,
        serviceCode: s.code,
        taxonomy: taxonomyView(s.taxonomyCode),
        mediaIds: this.pictures(s.pictureIds),
      });
    }
    return id;
  }

  bundle(b: ServiceBundle, componentIds: string[]): string {
    const id = ids.serviceDefinition(b.code);
    if (!this.services.has(id)) {
      this.services.set(id, {
        serviceDefinitionId: id,
        ownerCode: this.ownerCode,
        name: this.loc.text(b.nameKey),
        descriptions: [this.loc.text(b.descriptionKey), ...b.options.map((o) => this.loc.text(o.nameKey))],
        serviceCode: b.code,
        taxonomy: [],
        mediaIds: this.pictures(b.pictureIds),
        association: { kind: "bundle", serviceDefinitionIds: componentIds, maxQty: 1 },
      });
    }
    return id;
  }

  pictures(pictureIds: readonly string[]): string[] {
    for (const pid of pictureIds) {
      const p = picture(pid);
      if (p && !this.media.has(pid)) this.media.set(pid, mediaView(pid, p.url, p.mediaType, this.loc.text(p.captionKey)));
    }
    return [...pictureIds];
  }

  build(): DataListsView {
    return {
      ...emptyDataLists(),
      passengers: this.pax.map((p) => ({ paxId: p.paxId, ptc: p.ptc })),
      segments: [...this.segments.values()].map((s) => {
        const cabin = this.cabins.get(s.paxSegmentId);
        return cabin ? { ...s, cabin } : s;
      }),
      journeys: [...this.journeys.values()].map((j) => ({
        paxJourneyId: j.id,
        paxSegmentIds: j.segments.map((f) => ids.segment(f.key)),
        duration: isoDuration(j.durationMinutes),
      })),
      originDests: [...this.originDests.values()],
      baggageAllowances: [...this.allowances.values()],
      priceClasses: [...this.brands.values()],
      serviceDefinitions: [...this.services.values()],
      media: [...this.media.values()],
    };
  }
}
