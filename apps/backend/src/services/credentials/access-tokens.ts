import { isPlatformError } from "@overture/core/errors";
import type { AccessTokenMeta } from "@overture/core/schemas";
import { ApiError } from "../../lib/errors.ts";
import { platformUnavailable } from "./errors.ts";
import type { GrantService } from "./grants.ts";
import { NAMESPACE_NOT_FOUND } from "../../schemas/error-codes.ts";
import type { PlatformClient } from "@overture/core/client";

export interface AccessTokenDeps {
  platform: PlatformClient;
}

/**
 * The user's access tokens in a namespace, as the platform lists them (spec 4.4): meta only,
 * never a token value. Read live on every call; the list is small and changes in the console.
 */
export function createAccessTokenCatalog(deps: AccessTokenDeps, grants: GrantService) {
  return {
    async list(userId: number, namespace: string): Promise<AccessTokenMeta[]> {
      try {
        return await grants.withAccessToken(userId, (accessToken) =>
          deps.platform.listAccessTokens(accessToken, namespace),
        );
      } catch (error) {
        // The platform answers 404 for an unknown namespace and 403 for one the user is not a
        // member of (the emulator's reading; the spec shows neither): both mean "not yours".
        if (isPlatformError(error, ["PLATFORM_NOT_FOUND", "PLATFORM_FORBIDDEN"])) {
          throw new ApiError(
            404,
            NAMESPACE_NOT_FOUND,
            `Namespace "${namespace}" does not exist or you are not a member of it; use your login or an organization you belong to.`,
          );
        }
        if (
          isPlatformError(error, [
            "PLATFORM_SERVER_ERROR",
            "PLATFORM_NETWORK_ERROR",
            "PLATFORM_RATE_LIMITED",
          ])
        ) {
          throw platformUnavailable(error);
        }
        throw error;
      }
    },
  };
}

export type AccessTokenCatalog = ReturnType<typeof createAccessTokenCatalog>;
