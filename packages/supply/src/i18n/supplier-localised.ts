/**
 * Text partners localised themselves and sent us. We pass it on, but cannot vouch for its
 * language, so it is labelled "en" (spec 4.8 rule 4) and flagged so callers can tell.
 */
export const SUPPLIER_LOCALISED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "partner.PP-FOOD-FCO.name": {
    it: "Pranzo a Fiumicino",
    fr: "Déjeuner à Fiumicino",
    de: "Mittagessen in Fiumicino",
  },
  "partner.PP-SPA-DXB.name": {
    fr: "Soin au spa à Dubaï",
    es: "Tratamiento de spa en Dubái",
  },
};
