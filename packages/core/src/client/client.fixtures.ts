// Test-only: a platform client wired to a fake fetch and a fake clock.
import { createFakeFetch } from "../transport/fake-fetch.fixtures.ts";
import { createFakeClock } from "./fake-clock.fixtures.ts";
import { createPlatformClient, type PlatformClientOptions } from "./platform-client.ts";

export const BASE_URL = "http://base.test";
export const API_URL = "http://api.test";

export function setupClient(options: Partial<PlatformClientOptions> = {}) {
  const fake = createFakeFetch();
  const clock = createFakeClock();
  const client = createPlatformClient({
    baseUrl: BASE_URL,
    apiUrl: API_URL,
    clientId: "overture-local",
    clientSecret: "overture-local-secret-change-me",
    fetch: fake.fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0,
    ...options,
  });
  return { fake, clock, client };
}

/** The settled rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
