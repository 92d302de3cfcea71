/**
 * Rich media (SHPRMD): pictures of catalogue products, each with a translated caption. URLs are
 * on the sandbox's media host; they need not resolve for the offer to be valid.
 */
export interface Picture {
  id: string;
  url: string;
  mediaType: "image/jpeg" | "image/png";
  widthPx: number;
  heightPx: number;
  captionKey: string;
}

const MEDIA_HOST = "https://media.sandbox-airline.example";
const pic = (id: string, file: string): Picture => ({
  id,
  url: `${MEDIA_HOST}/catalogue/${file}`,
  mediaType: "image/jpeg",
  widthPx: 1200,
  heightPx: 800,
  captionKey: `picture.${id}.caption`,
});

export const PICTURES: readonly Picture[] = [
  pic("PIC-MEAL", "hot-meal.jpg"),
  pic("PIC-MLVG", "vegetarian-meal.jpg"),
  pic("PIC-WIFI", "wifi.jpg"),
  pic("PIC-LNGE", "lounge.jpg"),
  pic("PIC-PETC", "pet-in-cabin.jpg"),
  pic("PIC-BNDL-COMFORT", "comfort-pack.jpg"),
];

export function picture(id: string): Picture | undefined {
  return PICTURES.find((p) => p.id === id);
}
