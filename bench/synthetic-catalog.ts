// Catalogs of any size for the search benchmark and the evaluation's distractor run, derived from
// real skills so their vocabulary, lengths and phrasing are those of real catalogs. The same seed
// and size always give the same catalog.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogSkill } from "../src/skills/catalog/catalog-types.js";
import { createKernel } from "../src/create-kernel.js";
import { createLogger } from "../src/kernel/logger.js";

/** ../shared beside the checkout; SKILLS_KERNEL_SHARED points elsewhere (a git worktree sits deeper). */
export const SHARED = process.env.SKILLS_KERNEL_SHARED ?? fileURLToPath(new URL("../../shared", import.meta.url));
export const CORPUS = join(SHARED, "corpus");
const FALLBACK_ROOTS = ["../examples/skills", "../test/fixtures/skills"].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);

export interface SeedSkills {
  /** Where the skills came from, for the report. */
  readonly origin: string;
  readonly skills: readonly CatalogSkill[];
}

/** The skills of ../shared/corpus (or `corpus`), loaded as the server loads them; the repo's own skills when it is absent. */
export async function loadSeedSkills(corpus = CORPUS): Promise<SeedSkills> {
  const hasCorpus = existsSync(corpus);
  const roots = hasCorpus ? [corpus] : FALLBACK_ROOTS;
  const kernel = await createKernel({
    config: { plugins: [["fs", { roots: roots.map((path) => ({ path, source: hasCorpus ? "corpus" : "seed" })) }]] },
    logger: createLogger("error"),
  });
  try {
    await kernel.catalog.ready();
    const origin = hasCorpus
      ? `../shared/corpus (${kernel.catalog.list().length} skills)`
      : `examples/skills and test/fixtures/skills (${kernel.catalog.list().length} skills; ../shared/corpus is absent)`;
    return { origin, skills: kernel.catalog.list() };
  } finally {
    await kernel.close();
  }
}

/** mulberry32: a small, fast, seedable PRNG; Math.random cannot be seeded. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).filter((s) => s.trim().length > 0);
}

function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).filter((p) => p.trim().length > 0);
}

/**
 * `count` synthetic skills, each a recombination of three different seed skills: a name from
 * parts of two names, a description of one sentence from each, a body of paragraphs from two
 * bodies, the folders of the first and the frontmatter labels of the third. No synthetic name equals a seed name, so a search that
 * finds a synthetic skill never gets credit for the real one.
 */
export function syntheticCatalog(seed: readonly CatalogSkill[], count: number, seedNumber = 1): CatalogSkill[] {
  if (seed.length < 3) throw new Error("a synthetic catalog needs at least three seed skills");
  const random = prng(seedNumber);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const taken = new Set(seed.map((skill) => skill.name));
  const skills: CatalogSkill[] = [];
  for (let i = 0; i < count; i++) {
    const a = pick(seed);
    let b = pick(seed);
    while (b === a) b = pick(seed);
    let c = pick(seed);
    while (c === a || c === b) c = pick(seed);

    const partsA = a.name.split(/[-_\s]+/);
    const partsB = b.name.split(/[-_\s]+/);
    let name = [...partsA.slice(0, 1 + Math.floor(random() * Math.min(2, partsA.length))), ...partsB.slice(-1)]
      .join("-")
      .toLowerCase()
      .slice(0, 64);
    if (taken.has(name)) name = `${name}-${pick(c.name.split(/[-_\s]+/))}`.slice(0, 64);
    for (let n = 2; taken.has(name); n++) name = `${name.slice(0, 58)}-v${n}`;
    taken.add(name);

    const description = [pick(sentences(a.description)), pick(sentences(b.description)), pick(sentences(c.description))]
      .join(" ")
      .slice(0, 1024);
    const excerpt = [...paragraphs(b.excerpt).slice(0, 3), ...paragraphs(c.excerpt).slice(1, 4)]
      .join("\n\n")
      .slice(0, 2000);
    const folder = a.path.split("/").slice(0, -1).join("/");
    const path = folder ? `${folder}/${name}` : name;
    const frontmatter = Object.assign(Object.create(null) as Record<string, unknown>, c.frontmatter, {
      name,
      description,
    });
    skills.push({
      id: name,
      qualifiedId: `synthetic:${name}`,
      name,
      description,
      source: "synthetic",
      path,
      frontmatter,
      excerpt,
      shadowed: false,
    });
  }
  return skills;
}
