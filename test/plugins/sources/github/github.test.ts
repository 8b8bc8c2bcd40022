import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import {
  githubRoutes,
  startFixtureServer,
  type FixtureServer,
  type GitHubRepoFixture,
} from "../../../helpers/fixture-server.js";
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
  // What is downloaded when is the subject here; a remote source's default audit (block) reads every file at load (test/e2e/trust.test.ts).
  ["skill-policy", { audit: { "*": "off" } }],
];
const COMMIT = "a".repeat(40);
const md = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`;

const REPO: GitHubRepoFixture = {
  owner: "acme",
  repo: "skills",
  commit: COMMIT,
  files: {
    "README.md": "# acme\n",
    "skills/pdf/SKILL.md": md("pdf"),
    "skills/pdf/references/guide.md": "# Guide\n",
    "skills/pdf/node_modules/x/index.js": "x",
    "skills/notes/SKILL.md": md("notes"),
    "skills/broken/SKILL.md": "no frontmatter here\n",
  },
  symlinks: { "skills/pdf/secret.md": "../../../../etc/passwd" },
  submodules: ["skills/vendored"],
};

async function setup(
  fixture: GitHubRepoFixture,
  options: Record<string, unknown> = {},
  repositories: unknown[] = ["acme/skills:skills"],
) {
  const server = await startFixtureServer(githubRoutes(fixture));
  servers.push(server);
  const cacheDir = await mkdtemp(join(tmpdir(), "skills-kernel-github-"));
  dirs.push(cacheDir);
  const start = async () => {
    const booted = await boot(
      [
        [
          "github",
          {
            repositories,
            apiBaseUrl: `${server.url}/api`,
            rawBaseUrl: `${server.url}/raw`,
            cacheDir,
            retries: 0,
            ...options,
          },
        ],
        ...TOOLS,
      ],
      cacheDir,
    );
    await booted.kernel.catalog.ready();
    return booted;
  };
  return { server, start, ...(await start()) };
}

describe("github source", () => {
  it("lists a folder's skills from the tree and their SKILL.md files, and downloads other files when read", async () => {
    const { kernel, call, server } = await setup(REPO);
    expect(
      kernel.catalog
        .list()
        .map((s) => s.name)
        .sort(),
    ).toEqual(["notes", "pdf"]);
    expect(kernel.catalog.diagnostics().find((d) => d.path === "broken")?.code).toBe("no-frontmatter");
    expect(server.requests.some((r) => r.path.endsWith("guide.md"))).toBe(false);
    const read = await call("read_skill", { skill_name: "pdf" });
    // Symlinks, submodules and node_modules are never served.
    expect(read.structured.files).toEqual(["references/guide.md"]);
    expect(read.text).toMatch(/references\/guide\.md \(8 bytes\)/);
    const fetched = await call("fetch_skill_files", {
      skill_name: "pdf",
      file_paths: ["references/guide.md", "secret.md"],
    });
    expect(fetched.structured.files[0].content).toBe("# Guide\n");
    expect(fetched.structured.files[1].error).toBeDefined();
    expect(server.requests.some((r) => r.path.includes("secret"))).toBe(false);
  });

  it("revalidates the ref with its ETag (a 304 costs no rate limit) and never asks again for a known commit's tree or files", async () => {
    const { kernel, server } = await setup(REPO, { refTtlMs: 0 });
    const first = server.requests.length;
    await kernel.catalog.refresh();
    const again = server.requests.slice(first);
    expect(again.map((r) => `${r.status} ${r.path}`)).toEqual(["304 /api/repos/acme/skills/commits/HEAD"]);
    expect(again[0]!.headers["if-none-match"]).toBe(`"${COMMIT.slice(0, 20)}"`);
  });

  it("sends GITHUB_TOKEN (or the token option) to the API and raw hosts", async () => {
    const { server } = await setup(REPO, { token: "t0ken" });
    expect(server.requests.every((r) => r.headers.authorization === "Bearer t0ken")).toBe(true);
  });

  it("reports a spent rate limit with its reset time, and asks nothing more until then", async () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    const server = await startFixtureServer({
      "/api/repos/acme/skills/commits/HEAD": {
        status: 403,
        body: JSON.stringify({
          message: "API rate limit exceeded for 127.0.0.1.",
          documentation_url: "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
        }),
        headers: {
          "x-ratelimit-limit": "60",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(reset),
          "content-type": "application/json",
        },
      },
    });
    servers.push(server);
    const cacheDir = await mkdtemp(join(tmpdir(), "skills-kernel-github-"));
    dirs.push(cacheDir);
    const { kernel } = await boot(
      [
        [
          "github",
          {
            repositories: ["acme/skills"],
            apiBaseUrl: `${server.url}/api`,
            rawBaseUrl: `${server.url}/raw`,
            cacheDir,
            refTtlMs: 0,
          },
        ],
        ...TOOLS,
      ],
      cacheDir,
    );
    await kernel.catalog.ready();
    const failure = kernel.catalog.diagnostics()[0]!;
    expect(failure.message).toMatch(/rate limit \(60 requests an hour\) is spent until .*set GITHUB_TOKEN/);
    expect(failure.message).toContain(new Date(reset * 1000).toISOString());
    await kernel.catalog.refresh();
    expect(server.requests).toHaveLength(1);
  });

  it("serves its last commit, marked stale, when GitHub fails, and a second start answers with GitHub gone", async () => {
    const { kernel, server, start, call } = await setup(REPO, { refTtlMs: 0 });
    await call("read_skill", { skill_name: "pdf" });
    server.set("/api/repos/acme/skills/commits/HEAD", { status: 500 });
    await kernel.catalog.refresh();
    expect(kernel.catalog.list()).toHaveLength(2);
    expect(kernel.catalog.diagnostics().find((d) => d.code === "stale")?.message).toMatch(/answered 500/);
    await server.close();
    const again = await start();
    expect(
      again.kernel.catalog
        .list()
        .map((s) => s.name)
        .sort(),
    ).toEqual(["notes", "pdf"]);
    expect((await again.call("read_skill", { skill_name: "pdf" })).structured.content).toBe(md("pdf"));
  });

  it("says which folder is missing, and fails that source alone", async () => {
    const { kernel } = await setup(REPO, {}, [
      "acme/skills:nope",
      { repo: "acme/skills", path: "skills", name: "good" },
    ]);
    expect(kernel.catalog.list().every((s) => s.source === "good")).toBe(true);
    expect(kernel.catalog.diagnostics().some((d) => /no folder "nope"/.test(d.message))).toBe(true);
  });
});
