// Types of scripts/ndc-schemas.mjs (plain JavaScript: Node runs it for `npm run schemas`).
export declare const SCHEMA_PACKAGE: { release: string; page: string; url: string; sha256: string | null };
export declare const FETCHED_DIR: string;
export declare const MARKER: string;
export declare function schemaDirCandidates(root: string, env: Record<string, string | undefined>): string[];
export declare function findSchemaDir(root: string, env: Record<string, string | undefined>): string | null;
export declare function missingSchemasNote(root: string, env: Record<string, string | undefined>): string;
