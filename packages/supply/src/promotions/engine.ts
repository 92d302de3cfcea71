import { evaluatePromotions, type PromotionRequest, type PromotionResult } from "./evaluate";
import { PROMOTION_RULES, type PromotionRule } from "./rules";

/**
 * The promotions engine as the gateway sees it: a remote service that may fail. The switch
 * (mode) makes it unreachable, slow or refusing so that callers prove they then price with no
 * adjustments at all, surcharges included, and warn (spec 4.5 rule 4).
 */
export type EngineMode = "ok" | "unreachable" | "slow" | "refusing";

export interface PromotionsEngine {
  evaluate(request: PromotionRequest): Promise<PromotionResult>;
}

export class PromotionsEngineError extends Error {
  constructor(
    readonly failure: "unreachable" | "refused",
    readonly transient: boolean,
    message: string,
  ) {
    super(message);
    this.name = "PromotionsEngineError";
  }
}

export interface SimulatedEngineOptions {
  mode?: EngineMode;
  rules?: readonly PromotionRule[];
  /** How long "slow" takes to answer; set above the caller's timeout. */
  slowDelayMs?: number;
}

/** The simulated engine. Its mode can be switched at run time (tests, the sandbox console). */
export class SimulatedPromotionsEngine implements PromotionsEngine {
  mode: EngineMode;
  private readonly rules: readonly PromotionRule[];
  private readonly slowDelayMs: number;

  constructor(options: SimulatedEngineOptions = {}) {
    this.mode = options.mode ?? "ok";
    this.rules = options.rules ?? PROMOTION_RULES;
    this.slowDelayMs = options.slowDelayMs ?? 5_000;
  }

  async evaluate(request: PromotionRequest): Promise<PromotionResult> {
    switch (this.mode) {
      case "unreachable":
        throw new PromotionsEngineError("unreachable", true, "promotions engine unreachable (connection refused)");
      case "refusing":
        throw new PromotionsEngineError("refused", false, "promotions engine refused the request");
      case "slow":
        await new Promise((r) => setTimeout(r, this.slowDelayMs));
        return evaluatePromotions(this.rules, request);
      case "ok":
        return evaluatePromotions(this.rules, request);
    }
  }
}

export type AskOutcome =
  | ({ status: "answered" } & PromotionResult)
  | { status: "unavailable"; failure: "unreachable" | "timeout" | "refused"; transient: boolean; message: string };

/**
 * Asks the engine with a time limit. Any failure gives "unavailable" and no adjustments: the
 * caller prices without any rule (discounts and surcharges alike) and warns.
 */
export async function askPromotions(engine: PromotionsEngine, request: PromotionRequest, timeoutMs: number): Promise<AskOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const answer = await Promise.race([engine.evaluate(request), timeout]);
    if (answer === "timeout") return { status: "unavailable", failure: "timeout", transient: true, message: `promotions engine did not answer within ${timeoutMs} ms` };
    return { status: "answered", ...answer };
  } catch (e) {
    if (e instanceof PromotionsEngineError) return { status: "unavailable", failure: e.failure, transient: e.transient, message: e.message };
    return { status: "unavailable", failure: "unreachable", transient: true, message: "promotions engine failed" };
  } finally {
    clearTimeout(timer);
  }
}
