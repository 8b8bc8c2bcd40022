import { afterEach, describe, expect, it } from "vitest";
import { createMemoryBackend } from "../../src/cache/memory-backend.js";
import { RemoteDocuments } from "../../src/remote/documents.js";
import { HttpClient } from "../../src/remote/http.js";
import { pollEvery } from "../../src/remote/poll.js";
import { engineOver } from "../cache/engine-over.js";
import { manualClock } from "../helpers/clock.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function documents(clock: ReturnType<typeof manualClock>["clock"]) {
  const http = new HttpClient({ name: "test", timeoutMs: 2_000, retries: 0, concurrency: 2, maxTotalBytes: 1e6 });
  const { engine } = engineOver(createMemoryBackend({ maxBytes: 1e6, maxEntries: 100 }));
  return new RemoteDocuments(http, engine.view("docs"), clock);
}

describe("RemoteDocuments on its clock", () => {
  it("answers from the cache within the TTL, then revalidates with If-None-Match", async () => {
    server = await startFixtureServer({ "/index.json": { body: "v1", etag: '"1"' } });
    const time = manualClock();
    const docs = documents(time.clock);
    const url = `${server.url}/index.json`;
    const read = async () => new TextDecoder().decode((await docs.revalidated(url, 60_000, { maxBytes: 100 })).body);
    expect(await read()).toBe("v1");
    time.tick(59_999);
    expect(await read()).toBe("v1");
    expect(server.requests).toHaveLength(1);
    time.tick(1);
    expect(await read()).toBe("v1");
    expect(server.requests.map((request) => [request.headers["if-none-match"], request.status])).toEqual([
      [undefined, 200],
      ['"1"', 304],
    ]);
    // The 304 starts the TTL again.
    time.tick(30_000);
    expect(await read()).toBe("v1");
    expect(server.requests).toHaveLength(2);
  });

  it("does not trust a cached copy dated in the future", async () => {
    server = await startFixtureServer({ "/index.json": { body: "v1" } });
    const later = manualClock(Date.now() + 3_600_000);
    const url = `${server.url}/index.json`;
    const http = new HttpClient({ name: "test", timeoutMs: 2_000, retries: 0, concurrency: 2, maxTotalBytes: 1e6 });
    const { engine } = engineOver(createMemoryBackend({ maxBytes: 1e6, maxEntries: 100 }));
    await new RemoteDocuments(http, engine.view("docs"), later.clock).revalidated(url, 60_000, { maxBytes: 100 });
    // Read now, an hour earlier than the entry says it was fetched: asked for again.
    await new RemoteDocuments(http, engine.view("docs"), manualClock().clock).revalidated(url, 60_000, {
      maxBytes: 100,
    });
    expect(server.requests).toHaveLength(2);
  });
});

describe("pollEvery on its clock", () => {
  it("calls back once per TTL until stopped", () => {
    const time = manualClock();
    let calls = 0;
    const stop = pollEvery(60_000, time.clock)!(() => calls++);
    time.tick(59_999);
    expect(calls).toBe(0);
    time.tick(120_001);
    expect(calls).toBe(3);
    stop();
    time.tick(600_000);
    expect(calls).toBe(3);
    expect(time.pending()).toBe(0);
  });

  it("does not poll what never expires, or expires at once", () => {
    expect(pollEvery(undefined)).toBeUndefined();
    expect(pollEvery(0)).toBeUndefined();
  });
});
