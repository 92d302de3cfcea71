// The simulated airline's supply: a pure domain package (no HTTP, no XML). docs/supply.md.
export { AIRPORTS, DIRECT_ROUTES, INTERLINE_ROUTES, HUBS, cityPairs, secureFlightApplies, type Airport } from "./network";
export { createSupply, SUPPLY_MEMO_MAX, type Supply, type SupplyOptions, type PricedSeatMap } from "./supply";

export { stableId } from "./core/ids";
export { Memo } from "./core/memo";
export { rngFor, hash53, type Rng } from "./core/random";
export { addDays, daysBetween } from "./core/dates";
export { describeInstant, type LocalTime } from "./core/timezone";

// Money itself (exponents, rounding, decimal text) is @ndc/money; the airline's rates are here.
export { BASE_CURRENCY, RATE_TABLE, convert } from "./exchange/rates";

export { HORIZON_DAYS, FlightSchedule, type Flight, type CabinCode } from "./schedule/flights";
export { flightKey, parseFlightKey, type FlightKeyParts } from "./schedule/flight-key";
export { journeysOn, minimumConnection, MINIMUM_CONNECTION_MINUTES, MAXIMUM_CONNECTION_MINUTES, INTERLINE_EXTRA_MINUTES, type Journey } from "./schedule/connections";
export { PARTNERS, CODESHARES, ownCarrier, type Carrier } from "./schedule/carriers";
export { AIRCRAFT, aircraft, type AircraftType } from "./schedule/aircraft";
export { distanceKm, blockMinutes, LONG_HAUL_KM } from "./schedule/geo";
export { buildTimetable, type ScheduledLeg } from "./schedule/timetable";

export { buildSeatMap, type Seat, type SeatMap, type SeatMapCabin } from "./seats/seat-map";
export type { CabinComponent } from "./seats/cabin-components";
export { SEAT_LAYOUTS, type SeatLayout, type CabinLayout } from "./seats/layouts";
export { SEAT_CHARACTERISTICS, ALL_SEAT_CHARACTERISTICS, type SeatCharacteristic } from "./seats/characteristics";

export { PAX_TYPES, FARE_PAYING, MAX_SEATED_PAX, partyBreach, type PartyBreach, type PaxType } from "./fares/pax";
export { FARE_BRANDS, fareBrand, brandsForCabin, type FareBrand, type BaggageAllowance, type BrandBundle } from "./fares/brands";
export { readBrandPolicy, conditionsFor, BrandPolicyUnreadable, SUPPLIER_CONDITIONS, type FareConditions, type ConditionsOutcome } from "./fares/brand-policy";
export { baseFare, type FareQuery } from "./fares/fares";
export { segmentTaxes, journeyTaxes, type TaxLine } from "./fares/taxes";
export { CHANGE_FEE_BANDS, bandAt, bandFeeMinor, cancelPenaltyId, departureReadAsUtc, outboundDepartureAsUtc, type FeeBand, type BandAt } from "./fares/fee-bands";
export { priceJourney, type PaxCounts, type PricedJourney, type PricedPax, type PriceJourneyInput } from "./fares/price-journey";

export { TAXONOMY_NODES, taxonomyNode, codesetPath, ancestry, isAtOrBelow, type TaxonomyNode } from "./taxonomy/tree";
export { selectedBy, filterByCriteria, type Criterion, type ServiceCriteria, type Classified } from "./taxonomy/criteria";

export { CATALOGUE_SERVICES, catalogueService, serviceByRfisc, type CatalogueService, type ServiceKind } from "./catalogue/services";
export { SERVICE_BUNDLES, serviceBundle, type ServiceBundle } from "./catalogue/bundles";
export { PICTURES, picture, type Picture } from "./catalogue/pictures";
export { RIDES, ridesAt, rideByCode, type Ride, type RideMode } from "./catalogue/rides";
export { PARTNER_PRODUCTS, PARTNER_CATEGORY_NODES, partnerProduct, partnerProductsFor, type PartnerProduct, type PartnerCategory } from "./catalogue/partners";
export { priceService, priceBundle, priceRide, pricePartnerProduct, priceSeat, type PricedItem } from "./catalogue/price-items";

export { translate, contentKeys, coverage, UnknownContentKey, type Translation } from "./i18n/translate";
export { CONTENT_LANGUAGES, chooseLanguage, primarySubtag, isContentLanguage, type ContentLanguage } from "./i18n/lang";

export { PROMOTION_RULES, type PromotionRule, type Channel, type AdjustableKind, type RuleAmount } from "./promotions/rules";
export { evaluatePromotions, netAdjustment, type AdjustableItem, type PromotionRequest, type PromotionResult, type Adjustment, type RuleNotApplied } from "./promotions/evaluate";
export { SimulatedPromotionsEngine, askPromotions, PromotionsEngineError, type PromotionsEngine, type EngineMode, type AskOutcome } from "./promotions/engine";
