import { hc } from "hono/client";
import { expect, it } from "vitest";
import type { AppType } from "../../src/app.ts";

// A type check as much as a test: `pnpm typecheck` fails here when one route widens AppType's map
// of routes to an index signature (a handler typed for any path does), because each property
// below then becomes possibly undefined. The extension's typed client would lose every route.
it("gives the typed client every route by its own path", () => {
  const client = hc<AppType>("http://backend.test");
  expect(typeof client.healthz.$get).toBe("function");
  expect(typeof client.api.tasks.$post).toBe("function");
  expect(typeof client.api.relay.channels.$post).toBe("function");
  expect(typeof client.relay[":token"].$post).toBe("function");
});
