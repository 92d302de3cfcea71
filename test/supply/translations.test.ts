import { describe, expect, test } from "bun:test";
import {
  AIRPORTS,
  CATALOGUE_SERVICES,
  FARE_BRANDS,
  PARTNER_PRODUCTS,
  PICTURES,
  PROMOTION_RULES,
  SERVICE_BUNDLES,
  ALL_SEAT_CHARACTERISTICS,
  UnknownContentKey,
  chooseLanguage,
  contentKeys,
  coverage,
  translate,
} from "@ndc/supply";

describe("translations of airline content", () => {
  test("English holds every key the content uses", () => {
    const keys = new Set(contentKeys());
    const used = [
      ...AIRPORTS.map((a) => `station.${a.code}`),
      "cabin.ECONOMY",
      "cabin.BUSINESS",
      ...FARE_BRANDS.flatMap((b) => [b.nameKey, ...b.benefitKeys, ...b.bundle.textItemKeys]),
      ...CATALOGUE_SERVICES.flatMap((s) => [s.nameKey, s.descriptionKey]),
      ...SERVICE_BUNDLES.flatMap((b) => [b.nameKey, b.descriptionKey, ...b.options.map((o) => o.nameKey)]),
      ...PARTNER_PRODUCTS.map((p) => p.nameKey),
      ...ALL_SEAT_CHARACTERISTICS.map((c) => `seat.${c}`),
      ...PROMOTION_RULES.map((r) => r.nameKey),
      ...PICTURES.map((p) => p.captionKey),
    ];
    for (const k of used) expect(keys.has(k)).toBe(true);
  });

  test("at least four languages besides English, none complete (fallback happens in each)", () => {
    for (const lang of ["fr", "de", "es", "zh"]) {
      const c = coverage(lang);
      expect(c.translated).toBeGreaterThan(10);
      expect(c.translated).toBeLessThan(c.total);
    }
  });

  test("translated content comes in the requested language", () => {
    expect(translate("station.CDG", "es")).toEqual({ text: "París Charles de Gaulle", lang: "es", fellBack: false, supplierLocalised: false });
    expect(translate("brand.CLASSIC.name", "fr").text).toBe("Classique");
    expect(translate("seat.W", "de").text).toBe("Fensterplatz");
  });

  test("untranslated content falls back to English and says so", () => {
    expect(translate("service.CELB.name", "fr")).toEqual({ text: "Celebration on board", lang: "en", fellBack: true, supplierLocalised: false });
    expect(translate("brand.FLEX.benefit.1", "zh").fellBack).toBe(true);
    expect(translate("station.LHR", "ja")).toEqual({ text: "London Heathrow", lang: "en", fellBack: true, supplierLocalised: false });
    expect(translate("station.LHR", "en-GB").fellBack).toBe(false);
  });

  test("languages match on the primary subtag: zh-Hant and zh-Hans are zh, pt-BR and pt-PT are pt", () => {
    const zh = translate("cabin.BUSINESS", "zh");
    expect(zh.lang).toBe("zh");
    expect(translate("cabin.BUSINESS", "zh-Hant")).toEqual(zh);
    expect(translate("cabin.BUSINESS", "zh-Hans")).toEqual(zh);
    expect(translate("cabin.BUSINESS", "ZH-hant-TW")).toEqual(zh);
    expect(translate("cabin.ECONOMY", "pt-BR")).toEqual({ text: "Econômica", lang: "pt", fellBack: false, supplierLocalised: false });
    expect(translate("cabin.ECONOMY", "pt-PT").lang).toBe("pt");
    expect(translate("brand.FLEX.name", "pt-BR").fellBack).toBe(true);
  });

  test("text a supplier localised itself is passed on but labelled en", () => {
    expect(translate("partner.PP-FOOD-FCO.name", "fr")).toEqual({ text: "Déjeuner à Fiumicino", lang: "en", fellBack: false, supplierLocalised: true });
    expect(translate("partner.PP-FOOD-FCO.name", "it-IT").lang).toBe("en");
    expect(translate("partner.PP-FOOD-FCO.name", "zh").fellBack).toBe(true);
  });

  test("choosing the content language: first requested tag we translate, else the first asked", () => {
    expect(chooseLanguage(["ja-JP", "de-CH", "fr"])).toBe("de");
    expect(chooseLanguage(["zh-Hant"])).toBe("zh");
    expect(chooseLanguage(["ja"])).toBe("ja");
    expect(chooseLanguage([])).toBe("en");
  });

  test("an unknown key is a programming error, not a fallback", () => {
    expect(() => translate("carrier.XB.name", "fr")).toThrow(UnknownContentKey);
  });
});
