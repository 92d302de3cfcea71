import { openField, sealField, type FieldKey } from "@ndc/pii";

// The field cipher binds each value to (order, passenger, document); a subscription secret binds
// to its subscription id under a label no order id can take, so a sealed secret moved to another
// subscription (or to a document row) fails authentication.
const bindingOf = (subscriptionId: string) => ({ orderId: "notification-subscription", paxId: subscriptionId, documentId: "secret" });

export interface SealedSecret {
  secretCiphertext: string;
  secretNonce: string;
  keyVersion: number;
}

export function sealSecret(secret: string, key: FieldKey, subscriptionId: string): SealedSecret {
  const s = sealField(secret, key, bindingOf(subscriptionId));
  return { secretCiphertext: Buffer.from(s.ciphertext).toString("base64"), secretNonce: Buffer.from(s.nonce).toString("base64"), keyVersion: s.keyVersion };
}

export function openSecret(row: SealedSecret, key: FieldKey, subscriptionId: string): string {
  return openField(
    { ciphertext: Buffer.from(row.secretCiphertext, "base64"), nonce: Buffer.from(row.secretNonce, "base64"), keyVersion: row.keyVersion },
    key,
    bindingOf(subscriptionId),
  );
}
