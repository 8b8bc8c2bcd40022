import type { McpServer } from "@modelcontextprotocol/server";

/** Builds a server whose extensions stay in place until `lifetime` aborts, however often it closes. */
export type ReusableServerFactory = (lifetime: AbortSignal) => McpServer | Promise<McpServer>;

interface Entry {
  readonly server: McpServer;
  readonly lifetime: AbortController;
  readonly edition: string;
}

/**
 * The servers of 2026-07-28 requests, reused. `createMcpHandler` wants an instance per request
 * that is not serving another, and the SDK's Server connects again once closed: so an instance
 * comes back here when its exchange closes and serves a later request, instead of each request
 * building every tool, prompt, resource and the Skills extension anew. When a server built now
 * would differ (another `edition`: the catalog summary in the instructions, the caching hint),
 * the idle ones are dropped and new ones built.
 */
export class ServerPool {
  readonly #idle: Entry[] = [];
  /** Servers out on a request; weak, so one whose exchange never closes is not kept alive here. */
  readonly #busy = new WeakMap<McpServer, Entry>();
  #edition: string | undefined;
  #closed = false;

  constructor(
    private readonly build: ReusableServerFactory,
    private readonly edition: () => string,
    /** Idle servers kept; past it, a returning server is let go. */
    private readonly maxIdle: number,
  ) {}

  async acquire(): Promise<McpServer> {
    const edition = this.edition();
    if (edition !== this.#edition) {
      this.#edition = edition;
      this.#dropIdle();
    }
    const entry = this.#idle.pop() ?? (await this.#make(edition));
    this.#busy.set(entry.server, entry);
    return entry.server;
  }

  /** Let every idle server go; those out on a request are let go as they return. */
  close(): void {
    this.#closed = true;
    this.#dropIdle();
  }

  async #make(edition: string): Promise<Entry> {
    const lifetime = new AbortController();
    const server = await this.build(lifetime.signal);
    const entry = { server, lifetime, edition };
    const onclose = server.server.onclose;
    server.server.onclose = () => {
      onclose?.();
      this.#release(entry);
    };
    // The handler closes an instance it never connected (subscriptions/listen, a refusal before
    // dispatch): no onclose comes then, so close itself gives it back.
    const close = server.close.bind(server);
    server.close = async () => {
      const connected = server.isConnected();
      await close();
      if (!connected) this.#release(entry);
    };
    return entry;
  }

  #release(entry: Entry): void {
    if (!this.#busy.delete(entry.server)) return;
    if (!this.#closed && entry.edition === this.#edition && this.#idle.length < this.maxIdle) this.#idle.push(entry);
    else entry.lifetime.abort();
  }

  #dropIdle(): void {
    for (const entry of this.#idle.splice(0)) entry.lifetime.abort();
  }
}
