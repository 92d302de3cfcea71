import type { FareConditionsView } from "../model";
// The airline's one fee table (@ndc/supply's fares/fee-bands.ts): for offers, orders, cancellations and OrderRulesRS.
import { bandAt, bandFeeMinor, CHANGE_FEE_BANDS, departureReadAsUtc } from "@ndc/supply";
import type { PricedFlights } from "../common/fares";
import { minorToView } from "../common/money";

/**
 * Bounded by brands' condition sets x bands x currencies (a few hundred); each entry frozen, so the
 * response writer keeps its bytes by identity (write/conditions.ts) as it does for the brand's own.
 */
const withFees = new WeakMap<object, Map<string, FareConditionsView>>();

/**
 * The brand's conditions with the fees of the engine's table (@ndc/supply fee-bands.ts, SHPOR1
 * rule 5) stated on an offer (issue 20 item 9): the fee a change (a changeable fare) or a
 * cancellation (a refundable one: refunded less the same fee, decision 0015) made right after
 * booking would cost per passenger, the band `now` falls in before the outbound's first departure
 * read as UTC (as the order measures it once booked), with the table's lowest and highest fee.
 * A fare neither changeable nor refundable states none.
 */
export function conditionsWithFees(f: PricedFlights, now: number): FareConditionsView {
  const base = f.conditions.conditions as FareConditionsView;
  const first = f.journeys[0]?.segments[0];
  if (!first || !(base.changeable || (base.cancellable && base.refundable))) return base;
  const at = bandAt(CHANGE_FEE_BANDS, departureReadAsUtc(first.departure.local), now);
  if (at.departed) return base;
  const key = `${at.band.id}|${f.currency}`;
  let byBand = withFees.get(base);
  if (!byBand) withFees.set(base, (byBand = new Map()));
  let out = byBand.get(key);
  if (!out) {
    const fee = minorToView(bandFeeMinor(at.band, f.currency), f.currency);
    const fees = CHANGE_FEE_BANDS.map((b) => bandFeeMinor(b, f.currency));
    const feeRange = { min: minorToView(Math.min(...fees), f.currency), max: minorToView(Math.max(...fees), f.currency) };
    const schedule = CHANGE_FEE_BANDS.map((b) => `${b.fee} ${f.currency} from ${b.fromHours} h before departure`).join(", ");
    out = Object.freeze({
      ...base,
      ...(base.changeable ? { changeFee: fee } : {}),
      ...(base.cancellable && base.refundable ? { cancelFee: fee } : {}),
      feeRange,
      feeText: `Per passenger, for a change or refund made now (${at.band.id}); by time to departure: ${schedule}.`,
    });
    byBand.set(key, out);
  }
  return out;
}
