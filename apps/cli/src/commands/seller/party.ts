import { party, type Passenger, type PartyMember } from "@ndc-gateway/client";
import { Usage, type Parsed } from "../args";
import { count } from "./context";

/**
 * The party of `seller shop` and `seller book`, checked before anything is sent (exit 2): 1 to 9
 * seated passengers (adults and children), lap infants no more than adults (the gateway's own
 * limits, docs/messages/request-limits.md); for a booking, one name and one birth date per
 * passenger, each date real, in the past, and of the passenger's type on the day of travel
 * (adult 12 or over, child 2 to 11, infant under 2).
 */
export const PARTY_OPTIONS = ["adults", "children", "infants", "names", "birthdates", "titles"] as const;

export function partyOf(p: Parsed): PartyMember[] {
  const adults = count(p, "adults", 1, 0, 9);
  const children = count(p, "children", 0, 0, 9);
  const infants = count(p, "infants", 0, 0, 9);
  if (adults + children < 1) throw new Usage("a party needs at least one adult or child");
  if (adults + children > 9) throw new Usage(`at most 9 seated passengers (adults and children), got ${adults + children}`);
  if (infants > adults) throw new Usage(`each lap infant travels on an adult's lap: ${infants} infants for ${adults} adults`);
  return party({ adults, children, infants });
}

function list(p: Parsed, name: string): string[] | undefined {
  const v = p.flags.get(name);
  return v === undefined ? undefined : v.split(",").map((s) => s.trim());
}

/** Age in whole years on `day` (both YYYY-MM-DD). */
function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split("-").map(Number) as [number, number, number];
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

function realDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const AGES: Record<PartyMember["ptc"], [number, number, string]> = {
  ADT: [12, 150, "an adult is 12 or over"],
  CHD: [2, 11, "a child is 2 to 11"],
  INF: [0, 1, "a lap infant is under 2"],
};

/** The passengers of a booking: `--names "Ada LOVELACE, Charles BABBAGE"` (the last word is the surname), `--birthdates`, `--titles`. */
export function passengersOf(p: Parsed, members: readonly PartyMember[], travelDate: string, today: string): Passenger[] {
  const names = list(p, "names");
  const births = list(p, "birthdates");
  const titles = list(p, "titles");
  if (!names) throw new Usage(`--names is required: ${members.length} name(s), "Given SURNAME" separated by commas`);
  if (names.length !== members.length) throw new Usage(`--names gives ${names.length} name(s) for ${members.length} passenger(s)`);
  if (births && births.length !== members.length) throw new Usage(`--birthdates gives ${births.length} date(s) for ${members.length} passenger(s)`);
  if (titles && titles.length !== members.length) throw new Usage(`--titles gives ${titles.length} title(s) for ${members.length} passenger(s)`);
  if (!births && members.some((m) => m.ptc !== "ADT")) throw new Usage("--birthdates is required when the party has children or infants");
  return members.map((m, i) => {
    const words = names[i]!.split(/\s+/).filter(Boolean);
    if (words.length < 2) throw new Usage(`passenger ${i + 1}: "${names[i]}" needs a given name and a surname`);
    if (words.some((w) => w.length > 64)) throw new Usage(`passenger ${i + 1}: a name part is longer than 64 characters`);
    const birthdate = births?.[i];
    if (birthdate !== undefined) {
      if (!realDate(birthdate)) throw new Usage(`passenger ${i + 1}: birth date "${birthdate}" is not a date (YYYY-MM-DD)`);
      if (birthdate > today) throw new Usage(`passenger ${i + 1}: birth date ${birthdate} is in the future`);
      const [min, max, rule] = AGES[m.ptc];
      const age = ageOn(birthdate, travelDate);
      if (age < min || age > max) throw new Usage(`passenger ${i + 1} (${m.ptc}): born ${birthdate}, ${age} on ${travelDate}; ${rule}`);
    }
    return { paxId: m.paxId, ptc: m.ptc, givenName: words.slice(0, -1).join(" "), surname: words.at(-1)!, title: titles?.[i], birthdate };
  });
}
