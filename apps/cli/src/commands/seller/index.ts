import type { CliIo } from "../../io";
import { parse, Usage } from "../args";
import { certify } from "./certify";
import { CONNECTION_OPTIONS, sellerContext, SWITCHES, type SellerContext } from "./context";
import { listen } from "./listen";
import { book, cancel, list, retrieve } from "./orders";
import { PARTY_OPTIONS } from "./party";
import { price, seats, shop, token } from "./shopping";
import { sign, verify } from "./sign";

/**
 * `ndc-gateway seller ...`: the seller's side of any NDC 24.4 gateway, built on
 * @ndc-gateway/client (docs/seller-toolkit.md). Exit codes: 0 done, 1 the gateway refused or a
 * check failed, 2 the command line is wrong (a party that cannot fly is caught here, before
 * anything is sent).
 */
export const SELLER_USAGE = `usage: ndc-gateway seller <command> --base-url URL [--client-id ID --client-secret SECRET] [--token-url URL] [--json]
  token                                       take a token (client credentials) and print it
  shop --from XXX --to YYY --date YYYY-MM-DD [--adults N --children N --infants N] [--cabin M|C] [--currency EUR]
  price OFFER_ID ITEM_ID:PAX[,PAX]...          price items of a shopped offer (as shop prints them)
  seats OFFER_ID | --order ORDER_ID           the seats for sale
  book --from --to --date [party] --names "Given SURNAME,..." [--birthdates YYYY-MM-DD,...] [--titles MR,...]
       [--brand FLEX] [--card-token TOKEN]    shop and book the first offer: held, or paid with a PSP card token
  retrieve ORDER_ID | list [--since ISO-TIME] | cancel ORDER_ID
  sign FILE --key KEY.pem --cert CERT.pem [--out FILE]   sign an XML request (24.4 Signature/SignatureType)
  verify FILE [--cert CERT.pem]               verify a signed XML (without --cert: the airline certificate from discovery)
  listen --port N [--secret whsec_...] [--subscribe EVENTS] [--airline-cert PEM] [--schemas DIR] [--count N] [--tolerance S]
                                              receive pushed notifications: print, check signature and XSD, acknowledge
  certify [--schemas DIR] [--from --to --date] [--card-token T] [--key --cert] [--strict] [--push-timeout S]
                                              the conformance journey; a table of steps, exit 1 on any failure
Credentials also from NDC_CLIENT_ID and NDC_CLIENT_SECRET, the address from NDC_BASE_URL.
--seller AGENCY sells for another agency (an aggregator's grant).`;

type Handler = (ctx: SellerContext) => Promise<number | void>;

const SHOP = ["from", "to", "date", "cabin", "currency", "adults", "children", "infants"];
const COMMANDS: Record<string, { options: readonly string[]; run: Handler }> = {
  token: { options: [], run: token },
  shop: { options: SHOP, run: shop },
  price: { options: ["currency"], run: price },
  seats: { options: ["order"], run: seats },
  book: { options: [...SHOP, ...PARTY_OPTIONS, "brand", "card-token"], run: book },
  retrieve: { options: [], run: retrieve },
  list: { options: ["since"], run: list },
  cancel: { options: [], run: cancel },
  sign: { options: ["out"], run: sign },
  verify: { options: [], run: verify },
  listen: { options: ["port", "host", "secret", "subscribe", "airline-cert", "schemas", "count", "tolerance"], run: listen },
  certify: { options: ["schemas", "from", "to", "date", "card-token", "push-timeout"], run: certify },
};

export async function sellerCommand(args: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = args;
  if (verb === undefined || verb === "help" || verb === "--help") {
    (verb === undefined ? io.err : io.out)(SELLER_USAGE);
    return verb === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, verb) ? COMMANDS[verb] : undefined;
  if (!command) {
    io.err(`seller: unknown command "${verb}"`);
    io.err(SELLER_USAGE);
    return 2;
  }
  try {
    const ctx = sellerContext(io, parse(rest, [...CONNECTION_OPTIONS, ...command.options], SWITCHES));
    return (await command.run(ctx)) ?? 0;
  } catch (e) {
    if (e instanceof Usage) {
      io.err(`seller ${verb}: ${e.message}`);
      return 2;
    }
    const err = e as Error & { code?: string; status?: number };
    io.err(`seller ${verb}: ${err.message}`);
    return 1;
  }
}
