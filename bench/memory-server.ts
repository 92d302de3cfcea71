// The gateway as deployed (bootGateway + listen, like bench/gateway-server.ts), plus a second
// listener on a free loopback port answering GET with this process's resident set size and
// resident actors, for bench/memory.ts. Prints "LISTENING <gateway url> STATS <stats url>".
import { loadConfig } from "@ndc/config";
import { bootGateway, listen } from "@ndc/gateway";

const config = loadConfig({ ...process.env, PORT: "0" });
const gw = await bootGateway({ config });
const l = listen(gw);
const stats = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => Response.json({ rssBytes: process.memoryUsage.rss(), residentActors: gw.actors.size }),
});
console.log(`LISTENING ${l.url} STATS ${stats.url}`);
export {};
