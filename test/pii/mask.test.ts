import { expect, test } from "bun:test";
import { isOmitted, maskedDocument, validateIdentityDoc } from "@ndc/pii";
import { validInput } from "./helpers";

test("exactly type, its name, citizenship, issuing country, expiry and holder surname", () => {
  // Everything the stored document has is offered; only the five fields may come out.
  const doc = validateIdentityDoc(validInput());
  const m = maskedDocument({ ...doc });
  expect(m).toEqual({ type: "PT", typeName: "Passport", citizenship: "FR", issuingCountry: "FR", expiry: "2030-01-14", holderSurname: "Testperson" });
  expect(JSON.stringify(m).includes(doc.number)).toBe(false);
});

test("absent optional fields are left out, not null", () => {
  const m = maskedDocument({ type: "709", holderSurname: "Testperson", citizenship: null, issuingCountry: undefined, expiryDate: null });
  expect(m).toEqual({ type: "709", typeName: "National identity card", holderSurname: "Testperson" });
});

test("a type the airline cannot name is omitted", () => {
  const m = maskedDocument({ type: "AF", holderSurname: "Testperson" });
  expect(m).toEqual({ omitted: true });
  expect(isOmitted(m)).toBe(true);
  expect(isOmitted(maskedDocument({ type: "PT", holderSurname: "Testperson" }))).toBe(false);
});
