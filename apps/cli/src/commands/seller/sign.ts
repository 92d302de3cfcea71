import { readFileSync, writeFileSync } from "node:fs";
import { airlineCertificate, signXml, verifyXml, type Discovery } from "@ndc-gateway/client";
import { positional, Usage } from "../args";
import { baseUrl, signingKey, type SellerContext } from "./context";

/** `seller sign FILE --key K --cert C [--out F]` and `seller verify FILE [--cert C | --base-url URL]`. */

export async function sign(ctx: SellerContext): Promise<void> {
  const [file] = positional(ctx.p, 1, "a FILE to sign");
  const key = signingKey(ctx);
  if (!key) throw new Usage("--key and --cert are required");
  const signed = signXml(readFileSync(file!, "utf8"), key);
  const out = ctx.p.flags.get("out");
  if (out) {
    writeFileSync(out, signed);
    ctx.print(`signed ${file} -> ${out}`, { file, out });
  } else ctx.io.out(signed);
}

/**
 * Verifies against `--cert` (the seller's own, or an airline's), or, with `--base-url` only,
 * the airline certificate the gateway's discovery document publishes. Exit 1 when it does not verify.
 */
export async function verify(ctx: SellerContext): Promise<number> {
  const [file] = positional(ctx.p, 1, "a FILE to verify");
  const certFile = ctx.p.flags.get("cert");
  let cert: string | undefined = certFile ? readFileSync(certFile, "utf8") : undefined;
  let source = certFile ?? "";
  if (!cert) {
    if (!ctx.p.flags.get("base-url") && !ctx.io.env.NDC_BASE_URL) throw new Usage("--cert, or --base-url to use the airline certificate from discovery");
    cert = await discoveredAirlineCertificate(ctx);
    source = "the discovery document's airline certificate";
    if (!cert) {
      ctx.print(`cannot verify: ${baseUrl(ctx)} publishes no airline certificate in discovery (signatures.airline.certificate)`, { ok: false, reason: "no airline certificate in discovery" });
      return 1;
    }
  }
  const r = verifyXml(readFileSync(file!, "utf8"), cert);
  const method = r.signatureMethod?.split("#")[1]?.toUpperCase();
  ctx.print(r.ok ? `valid: ${method} signature by key ${r.fingerprint} (${source})` : `NOT valid: ${r.reason}`, { file, ...r });
  return r.ok ? 0 : 1;
}

/** The airline certificate (or public key) of the gateway's discovery document, if it publishes one. */
export async function discoveredAirlineCertificate(ctx: SellerContext): Promise<string | undefined> {
  const res = await fetch(`${baseUrl(ctx).replace(/\/+$/, "")}/24.4`);
  return airlineCertificate((await res.json()) as Discovery);
}
