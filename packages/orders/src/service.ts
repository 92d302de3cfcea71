import { randomUUID } from "node:crypto";
import { GatewayError } from "@ndc/errors";
import type { ActorSystem } from "@ndc/actors";
import type { Clock, SellerClocks } from "@ndc/clock";
import type { InventoryService } from "@ndc/inventory";
import type { LegRequest, OrderPayments } from "@ndc/payments";
import type { FieldKey } from "@ndc/pii";
import type { BookedOrder, OfferRepository } from "@ndc/shopping";
import type { Store, StoreDb } from "@ndc/store";
import type { Supply } from "@ndc/supply";
import { orderKind } from "./actor/kind";
import type { OrderPersistHook } from "./actor/persist";
import type { OrdersContext } from "./context";
import type { OrderCreateInput } from "./create/input";
import { withItemList } from "./create/item-list";
import { createOrder } from "./create/saga";
import { withSellerTerms, type SellingAgency } from "./create/seller-terms";
import { RequestIdempotency } from "./idempotency/idempotency";
import { KeyedLock } from "@ndc/actors";
import { retryPayment } from "./payment/retry";
import { commissionAgreementFor } from "@ndc/payments";
import { sellerSettlement } from "./create/seller-terms";
import type { AddInput } from "./servicing/add/input";
import { addToOrder } from "./servicing/add/saga";
import { quoteAdd, type Quote } from "./servicing/add/quote";
import { quoteCancel, type CancelQuote } from "./cancel/quote";
import { changeFlights, type FlightChangeInput } from "./servicing/flight/saga";
import { quoteFlightChange, type FlightChangeAsk, type FlightChangeQuote } from "./servicing/flight/quote";
import { quoteFlightsChange, type FlightsChangeQuote } from "./servicing/flight/combinations";
import { commitCancel } from "./cancel/saga";
import { isItemsQuote, quoteCancelItems, type CancelItemsQuote } from "./cancel/items-quote";
import { commitCancelItems } from "./cancel/items-saga";
import type { AlsoInCommit, ServicingActor } from "./servicing/actor";
import { renamePax, type RenameInput } from "./servicing/rename/saga";
import { orderVersions } from "./read/versions";
import { bookedOrder, bookedOrderAsStaff } from "./read/booked-order";
import { history, retrieve } from "./read/read";
import { airlineRetrieve, airlineSearch, type AirlineOrderRow, type AirlineSearch } from "./read/airline";
import { offerRules, orderRules, type OrderRules } from "./read/rules";
import { listDetails, type OrderListDetails } from "./read/list-details";
import { list, type OrderListFilters, type OrderListPage, type OrderListResult } from "./read/list";
import { expireUnpaid } from "./reconcile/expire";
import { lapseRetained } from "./cancel/retained-lapse";
import { perSeller } from "./sandbox/per-seller";
import { closability, closeSettled, type NotClosable } from "./reconcile/close";
import { takeOverIfDead } from "./reconcile/take-over";
import { announceInstance, type Heartbeat } from "./liveness/instances";
import { ClaimReleases } from "./liveness/release";
import { reconcile, type ReconcileReport } from "./reconcile/reconcile";
import { OperationStore } from "./operation/store";
import { ids } from "./ids";
import { orderDetails, versionDetails, type OrderDetails } from "./view/details";
import type { SalesTransaction } from "./view/sales-transaction";
import { deliverFlown, flyOrder, partnerReadBack, runOperationsFeed, sandboxScheduleChange } from "./operations/sweeps";
import { notFound, PAYMENT_TIME_LIMIT_MS, type HistoryEntry, type Order, type Seller } from "./state";
import { readStoredView, writeStoredView, type StoredView, type StoredViewEncoder } from "./read/stored-view";

export interface OrdersServiceOptions {
  system: ActorSystem;
  store: Store;
  clock: Clock;
  inventory: InventoryService;
  payments: OrderPayments;
  offers: OfferRepository;
  supply: Supply;
  fieldKey: FieldKey;
  /** This airline's designator (OwnerCode). */
  ownerCode: string;
  /** How long a held order waits for payment; default PAYMENT_TIME_LIMIT_MS (24 h). */
  paymentTimeLimitMs?: number;
  /** Writes beside every order change, in its transaction (the notification outbox). */
  persistHook?: OrderPersistHook;
  /** This process's instance id (tests name two "processes" on one store); default a random one per boot. */
  instanceId?: string;
  /**
   * The edge's OrderViewRS encoder: given, every write that changes an order also stores its
   * encoded view (read/stored-view.ts), and OrderRetrieve serves an order not in memory from it.
   */
  viewEncoder?: StoredViewEncoder;
  /**
   * What `viewEncoder` encodes with (its build and configuration): stored views are written under
   * it and only rows under it are served, so processes of one build share them and no process
   * serves another build's (read/stored-view.ts). Default: this process's own, shared with no one.
   */
  viewKey?: string;
  /**
   * Told of every money event (sale, change, refund, void: view/sales-transaction.ts) at the end
   * of the write that records it, inside it: accounting's OrderSalesInformationNotifRQ commits with
   * the money event or not at all. `details` reads the order's legs and flights through that write.
   */
  salesReporter?: SalesReporter;
  /** Each seller's sandbox clock (local and sandbox modes): the sweeps judge an order at its owner's time. */
  sellerClocks?: SellerClocks;
}

export type SalesReporter = (tx: StoreDb, report: { order: Order; transaction: SalesTransaction; details: () => Promise<OrderDetails> }) => Promise<void>;

/** The order domain's one door (no HTTP, no XML): message handlers call these. */
export class OrdersService {
  readonly ctx: OrdersContext;
  readonly idempotency: RequestIdempotency;
  private readonly storesViews: boolean;
  private readonly viewKey: string;
  private readonly sellerClocks: SellerClocks | undefined;

  constructor(opts: OrdersServiceOptions) {
    this.sellerClocks = opts.sellerClocks;
    this.viewKey = opts.viewKey ?? `process ${crypto.randomUUID()}`;
    const encoder = opts.viewEncoder;
    const reporter = opts.salesReporter;
    const operationLock = new KeyedLock();
    const instanceId = opts.instanceId ?? randomUUID();
    this.ctx = {
      store: opts.store,
      clock: opts.clock,
      orders: opts.system.register(
        orderKind(
          opts.fieldKey,
          opts.persistHook,
          encoder && ((tx, order) => writeStoredView(this.ctx, { encode: encoder, key: this.viewKey }, tx, order)),
          reporter && ((tx, order, transaction) => reporter(tx, { order, transaction, details: () => orderDetails(this.ctx, order, tx) })),
        ),
      ),
      operations: new OperationStore(opts.store),
      inventory: opts.inventory,
      payments: opts.payments,
      offers: opts.offers,
      supply: opts.supply,
      fieldKey: opts.fieldKey,
      ownerCode: opts.ownerCode,
      paymentTimeLimitMs: opts.paymentTimeLimitMs ?? PAYMENT_TIME_LIMIT_MS,
      operationLock,
      instanceId,
      releases: new ClaimReleases(opts.store, operationLock, instanceId),
    };
    this.storesViews = encoder !== undefined;
    // The request's record is its create operation's row, under the operation's one lock.
    this.idempotency = new RequestIdempotency(opts.store, opts.clock, {
      owner: this.ctx.instanceId,
      lock: this.ctx.operationLock,
      operationIdOf: (key) => ids.createSaga(key.clientId, key.correlationId, key.trxId),
      takeOver: (operationId) => takeOverIfDead(this.ctx, operationId),
    });
  }

  /**
   * Announces this process as the owner of the operations it opens (liveness/instances.ts): its
   * row now, a heartbeat every few seconds, the row removed by the returned stop(). A process that
   * serves requests or runs jobs calls it once at boot; others' reconcilers and retries then take
   * over its running operations at once if it dies.
   */
  async announce(): Promise<Heartbeat> {
    const heartbeat = await announceInstance(this.ctx.store, this.ctx.instanceId);
    return {
      // The claims this process gave up are released first (one last try): once its row is gone,
      // an operation still naming it would wait for the reconciler's grace.
      stop: async () => {
        await this.ctx.releases.stop();
        await heartbeat.stop();
      },
    };
  }

  /**
   * The seller's own terms of an OrderCreate input (its settlement account, its commission
   * agreement): called before the request's idempotent section, so a refusal here is not stored.
   */
  withSellerTerms(input: OrderCreateInput, agency: SellingAgency): Promise<OrderCreateInput> {
    return withSellerTerms(this.ctx, input, agency);
  }

  /**
   * OrderCreate: Booked with legs captured, HeldUnpaid without legs, HeldPaymentDeclined on a
   * decline. Items named by OfferItemRefID alone (AcceptOrderItemList) are traced to their
   * offers first; a refusal of one is the request's answer like any other.
   */
  async create(input: OrderCreateInput): Promise<Order> {
    return createOrder(this.ctx, await withItemList(this.ctx, input));
  }

  /** OrderChangeRQ paying a held order within its time limit. */
  retryPayment(orderId: string, seller: Seller, legs: LegRequest[], key: string, alsoInCommit?: (tx: StoreDb) => Promise<unknown>): Promise<Order> {
    return retryPayment(this.ctx, orderId, seller, legs, key, alsoInCommit);
  }

  /**
   * OrderChangeRQ adding airline extras or one seat to a booked order, or changing a seat held
   * (ORDRE2, servicing/add): the agency's settlement account and commission agreement are
   * settled here, as for OrderCreate, then the change runs as its saga.
   */
  async addToOrder(input: AddInput, agency: SellingAgency): Promise<Order> {
    const payment = input.payment.map((leg, i) => sellerSettlement(leg, agency, i));
    const commissionAgreement = await commissionAgreementFor(this.ctx.store, agency.agencyId);
    return addToOrder(this.ctx, { ...input, payment, ...(commissionAgreement ? { commissionAgreement } : {}) });
  }

  /** OrderQuoteRQ: a post-sale change priced into a firm quote (servicing/add/quote.ts), the agency's agreement checked as the change will. */
  async quoteAdd(input: Omit<AddInput, "payment">): Promise<Quote> {
    const commissionAgreement = await commissionAgreementFor(this.ctx.store, input.offerOwner.agencyId);
    return quoteAdd(this.ctx, { ...input, ...(commissionAgreement ? { commissionAgreement } : {}) });
  }

  /**
   * The offers' owner for the airline's staff servicing an order: a client id of the staff
   * member's own under the order's agency, so the order's a-la-carte offers and quotes resolve
   * for the order (offers are scoped by agency) and the operation's request names the staff.
   */
  async staffOfferOwner(orderId: string, staffId: string): Promise<Seller> {
    if (!staffId) throw new GatewayError("request_invalid", { detail: "A staff change names its staff id." });
    const order = await airlineRetrieve(this.ctx, orderId);
    return { clientId: `staff:${staffId}`, agencyId: order.owner.agencyId };
  }

  /** The airline's staff pricing extras or a seat for any booked order into a firm quote (no agency: no commission). */
  async quoteAddAsStaff(input: Omit<AddInput, "payment" | "by" | "offerOwner" | "commissionAgreement" | "alsoInCommit"> & { staffId: string }): Promise<Quote> {
    const { staffId, ...rest } = input;
    return quoteAdd(this.ctx, { ...rest, by: { channel: "airline_staff", staffId }, offerOwner: await this.staffOfferOwner(input.orderId, staffId) });
  }

  /**
   * The airline's staff accepting an extras or seat quote in process (decision 0035): paid by the
   * legs given (the customer's card, through the PSP like any change; no agency: no settlement
   * account, no commission), the staff member on the change, `alsoInCommit` in the commit write.
   */
  async addToOrderAsStaff(input: Omit<AddInput, "by" | "offerOwner" | "commissionAgreement"> & { staffId: string }): Promise<Order> {
    const { staffId, ...rest } = input;
    return addToOrder(this.ctx, { ...rest, by: { channel: "airline_staff", staffId }, offerOwner: await this.staffOfferOwner(input.orderId, staffId) });
  }

  /** The booked-order shape ServiceList and SeatAvailability read, of any order (the staff console lists extras and seats with it). */
  bookedOrderAsStaff(orderId: string): Promise<BookedOrder> {
    return bookedOrderAsStaff(this.ctx, orderId);
  }

  /**
   * OrderReshopRQ UpdateOrder/CancelOrderRef: a firm, signed quote to cancel the whole order.
   * `by`: a seller (NDC, `{ channel: "seller", seller }`), or `{ channel: "airline_staff", staffId }`, never refused by the fare.
   */
  quoteCancel(orderId: string, by: ServicingActor): Promise<{ order: Order; quote: CancelQuote }> {
    return quoteCancel(this.ctx, orderId, by);
  }

  /** OrderReshopRQ ServiceOrder/DeleteOrderItem alone: a firm, signed quote to cancel those items (cancel/items-quote.ts). */
  quoteCancelItems(orderId: string, by: ServicingActor, orderItemIds: readonly string[], o: { respend?: boolean } = {}): Promise<{ order: Order; quote: CancelItemsQuote }> {
    return quoteCancelItems(this.ctx, orderId, by, orderItemIds, o);
  }

  /** OrderReshopRQ replacing a direction's flights: its terms and each alternative as a firm, signed quote (servicing/flight). */
  quoteFlightChange(orderId: string, seller: Seller, ask: FlightChangeAsk): Promise<{ order: Order; quote: FlightChangeQuote }> {
    return quoteFlightChange(this.ctx, orderId, { channel: "seller", seller }, ask);
  }

  /** OrderReshopRQ replacing several directions at once: each direction's terms, the combinations as firm, signed quotes (servicing/flight/combinations.ts). */
  quoteFlightsChange(orderId: string, seller: Seller, asks: FlightChangeAsk[]): Promise<{ order: Order; quote: FlightsChangeQuote }> {
    return quoteFlightsChange(this.ctx, orderId, { channel: "seller", seller }, asks);
  }

  /** The airline's staff quoting a flight change in process (never refused by the fare: the quote's terms name the rule overridden, SHPOR1 rule 4). */
  quoteFlightChangeAsStaff(orderId: string, staffId: string, ask: FlightChangeAsk): Promise<{ order: Order; quote: FlightChangeQuote }> {
    return quoteFlightChange(this.ctx, orderId, { channel: "airline_staff", staffId }, ask);
  }

  /** The airline's staff accepting a flight-change quote in process: no agency (no settlement account, no commission); the override recorded in the commit write. */
  changeFlightsAsStaff(input: Omit<FlightChangeInput, "by" | "commissionAgreement"> & { staffId: string }): Promise<Order> {
    const { staffId, ...rest } = input;
    return changeFlights(this.ctx, { ...rest, by: { channel: "airline_staff", staffId } });
  }

  /** OrderChangeRQ accepting a flight-change quote (`FCQ.` id): the agency's settlement and agreement as for extras, then the saga (servicing/flight/saga.ts). */
  async acceptFlightChange(input: FlightChangeInput, agency: SellingAgency): Promise<Order> {
    const payment = input.payment.map((leg, i) => sellerSettlement(leg, agency, i));
    const commissionAgreement = await commissionAgreementFor(this.ctx.store, agency.agencyId);
    return changeFlights(this.ctx, { ...input, payment, ...(commissionAgreement ? { commissionAgreement } : {}) });
  }

  /**
   * OrderChangeRQ AcceptCancelledOffer: the quote accepted, the order (cancel/saga.ts) or the
   * items it names (`CIQ.`, cancel/items-saga.ts) cancelled and refunded. `by` as for the quote.
   */
  cancel(orderId: string, by: ServicingActor, quoteId: string, alsoInCommit?: AlsoInCommit): Promise<Order> {
    return isItemsQuote(quoteId) ? commitCancelItems(this.ctx, orderId, by, quoteId, alsoInCommit) : commitCancel(this.ctx, orderId, by, quoteId, alsoInCommit);
  }

  /** OrderChangeRQ UpdatePax: a passenger's name corrected where the fare is renameable, in one write (servicing/rename). */
  renamePax(input: RenameInput): Promise<Order> {
    return renamePax(this.ctx, input);
  }

  retrieve(orderId: string, seller: Seller): Promise<Order> {
    return retrieve(this.ctx, orderId, seller);
  }

  /** What OrderViewRS shows of an order: the order with its masked documents, payment legs and flights. */
  details(order: Order): Promise<OrderDetails> {
    return orderDetails(this.ctx, order);
  }

  /** OrderRetrieve with what its view shows (ownership checked first, as retrieve does). */
  async retrieveDetails(orderId: string, seller: Seller): Promise<OrderDetails> {
    return orderDetails(this.ctx, await retrieve(this.ctx, orderId, seller));
  }

  /**
   * OrderRetrieve's answer: the stored view of an order not in memory (one read; its owner checked
   * like the index's, so another seller's order is the same order_not_found as a missing one),
   * else the order's details from its actor. A stored view exists only while it is the view of
   * what is committed (the schema's triggers delete it with any change), and an order with a
   * command in flight in this process is resident, so it is asked instead. A stored view is the
   * default language's and holds until the next fee-band edge or departure: a request for content
   * languages, or a read past that time, is answered from the actor (and the view is stored again
   * by the order's next write).
   */
  async retrieveView(orderId: string, seller: Seller, opts: { languages?: readonly string[] } = {}): Promise<{ stored: StoredView } | { details: OrderDetails }> {
    if (this.storesViews && !opts.languages?.length && !this.ctx.orders.isResident(orderId)) {
      const row = await readStoredView(this.ctx.store.db, orderId, this.ctx.clock.now(), this.viewKey);
      if (row) {
        if (row.ownerAgencyId !== seller.agencyId) throw notFound();
        return { stored: row.view };
      }
    }
    return { details: await this.retrieveDetails(orderId, seller) };
  }

  /** OrderRulesRQ, OrderStructureKey form: the order's frozen conditions, fees by band, cutoffs and live eligibility. */
  rules(orderId: string, seller: Seller): Promise<OrderRules> {
    return orderRules(this.ctx, orderId, seller);
  }

  /** OrderRulesRQ, FareRef form: an offer's conditions and fees by band (the OfferID as FareRefText). */
  offerRules(offerId: string, seller: Seller): Promise<OrderRules> {
    return offerRules(this.ctx, offerId, seller);
  }

  /** The booked-order forms of ServiceListRQ and SeatAvailabilityRQ: flights, passenger types and seats only. */
  bookedOrder(orderId: string, seller: Seller): Promise<BookedOrder> {
    return bookedOrder(this.ctx, orderId, seller);
  }

  list(seller: Seller, filters?: OrderListFilters, page?: OrderListPage): Promise<OrderListResult> {
    return list(this.ctx, seller, filters, page);
  }

  /** OrderList with each order's first departure and arrival (OrderListRS MatchedOrder). */
  listDetails(seller: Seller, filters?: OrderListFilters, page?: OrderListPage): Promise<OrderListDetails> {
    return listDetails(this.ctx, seller, filters, page);
  }

  /** OrderHistoryRQ: the order (ownership checked first) and the order as it was at each version (read/versions.ts). */
  /** OrderHistoryRQ: the order and each of its versions as it was then, identity documents omitted (view/details.ts versionDetails). */
  async historyVersions(orderId: string, seller: Seller): Promise<{ order: Order; versions: Map<number, OrderDetails> }> {
    const order = await retrieve(this.ctx, orderId, seller);
    const versions = new Map<number, OrderDetails>();
    for (const [n, o] of await orderVersions(this.ctx, orderId)) versions.set(n, versionDetails(this.ctx.supply, o));
    return { order, versions };
  }

  history(orderId: string, seller: Seller): Promise<HistoryEntry[]> {
    return history(this.ctx, orderId, seller);
  }

  /** The staff console's search over every seller's orders (read/airline.ts); callers check the staff right first. */
  airlineSearch(q: AirlineSearch, limit?: number): Promise<AirlineOrderRow[]> {
    return airlineSearch(this.ctx, q, limit);
  }

  /** Any seller's order with what its view shows, for the staff console (no ownership check: callers check the staff right). */
  async airlineDetails(orderId: string): Promise<OrderDetails> {
    return orderDetails(this.ctx, await airlineRetrieve(this.ctx, orderId));
  }

  /**
   * Finishes or compensates every saga not done (after a crash; the scheduler's job). Without
   * `now`, each operation's age is judged on its owner's business time, the time its recovery
   * points were written on (its sandbox clock, sandbox/per-seller.ts).
   */
  async reconcile(now?: number, opts?: { minAgeMs?: number }): Promise<ReconcileReport> {
    if (now !== undefined) return reconcile(this.ctx, now, opts);
    const runs = await perSeller(this.ctx.clock, this.sellerClocks, (at, owner) => reconcile(this.ctx, at, { ...opts, owner }));
    return { finished: runs.flatMap((r) => r.finished), compensated: runs.flatMap((r) => r.compensated), failed: runs.flatMap((r) => r.failed), raised: runs.flatMap((r) => r.raised) };
  }

  /** The order's details read inside a write (a notification built in the order's own transaction). */
  detailsIn(order: Order, db: StoreDb): Promise<OrderDetails> {
    return orderDetails(this.ctx, order, db);
  }

  /** The sandbox's airline-initiated change of the seller's own order (operations/sweeps.ts). */
  sandboxScheduleChange(orderId: string, seller: Seller, ask: { minutes?: number; cancelFlight?: boolean }): Promise<Order> {
    return sandboxScheduleChange(this.ctx, orderId, seller, ask);
  }

  /** The sandbox's fly: the seller's booked order's flights depart now, then its partner is read back. */
  fly(orderId: string, seller: Seller, now = this.ctx.clock.now()): Promise<Order> {
    return flyOrder(this.ctx, orderId, seller, now);
  }

  /** The simulated operations feed, one run (`perMille` flights in a thousand disrupted, from the supply seed). */
  operationsFeed(perMille: number, seed: string, now = this.ctx.clock.now()): Promise<{ flights: number; orders: number }> {
    return runOperationsFeed(this.ctx, now, perMille, seed);
  }

  // The sweeps below, without `now`, judge each order at its owner's business time (its sandbox
  // clock, sandbox/per-seller.ts); with `now` (tests), every order at that instant.

  /** The delivery sweep: departed flights recorded flown on their orders. */
  async deliverFlown(now?: number): Promise<{ orders: number }> {
    if (now !== undefined) return deliverFlown(this.ctx, now);
    const runs = await perSeller(this.ctx.clock, this.sellerClocks, (at, owner) => deliverFlown(this.ctx, at, undefined, owner));
    return { orders: runs.reduce((n, r) => n + r.orders, 0) };
  }

  /** The partner read-back: partner products the simulated partner fulfilled recorded on their orders. */
  async partnerReadBack(now?: number): Promise<{ orders: number }> {
    if (now !== undefined) return partnerReadBack(this.ctx, now);
    const runs = await perSeller(this.ctx.clock, this.sellerClocks, (at, owner) => partnerReadBack(this.ctx, at, undefined, owner));
    return { orders: runs.reduce((n, r) => n + r.orders, 0) };
  }

  /** Refunds the values retained by items cancellations with RespendInd that lapsed unspent (cancel/retained-lapse.ts). */
  async lapseRetained(now?: number): Promise<string[]> {
    if (now !== undefined) return lapseRetained(this.ctx, now);
    return (await perSeller(this.ctx.clock, this.sellerClocks, (at, owner) => lapseRetained(this.ctx, at, owner))).flat();
  }

  /** Cancels held orders past their payment time limit and releases their holds. */
  async expireUnpaid(now?: number): Promise<string[]> {
    if (now !== undefined) return expireUnpaid(this.ctx, now);
    return (await perSeller(this.ctx.clock, this.sellerClocks, (at, owner) => expireUnpaid(this.ctx, at, owner))).flat();
  }

  /** The closing check (spec 3): closes booked orders whose services are all delivered and whose money is settled. */
  async closeSettled(now?: number, limit?: number): Promise<{ closed: string[]; waiting: number }> {
    if (now !== undefined) return closeSettled(this.ctx, now, limit);
    const runs = await perSeller(this.ctx.clock, this.sellerClocks, (at, owner) => closeSettled(this.ctx, at, limit, owner));
    // An order a seller's run left waiting is looked at again by the last run: counted once, from the last.
    return { closed: runs.flatMap((r) => r.closed), waiting: runs.at(-1)!.waiting };
  }

  /** Why this order is not closable yet, or null (staff and tests). */
  async closability(orderId: string): Promise<NotClosable | null> {
    const order = await this.ctx.orders.ask(orderId, { op: "get" });
    if (!order) throw notFound();
    return closability(this.ctx, order);
  }
}
