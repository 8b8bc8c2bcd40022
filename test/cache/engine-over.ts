import { CacheEngine, type CacheEngineOptions } from "../../src/cache/engine.js";
import { createLogger } from "../../src/kernel/logger.js";

/** A cache engine over `backend` with short deadlines, and the log lines it writes. */
export function engineOver(backend: CacheEngineOptions["backend"], overrides: Partial<CacheEngineOptions> = {}) {
  const logs: string[] = [];
  const engine = new CacheEngine({
    backend,
    logger: createLogger("debug", (line) => logs.push(line)),
    prefix: "test",
    defaultTtlMs: 60_000,
    operationTimeoutMs: 300,
    failureThreshold: 3,
    retryAfterMs: 200,
    maxEntryBytes: 10_000,
    ...overrides,
  });
  return { engine, logs };
}
