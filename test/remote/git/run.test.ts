import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "../../../src/remote/git/run.js";
import { pinRemote } from "../../../src/remote/git/pin.js";

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
    response
      .writeHead(302, { location: `http://127.0.0.1:${internal}/admin.git${request.url?.slice("/repo.git".length)}` })
      .end();
  });
  return { url: `http://127.0.0.1:${front}/repo.git`, internalHits };
}

describe("runGit redirects", () => {
  it("follows a redirect on the first request by default (git's own rule)", async () => {
    const { url, internalHits } = await redirectingRemote();
    await expect(runGit(["ls-remote", "--", url], { timeoutMs: 20_000, protocols: ["http"] })).rejects.toThrow(
      /git ls-remote failed/,
    );
    expect(internalHits.length).toBeGreaterThan(0);
  });

  it("with followRedirects false, fails on the redirect and never reaches its target", async () => {
    const { url, internalHits } = await redirectingRemote();
    await expect(
      runGit(["ls-remote", "--", url], { timeoutMs: 20_000, protocols: ["http"], followRedirects: false }),
    ).rejects.toThrow(/returned error: 302 \(the remote redirects, which is not followed here\)/);
    expect(internalHits).toEqual([]);
  });
});

describe("runGit pinned to a checked address", () => {
  const guard = (answer: string, privateHosts: string[] = []) => ({ privateHosts, lookup: async () => [answer] });

  it("connects to the pinned address for the URL's host, which git never resolves (.invalid does not)", async () => {
    const hosts: string[] = [];
    const port = await listen((request, response) => {
      hosts.push(request.headers.host ?? "");
      response.writeHead(404).end();
    });
    const url = `http://skills.invalid:${port}/repo.git`;
    const pin = await pinRemote(url, guard("127.0.0.1", ["skills.invalid"]));
    expect(pin).toEqual({ host: "skills.invalid", port, address: "127.0.0.1", transport: "http" });
    await expect(runGit(["ls-remote", "--", url], { timeoutMs: 20_000, protocols: ["http"], pin })).rejects.toThrow(
      /git ls-remote failed/,
    );
    expect(hosts.length).toBeGreaterThan(0);
    expect(new Set(hosts)).toEqual(new Set([`skills.invalid:${port}`]));
  });

  it("refuses to pin a host that resolves to a private address unless privateHosts names it", async () => {
    await expect(pinRemote("https://skills.invalid/repo.git", guard("10.0.0.8"))).rejects.toThrow(
      /skills.invalid resolves to 10\.0\.0\.8, which is a loopback, link-local or private address/,
    );
    await expect(pinRemote("git@skills.invalid:acme/repo.git", guard("::1"))).rejects.toThrow(/resolves to ::1/);
    await expect(pinRemote("ssh://192.168.1.4/repo.git", guard("203.0.113.7"))).rejects.toThrow(
      /192\.168\.1\.4 is a loopback/,
    );
    await expect(pinRemote("git://skills.invalid/repo.git", guard("203.0.113.7"))).rejects.toThrow(/cannot be pinned/);
  });

  it("gives ssh the checked address as HostName and the name as HostKeyAlias", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sk-git-pin-"));
    const script = join(dir, "ssh");
    await writeFile(script, `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(dir, "args")}"\nexit 1\n`);
    await chmod(script, 0o755);
    const saved = process.env.GIT_SSH_COMMAND;
    process.env.GIT_SSH_COMMAND = script;
    try {
      const url = "git@skills.invalid:acme/repo.git";
      const pin = await pinRemote(url, guard("203.0.113.7"));
      await expect(runGit(["ls-remote", "--", url], { timeoutMs: 20_000, protocols: ["ssh"], pin })).rejects.toThrow(
        /git ls-remote failed/,
      );
      const args = (await readFile(join(dir, "args"), "utf8")).split("\n");
      expect(args).toEqual(
        expect.arrayContaining(["-o", "HostName=203.0.113.7", "HostKeyAlias=skills.invalid", "git@skills.invalid"]),
      );
    } finally {
      if (saved === undefined) delete process.env.GIT_SSH_COMMAND;
      else process.env.GIT_SSH_COMMAND = saved;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
