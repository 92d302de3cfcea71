import { DE } from "./dictionaries/de";
import { EN } from "./dictionaries/en";
import { ES } from "./dictionaries/es";
import { FR } from "./dictionaries/fr";
import { PT } from "./dictionaries/pt";
import { ZH } from "./dictionaries/zh";
import { primarySubtag } from "./lang";
import { SUPPLIER_LOCALISED } from "./supplier-localised";

const DICTIONARIES: Readonly<Record<string, Readonly<Record<string, string>>>> = { en: EN, fr: FR, de: DE, es: ES, zh: ZH, pt: PT };

export interface Translation {
  text: string;
  /** The language the text is labelled with (what Processing/LangUsage reports). */
  lang: string;
  /** True when the requested language had no translation and English was used: warn content_language_fallback. */
  fellBack: boolean;
  /** True when a partner localised the text itself; it is then labelled "en" whatever its language. */
  supplierLocalised: boolean;
}

export class UnknownContentKey extends Error {
  constructor(readonly key: string) {
    super(`no airline content under key ${key}`);
    this.name = "UnknownContentKey";
  }
}

/**
 * Airline content in the requested language (any BCP 47 tag; matched on its primary subtag).
 * Carrier, operator and aircraft names are not content keys: they are proper names.
 */
export function translate(key: string, lang: string): Translation {
  const english = EN[key];
  if (english === undefined) throw new UnknownContentKey(key);
  const primary = primarySubtag(lang) || "en";
  if (primary === "en") return { text: english, lang: "en", fellBack: false, supplierLocalised: false };
  const supplied = SUPPLIER_LOCALISED[key]?.[primary];
  if (supplied !== undefined) return { text: supplied, lang: "en", fellBack: false, supplierLocalised: true };
  const translated = DICTIONARIES[primary]?.[key];
  if (translated !== undefined) return { text: translated, lang: primary, fellBack: false, supplierLocalised: false };
  return { text: english, lang: "en", fellBack: true, supplierLocalised: false };
}

/** Every content key (the English dictionary is complete by rule). */
export function contentKeys(): string[] {
  return Object.keys(EN);
}

/** Share of content keys a language translates, for the docs' coverage table. */
export function coverage(lang: string): { translated: number; total: number } {
  const dict = DICTIONARIES[primarySubtag(lang)] ?? {};
  const keys = contentKeys();
  return { translated: keys.filter((k) => dict[k] !== undefined).length, total: keys.length };
}
