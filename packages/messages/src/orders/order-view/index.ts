export { encodeOrderViewRS } from "./encode";
export { orderViewOf } from "./view-of";
export { encodeOrderSnapshot } from "./snapshot";
