export { encodeOrderViewRS } from "./encode";
