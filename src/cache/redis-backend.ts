import KeyvRedis, { createClient } from "@keyv/redis";
import type { BackendConnection, BackendEvents, CacheBackend, KeyListing } from "./backend.js";
import type { RedisLocation } from "./redis-url.js";

/** Reconnect quickly after a blip, then once a second at most while Redis stays down. */
const MAX_RECONNECT_DELAY_MS = 1_000;

export interface RedisBackendOptions {
  readonly location: RedisLocation;
  /** How long one connection attempt may take. */
  readonly connectTimeoutMs: number;
}

/**
 * @keyv/redis as the store, on a node-redis client this module owns, so that the cache never waits
 * on Redis: commands fail at once while the connection is down (no offline queue piling up
 * requests), and the client reconnects in the background forever, with a capped backoff.
 */
export function createRedisBackend(
  options: RedisBackendOptions,
): CacheBackend & { connect(): Promise<void>; send(command: readonly string[]): Promise<unknown> } {
  const client = createClient({
    url: options.location.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs,
      reconnectStrategy: (attempt: number) => Math.min(50 * 2 ** attempt, MAX_RECONNECT_DELAY_MS),
    },
  });
  const store = new KeyvRedis(client, { throwOnConnectError: false, throwOnErrors: true });
  const listeners: BackendEvents[] = [];
  let connection: BackendConnection = "reconnecting";
  let closed = false;

  client.on("ready", () => {
    connection = "connected";
    for (const l of listeners) l.ready();
  });
  // node-redis reports each failed (re)connection as an "error"; without a listener it would
  // be an unhandled error event.
  client.on("error", (error: unknown) => {
    connection = "reconnecting";
    if (!closed) for (const l of listeners) l.failed(error);
  });
  client.on("end", () => {
    connection = "reconnecting";
  });

  return {
    kind: "redis",
    persistent: true,
    target: options.location.display,
    store,
    connection: () => connection,
    subscribe(events) {
      listeners.push(events);
    },
    /** One raw command, for figures that are not cache entries (usage counts). */
    send: (command) => client.sendCommand([...command]),
    /** Starts connecting; resolves once connected, which may be never. */
    connect: () => client.connect().then(() => undefined),
    async listKeys(prefix: string, limit: number): Promise<KeyListing> {
      const keys: string[] = [];
      for await (const batch of client.scanIterator({ MATCH: `${escapeGlob(prefix)}*`, COUNT: 1000 })) {
        for (const key of batch) {
          if (keys.length === limit) return { keys, complete: false };
          keys.push(String(key));
        }
      }
      return { keys, complete: true };
    },
    async close() {
      closed = true;
      // QUIT lets replies in flight arrive; a client that is not connected has nothing to wait for.
      if (client.isReady) await client.close().catch(() => client.destroy());
      else if (client.isOpen) client.destroy();
    },
  };
}

/** SCAN's MATCH is a glob: the prefix's own `*?[]\` must match literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}
