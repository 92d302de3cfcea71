import { nanoid } from "nanoid";
import { GatewayError, isGatewayError } from "@ndc/errors";
import type { GatewayConfig } from "@ndc/config";
import type { AuthService, RateLimiter, Principal } from "@ndc/auth";
import { logRequest, type Logger } from "@ndc/log";
import { atSellerOffset, type SellerClocks } from "@ndc/clock";
import { contentScopes, messageByName, refuseCardDataIn, type AnswerOutcome, type MessageHandler, type MessageSpec } from "@ndc/messages";
import {
  acknowledgementDocument,
  decodeEnvelope,
  errorDocument,
  parseXml,
  requireRootParts,
  responseBody,
  type Envelope,
  type ResponseContext,
} from "@ndc/xml";
import { factHeaders, statusOf } from "../http/error-mapping";
import { pathOf } from "../http/url-path";
import { readBody } from "./body";
import { clientGone } from "./client-gone";
import { reply, xmlHeaders } from "./reply";
import type { SignatureCheck, SignatureStep } from "./signature-step";
import { airlineSign, type AirlineKey } from "@ndc/signatures";
import { UNKNOWN_MESSAGE, type TrafficMeter } from "../metrics/meter";

export interface NdcDeps {
  config: GatewayConfig;
  auth: AuthService;
  rateLimiter: RateLimiter;
  handlers: ReadonlyMap<string, MessageHandler>;
  logger: Logger;
  /** The signing agreement applied to a request's Signature (signature-step.ts); absent: signatures are not looked at. */
  signatures?: SignatureStep;
  /** The airline's signing key (docs/signatures.md); absent: answers are never signed. */
  airlineKey?: () => AirlineKey | undefined;
  /** Counts every call in memory (metrics/meter.ts): the dashboard's and /metrics' traffic figures. */
  meter?: TrafficMeter;
  /** Each seller's sandbox clock (local and sandbox modes): absent, every request runs on real time. */
  sellerClocks?: SellerClocks;
}

/** Per-request facts gathered along the way, for the answer and the log line. */
interface Exchange {
  requestId: string;
  started: number;
  spec?: MessageSpec;
  principal?: Principal;
  envelope?: Envelope;
}

/**
 * POST /24.4/<MessageName>: a short list of named steps (DESIGN 7). Each step either
 * returns what the next needs or throws a GatewayError that becomes the paired-root Error.
 * Authentication and scope come before the body is read (spec 4.1.2, 5.4).
 */
export async function handleNdc(request: Request, messageName: string, deps: NdcDeps): Promise<Response> {
  const x: Exchange = { requestId: nanoid(12), started: performance.now() };
  let response: Response;
  let outcome: AnswerOutcome = {};
  try {
    x.spec = findMessage(messageName);
    requirePost(request);
    x.principal = await deps.auth.authenticate({
      authorization: request.headers.get("authorization"),
      apiKey: request.headers.get("x-api-key"),
    });
    deps.auth.requireScope(x.principal, x.spec.scope);
    limitRate(deps.rateLimiter, x.principal, x.spec);
    checkHeaders(request, x.spec);
    const body = await readBody(request, deps.config.xml, deps.config.requestGzip);
    x.envelope = readEnvelope(body, x.spec, deps);
    requireContentScopes(deps, x.principal, x.spec, x.envelope);
    let seller = sellerOf(deps, x.principal, x.spec, x.envelope);
    // Before the handler reads or reserves anything. A verified request is decoded again from the
    // canonical bytes its digest covered, so what is read is exactly what was signed.
    const pending = deps.signatures?.(x.spec.name, seller, x.envelope, body);
    const signing: SignatureCheck = pending === undefined ? NOTHING_SIGNED : await pending;
    if (signing.canonical !== undefined) {
      x.envelope = readEnvelope(signing.canonical, x.spec, deps);
      requireContentScopes(deps, x.principal, x.spec, x.envelope);
      seller = sellerOf(deps, x.principal, x.spec, x.envelope);
    }
    const handler = deps.handlers.get(x.spec.name);
    if (!handler) {
      throw new GatewayError("message_not_available", {
        detail: `${x.spec.name} is routed and authorised but its processing has not been released on this gateway yet.`,
      });
    }
    // The handler works on its seller's business time: real time plus that client's sandbox offset.
    const offsetMs = deps.sellerClocks ? await deps.sellerClocks.offsetOf(seller.clientId) : 0;
    const input = {
      spec: x.spec,
      envelope: x.envelope,
      seller: { clientId: seller.clientId, agencyId: seller.agencyId, iataNumber: seller.iataNumber, scopes: seller.scopes },
      ...(signing.outcome ? { signature: signing.outcome } : {}),
    };
    const result = await atSellerOffset(offsetMs, () => handler(input));
    const xml =
      "document" in result
        ? result.document
        : responseBody(x.spec.response, result.response, context(x, deps.config.airline.designator), result.trailing, result.augmentation);
    // The answer names offers whose save was still committing while it was written: it is sent
    // only once they are durable, and a failed save answers the error instead (never an unsaved id).
    if ("durable" in result && result.durable) await result.durable;
    const status = "document" in result ? result.status : (result.status ?? 200);
    const key = status === 200 && seller.signing?.airlineSigns && typeof xml === "string" && x.spec.response.root === "IATA_OrderViewRS" ? deps.airlineKey?.() : undefined;
    // The airline's signature (docs/signatures.md): every 200 OrderViewRS to an agency whose
    // agreement asks, a replayed OrderCreate answer too (RSA signs the same bytes the same way).
    const answer = key && typeof xml === "string" ? airlineSign(xml, key) : xml;
    outcome = result.outcome ?? {};
    response = reply(request, status, answer, { ...xmlHeaders(true), "x-request-id": x.requestId });
  } catch (e) {
    // An internal_error raised by a step is as unexpected as a crash of one: logged, never silent.
    const err =
      isGatewayError(e) && e.code !== "internal_error"
        ? e
        : clientGone(request)
          ? new GatewayError("client_abort")
          : unexpected(e, x, deps.logger);
    outcome = { errorCode: err.code };
    response = errorResponse(request, err, x, deps.config.airline.designator);
  }
  // Whatever was computed, a client that left reads none of it: logged as its abort (499).
  if (clientGone(request) && outcome.errorCode !== "client_abort") {
    outcome = { errorCode: "client_abort" };
    response = errorResponse(request, new GatewayError("client_abort"), x, deps.config.airline.designator);
  }
  const durationMs = Math.round((performance.now() - x.started) * 100) / 100;
  // The name counted is a served message's or "unknown": a caller's path never becomes a label.
  deps.meter?.record({ message: x.spec?.name ?? UNKNOWN_MESSAGE, clientId: x.principal?.clientId, agencyId: x.principal?.agency.agencyId, status: response.status, errorCode: outcome.errorCode, durationMs });
  logRequest(deps.logger, {
    requestId: x.requestId,
    correlationId: x.envelope?.payload.correlationId,
    client: x.principal?.clientId,
    message: x.spec?.name ?? messageName.slice(0, 64),
    method: request.method,
    path: pathOf(request.url).slice(0, 128),
    status: response.status,
    durationMs,
    errorCode: outcome.errorCode,
    declineReason: outcome.declineReason,
  });
  return response;
}

/** Body text -> the checked envelope: root, card data, parts, and the scopes its content needs. */
function readEnvelope(body: string, spec: MessageSpec, deps: NdcDeps): Envelope {
  const root = parseXml(body, deps.config.xml);
  checkRoot(root.name, root.ns, spec);
  refuseCardDataIn(root); // before the envelope: a card number in CorrelationID is never logged or echoed
  const envelope = decodeEnvelope(root);
  requireRootParts(envelope);
  return envelope;
}

/** The clearance family (2022.1) carries no DistributionChain: the seller is the token's own agency. */
function sellerOf(deps: NdcDeps, principal: Principal, spec: MessageSpec, envelope: Envelope) {
  return spec.response.family === "clearance"
    ? { clientId: principal.clientId, agencyId: principal.agency.agencyId, iataNumber: principal.agency.iataNumber, scopes: principal.scopes }
    : deps.auth.resolveSeller(principal, envelope.distributionChain);
}

/** What the message carries may need more (PaymentFunctions: ndc:payment), before anything is reserved. */
function requireContentScopes(deps: NdcDeps, principal: Principal, spec: MessageSpec, envelope: Envelope): void {
  for (const scope of contentScopes(spec, envelope)) deps.auth.requireScope(principal, scope);
}

const NOTHING_SIGNED: SignatureCheck = Object.freeze({});

function findMessage(messageName: string): MessageSpec {
  const spec = messageByName(messageName);
  if (!spec) throw new GatewayError("message_unknown", { detail: `Served messages are listed at GET /24.4.` });
  return spec;
}

function requirePost(request: Request): void {
  if (request.method !== "POST") {
    throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
  }
}

function limitRate(limiter: RateLimiter, principal: Principal, spec: MessageSpec): void {
  const d = limiter.take(principal.rateKey, spec.rateClass);
  if (!d.ok) {
    throw new GatewayError("rate_limited", { retryAfterSeconds: d.retryAfterSeconds });
  }
}

function checkHeaders(request: Request, spec: MessageSpec): void {
  const name = request.headers.get("iata-message-name");
  if (name === null) {
    throw new GatewayError("message_name_mismatch", { detail: `The header is missing; expected ${spec.requestRoot}.` });
  }
  if (name.trim() !== spec.requestRoot) {
    throw new GatewayError("message_name_mismatch", {
      detail: `The path names ${spec.name}, so the header must be ${spec.requestRoot}, not "${name.slice(0, 64)}".`,
    });
  }
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/xml") {
    throw new GatewayError("unsupported_media_type", { detail: type ? `Received "${type.slice(0, 64)}".` : "No Content-Type was sent." });
  }
}

function checkRoot(name: string, ns: string, spec: MessageSpec): void {
  if (name !== spec.requestRoot) {
    throw new GatewayError("root_element_invalid", {
      detail: `Expected ${spec.requestRoot}, found ${name.slice(0, 64)}.`,
      element: name.slice(0, 64),
    });
  }
  if (ns !== spec.requestNs) {
    throw new GatewayError("namespace_invalid", {
      detail: `${spec.requestRoot} must be in namespace ${spec.requestNs}.`,
      element: spec.requestRoot,
    });
  }
}

function context(x: Exchange, carrier: string): ResponseContext {
  return { correlationId: x.envelope?.payload.correlationId, trxId: x.envelope?.payload.trxId, simulated: true, carrier };
}

function unexpected(e: unknown, x: Exchange, logger: Logger): GatewayError {
  // Internals go to the log under the request id, never to the caller.
  logger.error("unhandled", {
    requestId: x.requestId,
    message: x.spec?.name,
    error: e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 500) : "non-error thrown",
  });
  return new GatewayError("internal_error", { detail: `Request id ${x.requestId}.` });
}

function errorResponse(request: Request, err: GatewayError, x: Exchange, carrier: string): Response {
  const headers = factHeaders(err, { ...xmlHeaders(true), "x-request-id": x.requestId });
  const item = { code: err.code, description: err.description, element: err.element };
  const xml = x.spec
    ? errorDocument(x.spec.response, [item], context(x, carrier))
    : acknowledgementDocument(item, context(x, carrier));
  return reply(request, statusOf(err.code), xml, headers);
}
