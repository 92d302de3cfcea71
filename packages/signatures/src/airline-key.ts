import { execFileSync } from "node:child_process";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { chmodSync, existsSync, linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ensurePrivateDir, narrowIfPresent, PRIVATE_FILE_MODE, type GatewayConfig } from "@ndc/config";
import { readSigningKey } from "./keys";
import type { SignerKey } from "./sign";

/** The airline's signing key with what the discovery document publishes of it. */
export interface AirlineKey extends SignerKey {
  fingerprint: string;
  kind: "certificate" | "public_key";
}

/**
 * The key the airline signs its OrderViewRS answers with (issue 11 item 4): the files of
 * AIRLINE_SIGNING_KEY_FILE and AIRLINE_SIGNING_CERT_FILE. Outside production missing files are
 * made: an RSA 2048 key (0600, exclusive create so two processes starting together agree) and a
 * self-signed certificate from openssl, or the bare public key where openssl is not installed.
 * Production never invents a key: without the files the airline signs nothing.
 */
export function loadAirlineKey(config: GatewayConfig): AirlineKey | undefined {
  const { keyFile, certFile } = config.airlineSigning;
  if (!existsSync(keyFile)) {
    if (config.mode === "production") return undefined;
    if (!existsSync(dirname(keyFile))) ensurePrivateDir(dirname(keyFile));
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    try {
      writeFileSync(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: PRIVATE_FILE_MODE, flag: "wx" });
      chmodSync(keyFile, PRIVATE_FILE_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  narrowIfPresent(keyFile);
  const privateKeyPem = readFileSync(keyFile, "utf8");
  if (!existsSync(certFile)) {
    if (config.mode === "production") return undefined;
    writeCertificate(keyFile, certFile, privateKeyPem, config.airline.designator);
  }
  const info = readSigningKey(readFileSync(certFile, "utf8"));
  return { privateKeyPem, publicPem: info.pem, algorithm: info.algorithm, fingerprint: info.fingerprint, kind: info.kind };
}

/**
 * Made beside the final name, then linked to it (link fails if the name exists): of several
 * processes starting together, the first certificate stays and every process reads that one. A
 * process that wrote its own over another's would publish (and sign under) a certificate the other
 * processes' discovery documents do not show.
 */
function writeCertificate(keyFile: string, certFile: string, privateKeyPem: string, designator: string): void {
  const tmp = `${certFile}.${process.pid}.tmp`;
  try {
    execFileSync("openssl", ["req", "-x509", "-new", "-key", keyFile, "-out", tmp, "-days", "3650", "-sha256", "-subj", `/CN=${designator} NDC gateway (local)`], { stdio: "ignore" });
  } catch {
    // No openssl: the public key alone still verifies (xmlsec1 --pubkey-pem).
    writeFileSync(tmp, createPublicKey(privateKeyPem).export({ type: "spki", format: "pem" }));
  }
  try {
    linkSync(tmp, certFile);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The key read (or made) at first use: a process that never signs makes no key and reads no file. */
export function lazyAirlineKey(config: GatewayConfig): () => AirlineKey | undefined {
  let made: { key: AirlineKey | undefined } | undefined;
  return () => (made ??= { key: loadAirlineKey(config) }).key;
}
