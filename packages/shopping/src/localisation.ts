import { chooseLanguage, translate } from "@ndc/supply";

/**
 * Airline content in the seller's language for one response (spec 4.8). Collects what a
 * response must say about it: the languages its content is in (Processing/LangUsage) and the
 * keys that fell back to English (one content_language_fallback Warning naming them).
 * Text the gateway composes (penalties, rules, ride and allowance descriptions, warnings) does
 * not go through here: it is English by rule.
 */
export class Localiser {
  readonly language: string;
  private readonly used = new Set<string>();
  private readonly fellBack = new Set<string>();

  /** `requested`: LangUsage codes in order, else PrimaryLangID; empty means English. */
  constructor(requested: readonly string[]) {
    this.language = chooseLanguage(requested);
  }

  /** The text for a content key in the response language, or English with a fallback noted. */
  text(key: string): string {
    const t = translate(key, this.language);
    this.used.add(t.lang);
    if (t.fellBack) this.fellBack.add(key);
    return t.text;
  }

  /** Languages of the content returned, for Processing/LangUsage (English when nothing was localised). */
  contentLanguages(): string[] {
    return this.used.size ? [...this.used].sort() : ["en"];
  }

  /** Detail for the content_language_fallback Warning, or undefined when nothing fell back. */
  fallbackDetail(): string | undefined {
    if (this.fellBack.size === 0) return undefined;
    const keys = [...this.fellBack].sort();
    const shown = keys.slice(0, 20).join(", ");
    return `Requested language "${this.language}"; in English: ${shown}${keys.length > 20 ? ` and ${keys.length - 20} more` : ""}.`;
  }
}
