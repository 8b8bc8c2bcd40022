import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { githubRoutes, startFixtureServer, type FixtureServer } from "../../../helpers/fixture-server.js";
import { boot } from "../../tools/validate-skill/kernel.js";

const servers: FixtureServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const PDF = "---\nname: pdf\ndescription: Fill and merge PDF forms.\n---\n# PDF\n";

/** skills.sh's search answer shape. */
const searchAnswer = JSON.stringify({
  query: "pdf",
  searchType: "fuzzy",
  skills: [
    { id: "acme/skills/pdf", skillId: "pdf", name: "pdf", installs: 1234, source: "acme/skills" },
    { id: "ghost/repo/none", skillId: "none", name: "none", installs: 1, source: "ghost/repo" },
    { id: "../../etc/passwd", skillId: "passwd", name: "passwd", installs: 1, source: "../.." },
  ],
  count: 3,
  duration_ms: 12,
});

async function setup() {
  const server = await startFixtureServer({
    ...githubRoutes({
      owner: "acme",
      repo: "skills",
      commit: "b".repeat(40),
      files: {
        "skills/pdf/SKILL.md": PDF,
        "skills/pdf/forms.md": "# Forms\n",
        "skills/other/SKILL.md": PDF.replace("pdf", "other"),
      },
    }),
    "/api/search?q=pdf&limit=5": { body: searchAnswer, headers: { "content-type": "application/json" } },
    "/api/search?q=nothing&limit=5": {
      body: JSON.stringify({ query: "nothing", searchType: "fuzzy", skills: [], count: 0 }),
    },
  });
  servers.push(server);
  const cacheDir = await mkdtemp(join(tmpdir(), "skills-kernel-registry-"));
  dirs.push(cacheDir);
  const start = async () => {
    const booted = await boot(
      [
        [
          "registry",
          {
            searchUrl: `${server.url}/api/search`,
            github: { apiBaseUrl: `${server.url}/api`, rawBaseUrl: `${server.url}/raw` },
            cacheDir,
            retries: 0,
          },
        ],
        "search-skills",
        "list-skills",
        "read-skill",
        "fetch-skill-files",
      ],
      cacheDir,
    );
    await booted.kernel.catalog.ready();
    return booted;
  };
  return { server, start, ...(await start()) };
}

describe("registry source", () => {
  it("lists nothing until searched; search_skills asks the registry and ranks what it found with the rest", async () => {
    const { call, server } = await setup();
    expect((await call("list_skills", {})).structured.skills).toEqual([]);
    const found = await call("search_skills", { query: "pdf" });
    expect(found.structured.results.map((r: { id: string; source: string }) => `${r.source}:${r.id}`)).toEqual([
      "registry:pdf",
    ]);
    // The skill was read from the repository the registry named; an id that is no plain owner/repo/skill was never asked for.
    expect(server.requests.some((r) => r.path.includes(".."))).toBe(false);
    const read = await call("read_skill", { skill_name: "pdf" });
    expect(read.structured.content).toBe(PDF);
    expect(read.structured.files).toEqual(["forms.md"]);
    const fetched = await call("fetch_skill_files", { skill_name: "pdf", file_paths: ["forms.md"] });
    expect(fetched.structured.files[0].content).toBe("# Forms\n");
  });

  it("remembers what it found across restarts, and serves it with the registry and GitHub gone", async () => {
    const { call, server, start } = await setup();
    await call("search_skills", { query: "pdf" });
    await call("read_skill", { skill_name: "pdf" });
    await server.close();
    const again = await start();
    expect((await again.call("list_skills", {})).structured.skills.map((s: { id: string }) => s.id)).toEqual(["pdf"]);
    expect((await again.call("read_skill", { skill_name: "pdf" })).structured.content).toBe(PDF);
    // The registry being down costs its own answers, never the search.
    const searched = await again.call("search_skills", { query: "nothing" });
    expect(searched.isError).toBe(false);
  });
});
