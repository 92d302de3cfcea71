/**
 * Issue 22 item 2: the airline's signing key and certificate, made at first use outside
 * production, are one for every worker of a data directory, even when the workers make them at
 * the same moment: each discovery document publishes the same certificate.
 */
import { afterAll, expect, test } from "bun:test";
import { multiDataDir, type Worker } from "./support";

const data = multiDataDir();
const workers: Worker[] = [];

afterAll(() => data.close());

type Airline = { fingerprint: string; certificate: string } | null;

// Four workers: with two, the old race (each wrote its own certificate over the other's) showed too seldom to be seen.
test("workers making the airline key at once publish one certificate", async () => {
  workers.push(await data.startWorker(), await data.startWorker(), await data.startWorker(), await data.startWorker());
  // None has signed yet, so none made the key: the first discovery document does, in all at once.
  const docs = await Promise.all(workers.map(async (w) => ((await (await fetch(`${w.url}/24.4`)).json()) as { signatures: { airline: Airline } }).signatures.airline));
  expect(docs[0]).not.toBeNull();
  expect(new Set(docs.map((d) => d!.fingerprint)).size).toBe(1);
  expect(new Set(docs.map((d) => d!.certificate)).size).toBe(1);
}, 60_000);
