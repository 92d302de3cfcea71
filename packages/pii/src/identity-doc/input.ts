/**
 * An IdentityDoc as an XML decoder hands it over: every leaf a string (trimmed text content,
 * absent when the element is absent), repeated elements as arrays, element names as in the
 * 24.4 IdentityDocType. Nested Visa, AddlName, and the passenger's RedressCase and FOID are not
 * members on purpose (spec 2.4): a decoder has nowhere to put them, so they are never read.
 */
export interface IdentityDocInput {
  IdentityDocTypeCode?: string;
  IdentityDocID?: string;
  CitizenshipCountryCode?: string;
  IssuingCountryCode?: string;
  ResidenceCountryCode?: string;
  IssueDate?: string;
  ExpiryDate?: string;
  Birthdate?: string;
  BirthplaceText?: string;
  GenderCode?: string;
  Surname?: string;
  GivenName?: string[];
  MiddleName?: string[];
  SuffixName?: string;
  TitleName?: string;
}

export type Gender = "F" | "M" | "U" | "X";

/** A document that passed validateIdentityDoc: optional fields are undefined, never "". */
export interface ValidIdentityDoc {
  type: string;
  number: string;
  citizenship?: string;
  issuingCountry?: string;
  residenceCountry?: string;
  /** ISO dates, YYYY-MM-DD. */
  issueDate?: string;
  expiryDate?: string;
  birthDate?: string;
  birthplace?: string;
  gender?: Gender;
  holderSurname: string;
  givenNames: string[];
  middleNames: string[];
  suffix?: string;
  title?: string;
}
