import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
} from "@modelcontextprotocol/server";
import { errorMessage } from "../../../../kernel/errors.js";
import type { Logger } from "../../../../kernel/logger.js";
import type { Identity } from "../../../../kernel/types.js";
import { json } from "../respond.js";
import type { RequestHead, TokenVerdict } from "../routes.js";
import type { OAuthOptions } from "./options.js";
import { createJwtVerifier, identityIn, IssuerUnavailableError } from "./verifier.js";

/** Who sent a request, as far as the server checked: nothing without auth, a token's caller with OAuth. */
export interface Caller {
  /** The verified OAuth access token's details (client, scopes, expiry), as the MCP SDK gives them; absent without OAuth. */
  readonly authInfo?: AuthInfo;
  /** Who the token names (see Identity), for what the caller may see; absent without OAuth. */
  readonly identity?: Identity;
}

const METADATA_PATH = "/.well-known/oauth-protected-resource";

export interface OAuthGate {
  /** The RFC 9728 document, for `/.well-known/oauth-protected-resource[/<mcp path>]`; undefined for any other path. */
  metadata(request: RequestHead, path: string): Response | undefined;
  /** The verified caller, or the 401/403/503 answer with its `WWW-Authenticate` challenge. */
  authenticate(request: RequestHead): Promise<Caller | Response>;
  /** A token a page got for its caller, checked as `authenticate` checks a bearer token. */
  check(token: string, request: RequestHead): Promise<TokenVerdict>;
}

/**
 * The OAuth 2.1 resource server: protected resource metadata naming the issuer, and the SDK's
 * bearer checks (`verifyBearerToken`, `bearerAuthChallengeResponse`) over a JWT verifier. A
 * refusal's message says why (expired, wrong audience...) and never holds the token; neither
 * does the log.
 */
export function createOAuthGate(options: OAuthOptions, mcpPath: string, logger: Logger): OAuthGate {
  const verifier = createJwtVerifier(options);
  const metadataPaths = new Set([METADATA_PATH, `${METADATA_PATH}${mcpPath}`]);
  /** This server's MCP URL as clients know it: configured, else the one the request names (its Host was checked). */
  const resourceOf = (request: RequestHead) => new URL(options.resource ?? new URL(mcpPath, request.url).href);
  const challengeOptions = (request: RequestHead) => ({
    requiredScopes: [...options.requiredScopes],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resourceOf(request)),
  });
  return {
    metadata(request, path) {
      if (!metadataPaths.has(path)) return undefined;
      if (request.method !== "GET" && request.method !== "HEAD")
        return json(405, { error: "method_not_allowed" }, { allow: "GET, HEAD" });
      return json(
        200,
        {
          resource: resourceOf(request).href,
          authorization_servers: [options.issuer],
          bearer_methods_supported: ["header"],
          ...(options.requiredScopes.length > 0 && { scopes_supported: options.requiredScopes }),
          resource_name: "skills-kernel",
        },
        // Echoing the request's Host, the document differs per name: for no shared cache.
        { "cache-control": options.resource ? "public, max-age=3600" : "no-store" },
      );
    },
    async authenticate(request) {
      const challenge = challengeOptions(request);
      try {
        const header = request.headers.get("authorization");
        // RFC 6750 §2.1: the scheme, spaces, one token. The SDK reads the word after the first
        // space and ignores anything after it, so it gets the token alone.
        const bearer = header === null ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header)?.[1];
        if (bearer === undefined)
          throw new OAuthError(OAuthErrorCode.InvalidToken, "the Authorization header is not Bearer and one token");
        const authInfo = await verifyBearerToken(bearer === null ? null : `Bearer ${bearer}`, {
          verifier,
          ...challenge,
        });
        return { authInfo, identity: identityIn(authInfo) };
      } catch (error) {
        if (error instanceof IssuerUnavailableError) {
          logger.warn(`cannot check access tokens: ${error.message}`);
          return json(
            503,
            {
              error: "temporarily_unavailable",
              error_description: "the authorization server cannot be reached; try again later",
            },
            { "retry-after": "5" },
          );
        }
        logger.debug(`refused a token: ${errorMessage(error)}`);
        return bearerAuthChallengeResponse(error, challenge);
      }
    },
    async check(token, request) {
      try {
        if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token))
          throw new OAuthError(OAuthErrorCode.InvalidToken, "the token is not a bearer token");
        const authInfo = await verifyBearerToken(`Bearer ${token}`, { verifier, ...challengeOptions(request) });
        return { caller: { authInfo, identity: identityIn(authInfo) } };
      } catch (error) {
        if (error instanceof IssuerUnavailableError) {
          logger.warn(`cannot check access tokens: ${error.message}`);
          return { status: 503, refused: "the authorization server cannot be reached; try again later" };
        }
        logger.debug(`refused a page's token: ${errorMessage(error)}`);
        const scope = error instanceof OAuthError && error.code === OAuthErrorCode.InsufficientScope;
        return {
          status: scope ? 403 : 401,
          refused: error instanceof OAuthError ? error.message : "the token is not accepted",
        };
      }
    },
  };
}
