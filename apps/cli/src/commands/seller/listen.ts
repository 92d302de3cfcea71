import { readFileSync } from "node:fs";
import { verifyWebhook, verifyXml, webhookHeaders } from "@ndc-gateway/client";
import { Usage } from "../args";
import { client, count, type SellerContext } from "./context";
import { discoveredAirlineCertificate } from "./sign";
import { rootOf, schemasDir, validate } from "./xsd";

/**
 * `seller listen --port N`: a local receiver for pushed notifications. Each push is printed with
 * its webhook-id, message and verdicts: the Standard Webhooks signature (with `--secret`, or the
 * secret of the subscription `--subscribe EVENTS` makes through the gateway), the XML signature
 * when the push carries one and an airline certificate is known (`--airline-cert`, else the one
 * the discovery document of `--base-url` publishes), and the
 * 24.4 XSD. A push that passes is acknowledged (204); one that fails a check is answered 400, so
 * the airline sends it again and the seller sees it. A webhook-timestamp further than
 * `--tolerance` seconds (300) from this machine's clock fails the signature check (replays).
 * Listening goes on after a refusal (the retries are worth seeing); when it stops (`--count`, or
 * a signal) the exit status is 1 if any push was refused, so a script never takes a refused push
 * for a pass.
 */
const ACK = { status: 204 };

export interface PushVerdict {
  webhookId: string | null;
  message: string | undefined;
  signature: string;
  xmlSignature: string;
  xsd: string;
  ok: boolean;
}

export async function listen(ctx: SellerContext): Promise<number> {
  const port = count(ctx.p, "port", -1, 0, 65535);
  if (port < 0) throw new Usage("--port is required (0 picks a free one)");
  const stopAfter = count(ctx.p, "count", 0, 0, 1_000_000);
  // The gateway stamps pushes with real time, never its sandbox clock: --tolerance is for a receiver whose own clock is off.
  const tolerance = count(ctx.p, "tolerance", 300, 1, 400 * 86_400);
  const schemas = schemasDir(ctx.p, process.cwd(), ctx.io.env);
  // Without --airline-cert, the certificate the gateway of --base-url publishes, when it signs its pushes.
  const hasBase = Boolean(ctx.p.flags.get("base-url") ?? ctx.io.env.NDC_BASE_URL);
  const airlineCert = ctx.p.flags.get("airline-cert") ? readFileSync(ctx.p.flags.get("airline-cert")!, "utf8") : hasBase ? await discoveredAirlineCertificate(ctx) : undefined;
  let secret = ctx.p.flags.get("secret");
  let done: () => void = () => {};
  const finished = new Promise<void>((r) => (done = r));
  let seen = 0;
  let refused = 0;
  const server = Bun.serve({
    port,
    hostname: ctx.p.flags.get("host") ?? "127.0.0.1",
    async fetch(req) {
      if (req.method !== "POST") return new Response("a notification receiver: POST only\n", { status: 405 });
      const body = await req.text();
      const v = judge(body, req.headers, secret, airlineCert, schemas, tolerance);
      // One line per push in both forms: --json is JSON Lines, for a script reading as pushes arrive.
      if (ctx.json) ctx.io.out(JSON.stringify({ at: new Date().toISOString(), ...v }));
      else ctx.io.out(`${new Date().toISOString()} ${v.message ?? "?"} ${v.webhookId ?? "-"}: webhook signature ${v.signature}; XML signature ${v.xmlSignature}; XSD ${v.xsd} -> ${v.ok ? "acknowledged" : "refused 400"}`);
      if (!v.ok) refused++;
      if (stopAfter && ++seen >= stopAfter) setTimeout(done, 50);
      return v.ok ? new Response(null, ACK) : new Response("refused: see the receiver's output\n", { status: 400 });
    },
  });
  const url = `http://${server.hostname}:${server.port}`;
  const events = ctx.p.flags.get("subscribe");
  let subscriptionId: string | undefined;
  const c = events ? client(ctx) : undefined;
  if (c && events) {
    const sub = await c.subscribe(url, events.split(/[ ,]+/).filter(Boolean));
    secret = sub.secret;
    subscriptionId = sub.id;
    ctx.io.err(`subscribed ${url} to ${sub.events.join(", ")} (subscription ${sub.id})`);
  }
  ctx.io.err(`listening on ${url}${secret ? "" : " (no --secret: webhook signatures cannot be checked)"}${schemas ? "" : " (no schemas: XSD not checked)"}`);
  const onSignal = () => done();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  await finished;
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  server.stop(true);
  if (c && subscriptionId) await c.json("DELETE", `/notifications/subscriptions/${subscriptionId}`);
  if (refused === 0) return 0;
  ctx.io.err(`${refused} push${refused === 1 ? "" : "es"} refused`);
  return 1;
}

export function judge(body: string, headers: Headers, secret: string | undefined, airlineCert: string | undefined, schemas: string | undefined, toleranceSeconds: number): PushVerdict {
  const wh = secret ? verifyWebhook(secret, webhookHeaders(headers), body, { toleranceSeconds }) : undefined;
  const signed = /<(?:\w+:)?SignatureType[\s>]/.test(body);
  const xs = signed && airlineCert ? verifyXml(body, airlineCert) : undefined;
  const xsd = schemas ? validate(body, schemas) : undefined;
  return {
    webhookId: headers.get("webhook-id"),
    message: rootOf(body),
    signature: wh ? (wh.ok ? "valid" : `INVALID (${wh.reason})`) : "not checked",
    xmlSignature: !signed ? "none" : xs ? (xs.ok ? "valid" : `INVALID (${xs.reason})`) : "not checked (no --airline-cert)",
    xsd: xsd ? (xsd.ok ? `valid (${xsd.schema})` : `INVALID (${xsd.schema}: ${xsd.detail})`) : "not checked",
    ok: (wh?.ok ?? true) && (xs?.ok ?? true) && (xsd?.ok ?? true),
  };
}
