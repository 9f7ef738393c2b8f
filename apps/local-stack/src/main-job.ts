import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { collectStartUpGarbage, useIdleFriendlyV8 } from "./main-job/footprint.ts";

// The V8 settings first, then the rest of the main job (an `import` would be evaluated before them).
useIdleFriendlyV8();
const { parseMainJobEnv } = await import("./env.ts");
const { closeOnSignals, startLocalStack } = await import("./stack.ts");

/**
 * The README's main job (`pnpm start`): the platform emulator and the backend on embedded
 * PGlite, configured for each other, then instructions for loading the built extension.
 * `PORT`, `EMULATOR_PORT` (0 = any free port) and `OVERTURE_DATA_DIR` choose where;
 * `EMULATOR_PROFILE=live` makes the emulator answer as the live platform does.
 */
const settings = (() => {
  try {
    return parseMainJobEnv(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
})();
const stack = await startLocalStack(settings, process.env);
closeOnSignals([stack], (message) => {
  console.log(message);
});

// The extension's build sits beside this workspace in the repository (apps/extension).
const extensionRoot = resolve(import.meta.dirname, "../../extension/.output");
const built = (path: string) =>
  existsSync(path) ? path : `${path} (not built: run \`pnpm build\`)`;
const chrome = built(resolve(extensionRoot, "chrome-mv3"));
const firefox = built(resolve(extensionRoot, "firefox-mv2"));
const otherPort = !stack.backendUrl.endsWith(":8787");

console.log(`
Overture is running.

  Backend          ${stack.backendUrl}   (embedded Postgres in ${resolve(settings.dataDir, "pglite")})
  API docs         ${stack.backendUrl}/docs
  Platform         ${stack.platformUrl}   (emulator${settings.emulatorProfile === "live" ? ", live profile" : ""}; console: ${stack.platformUrl}/__emulator/console)
  Data             ${settings.dataDir}   (a restart keeps sign-ins, tasks and results)

Load the extension:
  Chrome   chrome://extensions → Developer mode → Load unpacked → ${chrome}
  Firefox  about:debugging → This Firefox → Load Temporary Add-on → ${firefox}/manifest.json
${otherPort ? `\nThe backend is not on the default port: open Overture's settings and set the backend address\nto ${stack.backendUrl} first.\n` : ""}
Then open Overture, press "Sign in", and approve on the emulator's consent page as
"Demo Listener" (login demo). Pick the access token "Studio (paid)", compose, submit.

Live callbacks: copy the demo account's webhook secret from the platform console (or
${resolve(settings.dataDir, "main-job.json")}) into Overture's settings. Without it Overture
polls the platform instead; tasks finish either way.

Headless proof of the whole flow, in another terminal:  npx -y pnpm@10 demo
Stop with Ctrl+C.
`);
collectStartUpGarbage();
