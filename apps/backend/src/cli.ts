import { runCli } from "./cli/main.ts";
import { errorMessage } from "./lib/error-summary.ts";

process.setSourceMapsEnabled(true);

// The `overture-backend` command (bin/overture-backend). `serve` keeps running after this
// resolves; every other command ends with its exit code.
try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`overture-backend: ${errorMessage(error)}\n`);
  process.exitCode = 1;
}
