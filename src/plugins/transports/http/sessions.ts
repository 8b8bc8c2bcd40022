import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type McpServer } from "@modelcontextprotocol/server";
import { systemClock, unref, type Clock, type ClockTimer } from "../../../kernel/clock.js";
import type { Logger } from "../../../kernel/logger.js";
import type { Caller } from "./auth/gate.js";
import { LimitedTransport } from "./limited-transport.js";
import { jsonRpcError, mcpError, onSettled } from "./respond.js";

/** Builds the McpServer that serves one 2025-11-25 session or request, for the caller that opens it. */
export type LegacyServerFactory = (caller: Caller) => McpServer | Promise<McpServer>;

interface Session {
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** The client address that opened it, whose count it is in. */
  readonly client: string;
  /**
   * Who opened it (OAuth): subject, scopes and kept claims, in one string. Only tokens saying the
   * same reach it, so what it shows always follows the token of the request in hand.
   */
  readonly caller: string;
  /** Requests being answered and event streams open: a session with any is not idle. */
  active: number;
  lastSeen: number;
}

export interface SessionLimits {
  /** Prefix of every session id minted here (see the replicaId option). */
  readonly replicaId?: string;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly idleMs: number;
  readonly maxAnswerBytes: number;
}

/**
 * 2025-11-25 sessions over HTTP: one McpServer and SDK transport per session, found by its
 * Mcp-Session-Id, with a GET stream for what the server announces (list_changed). Bounded in
 * number, in total and per client address, counting only sessions that exist or are being made
 * from a body already read; a session idle for `idleMs` (no request in flight, no open stream) is
 * closed, so clients that vanish without a DELETE never grow memory.
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  /** Sessions open or being made, per client address. */
  readonly #perClient = new Map<string, number>();
  #count = 0;
  readonly #sweeper: ClockTimer;

  constructor(
    private readonly createServer: LegacyServerFactory,
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    this.#sweeper = clock.setInterval(() => this.#sweep(), Math.min(Math.max(limits.idleMs / 4, 50), 60_000));
    // The sweeper alone must never keep a process alive.
    unref(this.#sweeper);
  }

  /** Answer one 2025 request; a POST's body comes parsed (the caller has read and checked it). */
  async handle(request: Request, parsedBody: unknown, client: string, caller: Caller = {}): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id === null) {
      return request.method === "POST"
        ? this.#open(request, parsedBody, client, caller)
        : mcpError(400, "Bad Request: Mcp-Session-Id header is required");
    }
    const session = this.#sessions.get(id);
    // A session answers the caller it was opened for: to anyone else, and to the same subject
    // whose token now holds other groups or scopes, it does not exist, so the client opens a new
    // one, built for what its token says now.
    if (!session || session.caller !== callerKey(caller)) return jsonRpcError(404, -32001, "Session not found");
    session.active++;
    session.lastSeen = this.clock.now();
    try {
      const response = await session.transport.handleRequest(request, { parsedBody, authInfo: caller.authInfo });
      return onSettled(response, () => this.#release(session));
    } catch (error) {
      this.#release(session);
      throw error;
    }
  }

  /** A POST without a session: an initialize request gets a new session, anything else the SDK's refusal. */
  async #open(request: Request, parsedBody: unknown, client: string, caller: Caller): Promise<Response> {
    const full = this.#count >= this.limits.maxSessions;
    // The table full, the longest idle session makes room: sessions opened and left by a few
    // addresses cannot keep every new client out until they time out. A client over its own
    // share is still refused: it has sessions of its own to use.
    if (full && (this.#perClient.get(client) ?? 0) < this.limits.maxSessionsPerClient) this.#reclaimIdle();
    const ofClient = this.#perClient.get(client) ?? 0;
    if (this.#count >= this.limits.maxSessions || ofClient >= this.limits.maxSessionsPerClient) {
      const which =
        this.#count >= this.limits.maxSessions
          ? `the session limit (${this.limits.maxSessions})`
          : `the limit per client (${this.limits.maxSessionsPerClient})`;
      this.logger.warn(`${which} reached; refusing a new session`);
      return mcpError(503, `Too many sessions (${which}); try again later`, { "retry-after": "5" });
    }
    this.#take(client);
    let session: Session | undefined;
    let server: McpServer | undefined;
    try {
      server = await this.createServer(caller);
      const sdkTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () =>
          this.limits.replicaId === undefined ? randomUUID() : `${this.limits.replicaId}.${randomUUID()}`,
        onsessioninitialized: (id) => {
          session = {
            server: server!,
            transport: sdkTransport,
            client,
            caller: callerKey(caller),
            active: 1,
            lastSeen: this.clock.now(),
          };
          this.#sessions.set(id, session);
          this.logger.debug(`session ${id} opened (${this.#sessions.size} open)`);
        },
      });
      const transport = new LimitedTransport(sdkTransport, this.limits.maxAnswerBytes);
      transport.onclose = () => this.#forget(sdkTransport.sessionId);
      await server.connect(transport);
      const response = await sdkTransport.handleRequest(request, { parsedBody, authInfo: caller.authInfo });
      if (!session) {
        // Not an initialize request (or a refused one): nothing to keep.
        this.#give(client);
        await server.close();
        return response;
      }
      const opened = session;
      return onSettled(response, () => this.#release(opened));
    } catch (error) {
      if (!session) this.#give(client);
      await server?.close();
      throw error;
    }
  }

  #release(session: Session): void {
    session.active--;
    session.lastSeen = this.clock.now();
  }

  #take(client: string): void {
    this.#count++;
    this.#perClient.set(client, (this.#perClient.get(client) ?? 0) + 1);
  }

  #give(client: string): void {
    this.#count--;
    const left = (this.#perClient.get(client) ?? 1) - 1;
    if (left === 0) this.#perClient.delete(client);
    else this.#perClient.set(client, left);
  }

  /** Drop a closed session (DELETE, the sweep, shutdown) and its place in the counts, once. */
  #forget(id: string | undefined): void {
    const session = id === undefined ? undefined : this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id!);
    this.#give(session.client);
    this.logger.debug(`session ${id} closed (${this.#sessions.size} open)`);
  }

  /** Closes the session idle longest; none idle: nothing. */
  #reclaimIdle(): void {
    let oldest: [string, Session] | undefined;
    for (const entry of this.#sessions) {
      const [, session] = entry;
      if (session.active > 0) continue;
      if (!oldest || session.lastSeen < oldest[1].lastSeen) oldest = entry;
    }
    if (!oldest) return;
    const [id, session] = oldest;
    this.logger.debug(`session ${id} idle for ${this.clock.now() - session.lastSeen} ms; closing it to make room`);
    this.#forget(id);
    void session.server.close();
  }

  #sweep(): void {
    const now = this.clock.now();
    for (const [id, session] of this.#sessions) {
      if (session.active === 0 && now - session.lastSeen >= this.limits.idleMs) {
        this.logger.debug(`session ${id} idle for ${now - session.lastSeen} ms; closing it`);
        this.#forget(id);
        void session.server.close();
      }
    }
  }

  /** Close every session (their event streams end) and stop the sweeper. */
  async closeAll(): Promise<void> {
    this.clock.clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    for (const id of [...this.#sessions.keys()]) this.#forget(id);
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }
}

/** What decides a caller's view (subject, scopes, kept claims), in one comparable string; "" without sign-in. */
function callerKey({ identity }: Caller): string {
  if (!identity) return "";
  const claims = Object.entries(identity.claims)
    .map(([name, value]) => [name, typeof value === "string" ? value : [...value].sort()] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([identity.subject, [...identity.scopes].sort(), claims]);
}
