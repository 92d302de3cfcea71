import type { Clock } from "@ndc/clock";
import { openDomain } from "@ndc/domain";
import { isGatewayError } from "@ndc/errors";
import { WebShopChannel, type SeatAvailability, type SeatStatus } from "@ndc/inventory";
import { postWebhook } from "@ndc/scheduler";
import type { Supply } from "@ndc/supply";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { WEB_SHOP_ACCOUNT_USAGE, webShopAccountCommand } from "./web-shop-accounts";
import { WEB_SHOP_BOOK_USAGE, webShopBookCommand } from "./web-shop-book";

export const WEB_SHOP_USAGE = `usage: ndc-gateway web-shop <command>
  sell-seat FLIGHT_KEY SEAT_ID [--customer REF]   sell one seat through the airline's web shop
  seats FLIGHT_KEY                                the flight's seats as every channel sees them
${WEB_SHOP_BOOK_USAGE}
${WEB_SHOP_ACCOUNT_USAGE}
FLIGHT_KEY is carrier-number-date, e.g. XB-132-2026-11-22.`;

/**
 * `web-shop ...`: the airline's own web shop, the second sales channel (spec 4.4 rule 3),
 * driven from the command line. It sells from the same seat inventory as NDC, through the domain
 * every process of the data directory assembles (@ndc/domain: its actors, its supply, its
 * business clock, so SANDBOX_CLOCK_START/_STARTED_AT put it on the workers' day). A running
 * gateway and this command are two processes on one key: the journal keeps a seat sold once
 * (decision 0040, docs/inventory.md).
 */
export async function runWebShopCommand(args: string[], io: CliIo, deps: { clock?: Clock; afterAccountCheck?: () => Promise<void> } = {}): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(WEB_SHOP_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub === "account") return webShopAccountCommand(rest, io, deps);
  if (sub === "book") return webShopBookCommand(rest, io, deps);
  const { positional, customer } = parse(rest);
  if (sub === "sell-seat" && positional.length !== 2) throw new UsageError(`web-shop sell-seat takes FLIGHT_KEY SEAT_ID\n${WEB_SHOP_USAGE}`);
  if (sub === "seats" && (positional.length !== 1 || customer !== undefined)) throw new UsageError(`web-shop seats takes FLIGHT_KEY\n${WEB_SHOP_USAGE}`);
  if (sub !== "sell-seat" && sub !== "seats") throw new UsageError(`web-shop: unknown command "${sub}"\n${WEB_SHOP_USAGE}`);

  const { config, logger } = loadRuntime(io);
  const domain = await openDomain({ config, logger, clock: deps.clock, post: postWebhook });
  try {
    const shop = new WebShopChannel(domain.inventory);
    const flightKey = positional[0]!.toUpperCase();
    if (sub === "seats") {
      for (const line of renderSeats(domain.supply, await shop.seats(flightKey))) io.out(line);
      return 0;
    }
    const seatId = positional[1]!.toUpperCase();
    const sale = await shop.sellSeat(flightKey, seatId, { customerRef: customer });
    io.out(`sold seat ${seatId} on ${flightKey} (hold ${sale.holdId}, channel web_shop, holder ${sale.holder})`);
    return 0;
  } catch (e) {
    if (!isGatewayError(e)) throw e;
    io.err(`web-shop: ${e.code}: ${e.message}`);
    return 1;
  } finally {
    await domain.close();
  }
}

function parse(args: string[]): { positional: string[]; customer?: string } {
  const positional: string[] = [];
  let customer: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--customer") customer = args[++i];
    else if (a.startsWith("--customer=")) customer = a.slice("--customer=".length);
    else if (a.startsWith("--")) throw new UsageError(`web-shop: unknown option ${a}\n${WEB_SHOP_USAGE}`);
    else positional.push(a);
  }
  if (customer === "") throw new UsageError("web-shop: --customer needs a value");
  return { positional, customer };
}

const MARK: Record<SeatStatus, string> = { available: ".", occupied: "x", held: "h", sold: "s" };

/** A seat map a person can read: one line per row, aisles as gaps, one mark per seat. */
export function renderSeats(supply: Supply, a: SeatAvailability): string[] {
  const status = new Map(a.seats.map((s) => [s.seatId, s.status]));
  const map = supply.seatMap(a.flightKey)!;
  const { available, occupied, held, sold } = a.counts;
  const lines = [
    `${a.flightKey} aircraft ${map.aircraftCode}: ${available} available, ${occupied} occupied, ${held} held, ${sold} sold`,
    `. available  x occupied (other channels)  h held  s sold (NDC or web shop)`,
  ];
  for (const cabin of map.cabins) {
    const layout = (mark: (col: string) => string) => cabin.columns.map((c) => mark(c) + (cabin.aisleAfter.includes(c) ? " " : "")).join("");
    lines.push("", cabin.cabin, `    ${layout((c) => c)}`);
    for (let row = cabin.firstRow; row <= cabin.lastRow; row++) {
      lines.push(`${String(row).padStart(3)} ${layout((c) => MARK[status.get(`${row}${c}`) ?? "available"])}`);
    }
  }
  return lines;
}
