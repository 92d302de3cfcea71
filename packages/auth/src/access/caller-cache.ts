import { changeCounter, type Store } from "@ndc/store";
import type { Agency } from "../types";
import { loadAggregatorAgencies, loadApiKey, loadCaller, readRegistryVersion, type ApiKeyRow, type CallerRow } from "./lookup";

/** The registry reads the cache stands in front of (lookup.ts); tests wrap them to count. */
export interface RegistryReads {
  caller(clientId: string): Promise<CallerRow | undefined>;
  aggregatorAgencies(clientId: string): Promise<Agency[]>;
  apiKey(digest: string): Promise<ApiKeyRow | undefined>;
  version(): Promise<number>;
}

export function storeReads(store: Store): RegistryReads {
  return {
    caller: (id) => loadCaller(store.db, id),
    aggregatorAgencies: (id) => loadAggregatorAgencies(store.db, id),
    apiKey: (digest) => loadApiKey(store.db, digest),
    version: () => readRegistryVersion(store.db),
  };
}

/** Enough for every seller of a large airline; past it the cache starts over (see remember). */
const MAX_ENTRIES = 10_000;

/**
 * The callers' registry rows, kept between calls (docs/decisions/0008-per-call-floor.md).
 *
 * Suspension, rotation, scope, agency and grant changes must bite on the very next call, even
 * when the CLI makes them from another process (DESIGN 5). So before every lookup the cache
 * asks whether the registry may have changed:
 * - the read connection's PRAGMA data_version (about 1 µs) says whether any other connection
 *   committed since the last look; if none did, nothing changed;
 * - if one did, the registry_version row (moved by triggers in the same transaction as any
 *   registry change, migration 0013) says whether that commit touched the registry; if it did,
 *   everything cached is dropped.
 * Without a sound data_version (in-memory or libSQL stores) the version row is read every call.
 *
 * Rows are cached only under the generation current when their read began: a read that started
 * before a change was noticed can never refill the cache after it was emptied.
 */
export class CallerCache {
  private readonly dataVersion: (() => number) | undefined;
  /** The data_version and registry version the cache was last confirmed at. */
  private seenData = NaN;
  private seenRegistry = NaN;
  private generation = 0;
  private readonly callers = new Map<string, CallerRow>();
  private readonly aggregators = new Map<string, Agency[]>();
  private readonly apiKeys = new Map<string, ApiKeyRow>();

  constructor(
    private readonly reads: RegistryReads,
    store: Store,
  ) {
    this.dataVersion = changeCounter(store.db);
  }

  async caller(clientId: string): Promise<CallerRow | undefined> {
    await this.confirm();
    return this.callers.get(clientId) ?? this.remember(this.callers, clientId, await this.readAt(() => this.reads.caller(clientId)));
  }

  async aggregatorAgencies(clientId: string): Promise<Agency[]> {
    await this.confirm();
    return this.aggregators.get(clientId) ?? this.remember(this.aggregators, clientId, await this.readAt(() => this.reads.aggregatorAgencies(clientId)));
  }

  async apiKey(digest: string): Promise<ApiKeyRow | undefined> {
    await this.confirm();
    return this.apiKeys.get(digest) ?? this.remember(this.apiKeys, digest, await this.readAt(() => this.reads.apiKey(digest)));
  }

  /**
   * A number that changes whenever the registry may have changed (checked now): what else is
   * kept beside the registry rows (the token signing key, token/current-key.ts) compares it.
   */
  async generationNow(): Promise<number> {
    await this.confirm();
    return this.generation;
  }

  /** Drops everything if the registry may have changed since the last call. */
  private async confirm(): Promise<void> {
    // data_version first: a commit landing between the two reads moves it again, so the next
    // call looks at the version row once more instead of trusting a stale one.
    const data = this.dataVersion?.();
    if (data !== undefined && data === this.seenData) return;
    const registry = await this.reads.version();
    if (registry !== this.seenRegistry) this.clear();
    this.seenRegistry = registry;
    if (data !== undefined) this.seenData = data;
  }

  private clear(): void {
    this.generation++;
    this.callers.clear();
    this.aggregators.clear();
    this.apiKeys.clear();
  }

  private async readAt<T>(read: () => Promise<T>): Promise<{ value: T; generation: number }> {
    const generation = this.generation;
    return { value: await read(), generation };
  }

  /** Unknown ids are not kept: a flood of them must not push real callers out. */
  private remember<T>(map: Map<string, T>, key: string, read: { value: T; generation: number }): T {
    if (read.value === undefined || read.generation !== this.generation) return read.value;
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, read.value);
    return read.value;
  }
}
