// Identity documents: only @ndc/pii reads or writes them; it owns the encryption and the masking (decision 0011).
export * from "./identity-documents";
export * from "./signed-originals";
export * from "./erasures";
