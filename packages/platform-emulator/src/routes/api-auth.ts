import type { EmulatorContext } from "../context.ts";
import type { ConsoleTokenRecord } from "../state/types.ts";

/**
 * Task endpoints take `Bearer <API_TOKEN>` (spec 5 rule 5): a console access token's raw value,
 * or a live proxy token minted from one (spec 5 rule 4). Both resolve to the console token, whose
 * namespace is the account the task belongs to.
 */
export async function authenticateApiToken(
  ctx: EmulatorContext,
  token: string | undefined,
): Promise<ConsoleTokenRecord | undefined> {
  if (!token) return undefined;
  const raw = ctx.state.consoleTokenByValue(token);
  if (raw) return raw;
  return token.split(".").length === 3 ? ctx.proxy.verify(token) : undefined;
}
