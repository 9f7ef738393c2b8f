import preact from "@preact/preset-vite";
import { defineConfig } from "wxt";
import { CHROME_PUBLIC_KEY, GECKO_ID } from "./src/lib/shared/extension-identity.ts";
import { STORE_MODE } from "./src/lib/shared/flavour.ts";

// Development builds (`wxt`, `pnpm build`: the local stack, the browser tests, the benchmarks)
// reach the local backend at install and carry the manifest `key` that pins the extension id the
// backend allows by default. Store builds (`--mode store`, `pnpm zip`) carry neither: the Chrome
// Web Store refuses a `key`, and the person chooses their backend at first run.
const LOCAL_HOSTS = ["http://127.0.0.1/*", "http://localhost/*"];
const ANY_HOST = ["http://*/*", "https://*/*"];
const OPEN_SHORTCUT = "Alt+Shift+O";
// The views' chunks (issue 16). "ui": what every page's first screen runs (Preact, messages,
// preferences, the stored snapshot, the background's messages, the words of a wait: the sign-in
// screen says how long, and texts.ts uses them too, whose group would drag storage into the
// first screen). "shared": WXT's storage library
// and the texts, which the options page loads at once and the popup only with its later chunks
// (its first screen reads storage through stored-value.ts). "app": the popup's and side panel's
// shell with Vite's helper for `import()`, which the options page does not need. The rest is
// split by who loads it.
const VIEW_CHUNKS = [
  {
    name: "ui",
    priority: 3,
    test: /node_modules[\\/](preact|@wxt-dev[\\/](i18n|browser)|wxt[\\/]dist[\\/]browser)|\.wxt[\\/]i18n|src[\\/]lib[\\/](shared|views)[\\/](i18n|chrome-messages|mount|preferences|apply-preferences|item-specs|stored-value|snapshot|extension-identity|flavour|hooks|messages|errors|wait-text)\.tsx?$/,
  },
  {
    name: "shared",
    priority: 2,
    test: /node_modules[\\/](@wxt-dev[\\/]storage|superlock)[\\/]|core[\\/]dist[\\/]music[\\/]params|src[\\/]lib[\\/](shared|views)[\\/](storage|versioned-item|texts|refusals|user-agent|backend-url)\.ts$|components[\\/]confirm-button\.tsx$/,
  },
  {
    name: "app",
    priority: 1,
    test: /preload-helper|src[\\/]lib[\\/]views[\\/](lazy|surface)\.tsx?$|src[\\/]components[\\/](app|header|state-screen|connection|avatar)\.tsx$/,
  },
];

export default defineConfig({
  srcDir: "src",
  modules: ["@wxt-dev/i18n/module"],
  imports: false,
  vite: () => ({
    plugins: [preact()],
    // Chrome 123 and Firefox 140 preload modules themselves: Vite's polyfill would only add weight.
    build: { modulePreload: { polyfill: false } },
  }),
  manifest: ({ browser, manifestVersion, mode }) => {
    const store = mode === STORE_MODE;
    const installHosts = store ? [] : LOCAL_HOSTS;
    return {
      name: "__MSG_extName__",
      description: "__MSG_extDescription__",
      default_locale: "en",
      // CSS light-dark() (the themes) is there from Chrome 123 on.
      ...(browser === "chrome" ? { minimum_chrome_version: "123" } : {}),
      permissions: [
        "storage",
        "identity",
        "alarms",
        "notifications",
        "downloads",
        ...(browser === "chrome" ? ["sidePanel"] : []),
        ...(manifestVersion === 2 ? installHosts : []),
      ],
      ...(manifestVersion === 3
        ? {
            ...(installHosts.length > 0 ? { host_permissions: installHosts } : {}),
            optional_host_permissions: ANY_HOST,
          }
        : { optional_permissions: ANY_HOST }),
      action: { default_title: "__MSG_extName__" },
      commands: {
        [manifestVersion === 3 ? "_execute_action" : "_execute_browser_action"]: {
          suggested_key: { default: OPEN_SHORTCUT },
          description: "__MSG_commandOpen__",
        },
      },
      ...(browser === "chrome"
        ? store
          ? {}
          : { key: CHROME_PUBLIC_KEY }
        : {
            browser_specific_settings: {
              gecko: {
                id: GECKO_ID,
                // The built-in data consent (below) exists from Firefox 140 on.
                strict_min_version: "140.0",
                // What leaves the browser, and only for the backend the person chose: the
                // sign-in code and session token (docs/privacy.md).
                data_collection_permissions: { required: ["authenticationInfo"] },
              },
              // ...and from Firefox for Android 142 on.
              gecko_android: { strict_min_version: "142.0" },
            },
          }),
    };
  },
  zip: {
    name: "overture",
    artifactTemplate: "{{name}}-{{version}}-{{browser}}.zip",
    sourcesTemplate: "{{name}}-{{version}}-sources.zip",
    // The extension builds from the monorepo (workspace packages, shared configs, the lockfile).
    sourcesRoot: "../..",
    excludeSources: [
      "**/.output/**",
      "**/dist/**",
      "**/test-results/**",
      "**/docs/screenshots/**",
      "**/*.png",
      "apps/backend/bench/**",
      "**/coverage/**",
    ],
    includeSources: ["apps/extension/public/**/*.png"],
  },
  hooks: {
    "vite:build:extendConfig": (entrypoints, config) => {
      // The HTML pages build together, with shared chunks (the background builds alone, as IIFE).
      if (!entrypoints.some((entrypoint) => entrypoint.type === "popup")) return;
      config.build ??= {};
      config.build.rolldownOptions ??= {};
      const output = config.build.rolldownOptions.output;
      if (Array.isArray(output)) throw new Error("one output expected for the HTML pages");
      config.build.rolldownOptions.output = { ...output, codeSplitting: { groups: VIEW_CHUNKS } };
    },
    // A zip is only ever for a store; a development build's `key` must not reach one.
    "zip:start": (wxt) => {
      if (wxt.config.mode !== STORE_MODE)
        throw new Error(`Store zips are built with --mode ${STORE_MODE} (pnpm zip).`);
    },
  },
});
