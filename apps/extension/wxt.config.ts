import preact from "@preact/preset-vite";
import { defineConfig } from "wxt";
import { CHROME_PUBLIC_KEY, GECKO_ID } from "./src/lib/extension-identity.ts";

// Any backend the person points the extension at is asked for at runtime (optional host
// permissions); only the local default is granted at install.
const DEFAULT_HOSTS = ["http://127.0.0.1/*", "http://localhost/*"];
const ANY_HOST = ["http://*/*", "https://*/*"];

export default defineConfig({
  srcDir: "src",
  modules: ["@wxt-dev/i18n/module"],
  imports: false,
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser, manifestVersion }) => ({
    name: "__MSG_extName__",
    description: "__MSG_extDescription__",
    default_locale: "en",
    permissions: [
      "storage",
      "identity",
      "alarms",
      "notifications",
      "downloads",
      ...(browser === "chrome" ? ["sidePanel"] : []),
      ...(manifestVersion === 2 ? DEFAULT_HOSTS : []),
    ],
    ...(manifestVersion === 3
      ? { host_permissions: DEFAULT_HOSTS, optional_host_permissions: ANY_HOST }
      : { optional_permissions: ANY_HOST }),
    action: { default_title: "__MSG_extName__" },
    ...(browser === "chrome"
      ? { key: CHROME_PUBLIC_KEY }
      : { browser_specific_settings: { gecko: { id: GECKO_ID, strict_min_version: "115.0" } } }),
  }),
});
