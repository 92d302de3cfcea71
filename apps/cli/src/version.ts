import pkg from "../../../package.json" with { type: "json" };

// Set by scripts/build-binary.ts with --define; absent when run from source.
declare const NDC_BUILD_COMMIT: string | undefined;
declare const NDC_BUILD_TIME: string | undefined;

export const VERSION: string = pkg.version;

export function versionLine(): string {
  const commit = typeof NDC_BUILD_COMMIT === "string" ? NDC_BUILD_COMMIT : "source";
  const built = typeof NDC_BUILD_TIME === "string" ? `, built ${NDC_BUILD_TIME}` : "";
  return `ndc-gateway ${VERSION} (NDC 24.4, ${commit}${built}, bun ${Bun.version})`;
}
