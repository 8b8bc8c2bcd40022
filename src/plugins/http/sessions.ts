import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type McpServer } from "@modelcontextprotocol/server";
import type { Logger } from "../../kernel/logger.js";
import type { McpServerFactory } from "../../kernel/types.js";
import { jsonRpcError, mcpError, onSettled, TextAnswer, type Answer } from "./respond.js";

interface Session {
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Requests being answered and event streams open: a session with any is not idle. */
  active: number;
  lastSeen: number;
}

export interface SessionLimits {
  /** Prefix of every session id minted here (see the replicaId option). */
  readonly replicaId?: string;
  readonly maxSessions: number;
  readonly idleMs: number;
  readonly maxBodyBytes: number;
}

/**
 * Stateful MCP over HTTP: one McpServer and SDK transport per session, found by its
 * Mcp-Session-Id. Bounded in number; a session idle for `idleMs` (no request in flight, no open
 * stream) is closed, so clients that vanish without a DELETE never grow memory.
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  /** Initializations under way, counted against the limit before they have an id. */
  #opening = 0;
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly createServer: McpServerFactory,
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
  ) {
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(Math.max(limits.idleMs / 4, 50), 60_000));
    // The sweeper alone must never keep a process alive.
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  async handle(request: Request): Promise<Answer> {
    const id = request.headers.get("mcp-session-id");
    if (id === null) return request.method === "POST" ? this.#open(request) : mcpError(400, "Bad Request: Mcp-Session-Id header is required");
    const session = this.#sessions.get(id);
    if (!session) return mcpError(404, "Session not found");
    return this.#serve(session, request);
  }

  /** A POST without a session: an initialize request gets a new session, anything else the SDK's refusal. */
  async #open(request: Request): Promise<Answer> {
    if (this.#sessions.size + this.#opening >= this.limits.maxSessions) {
      this.logger.warn(`session limit (${this.limits.maxSessions}) reached; refusing a new session`);
      return mcpError(503, "Too many sessions; try again later", { "retry-after": "5" });
    }
    this.#opening++;
    try {
      const body = await readJson(request);
      return body instanceof TextAnswer ? body : await this.#initialize(body.request, body.options);
    } finally {
      this.#opening--;
    }
  }

  async #initialize(request: Request, options: { parsedBody: unknown } | undefined): Promise<Answer> {
    const server = this.createServer();
    let session: Session | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => (this.limits.replicaId === undefined ? randomUUID() : `${this.limits.replicaId}.${randomUUID()}`),
      maxRequestBodySize: this.limits.maxBodyBytes,
      onsessioninitialized: (id) => {
        session = { server, transport, active: 0, lastSeen: Date.now() };
        this.#sessions.set(id, session);
        this.logger.debug(`session ${id} opened (${this.#sessions.size} open)`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined && this.#sessions.delete(transport.sessionId)) {
        this.logger.debug(`session ${transport.sessionId} closed (${this.#sessions.size} open)`);
      }
    };
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, options);
      if (!session) {
        // Not an initialize request (or a refused one): nothing to keep.
        await server.close();
        return response;
      }
      session.active++;
      return onSettled(response, () => this.#release(session!));
    } catch (error) {
      await server.close();
      throw error;
    }
  }

  async #serve(session: Session, request: Request): Promise<Answer> {
    session.active++;
    session.lastSeen = Date.now();
    try {
      const body = await readJson(request);
      const response = body instanceof TextAnswer ? body : await session.transport.handleRequest(body.request, body.options);
      return onSettled(response, () => this.#release(session));
    } catch (error) {
      this.#release(session);
      throw error;
    }
  }

  #release(session: Session): void {
    session.active--;
    session.lastSeen = Date.now();
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (session.active === 0 && now - session.lastSeen >= this.limits.idleMs) {
        this.logger.debug(`session ${id} idle for ${now - session.lastSeen} ms; closing it`);
        this.#sessions.delete(id);
        void session.server.close();
      }
    }
  }

  /** Close every session (their event streams end) and stop the sweeper. */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }
}

/**
 * A POST's body for the SDK's transport. The transport reads a body through the request's web
 * stream, which on node:http makes the adapter build a whole web Request around it (a tenth of a
 * session request's CPU); read here as text, without a stream when its length is declared (and
 * already checked against the limit), it reaches the transport parsed, its `parsedBody` option.
 * A body that is not JSON goes to the transport as it came, in a fresh Request, so that its checks
 * (Accept, Content-Type) answer first, as they would have.
 */
async function readJson(request: Request): Promise<{ request: Request; options?: { parsedBody: unknown } } | TextAnswer> {
  if (request.method !== "POST" || request.headers.get("content-length") === null) return { request };
  let text: string;
  try {
    text = await request.text();
  } catch {
    return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
  }
  try {
    return { request, options: { parsedBody: JSON.parse(text) } };
  } catch {
    return { request: new Request(request.url, { method: "POST", headers: request.headers, body: text }) };
  }
}
