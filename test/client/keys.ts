import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";

/** A seller key and its self-signed certificate, made by openssl (as a seller would), for RSA-2048 or EC P-256. */
export function sellerKey(kind: "rsa" | "ec" | "rsa1024"): { privateKeyPem: string; certificatePem: string } {
  const dir = mkdtempSync(join(tmpdir(), "ndc-key-"));
  try {
    const newkey = kind === "ec" ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"] : ["-newkey", kind === "rsa" ? "rsa:2048" : "rsa:1024"];
    const r = Bun.spawnSync(["openssl", "req", "-x509", ...newkey, "-nodes", "-keyout", join(dir, "k.pem"), "-out", join(dir, "c.pem"), "-days", "30", "-subj", `/CN=Test seller ${kind}`]);
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    return { privateKeyPem: readFileSync(join(dir, "k.pem"), "utf8"), certificatePem: readFileSync(join(dir, "c.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An Ed25519 key: a kind the client refuses to sign with. */
export function ed25519Pem(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

export const DSIG = "http://www.w3.org/2000/09/xmldsig#";

/**
 * The standard form of a 24.4 signature (docs/signatures.md): `cns:SignatureType`'s children back
 * into a `ds:Signature` inside it, as a standard tool signs over the 24.4 template.
 */
export function asStandardSignature(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const st = doc.getElementsByTagNameNS("http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes", "SignatureType")[0]!;
  const ds = doc.createElementNS(DSIG, "ds:Signature");
  while (st.firstChild) ds.appendChild(st.firstChild);
  st.appendChild(ds);
  return new XMLSerializer().serializeToString(doc);
}
