export { decodeOrderRulesRQ, type OrderRulesRequest } from "./decode";
export { encodeOrderRulesRS } from "./encode";
export { orderRulesViewOf } from "./view-of";
export type { OrderRulesView, RulesView, PenaltyView } from "./view";
