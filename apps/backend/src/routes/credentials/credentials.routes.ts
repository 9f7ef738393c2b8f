import { createRoute, z } from "@hono/zod-openapi";
import { namespaceSchema } from "../../lib/namespace.ts";
import { WEBHOOK_SECRET_MAX_LENGTH } from "../../services/credentials/webhook-secrets.ts";
import { errorBody } from "../../schemas/common.ts";
import {
  accessTokenMetaSchema,
  selectionSchema,
  webhookSecretStatusSchema,
} from "../../schemas/credentials.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

const tags = ["Platform credentials"];
const security = [{ session: [] }];
const nsParams = z.object({ ns: namespaceSchema.openapi({ param: { name: "ns", in: "path" } }) });

const platformErrors = {
  ...sessionErrors,
  503: {
    description: "`platform_unavailable`: the platform could not be reached",
    content: json(errorBody),
  },
} as const;

export const listTokens = createRoute({
  method: "get",
  path: "/api/namespaces/{ns}/tokens",
  tags,
  security,
  summary: "The access tokens of a namespace, as the platform lists them (meta only, spec 4.4)",
  request: { params: nsParams },
  responses: {
    200: {
      description: "Token list",
      content: json(z.object({ namespace: z.string(), tokens: z.array(accessTokenMetaSchema) })),
    },
    400: { description: "Malformed namespace", content: json(errorBody) },
    404: {
      description: "`namespace_not_found`: unknown namespace or not a member",
      content: json(errorBody),
    },
    ...platformErrors,
  },
});

const selectionBody = z.object({ selection: selectionSchema.nullable() });

export const getSelection = createRoute({
  method: "get",
  path: "/api/selection",
  tags,
  security,
  summary: "The access token chosen for tasks (null until one is chosen)",
  responses: {
    200: { description: "Current choice", content: json(selectionBody) },
    ...sessionErrors,
  },
});

export const putSelection = createRoute({
  method: "put",
  path: "/api/selection",
  tags,
  security,
  summary: "Choose the access token tasks run with (checked against the platform's list)",
  request: {
    body: {
      required: true,
      content: json(
        z.object({ namespace: namespaceSchema, token_id: z.number().int().positive() }),
      ),
    },
  },
  responses: {
    200: { description: "Chosen", content: json(z.object({ selection: selectionSchema })) },
    400: { description: "Malformed body", content: json(errorBody) },
    404: {
      description:
        "`namespace_not_found`, or `access_token_not_found` (no such token in the namespace)",
      content: json(errorBody),
    },
    ...platformErrors,
  },
});

export const webhookSecretInput = z.object({
  secret: z
    .string()
    .min(1, "is empty: paste the secret shown after a reset in the console")
    .max(WEBHOOK_SECRET_MAX_LENGTH, `is longer than ${WEBHOOK_SECRET_MAX_LENGTH} characters`)
    .refine(
      (s) => s.trim() === s,
      "starts or ends with whitespace (space, tab or line break): copy it again without the blanks",
    )
    .openapi({
      description: "The account's webhook secret, exactly as the console shows it. Write-only.",
    }),
});

export const putWebhookSecret = createRoute({
  method: "put",
  path: "/api/namespaces/{ns}/webhook-secret",
  tags,
  security,
  summary:
    "Store the account's webhook secret (after a reset the old one stays valid for a grace period)",
  request: { params: nsParams, body: { required: true, content: json(webhookSecretInput) } },
  responses: {
    204: { description: "Stored" },
    400: { description: "Malformed namespace or secret", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const getWebhookSecret = createRoute({
  method: "get",
  path: "/api/namespaces/{ns}/webhook-secret",
  tags,
  security,
  summary: "Whether a webhook secret is stored (never the secret itself)",
  request: { params: nsParams },
  responses: {
    200: { description: "Status", content: json(webhookSecretStatusSchema) },
    400: { description: "Malformed namespace", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const deleteWebhookSecret = createRoute({
  method: "delete",
  path: "/api/namespaces/{ns}/webhook-secret",
  tags,
  security,
  summary: "Forget the account's webhook secret (tasks then rely on polling)",
  request: { params: nsParams },
  responses: {
    204: { description: "Forgotten (or there was none)" },
    400: { description: "Malformed namespace", content: json(errorBody) },
    ...sessionErrors,
  },
});
