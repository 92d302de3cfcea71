/**
 * Language matching on the primary subtag (spec 4.8 rule 4): zh-Hant and zh-Hans are zh,
 * pt-BR and pt-PT are pt. Scripts and regions are not distinguished because the dictionaries
 * are not split by them.
 */
export const CONTENT_LANGUAGES = ["en", "fr", "de", "es", "zh", "pt"] as const;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number];

export function primarySubtag(tag: string): string {
  return tag.trim().split(/[-_]/)[0]!.toLowerCase();
}

export function isContentLanguage(lang: string): lang is ContentLanguage {
  return (CONTENT_LANGUAGES as readonly string[]).includes(lang);
}

/**
 * The language to answer in: the first requested tag (LangUsage order, else PrimaryLangID)
 * whose primary subtag we hold a dictionary for; otherwise the first requested primary subtag,
 * so that lookups fall back to English key by key and the caller warns. No request means English.
 */
export function chooseLanguage(requested: readonly string[]): string {
  const subtags = requested.map(primarySubtag).filter((s) => s.length > 0);
  return subtags.find(isContentLanguage) ?? subtags[0] ?? "en";
}
