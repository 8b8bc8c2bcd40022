import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A PKCE code verifier (RFC 7636 §4.1): 32 random bytes, base64url, 43 characters. */
export function newCodeVerifier(): string {
  return randomBytes(32).toString("base64url");
}

/** The S256 code challenge of a verifier (RFC 7636 §4.2): base64url(SHA-256(verifier)). */
export function codeChallengeOf(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** The `state` that ties the issuer's answer to the sign-in this browser started. */
export function newState(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether the state the issuer sent back is the one kept, in constant time; a missing one never matches. */
export function stateMatches(kept: string, returned: string | null): boolean {
  if (returned === null || returned === "") return false;
  const a = createHash("sha256").update(kept).digest();
  const b = createHash("sha256").update(returned).digest();
  return timingSafeEqual(a, b);
}

export interface AuthorizationRequest {
  readonly authorizationEndpoint: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  readonly state: string;
  readonly verifier: string;
  /** RFC 8707: the resource the token is for, when the audience is a URL. */
  readonly resource?: string;
}

/** The issuer's authorization URL for the code flow with PKCE (S256). */
export function authorizationUrl(request: AuthorizationRequest): URL {
  const url = new URL(request.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", request.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  if (request.scopes.length > 0) url.searchParams.set("scope", request.scopes.join(" "));
  url.searchParams.set("state", request.state);
  url.searchParams.set("code_challenge", codeChallengeOf(request.verifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (request.resource !== undefined) url.searchParams.set("resource", request.resource);
  return url;
}
