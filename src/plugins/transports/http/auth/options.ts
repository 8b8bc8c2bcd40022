import { z } from "zod";
import type { HttpOptions } from "../options.js";

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
  issuer: z.url({ protocol: /^https?$/, error: "oauth.issuer must be an http(s) URL" }),
  audience: z.string().min(1),
  requiredScopes: z.array(z.string().min(1)).default([]),
  claims: z.array(z.string().min(1)).default(["groups"]),
  resource: z.url({ protocol: /^https?$/ }).optional(),
  jwksCooldownMs: z.number().int().min(0).default(30_000),
  clockToleranceSec: z.number().int().min(0).max(300).default(30),
}) satisfies z.ZodType<OAuthOptions>;

/** The http plugin's `oauth` options, checked and with defaults applied. */
export type OAuthOptions = NonNullable<HttpOptions["oauth"]>;
