export { RegistryError, isRegistryError, type RegistryErrorCode } from "./errors";
export { ALL_SCOPES, checkScopes, scopeString, type Scope } from "./scopes";
export { registerAgency, setAgencyActive, listAgencies, findAgency, requireAgency } from "./agencies";
export { setSigningPolicy, SIGNING_POLICIES } from "./signing-policy";
export {
  registerClient,
  rotateSecret,
  suspendClient,
  resumeClient,
  grantScopes,
  revokeScopes,
  listClients,
  type ClientSummary,
  type IssuedSecret,
} from "./clients";
export { grantAgencies, revokeAgencies } from "./aggregator";
export { createApiKey, revokeApiKeys } from "./api-keys";
export { clientHoldsScope, registryGrants } from "./grants";
