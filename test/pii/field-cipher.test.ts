import { describe, expect, test } from "bun:test";
import { FieldDecryptError, openField, sealField, type FieldBinding } from "@ndc/pii";
import { testKey } from "./helpers";

const key = testKey(4);
const at: FieldBinding = { orderId: "ORD-1", paxId: "PAX-1", documentId: "DOC-1" };
const NUMBER = "TESTNUMBER-42";

test("round trip, key version stored beside the ciphertext", () => {
  const s = sealField(NUMBER, key, at);
  expect(s.keyVersion).toBe(4);
  expect(s.nonce.length).toBe(12);
  expect(s.ciphertext.length).toBe(Buffer.byteLength(NUMBER) + 16);
  expect(Buffer.from(s.ciphertext).includes(NUMBER)).toBe(false);
  expect(openField(s, key, at)).toBe(NUMBER);
});

test("a non-ASCII value survives the round trip", () => {
  expect(openField(sealField("Ü-№-𠀀", key, at), key, at)).toBe("Ü-№-𠀀");
});

describe("a ciphertext moved to another binding fails", () => {
  const sealed = sealField(NUMBER, key, at);
  test.each([
    ["another order", { ...at, orderId: "ORD-2" }],
    ["another passenger", { ...at, paxId: "PAX-2" }],
    ["another document", { ...at, documentId: "DOC-2" }],
    // Length prefixes: shifting a boundary between parts is a different binding.
    ["same characters, other split", { orderId: "ORD-1PAX", paxId: "-1", documentId: "DOC-1" }],
  ])("%s", (_n, other) => {
    expect(() => openField(sealed, key, other)).toThrow(FieldDecryptError);
  });
});

describe("tampering fails", () => {
  const sealed = sealField(NUMBER, key, at);
  const flip = (b: Uint8Array, i: number) => {
    const c = Uint8Array.from(b);
    c[i]! ^= 1;
    return c;
  };
  test.each([
    ["a ciphertext byte", { ...sealed, ciphertext: flip(sealed.ciphertext, 0) }],
    ["a tag byte", { ...sealed, ciphertext: flip(sealed.ciphertext, sealed.ciphertext.length - 1) }],
    ["the nonce", { ...sealed, nonce: flip(sealed.nonce, 5) }],
    ["truncated", { ...sealed, ciphertext: sealed.ciphertext.subarray(0, 10) }],
    ["short nonce", { ...sealed, nonce: sealed.nonce.subarray(0, 8) }],
  ])("%s", (_n, bad) => {
    expect(() => openField(bad, key, at)).toThrow(FieldDecryptError);
  });
});

test("another key fails; a key version mismatch is named", () => {
  const sealed = sealField(NUMBER, key, at);
  expect(() => openField(sealed, testKey(4, 9), at)).toThrow(FieldDecryptError);
  expect(() => openField(sealed, testKey(5), at)).toThrow(/key version 4.*version 5/);
  // An edited version column with the right key bytes still fails: the version is authenticated.
  expect(() => openField({ ...sealed, keyVersion: 5 }, testKey(5), at)).toThrow(FieldDecryptError);
});

test("errors never carry the value", () => {
  const sealed = sealField(NUMBER, key, at);
  const failures = [() => openField(sealed, key, { ...at, orderId: "X" }), () => openField(sealed, testKey(9), at)];
  for (const f of failures) {
    const e = (() => {
      try {
        f();
      } catch (err) {
        return err as Error;
      }
    })();
    expect(e).toBeInstanceOf(FieldDecryptError);
    expect(`${e!.message} ${e!.stack}`.includes(NUMBER)).toBe(false);
  }
});

test("nonces are unique over 10,000 encryptions of the same value", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) seen.add(Buffer.from(sealField(NUMBER, key, at).nonce).toString("hex"));
  expect(seen.size).toBe(10_000);
});
