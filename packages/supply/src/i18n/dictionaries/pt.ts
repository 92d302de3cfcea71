/** Portuguese (pt, pt-BR, pt-PT): stations and cabins only. */
export const PT: Readonly<Record<string, string>> = {
  "station.LHR": "Londres Heathrow",
  "station.CDG": "Paris Charles de Gaulle",
  "station.FRA": "Frankfurt",
  "station.MAD": "Madri Barajas",
  "station.FCO": "Roma Fiumicino",
  "station.AMS": "Amsterdã Schiphol",
  "station.JFK": "Nova York John F. Kennedy",
  "station.DXB": "Dubai Internacional",
  "station.SIN": "Singapura Changi",
  "station.GRU": "São Paulo Guarulhos",
  "cabin.ECONOMY": "Econômica",
  "cabin.BUSINESS": "Executiva",
};
