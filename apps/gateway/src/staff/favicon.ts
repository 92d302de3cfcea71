/**
 * The console's icon (issue 19 item 27: /favicon.ico was a 404 on every page): a 16x16 ICO drawn
 * here, so the repository holds no binary file. The console's navy with a white "S". An ICO with
 * one 32-bit BMP image: ICONDIR, one ICONDIRENTRY, BITMAPINFOHEADER (height doubled: the colour
 * rows and the transparency mask), the rows bottom-up as BGRA, then an all-opaque AND mask.
 */
const GLYPH = [
  "................",
  "................",
  "................",
  ".....######.....",
  "....##....##....",
  "....##..........",
  "....##..........",
  ".....#####......",
  ".........###....",
  "...........##...",
  "...........##...",
  "....##....##....",
  ".....######.....",
  "................",
  "................",
  "................",
];
const SIZE = 16;
const NAVY = [0x6e, 0x3d, 0x0b, 0xff]; // #0b3d6e as BGRA
const WHITE = [0xff, 0xff, 0xff, 0xff];

function drawIcon(): Uint8Array<ArrayBuffer> {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // 16 bits a row, padded to 32
  const image = 40 + pixels + mask;
  const out = new Uint8Array(6 + 16 + image);
  const v = new DataView(out.buffer);
  v.setUint16(2, 1, true); // type: icon
  v.setUint16(4, 1, true); // one image
  out[6] = SIZE;
  out[7] = SIZE;
  v.setUint16(10, 1, true); // planes
  v.setUint16(12, 32, true); // bits per pixel
  v.setUint32(14, image, true);
  v.setUint32(18, 22, true); // where the image starts
  v.setUint32(22, 40, true); // BITMAPINFOHEADER
  v.setInt32(26, SIZE, true);
  v.setInt32(30, SIZE * 2, true);
  v.setUint16(34, 1, true);
  v.setUint16(36, 32, true);
  v.setUint32(42, pixels + mask, true);
  let at = 62;
  for (let row = SIZE - 1; row >= 0; row--) {
    for (const c of GLYPH[row]!) out.set(c === "#" ? WHITE : NAVY, (at += 4) - 4);
  }
  return out; // the AND mask stays zero: every pixel opaque
}

export const FAVICON_ICO = drawIcon();

/** The icon, cacheable for a day: it is the same for everyone and holds nothing of anyone's. */
export function faviconResponse(): Response {
  return new Response(FAVICON_ICO, { headers: { "content-type": "image/x-icon", "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" } });
}
