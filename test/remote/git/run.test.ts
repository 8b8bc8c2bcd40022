import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runGit } from "../../../src/remote/git/run.js";

// A git smart-HTTP remote on loopback that redirects info/refs to another loopback port: what a
// host that passed add_skill's address check could answer to steer git at an internal service.
const servers: Server[] = [];

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function redirectingRemote(): Promise<{ url: string; internalHits: string[] }> {
  const internalHits: string[] = [];
  const internal = await listen((request, response) => {
    internalHits.push(request.url ?? "");
    response.writeHead(404).end();
  });
  const front = await listen((request, response) => {
    response.writeHead(302, { location: `http://127.0.0.1:${internal}/admin.git${request.url?.slice("/repo.git".length)}` }).end();
  });
  return { url: `http://127.0.0.1:${front}/repo.git`, internalHits };
}

describe("runGit redirects", () => {
  it("follows a redirect on the first request by default (git's own rule)", async () => {
    const { url, internalHits } = await redirectingRemote();
    await expect(runGit(["ls-remote", "--", url], { timeoutMs: 20_000, protocols: ["http"] })).rejects.toThrow(/git ls-remote failed/);
    expect(internalHits.length).toBeGreaterThan(0);
  });

  it("with followRedirects false, fails on the redirect and never reaches its target", async () => {
    const { url, internalHits } = await redirectingRemote();
    await expect(runGit(["ls-remote", "--", url], { timeoutMs: 20_000, protocols: ["http"], followRedirects: false })).rejects.toThrow(
      /returned error: 302 \(the remote redirects, which is not followed here\)/,
    );
    expect(internalHits).toEqual([]);
  });
});
