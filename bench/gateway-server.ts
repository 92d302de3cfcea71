// The gateway as deployed (bootGateway + listen), on a free port, in its own process.
import { loadConfig } from "@ndc/config";
import { bootGateway, listen } from "@ndc/gateway";

const config = loadConfig({ ...process.env, PORT: "0" });
const gw = await bootGateway({ config });
const l = listen(gw);
console.log(`LISTENING ${l.url}`);
