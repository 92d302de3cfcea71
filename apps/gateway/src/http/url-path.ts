/**
 * The pathname of a Request's url, without building a URL object on every request. A Request's
 * url is already parsed and normalised (scheme://authority/path?query, dots resolved, percent
 * escapes canonical), so the path is the text from the first "/" after the authority up to "?".
 * Anything unusual (a fragment, no "://") goes through URL, which is the reference.
 */
export function pathOf(url: string): string {
  const scheme = url.indexOf("://");
  if (scheme === -1 || url.includes("#")) return new URL(url).pathname;
  const start = url.indexOf("/", scheme + 3);
  if (start === -1) return "/";
  const q = url.indexOf("?", start);
  return q === -1 ? url.substring(start) : url.substring(start, q);
}
