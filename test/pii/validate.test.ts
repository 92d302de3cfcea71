import { describe, expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { validateIdentityDoc, type IdentityDocInput } from "@ndc/pii";
import { chars, outcome, validInput } from "./helpers";

const INVALID = "identity_document_invalid";
const COUNTRY = "identity_document_country_invalid";
const TYPE = "identity_document_type_unknown";

type Case = [name: string, over: Partial<IdentityDocInput>, expected: "accepted" | [code: string, element: string]];

function run(cases: Case[]) {
  test.each(cases)("%s", (_name, over, expected) => {
    const got = outcome(() => validateIdentityDoc(validInput(over)));
    if (expected === "accepted") expect(got).toBe("accepted");
    else expect(got).toEqual({ code: expected[0], element: `IdentityDoc/${expected[1]}` });
  });
}

describe("lengths at and beyond each limit", () => {
  const limit = (field: keyof IdentityDocInput, max: number, list = false): Case[] => {
    const v = (n: number) => (list ? [chars(n)] : chars(n));
    return [
      [`${field} of ${max} characters`, { [field]: v(max) }, "accepted"],
      [`${field} of ${max + 1} characters`, { [field]: v(max + 1) }, [INVALID, field]],
    ];
  };
  run([
    ...limit("IdentityDocID", 60),
    ...limit("Surname", 64),
    ...limit("GivenName", 64, true),
    ...limit("MiddleName", 64, true),
    ...limit("SuffixName", 16),
    ...limit("TitleName", 16),
    ...limit("BirthplaceText", 200),
    ["5 given names", { GivenName: ["A", "B", "C", "D", "E"] }, "accepted"],
    ["6 given names", { GivenName: ["A", "B", "C", "D", "E", "F"] }, [INVALID, "GivenName"]],
    ["3 middle names", { MiddleName: ["A", "B", "C"] }, "accepted"],
    ["4 middle names", { MiddleName: ["A", "B", "C", "D"] }, [INVALID, "MiddleName"]],
    ["a long given name among short ones", { GivenName: ["A", chars(65)] }, [INVALID, "GivenName"]],
    // Characters are code points: 64 astral characters are 128 UTF-16 units and still fit.
    ["64 characters outside the BMP", { Surname: chars(64, "𠀀") }, "accepted"],
    ["65 characters outside the BMP", { Surname: chars(65, "𠀀") }, [INVALID, "Surname"]],
  ]);
});

describe("required fields", () => {
  run([
    ["number missing", { IdentityDocID: undefined }, [INVALID, "IdentityDocID"]],
    ["number empty", { IdentityDocID: "" }, [INVALID, "IdentityDocID"]],
    ["number blank", { IdentityDocID: "   " }, [INVALID, "IdentityDocID"]],
    ["surname missing", { Surname: undefined }, [INVALID, "Surname"]],
    ["surname empty", { Surname: "" }, [INVALID, "Surname"]],
  ]);
});

describe("document type (PADIS 7365)", () => {
  run([
    ["PT passport", { IdentityDocTypeCode: "PT" }, "accepted"],
    ["709 national ID", { IdentityDocTypeCode: "709" }, "accepted"],
    ["AF: in the list though not a document", { IdentityDocTypeCode: "AF" }, "accepted"],
    ["711 driver's licence", { IdentityDocTypeCode: "711" }, [TYPE, "IdentityDocTypeCode"]],
    ["9PT", { IdentityDocTypeCode: "9PT" }, [TYPE, "IdentityDocTypeCode"]],
    ["unknown code", { IdentityDocTypeCode: "ZZZ" }, [TYPE, "IdentityDocTypeCode"]],
    ["lower-case pt", { IdentityDocTypeCode: "pt" }, [TYPE, "IdentityDocTypeCode"]],
    ["empty", { IdentityDocTypeCode: "" }, [TYPE, "IdentityDocTypeCode"]],
    ["missing", { IdentityDocTypeCode: undefined }, [TYPE, "IdentityDocTypeCode"]],
  ]);
});

describe("countries (ISO 3166-1 alpha-2)", () => {
  const fields = ["CitizenshipCountryCode", "IssuingCountryCode", "ResidenceCountryCode"] as const;
  run(
    fields.flatMap((f): Case[] => [
      [`${f} DE`, { [f]: "DE" }, "accepted"],
      [`${f} absent`, { [f]: undefined }, "accepted"],
      [`${f} lower-case de`, { [f]: "de" }, [COUNTRY, f]],
      [`${f} 3-letter DEU`, { [f]: "DEU" }, [COUNTRY, f]],
      [`${f} unassigned XX`, { [f]: "XX" }, [COUNTRY, f]],
      [`${f} user-assigned XK`, { [f]: "XK" }, [COUNTRY, f]],
      [`${f} reserved UK`, { [f]: "UK" }, [COUNTRY, f]],
      [`${f} empty`, { [f]: "" }, [COUNTRY, f]],
    ]),
  );
});

describe("dates", () => {
  const fields = ["IssueDate", "ExpiryDate", "Birthdate"] as const;
  run(
    fields.flatMap((f): Case[] => [
      [`${f} 2024-02-29 (leap year)`, { [f]: "2024-02-29" }, "accepted"],
      [`${f} 2000-02-29 (400-year leap)`, { [f]: "2000-02-29" }, "accepted"],
      [`${f} 2023-02-29`, { [f]: "2023-02-29" }, [INVALID, f]],
      [`${f} 1900-02-29`, { [f]: "1900-02-29" }, [INVALID, f]],
      [`${f} 2024-04-31`, { [f]: "2024-04-31" }, [INVALID, f]],
      [`${f} 2024-13-01`, { [f]: "2024-13-01" }, [INVALID, f]],
      [`${f} 2024-00-10`, { [f]: "2024-00-10" }, [INVALID, f]],
      [`${f} 2024-1-5`, { [f]: "2024-1-5" }, [INVALID, f]],
      [`${f} 05/01/2024`, { [f]: "05/01/2024" }, [INVALID, f]],
      [`${f} with a time`, { [f]: "2024-01-05T00:00:00Z" }, [INVALID, f]],
      [`${f} empty`, { [f]: "" }, [INVALID, f]],
    ]),
  );
});

describe("gender (ICAO Doc 9303)", () => {
  run([
    ...(["F", "M", "U", "X"] as const).map((g): Case => [`gender ${g}`, { GenderCode: g }, "accepted"]),
    ["gender absent", { GenderCode: undefined }, "accepted"],
    ...["f", "O", "Male", ""].map((g): Case => [`gender "${g}"`, { GenderCode: g }, [INVALID, "GenderCode"]]),
  ]);
});

test("the valid document comes out normalised", () => {
  const v = validateIdentityDoc(validInput({ GivenName: [" Alex ", ""], SuffixName: "", BirthplaceText: undefined }));
  expect(v.type).toBe("PT");
  expect(v.givenNames).toEqual(["Alex"]);
  expect(v.suffix).toBeUndefined();
  expect(v.birthplace).toBeUndefined();
  expect(v.gender).toBe("X");
  expect(v.expiryDate).toBe("2030-01-14");
});

test("nested Visa, AddlName, RedressCase and FOID are never read", () => {
  // A decoder that passed them along anyway: getters that fail if touched.
  const input = validInput() as IdentityDocInput & Record<string, unknown>;
  for (const k of ["Visa", "AddlName", "RedressCase", "FOID"])
    Object.defineProperty(input, k, { enumerable: true, get: () => { throw new Error(`${k} was read`); } });
  const v = validateIdentityDoc(input);
  expect(Object.keys(v).sort()).toEqual(
    ["birthDate", "birthplace", "citizenship", "expiryDate", "gender", "givenNames", "holderSurname", "issueDate", "issuingCountry", "middleNames", "number", "residenceCountry", "suffix", "title", "type"],
  );
});

test("error texts never carry the refused value", () => {
  const secret = "SECRETVALUE1234";
  const inputs: Partial<IdentityDocInput>[] = [
    { IdentityDocID: secret + chars(60) },
    { Surname: secret + chars(64) },
    { GivenName: [secret + chars(64)] },
    { BirthplaceText: secret + chars(200) },
    { CitizenshipCountryCode: secret },
    { IssueDate: secret },
    { GenderCode: secret },
    { IdentityDocTypeCode: secret },
  ];
  for (const over of inputs) {
    let err: unknown;
    try {
      validateIdentityDoc(validInput(over));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    const g = err as GatewayError;
    expect(`${g.message} ${g.detail} ${g.element} ${g.stack}`.includes(secret)).toBe(false);
  }
});
