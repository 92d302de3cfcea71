import { describe, expect, test } from "bun:test";
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUri, stepAt, totpAt } from "@ndc/staff";

/**
 * RFC 6238 appendix B (SHA-1 rows; the key is the ASCII "12345678901234567890"): the 8-digit
 * codes given there end in the 6 digits an authenticator app shows.
 */
const KEY = base32Encode(Buffer.from("12345678901234567890", "ascii"));
const VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP (RFC 6238)", () => {
  test.each(VECTORS)("at T=%d the code is the last six digits of %s", (seconds, eight) => {
    expect(totpAt(KEY, seconds * 1000)).toBe(eight.slice(-6));
  });

  test("RFC 4226 appendix D: HOTP counters 0 and 9", () => {
    const secret = Buffer.from("12345678901234567890", "ascii");
    expect(hotp(secret, 0)).toBe("755224");
    expect(hotp(secret, 9)).toBe("520489");
  });

  test("base32 round trip (RFC 4648 vector and random bytes)", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    const bytes = crypto.getRandomValues(new Uint8Array(20));
    expect([...base32Decode(base32Encode(bytes))]).toEqual([...bytes]);
    expect(() => base32Decode("1!")).toThrow(RangeError);
  });

  test("a code is accepted one step either side and refused two steps away; malformed codes never match", () => {
    const now = 1_800_000_000_000;
    const step = stepAt(now);
    expect(matchingStep(KEY, totpAt(KEY, now), now)).toBe(step);
    expect(matchingStep(KEY, totpAt(KEY, now - 30_000), now)).toBe(step - 1);
    expect(matchingStep(KEY, totpAt(KEY, now + 30_000), now)).toBe(step + 1);
    expect(matchingStep(KEY, totpAt(KEY, now - 60_000), now)).toBeUndefined();
    for (const bad of ["", "12345", "1234567", "abcdef", " 12345"]) expect(matchingStep(KEY, bad, now)).toBeUndefined();
  });

  test("the enrolment URI carries issuer, account, secret and the parameters", () => {
    expect(otpauthUri("XB Air", "ana.s", KEY)).toBe(`otpauth://totp/XB%20Air%3Aana.s?secret=${KEY}&issuer=XB%20Air&algorithm=SHA1&digits=6&period=30`);
  });
});
