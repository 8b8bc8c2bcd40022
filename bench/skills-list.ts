// Paging through skills/list (the MCP Skills extension) for the 700-skill corpus and for 10,000
// synthetic skills written to disk: cold (a fresh server: every digest computed, every SKILL.md
// parsed) and warm (the same server again: digests known by file version, only listings and
// stats), with resources/list over the same skills as the reference measured in the same run.
//
//   npm run bench:skills-list [-- --runs 5] [--corpus ../shared/corpus] [--synthetic 10000]
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { stringify } from "yaml";
import { z } from "zod";
import { createKernel } from "../src/create-kernel.js";
import { createLogger } from "../src/kernel/logger.js";
import { CORPUS, loadSeedSkills, syntheticCatalog } from "./synthetic-catalog.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    corpus: { type: "string", default: CORPUS },
    synthetic: { type: "string", default: "10000" },
  },
});
const runs = Number(values.runs);

const Page = z.looseObject({
  skills: z.array(z.looseObject({ resources: z.array(z.unknown()) })),
  nextCursor: z.string().optional(),
});

interface Run {
  readonly cold: number;
  readonly warm: number;
  readonly resourcesList: number;
  readonly skills: number;
  readonly files: number;
  readonly pages: number;
}

async function pageThrough(client: Client): Promise<{ skills: number; files: number; pages: number }> {
  let cursor: string | undefined;
  let skills = 0;
  let files = 0;
  let pages = 0;
  do {
    const page = await client.request({ method: "skills/list", params: cursor === undefined ? {} : { cursor } }, Page);
    skills += page.skills.length;
    files += page.skills.reduce((sum, skill) => sum + skill.resources.length, 0);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { skills, files, pages };
}

/** One fresh server over `root`: the first paging is cold, the second warm. */
async function once(root: string): Promise<Run> {
  const kernel = await createKernel({
    config: {
      plugins: [
        ["fs", { roots: [{ path: root, source: "bench" }], watch: false }],
        "skill-resources",
        "skills-extension",
      ],
    },
    logger: createLogger("error"),
  });
  try {
    await kernel.catalog.ready();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await kernel.createMcpServer().connect(serverSide);
    const client = new Client({ name: "bench", version: "0" });
    await client.connect(clientSide);
    let started = performance.now();
    const counted = await pageThrough(client);
    const cold = performance.now() - started;
    started = performance.now();
    await pageThrough(client);
    const warm = performance.now() - started;
    started = performance.now();
    await client.listResources();
    const resourcesList = performance.now() - started;
    await client.close();
    return { cold, warm, resourcesList, ...counted };
  } finally {
    await kernel.close();
  }
}

const median = (numbers: readonly number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;

async function report(label: string, root: string): Promise<void> {
  const results: Run[] = [];
  for (let run = 0; run < runs; run++) results.push(await once(root));
  const [first] = results;
  const cold = median(results.map((r) => r.cold));
  const warm = median(results.map((r) => r.warm));
  const list = median(results.map((r) => r.resourcesList));
  console.log(
    `${label}: ${first!.skills} skills listed, ${first!.files} files, ${first!.pages} pages | ` +
      `skills/list cold ${cold.toFixed(0)} ms, warm ${warm.toFixed(0)} ms (cold/warm ${(cold / warm).toFixed(1)}x), ` +
      `warm per page ${(warm / first!.pages).toFixed(1)} ms | resources/list ${list.toFixed(0)} ms (median of ${runs})`,
  );
}

/** `count` synthetic skills on disk: SKILL.md with the seed-derived frontmatter and body, and one reference file. */
async function writeSynthetic(count: number): Promise<string> {
  const seed = await loadSeedSkills(values.corpus);
  const root = await mkdtemp(join(tmpdir(), "skills-kernel-bench-"));
  const skills = syntheticCatalog(seed.skills, count);
  for (let start = 0; start < skills.length; start += 200) {
    await Promise.all(
      skills.slice(start, start + 200).map(async (skill) => {
        const folder = join(root, skill.name);
        await mkdir(join(folder, "references"), { recursive: true });
        const frontmatter = stringify({ ...skill.frontmatter }).trimEnd();
        await writeFile(join(folder, "SKILL.md"), `---\n${frontmatter}\n---\n${skill.excerpt}\n`);
        await writeFile(join(folder, "references", "notes.md"), `# ${skill.name}\n\n${skill.description}\n`);
      }),
    );
  }
  console.log(`synthetic: ${count} skills derived from ${seed.origin}`);
  return root;
}

console.log(`Node ${process.version}, ${runs} runs each, pages of 50 (the default)`);
if (existsSync(values.corpus)) await report("corpus", values.corpus);
else console.log(`corpus: skipped, ${values.corpus} is absent`);
const synthetic = await writeSynthetic(Number(values.synthetic));
try {
  await report(`${values.synthetic} synthetic`, synthetic);
} finally {
  await rm(synthetic, { recursive: true, force: true });
}
