import type { AnswerOutcome } from "../../handler";
import { isDeclineReason } from "@ndc/payments";

const FIRST_ERROR_CODE = /<(?:[\w.-]+:)?Error>\s*<(?:[\w.-]+:)?Code>([^<]{1,64})</;
const WARNING_CODES = /<(?:[\w.-]+:)?Warning>\s*<(?:[\w.-]+:)?Code>([^<]{1,64})</g;

/**
 * What the log line says of an OrderCreate answer. The answer is stored as bytes and replayed
 * byte for byte (DESIGN 5), so the first answer and every replay are read the same way, from
 * the document itself: a refusal's Error Code, or a held order's decline Warning (the PSP's
 * reason for a card, payment_declined for any other leg). Only our own serialisation is read
 * here: Code is the first child of Error and Warning (packages/xml).
 */
export function storedOutcome(document: string): AnswerOutcome {
  // Each pattern needs its element's closing ">" right after the name: a document without that
  // text cannot match, and the plain search skips the regex over a booked order's whole
  // OrderViewRS (tens of KB, scanned at every "<": about 1 % of a booking's CPU, issue 22).
  const error = document.includes("Error>") ? FIRST_ERROR_CODE.exec(document)?.[1] : undefined;
  if (error) return { errorCode: error };
  if (!document.includes("Warning>")) return {};
  for (const [, code] of document.matchAll(WARNING_CODES)) {
    if (isDeclineReason(code)) return { errorCode: "payment_declined", declineReason: code };
    if (code === "payment_declined") return { errorCode: code };
  }
  return {};
}
