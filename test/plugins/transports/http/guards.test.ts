import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SkillsKernel } from "../../../../src/create-kernel.js";
import type { HttpApp } from "../../../../src/plugins/transports/http/app.js";
import { defaultAllowedHosts } from "../../../../src/plugins/transports/http/guard.js";
import { appOf, bootExamples, INITIALIZE, MCP_HEADERS } from "./in-process.js";

/** An initialize as a browser would send it: its Host and Origin as given. */
function initialize(app: HttpApp, headers: Record<string, string>): Promise<Response> {
  return app.fetch(
    new Request("http://127.0.0.1:3000/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, ...headers },
      body: JSON.stringify(INITIALIZE),
    }),
  );
}

async function refusal(response: Response): Promise<[number, string]> {
  const body = (await response.json()) as { error: { message: string } };
  return [response.status, body.error.message];
}

describe("the default allowed hosts", () => {
  it("are the loopback names, plus a specific bound address, and nothing checked on every interface", () => {
    expect(defaultAllowedHosts("127.0.0.1")).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    expect(defaultAllowedHosts("::1")).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    expect(defaultAllowedHosts("192.168.1.5")).toEqual(["localhost", "127.0.0.1", "[::1]", "192.168.1.5"]);
    expect(defaultAllowedHosts("0.0.0.0")).toBeUndefined();
    expect(defaultAllowedHosts("0.0.0.0", ["Skills.Example.com", "::1"])).toEqual(["skills.example.com", "[::1]"]);
  });
});

describe("Host and Origin checks (DNS rebinding), in process", () => {
  let kernel: SkillsKernel;
  let app: HttpApp | undefined;
  beforeAll(async () => {
    kernel = await bootExamples();
  });
  afterEach(async () => {
    await app?.close(100);
    app = undefined;
  });
  afterAll(async () => {
    await kernel?.close();
  });

  it("answers a loopback name with the bound port, in Host and Origin", async () => {
    app = appOf(kernel);
    for (const host of ["127.0.0.1:3000", "localhost:3000", "[::1]:3000", "LOCALHOST:3000"]) {
      const response = await initialize(app, { host, origin: `http://${host}` });
      expect(response.status, host).toBe(200);
      await response.body?.cancel();
    }
  });

  it("refuses a Host naming another machine, as a rebound name does, with 403 and no session", async () => {
    app = appOf(kernel);
    const response = await initialize(app, { host: "evil.example:3000" });
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await refusal(response)).toEqual([403, "Invalid Host: evil.example"]);
    expect(await refusal(await initialize(app, { host: "localhost.evil.example:3000" }))).toEqual([
      403,
      "Invalid Host: localhost.evil.example",
    ]);
  });

  it("refuses a loopback name with another port while bound to loopback; one with none is a local proxy's", async () => {
    app = appOf(kernel);
    expect(await refusal(await initialize(app, { host: "localhost:8080" }))).toEqual([
      403,
      "Invalid Host: localhost:8080 does not name this server's port 3000 (DNS-rebinding protection; allowedHosts lists other names to serve)",
    ]);
    const proxied = await initialize(app, { host: "127.0.0.1" });
    expect(proxied.status).toBe(200);
    await proxied.body?.cancel();
  });

  it("refuses a browser page of another origin, a loopback one on another port too, unless allowedOrigins lists it", async () => {
    app = appOf(kernel);
    expect(await refusal(await initialize(app, { origin: "http://evil.example" }))).toEqual([
      403,
      "Invalid Origin: evil.example",
    ]);
    expect(await refusal(await initialize(app, { origin: "http://localhost:5173" }))).toEqual([
      403,
      "Invalid Origin: http://localhost:5173 is not this server's own origin (allowedOrigins lists the pages that may call it)",
    ]);
    expect((await initialize(app, { origin: "null" })).status).toBe(403);
    await app.close(100);
    app = appOf(kernel, { allowedOrigins: ["http://localhost:5173/"] });
    const listed = await initialize(app, { origin: "http://localhost:5173" });
    expect(listed.status).toBe(200);
    await listed.body?.cancel();
  });

  it("answers the names allowedHosts lists, on any port, and no longer the loopback ones", async () => {
    app = appOf(kernel, { allowedHosts: ["skills.example.com"] });
    const named = await initialize(app, { host: "skills.example.com", origin: "https://skills.example.com" });
    expect(named.status).toBe(200);
    await named.body?.cancel();
    expect(await refusal(await initialize(app, { host: "127.0.0.1:3000" }))).toEqual([403, "Invalid Host: 127.0.0.1"]);
  });

  it("checks the REST API and the catalog page too, and leaves the health checks open", async () => {
    app = appOf(kernel);
    const at = (path: string) =>
      app!.fetch(new Request(`http://127.0.0.1:3000${path}`, { headers: { host: "evil.example:3000" } }));
    const rest = await at("/v1/skills");
    expect(rest.status).toBe(403);
    expect(await rest.json()).toEqual({ error: { status: 403, message: "Invalid Host: evil.example" } });
    expect((await at("/")).status).toBe(403);
    expect((await at("/healthz")).status).toBe(200);
    expect((await at("/readyz")).status).toBe(200);
  });
});
