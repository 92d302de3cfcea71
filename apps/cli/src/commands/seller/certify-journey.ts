import type { Discovery, NdcClient, Offer, OrderView, SigningKey } from "@ndc-gateway/client";

/**
 * The conformance journey of `seller certify`, one function per step. A step throws to fail,
 * returns a detail line to pass, or returns `notRun(reason)` when the gateway (by its discovery
 * document) or the command line does not allow it. What one step learns (the offer, the order)
 * is kept in `Journey` for the next.
 */
export class NotRun {
  constructor(readonly reason: string) {}
}
export const notRun = (reason: string) => new NotRun(reason);

export interface Journey {
  client: NdcClient;
  discovery?: Discovery;
  schemas: string;
  cardToken: string;
  signingKey?: SigningKey;
  route?: { origin: string; destination: string; date: string };
  offer?: Offer;
  order?: OrderView;
  /** Waits for a pushed notification at most this long. */
  pushTimeoutMs: number;
}

export type Step = { name: string; run: (j: Journey) => Promise<string | NotRun> };

/** The one passenger every booking of the journey names. */
export const passenger = { paxId: "PAX1", ptc: "ADT" as const, givenName: "Certify", surname: "TRAVELLER", title: "MR", birthdate: "1980-02-03" };
