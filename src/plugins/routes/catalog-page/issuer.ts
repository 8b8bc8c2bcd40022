import * as oauth from "oauth4webapi";
import { isLoopback, readIssuerMetadata } from "../../transports/http/index.js";

/** How long the issuer's token endpoint may take to answer. */
const TOKEN_TIMEOUT_MS = 10_000;

/** Why a sign-in with the issuer could not finish, in words the page may show. */
export class SignInError extends Error {}

/** The issuer's metadata with the two endpoints the code flow needs. */
export type IssuerMetadata = oauth.AuthorizationServer & {
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
};

/**
 * The issuer's metadata, as oauth4webapi takes it, from the function the http plugin's JWT
 * verifier reads it with (OpenID Connect, else RFC 8414, its `issuer` checked); asked once, and
 * again after a failure, so an issuer down at start needs no restart.
 */
export function issuerMetadata(issuer: string): () => Promise<IssuerMetadata> {
  let found: Promise<IssuerMetadata> | undefined;
  return () =>
    (found ??= readIssuerMetadata(issuer).then(({ document, url }) => {
      for (const endpoint of ["authorization_endpoint", "token_endpoint"]) {
        const named = document[endpoint];
        if (typeof named !== "string" || !URL.canParse(named)) throw new SignInError(`${url} names no ${endpoint}`);
      }
      return document as unknown as IssuerMetadata;
    })).catch((error: unknown) => {
      found = undefined;
      throw error instanceof SignInError ? error : new SignInError((error as Error).message);
    });
}

/**
 * OpenID Connect RP-Initiated Logout: where to send a browser that signed out of the page so the
 * issuer ends its own session too, and then back to `returnTo` (which the issuer must know for the
 * client). The page keeps no ID token, so no `id_token_hint`: `client_id` names the client instead.
 * Undefined when the issuer names no http(s) `end_session_endpoint`.
 */
export function endSessionUrl(issuer: IssuerMetadata, clientId: string, returnTo: string): URL | undefined {
  const endpoint = issuer.end_session_endpoint;
  if (typeof endpoint !== "string" || !URL.canParse(endpoint)) return undefined;
  const url = new URL(endpoint);
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("post_logout_redirect_uri", returnTo);
  return url;
}

export interface CodeExchange {
  readonly clientId: string;
  /** The issuer's answer, as `validateAuthResponse` passed it. */
  readonly callback: URLSearchParams;
  readonly verifier: string;
  readonly redirectUri: string;
}

/** The access token the issuer gives for an authorization code (a public client: PKCE, no secret). */
export async function exchangeCode(issuer: IssuerMetadata, exchange: CodeExchange): Promise<string> {
  const client: oauth.Client = { client_id: exchange.clientId };
  let answer: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      issuer,
      client,
      oauth.None(),
      exchange.callback,
      exchange.redirectUri,
      exchange.verifier,
      {
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
        // Plain http only to this machine (a local issuer, the tests): the code never crosses a network.
        [oauth.allowInsecureRequests]: isLoopbackHttp(issuer.token_endpoint),
      },
    );
    answer = await oauth.processAuthorizationCodeResponse(issuer, client, response);
  } catch (error) {
    // oauth4webapi's own argument checks: a fault here, not the issuer's.
    if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_INVALID_ARG"))
      throw error;
    throw new SignInError(reasonOf(error));
  }
  // oauth4webapi takes DPoP-bound tokens too; the bearer check takes bearer tokens only.
  if (answer.token_type !== "bearer") throw new SignInError("the issuer's token is not a bearer token");
  return answer.access_token;
}

function isLoopbackHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "http:" && isLoopback(hostname);
}

/** Why the code exchange failed, in words the page may show (oauth4webapi's, or fetch's). */
function reasonOf(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) {
    return `the issuer refused the code: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`;
  }
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return `the issuer's token answer is not accepted: ${error.message}`;
  }
  return `the issuer's token endpoint could not be reached: ${(error as Error).message}`;
}
