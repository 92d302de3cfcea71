import qrcode from "qrcode-generator";

/** The QR code's quiet zone, in modules (ISO/IEC 18004 asks for 4). */
const QUIET = 4;

/**
 * The modules of a QR code carrying `text` (byte mode, error correction M, the smallest version
 * that holds it), quiet zone included: true is dark.
 */
export function qrModules(text: string): boolean[][] {
  const qr = qrcode(0, "M");
  qr.addData(text, "Byte");
  qr.make();
  const n = qr.getModuleCount();
  const size = n + 2 * QUIET;
  return Array.from({ length: size }, (_, r) =>
    Array.from({ length: size }, (_, c) => {
      const rr = r - QUIET;
      const cc = c - QUIET;
      return rr >= 0 && cc >= 0 && rr < n && cc < n && qr.isDark(rr, cc);
    }),
  );
}

/**
 * The enrolment QR code for a terminal (`ndc-gateway staff add`): two module rows per text line
 * with Unicode half blocks, light modules drawn as blocks, as `qrencode -t UTF8` does, so it
 * scans on the usual dark terminal background. An authenticator app reads the otpauth:// URI from it.
 */
export function terminalQr(text: string): string[] {
  const m = qrModules(text);
  const light = (r: number, c: number) => !(m[r]?.[c] ?? false);
  const lines: string[] = [];
  for (let r = 0; r < m.length; r += 2) {
    let line = "";
    for (let c = 0; c < m.length; c++) {
      const top = light(r, c);
      const bottom = r + 1 < m.length ? light(r + 1, c) : false;
      line += top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ";
    }
    lines.push(line);
  }
  return lines;
}
