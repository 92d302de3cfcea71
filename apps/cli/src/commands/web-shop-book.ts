import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { systemClock, type Clock } from "@ndc/clock";
import { isGatewayError } from "@ndc/errors";
import { openDomain } from "@ndc/domain";
import { postWebhook } from "@ndc/scheduler";
import type { AirShoppingRequest } from "@ndc/messages";
import { eraseIfAccountDeleted, requireOpenAccount, webShopSeller, WebShopAccountError, type PassengerInput } from "@ndc/orders";
import type { FlightOfferPayload } from "@ndc/shopping";
import { PromotionCriteria, shop } from "@ndc/shopping";
import type { IdentityDocInput } from "@ndc/pii";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { parseFlags } from "./web-shop-accounts";

export const WEB_SHOP_BOOK_USAGE = `  book FLIGHT_KEY --passengers FILE [--account ACCOUNT_ID] [--card-token TOKEN] [--email EMAIL]
                                                  book the flight through the order domain NDC uses, for an
                                                  account or a guest; paid by a PSP card token, else held`;

/** One passenger of the --passengers file (JSON array): names, birth date, type, documents as 24.4 names them. */
interface PassengerLine {
  ptc?: string;
  givenNames?: string[];
  surname: string;
  birthdate?: string;
  identityDocs?: IdentityDocInput[];
}

/**
 * `web-shop book ...`: the web shop books a flight the way a seller does, through the same order
 * domain (@ndc/domain, assembled in this process as every gateway worker assembles it:
 * `OrdersService.create`, its order actor, its outbox and its accounting report), selling as the web shop's agency for an account or a guest
 * (decision 0029). An account deleted before the booking refuses it; one deleted while the booking
 * ran is seen after its commit, and the order's documents are erased then.
 */
export async function webShopBookCommand(args: string[], io: CliIo, deps: { clock?: Clock; afterAccountCheck?: () => Promise<void> } = {}): Promise<number> {
  const { values, positional } = parseFlags(args, ["--passengers", "--account", "--card-token", "--email"]);
  if (positional.length !== 1 || !values["--passengers"]) throw new UsageError("web-shop book takes FLIGHT_KEY --passengers FILE");
  const flightKey = positional[0]!.toUpperCase();
  const passengers = readPassengers(values["--passengers"]);
  const account = values["--account"];
  const { config, logger } = loadRuntime(io);
  // The domain alone (no gateway: no auth, no HTTP app), as every process assembles it.
  const domain = await openDomain({ config, logger, clock: deps.clock ?? systemClock, post: postWebhook });
  try {
    if (account) await requireOpenAccount(domain.store.db, account);
    await deps.afterAccountCheck?.();
    const seller = webShopSeller(account);
    const flight = domain.supply.flight(flightKey);
    if (!flight) {
      io.err(`web-shop: flight_not_found: no flight ${flightKey}`);
      return 1;
    }
    const request: AirShoppingRequest = {
      form: "OriginDestinations",
      journeyType: "OneWay",
      originDestinations: [{ origin: flight.origin, destination: flight.destination, departureDate: flight.date, cabins: [], flights: [] }],
      passengers: passengers.map((p, i) => ({ paxId: `PAX${i + 1}`, ptc: p.ptc ?? "ADT", ptcSource: p.ptc ? "PTC" : "default" })),
      serviceCriteria: [],
      preferences: { langUsage: [] },
    };
    const ctx = { supply: domain.supply, offers: domain.orders.ctx.offers, clock: domain.clock, settings: config.shopping, promotionCriteria: new PromotionCriteria(domain.store), ownerCode: config.airline.designator };
    const view = await shop(ctx, request, seller);
    // The first offer whose only journey is this flight alone.
    let chosen: { offerId: string; ownerCode: string; totalMinor: number; currency: string } | undefined;
    for (const o of view.offers) {
      const stored = await domain.orders.ctx.offers.resolve<FlightOfferPayload>(o.offerId, seller);
      const p = stored.payload;
      if (p.kind === "flight" && p.journeys.length === 1 && p.journeys[0]!.flightKeys.join() === flightKey) {
        chosen = { offerId: o.offerId, ownerCode: o.ownerCode, totalMinor: p.totalMinor, currency: p.currency };
        break;
      }
    }
    if (!chosen) {
      io.err(`web-shop: no_offer: ${flightKey} has no offer for this party`);
      return 1;
    }
    const input: PassengerInput[] = passengers.map((p, i) => ({ paxId: `PAX${i + 1}`, givenNames: p.givenNames ?? [], surname: p.surname, ...(p.birthdate ? { birthdate: p.birthdate } : {}), identityDocs: p.identityDocs ?? [] }));
    const token = values["--card-token"];
    const order = await domain.orders.create({
      seller,
      correlationId: `web-shop-${randomUUID()}`,
      trxId: "web-shop",
      selections: [{ offerId: chosen.offerId, ownerCode: chosen.ownerCode }],
      passengers: input,
      ...(values["--email"] ? { contact: { email: values["--email"] } } : {}),
      ...(token ? { payment: [{ kind: "card", token, amount: { amount: chosen.totalMinor, currency: chosen.currency as never } }] } : {}),
    });
    io.out(`booked order ${order.orderId} (${order.state}) for ${account ? `account ${account}` : "a guest"}: ${(order.totalMinor / 100).toFixed(2)} ${order.currency}`);
    if (account) {
      const erased = await eraseIfAccountDeleted(domain.store, account, order.orderId, domain.clock.now());
      if (erased) io.out(`account ${account} was deleted while booking: the order's ${erased} identity document(s) erased`);
    }
    return 0;
  } catch (e) {
    if (e instanceof WebShopAccountError || isGatewayError(e)) {
      io.err(`web-shop: ${e.code}: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await domain.close();
  }
}

function readPassengers(file: string): PassengerLine[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new UsageError(`web-shop book: --passengers ${file} is not a readable JSON file`);
  }
  if (!Array.isArray(parsed) || parsed.length < 1 || parsed.length > 9) throw new UsageError("web-shop book: --passengers holds a JSON array of 1 to 9 passengers");
  for (const p of parsed) {
    if (typeof p !== "object" || p === null || typeof (p as PassengerLine).surname !== "string") throw new UsageError("web-shop book: every passenger needs a surname");
  }
  return parsed as PassengerLine[];
}
