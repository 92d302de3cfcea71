import { createHmac } from "node:crypto";
import type { FieldKey } from "@ndc/pii";

/**
 * A keyed digest of a surname for OrderList's filter: the index holds no name, and without the
 * field key nobody can test a list of names against it. Case and surrounding space do not count.
 */
export function surnameDigest(key: FieldKey, surname: string): string {
  return createHmac("sha256", key.key).update(`ndc-gateway/order-surname/v1\0${surname.trim().toUpperCase()}`).digest("hex").slice(0, 32);
}
