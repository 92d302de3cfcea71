import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { migrate, openStore, type Store } from "@ndc/store";
import { runClientCommand } from "../../apps/cli/src/commands/clients";
import { basic, bootAuthGateway, form, type AuthGateway } from "./harness";

/**
 * `ndc-gateway agency ...` / `client ...` (runClientCommand) on its own store connection,
 * with the gateway serving the same database, so every effect is checked over HTTP too.
 */
let g: AuthGateway;
let admin: Store;
let out: string[] = [];
let err: string[] = [];

async function cli(...args: string[]): Promise<number> {
  out = [];
  err = [];
  return runClientCommand(args, { store: admin, config: g.gw.config, out: (l) => out.push(l), err: (l) => err.push(l) });
}

const field = (name: string) => out.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? "";
const CC = form({ grant_type: "client_credentials" });

beforeAll(async () => {
  g = await bootAuthGateway({ RATE_LIMIT_TOKEN_PER_MINUTE: "1000" });
  admin = await openStore(g.gw.config.databaseUrl);
  await migrate(admin);
});
afterAll(async () => {
  await admin.close();
  await g.close();
});

describe("agency commands", () => {
  test("register", async () => {
    expect(await cli("agency", "register", "--agency-id", "AGY-A", "--iata", "11111111", "--name", "Agency A")).toBe(0);
    expect(out).toEqual(["agency AGY-A registered (IATA 11111111, active)"]);
    expect(await cli("agency", "register", "--agency-id=AGY-B", "--iata=22222222", "--name=Agency B")).toBe(0);
  });

  test("register refuses duplicates and bad input", async () => {
    expect(await cli("agency", "register", "--agency-id", "AGY-A", "--iata", "33333333", "--name", "Again")).toBe(1);
    expect(err[0]).toContain("agency_exists");
    expect(await cli("agency", "register", "--agency-id", "AGY-Z", "--iata", "11111111", "--name", "Same IATA")).toBe(1);
    expect(await cli("agency", "register", "--agency-id", "AGY-Z", "--iata", "123", "--name", "Short")).toBe(1);
    expect(err[0]).toContain("eight digits");
    expect(await cli("agency", "register", "--agency-id", "AGY-Z", "--name", "No IATA")).toBe(2);
    expect(err.join("\n")).toContain("--iata is required");
    expect(err.join("\n")).toContain("usage:");
    expect(await cli("agency", "register", "--agency-id", "AGY-Z", "--iata", "55555555", "--name", "x", "--colour", "red")).toBe(2);
  });

  test("list", async () => {
    expect(await cli("agency", "list")).toBe(0);
    expect(out[0]).toBe("AGENCY_ID\tIATA\tSTATUS\tNAME");
    expect(out).toContain("AGY-A\t11111111\tactive\tAgency A");
  });

  test("deactivate and activate, by id or IATA number", async () => {
    expect(await cli("agency", "deactivate", "22222222")).toBe(0);
    await cli("agency", "list");
    expect(out).toContain("AGY-B\t22222222\tinactive\tAgency B");
    expect(await cli("agency", "activate", "AGY-B")).toBe(0);
    await cli("agency", "list");
    expect(out).toContain("AGY-B\t22222222\tactive\tAgency B");
    expect(await cli("agency", "deactivate", "NOPE")).toBe(1);
    expect(err[0]).toContain("unknown_agency");
    expect(await cli("agency", "deactivate")).toBe(2);
  });
});

describe("client commands", () => {
  let id = "";
  let secret = "";
  let agg = "";
  let aggSecret = "";
  const token = (i: string, s: string, scope?: string) =>
    g.token({ authorization: basic(i, s), body: scope ? form({ grant_type: "client_credentials", scope }) : CC });

  test("register prints the client id and the secret once", async () => {
    expect(await cli("client", "register", "--agency", "AGY-A", "--scopes", "ndc:shop ndc:order", "--name", "Front office")).toBe(0);
    id = field("client_id");
    secret = field("client_secret");
    expect(id).toMatch(/^ndc_[0-9a-z]{20}$/);
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect(out.some((l) => l.includes("cannot be shown again"))).toBe(true);
    const r = await token(id, secret);
    expect(r.status).toBe(200);
    expect(r.json.scope).toBe("ndc:shop ndc:order");
    // Only the argon2id hash is stored.
    const row = (await admin.db.all(`SELECT secret_hash FROM clients WHERE client_id = '${id}'`)) as { secret_hash: string }[];
    expect(row[0]!.secret_hash).toStartWith("$argon2id$");
    expect(row[0]!.secret_hash).not.toContain(secret);
  });

  test("register refuses an unknown agency, an inactive agency and an unknown scope", async () => {
    expect(await cli("client", "register", "--agency", "NOPE", "--scopes", "ndc:shop")).toBe(1);
    expect(err[0]).toContain("unknown_agency");
    await cli("agency", "deactivate", "AGY-B");
    expect(await cli("client", "register", "--agency", "AGY-B", "--scopes", "ndc:shop")).toBe(1);
    expect(err[0]).toContain("agency_inactive");
    await cli("agency", "activate", "AGY-B");
    expect(await cli("client", "register", "--agency", "AGY-A", "--scopes", "ndc:shop ndc:admin")).toBe(1);
    expect(err[0]).toContain("unknown_scope");
    expect(err[0]).toContain("ndc:admin");
    expect(await cli("client", "register", "--agency", "AGY-A")).toBe(2);
  });

  test("rotate-secret", async () => {
    expect(await cli("client", "rotate-secret", id)).toBe(0);
    const fresh = field("client_secret");
    expect(fresh).not.toBe(secret);
    expect(out.some((l) => l.includes("cannot be shown again"))).toBe(true);
    expect((await token(id, secret)).status).toBe(401);
    expect((await token(id, fresh)).status).toBe(200);
    secret = fresh;
    expect(await cli("client", "rotate-secret", "ndc_unknown")).toBe(1);
    expect(err[0]).toContain("unknown_client");
  });

  test("suspend and resume", async () => {
    expect(await cli("client", "suspend", id)).toBe(0);
    const r = await token(id, secret);
    expect(r.status).toBe(401);
    expect(r.json.error).toBe("invalid_client");
    expect(await cli("client", "resume", id)).toBe(0);
    expect((await token(id, secret)).status).toBe(200);
  });

  test("grant-scope and revoke-scope", async () => {
    expect(await cli("client", "grant-scope", id, "ndc:order:write", "ndc:payment")).toBe(0);
    expect(out).toEqual([`client ${id} scopes: ndc:shop ndc:order ndc:order:write ndc:payment`]);
    expect((await token(id, secret, "ndc:payment")).status).toBe(200);
    expect(await cli("client", "revoke-scope", id, "ndc:payment")).toBe(0);
    const r = await token(id, secret, "ndc:payment");
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_scope");
    expect(await cli("client", "grant-scope", id, "ndc:everything")).toBe(1);
    expect(await cli("client", "grant-scope", id)).toBe(2);
  });

  test("grant-agency and revoke-agency", async () => {
    expect(await cli("client", "register", "--agency", "AGY-A", "--scopes", "ndc:shop ndc:aggregator")).toBe(0);
    agg = field("client_id");
    aggSecret = field("client_secret");
    expect(await cli("client", "grant-agency", agg, "22222222")).toBe(0);
    expect(out).toEqual([`client ${agg} may sell as: AGY-B`]);
    await cli("client", "list");
    expect(out.find((l) => l.startsWith(agg))).toContain("AGY-B");
    expect(await cli("client", "revoke-agency", agg, "AGY-B")).toBe(0);
    await cli("client", "list");
    expect(out.find((l) => l.startsWith(agg))!.split("\t")[4]).toBe("-");
    // Only an ndc:aggregator client can be granted agencies, and only known ones.
    expect(await cli("client", "grant-agency", id, "AGY-B")).toBe(1);
    expect(err[0]).toContain("not_aggregator");
    expect(await cli("client", "grant-agency", agg, "NOPE")).toBe(1);
    expect(err[0]).toContain("unknown_agency");
    expect((await token(agg, aggSecret)).status).toBe(200);
  });

  test("list shows clients without secrets", async () => {
    expect(await cli("client", "list")).toBe(0);
    expect(out[0]).toBe("CLIENT_ID\tAGENCY\tSTATUS\tSCOPES\tSELLS_AS\tNAME");
    expect(out.find((l) => l.startsWith(id))).toBe(`${id}\tAGY-A\tactive\tndc:shop ndc:order ndc:order:write\t-\tFront office`);
    expect(out.some((l) => l.startsWith("sandbox-local\tSANDBOX-AGENCY\tactive(local-only)"))).toBe(true);
    expect(out.join("\n")).not.toContain(secret);
    expect(out.join("\n")).not.toContain("argon2");
  });

  test("usage: help, unknown and missing subcommands", async () => {
    expect(await cli("client", "help")).toBe(0);
    expect(out[0]).toBe("usage:");
    expect(await cli("client", "explode")).toBe(2);
    expect(err[0]).toBe("unknown command: client explode");
    expect(err.join("\n")).toContain("ndc-gateway client register");
    expect(await cli("agency")).toBe(2);
    expect(await cli()).toBe(2);
    expect(await cli("client", "suspend", "a", "b")).toBe(2);
    expect(await cli("client", "toString")).toBe(2);
  });
});
