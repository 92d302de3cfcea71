import type { MediaView, ServiceDefinitionView, TaxonomyView } from "../model";
import { catalogueService, codesetPath, picture, type Ride } from "@ndc/supply";
import type { Localiser } from "../localisation";
import { definitionId, type Product } from "./products";

/** AirlineTaxonomy: the node and its codeset path as DescText (spec 2.7). */
export function taxonomyOf(code: string | undefined): TaxonomyView[] {
  return code ? [{ code, path: codesetPath(code) }] : [];
}

const MODE: Readonly<Record<Ride["mode"], string>> = { rail: "Rail transfer", coach: "Coach transfer", privateCar: "Private car transfer" };

/** Ride text is composed by the gateway, so English (spec 4.8 rule 2); operators are proper names. */
function rideTexts(r: Ride): { name: string; description: string } {
  const per = r.pricedPer === "vehicle" ? `priced per vehicle for up to ${r.seats} passengers` : "priced per passenger";
  return {
    name: `${MODE[r.mode]} ${r.airport} - ${r.place}`,
    description: `${r.operator}, about ${r.durationMinutes} minutes between ${r.airport} airport and ${r.place}, ${per}.`,
  };
}

function media(ids: readonly string[], lang: Localiser): MediaView[] {
  return ids.flatMap((id) => {
    const p = picture(id);
    return p ? [{ mediaId: p.id, uri: p.url, contentType: p.mediaType, caption: lang.text(p.captionKey) }] : [];
  });
}

/** The ServiceDefinition of a product, in the content language, with its pictures (SHPRMD). */
export function definitionOf(p: Product, owner: string, lang: Localiser): { definition: ServiceDefinitionView; media: MediaView[] } {
  const base = { serviceDefinitionId: definitionId(p.code), ownerCode: owner, serviceCode: p.code, taxonomy: taxonomyOf(p.taxonomyCode) };
  switch (p.kind) {
    case "service": {
      const s = p.service;
      const pics = media(s.pictureIds, lang);
      return {
        definition: { ...base, name: lang.text(s.nameKey), descriptions: [lang.text(s.descriptionKey)], rfic: s.rfic, rfisc: s.rfisc, mediaIds: pics.map((m) => m.mediaId) },
        media: pics,
      };
    }
    case "bundle": {
      const b = p.bundle;
      const pics = media(b.pictureIds, lang);
      const parts = [...b.components.map((c) => c.serviceCode), ...b.options.flatMap((o) => o.choices)];
      return {
        definition: {
          ...base,
          name: lang.text(b.nameKey),
          // One description per option group names the choice the passenger makes (exactly one of it).
          descriptions: [lang.text(b.descriptionKey), ...b.options.map((o) => lang.text(o.nameKey))],
          mediaIds: pics.map((m) => m.mediaId),
          association: { kind: "bundle", serviceDefinitionIds: parts.map(definitionId), maxQty: b.components.length + b.options.length },
        },
        media: pics,
      };
    }
    case "ride": {
      const t = rideTexts(p.ride);
      return { definition: { ...base, name: t.name, descriptions: [t.description] }, media: [] };
    }
    case "partner_product": {
      const pp = p.product;
      return {
        definition: {
          ...base,
          name: lang.text(pp.nameKey),
          descriptions: [`Sold by ${pp.partnerName}. One per order; a contact email is needed to order it.`],
          rfic: pp.rfic,
          rfisc: pp.rfisc,
        },
        media: [],
      };
    }
  }
}

/** Catalogue services a bundle is made of, so its ServiceDefinitionRefIDs resolve even when criteria left them out. */
export function bundleParts(p: Product): Product[] {
  if (p.kind !== "bundle") return [];
  const codes = [...p.bundle.components.map((c) => c.serviceCode), ...p.bundle.options.flatMap((o) => o.choices)];
  return codes.flatMap((code) => {
    const s = catalogueService(code);
    return s ? [{ kind: "service" as const, code: s.code, service: s, rfic: s.rfic, rfisc: s.rfisc, taxonomyCode: s.taxonomyCode }] : [];
  });
}
