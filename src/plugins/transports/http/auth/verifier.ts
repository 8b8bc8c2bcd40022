import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
import {
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type CryptoKey,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
} from "jose";
import type { Identity } from "../../../../kernel/types.js";
import { identityOf, scopesOf } from "./identity.js";
import { ACCEPTED_ALGORITHMS, type OAuthOptions } from "./options.js";

/** How long the issuer's discovery document and keys may take to arrive. */
const FETCH_TIMEOUT_MS = 10_000;

/** The issuer could not be asked (down, or its discovery document is wrong): no token can be checked. */
export class IssuerUnavailableError extends Error {}

/** What a verified token gives besides the SDK's AuthInfo. */
export interface VerifiedCaller {
  readonly authInfo: AuthInfo;
  readonly identity: Identity;
}

/**
 * Checks JWT access tokens against the issuer's keys, found through its discovery document (OpenID
 * Connect, else RFC 8414) on first use: signature, `iss`, `aud`, `exp`, `nbf`, asymmetric
 * algorithms only. jose keeps the keys and fetches them again for an unknown `kid` (a rotation),
 * at most once per `jwksCooldownMs`. The identity rides in `authInfo.extra.identity`, which the
 * SDK's verifier interface has room for.
 */
export function createJwtVerifier(options: OAuthOptions): OAuthTokenVerifier {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const keySet = () =>
    (keys ??= discoverJwks(options.issuer).then((jwksUri) =>
      createRemoteJWKSet(jwksUri, { cooldownDuration: options.jwksCooldownMs, timeoutDuration: FETCH_TIMEOUT_MS }),
    )).catch((error: unknown) => {
      // Asked again at the next token: an issuer down at boot must not need a restart.
      keys = undefined;
      throw error;
    });
  const verifyOptions: JWTVerifyOptions = {
    issuer: options.issuer,
    audience: options.audience,
    algorithms: [...ACCEPTED_ALGORITHMS],
    requiredClaims: ["exp", "sub"],
    clockTolerance: options.clockToleranceSec,
  };
  return {
    async verifyAccessToken(token) {
      const jwks = await keySet();
      let payload: JWTPayload;
      try {
        payload = await verifyWithKeySet(token, jwks, verifyOptions);
      } catch (error) {
        // Keys that could not be fetched (no answer, not 200, not JSON, not a key set) say
        // nothing of the token: the issuer is unavailable.
        if (
          error instanceof errors.JWKSTimeout ||
          error instanceof errors.JWKSInvalid ||
          !(error instanceof errors.JOSEError) ||
          error.code === errors.JOSEError.code
        ) {
          throw new IssuerUnavailableError(`the issuer's keys could not be fetched: ${(error as Error).message}`);
        }
        throw new OAuthError(OAuthErrorCode.InvalidToken, reasonOf(error));
      }
      const problem = claimProblem(payload, options.clockToleranceSec);
      if (problem) throw new OAuthError(OAuthErrorCode.InvalidToken, problem);
      const identity = identityOf(payload, options.claims);
      const clientId =
        typeof payload.client_id === "string"
          ? payload.client_id
          : typeof payload.azp === "string"
            ? payload.azp
            : identity.subject;
      // The SDK compares expiresAt with its clock without leeway: the documented leeway is added
      // here, so that it holds for exp as it does for nbf.
      return {
        token,
        clientId,
        scopes: scopesOf(payload),
        expiresAt: payload.exp! + options.clockToleranceSec,
        extra: { identity },
      };
    },
  };
}

/**
 * jose's check against the issuer's key set. A token without a `kid` that several keys could
 * verify is tried with each, as jose's documentation does it (JWKSMultipleMatchingKeys).
 */
async function verifyWithKeySet(token: string, jwks: JWTVerifyGetKey, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, jwks, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const key of error as errors.JWKSMultipleMatchingKeys & AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (tried) {
        if (!(tried instanceof errors.JWSSignatureVerificationFailed)) throw tried;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

/** What jose leaves to the caller: `sub` a non-empty string (RFC 9068 §2.2), `iat` not in the future. */
function claimProblem(payload: JWTPayload, toleranceSec: number): string | undefined {
  if (typeof payload.sub !== "string" || payload.sub.trim() === "")
    return 'the token\'s "sub" claim is not accepted (it must be a non-empty string)';
  if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + toleranceSec)
    return 'the token\'s "iat" claim is not accepted (issued in the future)';
  return undefined;
}

/** The identity a verifier put in an AuthInfo, if it is one of ours. */
export function identityIn(authInfo: AuthInfo | undefined): Identity | undefined {
  return authInfo?.extra?.identity as Identity | undefined;
}

/** Why a token was refused, in words a client may read (never the token, never a key). */
function reasonOf(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the token's "${error.claim}" claim is not accepted (${error.reason})`;
  if (error instanceof errors.JOSEAlgNotAllowed)
    return "the token's algorithm is not accepted (asymmetric signatures only)";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JWKSNoMatchingKey) return "no key of the issuer matches the token";
  return "the token is not a valid JWT access token";
}

/** The issuer's `jwks_uri`, from its metadata. */
async function discoverJwks(issuer: string): Promise<URL> {
  const { document, url } = await readIssuerMetadata(issuer);
  const jwksUri = document.jwks_uri;
  if (typeof jwksUri !== "string" || !URL.canParse(jwksUri))
    throw new IssuerUnavailableError(`${url} names no jwks_uri`);
  return new URL(jwksUri);
}

/**
 * The issuer's metadata: its OpenID Connect discovery document, else its RFC 8414 one, and where
 * it was read. A document naming another issuer is refused (RFC 8414 §3.3).
 */
export async function readIssuerMetadata(issuer: string): Promise<{ document: Record<string, unknown>; url: string }> {
  const base = issuer.replace(/\/+$/, "");
  const failures: string[] = [];
  for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
    const url = `${base}${path}`;
    let document: unknown;
    try {
      const response = await fetch(url, {
        redirect: "error",
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        headers: { accept: "application/json" },
      });
      if (!response.ok) {
        failures.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      document = await response.json();
    } catch (error) {
      failures.push(`${url}: ${(error as Error).message}`);
      continue;
    }
    const found = (typeof document === "object" && document !== null ? document : {}) as Record<string, unknown>;
    if (typeof found.issuer !== "string" || found.issuer.replace(/\/+$/, "") !== base) {
      throw new IssuerUnavailableError(`${url} names issuer ${JSON.stringify(found.issuer)}, not ${issuer}`);
    }
    return { document: found, url };
  }
  throw new IssuerUnavailableError(`the issuer's discovery document could not be read (${failures.join("; ")})`);
}
