import { GatewayError } from "@ndc/errors";
import { serviceBundle } from "@ndc/supply";
import type { StoredOfferItem } from "@ndc/shopping";
import type { OfferSelection } from "./input";

const EL = "SelectedOfferItem/SelectedBundleServices/SelectedServiceDefinitionRefID";

/**
 * The options a seller chose from a bundle (SelectedBundleServices), as catalogue codes in the
 * bundle's own group order. Read against the catalogue's bundle, never trusted: a choice must
 * be one of the bundle's options (SD-<code>, the ids ServiceList issued), and one per option
 * group, since a group is an either/or (a meal or a vegetarian meal). Undefined when nothing
 * was chosen for this item; the order then records no option rather than guessing one.
 */
export function bundleOptionsOf(sel: OfferSelection, item: StoredOfferItem): string[] | undefined {
  const chosen = sel.bundleOptions?.filter((b) => b.offerItemId === item.offerItemId).flatMap((b) => b.serviceDefinitionIds);
  if (!chosen?.length) return undefined;
  const bundle = item.kind === "bundle" && item.ref ? serviceBundle(item.ref) : undefined;
  if (!bundle) {
    throw new GatewayError("request_invalid", { detail: `Offer item ${item.offerItemId.slice(0, 64)} is not a bundle: it has no options to choose.`, element: EL });
  }
  const byGroup = new Map<string, string>();
  for (const id of chosen) {
    const code = id.startsWith("SD-") ? id.slice(3) : id;
    const group = bundle.options.find((o) => o.choices.includes(code));
    if (!group) throw new GatewayError("request_invalid", { detail: `${id.slice(0, 64)} is not an option of bundle ${bundle.code}.`, element: EL });
    const earlier = byGroup.get(group.groupCode);
    if (earlier && earlier !== code) {
      throw new GatewayError("request_invalid", { detail: `Bundle ${bundle.code} takes one ${group.groupCode} option; ${earlier} and ${code} were chosen.`, element: EL });
    }
    byGroup.set(group.groupCode, code);
  }
  return bundle.options.flatMap((o) => (byGroup.has(o.groupCode) ? [byGroup.get(o.groupCode)!] : []));
}
