#!/usr/bin/env bun
/**
 * The single-binary entry (`ndc-gateway <command>`), compiled by scripts/build-binary.ts and
 * run from source as `bun apps/cli/src/main.ts <command>`.
 */
import { processIo } from "./io";
import { runCli } from "./cli";

const code = await runCli(process.argv.slice(2), processIo);
process.exitCode = code;
// Let stdout drain and the loop empty on its own; if a forgotten timer or socket keeps it
// alive after the command is done, leave anyway.
setTimeout(() => process.exit(code), 2_000).unref();
