import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GatewayError } from "@ndc/errors";
import type { IdentityDocInput } from "@ndc/pii";

/** A complete, valid document with obviously fictitious data. */
export function validInput(over: Partial<IdentityDocInput> = {}): IdentityDocInput {
  return {
    IdentityDocTypeCode: "PT",
    IdentityDocID: "TESTDOC0001",
    CitizenshipCountryCode: "FR",
    IssuingCountryCode: "FR",
    ResidenceCountryCode: "BE",
    IssueDate: "2020-01-15",
    ExpiryDate: "2030-01-14",
    Birthdate: "1980-06-30",
    BirthplaceText: "Testville",
    GenderCode: "X",
    Surname: "Testperson",
    GivenName: ["Alex"],
    MiddleName: ["Sample"],
    SuffixName: "Jr",
    TitleName: "Dr",
    ...over,
  };
}

/** The refusal a call throws, as code and element; "accepted" when it does not throw. */
export function outcome(fn: () => unknown): { code: string; element?: string } | "accepted" {
  try {
    fn();
    return "accepted";
  } catch (e) {
    if (e instanceof GatewayError) return { code: e.code, element: e.element };
    throw e;
  }
}

/** Temp dirs made by a test file, removed in its afterAll. */
export function tempDirs(prefix: string) {
  const made: string[] = [];
  return {
    make: () => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
    clean: () => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}

export const testKey = (version = 1, fill = 7) => ({ key: new Uint8Array(32).fill(fill), version });
export const chars = (n: number, c = "a") => c.repeat(n);
