export { AIRPORTS, DIRECT_ROUTES, cityPairs, type Airport } from "./network";
