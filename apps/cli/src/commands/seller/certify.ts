import { NdcError, OAuthError, TransportError } from "@ndc-gateway/client";
import { checkAirlineSignature } from "./airline-signature";
import { positional, Usage } from "../args";
import { client, count, signingKey, type SellerContext } from "./context";
import { NotRun, type Journey } from "./certify-journey";
import { STEPS } from "./certify-steps";
import { schemasDir, validate } from "./xsd";

/**
 * `seller certify --base-url URL`: the conformance journey of certify-steps.ts against any NDC
 * 24.4 gateway. Every XML answer is checked against the XSDs of `--schemas DIR`, and an answer
 * the airline signed against the certificate discovery publishes; a step whose answer is not
 * valid fails even if the answer was what the step wanted. Prints a table (step,
 * PASS / FAIL / NOT RUN, ms, detail) or `--json`. Exit 1 on any failure; NOT RUN alone exits 0,
 * or 1 with `--strict`.
 */
export interface StepResult {
  step: string;
  result: "PASS" | "FAIL" | "NOT RUN";
  ms: number;
  detail: string;
}

export async function certify(ctx: SellerContext): Promise<number> {
  positional(ctx.p, 0, "no positional arguments");
  const schemas = schemasDir(ctx.p, process.cwd(), ctx.io.env);
  if (!schemas) throw new Usage("no 24.4 schemas: give --schemas DIR, set NDC_SCHEMA_DIR, or fetch them with `npm run schemas` (none in ../shared/ndc-schemas/24.4 or .ndc-schemas/24.4)");
  // What is wrong with the answers of the step running: an invalid document, an airline signature that does not verify.
  let problems: string[] = [];
  let airlineSigned = 0;
  const c = client(ctx, {
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if ((res.headers.get("content-type") ?? "").includes("xml")) {
        const text = await res.clone().text();
        const v = validate(text, schemas);
        if (!v.ok) problems.push(`answer not valid against ${v.schema}: ${v.detail}`);
        const signed = checkAirlineSignature(text, j.discovery);
        if (signed === true) airlineSigned++;
        else if (signed) problems.push(signed);
      }
      return res;
    },
  });
  const route = routeOf(ctx);
  const j: Journey = {
    client: c,
    schemas,
    cardToken: ctx.p.flags.get("card-token") ?? "tok_approve_visa",
    signingKey: signingKey(ctx),
    pushTimeoutMs: count(ctx.p, "push-timeout", 30, 1, 600) * 1000,
  };
  const results: StepResult[] = [];
  for (const step of STEPS) {
    if (step.name === "shop") j.route = route ?? defaultRoute(j);
    problems = [];
    airlineSigned = 0;
    const started = performance.now();
    let result: StepResult["result"];
    let detail: string;
    try {
      const out = await ctx.progress(`certify: ${step.name}`, step.run(j));
      result = out instanceof NotRun ? "NOT RUN" : "PASS";
      detail = out instanceof NotRun ? out.reason : out;
    } catch (e) {
      result = "FAIL";
      detail = e instanceof NdcError ? `${e.status} ${e.code}: ${e.message.split(": ").slice(2).join(": ")}` : e instanceof OAuthError || e instanceof TransportError ? e.message : ((e as Error).message ?? String(e));
    }
    if (problems.length && result !== "FAIL") {
      result = "FAIL";
      detail = problems[0]!;
    } else if (airlineSigned && result === "PASS") detail += ` (airline signature verified on ${airlineSigned} answer${airlineSigned > 1 ? "s" : ""})`;
    results.push({ step: step.name, result, ms: Math.round(performance.now() - started), detail });
    // Nothing after a failed discovery or token can run.
    if (result === "FAIL" && (step.name === "discovery" || step.name === "token")) break;
  }
  const failed = results.filter((r) => r.result === "FAIL").length;
  const notRun = results.filter((r) => r.result === "NOT RUN").length;
  const passed = failed === 0 && results.length === STEPS.length;
  const complete = passed && notRun === 0;
  const width = Math.max(...STEPS.map((s) => s.name.length));
  ctx.print(
    [
      `certify ${c.baseUrl} (schemas ${schemas})`,
      `${"STEP".padEnd(width)}  RESULT   ${"MS".padStart(6)}  DETAIL`,
      ...results.map((r) => `${r.step.padEnd(width)}  ${r.result.padEnd(7)}  ${String(r.ms).padStart(6)}  ${r.detail}`),
      `${results.filter((r) => r.result === "PASS").length} passed, ${failed} failed, ${notRun} not run${results.length < STEPS.length ? `, ${STEPS.length - results.length} not reached` : ""}: ${passed ? (complete ? "CERTIFIED" : "CERTIFIED (incomplete)") : "NOT CERTIFIED"}`,
    ],
    { baseUrl: c.baseUrl, schemas, passed, complete, steps: results },
  );
  return !passed || (ctx.p.flags.get("strict") === "true" && !complete) ? 1 : 0;
}

function routeOf(ctx: SellerContext): Journey["route"] | undefined {
  const from = ctx.p.flags.get("from");
  const to = ctx.p.flags.get("to");
  if (!from && !to) return undefined;
  if (!from || !to) throw new Usage("--from and --to go together");
  const date = ctx.p.flags.get("date") ?? monthAhead();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Usage(`--date must be YYYY-MM-DD, got ${date}`);
  return { origin: from.toUpperCase(), destination: to.toUpperCase(), date };
}

const monthAhead = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

/** Without --from/--to: the first city pair discovery's `sandbox` lists, a month ahead. */
function defaultRoute(j: Journey): Journey["route"] {
  const pair = j.discovery?.sandbox?.cityPairs?.[0];
  if (!pair) return undefined;
  return { origin: pair[0], destination: pair[1], date: monthAhead() };
}
