export { createGateway, type GatewayApp, type GatewayDeps } from "./app";
export { bootGateway, type BootedGateway } from "./boot";
export { listen, transportOf } from "./serve";
export { handleNdc } from "./ndc/pipeline";
