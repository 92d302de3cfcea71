export { loadFieldKey, type FieldKey } from "./field-key";
