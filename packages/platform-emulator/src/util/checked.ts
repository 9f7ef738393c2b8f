import {
  accessTokenDetailSchema,
  accessTokenListSchema,
  balanceSchema,
  callbackEventSchema,
  cancelResponseSchema,
  platformErrorBodySchema,
  quotaSchema,
  submitResponseSchema,
  taskSchema,
  tokenResponseSchema,
  userInfoSchema,
} from "@overture/core/schemas";

const SCHEMAS = {
  tokenResponse: tokenResponseSchema,
  userInfo: userInfoSchema,
  accessTokenList: accessTokenListSchema,
  accessTokenDetail: accessTokenDetailSchema,
  submitResponse: submitResponseSchema,
  task: taskSchema,
  cancelResponse: cancelResponseSchema,
  callbackEvent: callbackEventSchema,
  quota: quotaSchema,
  balance: balanceSchema,
  errorBody: platformErrorBodySchema,
} as const;

/**
 * Checks a body the emulator is about to send against core's schema of that resource and returns
 * it unchanged. The emulator is the project's reference platform: if it ever drifts from what
 * clients parse, it fails loudly (500) instead of teaching clients a wrong shape.
 */
export function checked<T>(kind: keyof typeof SCHEMAS, body: T): T {
  const result = SCHEMAS[kind].safeParse(body);
  if (!result.success)
    throw new Error(
      `emulator bug: ${kind} body does not match core's schema: ${result.error.message}`,
    );
  return body;
}
