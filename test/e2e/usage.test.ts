import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageReport } from "../../src/skills/usage/report.js";
import { runCli } from "../helpers/cli.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";
import { TestRedis } from "../helpers/redis.js";
import { waitFor } from "../helpers/wait.js";

/**
 * Usage figures through the bundle: replicas sharing a Redis of the test's own count into the same
 * figures, which outlive them; misses by caller; per-team visibility of the figures; a Redis that
 * dies under load fails no request; a stdio user's figures kept in the cache folder.
 */
const AUDIENCE = "https://skills.example.com/mcp";
const TOKEN = "usage-e2e-token-0123456789";

let idp: OAuth2Server;
let dir: string;
let redis: TestRedis;
const servers: HttpServerProcess[] = [];

const skill = (name: string, text: string) => `---\nname: ${name}\ndescription: ${text}\n---\n\n# ${name}\n\n${text}\n`;
const token = (sub: string, groups: string[], scope: string) =>
  idp.issuer.buildToken({
    scopesOrTransform: (_header, payload) => Object.assign(payload, { sub, aud: AUDIENCE, scope, groups }),
  });
const ada = () => token("ada", ["platform"], "skills:read skills:admin");
const bob = () => token("bob", ["sales"], "skills:read skills:admin");
const carol = () => token("carol", ["platform"], "skills:read");

async function get(server: HttpServerProcess, path: string, bearer: string): Promise<Response> {
  return fetch(new URL(path, server.origin), { headers: { authorization: `Bearer ${bearer}` } });
}

async function usage(server: HttpServerProcess, bearer: string): Promise<UsageReport> {
  const response = await get(server, "/v1/usage?days=1", bearer);
  expect(response.status).toBe(200);
  return (await response.json()) as UsageReport;
}

const row = (report: UsageReport, name: string) => report.skills.find((s) => s.name === name);

async function writeConfig(name: string, http: Record<string, unknown>, redisUrl: string): Promise<string> {
  const config = {
    plugins: [
      [
        "fs",
        {
          roots: [
            { path: join(dir, "team"), source: "team", visibleTo: { claims: { groups: ["platform"] } } },
            { path: join(dir, "public"), source: "public" },
          ],
        },
      ],
      "list-skills",
      "search-skills",
      "read-skill",
      "fetch-skill-files",
      "rest-api",
      "usage",
      ["cache-redis", { url: redisUrl }],
      ["http", http],
    ],
  };
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(config));
  return file;
}

beforeAll(async () => {
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256", { kid: "k1" });
  await idp.start(0, "127.0.0.1");
  dir = await mkdtemp(join(tmpdir(), "sk-usage-"));
  for (const [path, text] of [
    ["team/deploy", skill("deploy", "Ship the platform services to production.")],
    ["public/pdf", skill("pdf", "Extract tables and text from PDF files.")],
    ["public/docs", skill("docs", "Write release notes and changelogs.")],
  ] as const) {
    await mkdir(join(dir, path), { recursive: true });
    await writeFile(join(dir, path, "SKILL.md"), text);
  }
  redis = await TestRedis.start();
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await redis?.kill();
  await idp?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("replicas sharing Redis, with sign-in", () => {
  let config: string;
  let one: HttpServerProcess;
  let two: HttpServerProcess;
  beforeAll(async () => {
    config = await writeConfig("signed-in.json", { oauth: { issuer: idp.issuer.url, audience: AUDIENCE } }, redis.url);
    [one, two] = await Promise.all([startHttpServer(["--config", config]), startHttpServer(["--config", config])]);
    servers.push(one, two);
  }, 60_000);

  it("count into the same figures, whichever replica answered", async () => {
    const bearer = await ada();
    expect((await get(one, "/v1/skills/search?q=extract%20tables%20from%20pdf", bearer)).status).toBe(200);
    expect((await get(two, "/v1/skills/pdf", bearer)).status).toBe(200);
    expect((await get(two, "/v1/skills/pdf", bearer)).status).toBe(200);
    await waitFor("both replicas' figures in Redis", async () => {
      const pdf = row(await usage(one, bearer), "pdf");
      return pdf?.reads === 2 && pdf.searchHits === 1;
    });
    expect(row(await usage(two, bearer), "pdf")).toMatchObject({ searchHits: 1, firstHits: 1, reads: 2 });
  });

  it("count a miss once per query, with the callers who asked it", async () => {
    const [a, b] = [await ada(), await bob()];
    for (const [server, bearer, query] of [
      [one, a, "Quantum Banana"],
      [two, a, "quantum   banana"],
      [two, b, "QUANTUM BANANA"],
    ] as const) {
      expect((await get(server, `/v1/skills/search?q=${encodeURIComponent(query)}`, bearer)).status).toBe(200);
    }
    await waitFor("the miss from both replicas", async () => (await usage(one, a)).misses[0]?.count === 3);
    expect((await usage(two, a)).misses).toEqual([
      { query: "quantum banana", count: 3, callers: 2, lastSeen: expect.stringMatching(/T/) },
    ]);
  });

  it("never show a hidden skill's figures to an outsider, and show none to a caller who is no operator", async () => {
    const [a, b] = [await ada(), await bob()];
    expect((await get(one, "/v1/skills/deploy", a)).status).toBe(200);
    await waitFor("ada's read of deploy", async () => row(await usage(two, a), "deploy")?.reads === 1);
    // Bob is an operator too, but not of the platform team: deploy is not in his figures at all.
    const outsider = await usage(two, b);
    expect(row(outsider, "deploy")).toBeUndefined();
    expect(JSON.stringify(outsider)).not.toContain("deploy");
    const refused = await get(one, "/v1/usage", await carol());
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("skills:admin");
  });

  it("keep the figures when every replica restarts, and the CLI reads the same store", async () => {
    await Promise.all([one.stop(), two.stop()]);
    const again = await startHttpServer(["--config", config]);
    servers.push(again);
    expect(row(await usage(again, await ada()), "pdf")).toMatchObject({ reads: 2, searchHits: 1 });
    const cli = await runCli(["usage", "--config", config, "--days", "1", "--format", "json"]);
    expect(cli.stderr).toBe("");
    const report = JSON.parse(cli.stdout) as UsageReport;
    // The person at the terminal reads the store itself: every source.
    expect(row(report, "pdf")).toMatchObject({ reads: 2 });
    expect(row(report, "deploy")).toMatchObject({ reads: 1 });
    expect(report.misses[0]).toMatchObject({ query: "quantum banana", count: 3, callers: 2 });
  });
});

describe("a Redis that dies under load", () => {
  let own: TestRedis;
  let server: HttpServerProcess;
  beforeAll(async () => {
    // A redis-server of this test's own: killing it disturbs no other test.
    own = await TestRedis.start();
    const config = await writeConfig("outage.json", { authToken: TOKEN }, own.url);
    server = await startHttpServer(["--config", config]);
    servers.push(server);
  }, 60_000);
  afterAll(async () => {
    await own?.kill();
  });

  it("fails no request, loses figures while it is down, and counts again once it is back", async () => {
    const statuses: number[] = [];
    let sent = 0;
    const worker = async () => {
      while (sent < 120) {
        sent++;
        const path = sent % 2 === 0 ? "/v1/skills/search?q=release%20notes" : "/v1/skills/docs";
        const response = await get(server, path, TOKEN);
        await response.arrayBuffer();
        statuses.push(response.status);
        if (sent === 40) await own.kill();
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(statuses).toHaveLength(120);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect((await get(server, "/v1/usage?days=1", TOKEN)).status).toBe(503);
    await own.start();
    // The client reconnects in its own time: reads made before then are lost, so keep reading.
    await waitFor(
      "figures written to the Redis that came back",
      async () => {
        expect((await get(server, "/v1/skills/docs", TOKEN)).status).toBe(200);
        const response = await get(server, "/v1/usage?days=1", TOKEN);
        if (response.status !== 200) return false;
        return (row((await response.json()) as UsageReport, "docs")?.reads ?? 0) > 0;
      },
      30_000,
    );
    expect(server.stderr()).toContain("cannot write usage figures");
  });
});

describe("a stdio user", () => {
  it("keeps figures in the cache folder from one command to the next", async () => {
    const env = { XDG_CACHE_HOME: join(dir, "stdio-cache") };
    const skills = join(dir, "public");
    expect((await runCli(["search", "--skills-dir", skills, "tables in pdf files"], { env })).code).toBe(0);
    expect((await runCli(["read", "--skills-dir", skills, "pdf"], { env })).code).toBe(0);
    expect((await runCli(["search", "--skills-dir", skills, "mail ada@example.com quantum"], { env })).code).toBe(0);
    const { stdout, code } = await runCli(["usage", "--skills-dir", skills, "--json"], { env });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as UsageReport;
    expect(row(report, "pdf")).toMatchObject({ searchHits: 1, firstHits: 1, reads: 1 });
    expect(row(report, "docs")).toMatchObject({ reads: 0, lastUsed: null });
    expect(report.misses.map((miss) => miss.query)).toEqual(["mail [email] quantum"]);
    const text = await runCli(["usage", "--skills-dir", skills], { env });
    expect(text.stdout).toContain("Never used in the last 30 days:\n  docs (public)");
  });
});
