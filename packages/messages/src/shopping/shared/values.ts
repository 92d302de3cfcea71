import { invalid, opt, type Cursor } from "./cursor";

/**
 * Shape checks for the simple values the shopping decoders read. They follow the
 * 24.4 simple types (IATA_LocationCodeType is 3 characters, RFIC is [0-9A-Z]{1,3},
 * xs:date, xs:boolean) and refuse what the schema would refuse, nothing stricter.
 */

const LOCATION = /^[A-Z0-9]{3}$/;
const CURRENCY = /^[A-Z]{3}$/;
const RFIC = /^[0-9A-Z]{1,3}$/;
const COLUMN = /^[A-Z]$/;
const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?$/;
const TIME = /^(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(:\d{2}(\.\d+)?)?)(Z|[+-]\d{2}:\d{2})?$/;

export function location(value: string, path: string): string {
  if (!LOCATION.test(value)) throw invalid(path, "An IATA location code is 3 upper-case letters or digits.");
  return value;
}

export function currency(value: string, path: string): string {
  if (!CURRENCY.test(value)) throw invalid(path, "A currency code is 3 upper-case letters (ISO 4217).");
  return value;
}

export function language(value: string, path: string): string {
  if (!LANG.test(value)) throw invalid(path, "A language code is a BCP 47 tag such as en, de or zh-Hant.");
  return value;
}

export function rfic(value: string, path: string): string {
  if (!RFIC.test(value)) throw invalid(path, "RFIC is 1 to 3 upper-case letters or digits.");
  return value;
}

export function column(value: string, path: string): string {
  if (!COLUMN.test(value)) throw invalid(path, "A seat column is one upper-case letter.");
  return value;
}

/** xs:date: the calendar date is kept, a time zone suffix is dropped (dates of travel are local). */
export function date(value: string, path: string): string {
  const m = DATE.exec(value);
  if (!m) throw invalid(path, "A date is written YYYY-MM-DD.");
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    throw invalid(path, "The date does not exist.");
  }
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** xs:time, kept as HH:MM (seconds and zone are not used for shopping). */
export function time(value: string, path: string): string {
  const m = TIME.exec(value);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) throw invalid(path, "A time is written HH:MM or HH:MM:SS.");
  return `${m[1]}:${m[2]}`;
}

/** xs:dateTime split into its local date and HH:MM time. */
export function dateTime(value: string, path: string): { date: string; time: string } {
  const m = DATETIME.exec(value);
  if (!m) throw invalid(path, "A date and time is written YYYY-MM-DDTHH:MM:SS.");
  return { date: date(m[1]!, path), time: time(m[2]!, path) };
}

/** xs:boolean accepts true, false, 1 and 0. */
export function bool(value: string, path: string): boolean {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw invalid(path, "An indicator is true or false.");
}

export function optBool(parent: Cursor, name: string): boolean | undefined {
  const c = opt(parent, name);
  if (!c) return undefined;
  return bool(c.el.text.trim(), c.path);
}

/** A whole number within [min, max], from an xs:integer or xs:decimal element such as SeatRowNumber. */
export function wholeNumber(value: string, path: string, min: number, max: number): number {
  if (!/^\+?\d+(\.0+)?$/.test(value)) throw invalid(path, "A whole number is expected.");
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw invalid(path, `The number must be between ${min} and ${max}.`);
  return n;
}
