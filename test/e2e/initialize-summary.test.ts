import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, type Runtime } from "../helpers/cli.js";
import { SHARED_CORPUS } from "../helpers/corpus.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { connectHttp } from "../helpers/http-client.js";
import { startHttpServer } from "../helpers/http-server.js";

/**
 * What an agent host sees when it spawns the server and sends `initialize` at once, as Claude Code
 * does: the official client connects as soon as it spawns the bundle, so its `initialize` is
 * waiting on stdin before the kernel has booted. The instructions, read once per session, must
 * name the local skills, cold and warm; a remote source never holds them up.
 */
const EXAMPLES = fileURLToPath(new URL("../../examples/skills", import.meta.url));
const NAMES = ["changelog-curator", "commit-message-writer", "readme-reviewer"];

let base: string;
let server: FixtureServer;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "skills-kernel-initialize-"));
  server = await startFixtureServer({ "/hanging.json": { body: "{}", delayMs: 120_000 } });
});
afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

/** The instructions of a server spawned with `args`, read as the client's connection opens. */
async function instructionsAtSpawn(args: readonly string[], runtime: Runtime = "node"): Promise<string> {
  const { client, transport } = await connectCli(args, { runtime });
  try {
    return client.getInstructions() ?? "";
  } finally {
    await transport.close();
  }
}

describe.each(Object.keys(RUNTIMES) as Runtime[])("an initialize sent at spawn, on %s", (runtime) => {
  it("names every local skill on a first start, with nothing cached", async () => {
    const instructions = await instructionsAtSpawn(["--skills-dir", EXAMPLES, "--no-disk-cache"], runtime);
    for (const name of NAMES) expect(instructions).toContain(`- ${name}: `);
    expect(instructions).not.toMatch(/still loading/i);
  });

  it("names every local skill on a warm start from the cache folder", async () => {
    const cacheDir = join(base, `warm-${runtime}`);
    // The first server keeps its snapshot and its summary in the cache folder as it stops.
    await instructionsAtSpawn(["--skills-dir", EXAMPLES, "--cache-dir", cacheDir], runtime);
    expect((await readdir(join(cacheDir, "snapshots"))).length).toBeGreaterThan(0);
    expect(await readdir(join(cacheDir, "summaries"))).toHaveLength(1);
    const instructions = await instructionsAtSpawn(["--skills-dir", EXAMPLES, "--cache-dir", cacheDir], runtime);
    for (const name of NAMES) expect(instructions).toContain(`- ${name}: `);
  });
});

describe("an initialize sent at spawn beside a remote source", () => {
  it("is not held up by a catalog that hangs: the local skills are named, the catalog as loading", async () => {
    const instructions = await instructionsAtSpawn([
      "--skills-dir",
      EXAMPLES,
      "--catalog",
      `${server.url}/hanging.json`,
      "--no-disk-cache",
    ]);
    for (const name of NAMES) expect(instructions).toContain(`- ${name}: `);
    expect(instructions).toMatch(/Still loading when this connection opened: [^;]+; their skills join as they load/);
    expect(instructions).toContain("skills-kernel://catalog/summary");
  });
});

describe("an initialize sent at spawn over the 700-skill corpus", () => {
  it.skipIf(!SHARED_CORPUS.present)(
    SHARED_CORPUS.title("names at least 20 skills across every area, warm, and says how to search"),
    async () => {
      const CORPUS = SHARED_CORPUS.dir;
      const cacheDir = join(base, "corpus");
      await instructionsAtSpawn(["--skills-dir", CORPUS, "--cache-dir", cacheDir]);
      const instructions = await instructionsAtSpawn(["--skills-dir", CORPUS, "--cache-dir", cacheDir]);
      const summary = instructions.split("\n\n")[1]!;
      expect(summary.length).toBeLessThanOrEqual(4_000);
      const examples = summary.split("\n").filter((line) => /^ {2,4}- [^ ]+: /.test(line));
      expect(examples.length).toBeGreaterThanOrEqual(20);
      // Every repository of the corpus is an area, or its skills' declared categories are.
      for (const repo of ["anthropics__skills/", "obra__superpowers/", "K-Dense-AI__claude-scientific-skills/"])
        expect(summary).toContain(`  - ${repo} (`);
      expect(summary.split("\n").at(-1)).toMatch(/^To find the skill for a task, call search_skills/);
    },
  );
});

describe("an initialize sent as soon as the HTTP server listens", () => {
  it.skipIf(!SHARED_CORPUS.present)(
    SHARED_CORPUS.title("names the corpus's skills on a cold start, at either revision"),
    async () => {
      // The wait raised from its default, so that a loaded machine's slow first load still fits in it.
      const config = join(base, "http.config.json");
      const fs = { roots: [{ path: SHARED_CORPUS.dir }], diskCache: false };
      const summary = { waitForLocalMs: 30_000, diskCache: false };
      await writeFile(config, JSON.stringify({ plugins: [["fs", fs], "search-skills", ["catalog-summary", summary]] }));
      const server = await startHttpServer(["--config", config]);
      try {
        for (const revision of ["2025-11-25", "2026-07-28"] as const) {
          const { client, transport } = await connectHttp(server.mcpUrl, { revision });
          const instructions = client.getInstructions() ?? "";
          await transport.close();
          expect(instructions, revision).not.toMatch(/still loading/i);
          expect(instructions.split("\n").filter((line) => /^ {2,4}- [^ ]+: /.test(line)).length).toBeGreaterThan(20);
        }
      } finally {
        await server.stop();
      }
    },
  );
});
