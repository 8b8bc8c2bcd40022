import { readIssuerMetadata } from "../http/index.js";

/** How long the issuer's token endpoint may take to answer. */
const TOKEN_TIMEOUT_MS = 10_000;

export interface IssuerEndpoints {
  readonly authorization: string;
  readonly token: string;
}

/** Why a sign-in with the issuer could not finish, in words the page may show. */
export class SignInError extends Error {}

/**
 * The issuer's authorization and token endpoints, from the metadata the http plugin's sign-in
 * reads too; asked once, and again after a failure, so an issuer down at start needs no restart.
 */
export function issuerEndpoints(issuer: string): () => Promise<IssuerEndpoints> {
  let found: Promise<IssuerEndpoints> | undefined;
  return () =>
    (found ??= readIssuerMetadata(issuer).then(({ document, url }) => {
      const { authorization_endpoint: authorization, token_endpoint: token } = document;
      if (typeof authorization !== "string" || !URL.canParse(authorization)) throw new SignInError(`${url} names no authorization_endpoint`);
      if (typeof token !== "string" || !URL.canParse(token)) throw new SignInError(`${url} names no token_endpoint`);
      return { authorization, token };
    })).catch((error: unknown) => {
      found = undefined;
      throw error instanceof SignInError ? error : new SignInError((error as Error).message);
    });
}

export interface CodeExchange {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly code: string;
  readonly verifier: string;
  readonly redirectUri: string;
}

/** The access token the issuer gives for an authorization code (a public client: PKCE, no secret). */
export async function exchangeCode(exchange: CodeExchange): Promise<string> {
  let response: Response;
  try {
    response = await fetch(exchange.tokenEndpoint, {
      method: "POST",
      redirect: "error",
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: exchange.code,
        redirect_uri: exchange.redirectUri,
        client_id: exchange.clientId,
        code_verifier: exchange.verifier,
      }),
    });
  } catch (error) {
    throw new SignInError(`the issuer's token endpoint could not be reached: ${(error as Error).message}`);
  }
  let answer: Record<string, unknown>;
  try {
    answer = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new SignInError(`the issuer's token endpoint answered HTTP ${response.status}, not JSON`);
  }
  if (!response.ok) {
    const reason = typeof answer.error === "string" ? answer.error : `HTTP ${response.status}`;
    throw new SignInError(`the issuer refused the code: ${reason}${typeof answer.error_description === "string" ? ` (${answer.error_description})` : ""}`);
  }
  if (typeof answer.access_token !== "string" || answer.access_token === "") throw new SignInError("the issuer's answer holds no access_token");
  if (typeof answer.token_type !== "string" || answer.token_type.toLowerCase() !== "bearer") throw new SignInError("the issuer's token is not a bearer token");
  return answer.access_token;
}
