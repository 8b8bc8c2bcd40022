import { afterEach, describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { systemLookup, type HostLookup } from "../../src/remote/address-guard.js";
import { HttpClient, HttpError } from "../../src/remote/http.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Every test runs over fetch and again over node:http(s) under an address guard that allows
// loopback by name: the guarded path answers as fetch does.
const MODES = [
  ["over fetch", {}],
  ["under an address guard", { addressGuard: { privateHosts: ["127.0.0.1"], lookup: systemLookup } }],
] as const;

describe.each(MODES)("HttpClient %s", (_mode, connect) => {
  function client(overrides: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
    return new HttpClient({
      name: "test",
      timeoutMs: 2_000,
      retries: 2,
      concurrency: 4,
      maxTotalBytes: 1_000_000,
      backoffMs: 5,
      ...connect,
      ...overrides,
    });
  }

  it("retries a 500 and a 503 and returns the answer that follows", async () => {
    server = await startFixtureServer({
      "/doc": (_request, count) => (count < 3 ? { status: count === 1 ? 500 : 503 } : { body: "ok" }),
    });
    const response = await client().get(`${server.url}/doc`, { maxBytes: 100 });
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(response.body)).toBe("ok");
    expect(server.requests.map((r) => r.status)).toEqual([500, 503, 200]);
  });

  it("gives up after its retries and returns the last 5xx", async () => {
    server = await startFixtureServer({ "/doc": { status: 502 } });
    const response = await client({ retries: 1 }).get(`${server.url}/doc`, { maxBytes: 100 });
    expect(response.status).toBe(502);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 404 or a 403", async () => {
    server = await startFixtureServer({ "/forbidden": { status: 403 } });
    expect((await client().get(`${server.url}/missing`, { maxBytes: 100 })).status).toBe(404);
    expect((await client().get(`${server.url}/forbidden`, { maxBytes: 100 })).status).toBe(403);
    expect(server.requests).toHaveLength(2);
  });

  it("times out a slow answer, retries it, then fails naming the wait", async () => {
    server = await startFixtureServer({ "/slow": { body: "late", delayMs: 1_000 } });
    const error = await client({ timeoutMs: 100, retries: 1 })
      .get(`${server.url}/slow`, { maxBytes: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toMatch(/no answer within 100 ms/);
    expect(server.requests).toHaveLength(2);
  });

  it("refuses a body cut short, after retrying it", async () => {
    server = await startFixtureServer({ "/cut": { body: "x".repeat(1000), truncateTo: 10 } });
    const error = await client({ retries: 1 })
      .get(`${server.url}/cut`, { maxBytes: 10_000 })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/cut short/);
    expect(server.requests).toHaveLength(2);
  });

  it("refuses an answer over maxBytes without retrying, whether declared or streamed", async () => {
    server = await startFixtureServer({ "/big": { body: "x".repeat(5000) } });
    const error = await client()
      .get(`${server.url}/big`, { maxBytes: 100 })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/5000 bytes, over the 100 allowed/);
    expect(server.requests).toHaveLength(1);
  });

  it("stops a source past its total download budget until the budget is reset", async () => {
    server = await startFixtureServer({ "/part": { body: "x".repeat(600) } });
    const http = client({ maxTotalBytes: 1000 });
    await http.get(`${server.url}/part`, { maxBytes: 10_000 });
    await expect(http.get(`${server.url}/part`, { maxBytes: 10_000 })).rejects.toThrow(/maxTotalBytes \(1000\)/);
    http.resetBudget();
    await expect(http.get(`${server.url}/part`, { maxBytes: 10_000 })).resolves.toMatchObject({ status: 200 });
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    server = await startFixtureServer({ "/slow": { body: "x", delayMs: 50 } });
    const http = client({ concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, () => http.get(`${server!.url}/slow`, { maxBytes: 10 })));
    expect(server.requests).toHaveLength(8);
    expect(server.inFlight.max).toBe(2);
  });

  it("waits as long as Retry-After says on a 429", async () => {
    server = await startFixtureServer({
      "/limited": (_r, count) => (count === 1 ? { status: 429, headers: { "retry-after": "0" } } : { body: "ok" }),
    });
    const response = await client().get(`${server.url}/limited`, { maxBytes: 10 });
    expect(response.status).toBe(200);
  });

  it("fails at once when the server cannot be reached, naming the cause but never the query string", async () => {
    server = await startFixtureServer();
    const url = `${server.url}/doc?token=secret`;
    await server.close();
    server = undefined;
    const error = await client({ retries: 0 })
      .get(url, { maxBytes: 10 })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect((error as Error).message).not.toMatch(/secret/);
  });
});

describe("HttpClient with a home origin", () => {
  const homed = (home: string, headerHosts: string[] = []) =>
    new HttpClient({
      name: "test",
      timeoutMs: 2_000,
      retries: 0,
      concurrency: 4,
      maxTotalBytes: 1_000_000,
      headers: { authorization: "Bearer K" },
      home,
      headerHosts,
    });

  it("refuses a loopback URL a public home's document names, before any request", async () => {
    server = await startFixtureServer({ "/artifact": { body: "secret" } });
    const error = await homed("https://catalog.example/index.json")
      .get(`${server.url}/artifact`, { maxBytes: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toContain("named by https://catalog.example, a private or loopback address");
    expect(server.requests).toEqual([]);
  });

  it("sends the configured headers to the home origin and headerHosts alone", async () => {
    server = await startFixtureServer({ "/doc": { body: "ok" } });
    const { host, port } = new URL(server.url);
    await homed(`http://127.0.0.1:${port}/index.json`).get(`${server.url}/doc`, { maxBytes: 100 });
    await homed(`http://localhost:${port}/index.json`).get(`${server.url}/doc`, { maxBytes: 100 });
    await homed(`http://localhost:${port}/index.json`, [host]).get(`${server.url}/doc`, { maxBytes: 100 });
    // A named host over http gets nothing from an https home.
    await homed("https://127.0.0.1/index.json", [host])
      .get(`${server.url}/doc`, { maxBytes: 100 })
      .catch(() => {});
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer K",
      undefined,
      "Bearer K",
      undefined,
    ]);
  });
});

describe("HttpClient under an address guard", () => {
  const guarded = (lookup: HostLookup, privateHosts: string[] = []) =>
    new HttpClient({
      name: "test",
      timeoutMs: 2_000,
      retries: 2,
      concurrency: 4,
      maxTotalBytes: 1_000_000,
      backoffMs: 5,
      addressGuard: { privateHosts, lookup },
    });

  it("refuses a name that resolves to loopback as it connects, sends nothing and does not retry", async () => {
    server = await startFixtureServer({ "/doc": { body: "secret" } });
    const asked: string[] = [];
    const http = guarded(async (hostname) => {
      asked.push(hostname);
      return ["127.0.0.1"];
    });
    const error = await http
      .get(`http://inside.invalid:${new URL(server.url).port}/doc`, { maxBytes: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).retryable).toBe(false);
    expect((error as Error).message).toContain(
      "inside.invalid resolves to 127.0.0.1, which is a loopback, link-local or private address",
    );
    expect(asked).toEqual(["inside.invalid"]);
    expect(server.requests).toEqual([]);
  });

  it("refuses an address in the URL without asking the resolver", async () => {
    server = await startFixtureServer({ "/doc": { body: "secret" } });
    const error = await guarded(async () => ["203.0.113.7"])
      .get(`${server.url}/doc`, { maxBytes: 100 })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain("127.0.0.1 is a loopback");
    expect(server.requests).toEqual([]);
  });

  it("resolves and checks the name again for each connection, a redirect's included", async () => {
    server = await startFixtureServer({
      "/old": { status: 302, headers: { location: "/new" } },
      "/new": { body: "moved" },
    });
    const asked: string[] = [];
    const http = guarded(
      async (hostname) => {
        asked.push(hostname);
        return ["127.0.0.1"];
      },
      ["allowed.invalid"],
    );
    const response = await http.get(`http://allowed.invalid:${new URL(server.url).port}/old`, { maxBytes: 100 });
    expect(new TextDecoder().decode(response.body)).toBe("moved");
    expect(asked).toEqual(["allowed.invalid", "allowed.invalid"]);
  });

  it("undoes a gzip encoding as fetch does", async () => {
    server = await startFixtureServer({
      "/doc": { body: gzipSync("zipped"), headers: { "content-encoding": "gzip" } },
    });
    const response = await guarded(async () => ["127.0.0.1"], ["zipped.invalid"]).get(
      `http://zipped.invalid:${new URL(server.url).port}/doc`,
      { maxBytes: 100 },
    );
    expect(new TextDecoder().decode(response.body)).toBe("zipped");
  });
});
