/** Passengers as 24.4 types them: adults (ADT), children (CHD) and lap infants (INF). */
export type PassengerType = "ADT" | "CHD" | "INF";

export interface PartyMember {
  paxId: string;
  ptc: PassengerType;
}

/** PAX1..PAXn: adults first, then children, then infants, the ids every later message names. */
export function party(counts: { adults: number; children?: number; infants?: number }): PartyMember[] {
  const out: PartyMember[] = [];
  const add = (n: number, ptc: PassengerType) => {
    for (let i = 0; i < n; i++) out.push({ paxId: `PAX${out.length + 1}`, ptc });
  };
  add(counts.adults, "ADT");
  add(counts.children ?? 0, "CHD");
  add(counts.infants ?? 0, "INF");
  return out;
}

export function paxList(members: readonly PartyMember[]): string {
  return `<cns:PaxList>${members.map((m) => `<cns:Pax><cns:PaxID>${m.paxId}</cns:PaxID><cns:PTC>${m.ptc}</cns:PTC></cns:Pax>`).join("")}</cns:PaxList>`;
}
