export { createGateway, type GatewayApp, type GatewayDeps } from "./app";
export { bootGateway, clearanceDeskOf, type BootedGateway } from "./boot";
export { listen, transportOf } from "./serve";
export { handleNdc } from "./ndc/pipeline";
export { postWebhook } from "./webhook-post";
export { registryGrants } from "./grants";
