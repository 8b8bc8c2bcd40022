import { z } from "zod";
import { ConfigError } from "../../../kernel/errors.js";
import { oauthOptionsSchema } from "./auth/options.js";

/** The environment variable the auth token comes from when neither the config nor a flag sets it. */
export const AUTH_TOKEN_ENV = "SKILLS_KERNEL_AUTH_TOKEN";

/** The scope a caller needs for tools that write on the server, unless `writeTools.scope` names another. */
export const WRITE_SCOPE = "skills:write";

/** A shorter token is guessable; refuse it rather than serve behind it. */
export const MIN_TOKEN_LENGTH = 16;

/** A replica id goes into session ids and a balancer's routing rules: nothing there needs escaping. */
export const REPLICA_ID = { pattern: /^[A-Za-z0-9_-]{1,32}$/, rule: "1 to 32 letters, digits, - or _" } as const;

/**
 * The http plugin's options, checked and with defaults applied (config `plugins: [["http", {...}]]`;
 * the CLI's `--host`, `--port`, `--stateless` and `--auth-token` override them): what
 * `TOKENS.HttpOptions` holds and createHttpHandler's overrides change. Every limit has a default,
 * so a server nobody tuned still bounds what a client can make it hold.
 */
export interface HttpOptions {
  /** The address to listen on. Loopback by default: nothing off this machine can reach it. */
  readonly host: string;
  /** The port; 0 picks a free one (the server logs where it listens). */
  readonly port: number;
  /** Where MCP is served. */
  readonly path: string;
  /** No sessions: every request stands alone, so any replica behind a load balancer can answer it. */
  readonly stateless: boolean;
  /**
   * A bearer token every request but the health checks must carry. Default: the
   * SKILLS_KERNEL_AUTH_TOKEN environment variable, else none.
   */
  readonly authToken?: string;
  /**
   * Sign-in: every request carries a JWT access token from this issuer (docs/security.md#sign-in);
   * the caller's identity decides which sources it sees. Not with authToken.
   */
  readonly oauth?: {
    /** The authorization server's issuer URL; its discovery document names its JWKS. */
    readonly issuer: string;
    /** What the tokens' `aud` must hold: this server's resource identifier, as the issuer writes it. */
    readonly audience: string;
    /** Scopes every token must hold; a token without one gets 403 insufficient_scope. */
    readonly requiredScopes: readonly string[];
    /** Token claims kept in the caller's identity, for `visibleTo` rules and plugins. */
    readonly claims: readonly string[];
    /**
     * This server's public MCP URL, as clients reach it (behind a proxy): the metadata's `resource`.
     * Default: the URL each request names.
     */
    readonly resource?: string;
    /**
     * How soon an unknown `kid` may make the server fetch the issuer's keys again: a rotation is
     * picked up at the next token after this long, and forged `kid`s cannot hammer the issuer.
     */
    readonly jwksCooldownMs: number;
    /** Leeway for `exp` and `nbf` between this server's clock and the issuer's, in seconds. */
    readonly clockToleranceSec: number;
  };
  /**
   * Serve tools that may write on this server (install_skill, add_skill: any tool not marked
   * `readOnlyHint: true`) to callers holding `scope`: with oauth, a token whose scopes name it;
   * with authToken, whoever holds the token (it is the operator's). Unset: HTTP callers never
   * see them. Needs authToken or oauth.
   */
  readonly writeTools?: { readonly scope: string };
  /**
   * Host names (without port) requests may name in Host and Origin: DNS-rebinding protection.
   * Default: the loopback names, plus the bound address when it is a specific one. A server bound
   * to every interface (0.0.0.0, ::) checks nothing unless this is set.
   */
  readonly allowedHosts?: readonly string[];
  /** Origins (scheme://host[:port]) browsers may call from besides those of the allowed hosts. */
  readonly allowedOrigins?: readonly string[];
  /**
   * Put at the front of every session id this server mints (`r1.<uuid>`), so a load balancer in
   * front of stateful replicas can send each session to the replica that holds it.
   */
  readonly replicaId?: string;
  /** Largest request body accepted, in bytes; a larger one gets 413. */
  readonly maxBodyBytes: number;
  /** How long a request body may take to arrive in full; a slower one is cut with 408. */
  readonly bodyTimeoutMs: number;
  /** JSON-RPC messages in one batch (2025-11-25 only; 2026-07-28 has no batches of requests). */
  readonly maxBatchSize: number;
  /** Bytes of all the answers to one HTTP request; an answer past it is replaced by an error. */
  readonly maxAnswerBytes: number;
  /** Sessions open at once; an initialize beyond that gets 503. */
  readonly maxSessions: number;
  /** Sessions open at once from one client address, so one client cannot take them all. */
  readonly maxSessionsPerClient: number;
  /** A session with no request in flight and no open stream for this long is closed. */
  readonly sessionIdleMs: number;
  /** MCP requests answered at once over every client; those past it wait their turn. */
  readonly maxWorkInFlight: number;
  /**
   * MCP requests answered at once for one client (its OAuth subject, else its address); its
   * others wait their turn, so a greedy client slows itself rather than everyone.
   */
  readonly maxWorkPerClient: number;
  /** MCP requests of one client waiting their turn; one more is refused with 429. */
  readonly maxWorkQueuedPerClient: number;
  /**
   * While other clients are being served, the share of the time one client's requests may be
   * worked on: past it, its next request waits, so a client whose requests keep the event loop
   * busy leaves it free for the others most of the time. 1 turns it off.
   */
  readonly maxWorkShare: number;
  /** How long shutdown waits for requests in flight before closing what is left. */
  readonly shutdownGraceMs: number;
}

/** Checks the http plugin's options (HttpOptions) and applies their defaults. */
export const httpOptionsSchema = z
  .object({
    host: z.string().min(1).default("127.0.0.1"),
    port: z.number().int().min(0).max(65_535).default(3000),
    path: z
      .string()
      .regex(/^\/[^?#]*$/, "path must start with / and hold no query")
      .default("/mcp"),
    stateless: z.boolean().default(false),
    authToken: z
      .string()
      .min(MIN_TOKEN_LENGTH, `the auth token must be at least ${MIN_TOKEN_LENGTH} characters`)
      .optional(),
    oauth: oauthOptionsSchema.optional(),
    writeTools: z.strictObject({ scope: z.string().min(1).default(WRITE_SCOPE) }).optional(),
    allowedHosts: z.array(z.string().min(1)).optional(),
    allowedOrigins: z.array(z.string().min(1)).optional(),
    replicaId: z.string().regex(REPLICA_ID.pattern, `replicaId must be ${REPLICA_ID.rule}`).optional(),
    maxBodyBytes: z
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    bodyTimeoutMs: z.number().int().positive().default(30_000),
    maxBatchSize: z.number().int().positive().max(100).default(20),
    maxAnswerBytes: z
      .number()
      .int()
      .positive()
      .default(16 * 1024 * 1024),
    maxSessions: z.number().int().positive().default(1000),
    maxSessionsPerClient: z.number().int().positive().default(100),
    sessionIdleMs: z
      .number()
      .int()
      .positive()
      .default(30 * 60 * 1000),
    maxWorkInFlight: z.number().int().positive().default(32),
    maxWorkPerClient: z.number().int().positive().default(2),
    maxWorkQueuedPerClient: z.number().int().nonnegative().default(32),
    maxWorkShare: z
      .number()
      .gt(0)
      .max(1)
      .default(1 / 3),
    shutdownGraceMs: z.number().int().positive().default(3000),
  })
  .strict()
  .refine((options) => options.authToken === undefined || options.oauth === undefined, {
    message: "authToken and oauth do not go together: a shared token names no caller; use one of them",
  }) satisfies z.ZodType<HttpOptions>;

/** Refuses tools that write on the server to callers nobody checked; a token may come from the environment, so this runs once it is known. */
export function checkWriteTools(options: Pick<HttpOptions, "writeTools" | "authToken" | "oauth">): void {
  if (options.writeTools !== undefined && options.authToken === undefined && options.oauth === undefined) {
    throw new ConfigError(
      `http: writeTools needs authToken (or ${AUTH_TOKEN_ENV}) or oauth: without them every caller could write on this server`,
    );
  }
}

/** True for an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** True for an address that means every interface. */
export function isWildcard(host: string): boolean {
  return ["0.0.0.0", "::", "[::]"].includes(host);
}
