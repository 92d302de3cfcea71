/**
 * The gateway on a data dir a crash test left behind, booted in this process on a clock moved
 * ahead: how a retry is answered once the dead request's idempotency lock has lapsed (60 s
 * after it was taken), without making the test sleep a minute. Only the clock is unreal; the
 * store, actors, saga and handler are the ones `serve` runs.
 */
import { loadConfig } from "@ndc/config";
import { ManualClock } from "@ndc/clock";
import { bootGateway } from "@ndc/gateway";
import { createLogger } from "@ndc/log";
import type { NdcReply } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";

export async function askLater(dir: string, aheadMs: number, message: string, body: string): Promise<NdcReply> {
  const clock = new ManualClock(Date.now() + aheadMs);
  const config = loadConfig({ GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local", SUPPLY_SEED: "xb-sandbox-1" });
  const gw = await bootGateway({ config, clock, logger: createLogger({ level: "silent" }) });
  try {
    const res = await gw.app.handle(
      new Request(`http://localhost/24.4/${message}`, {
        method: "POST",
        headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": gw.sandbox!.api_key },
        body,
      }),
    );
    const text = await res.text();
    if (res.headers.get("content-type")?.startsWith("application/xml")) assertSchemaValid(text);
    return { status: res.status, headers: res.headers, body: text };
  } finally {
    await gw.close();
  }
}
