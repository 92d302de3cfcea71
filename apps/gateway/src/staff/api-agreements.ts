import { GatewayError } from "@ndc/errors";
import { json, readJsonObject } from "../routes/json";
import { addKey, agencyAgreements, revokeKey, setCommission, setPolicy } from "./agreements";
import type { StaffDeps } from "./deps";
import { staffCaller } from "./guard";
import { AGREEMENT_PATHS as P } from "./paths";
import { closeAccount, openAccount, settlementAccounts } from "./settlement-accounts";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/**
 * An agency's commission and signing agreements under /staff/api (docs/staff-api.md). Undefined
 * for any other path; refusals are thrown for staffApi to answer.
 */
export async function agreementsApi(request: Request, path: string, deps: StaffDeps): Promise<Response | undefined> {
  const m = request.method;
  let r = P.agreements.exec(path);
  if (r) {
    const caller = await staffCaller(request, deps);
    if (m !== "GET") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET"] });
    return json(200, await agencyAgreements(deps, caller, r[1]!), NO_STORE);
  }
  if ((r = P.settlementAccounts.exec(path))) {
    const caller = await staffCaller(request, deps);
    if (m === "GET") return json(200, await settlementAccounts(deps, caller, r[1]!), NO_STORE);
    if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET", "POST"] });
    return json(201, await openAccount(deps, caller, r[1]!, await readJsonObject(request)), NO_STORE);
  }
  const post = async (run: (caller: Awaited<ReturnType<typeof staffCaller>>, body: Record<string, unknown>) => Promise<unknown>) => {
    if (m !== "POST") throw new GatewayError("method_not_allowed", { allowedMethods: ["POST"] });
    const caller = await staffCaller(request, deps);
    return json(200, await run(caller, await readJsonObject(request)), NO_STORE);
  };
  if ((r = P.commission.exec(path))) return post((c, b) => setCommission(deps, c, r![1]!, b));
  if ((r = P.addKey.exec(path))) return post((c, b) => addKey(deps, c, r![1]!, b));
  if ((r = P.revokeKey.exec(path))) return post((c, b) => revokeKey(deps, c, r![1]!, r![2]!, b));
  if ((r = P.policy.exec(path))) return post((c, b) => setPolicy(deps, c, r![1]!, b));
  if ((r = P.closeAccount.exec(path))) return post((c, b) => closeAccount(deps, c, r![1]!, r![2]!, b));
  return undefined;
}
