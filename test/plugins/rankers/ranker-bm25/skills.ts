import { fileURLToPath } from "node:url";
import type { CatalogSkill } from "../../../../src/skills/catalog/catalog-types.js";
import { createKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { RankedSkill, Ranker } from "../../../../src/skills/types.js";

export const REPO_SKILLS = [
  fileURLToPath(new URL("../../../../examples/skills", import.meta.url)),
  fileURLToPath(new URL("../../../fixtures/skills", import.meta.url)),
];

/** A catalog entry as the catalog builds it; `name` doubles as id and folder unless given. */
export function skill(fields: Partial<CatalogSkill> & { name: string; description: string }): CatalogSkill {
  const source = fields.source ?? "test";
  return {
    id: fields.name,
    qualifiedId: `${source}:${fields.name}`,
    source,
    path: fields.name,
    frontmatter: Object.assign(Object.create(null) as Record<string, unknown>, {
      name: fields.name,
      description: fields.description,
    }),
    excerpt: "",
    shadowed: false,
    ...fields,
  };
}

/** Skills loaded from folders by the real fs source and catalog, as a server would serve them. */
export async function loadSkills(roots: readonly string[]): Promise<readonly CatalogSkill[]> {
  const kernel = await createKernel({
    config: { plugins: [["fs", { roots: [...roots] }]] },
    logger: createLogger("error"),
  });
  try {
    await kernel.catalog.ready();
    return kernel.catalog.list();
  } finally {
    await kernel.close();
  }
}

/** A small catalog of invented but realistic skills, each findable by distinct words. */
export const SAMPLE = [
  skill({
    name: "k8s-deployer",
    description: "Deploys services to Kubernetes clusters with Helm charts. Use when shipping containers to a cluster.",
    excerpt: "# Kubernetes deployer\n\nRender the chart, then apply it with kubectl.",
  }),
  skill({
    name: "spreadsheet-formulas",
    description: "Writes and fixes Excel formulas: VLOOKUP, pivot tables, conditional formatting.",
    frontmatter: Object.assign(Object.create(null), {
      name: "spreadsheet-formulas",
      metadata: { category: "office", tags: ["xlsx", "finance"] },
    }),
  }),
  skill({
    name: "commit-message-writer",
    description:
      "Writes Conventional Commits messages from a staged diff. Use when the user asks for a commit message.",
  }),
  skill({
    name: "pdf-tables",
    description: "Extracts tables from PDF documents into CSV files.",
    source: "other",
  }),
  skill({
    name: "slide-deck-builder",
    description: "Builds presentation decks in PowerPoint format from an outline. Triggers on pitch deck, keynote.",
  }),
  skill({
    name: "postgres-tuning",
    description: "Tunes PostgreSQL queries and indexes; reads EXPLAIN ANALYZE plans to find slow joins.",
  }),
];

/** Untrusted queries: none may throw or take more than a moment. */
export const HOSTILE_QUERIES = [
  "x".repeat(100_000),
  "kubernetes ".repeat(10_000),
  Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}q`).join(" "),
  "!!!???...,,,;;;:::---___***",
  "(.*)+[a-z]{1,}\\d+$^|?*+()[]{}",
  "' OR 1=1; -- \u0000 \u202e \ufeff",
  "日本語のテキストを検索する",
  "🚀🔥💯 emoji only 🧪",
  "ｆｕｌｌｗｉｄｔｈ ＰＤＦ",
  "ǅemo Ⅻ ﬁle µ",
  "\n\t\r ",
  "a",
  "-",
  "c++ c# f# .net",
];

/** Every ranked list for `queries`, as ids and scores, for comparing two rankers' states. */
export function snapshot(
  ranker: Ranker,
  queries: readonly string[],
  options: { limit: number; source?: string } = { limit: 10 },
) {
  return queries.map((query) =>
    (ranker.search(query, options) as RankedSkill[]).map((r) => `${r.skill.qualifiedId} ${r.score}`),
  );
}
