import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, runCli } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { skill } from "../plugins/sources/git/repos.js";

/**
 * A catalog lists a skill's files without sizes (the source says 0): install copies them whole,
 * bounded by maxBytes rather than by the listed sizes. The bundle against a loopback catalog.
 */
let base: string;
let server: FixtureServer;
let env: NodeJS.ProcessEnv;
const GUIDE = "# guide\n" + "x".repeat(5000);

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-catalog-install-"));
  env = { XDG_CACHE_HOME: join(base, "cache"), HOME: base };
  server = await startFixtureServer({
    "/skills-registry.json": {
      body: JSON.stringify({
        version: "1",
        skills: [
          {
            name: "pdf",
            description: "Fill PDF forms.",
            path: "pdf",
            files: ["SKILL.md", "references/guide.md", "notes.md"],
          },
        ],
      }),
    },
    "/skills/pdf/SKILL.md": { body: skill("pdf", "Fill PDF forms.") },
    "/skills/pdf/references/guide.md": { body: GUIDE },
    "/skills/pdf/notes.md": { body: "notes\n" },
    "/names.json": {
      body: JSON.stringify({
        version: "1",
        skills: ["../evilname", "a/b", ".hidden", "fine"].map((name, index) => ({
          name,
          description: "A skill.",
          path: `s${index}`,
          files: ["SKILL.md"],
        })),
      }),
    },
    "/skills/s3/SKILL.md": { body: skill("fine", "A skill.") },
    "/private.json?token=catalog-token-never-shown": {
      body: JSON.stringify({
        version: "1",
        skills: [{ name: "pdf", description: "Fill PDF forms.", path: "pdf", files: ["SKILL.md"] }],
      }),
    },
  });
});
afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

describe("install from an HTTP catalog", () => {
  it("copies a skill's extra files whole though the catalog lists no sizes", async () => {
    const to = join(base, "installed");
    const result = await runCli(
      ["install", "pdf", "--catalog", `${server.url}/skills-registry.json`, "--to", to, "--json"],
      { cwd: base, env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(to, "pdf", "references", "guide.md"), "utf8")).toBe(GUIDE);
    expect(await readFile(join(to, "pdf", "notes.md"), "utf8")).toBe("notes\n");
    // The bytes reported are those copied, not the listed zeros.
    expect((JSON.parse(result.stdout) as { bytes: number }).bytes).toBeGreaterThan(GUIDE.length);
  });

  it("still refuses a skill over maxBytes, found while copying, and leaves nothing", async () => {
    const config = join(base, "small.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["http-catalog", { catalogs: [`${server.url}/skills-registry.json`] }],
          ["install-skill", { maxBytes: 2048 }],
        ],
      }),
    );
    const to = join(base, "too-small");
    const result = await runCli(["install", "pdf", "--config", config, "--to", to], { cwd: base, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("its files hold more bytes than maxBytes allows");
    expect(existsSync(join(to, "pdf"))).toBe(false);
  });
});

describe("catalog entry names", () => {
  it("lists no entry whose name is a path, and says why", async () => {
    const result = await runCli(["list", "--catalog", `${server.url}/names.json`, "--log-level", "info"], {
      cwd: base,
      env,
    });
    expect(result.stdout).toBe("fine\n");
    expect(result.stderr).toContain('"../evilname" is not a usable skill name');
  });
});

describe("a catalog URL with a token in it", () => {
  it("is never shown to the agent", async () => {
    const { client, transport } = await connectCli(
      ["--catalog", `${server.url}/private.json?token=catalog-token-never-shown`],
      { cwd: base, env: env as Record<string, string> },
    );
    try {
      const listed = await client.callTool({ name: "list_skills", arguments: {} });
      expect(JSON.stringify(listed)).toContain("pdf");
      expect(JSON.stringify(listed)).not.toContain("catalog-token-never-shown");
    } finally {
      await transport.close();
    }
  });
});
