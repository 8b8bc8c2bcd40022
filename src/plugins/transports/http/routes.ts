import { defineToken } from "../../../kernel/tokens.js";
import type { HttpOptions } from "./options.js";
import type { Caller } from "./auth/gate.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";

/** Who sent a request to a route, and the catalog as they may see it. */
export interface RouteCaller extends Caller {
  /** The skill catalog as this caller may see it: hidden sources are not in it. */
  readonly catalog: CatalogView;
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
  handle(request: Request, path: string, caller: RouteCaller): Promise<Response>;
}

/** What the http plugin offers other plugins and the embedding API. */
export const HTTP_TOKENS = {
  /** Multi-registration: each HTTP route a plugin contributes. */
  Route: defineToken<HttpRoute>("http-route"),
  /** The http plugin's validated options, so an embedded handler serves as the config says. */
  Options: defineToken<HttpOptions>("http-options"),
} as const;
