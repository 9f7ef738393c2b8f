import type { EmulatorSeedInput } from "./schema.ts";

/**
 * The identities the whole project uses (see the brief): the demo works out of the box against
 * the backend at 127.0.0.1:8787. Token values are fixed so docs and scripts can name them; they
 * are local test values, not secrets.
 */
export const DEFAULT_SEED = {
  users: [
    { id: 1001, login: "demo", name: "Demo Listener" },
    { id: 1002, login: "ada", name: "Ada Lovelace" },
  ],
  organizations: [{ namespace: "overture-lab", name: "Overture Lab", members: ["demo", "ada"] }],
  accessTokens: [
    {
      id: 101,
      namespace: "demo",
      name: "Studio (paid)",
      usage_scenario: "paid",
      token: "emu-demo-studio-paid-0001",
    },
    {
      id: 102,
      namespace: "demo",
      name: "Sketchbook (trial)",
      usage_scenario: "trial",
      token: "emu-demo-sketchbook-trial-0002",
    },
    {
      id: 201,
      namespace: "overture-lab",
      name: "Lab shared",
      usage_scenario: "paid",
      token: "emu-lab-shared-paid-0003",
    },
  ],
  applications: [
    {
      name: "Overture",
      description: "Generate music on the platform from your browser.",
      homepage: "http://127.0.0.1:8787",
      redirect_uri: "http://127.0.0.1:8787/oauth/callback",
      client_id: "overture-local",
      client_secret: "overture-local-secret-change-me",
    },
    {
      // A secret that form-encoding changes (+ / =): clients must send Basic as spec 4.2 words it.
      name: "Overture (spec Basic auth check)",
      description: "Same as Overture, with a client_secret containing + / and =.",
      homepage: "http://127.0.0.1:8787",
      redirect_uri: "http://127.0.0.1:8787/oauth/callback",
      client_id: "overture-local-b64",
      client_secret: "emu+local/spec-basic=secret==",
    },
  ],
  webhookSecrets: {},
  quotas: {},
  defaultQuota: 2,
} as const satisfies EmulatorSeedInput;
