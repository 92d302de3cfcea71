import type { IdentityDocInput } from "@ndc/pii";
import { invalid, list, opt, optText, reqText, texts, type Cursor } from "../../../shopping/shared/cursor";
import { date } from "../../../shopping/shared/values";
import { identityDoc } from "./identity-doc";

/** A loyalty programme account of a passenger (LoyaltyProgramAccount). */
export interface OrderPaxLoyalty {
  /** LoyaltyProgram/Carrier/AirlineDesigCode, else ProgramCode. */
  programme?: string;
  accountNumber?: string;
  tierCode?: string;
}

/**
 * A passenger of OrderCreateRQ (PaxType), fully described (spec 2.3). Read from a closed list
 * of elements: FOID, RedressCase, Employer, Remark and the name's AddlName are never looked up.
 */
export interface OrderPax {
  paxId: string;
  ptc?: string;
  birthDate?: string;
  citizenship?: string;
  residenceCountry?: string;
  /** Individual: the passenger's name. */
  title?: string;
  givenNames: string[];
  middleNames: string[];
  surname?: string;
  suffix?: string;
  gender?: string;
  contactInfoId?: string;
  loyalty: OrderPaxLoyalty[];
  /** Raw documents for @ndc/pii's validateIdentityDoc; never logged, never echoed. */
  identityDocs: IdentityDocInput[];
}

/** A contact (ContactInfoList/ContactInfo): e-mail addresses are what partner products need. */
export interface OrderContact {
  contactInfoId: string;
  emails: string[];
  phones: string[];
}

function loyalty(l: Cursor): OrderPaxLoyalty {
  const out: OrderPaxLoyalty = {};
  const prog = opt(l, "LoyaltyProgram");
  const programme = optText(opt(prog, "Carrier"), "AirlineDesigCode") ?? optText(prog, "ProgramCode");
  if (programme) out.programme = programme;
  const account = optText(l, "AccountNumber");
  if (account) out.accountNumber = account;
  const tier = optText(l, "TierCode");
  if (tier) out.tierCode = tier;
  return out;
}

/** 24.4 GenderCodeContentType. */
const GENDER_CODES: readonly string[] = ["F", "M", "U", "X"];

function pax(p: Cursor): OrderPax {
  const paxId = reqText(p, "PaxID");
  const ind = opt(p, "Individual");
  const out: OrderPax = {
    paxId,
    givenNames: texts(ind, "GivenName"),
    middleNames: texts(ind, "MiddleName"),
    loyalty: list(p, "LoyaltyProgramAccount").map(loyalty),
    identityDocs: list(p, "IdentityDoc").map(identityDoc),
  };
  const ptc = optText(p, "PTC");
  if (ptc !== undefined) {
    if (!/^[A-Z0-9]{3}$/.test(ptc)) throw invalid(`${p.path}/PTC`, "PTC is a 3-character passenger type code such as ADT, CHD or INF.");
    out.ptc = ptc;
  }
  const birth = optText(p, "Birthdate") ?? optText(ind, "Birthdate");
  if (birth !== undefined) out.birthDate = date(birth, `${p.path}/Birthdate`);
  const set = (key: "citizenship" | "residenceCountry" | "title" | "surname" | "suffix" | "gender" | "contactInfoId", v: string | undefined) => {
    if (v !== undefined) out[key] = v;
  };
  set("citizenship", optText(p, "CitizenshipCountryCode"));
  set("residenceCountry", optText(p, "ResidenceCountryCode"));
  set("title", optText(ind, "TitleName"));
  set("surname", optText(ind, "Surname"));
  set("suffix", optText(ind, "SuffixName"));
  const gender = optText(ind, "GenderCode");
  if (gender !== undefined && !GENDER_CODES.includes(gender)) throw invalid(`${ind!.path}/GenderCode`, "GenderCode is one of F, M, U, X (24.4 GenderCodeContentType).");
  set("gender", gender);
  set("contactInfoId", optText(p, "ContactInfoRefID"));
  return out;
}

/** DataLists/PaxList/Pax; PaxIDs must be unique because items, seats and contacts refer to them. */
export function orderPassengers(dataLists: Cursor | undefined): OrderPax[] {
  const seen = new Set<string>();
  return list(opt(dataLists, "PaxList"), "Pax").map((c) => {
    const p = pax(c);
    if (seen.has(p.paxId)) throw invalid(`${c.path}/PaxID`, `PaxID ${p.paxId} is used twice.`);
    seen.add(p.paxId);
    return p;
  });
}

/** DataLists/ContactInfoList/ContactInfo: ids, e-mail addresses and phone numbers only. */
export function orderContacts(dataLists: Cursor | undefined): OrderContact[] {
  return list(opt(dataLists, "ContactInfoList"), "ContactInfo").map((c) => ({
    contactInfoId: reqText(c, "ContactInfoID"),
    emails: list(c, "EmailAddress").map((e) => reqText(e, "EmailAddressText")),
    phones: list(c, "Phone")
      .map((ph) => [optText(ph, "CountryDialingCode"), optText(ph, "AreaCodeNumber"), optText(ph, "PhoneNumber")].filter(Boolean).join(" "))
      .filter((s) => s.length > 0),
  }));
}
