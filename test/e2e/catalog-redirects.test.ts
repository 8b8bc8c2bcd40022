import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { skill } from "../plugins/sources/git/repos.js";

/**
 * A catalog's redirects and a 0.2.0 index's artifact URLs, through the bundle: redirects followed
 * within its own origin, refused to another port unless its host is named, and its configured
 * headers (a token, an API key) never sent to an origin the config does not name. Two real servers
 * on loopback: the catalog's, and "another" one a redirect or an index points at.
 */
const KEY = "catalog-api-key-never-elsewhere";
let base: string;
let catalog: FixtureServer;
let other: FixtureServer;

const document = (name: string) =>
  JSON.stringify({
    version: "1",
    skills: [{ name, description: `The ${name} skill.`, path: name, files: ["SKILL.md"] }],
  });

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-redirects-"));
  other = await startFixtureServer({ "/skills-registry.json": { body: document("elsewhere") } });
  catalog = await startFixtureServer({
    "/skills-registry.json": { body: document("home") },
    "/moved.json": { status: 302, headers: { location: "/skills-registry.json" } },
    "/away.json": { status: 302, headers: { location: `${other.url}/skills-registry.json` } },
    "/skills/home/SKILL.md": { body: skill("home") },
    "/skills/elsewhere/SKILL.md": { body: skill("elsewhere") },
  });
});

afterAll(async () => {
  await Promise.all([catalog.close(), other.close()]);
  await rm(base, { recursive: true, force: true });
});

async function list(entry: Record<string, unknown>, headers: Record<string, string> = { "x-api-key": KEY }) {
  const config = join(base, `c${Math.random().toString(36).slice(2)}.json`);
  await writeFile(
    config,
    JSON.stringify({
      plugins: [["http-catalog", { catalogs: [{ headers, ...entry }], retries: 0 }], "list-skills"],
    }),
  );
  return runCli(["list", "--config", config, "--log-level", "warn"], {
    cwd: base,
    env: { XDG_CACHE_HOME: join(base, "cache"), HOME: base },
  });
}

describe("catalog redirects", () => {
  it("follows one within the catalog's origin, with its headers", async () => {
    const result = await list({ url: `${catalog.url}/moved.json` });
    expect(result.stdout, result.stderr).toBe("home\n");
    const followed = catalog.requests.filter((request) => request.path === "/skills-registry.json");
    expect(followed.length).toBeGreaterThan(0);
    expect(followed.every((request) => request.headers["x-api-key"] === KEY)).toBe(true);
  });

  it("refuses one to another port, which never hears of it", async () => {
    const result = await list({ url: `${catalog.url}/away.json` });
    expect(result.stdout.trim()).toBe("");
    expect(result.stderr).toContain(
      `redirected to ${other.url}/skills-registry.json, another origin (name its host in redirectHosts to allow it)`,
    );
    expect(other.requests).toEqual([]);
  });

  it("follows one to a host named in redirectHosts, without the catalog's headers", async () => {
    const result = await list({ url: `${catalog.url}/away.json`, redirectHosts: [new URL(other.url).host] });
    expect(result.stdout, result.stderr).toBe("elsewhere\n");
    expect(other.requests.length).toBeGreaterThan(0);
    expect(other.requests.map((request) => request.headers["x-api-key"])).toEqual(other.requests.map(() => undefined));
  });
});

describe("a discovery index's artifacts on another origin", () => {
  const SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
  const headers = { authorization: "Bearer K", "x-api-key": KEY };
  // Artifacts are kept by digest: each test serves its own bytes, so each fetches them.
  const artifact = (description: string) => skill("roaming", description);
  const digest = (bytes: string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  const index = (url: string, bytes: string) =>
    JSON.stringify({
      $schema: SCHEMA,
      skills: [{ name: "roaming", type: "skill-md", description: "The roaming skill.", url, digest: digest(bytes) }],
    });
  const seenBy = (server: FixtureServer, path: string) => server.requests.filter((request) => request.path === path);

  it("fetches them without the catalog's headers, which its own origin gets", async () => {
    const bytes = artifact("Roams elsewhere.");
    other.set("/artifacts/roaming.md", { body: bytes });
    catalog.set("/.well-known/agent-skills/index.json", { body: index(`${other.url}/artifacts/roaming.md`, bytes) });
    const result = await list({ url: catalog.url }, headers);
    expect(result.stdout, result.stderr).toBe("roaming\n");
    const fetched = seenBy(other, "/artifacts/roaming.md");
    expect(fetched.length).toBeGreaterThan(0);
    for (const request of fetched) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers["x-api-key"]).toBeUndefined();
      expect(request.headers["user-agent"]).toMatch(/^skills-kernel\//);
    }
    const own = seenBy(catalog, "/.well-known/agent-skills/index.json");
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((request) => request.headers.authorization === "Bearer K")).toBe(true);
  });

  it("sends them to a host the config names in headerHosts", async () => {
    const bytes = artifact("Roams to a named host.");
    other.set("/artifacts/named.md", { body: bytes });
    catalog.set("/named/.well-known/agent-skills/index.json", {
      body: index(`${other.url}/artifacts/named.md`, bytes),
    });
    const result = await list({ url: `${catalog.url}/named`, headerHosts: [new URL(other.url).host] }, headers);
    expect(result.stdout, result.stderr).toBe("roaming\n");
    const fetched = seenBy(other, "/artifacts/named.md");
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((request) => request.headers.authorization === "Bearer K")).toBe(true);
  });
});
