/** Spec 2.4 and 8 (IdentityDoc field lengths), in characters (Unicode code points). */
export const IDENTITY_DOC_LIMITS = {
  number: 60,
  surname: 64,
  givenName: 64,
  givenNames: 5,
  middleName: 64,
  middleNames: 3,
  suffix: 16,
  title: 16,
  birthplace: 200,
} as const;

/** Codes in PADIS 7365 that the spec refuses anyway: 711 driver's licence, 9PT. */
export const REFUSED_TYPES: ReadonlySet<string> = new Set(["711", "9PT"]);

/** ICAO Doc 9303 sex values. */
export const GENDERS: ReadonlySet<string> = new Set(["F", "M", "U", "X"]);
