import { overture, restrictEnvAccess } from "@overture/eslint-config";

// Folders say who may import them (src/lib/{background,views,shared}). The background holds the
// session token and is the only code that talks to the network: a view that imports it by
// accident would put the token's reach into a page. What both need lives in lib/shared, which
// imports neither side. Matched on the import's text, so a relative path to the folder is caught
// from any depth.
const BACKGROUND_CODE = {
  regex: "(^|/)background/",
  message:
    "Only the background imports lib/background (the session token, the network). Views send a message (lib/shared/messages.ts); move what both need to lib/shared.",
};
const VIEW_CODE = {
  regex: "(^|/)(components|views)/|(^|/)entrypoints/(popup|sidepanel|options|privacy)/",
  message:
    "lib/views and components are the views' own. Move what the background needs too to lib/shared.",
};
const PREACT = {
  regex: "^preact(/|$)",
  message: "The background and lib/shared render nothing: Preact belongs to the views.",
};
const VIEW_FILES = [
  "src/components/**",
  "src/lib/views/**",
  "src/entrypoints/{popup,sidepanel,options,privacy}/**",
];
const BACKGROUND_FILES = ["src/lib/background/**", "src/entrypoints/background.ts"];
const SHARED_FILES = ["src/lib/shared/**"];

/** One folder's rule: what its files may not import. */
const zone = (files, patterns) => ({
  files,
  rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
});

/** The three folders' rules (src/import-rules.test.ts checks them). */
export const folderRules = [
  zone(VIEW_FILES, [BACKGROUND_CODE]),
  zone(BACKGROUND_FILES, [VIEW_CODE, PREACT]),
  zone(SHARED_FILES, [BACKGROUND_CODE, VIEW_CODE, PREACT]),
];

export default [
  ...overture({ tsconfigRootDir: import.meta.dirname, browser: true }),
  // The extension reads no environment at run time (WXT inlines what the build knows). Excepted:
  // the browser tests and their config, which find Chromium and the backend to start (CHROMIUM_PATH).
  ...restrictEnvAccess({ allow: ["e2e/**", "bench/**", "vitest.e2e.config.ts"] }),
  ...folderRules,
];
