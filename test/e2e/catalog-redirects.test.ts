import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { skill } from "../plugins/sources/git/repos.js";

/**
 * A catalog's redirects, through the bundle: followed within its own origin, refused to another
 * port unless its host is named, and its configured headers (an API key) never sent elsewhere.
 * Two real servers on loopback: the catalog's, and "another" one a redirect points at.
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

async function list(entry: Record<string, unknown>) {
  const config = join(base, `c${Math.random().toString(36).slice(2)}.json`);
  await writeFile(
    config,
    JSON.stringify({
      plugins: [
        ["http-catalog", { catalogs: [{ headers: { "x-api-key": KEY }, ...entry }], retries: 0 }],
        "list-skills",
      ],
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
