import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, runCli, RUNTIMES, type Runtime } from "../helpers/cli.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { skill } from "../plugins/sources/git/repos.js";

/**
 * One bad catalog must not cost everyone time: its missing SKILL.md files are asked for once per
 * while, not on every call, and a hanging one does not hold back the other sources' answers.
 * The bundle served over stdio, a loopback catalog server.
 */
let base: string;
let server: FixtureServer;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-slow-sources-"));
  await mkdir(join(base, "skills", "local"), { recursive: true });
  await writeFile(join(base, "skills", "local", "SKILL.md"), skill("local"));
  const entries = ["missing", "present"].map((name) => ({
    name,
    description: `The ${name} skill.`,
    path: name,
    files: ["SKILL.md"],
  }));
  server = await startFixtureServer({
    "/skills-registry.json": { body: JSON.stringify({ version: "1", skills: entries }) },
    "/skills/present/SKILL.md": { body: skill("present") },
    // Answers long after any test would wait.
    "/hanging.json": { body: "{}", delayMs: 120_000 },
  });
});
afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

async function serve(catalogs: string[], runtime: Runtime = "node") {
  const config = join(base, `c${Math.random().toString(36).slice(2)}.json`);
  await writeFile(
    config,
    JSON.stringify({
      plugins: [
        ["fs", { roots: ["./skills"] }],
        ["http-catalog", { catalogs, retries: 0, timeoutMs: 60_000 }],
        "list-skills",
        "read-skill",
        "search-skills",
      ],
    }),
  );
  return connectCli(["--config", config], {
    cwd: base,
    runtime,
    env: { XDG_CACHE_HOME: join(base, "cache"), HOME: base },
  });
}

describe("a bad catalog", () => {
  it("is asked once for a SKILL.md that is not there, not on every call", async () => {
    const { client, transport } = await serve([`${server.url}/skills-registry.json`]);
    try {
      for (let call = 0; call < 3; call++) {
        const result = await client.callTool({ name: "read_skill", arguments: { skill_name: "missing" } });
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toContain("404");
      }
      expect(server.requests.filter((request) => request.path === "/skills/missing/SKILL.md")).toHaveLength(1);
      const present = await client.callTool({ name: "read_skill", arguments: { skill_name: "present" } });
      expect(present.isError).toBeFalsy();
    } finally {
      await transport.close();
    }
  });

  it.each(Object.keys(RUNTIMES) as Runtime[])(
    "that hangs does not hold back the other sources' first answer, on %s",
    async (runtime) => {
      const { client, transport } = await serve([`${server.url}/hanging.json`], runtime);
      try {
        const listed = await client.callTool({ name: "list_skills", arguments: {} });
        expect(JSON.stringify(listed.structuredContent)).toContain("local");
        // Answered while the catalog's request is still unanswered.
        expect(server.requests.some((request) => request.path === "/hanging.json" && request.status === 0)).toBe(true);
        // And it says which source is missing from it, as search does: the agent knows to ask again.
        const loading =
          (listed.structuredContent as { unavailable_sources?: { source: string; state: string }[] })
            .unavailable_sources ?? [];
        expect(loading.map(({ state }) => state)).toEqual(["loading"]);
        expect(JSON.stringify(listed.content)).toContain("is still loading");
        const found = await client.callTool({ name: "search_skills", arguments: { query: "local" } });
        expect(found.structuredContent).toMatchObject({ loading_sources: [loading[0]!.source] });
      } finally {
        await transport.close();
      }
    },
  );

  it('that hangs is said to be loading, never "No skills found", when it is the only source', async () => {
    const config = join(base, "only-hanging.json");
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["http-catalog", { catalogs: [`${server.url}/hanging.json`], retries: 0, timeoutMs: 60_000 }],
          "list-skills",
        ],
      }),
    );
    const { client, transport } = await connectCli(["--config", config], {
      cwd: base,
      env: { XDG_CACHE_HOME: join(base, "cache"), HOME: base },
    });
    try {
      const listed = await client.callTool({ name: "list_skills", arguments: {} });
      const text = JSON.stringify(listed.content);
      expect(text).not.toContain("No skills found");
      expect(text).toMatch(/No skills listed yet: \\"[^"\\]+\\" is still loading; ask again shortly/);
    } finally {
      await transport.close();
    }
  });
});

// Issue 34, still open from turn 3: a one-shot command with a hanging --catalog beside a local
// folder answers from the folder within a few seconds and says on stderr which source it lacks.
// The kill after 40 s is only a guard: before, these waited 47 s (91 s with --refresh).
describe("one-shot commands beside a hanging catalog", () => {
  const sources = () => ["--skills-dir", join(base, "skills"), "--catalog", `${server.url}/hanging.json`];
  const env = () => ({ XDG_CACHE_HOME: join(base, "cache"), HOME: base });
  const cases: [string, string[], RegExp, Runtime][] = [
    ["list", ["list"], /^local$/m, "node"],
    ["list --refresh", ["list", "--refresh"], /^local$/m, "node"],
    ["read", ["read", "local"], /# local/, "node"],
    ["search", ["search", "local"], /1\. local/, "node"],
    ["install --dry-run", ["install", "local", "--to", "DIR", "--dry-run"], /local/, "node"],
    // The warning names what the catalog's wait left out, whatever the runtime's timers do.
    ...(["node24", "bun", "deno"] as const).map((runtime): [string, string[], RegExp, Runtime] => [
      `list on ${runtime}`,
      ["list"],
      /^local$/m,
      runtime,
    ]),
  ];
  it.each(cases)(
    "%s answers from the local folder and names the source still loading",
    async (_name, command, expected, runtime) => {
      const args = command.map((arg) => (arg === "DIR" ? join(base, "target") : arg));
      const result = await runCli([...args, ...sources()], { cwd: base, runtime, env: env(), timeoutMs: 40_000 });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(expected);
      expect(result.stderr).toMatch(
        /skills-kernel: source "[^"]+" was still loading after 5 s; this answer is without its skills/,
      );
    },
  );
});
