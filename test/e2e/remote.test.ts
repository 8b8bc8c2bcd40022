import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, runCli, type Runtime } from "../helpers/cli.js";
import { githubRoutes, startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { createRepository, skill } from "../plugins/sources/git/repos.js";

const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\nSee references/guide.md.\n`;

/**
 * Five kinds of source in one config, served by the shipped bundle: a local folder, a git
 * repository (file://), an HTTP catalog, a GitHub repository and a registry (all three on a
 * loopback fixture server). No cache plugin is on main yet, so the remote sources keep what they fetch in their
 * on-disk cache folder (cacheDir); a second start answers from it with the server stopped.
 */
describe.each(Object.keys(RUNTIMES) as Runtime[])("remote sources through dist/cli.js on %s", (runtime) => {
  let server: FixtureServer;
  let base: string;
  let config: string;
  let bare: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), `skills-kernel-remote-e2e-${runtime}-`));
    await mkdir(join(base, "local", "local-notes"), { recursive: true });
    await writeFile(join(base, "local", "local-notes", "SKILL.md"), skill("local-notes", "Keep local meeting notes."));
    const repo = await createRepository(
      {
        "skills/git-deploy/SKILL.md": md("git-deploy", "Deploy services from a git repository."),
        "skills/git-deploy/references/guide.md": "# git guide\n",
      },
      base,
    );
    bare = repo.bare;
    server = await startFixtureServer({
      "/catalog/skills-registry.json": {
        etag: '"c1"',
        body: JSON.stringify({
          version: "1",
          skills: [
            {
              name: "catalog-pdf",
              description: "Fill PDF forms from a catalog.",
              category: "docs",
              path: "docs/catalog-pdf",
              files: ["SKILL.md", "references/guide.md"],
            },
          ],
        }),
      },
      "/catalog/skills/docs/catalog-pdf/SKILL.md": {
        body: md("catalog-pdf", "Fill PDF forms from a catalog."),
        etag: '"p1"',
      },
      "/catalog/skills/docs/catalog-pdf/references/guide.md": { body: "# catalog guide\n" },
      ...githubRoutes({
        owner: "acme",
        repo: "skills",
        commit: "c".repeat(40),
        files: {
          "skills/gh-review/SKILL.md": md("gh-review", "Review pull requests on GitHub."),
          "skills/gh-review/references/guide.md": "# github guide\n",
        },
      }),
      // A registry whose search names a skill in another repository.
      ...githubRoutes({
        owner: "acme",
        repo: "more",
        commit: "d".repeat(40),
        files: { "lint/SKILL.md": md("lint", "Lint source code before a commit.") },
      }),
      "/registry/api/search?q=lint+source+code&limit=5": {
        body: JSON.stringify({
          query: "lint source code",
          searchType: "fuzzy",
          skills: [{ id: "acme/more/lint", skillId: "lint", name: "lint", installs: 42, source: "acme/more" }],
          count: 1,
        }),
      },
    });
    const cacheDir = join(base, "cache");
    config = join(base, "skills-kernel.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["fs", { roots: [{ path: "./local", source: "local" }], watch: false }],
          ["git", { repositories: [{ url: repo.url, path: "skills", name: "repo" }], cacheDir }],
          [
            "http-catalog",
            {
              catalogs: [{ url: `${server.url}/catalog/skills-registry.json`, name: "catalog" }],
              cacheDir,
              retries: 0,
            },
          ],
          [
            "github",
            {
              repositories: [{ repo: "acme/skills", path: "skills", name: "gh" }],
              apiBaseUrl: `${server.url}/api`,
              rawBaseUrl: `${server.url}/raw`,
              cacheDir,
              retries: 0,
            },
          ],
          [
            "registry",
            {
              searchUrl: `${server.url}/registry/api/search`,
              github: { apiBaseUrl: `${server.url}/api`, rawBaseUrl: `${server.url}/raw` },
              cacheDir,
              retries: 0,
            },
          ],
          "list-skills",
          "search-skills",
          "read-skill",
          "fetch-skill-files",
        ],
      }),
    );
  });

  afterAll(async () => {
    await server?.close();
    await rm(base, { recursive: true, force: true });
  });

  it("serves every source through every tool", async () => {
    const { client } = await connectCli(["--config", config], { runtime, cwd: base });
    try {
      const listed = await client.callTool({ name: "list_skills", arguments: { format: "json" } });
      const ids = (listed.structuredContent as { skills: { id: string; source: string }[] }).skills
        .map((s) => `${s.source}:${s.id}`)
        .sort();
      expect(ids).toEqual(["catalog:catalog-pdf", "gh:gh-review", "local:local-notes", "repo:git-deploy"]);

      const searched = await client.callTool({ name: "search_skills", arguments: { query: "review pull requests" } });
      expect((searched.structuredContent as { results: { id: string }[] }).results[0]?.id).toBe("gh-review");
      // The registry lists nothing until a search finds something there.
      const viaRegistry = await client.callTool({ name: "search_skills", arguments: { query: "lint source code" } });
      expect((viaRegistry.structuredContent as { results: { id: string; source: string }[] }).results[0]).toMatchObject(
        { id: "lint", source: "registry" },
      );
      const lint = await client.callTool({ name: "read_skill", arguments: { skill_name: "lint" } });
      expect((lint.structuredContent as { content: string }).content).toContain("name: lint");

      for (const [id, guide] of [
        ["git-deploy", "# git guide\n"],
        ["catalog-pdf", "# catalog guide\n"],
        ["gh-review", "# github guide\n"],
      ] as const) {
        const read = await client.callTool({ name: "read_skill", arguments: { skill_name: id } });
        expect(read.isError, id).toBeFalsy();
        const answer = read.structuredContent as { content: string; files: string[] };
        expect(answer.content).toContain(`name: ${id}`);
        expect(answer.files).toEqual(["references/guide.md"]);
        const fetched = await client.callTool({
          name: "fetch_skill_files",
          arguments: { skill_name: id, file_paths: ["references/guide.md", "../../etc/passwd"] },
        });
        const files = (fetched.structuredContent as { files: { content?: string; error?: string }[] }).files;
        expect(files[0]?.content, id).toBe(guide);
        expect(files[1]?.error, id).toMatch(/'\.\.' segment/);
      }
    } finally {
      await client.close();
    }
  });

  it("answers list, search and read from its cache on a second start, with the servers gone", async () => {
    await server.close();
    await rm(bare, { recursive: true, force: true });
    const listed = await runCli(["list", "--config", config], { runtime, cwd: base, timeoutMs: 30_000 });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split("\n").filter(Boolean).sort()).toEqual([
      "catalog-pdf",
      "gh-review",
      "git-deploy",
      "lint",
      "local-notes",
    ]);
    const searched = await runCli(["search", "fill PDF forms", "--config", config, "--json"], {
      runtime,
      cwd: base,
      timeoutMs: 30_000,
    });
    expect(searched.code, searched.stderr).toBe(0);
    expect(JSON.parse(searched.stdout).results[0].id).toBe("catalog-pdf");
    for (const id of ["catalog-pdf", "gh-review", "git-deploy", "lint"]) {
      const read = await runCli(["read", id, "--config", config], { runtime, cwd: base, timeoutMs: 30_000 });
      expect(read.code, `${id}: ${read.stderr}`).toBe(0);
      expect(read.stdout).toContain(`name: ${id}`);
    }
  });
});
