import { z } from "@hono/zod-openapi";

/** `POST /auth/device` (RFC 8628 §3.2): what the command line shows and polls with. */
export const deviceAuthorizationSchema = z
  .object({
    device_code: z.string().openapi({ description: "Kept by the device; polled with" }),
    user_code: z.string().openapi({ example: "BCDF-GHJK", description: "Shown to the person" }),
    verification_uri: z.string().openapi({ example: "https://overture.example.com/device" }),
    verification_uri_complete: z
      .string()
      .openapi({ example: "https://overture.example.com/device?user_code=BCDF-GHJK" }),
    expires_in: z.number().int().openapi({ example: 600, description: "Seconds" }),
    interval: z.number().int().openapi({ example: 5, description: "Seconds between polls" }),
  })
  .openapi("DeviceAuthorization");

export type DeviceAuthorization = z.infer<typeof deviceAuthorizationSchema>;

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** `POST /auth/device/token` (RFC 8628 §3.4), form-encoded as the RFC says. */
export const deviceTokenRequestSchema = z.object({
  grant_type: z.string().openapi({ example: DEVICE_CODE_GRANT }),
  device_code: z.string().min(1).max(128),
  client_id: z.string().max(128).optional(),
});

/** `POST /auth/device` (RFC 8628 §3.1); the backend has one public client, so both are optional. */
export const deviceRequestSchema = z.object({
  client_id: z.string().max(128).optional(),
  scope: z.string().max(256).optional(),
});
