import { createPkcePair } from "@overture/core/oauth";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  CHROME_REDIRECT,
  FIREFOX_REDIRECT,
  startTestBackend,
  type TestBackend,
} from "../support/harness.ts";

const ID = "kagljjjecjnbgppkpgkmojciehbjidja";
const HOST = `${ID}.chromiumapp.org`;

/**
 * The classic ways to make an allow-listed redirect URL lead somewhere else (user info, look-alike
 * hosts, backslashes, encoded slashes and dots, case, ports, dot segments, fragments, trailing
 * dots, whitespace, other schemes, homoglyphs). Each must be refused before anything is stored or
 * any redirect is made.
 */
const BYPASSES = [
  `https://${HOST}@evil.com/`,
  `https://${HOST}:x@evil.com/`,
  `https://evil.com@${HOST}/`,
  `https://user:pass@${HOST}/`,
  `https://${HOST}.evil.com/`,
  `https://evil.com/${HOST}/`,
  `https://evil.com/?${HOST}/`,
  `https://evil.com#${HOST}/`,
  `https://${HOST}\\@evil.com/`,
  `https://${HOST}\\.evil.com/`,
  `https:\\\\${HOST}\\`,
  `https:\\\\evil.com\\${HOST}/`,
  `https://evil.com\\${HOST}/`,
  `https://${HOST}%2F@evil.com/`,
  `https://${HOST}%2f%2fevil.com/`,
  `https://${HOST}%2eevil.com/`,
  `https://evil.com%2F${HOST}/`,
  `https://${HOST}%00.evil.com/`,
  `HTTPS://${HOST.toUpperCase()}/`,
  `https://${HOST.toUpperCase()}/`,
  `https://${HOST}:443/`,
  `https://${HOST}:8443/`,
  `https://${HOST}/../`,
  `https://${HOST}/./`,
  `https://${HOST}/%2e%2e/`,
  `https://${HOST}/a/../../evil`,
  `https://${HOST}/#@evil.com`,
  `https://${HOST}/#`,
  `https://${HOST}/?next=https://evil.com`,
  `https://${HOST}/?`,
  `https://${HOST}./`,
  `https://${HOST}../`,
  `https://${HOST}。/`,
  `https://${HOST.replace("a", "а")}/`, // Cyrillic а
  ` https://${HOST}/`,
  `https://${HOST}/ `,
  `https://${HOST}/\n`,
  `https://${HOST}\t/`,
  `http://${HOST}/`,
  `//${HOST}/`,
  `https:${HOST}/`,
  `https:/${HOST}/`,
  `javascript://${HOST}/%0aalert(1)`,
  `data:text/html,<script>location='https://evil.com'</script>`,
  `chrome-extension://${ID}/`,
  `https://${ID}.extensions.allizom.org/`,
  "https://evil.com/",
  "",
];

async function start(t: TestBackend, redirectUri: string, html = false) {
  const { challenge } = await createPkcePair();
  const query = new URLSearchParams({
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  return t.request(`/auth/start?${query.toString()}`, {
    ...(html ? { headers: { Accept: "text/html" } } : {}),
  });
}

for (const [name, allowList] of [
  ["exact entries", `${CHROME_REDIRECT},${FIREFOX_REDIRECT}`],
  ["entries ending in *", `${CHROME_REDIRECT}*,${FIREFOX_REDIRECT}*`],
] as const) {
  describeEachDriver(`the redirect_uri allow-list (${name})`, (driver) => {
    let t: TestBackend;
    beforeAll(async () => {
      t = await startTestBackend({ driver, config: { EXTENSION_REDIRECT_URLS: allowList } });
    });
    afterAll(() => t.close());

    it("lets the extension's own redirect URL through", async () => {
      const response = await start(t, CHROME_REDIRECT);
      expect(response.status).toBe(302);
    });

    it(`refuses ${BYPASSES.length} classic bypasses with no redirect, as JSON and as a page`, async () => {
      const accepted: string[] = [];
      for (const candidate of BYPASSES) {
        for (const html of [false, true]) {
          const response = await start(t, candidate, html);
          if (response.status !== 400 || response.headers.get("location") !== null)
            accepted.push(
              `${JSON.stringify(candidate)} (${html ? "html" : "json"}) → ${response.status}`,
            );
        }
      }
      expect(accepted).toEqual([]);
    });

    it("sends the sign-in result only to the URL the sign-in started with", async () => {
      const target = allowList.includes("*") ? `${CHROME_REDIRECT}signed-in` : CHROME_REDIRECT;
      const user = await t.startSignIn({ redirectUri: target });
      const done = await t.callback(await t.authorize(user.authorizeUrl));
      const location = new URL(done.headers.get("location") ?? "");
      expect(`${location.origin}${location.pathname}`).toBe(target);
      expect(location.host).toBe(HOST);
    });
  });
}
