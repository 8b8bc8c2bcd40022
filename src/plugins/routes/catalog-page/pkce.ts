import * as oauth from "oauth4webapi";

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
export async function authorizationUrl(request: AuthorizationRequest): Promise<URL> {
  const url = new URL(request.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", request.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  if (request.scopes.length > 0) url.searchParams.set("scope", request.scopes.join(" "));
  url.searchParams.set("state", request.state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(request.verifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (request.resource !== undefined) url.searchParams.set("resource", request.resource);
  return url;
}

/** Why the issuer's answer is refused, and with which status, in words the page may show. */
export interface AnswerRefused {
  readonly status: 400 | 401;
  readonly refused: string;
}

/**
 * The issuer's answer on the way back, checked by oauth4webapi: its `state` is the one kept, an
 * `iss` it names is the issuer's own (RFC 9207, required when the metadata says it is sent), and
 * it holds no error but a code. What passes is what the code exchange takes.
 */
export function checkAnswer(
  issuer: oauth.AuthorizationServer,
  clientId: string,
  answer: URLSearchParams,
  state: string,
): URLSearchParams | AnswerRefused {
  let checked: URLSearchParams;
  try {
    checked = oauth.validateAuthResponse(issuer, { client_id: clientId }, answer, state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      return {
        status: 401,
        refused: `The issuer did not sign you in: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}.`,
      };
    }
    if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
      return { status: 400, refused: `The answer is not for the sign-in this browser started (${error.message}).` };
    }
    throw error;
  }
  // The exchange would refuse it too, as the token endpoint's fault: it is the answer's.
  if (!checked.get("code")) return { status: 400, refused: "The issuer's answer holds no code." };
  return checked;
}
