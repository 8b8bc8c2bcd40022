import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import { startFixtureServer, type Fixture, type FixtureServer } from "../../../helpers/fixture-server.js";
import { boot } from "../../tools/validate-skill/kernel.js";

const servers: FixtureServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const TOOLS: PluginEntry[] = [
  "list-skills",
  "read-skill",
  "fetch-skill-files",
  "search-skills",
  // What is downloaded when is the subject here; a remote source's default audit (block) reads every file at load (test/e2e/trust.test.ts).
  ["skill-policy", { audit: { "*": "off" } }],
];
const PDF_MD = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\nRead references/guide.md.\n";

/** The agent-skills MCP server's registry shape, files under skills/<path>/ beside it. */
function agentSkillsRoutes(overrides: Record<string, Fixture> = {}): Record<string, Fixture> {
  return {
    "/catalog/skills-registry.json": {
      etag: '"v1"',
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        version: "1.0.0",
        categories: { docs: { name: "Documents", description: "Working with documents" } },
        skills: [
          {
            name: "pdf",
            description: "Fill PDF forms.",
            category: "docs",
            path: "docs/pdf",
            files: ["SKILL.md", "references/guide.md"],
            contentHash: "abc123",
          },
          {
            name: "notes",
            description: "Take meeting notes.",
            category: "docs",
            path: "docs/notes",
            files: ["SKILL.md"],
          },
          { name: "escape", description: "Climbs out.", category: "x", path: "../../etc", files: ["SKILL.md"] },
          {
            name: "leaky",
            description: "Lists a file outside.",
            category: "x",
            path: "x/leaky",
            files: ["SKILL.md", "../secret", "ok.md"],
          },
          { name: "nodesc", category: "x", path: "x/nodesc", files: ["SKILL.md"] },
        ],
        deprecated: [],
      }),
    },
    "/catalog/skills/docs/pdf/SKILL.md": { body: PDF_MD },
    "/catalog/skills/docs/pdf/references/guide.md": { body: "# Guide\n" },
    "/catalog/skills/docs/notes/SKILL.md": {
      body: "---\nname: notes\ndescription: Take meeting notes.\n---\n",
      etag: '"n1"',
    },
    ...overrides,
  };
}

async function setup(
  routes: Record<string, Fixture>,
  catalog: (url: string) => unknown,
  extra: Record<string, unknown> = {},
) {
  const server = await startFixtureServer(routes);
  servers.push(server);
  const cacheDir = await mkdtemp(join(tmpdir(), "skills-kernel-catalog-"));
  dirs.push(cacheDir);
  const start = () =>
    boot(
      [
        ["http-catalog", { catalogs: [catalog(server.url)], cacheDir, retries: 0, timeoutMs: 2_000, ...extra }],
        ...TOOLS,
      ],
      cacheDir,
    );
  const first = await start();
  await first.kernel.catalog.ready();
  return { server, cacheDir, start, ...first };
}

describe("http-catalog: the agent-skills registry shape", () => {
  it("lists names and descriptions from the catalog alone, and downloads a SKILL.md only when it is read", async () => {
    const { server, call, kernel } = await setup(agentSkillsRoutes(), (url) => ({
      url: `${url}/catalog/skills-registry.json`,
      name: "remote",
    }));
    const listed = await call("list_skills", {});
    expect(listed.structured.skills.map((s: { id: string }) => s.id).sort()).toEqual(["leaky", "notes", "pdf"]);
    expect(server.requests.map((r) => r.path)).toEqual(["/catalog/skills-registry.json"]);
    expect(kernel.catalog.get("pdf")?.frontmatter).toMatchObject({ category: "docs" });

    const read = await call("read_skill", { skill_name: "pdf" });
    expect(read.isError).toBe(false);
    expect(read.structured.content).toBe(PDF_MD);
    expect(read.structured.files).toEqual(["references/guide.md"]);
    const fetched = await call("fetch_skill_files", { skill_name: "pdf", file_paths: ["references/guide.md"] });
    expect(fetched.structured.files[0]).toMatchObject({ path: "references/guide.md", content: "# Guide\n" });

    // A skill with a content hash is kept for good: reading again asks nothing.
    const before = server.requests.length;
    await call("read_skill", { skill_name: "pdf" });
    await call("fetch_skill_files", { skill_name: "pdf", file_paths: ["references/guide.md"] });
    expect(server.requests.length).toBe(before);
  });

  it("reports bad entries by name and path and serves the rest; a path out of the folder is never requested", async () => {
    const { server, kernel, call } = await setup(agentSkillsRoutes(), (url) => `${url}/catalog/skills-registry.json`);
    const codes = kernel.catalog.diagnostics().map((d) => `${d.code}: ${d.message}`);
    expect(codes.some((m) => /skills\[2\].*'\.\.' segment/.test(m))).toBe(true);
    expect(codes.some((m) => /skills\[3\]: a file was left out/.test(m))).toBe(true);
    expect(codes.some((m) => /skills\[4\].*no description/.test(m))).toBe(true);
    const fetched = await call("fetch_skill_files", { skill_name: "leaky", file_paths: ["../secret"] });
    expect(fetched.structured.files[0].error).toMatch(/'\.\.' segment/);
    expect(server.requests.every((r) => !r.path.includes(".."))).toBe(true);
  });

  it("revalidates with the ETag once the TTL has passed: a 304 keeps what was fetched", async () => {
    const { server, kernel } = await setup(agentSkillsRoutes(), (url) => `${url}/catalog/skills-registry.json`, {
      ttlMs: 0,
    });
    await kernel.catalog.refresh();
    const catalogRequests = server.requests.filter((r) => r.path === "/catalog/skills-registry.json");
    expect(catalogRequests.map((r) => r.status)).toEqual([200, 304]);
    expect(catalogRequests[1]!.headers["if-none-match"]).toBe('"v1"');
    expect(
      kernel.catalog
        .list()
        .map((s) => s.name)
        .sort(),
    ).toEqual(["leaky", "notes", "pdf"]);
  });

  it("a served kernel asks again once the TTL has passed, and picks up a changed catalog", async () => {
    const routes = agentSkillsRoutes();
    const { kernel, server } = await setup(routes, (url) => `${url}/catalog/skills-registry.json`, { ttlMs: 1000 });
    server.set("/catalog/skills-registry.json", {
      etag: '"v2"',
      body: JSON.stringify({
        skills: [{ name: "fresh", description: "Added later.", path: "x/fresh", files: ["SKILL.md"] }],
      }),
    });
    const stop = kernel.catalog.watch(new AbortController().signal);
    try {
      for (let waited = 0; waited < 10_000 && !kernel.catalog.get("fresh"); waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      stop();
    }
    expect(kernel.catalog.list().map((s) => s.name)).toEqual(["fresh"]);
  });

  it("serves the cached catalog, marked stale, when the server fails; and answers a second start with the server gone", async () => {
    const { server, kernel, start } = await setup(agentSkillsRoutes(), (url) => `${url}/catalog/skills-registry.json`, {
      ttlMs: 0,
    });
    await (await start()).call("read_skill", { skill_name: "notes" });
    server.set("/catalog/skills-registry.json", { status: 500 });
    await kernel.catalog.refresh();
    expect(
      kernel.catalog
        .list()
        .map((s) => s.name)
        .sort(),
    ).toEqual(["leaky", "notes", "pdf"]);
    expect(kernel.catalog.diagnostics().find((d) => d.code === "stale")?.message).toMatch(/answered 500/);

    await server.close();
    const again = await start();
    expect((await again.call("list_skills", {})).structured.skills).toHaveLength(3);
    const read = await again.call("read_skill", { skill_name: "notes" });
    expect(read.isError).toBe(false);
    expect(read.structured.content).toMatch(/Take meeting notes/);
    // Never fetched while the server was up: the agent hears why, as a tool error.
    const unread = await again.call("read_skill", { skill_name: "pdf" });
    expect(unread.isError).toBe(true);
    expect(unread.text).toMatch(/could not be downloaded/);
  });

  it("a catalog that never loaded fails its source alone, by name, while another serves", async () => {
    const server = await startFixtureServer({
      "/bad.json": { body: '{"skills": [', headers: { "content-type": "application/json" } },
    });
    servers.push(server);
    const ok = await startFixtureServer(agentSkillsRoutes());
    servers.push(ok);
    const cacheDir = await mkdtemp(join(tmpdir(), "skills-kernel-catalog-"));
    dirs.push(cacheDir);
    const { kernel } = await boot(
      [
        [
          "http-catalog",
          {
            catalogs: [
              { url: `${server.url}/bad.json`, name: "broken" },
              { url: `${ok.url}/catalog/skills-registry.json`, name: "good" },
            ],
            cacheDir,
            retries: 0,
          },
        ],
        ...TOOLS,
      ],
      cacheDir,
    );
    await kernel.catalog.ready();
    expect(kernel.catalog.list().map((s) => s.source)).toEqual(["good", "good", "good"]);
    const failure = kernel.catalog.diagnostics().find((d) => d.source === "broken");
    expect(failure?.message).toMatch(/not JSON/);
  });

  it("retries a body cut short and a 500, then serves", async () => {
    const routes = agentSkillsRoutes();
    const good = routes["/catalog/skills-registry.json"] as { body: string };
    routes["/catalog/skills-registry.json"] = (_request, count) =>
      count === 1 ? { body: good.body, truncateTo: 20 } : count === 2 ? { status: 500 } : { body: good.body };
    const { kernel, server } = await setup(routes, (url) => `${url}/catalog/skills-registry.json`, { retries: 2 });
    expect(kernel.catalog.list()).toHaveLength(3);
    expect(server.requests.filter((r) => r.path.endsWith(".json"))).toHaveLength(3);
  });

  it("refuses a file over maxFileBytes and says so", async () => {
    const routes = agentSkillsRoutes({
      "/catalog/skills/docs/notes/SKILL.md": { body: `---\nname: notes\ndescription: x\n---\n${"y".repeat(5000)}` },
    });
    const { call } = await setup(routes, (url) => `${url}/catalog/skills-registry.json`, { maxFileBytes: 1000 });
    const read = await call("read_skill", { skill_name: "notes" });
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/over the 1000 allowed/);
  });
});

describe("http-catalog: the RFC 8615 well-known index", () => {
  const wellKnown = (): Record<string, Fixture> => ({
    "/.well-known/skills/index.json": {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        skills: [
          { name: "deploy", description: "Deploy the site.", files: ["SKILL.md", "scripts/deploy.sh"] },
          { name: "Bad Name", description: "Not a URL segment.", files: ["SKILL.md"] },
        ],
      }),
    },
    "/.well-known/skills/deploy/SKILL.md": {
      body: "---\nname: deploy\ndescription: Deploy the site.\n---\nRun scripts/deploy.sh\n",
    },
    "/.well-known/skills/deploy/scripts/deploy.sh": { body: "#!/bin/sh\necho deploy\n" },
  });

  it("reads a site's index from its base URL, files under <name>/", async () => {
    const { call, kernel } = await setup(wellKnown(), (url) => url);
    expect(kernel.catalog.list().map((s) => s.name)).toEqual(["deploy"]);
    expect(kernel.catalog.diagnostics().some((d) => /"Bad Name" is not a valid skill name/.test(d.message))).toBe(true);
    const read = await call("read_skill", { skill_name: "deploy" });
    expect(read.structured.files).toEqual(["scripts/deploy.sh"]);
    const fetched = await call("fetch_skill_files", { skill_name: "deploy", file_paths: ["scripts/deploy.sh"] });
    expect(fetched.structured.files[0].content).toBe("#!/bin/sh\necho deploy\n");
  });

  it("is found by search_skills like any other skill", async () => {
    const { call, server } = await setup(wellKnown(), (url) => url);
    const found = await call("search_skills", { query: "deploy the site" });
    expect(found.structured.results[0]).toMatchObject({
      id: "deploy",
      source: new URL(server.url).host.replace(":", "-"),
    });
  });
});
