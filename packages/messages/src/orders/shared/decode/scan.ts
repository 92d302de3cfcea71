import type { XmlElement } from "@ndc/xml";
import { NDC_CONTENT_NAMESPACES } from "@ndc/xml";

/** One element met by `walk`, with a TagText-style path below the root (indexes on repeats). */
export interface Visit {
  el: XmlElement;
  path: string;
  parent?: XmlElement;
}

/**
 * Every NDC element under the root's children, depth first, with cursor-style paths
 * ("Request/PaymentFunctions[2]/..."). Foreign elements (a Signature's dsig content, anything in
 * AugmentationPoint) are skipped: they are not NDC content and a name there means nothing.
 */
export function* walk(root: XmlElement): Generator<Visit> {
  function* go(el: XmlElement, path: string): Generator<Visit> {
    const counts = new Map<string, number>();
    for (const ch of el.children) counts.set(ch.name, (counts.get(ch.name) ?? 0) + 1);
    const seen = new Map<string, number>();
    for (const ch of el.children) {
      if (!NDC_CONTENT_NAMESPACES.has(ch.ns)) continue;
      const i = (seen.get(ch.name) ?? 0) + 1;
      seen.set(ch.name, i);
      const name = (counts.get(ch.name) ?? 0) > 1 ? `${ch.name}[${i}]` : ch.name;
      const here = path ? `${path}/${name}` : name;
      yield { el: ch, path: here, parent: el };
      yield* go(ch, here);
    }
  }
  yield* go(root, "");
}
