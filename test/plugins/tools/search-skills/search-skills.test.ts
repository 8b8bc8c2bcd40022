import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PluginEntry } from "../../../../src/kernel/config.js";
import { createKernel, type SkillsKernel as Kernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { TOKENS } from "../../../../src/tokens.js";
import {
  cut,
  DESCRIPTION_BYTES,
  matchQuality,
  toAnswer,
  type SearchAnswer,
} from "../../../../src/plugins/tools/search-skills/answer.js";
import { Bm25Ranker } from "../../../../src/plugins/rankers/ranker-bm25/ranker.js";
import { CORPORA, readManifest } from "../../../helpers/corpus.js";
import { HOSTILE_QUERIES, REPO_SKILLS } from "../../rankers/ranker-bm25/skills.js";

interface Connected {
  kernel: Kernel;
  client: Client;
  logs: string[];
  search(args: Record<string, unknown>): Promise<CallToolResult>;
}

const open: Connected[] = [];

/** A kernel with these plugins, and an MCP client connected to it in-process. */
async function connect(plugins: PluginEntry[]): Promise<Connected> {
  const logs: string[] = [];
  const kernel = await createKernel({ config: { plugins }, logger: createLogger("debug", (line) => logs.push(line)) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "search-skills-test", version: "0" });
  await kernel.createMcpServer().connect(serverSide);
  await client.connect(clientSide);
  const connected: Connected = {
    kernel,
    client,
    logs,
    search: async (args) => (await client.callTool({ name: "search_skills", arguments: args })) as CallToolResult,
  };
  open.push(connected);
  return connected;
}

afterAll(async () => {
  for (const { client, kernel } of open.splice(0)) {
    await client.close();
    await kernel.close();
  }
});

function answerOf(result: CallToolResult): SearchAnswer {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const text = (result.content[0] as { text: string }).text;
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent as unknown as SearchAnswer;
}

function errorOf(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

const repoRoots = [
  { path: REPO_SKILLS[0]!, source: "examples" },
  { path: REPO_SKILLS[1]!, source: "fixtures" },
];

describe("search_skills", () => {
  let server: Connected;
  beforeAll(async () => {
    server = await connect([["fs", { roots: repoRoots }], "search-skills"]);
  });

  it("is listed as step 1 of 3, read-only, with an output schema", async () => {
    const { tools } = await server.client.listTools();
    const tool = tools.find((t) => t.name === "search_skills")!;
    expect(tool.description).toMatch(
      /^Step 1 of 3: search \(metadata only\) → read_skill \(SKILL\.md and its file list\) → fetch_skill_files/,
    );
    expect(tool.description).toMatch(/Next: call read_skill with the id/);
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tool.outputSchema?.properties).toHaveProperty("results");
    expect(tool.inputSchema.required).toEqual(["query"]);
  });

  it("answers with metadata only, best first: id, name, cut description, source, score and match quality", async () => {
    const answer = answerOf(await server.search({ query: "release notes from merged pull requests" }));
    expect(answer.query).toBe("release notes from merged pull requests");
    expect(answer.results[0]).toMatchObject({ id: "changelog-curator", name: "changelog-curator", source: "examples" });
    expect(answer.total).toBeGreaterThanOrEqual(answer.results.length);
    for (const result of answer.results) {
      expect(Object.keys(result).sort()).toEqual(["description", "id", "match_quality", "name", "score", "source"]);
      expect(Number.isInteger(result.score)).toBe(true);
      expect(["exact", "strong", "partial", "weak"]).toContain(result.match_quality);
      expect(Buffer.byteLength(result.description)).toBeLessThanOrEqual(DESCRIPTION_BYTES);
    }
    const scores = answer.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("cuts long descriptions at a word boundary and marks the cut", async () => {
    const answer = answerOf(await server.search({ query: "changelog-curator" }));
    const [top] = answer.results;
    expect(top).toMatchObject({ id: "changelog-curator", score: 100, match_quality: "exact" });
    expect(top!.description).toMatch(/^Turns merged pull requests .*[^\s]…$/);
    expect(top!.description.length).toBeLessThan(server.kernel.catalog.get("changelog-curator")!.description.length);
  });

  it("returns 5 results unless told otherwise, and from 1 to 50", async () => {
    const all = answerOf(await server.search({ query: "skill user writes" }));
    expect(all.results.length).toBe(Math.min(5, all.total));
    expect(answerOf(await server.search({ query: "skill user writes", limit: 1 })).results).toHaveLength(1);
    expect(answerOf(await server.search({ query: "skill user writes", limit: 50 })).results).toHaveLength(
      Math.min(50, all.total),
    );
    for (const limit of [0, 51, 2.5, -1]) errorOf(await server.search({ query: "commit", limit }));
  });

  it("counts every match in total while describing only the limit", async () => {
    const ranker = new Bm25Ranker();
    ranker.build(server.kernel.catalog.list());
    for (const query of ["skill user writes", "csv", "release notes from merged pull requests", "zzzz qqqq"]) {
      const every = ranker.search(query, { limit: 1000 });
      for (const limit of [1, 3]) {
        const answer = answerOf(await server.search({ query, limit }));
        expect(answer.total, query).toBe(every.length);
        expect(
          answer.results.map((r) => r.id),
          query,
        ).toEqual(every.slice(0, limit).map((r) => r.skill.id));
      }
    }
  });

  it("refuses a blank query with a clear error", async () => {
    for (const query of ["", "   ", "\n\t"]) {
      expect(errorOf(await server.search({ query }))).toBe(
        'search_skills: query is blank: say what the skill should do, e.g. "write a commit message"',
      );
    }
  });

  it("filters by source, and names the sources that exist when given one that does not", async () => {
    const fixtures = answerOf(await server.search({ query: "csv greeting hello", source: "fixtures" }));
    expect(fixtures.results.map((r) => r.source)).toEqual(fixtures.results.map(() => "fixtures"));
    expect(fixtures.results.length).toBeGreaterThan(0);
    expect(errorOf(await server.search({ query: "csv", source: "nope" }))).toBe(
      'search_skills: no source named "nope"; sources: examples, fixtures',
    );
  });

  it("survives hostile queries", async () => {
    for (const query of HOSTILE_QUERIES) {
      const result = await server.search({ query });
      if (query.trim()) {
        const answer = answerOf(result);
        expect(Buffer.byteLength(answer.query)).toBeLessThanOrEqual(100);
      } else errorOf(result);
    }
  });
});

describe("match_quality", () => {
  it("is exact for 100, strong from 60 when clear of the next result by a fifth, partial from 30, weak below", () => {
    expect(matchQuality(100)).toBe("exact");
    expect(matchQuality(100, 100)).toBe("exact");
    expect(matchQuality(99)).toBe("strong");
    expect(matchQuality(60, 50)).toBe("strong");
    expect(matchQuality(60, 51)).toBe("partial"); // two near-equal matches: the agent should read both
    expect(matchQuality(95, 90)).toBe("partial");
    expect(matchQuality(59)).toBe("partial");
    expect(matchQuality(30)).toBe("partial");
    expect(matchQuality(29)).toBe("weak");
    expect(matchQuality(0)).toBe("weak");
  });

  it("labels each result against the one ranked after it, one past the limit included", () => {
    const at = (name: string, score: number) => ({
      skill: { id: name, name, description: "", source: "s" } as never,
      score,
    });
    const answer = toAnswer("q", [at("a", 90), at("b", 70), at("c", 65)], 2, 3);
    expect(answer.results.map((r) => r.match_quality)).toEqual(["strong", "partial"]);
    expect(answer.total).toBe(3);
  });
});

describe("search_skills with a ranker plugin", () => {
  it("uses the ranker the config provides, fuse included", async () => {
    const fuse = await connect([["fs", { roots: repoRoots }], "ranker-fuse", "search-skills"]);
    expect(fuse.logs.some((line) => line.includes("ranking with fuse"))).toBe(true);
    expect(answerOf(await fuse.search({ query: "commit-message-writer" })).results[0]).toMatchObject({
      id: "commit-message-writer",
      match_quality: "exact",
    });
    // Extended search ANDs the words: a sentence finds nothing, where bm25 finds the skill.
    expect(answerOf(await fuse.search({ query: "write a commit message for my staged changes" })).total).toBe(0);

    const bm25 = await connect([["fs", { roots: repoRoots }], "search-skills", "ranker-bm25"]);
    expect(bm25.logs.some((line) => line.includes("ranking with bm25"))).toBe(true);
    expect(answerOf(await bm25.search({ query: "write a commit message for my staged changes" })).results[0]?.id).toBe(
      "commit-message-writer",
    );
  });
});

/** A transport that serves nothing: `kernel.serve("loopback")` runs the plugins' serve hooks. */
const loopbackTransport: PluginEntry = {
  name: "loopback",
  setup: (ctx) =>
    ctx.contribute(TOKENS.Transport, {
      name: "loopback",
      start: async () => ({ closed: new Promise<void>(() => {}), close: async () => {} }),
    }),
};

/** A ranker plugin that records what search_skills asks of the default ranker it wraps. */
function recordingRanker(calls: string[]): PluginEntry {
  class Recording extends Bm25Ranker {
    override build(skills: Parameters<Bm25Ranker["build"]>[0]) {
      calls.push(`build ${skills.length}`);
      super.build(skills);
    }
    override add(skills: Parameters<Bm25Ranker["add"]>[0]) {
      calls.push(`add ${skills.length}`);
      super.add(skills);
    }
  }
  return {
    name: "recording-ranker",
    provides: [TOKENS.Ranker],
    setup: (ctx) => ctx.provideScoped(TOKENS.Ranker, () => new Recording()),
  };
}

describe("search_skills as skills change", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "skills-kernel-search-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await mkdir(root, { recursive: true });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const write = async (name: string, description: string) => {
    await mkdir(join(root, name), { recursive: true });
    await writeFile(join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`);
  };

  it("finds skills added, changed and removed since the first load", async () => {
    await write("terraform-plan", "Reviews Terraform plans before apply.");
    const { kernel, search } = await connect([["fs", { roots: [root] }], "search-skills"]);
    const ids = async (query: string) => answerOf(await search({ query })).results.map((r) => r.id);
    expect(await ids("terraform")).toEqual(["terraform-plan"]);

    await write("ansible-runner", "Runs Ansible playbooks against an inventory.");
    await write("terraform-plan", "Reviews OpenTofu plans before apply.");
    await kernel.catalog.refresh();
    expect(await ids("ansible playbooks")).toEqual(["ansible-runner"]);
    expect(await ids("opentofu")).toEqual(["terraform-plan"]);

    await rm(join(root, "ansible-runner"), { recursive: true });
    await kernel.catalog.refresh();
    expect(await ids("ansible playbooks")).toEqual([]);
  });

  it("is built afresh after a change as large as it, and follows smaller ones", async () => {
    const calls: string[] = [];
    const { kernel, search } = await connect([
      ["fs", { roots: [root], watch: false }],
      recordingRanker(calls),
      "search-skills",
    ]);
    // A search before any skill is in builds an empty index, as one within the first load's wait does.
    expect(answerOf(await search({ query: "terraform" })).total).toBe(0);
    await write("terraform-plan", "Handles terraform plan work.");
    await write("ansible-runner", "Handles ansible runner work.");
    await write("helm-charts", "Handles helm charts work.");
    await kernel.catalog.refresh();
    expect(answerOf(await search({ query: "terraform" })).results.map((r) => r.id)).toEqual(["terraform-plan"]);
    await write("pulumi-stacks", "Handles pulumi stacks work.");
    await kernel.catalog.refresh();
    expect(answerOf(await search({ query: "pulumi" })).results.map((r) => r.id)).toEqual(["pulumi-stacks"]);
    expect(calls).toEqual(["build 0", "build 3", "add 1"]);
  });

  it("is built again in the background while serving, with no search asking", async () => {
    const logs: string[] = [];
    const kernel = await createKernel({
      config: { plugins: [["fs", { roots: [root], watch: false }], "search-skills", loopbackTransport] },
      logger: createLogger("debug", (line) => logs.push(line)),
    });
    try {
      await kernel.serve("loopback");
      await expect.poll(() => logs.some((line) => line.includes("indexed 0 skills"))).toBe(true);
      await write("helm-charts", "Packages Helm charts.");
      await kernel.catalog.refresh();
      await expect.poll(() => logs.some((line) => line.includes("indexed 1 skills"))).toBe(true);
    } finally {
      await kernel.close();
    }
  });
});

describe("search_skills's index", () => {
  it("is built on first need, so one-shot commands never pay for it", async () => {
    // No index saved by an earlier run over these same skills: this one builds.
    const { search, logs } = await connect([
      ["fs", { roots: repoRoots }],
      ["search-skills", { diskCache: false }],
    ]);
    const built = () => logs.some((line) => line.includes("indexed"));
    expect(built()).toBe(false);
    expect(answerOf(await search({ query: "changelog" })).results[0]?.id).toBe("changelog-curator");
    // The search that built it reports the build, not a later warm-up that found it done.
    expect(built()).toBe(true);
  });

  it("is warmed in the background once the kernel serves", async () => {
    const logs: string[] = [];
    const kernel = await createKernel({
      config: {
        plugins: [["fs", { roots: repoRoots }], ["search-skills", { diskCache: false }], loopbackTransport],
      },
      logger: createLogger("debug", (line) => logs.push(line)),
    });
    await kernel.serve("loopback");
    await expect
      .poll(() => logs.some((line) => /search-skills\] debug: indexed \d+ skills in \d+ ms/.test(line)))
      .toBe(true);
    await kernel.close();
  });
});

describe.each(CORPORA)("search_skills over $label", (skillsCorpus) => {
  const title = skillsCorpus.title;
  let corpus: Connected;
  beforeAll(async () => {
    if (!skillsCorpus.present) return;
    corpus = await connect([["fs", { roots: [skillsCorpus.dir] }], "search-skills"]);
    await corpus.kernel.catalog.ready();
    expect(corpus.kernel.catalog.list().length).toBeGreaterThan(readManifest(skillsCorpus).length * 0.9);
  });

  it.skipIf(!skillsCorpus.present)(
    title("answers in under 2 KB of JSON, even with the five largest results and a long query"),
    async () => {
      const skills = corpus.kernel.catalog.list();
      // The bound: the five skills whose result is largest, in one answer to a long query.
      const largest = skills
        .map((skill) => ({
          skill,
          bytes: Buffer.byteLength(JSON.stringify(toAnswer("", [{ skill, score: 50 }], 1, 1).results[0])),
        }))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 5)
        .map(({ skill }) => ({ skill, score: 100 }));
      const worst = toAnswer("long query ".repeat(50), largest, 5, 700);
      expect(Buffer.byteLength(JSON.stringify(worst))).toBeLessThan(2048);

      // And real answers: each skill's name, and the words of its name, as queries.
      const queries = skills.slice(0, 150).flatMap((skill) => [skill.name, skill.name.replace(/-/g, " ")]);
      for (const query of queries) {
        const result = await corpus.search({ query });
        expect(Buffer.byteLength((result.content[0] as { text: string }).text), query).toBeLessThan(2048);
      }
    },
  );

  it.skipIf(!skillsCorpus.present)(title("finds a skill by its id first"), async () => {
    for (const skill of corpus.kernel.catalog.list().slice(0, 100)) {
      expect(answerOf(await corpus.search({ query: skill.id, limit: 1 })).results[0]?.id).toBe(skill.id);
    }
  });
});

describe("cutting text", () => {
  it("keeps text that fits, cuts at a word boundary otherwise, and counts bytes of UTF-8", () => {
    expect(cut("  short  ", 20)).toBe("short");
    expect(cut("one two three four five", 14)).toBe("one two…");
    expect(Buffer.byteLength(cut("仓颉".repeat(100), 30))).toBeLessThanOrEqual(30);
    expect(cut("a".repeat(50), 10)).toBe(`${"a".repeat(7)}…`);
  });
});
