import type { Caller } from "./auth/gate.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";

/** Who sent a request to a route, and the catalog as they may see it. */
export interface RouteCaller extends Caller {
  /** The skill catalog as this caller may see it: hidden sources are not in it. */
  readonly catalog: CatalogView;
}

/** A request as far as its head goes: method, URL and headers. A web Request is one. */
export interface RequestHead {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The absolute URL, as a Request's. */
  readonly url: string;
  /** Its headers, read as a Request's are. */
  readonly headers: Pick<Headers, "get" | "has">;
}

/**
 * A request as a route gets it; a web Request is one. Node's listener hands a GET or HEAD over as
 * node:http parsed it, and builds a web Request only if the route reads the body.
 */
export interface RouteRequest extends RequestHead {
  /** Aborted when the client goes away before its answer is sent. */
  readonly signal: AbortSignal;
  /** The body as text, read as a Request's is (a GET or HEAD has none). */
  text(): Promise<string>;
  /** The body parsed as JSON, as a Request's `json()`. */
  json(): Promise<unknown>;
  /** The body's bytes, as a Request's `arrayBuffer()`. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * An HTTP endpoint a plugin adds beside MCP (the REST API). The http plugin sends it every request
 * whose path starts with `prefix`, after DNS-rebinding protection and auth.
 */
export interface HttpRoute {
  /** Path prefix this route answers, e.g. "/v1". */
  readonly prefix: string;
  /**
   * Answer one request; `path` is the request's path below the mount point (starts with the
   * prefix); `caller` is who sent it, with `catalog`, what they may see.
   */
  handle(request: RouteRequest, path: string, caller: RouteCaller): Promise<Response>;
  /**
   * For pages a browser opens, which cannot send an Authorization header: with auth configured, a
   * request for this route without that header comes here instead of being refused. It names the
   * caller its own session holds (a cookie), or answers the request itself (a sign-in page, a
   * redirect, a refusal). MCP and routes without it accept the bearer header alone.
   */
  signIn?(request: Request, path: string, gate: SignInGate): Promise<Caller | Response>;
}

/** A token checked as a bearer token would be: its caller, or why it is refused (401, 403, or 503 when the issuer cannot be asked). */
export type TokenVerdict = { readonly caller: Caller } | { readonly status: number; readonly refused: string };

/** The server's auth, as a route with `signIn` sees it: the mode, and the same token check MCP makes. */
export type SignInGate = {
  /** Check a token a browser handed over (typed in, or got from the issuer) exactly as the bearer check would. */
  check(token: string): Promise<TokenVerdict>;
} & (
  | { readonly mode: "token" }
  | {
      readonly mode: "oauth";
      /** The authorization server's issuer URL. */
      readonly issuer: string;
      /** Scopes every token must hold. */
      readonly requiredScopes: readonly string[];
      /** What the tokens' `aud` must hold (a resource indicator to ask the issuer for). */
      readonly audience: string;
    }
);
