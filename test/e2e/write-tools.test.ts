import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, type Runtime } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { connectHttp, resultText, type Revision } from "../helpers/http-client.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

/**
 * Tools that write on the server (install_skill, add_skill) over HTTP, through the bundle: off
 * unless the config sets `writeTools`, then only for a caller holding its scope (a static token's
 * holder, or an OAuth token naming `skills:write`), and add_skill never fetches from loopback or
 * private addresses for such a caller unless install-skill's `privateHosts` names the host.
 */
const TOKEN = "write-tools-test-token-0123456789";
const AUDIENCE = "https://skills.example.com/mcp";
const WRITE_TOOLS = ["add_skill", "install_skill"];
// They write nothing, but read the server account's lock files and run git against what they name.
const OPERATOR_TOOLS = ["check_outdated_skills", "list_installed_skills"];
const PRIVATE_REPO = "https://git.internal.example/secret-team/skills.git";

let base: string;
let home: string;
let catalog: FixtureServer;
let idp: OAuth2Server;
const servers: HttpServerProcess[] = [];

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\n---\n\n# ${name}\n\n${body}\n`;

async function project(name: string, config?: unknown): Promise<string> {
  const dir = join(base, name);
  await mkdir(join(dir, ".git"), { recursive: true });
  await mkdir(join(dir, ".claude", "skills", "notes"), { recursive: true });
  await writeFile(join(dir, ".claude", "skills", "notes", "SKILL.md"), skill("notes", "Project notes."));
  if (config !== undefined) await writeFile(join(dir, "skills.config.json"), JSON.stringify(config));
  const lock = { version: 1, skills: { notes: { source: PRIVATE_REPO, sourceType: "git", computedHash: "h" } } };
  await writeFile(join(dir, "skills-lock.json"), JSON.stringify(lock));
  return dir;
}

async function serve(dir: string, args: string[] = [], runtime: Runtime = "node"): Promise<HttpServerProcess> {
  const config = existsSync(join(dir, "skills.config.json")) ? ["--config", join(dir, "skills.config.json")] : [];
  const server = await startHttpServer([...config, ...args], {
    cwd: dir,
    runtime,
    env: { HOME: home, SKILLS_KERNEL_AUTH_TOKEN: "" },
  });
  servers.push(server);
  return server;
}

async function toolNames(server: HttpServerProcess, token: string | undefined, revision: Revision): Promise<string[]> {
  const { client, transport } = await connectHttp(server.mcpUrl, { token, revision });
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await transport.close();
  }
}

/** A tool call's text, whether the server answers with a tool error or a protocol error. */
async function callText(
  server: HttpServerProcess,
  token: string | undefined,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string }> {
  const { client, transport } = await connectHttp(server.mcpUrl, { token });
  try {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, text: resultText(result) };
  } catch (error) {
    return { isError: true, text: (error as Error).message };
  } finally {
    await transport.close();
  }
}

const bearer = (scope: string) =>
  idp.issuer.buildToken({
    scopesOrTransform: (_header, payload) => Object.assign(payload, { sub: "ada", aud: AUDIENCE, scope }),
  });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-write-tools-"));
  home = join(base, "home");
  await mkdir(home, { recursive: true });
  catalog = await startFixtureServer({
    "/.well-known/skills/index.json": {
      body: JSON.stringify({ skills: [{ name: "site-help", description: "Help for the site.", files: ["SKILL.md"] }] }),
    },
    "/.well-known/skills/site-help/SKILL.md": { body: skill("site-help", "Help for the site.") },
  });
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(0, "127.0.0.1");
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await catalog?.close();
  await idp?.stop();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("write tools over HTTP", () => {
  it("the embedded default config serves no tool that writes on the server, in either revision", async () => {
    const server = await serve(await project("default"), ["--auth-token", TOKEN]);
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      const names = await toolNames(server, TOKEN, revision);
      expect(names).toContain("read_skill");
      expect(names.filter((name) => WRITE_TOOLS.includes(name))).toEqual([]);
    }
    const seen = catalog.requests.length;
    const called = await callText(server, TOKEN, "add_skill", {
      source: `${catalog.url}/.well-known/skills/index.json`,
    });
    expect(called.isError).toBe(true);
    expect(called.text).toMatch(/add_skill/);
    expect(catalog.requests.length).toBe(seen);
    expect(existsSync(join(base, "default", ".claude", "skills", "site-help"))).toBe(false);
  });

  it("serves the tools reading the server's lock files to no caller that does not get the write tools", async () => {
    const server = await serve(await project("operator"));
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      const names = await toolNames(server, undefined, revision);
      expect(names).toContain("read_skill");
      expect(names.filter((name) => OPERATOR_TOOLS.includes(name))).toEqual([]);
    }
    for (const name of OPERATOR_TOOLS) {
      const called = await callText(server, undefined, name, {});
      expect(called.isError, name).toBe(true);
      expect(called.text, name).toContain(name);
      expect(called.text, name).not.toContain("secret-team");
    }
  });

  it("with writeTools and a static token, the token's holder gets them, and add_skill refuses loopback and private targets", async () => {
    const dir = await project("static", {
      plugins: [
        ["fs", { roots: [".claude/skills"] }],
        "read-skill",
        "install-skill",
        ["http", { authToken: TOKEN, writeTools: {} }],
      ],
    });
    const server = await serve(dir);
    expect(await toolNames(server, TOKEN, "2026-07-28")).toEqual(
      expect.arrayContaining([...WRITE_TOOLS, ...OPERATOR_TOOLS]),
    );
    const installed = await callText(server, TOKEN, "list_installed_skills", {});
    expect(installed.text).toContain(PRIVATE_REPO);
    const seen = catalog.requests.length;
    for (const source of [
      `${catalog.url}/admin/index.json`,
      "http://[::1]:9/x.json",
      "https://10.1.2.3/repo.git",
      "git@192.168.1.1:acme/skills.git",
      "https://localhost/x.git",
    ]) {
      const refused = await callText(server, TOKEN, "add_skill", { source });
      expect(refused, source).toMatchObject({ isError: true });
      expect(refused.text, source).toContain("loopback, link-local or private address");
    }
    expect(catalog.requests.length).toBe(seen);
  });

  it("with oauth, only a token holding skills:write gets them; privateHosts allows a host by name", async () => {
    const dir = await project("oauth", {
      plugins: [
        ["fs", { roots: [".claude/skills"] }],
        "read-skill",
        ["install-skill", { privateHosts: ["127.0.0.1"] }],
        ["http", { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, jwksCooldownMs: 0 }, writeTools: {} }],
      ],
    });
    const server = await serve(dir);
    const reader = await bearer("skills:read");
    expect((await toolNames(server, reader, "2025-11-25")).filter((name) => WRITE_TOOLS.includes(name))).toEqual([]);
    expect((await toolNames(server, reader, "2026-07-28")).filter((name) => WRITE_TOOLS.includes(name))).toEqual([]);
    expect(
      (await callText(server, reader, "add_skill", { source: `${catalog.url}/.well-known/skills/index.json` })).isError,
    ).toBe(true);
    const writer = await bearer("skills:read skills:write");
    expect(await toolNames(server, writer, "2026-07-28")).toEqual(expect.arrayContaining(WRITE_TOOLS));
    const added = await callText(server, writer, "add_skill", {
      source: `${catalog.url}/.well-known/skills/index.json`,
      agents: ["cursor"],
    });
    expect(added, added.text).toMatchObject({ isError: false });
    // Cursor reads project skills from .agents/skills (src/lifecycle/agents-table.ts).
    expect(existsSync(join(dir, ".agents", "skills", "site-help", "SKILL.md")), added.text).toBe(true);
    // A source that cannot be read says why, as the CLI does, never "internal error".
    const missing = await callText(server, writer, "add_skill", { source: `${catalog.url}/missing/index.json` });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("/missing/index.json cannot be read");
    expect(missing.text).not.toContain("internal error");
    // Allowed by name, not by address: another loopback name is still refused.
    const other = await callText(server, writer, "add_skill", { source: "http://localhost:9/x.json" });
    expect(other.text).toContain("loopback, link-local or private address");
  });

  it.each(["node", "bun", "deno"] as Runtime[])(
    "on %s, a host privateHosts names is fetched at the address its name was checked to have",
    async (runtime) => {
      const dir = await project(`by-name-${runtime}`, {
        plugins: [
          ["fs", { roots: [".claude/skills"] }],
          ["install-skill", { privateHosts: ["localhost"] }],
          ["http", { authToken: TOKEN, writeTools: {} }],
        ],
      });
      const server = await serve(dir, [], runtime);
      // A name, so the connection is made through the guard's lookup, not to an address in the URL.
      const byName = `${catalog.url.replace("127.0.0.1", "localhost")}/.well-known/skills/index.json`;
      const added = await callText(server, TOKEN, "add_skill", { source: byName, agents: ["cursor"] });
      expect(added, added.text).toMatchObject({ isError: false });
      expect(existsSync(join(dir, ".agents", "skills", "site-help", "SKILL.md")), added.text).toBe(true);
      // Allowed by name, not by address: the same server by its address is refused.
      const byAddress = await callText(server, TOKEN, "add_skill", {
        source: `${catalog.url}/.well-known/skills/index.json`,
      });
      expect(byAddress.text).toContain("loopback, link-local or private address");
    },
    60_000,
  );

  it("a git host allowed by privateHosts cannot redirect git to a loopback name it does not allow", async () => {
    // Two https servers on loopback with one self-signed certificate the server's git trusts: the
    // allowed 127.0.0.1 answers info/refs with a 302 to https://localhost:<other port>.
    const tls = join(base, "tls");
    await mkdir(tls, { recursive: true });
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-keyout",
        join(tls, "key.pem"),
        "-out",
        join(tls, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    const keys = { key: readFileSync(join(tls, "key.pem")), cert: readFileSync(join(tls, "cert.pem")) };
    const internalHits: string[] = [];
    const internal = createHttpsServer(keys, (request, response) => {
      internalHits.push(request.url ?? "");
      response.writeHead(404).end();
    });
    const front = createHttpsServer(keys, (request, response) => {
      const port = (internal.address() as AddressInfo).port;
      response
        .writeHead(302, {
          location: `https://localhost:${port}/admin.git${(request.url ?? "").replace(/^\/repo\.git/, "")}`,
        })
        .end();
    });
    await Promise.all(
      [internal, front].map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))),
    );
    try {
      const dir = await project("redirect", {
        plugins: [
          ["fs", { roots: [".claude/skills"] }],
          ["install-skill", { privateHosts: ["127.0.0.1"] }],
          ["http", { oauth: { issuer: idp.issuer.url, audience: AUDIENCE, jwksCooldownMs: 0 }, writeTools: {} }],
        ],
      });
      const server = await startHttpServer(["--config", join(dir, "skills.config.json")], {
        cwd: dir,
        env: { HOME: home, SKILLS_KERNEL_AUTH_TOKEN: "", GIT_SSL_CAINFO: join(tls, "cert.pem") },
      });
      servers.push(server);
      const writer = await bearer("skills:read skills:write");
      const source = `https://127.0.0.1:${(front.address() as AddressInfo).port}/repo.git`;
      const refused = await callText(server, writer, "add_skill", { source, agents: ["cursor"] });
      expect(refused.isError, refused.text).toBe(true);
      expect(refused.text).toContain("the remote redirects, which is not followed here");
      expect(internalHits).toEqual([]);
    } finally {
      await Promise.all([internal, front].map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  it("refuses writeTools with no token and no sign-in, before listening", async () => {
    const dir = await project("open", {
      plugins: [["fs", { roots: [".claude/skills"] }], "install-skill", ["http", { writeTools: {} }]],
    });
    const [command, ...prefix] = RUNTIMES.node;
    const child = spawn(
      command!,
      [...prefix, "serve", "--transport", "http", "--port", "0", "--config", join(dir, "skills.config.json")],
      {
        cwd: dir,
        env: { ...process.env, HOME: home, SKILLS_KERNEL_AUTH_TOKEN: "" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain("writeTools needs authToken");
    expect(stderr).not.toMatch(/listening on/);
  });
});
