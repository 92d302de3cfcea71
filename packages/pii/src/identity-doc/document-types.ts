/**
 * The airline's own table of identity-document types it can name (spec 2.4 rule 4), keyed by
 * PADIS 7365 code. PADIS 7365 also holds processing indicators that are no document at all
 * (AF, ACK, SA...), which validation lets through because the spec only asks for membership:
 * a stored document whose type is not here is omitted from views with the warning
 * identity_document_not_shown. 711 (driver's licence) and 9PT are refused at input, so they
 * are never here. test/pii/document-types.test.ts checks the table against the code list.
 * To name another type, add a row here and to docs/identity-documents.md.
 */
export const DOCUMENT_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ["PT", "Passport"],
  ["PD", "Diplomatic passport"],
  ["PM", "Service passport"],
  ["SP", "Special passport"],
  ["MPP", "Multi-passenger passport"],
  ["IP", "Passport card"],
  ["709", "National identity card"],
  ["710", "Permanent resident card"],
  ["GC", "Resident alien card"],
  ["VI", "Visa"],
  ["7TR", "Transit visa"],
  ["VC1", "Short-stay visa, single entry"],
  ["VC2", "Short-stay visa, double entry"],
  ["VCM", "Short-stay visa, multiple entry"],
  ["VD", "Long-stay visa"],
  ["L", "Laissez-passer"],
  ["7SR", "Stateless person or refugee travel document"],
  ["AC", "Crew member certificate"],
  ["S", "Seafarer identity document"],
  ["MI", "Military identity card"],
  ["B1", "Border crossing card"],
  ["N1", "US naturalization certificate"],
  ["IN", "NEXUS card"],
  ["IS", "SENTRI card"],
  ["9CA", "Travel permit for Chinese residents to or from Hong Kong and Macau, public affairs"],
  ["9CC", "Travel permit for Hong Kong and Macau residents to or from China"],
  ["9CD", "Travel permit of Mainland residents to or from Mainland China"],
  ["9CN", "Exit and entry permit, Taiwan"],
  ["9CT", "Travel permit for Taiwan residents to or from China"],
  ["9PL", "Exit and entry permit of the People's Republic of China"],
  ["9Q", "Travel permit to Hong Kong and Macau"],
  ["9W", "Travel permit for Chinese residents to or from Hong Kong and Macau"],
]);

/** The display name of a document type, or undefined when the airline cannot name it. */
export function documentTypeName(code: string): string | undefined {
  return DOCUMENT_TYPE_NAMES.get(code);
}
