import { loadConfig } from "./env/env.ts";
import { serve } from "./cli/serve.ts";

// `node dist/index.js`: the same as `overture-backend serve` (bin/overture-backend, src/cli.ts).
await serve(loadConfig());
