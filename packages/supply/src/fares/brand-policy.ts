/**
 * Brand policies: the changeable/refundable/cancellable/renameable conditions the airline's
 * revenue team publishes per brand, kept as policy documents that have to be parsed. A document
 * that does not parse is a real failure mode (a bad publish), and the answer then falls back to
 * the conditions the fare supplier filed, with warning fare_conditions_supplier (spec 4.5 rule 2).
 */
export interface FareConditions {
  changeable: boolean;
  refundable: boolean;
  cancellable: boolean;
  renameable: boolean;
}

const CONDITION_NAMES = ["changeable", "refundable", "cancellable", "renameable"] as const;

/** As published. COMFORT's last publish was truncated, so it cannot be read. */
export const BRAND_POLICY_DOCUMENTS: Readonly<Record<string, string>> = {
  SAVER: "changeable=no;refundable=no;cancellable=no;renameable=no",
  LIGHT: "changeable=no;refundable=no;cancellable=yes;renameable=no",
  CLASSIC: "changeable=yes;refundable=no;cancellable=yes;renameable=no",
  COMFORT: "changeable=yes;refundable=ye",
  FLEX: "changeable=yes;refundable=yes;cancellable=yes;renameable=yes",
  BUSINESS: "changeable=yes;refundable=yes;cancellable=yes;renameable=no",
};

/** The fare supplier's filed conditions: coarser, but always present. */
export const SUPPLIER_CONDITIONS: Readonly<Record<string, FareConditions>> = {
  SAVER: { changeable: false, refundable: false, cancellable: false, renameable: false },
  LIGHT: { changeable: false, refundable: false, cancellable: true, renameable: false },
  CLASSIC: { changeable: true, refundable: false, cancellable: true, renameable: false },
  COMFORT: { changeable: true, refundable: false, cancellable: true, renameable: false },
  FLEX: { changeable: true, refundable: true, cancellable: true, renameable: true },
  BUSINESS: { changeable: true, refundable: true, cancellable: true, renameable: false },
};

export class BrandPolicyUnreadable extends Error {
  constructor(
    readonly brandCode: string,
    reason: string,
  ) {
    super(`brand policy of ${brandCode} cannot be read: ${reason}`);
    this.name = "BrandPolicyUnreadable";
  }
}

/** Strict: every condition exactly once, yes or no, nothing else. Throws BrandPolicyUnreadable. */
export function readBrandPolicy(brandCode: string): FareConditions {
  const doc = BRAND_POLICY_DOCUMENTS[brandCode];
  if (doc === undefined) throw new BrandPolicyUnreadable(brandCode, "no policy published");
  const seen = new Map<string, boolean>();
  for (const part of doc.split(";")) {
    const m = /^([a-z]+)=(yes|no)$/.exec(part);
    if (!m || !(CONDITION_NAMES as readonly string[]).includes(m[1]!) || seen.has(m[1]!)) {
      throw new BrandPolicyUnreadable(brandCode, `bad clause "${part}"`);
    }
    seen.set(m[1]!, m[2] === "yes");
  }
  for (const name of CONDITION_NAMES) if (!seen.has(name)) throw new BrandPolicyUnreadable(brandCode, `missing ${name}`);
  return {
    changeable: seen.get("changeable")!,
    refundable: seen.get("refundable")!,
    cancellable: seen.get("cancellable")!,
    renameable: seen.get("renameable")!,
  };
}

export type ConditionsOutcome =
  | { source: "brand"; conditions: FareConditions }
  | { source: "supplier"; conditions: FareConditions; warning: "fare_conditions_supplier"; reason: string };

/** The conditions to put on an offer: the brand policy, else the supplier's, with the warning code. */
export function conditionsFor(brandCode: string): ConditionsOutcome {
  try {
    return { source: "brand", conditions: readBrandPolicy(brandCode) };
  } catch (e) {
    if (!(e instanceof BrandPolicyUnreadable)) throw e;
    const supplier = SUPPLIER_CONDITIONS[brandCode];
    if (!supplier) throw new RangeError(`unknown brand ${brandCode}`);
    return { source: "supplier", conditions: supplier, warning: "fare_conditions_supplier", reason: e.message };
  }
}
