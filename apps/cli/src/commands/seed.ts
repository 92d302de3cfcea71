import { provisionSandbox } from "@ndc/auth";
import { migrate, openStore } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { printSandboxCredentials } from "../sandbox";

/**
 * `seed`: migrate, then make sure the data a fresh gateway needs exists. Today that is the
 * local sandbox seller; later issues add their seed steps here. Running it twice changes nothing.
 */
export async function seedCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length) throw new UsageError(`seed: unexpected argument ${args[0]}`);
  const { config } = loadRuntime(io);
  const store = await openStore(config.databaseUrl);
  try {
    const applied = await migrate(store);
    io.out(applied.length ? `applied ${applied.join(", ")}` : "schema up to date");
    const sandbox = await provisionSandbox({ store, config }); // null outside local mode
    if (sandbox) {
      printSandboxCredentials(sandbox.credentials, sandbox.issued, config, io);
    } else {
      io.out(`no sandbox seller in ${config.mode} mode: register sellers with \`ndc-gateway agency\` and \`ndc-gateway client\``);
    }
    return 0;
  } finally {
    await store.close();
  }
}
