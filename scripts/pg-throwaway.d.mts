// Types of scripts/pg-throwaway.mjs (plain JavaScript: Node runs it from .ci/run and by hand).
export declare function findPgBin(): string | null;
export declare function start(): Promise<{ dir: string; port: number; url: string }>;
export declare function stop(dir: string): void;
