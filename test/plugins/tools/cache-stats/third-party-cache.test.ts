import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import {
  createKernel,
  createLogger,
  definePlugin,
  TOKENS,
  type Cache,
  type CacheMonitor,
  type JsonValue,
} from "../../../../src/index.js";

/** A cache written against the public API alone, as a third-party package would be. */
const mapCache = definePlugin({
  name: "cache-map",
  provides: [TOKENS.Cache, TOKENS.CacheMonitor],
  setup(ctx) {
    const entries = new Map<string, JsonValue>();
    let hits = 0;
    let misses = 0;
    const view = (namespace: string): Cache => ({
      namespace,
      async get<T extends JsonValue>(key: string) {
        const value = entries.get(`${namespace}:${key}`);
        if (value === undefined) misses++;
        else hits++;
        return value as T | undefined;
      },
      async set(key, value) {
        entries.set(`${namespace}:${key}`, value);
      },
      async delete(key) {
        entries.delete(`${namespace}:${key}`);
      },
      scope: (name) => view(`${namespace}/${name}`),
    });
    const monitor: CacheMonitor = {
      persistent: false,
      state: "connected",
      counts: () => ({ hits, misses, errors: 0, bypassed: 0 }),
      async stats() {
        return {
          backend: "map",
          target: "a Map",
          state: "connected",
          hits,
          misses,
          hitRatio: hits + misses === 0 ? null : hits / (hits + misses),
          errors: 0,
          bypassed: 0,
          entries: { all: entries.size },
          entriesComplete: true,
          lastError: null,
          uptimeMs: 1500,
        };
      },
    };
    ctx.provideScoped(TOKENS.Cache, ({ name }) => view(name));
    ctx.provide(TOKENS.CacheMonitor, monitor);
  },
});

it("feeds get_cache_stats from a third-party cache through TOKENS.CacheMonitor", async () => {
  const kernel = await createKernel({ config: { plugins: [mapCache, "cache-stats"] }, logger: createLogger("silent") });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer().connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  const result = await client.callTool({ name: "get_cache_stats", arguments: {} });
  expect(result.structuredContent).toMatchObject({
    backend: "map",
    target: "a Map",
    state: "connected",
    entries: { all: 0 },
    uptime_seconds: 1.5,
  });
  expect(kernel.plugins).not.toContain("cache-memory");
  await client.close();
  await kernel.close();
});
