/** Type-only entry for clients: `import type { AppType } from "@overture/backend/api"`. */
export type { AppType } from "./app.ts";
