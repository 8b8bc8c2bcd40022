import { createServer, request as nodeRequest, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { HttpApp } from "../../../../src/plugins/transports/http/app.js";
import { toNodeHandler } from "../../../../src/plugins/transports/http/listen.js";
import type { HttpRoute, RouteRequest } from "../../../../src/plugins/transports/http/routes.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";
import { appOf } from "./in-process.js";

// Node's listener hands GET and HEAD to a route without building a web Request (the discovery
// archives): the host guard, auth, the caller's view and the work bounds still
// decide first, as they do for a Request.

let kernel: SkillsKernel | undefined;
let app: HttpApp | undefined;
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await app?.close(100);
  await kernel?.close();
  server = app = kernel = undefined;
});

/** Serves `served` on node:http as `serve --transport http` does; the URL, bound where the app thinks it is. */
async function listen(make: (port: number) => HttpApp): Promise<string> {
  server = createServer();
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  app = make(port);
  const handler = toNodeHandler(app.fetchHeld, 1024);
  server.on("request", (request, response) => void handler(request, response));
  return `http://127.0.0.1:${port}`;
}

/** The status node:http is answered for GET `path` with exactly these headers (fetch cannot set Host, nor repeat one). */
function statusOf(port: number, path: string, headers: OutgoingHttpHeaders | string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    nodeRequest({ port, host: "127.0.0.1", path, headers }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    })
      .on("error", reject)
      .end();
  });
}

/** A kernel with a public skill and one a visibleTo source keeps for the platform group. */
async function bootWithHidden(): Promise<SkillsKernel> {
  const open = await tempDir();
  await writeSkillFile(open, "open", skillMd("open"));
  const team = await tempDir();
  await writeSkillFile(team, "secret", skillMd("secret"));
  await writeSkillFile(team, "secret", "notes", "notes.txt");
  return createKernel({
    config: {
      plugins: [
        [
          "fs",
          {
            roots: [
              { path: open, source: "open" },
              { path: team, source: "team", visibleTo: { claims: { groups: ["platform"] } } },
            ],
            watch: false,
          },
        ],
        "well-known",
      ],
    },
    logger: createLogger("silent"),
  });
}

describe("node:http GET and HEAD answered from the request's head", () => {
  it("serves the discovery site of the caller's view: a hidden skill stays hidden", async () => {
    kernel = await bootWithHidden();
    const url = await listen((port) => appOf(kernel!, { port }));
    const index = await fetch(`${url}/.well-known/agent-skills/index.json`);
    expect(index.status).toBe(200);
    const names = ((await index.json()) as { skills: { name: string }[] }).skills.map((entry) => entry.name);
    expect(names).toEqual(["open"]);
    expect((await fetch(`${url}/.well-known/agent-skills/open/SKILL.md`)).status).toBe(200);
    expect((await fetch(`${url}/.well-known/agent-skills/secret.tar.gz`)).status).toBe(404);
    expect((await fetch(`${url}/.well-known/agent-skills/secret.tar.gz`, { method: "HEAD" })).status).toBe(404);
  });

  it("refuses a caller without the token, and a Host that is not the server's", async () => {
    kernel = await bootWithHidden();
    const token = "a-token-of-sixteen-or-more";
    const url = await listen((port) => appOf(kernel!, { port, authToken: token }));
    const path = `${url}/.well-known/agent-skills/open/SKILL.md`;
    expect((await fetch(path)).status).toBe(401);
    expect((await fetch(path, { headers: { authorization: "Bearer not-the-token-at-all" } })).status).toBe(401);
    expect((await fetch(path, { method: "HEAD" })).status).toBe(401);
    const allowed = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe(skillMd("open"));
    // A rebinding page's name.
    const { port } = server!.address() as AddressInfo;
    const rebound = await statusOf(port, "/.well-known/agent-skills/open/SKILL.md", { host: "evil.example" });
    expect(rebound).toBe(403);
  });

  it("holds the work bounds: a client past its line is refused, one gone while waiting is not worked on", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handle = vi.fn(async (_request: RouteRequest, path: string) => {
      if (path.startsWith("/slow/held")) await held;
      return new Response("answered", { status: 200 });
    });
    const route: HttpRoute = { prefix: "/slow", handle };
    kernel = await bootWithHidden();
    const url = await listen((port) =>
      appOf(kernel!, { port, routes: [route], maxWorkPerClient: 1, maxWorkQueuedPerClient: 1 }),
    );
    // Its place, and (a connection's first request being light) one more; the third waits in
    // line, then its client goes away; a fourth finds the line full.
    const first = [fetch(`${url}/slow/held-1`), fetch(`${url}/slow/held-2`)];
    await vi.waitFor(() => expect(handle).toHaveBeenCalledTimes(2));
    const leaving = new AbortController();
    const third = fetch(`${url}/slow/third`, { signal: leaving.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${url}/slow/fourth`)).status).toBe(429);
    leaving.abort();
    await third;
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    for (const answer of await Promise.all(first)) expect(await answer.text()).toBe("answered");
    expect((await fetch(`${url}/slow/fifth`)).status).toBe(200);
    expect(handle.mock.calls.map(([, path]) => path).sort()).toEqual(["/slow/fifth", "/slow/held-1", "/slow/held-2"]);
    // Answered from node's parsed head: no web Request was built for them.
    expect(handle.mock.calls.filter(([request]) => request instanceof Request)).toEqual([]);
  });

  it("reads the headers as the web Request would have them", async () => {
    const seen: unknown[] = [];
    const route: HttpRoute = {
      prefix: "/echo",
      async handle(request) {
        seen.push(request.headers.get("x-twice"), request.headers.has("X-Twice"), request.headers.get("x-none"));
        // A route may read the body of any request: a GET's is empty.
        seen.push(await request.text());
        return new Response("ok", { status: 200 });
      },
    };
    kernel = await bootWithHidden();
    const url = await listen((port) => appOf(kernel!, { port, routes: [route] }));
    const { port } = new URL(url);
    const status = await statusOf(Number(port), "/echo", [
      ...["host", `127.0.0.1:${port}`],
      ...["x-twice", "a"],
      ...["x-twice", "b  "],
    ]);
    expect(status).toBe(200);
    expect(seen).toEqual(["a, b", true, null, ""]);
  });

  it("names the URL and headers the web Request built from it would, whatever the Host", async () => {
    const seen: { head: unknown; whole: unknown }[] = [];
    server = createServer();
    const handler = toNodeHandler(async (request) => {
      const whole = request instanceof Request ? request : await request.toRequest();
      const names = ["host", "x-twice", "accept", "x-none"];
      seen.push({
        head: [request.method, request.url, ...names.map((name) => request.headers.get(name))],
        whole: [whole.method, whole.url, ...names.map((name) => whole.headers.get(name))],
      });
      return new Response(null, { status: 204 });
    }, 1024);
    server.on("request", (request, response) => void handler(request, response));
    await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    for (const headers of [
      ["host", `127.0.0.1:${port}`, "x-twice", "a", "x-twice", "b"],
      ["host", "", "accept", "*/*"],
      ["host", "Example.COM:8080"],
    ])
      expect(await statusOf(port, "/a/../b?q=1", headers)).toBe(204);
    expect(await statusOf(port, "http://proxied.example/c", ["host", "ignored.example"])).toBe(204);
    expect(seen).toHaveLength(4);
    for (const { head, whole } of seen) expect(head).toEqual(whole);
  });
});
