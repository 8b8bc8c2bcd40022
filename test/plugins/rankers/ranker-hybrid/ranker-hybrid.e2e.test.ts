// ranker-hybrid through the bundle on each runtime, against the embeddings fixture server.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIMES, runCli, type Runtime } from "../../../helpers/cli.js";
import { type EmbeddingsFixture, startEmbeddingsFixture } from "./fixture-server.js";
import { SKILLS } from "./skills.js";

let fixture: EmbeddingsFixture;
beforeAll(async () => {
  fixture = await startEmbeddingsFixture();
});
afterAll(() => fixture.close());

describe("ranker-hybrid through the bundled CLI", () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "sk-hybrid-"));
    await writeFile(join(work, "package.json"), "{}");
    for (const s of SKILLS) {
      await mkdir(join(work, "skills", s.name), { recursive: true });
      await writeFile(
        join(work, "skills", s.name, "SKILL.md"),
        `---\nname: ${s.name}\ndescription: ${s.description}\n---\n# ${s.name}\n`,
      );
    }
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  const config = (options: Record<string, unknown>) =>
    JSON.stringify({ plugins: [["fs", { roots: ["./skills"] }], ["ranker-hybrid", options], "search-skills"] });

  it.each(Object.keys(RUNTIMES) as Runtime[])("ranks with the endpoint's vectors on %s", async (runtime) => {
    await writeFile(
      join(work, "hybrid.config.json"),
      config({ url: fixture.url, model: "fixture-model", vectorWeight: 0.5 }),
    );
    // --log-level error: the fixture skills' own YAML warnings are not what this test is about.
    const result = await runCli(
      ["search", "nightfall", "--json", "--config", "hybrid.config.json", "--log-level", "error"],
      { cwd: work, runtime },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.results[0]).toMatchObject({ name: "dusk-photo-editor", match_quality: "weak" });
    // No word matched; what the vectors brought is counted.
    expect(answer.total).toBe(answer.results.length);
    expect(fixture.requests.some((r) => r.input.includes("nightfall"))).toBe(true);
  });

  it("refuses a bad option, or an API key variable that is not set, with one line", async () => {
    await writeFile(join(work, "bad.config.json"), config({ url: "ftp://example", model: "m" }));
    const bad = await runCli(["search", "x", "--config", "bad.config.json"], { cwd: work });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/plugin "ranker-hybrid": option url/);
    await writeFile(join(work, "weight.config.json"), config({ url: fixture.url, model: "m", vectorWeight: -1 }));
    const weight = await runCli(["search", "x", "--config", "weight.config.json"], { cwd: work });
    expect(weight.code).toBe(2);
    expect(weight.stderr).toMatch(/plugin "ranker-hybrid": option vectorWeight/);
    await writeFile(
      join(work, "key.config.json"),
      config({ url: fixture.url, model: "m", apiKeyEnv: "SK_TEST_NO_SUCH_KEY" }),
    );
    const key = await runCli(["search", "x", "--config", "key.config.json"], { cwd: work });
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/^skills-kernel: .*ranker-hybrid.*SK_TEST_NO_SUCH_KEY is not set\n$/);
  });
});
