import { z } from "zod";

/** Asymmetric JWS algorithms only: `none` and HMAC (whose key would be the public one) never verify. */
export const ACCEPTED_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;

/**
 * OAuth 2.1 resource server (`--oauth-issuer`, `--oauth-audience`): every request but the health
 * checks and the protected resource metadata carries a JWT access token from `issuer`.
 */
export const oauthOptionsSchema = z.strictObject({
  /** The authorization server's issuer URL; its discovery document names its JWKS. */
  issuer: z.url({ protocol: /^https?$/, error: "oauth.issuer must be an http(s) URL" }),
  /** What the tokens' `aud` must hold: this server's resource identifier, as the issuer writes it. */
  audience: z.string().min(1),
  /** Scopes every token must hold; a token without one gets 403 insufficient_scope. */
  requiredScopes: z.array(z.string().min(1)).default([]),
  /** Token claims kept in the caller's identity, for `visibleTo` rules and plugins. */
  claims: z.array(z.string().min(1)).default(["groups"]),
  /**
   * This server's public MCP URL, as clients reach it (behind a proxy): the metadata's `resource`.
   * Default: the URL each request names.
   */
  resource: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * How soon an unknown `kid` may make the server fetch the issuer's keys again: a rotation is
   * picked up at the next token after this long, and forged `kid`s cannot hammer the issuer.
   */
  jwksCooldownMs: z.number().int().min(0).default(30_000),
  /** Leeway for `exp` and `nbf` between this server's clock and the issuer's, in seconds. */
  clockToleranceSec: z.number().int().min(0).max(300).default(30),
});

export type OAuthOptions = z.output<typeof oauthOptionsSchema>;
