import type { ResponsePreferences } from "../model";
import { Localiser } from "../localisation";

/** The Localiser for a request: LangUsage codes in order, else PrimaryLangID, else English (spec 4.8 rule 1). */
export function localiserFor(p: ResponsePreferences): Localiser {
  return new Localiser(p.langUsage.length > 0 ? p.langUsage : p.language ? [p.language] : []);
}
