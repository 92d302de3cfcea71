import { describe, expect, test } from "bun:test";
import jsQR from "jsqr";
import { otpauthUri, qrModules, terminalQr } from "@ndc/staff";
import { staffWorld } from "./support";

/**
 * The enrolment QR code is checked by decoding it (jsQR, a decoder independent of the encoder):
 * the modules, and the terminal rendering read back into modules, both carry the otpauth:// URI.
 */
const URI = otpauthUri("XB Air", "ana.s", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");

/** Modules to an RGBA image, `scale` pixels per module, dark black on white. */
function decode(modules: boolean[][], scale = 4): string | undefined {
  const size = modules.length * scale;
  const rgba = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const v = modules[Math.floor(y / scale)]![Math.floor(x / scale)] ? 0 : 255;
      rgba.set([v, v, v, 255], (y * size + x) * 4);
    }
  return jsQR(rgba, size, size)?.data;
}

/** The terminal lines back into modules: a block or half block is light (as qrencode -t UTF8 draws). */
function modulesOfTerminal(lines: string[]): boolean[][] {
  const rows: boolean[][] = [];
  for (const line of lines) {
    const chars = [...line];
    rows.push(chars.map((ch) => !(ch === "\u2588" || ch === "\u2580")));
    rows.push(chars.map((ch) => !(ch === "\u2588" || ch === "\u2584")));
  }
  return rows.slice(0, [...lines[0]!].length);
}

describe("enrolment QR code", () => {
  test("the modules decode to the otpauth URI, with a quiet zone of 4", () => {
    const m = qrModules(URI);
    expect(decode(m)).toBe(URI);
    expect(m.slice(0, 4).flat().some(Boolean)).toBe(false);
    expect(m.length % 4).toBe(1); // 17 + 4 x version + 8 quiet modules
  });

  test("the terminal rendering decodes to the same URI", () => {
    const lines = terminalQr(URI);
    expect(lines.length).toBe(Math.ceil(qrModules(URI).length / 2));
    expect(decode(modulesOfTerminal(lines))).toBe(URI);
  });

  test("`staff add` prints it after the secret and the URI; --json prints no QR code", async () => {
    const w = await staffWorld();
    try {
      const text = await w.cli(["add", "qr.user", "--role", "agent"]);
      const uri = text.out.find((l) => l.startsWith("totp uri: "))!.slice(10);
      const qr = text.out.slice(text.out.findIndex((l) => l.startsWith("totp uri: ")) + 1);
      expect(qr.length).toBeGreaterThan(10);
      expect(decode(modulesOfTerminal(qr))).toBe(uri);
      const json = await w.cli(["add", "qr.other", "--role", "agent", "--json"]);
      expect(json.out).toHaveLength(1);
    } finally {
      await w.t.close();
    }
  }, 30_000);
});
