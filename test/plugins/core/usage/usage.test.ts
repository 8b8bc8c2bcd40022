import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createKernel,
  createLogger,
  definePlugin,
  TOKENS,
  type Identity,
  type SkillsKernel,
} from "../../../../src/index.js";
import type { UsageReport, SkillUsage } from "../../../../src/skills/usage/report.js";
import type { UsageStore } from "../../../../src/skills/usage/store.js";
import { GetSkillResultSchema } from "../../../helpers/skills-host.js";
import { waitFor } from "../../../helpers/wait.js";
import { fetchIn } from "../../../helpers/embedded-http.js";

/**
 * The usage plugin in process: what it counts through each door (tools in process and over MCP
 * and REST, resources, skills/get, prompts), the misses by caller, per-team visibility of the
 * figures, who may read them over HTTP, and a store that fails or hangs.
 */
const TOKEN = "0123456789abcdef0123";
const ADA: Identity = { subject: "ada", scopes: ["skills:admin"], claims: { groups: ["platform"] } };
const BOB: Identity = { subject: "bob", scopes: ["skills:admin"], claims: { groups: ["sales"] } };

const skill = (name: string, text: string) => `---\nname: ${name}\ndescription: ${text}\n---\n\n# ${name}\n\n${text}\n`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "usage-plugin-"));
  const files: Record<string, string> = {
    "open/pdf/SKILL.md": skill("pdf", "Extract tables and text from PDF files."),
    "open/docs/SKILL.md": skill("docs", "Write release notes and changelogs."),
    "open/docs/references/guide.md": "# Guide\n",
    "secret/deploy/SKILL.md": skill("deploy", "Ship the platform services to production."),
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function boot(usage: Record<string, unknown> = {}, extra: unknown[] = []): Promise<SkillsKernel> {
  const kernel = await createKernel({
    config: {
      plugins: [
        [
          "fs",
          {
            roots: ["./open", { path: "./secret", source: "secret", visibleTo: { claims: { groups: ["platform"] } } }],
            watch: false,
          },
        ],
        "list-skills",
        "search-skills",
        "read-skill",
        "fetch-skill-files",
        ["install-skill", { targets: { project: join(dir, "installed"), user: join(dir, "user") } }],
        "skill-resources",
        "skills-extension",
        "skill-prompts",
        "rest-api",
        ["http", { authToken: TOKEN }],
        ["usage", { diskCache: false, ...usage }],
        ...(extra as never[]),
      ],
    },
    baseDir: dir,
    logger: createLogger("silent"),
  });
  await kernel.catalog.ready();
  return kernel;
}

async function connect(kernel: SkillsKernel, identity?: Identity): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer({ identity }).connect(serverSide);
  const client = new Client({ name: "usage-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const usageOf = (kernel: SkillsKernel): SkillUsage => kernel.resolve(TOKENS.Usage);
const row = (report: UsageReport, name: string) => report.skills.find((s) => s.name === name);
const get = (kernel: SkillsKernel, path: string, bearer = TOKEN) =>
  fetchIn(kernel, path, { headers: { authorization: `Bearer ${bearer}` } });

describe("counting", () => {
  let kernel: SkillsKernel;
  beforeAll(async () => {
    kernel = await boot();
  });
  afterAll(async () => {
    await kernel.close();
  });

  it("counts searches, reads, fetches and installs through every door, once each", async () => {
    await kernel.callTool("search_skills", { query: "extract tables from pdf" });
    const client = await connect(kernel);
    await client.callTool({ name: "read_skill", arguments: { skill_name: "pdf" } });
    await client.readResource({ uri: "skill://pdf/SKILL.md" });
    await client.readResource({ uri: "skill://docs/references/guide.md" });
    await client.request({ method: "skills/get", params: { uri: "skill://docs/SKILL.md" } }, GetSkillResultSchema);
    await client.getPrompt({ name: "docs" });
    await client.callTool({ name: "fetch_skill_files", arguments: { skill_name: "docs", file_paths: ["nope.md"] } });
    await client.close();
    expect((await get(kernel, "/v1/skills/docs/files/references/guide.md")).status).toBe(200);
    await kernel.callTool("install_skill", { skill_name: "docs", target: "project" });
    await kernel.callTool("install_skill", { skill_name: "pdf", target: "project", dry_run: true });

    const report = await usageOf(kernel).report({ days: 1, catalog: kernel.catalogFor(undefined) });
    expect(row(report, "pdf")).toMatchObject({ searchHits: 1, firstHits: 1, reads: 2, fetches: 0, installs: 0 });
    // A fetch of no served file is no fetch; the resource and the REST file are.
    expect(row(report, "docs")).toMatchObject({ reads: 2, fetches: 2, installs: 1 });
    expect(row(report, "pdf")!.lastUsed).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(report.skills[0]!.name).toBe("docs");
  });

  it("counts a miss once per query, with how many callers asked it, each in their groups", async () => {
    await kernel.callTool("search_skills", { query: "Quantum  Banana" }, { identity: ADA });
    await kernel.callTool("search_skills", { query: "quantum banana" }, { identity: ADA });
    await kernel.callTool("search_skills", { query: "QUANTUM banana" }, { identity: BOB });
    await kernel.callTool("search_skills", { query: "quantum banana" });
    const usage = usageOf(kernel);
    const all = await usage.report({ days: 1, catalog: kernel.catalogFor(ADA) });
    expect(all.misses).toEqual([
      { query: "quantum banana", count: 4, callers: 3, lastSeen: expect.stringMatching(/T/) },
    ]);
    const platform = await usage.report({ days: 1, catalog: kernel.catalogFor(ADA), group: "groups:platform" });
    expect(platform.misses).toMatchObject([{ count: 2, callers: 1 }]);
    // Bob's group names no source: he counts as one without a group.
    const anonymous = await usage.report({ days: 1, catalog: kernel.catalogFor(ADA), group: "anonymous" });
    expect(anonymous.misses).toMatchObject([{ count: 2, callers: 2 }]);
  });

  it("never shows a skill's figures to a reader who cannot see it", async () => {
    await kernel.callTool("read_skill", { skill_name: "deploy" }, { identity: ADA });
    const usage = usageOf(kernel);
    expect(row(await usage.report({ days: 1, catalog: kernel.catalogFor(ADA) }), "deploy")).toMatchObject({ reads: 1 });
    expect(row(await usage.report({ days: 1, catalog: kernel.catalogFor(BOB) }), "deploy")).toBeUndefined();
    // The static token names nobody: its holder sees what a caller without identity sees.
    const answer = (await (await get(kernel, "/v1/usage?days=1")).json()) as UsageReport;
    expect(answer.skills.map((s) => s.name).sort()).toEqual(["docs", "pdf"]);
  });

  it("answers GET /v1/usage to the static token's holder alone, in the issue's shape", async () => {
    const response = await get(kernel, "/v1/usage?days=7");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const report = (await response.json()) as UsageReport;
    expect(Object.keys(report)).toEqual(["days", "skills", "misses"]);
    expect(report.days).toBe(7);
    expect(Object.keys(report.skills[0]!)).toEqual([
      "name",
      "source",
      "searchHits",
      "firstHits",
      "reads",
      "fetches",
      "installs",
      "lastUsed",
    ]);
    expect(Object.keys(report.misses[0]!)).toEqual(["query", "count", "callers", "lastSeen"]);
    expect((await get(kernel, "/v1/usage", "wrong-token-0123456789")).status).toBe(401);
    for (const days of ["0", "91", "x", "1.5"]) expect((await get(kernel, `/v1/usage?days=${days}`)).status).toBe(400);
  });

  it("gives each skill's uses to the catalog summary, read in the background, never waiting", async () => {
    const usage = usageOf(kernel);
    const { skills } = await usage.report({ days: 1, catalog: kernel.catalogFor(undefined) });
    const skill = (name: string) => ({
      id: name,
      description: "",
      name,
      source: row({ days: 1, skills, misses: [] }, name)!.source,
    });
    // The first ask starts a reading and answers 0 at once.
    expect(usage.popularity(skill("docs"))).toBe(0);
    await waitFor("the uses read", async () => usage.popularity(skill("docs")) > 0);
    // Reads, fetches and installs: docs was read twice, fetched twice and installed once.
    expect(usage.popularity(skill("docs"))).toBe(5);
    expect(usage.popularity(skill("pdf"))).toBe(2);
    expect(usage.popularity({ id: "nothing", description: "" })).toBe(0);
    expect(kernel.resolve(TOKENS.SkillPopularity)(skill("docs"))).toBe(5);
  });
});

describe("choices", () => {
  it("with recordQueries off counts misses in metrics alone, and keeps no text", async () => {
    const kernel = await boot({ recordQueries: false });
    try {
      await kernel.callTool("search_skills", { query: "quantum banana" });
      const report = await usageOf(kernel).report({ days: 1, catalog: kernel.catalogFor(undefined) });
      expect(report.misses).toEqual([]);
    } finally {
      await kernel.close();
    }
  });

  it("refuses figures over HTTP on a server whose callers sign in without the operator scope", async () => {
    const kernel = await createKernel({
      config: { plugins: [["fs", { roots: ["./open"], watch: false }], "rest-api", "usage", ["http", {}]] },
      baseDir: dir,
      logger: createLogger("silent"),
    });
    try {
      const response = await fetchIn(kernel, "/v1/usage");
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("usage figures are for operators");
    } finally {
      await kernel.close();
    }
  });

  it("keeps the figures in the cache folder from one kernel to the next", async () => {
    const cacheDir = join(dir, "cache");
    const first = await boot({ diskCache: true, cacheDir });
    await first.callTool("read_skill", { skill_name: "pdf" });
    await first.close();
    const second = await boot({ diskCache: true, cacheDir });
    try {
      const report = await usageOf(second).report({ days: 1, catalog: second.catalogFor(undefined) });
      expect(row(report, "pdf")).toMatchObject({ reads: 1 });
    } finally {
      await second.close();
    }
  });
});

describe("a store that fails", () => {
  const broken = (hang: boolean): UsageStore => {
    const fail = () => (hang ? new Promise<never>(() => {}) : Promise.reject(new Error("connection refused")));
    return {
      target: "a broken store",
      increment: fail,
      keepLatest: fail,
      addDistinct: fail,
      counters: fail,
      latest: fail,
      countDistinct: fail,
    };
  };
  const providing = (store: UsageStore) =>
    definePlugin({
      name: "broken-store",
      provides: [TOKENS.UsageStore],
      setup: (ctx) => ctx.provide(TOKENS.UsageStore, store),
    });

  it.each([
    ["down", false],
    ["hung", true],
  ])("loses figures, never an answer, when it is %s", async (_state, hang) => {
    const kernel = await boot({ timeoutMs: 50 }, [providing(broken(hang))]);
    try {
      for (let i = 0; i < 3; i++) {
        const found = await kernel.callTool("search_skills", { query: "pdf tables" });
        expect(found.isError).toBeFalsy();
        await usageOf(kernel).flush();
      }
      await expect(usageOf(kernel).report({ days: 1, catalog: kernel.catalogFor(undefined) })).rejects.toThrow();
      expect((await get(kernel, "/v1/usage")).status).toBe(503);
    } finally {
      await kernel.close();
    }
  });
});
